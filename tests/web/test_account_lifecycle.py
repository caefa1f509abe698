"""Accounts through the API (minesweep.web.accounts), from their name to their deletion:
one name one account, renames, what guests may do, deletion, an old database, the page, and
random requests. On SQLite and PostgreSQL. Sessions and passwords: test_accounts.py."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import weakref
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect
from starlette.testclient import TestClient

from minesweep.web import Limits
from minesweep.web.schema import accounts, actions, games, sessions

from .account_helpers import OPEN, MakeClient, account_token_for, another, count, rows
from .helpers import PASSWORD, account_token, act, auth, get, new_game, sign_up, win

# --- one name, one account --------------------------------------------------------------------

#: The issues' look-alikes of "Alice" (and of "Admin"), the answer each gets
#: beside her, and words of the answer: 422 says what is wrong with the name,
#: 409 that it is Alice's.
LOOK_ALIKES = [
    ("\u0410lice", 422, "mixes scripts (Cyrillic, Latin)"),  # Cyrillic capital А
    ("Alice\ufe0f", 422, "U+FE0F"),  # a variation selector
    ("Al\u034fice", 422, "U+034F"),  # the combining grapheme joiner
    ("\uff21\uff4c\uff49\uff43\uff45", 422, "write 'A' instead"),  # fullwidth
    ("ALICE", 409, "'Alice'"),
    ("\u3164Alice", 422, "U+3164"),  # the Hangul filler
    ("Alice\u2800", 422, "U+2800"),  # the braille blank
    ("Ali\u0441e", 422, "mixes scripts"),  # Cyrillic small с
    ("AIice", 409, "'Alice'"),  # a capital I for the l
    # Issue 53's six, which passed before UTS #39's identifier rules.
    ("A\u04cfice", 422, "mixes scripts (Latin, Cyrillic)"),  # a Cyrillic palochka
    ("\u13aadmin", 422, "U+13AA (CHEROKEE LETTER GO)"),
    ("\u1d00\u029f\u026a\u1d04\u1d07", 422, "small capitals"),  # ᴀʟɪᴄᴇ
    ("\u1d00\u1d05\u1d0d\u026a\u0274", 422, "small capitals"),  # ᴀᴅᴍɪɴ
    ("Ali\u0307ce", 422, "a dot above on 'i'"),
    ("A\u00a1ice", 422, "U+00A1 (INVERTED EXCLAMATION MARK)"),
    ("Alice" + "\u0301" * 35, 422, "twice"),
]


@pytest.mark.parametrize(("name", "status", "words"), LOOK_ALIKES)
def test_no_look_alike_of_alice_registers_beside_her(
    client: Any, name: str, status: int, words: str
) -> None:
    sign_up(client, "Alice")
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
    # Nor does a guest play under it, nor an account take it by a rename.
    guest = another(client)
    assert guest.post("/api/games", json={"preset": "beginner", "name": name}).status_code == status
    guest.close()
    bob = account_token(client, "Bob")
    renamed = client.post("/api/account/name", json={"name": name}, headers=bob)
    assert renamed.status_code == status
    assert {account.name for account in rows(client, accounts)} == {"Alice", "Bob"}


# --- renames ----------------------------------------------------------------------------------


def test_a_rename_keeps_the_games_and_the_leaderboard_entries(client: Any) -> None:
    sign_up(client, "ada")
    won = win(client, new_game(client, preset="beginner")["id"])
    left = new_game(client, preset="beginner")["id"]
    act(client, left, "reveal", 4, 4)
    entry = client.get("/api/leaderboards/beginner").json()["scores"][0]
    assert (entry["name"], entry["games"], entry["win_rate"]) == ("ada", 2, 0.5)
    assert client.get(f"/api/replays/{won['public_id']}").json()["name"] == "ada"
    renamed = client.post("/api/account/name", json={"name": "Ada Lovelace"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["account"]["name"] == "Ada Lovelace"
    entry = client.get("/api/leaderboards/beginner").json()["scores"][0]
    assert (entry["name"], entry["games"], entry["win_rate"]) == ("Ada Lovelace", 2, 0.5)
    assert entry["replay"] == won["public_id"]
    assert client.get(f"/api/replays/{won['public_id']}").json()["name"] == "Ada Lovelace"
    # The games kept their account, and hold no name of their own.
    assert {(row.account_id, row.name) for row in rows(client, games)} == {
        (rows(client, accounts)[0].id, None)
    }
    # A rename to a case variant of its own name is no clash; the old name is free again.
    assert client.post("/api/account/name", json={"name": "ADA LOVELACE"}).status_code == 200
    assert (
        another(client)
        .post("/api/accounts", json={"name": "ada", "password": PASSWORD})
        .status_code
        == 201
    )
    assert client.post("/api/account/name", json={"name": "Ada"}).status_code == 409


# --- guests ---------------------------------------------------------------------------------


def test_guests_play_unranked_and_cannot_lower_an_accounts_win_rate(client: Any) -> None:
    sign_up(client, "Alice")
    win(client, new_game(client, preset="beginner")["id"])
    guest = another(client)
    # The attack: games made and left under her name. Refused, look-alikes too.
    for name, status in (("Alice", 409), ("alice", 409), ("AIice", 409), ("\u0410lice", 422)):
        answer = guest.post("/api/games", json={"preset": "beginner", "name": name})
        assert answer.status_code == status
    # Under any other name, or none, a guest plays; the games count for no one.
    guest_names: tuple[str | None, ...] = ("Mallory", None)
    for guest_name in guest_names:
        for _ in range(3):
            body = {"preset": "beginner"} | ({"name": guest_name} if guest_name else {})
            made = guest.post("/api/games", json=body)
            assert made.status_code == 201
            act(guest, made.json()["id"], "reveal", 4, 4)
    played = guest.post("/api/games", json={"preset": "beginner", "name": "Mallory"}).json()
    state = win(guest, played["id"])
    assert (state["ranked"], state["unranked_because"]) == (
        False,
        "played as a guest: sign in to rank",
    )
    board = client.get("/api/leaderboards/beginner").json()["scores"]
    assert [(entry["name"], entry["games"], entry["win_rate"]) for entry in board] == [
        ("Alice", 1, 1.0)
    ]
    guest.close()


def test_signed_in_a_game_is_the_accounts(client: Any) -> None:
    sign_up(client, "Alice")
    named = client.post("/api/games", json={"preset": "beginner", "name": "Alice"})
    assert named.status_code == 422
    assert "leave out name" in named.json()["error"]
    # A person's account declares no bot's games.
    bot = client.post("/api/games", json={"preset": "beginner", "bot": True})
    assert bot.status_code == 422
    assert "bot account" in bot.json()["error"]


def test_a_bot_accounts_games_are_bots_games(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(bot_min_games=1, **OPEN))
    robot = account_token(client, "robot", bot=True)
    state = win(client, new_game(client, headers=robot, preset="beginner")["id"])
    assert state["bot"] is True
    assert state["ranked"] is False
    board = client.get("/api/bots/beginner").json()["bots"]
    assert [(entry["name"], entry["games"], entry["wins"]) for entry in board] == [("robot", 1, 1)]
    me = client.get("/api/account", headers=robot).json()
    assert me["account"]["bot"] is True


# --- deleting an account --------------------------------------------------------------------


def test_deleting_an_account_removes_its_personal_data(client: Any) -> None:
    sign_up(client, "Alice")
    token = account_token_for(client, "Alice")
    ranked = win(client, new_game(client, preset="beginner")["id"])
    unranked = new_game(client, preset="beginner")["id"]
    act(client, unranked, "reveal", 4, 4)
    # Its replay, made and kept in memory with her name in it.
    assert client.get(f"/api/replays/{ranked['public_id']}").json()["name"] == "Alice"
    wrong = client.request("DELETE", "/api/account", json={"password": "not the password"})
    assert wrong.status_code == 401
    assert count(client, accounts) == 1
    gone = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    assert "max-age=0" in gone.headers["set-cookie"].lower()
    # No account, no session, no unranked game or its actions; nothing names her, in the
    # database or in the replays kept in memory.
    assert client.app.state.service.replays.size == 0
    assert count(client, accounts) == 0
    assert count(client, sessions) == 0
    assert rows(client, games, games.c.token == unranked) == []
    assert rows(client, actions, actions.c.token == unranked) == []
    # The ranked game stays on the leaderboard, anonymised.
    (kept,) = rows(client, games)
    assert (kept.public_id, kept.account_id, kept.name) == (ranked["public_id"], None, None)
    entry = client.get("/api/leaderboards/beginner").json()["scores"][0]
    assert (entry["name"], entry["replay"]) == ("anonymous", ranked["public_id"])
    assert client.get(f"/api/replays/{ranked['public_id']}").json()["name"] == "anonymous"
    assert client.get("/api/account", headers=token).status_code == 401
    assert get(client, unranked).status_code == 404
    # The name is free again.
    again = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert again.status_code == 201


# --- a database made before accounts ---------------------------------------------------------


def test_a_database_made_before_accounts_gets_its_column(database_url: str) -> None:

    from minesweep.web import create_app
    from minesweep.web.db import Database

    from .helpers import CHEAP_ACCOUNTS

    # The games table as it was: no account_id, a win ranked under a bare name.
    made = Database(database_url)
    with made.engine.begin() as connection:
        connection.exec_driver_sql("DROP INDEX web_games_account")
        connection.exec_driver_sql("ALTER TABLE web_games DROP COLUMN account_id")
    old = Database(database_url)  # opened again before the fix: must not fail either
    old.dispose()
    made.dispose()
    filler = Database(database_url)
    with filler.engine.begin() as connection:
        columns = "token, public_id, kind, name, bot, no_guess, seeded, assisted, status, base"
        connection.exec_driver_sql(
            f"INSERT INTO web_games ({columns}, actions, elapsed, clock_at, clock_epoch, seconds, "
            "bbbv, ranked, created_at, updated_at, finished_at, version) VALUES ('"
            + "t" * 32
            + "', '"
            + "p" * 16
            + "', 'beginner', 'old ada', false, false, false, false, 'won', '{}', 0, 9.0, 0.0, "
            "'e', 9.0, 20, true, 0.0, 0.0, 0.0, 1)"
        )
    filler.dispose()
    app = create_app(database_url, limits=Limits(**OPEN), accounts=CHEAP_ACCOUNTS)
    client = TestClient(app)
    database = app.state.service.db
    inspector = inspect(database.engine)
    assert "account_id" in {column["name"] for column in inspector.get_columns("web_games")}
    assert "web_games_account" in {index["name"] for index in inspector.get_indexes("web_games")}
    # The old win is kept, with no account: its bare name was never anyone's.
    assert database.load("t" * 32).account_id is None
    board = client.get("/api/leaderboards/beginner").json()["scores"]
    assert [(entry["name"], entry["seconds"]) for entry in board] == [("anonymous", 9.0)]
    # And the database takes accounts and their games.
    sign_up(client, "ada")
    assert rows(client, games, games.c.account_id.is_not(None)) == []
    new_game(client, preset="beginner")
    assert len(rows(client, games, games.c.account_id.is_not(None))) == 1
    client.close()
    database.dispose()


# --- the page -------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_page_registers_signs_in_and_out_renames_and_deletes(tmp_path: Path) -> None:
    from .browser import CHROMIUM, browser_page
    from .helpers import Server

    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium")
    path = tmp_path / "accounts.sqlite3"

    def account_of_game(token: str) -> Any:
        with contextlib.closing(sqlite3.connect(path)) as connection:
            return connection.execute(
                "SELECT account_id FROM web_games WHERE token = ?", (token,)
            ).fetchone()[0]

    def new_game_on(page: Any) -> str:
        before = page.evaluate("minesweep.page.game.id")
        page.click("#new")
        page.wait_for_function(f"minesweep.page.game && minesweep.page.game.id !== '{before}'")
        token: str = page.evaluate("minesweep.page.game.id")
        return token

    server = Server(f"sqlite:///{path}")
    try:
        with browser_page(server) as page:
            assert "guest" in page.inner_text("#whoami")
            assert account_of_game(page.evaluate("minesweep.page.game.id")) is None
            page.fill("#accountname", "Alice")
            page.fill("#password", PASSWORD)
            page.click("#register")
            page.wait_for_function("minesweep.page.account !== null")
            assert "Signed in as Alice" in page.inner_text("#whoami")
            assert page.is_hidden("#signin")
            # The session is the cookie, which the page's script cannot read.
            assert page.evaluate("document.cookie") == ""
            (cookie,) = page.context.cookies()
            assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
            assert account_of_game(new_game_on(page)) is not None
            # A reload keeps the session; signing out ends it.
            page.reload()
            page.wait_for_function(
                "minesweep.page.account !== null && minesweep.page.game !== null"
            )
            page.click("#signout")
            page.wait_for_function("minesweep.page.account === null")
            assert account_of_game(new_game_on(page)) is None
            # Signing in with the form, then a rename and the account's deletion.
            page.fill("#accountname", "alice")
            page.fill("#password", PASSWORD)
            page.press("#password", "Enter")
            page.wait_for_function("minesweep.page.account !== null")
            assert "Signed in as Alice" in page.inner_text("#whoami")
            page.click("#manage summary")
            page.fill("#newname", "Alice Liddell")
            page.press("#newname", "Enter")
            page.wait_for_function(
                "minesweep.page.account && minesweep.page.account.name === 'Alice Liddell'"
            )
            page.fill("#deletepassword", PASSWORD)
            page.press("#deletepassword", "Enter")
            page.wait_for_function("minesweep.page.account === null")
            assert "deleted" in page.inner_text("#message")
        with contextlib.closing(sqlite3.connect(path)) as connection:
            assert connection.execute("SELECT count(*) FROM web_accounts").fetchone()[0] == 0
    finally:
        server.stop()


# --- random requests --------------------------------------------------------------------------

ACCOUNT_ROUTES = [
    ("POST", "/api/accounts"),
    ("POST", "/api/session"),
    ("POST", "/api/tokens"),
    ("DELETE", "/api/session"),
    ("GET", "/api/account"),
    ("POST", "/api/account/password"),
    ("POST", "/api/account/name"),
    ("DELETE", "/api/account"),
    ("POST", "/api/games"),
]
_texts = st.text(st.characters(codec=None), max_size=40) | st.sampled_from(
    ["Alice", "ALICE", "\u0410lice", "Alice\ufe0f", PASSWORD, "", " ", "\ud800"]
)
_bodies = st.fixed_dictionaries(
    {},
    optional={
        "name": _texts,
        "password": _texts,
        "new_password": _texts,
        "bot": st.booleans(),
        "preset": st.just("beginner"),
    },
) | st.dictionaries(_texts, _texts, max_size=3)
#: Each client's credentials, made at its first use (see test_fuzz's _GAMES).
_SIGNED_IN: weakref.WeakKeyDictionary[Any, dict[str, str]] = weakref.WeakKeyDictionary()


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    route=st.sampled_from(ACCOUNT_ROUTES),
    body=_bodies,
    credential=st.sampled_from(["csrf", "bad csrf", "token", "game", "junk", "none"]),
    junk=st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=80),
)
def test_random_account_requests_never_get_a_5xx(
    client: Any, route: tuple[str, str], body: Any, credential: str, junk: str
) -> None:
    if client not in _SIGNED_IN:
        csrf = sign_up(client, "Alice").json()["csrf_token"]
        game = new_game(client, preset="beginner")["id"]
        # From here on, each example says which credentials it sends.
        client.headers.pop("X-CSRF-Token")
        _SIGNED_IN[client] = {
            "csrf": csrf,
            "token": account_token_for(client, "Alice")["Authorization"],
            "game": auth(game)["Authorization"],
        }
    known = _SIGNED_IN[client]
    headers = {"content-type": "application/json"}
    if credential == "csrf":
        headers["X-CSRF-Token"] = known["csrf"]
    elif credential == "bad csrf":
        headers["X-CSRF-Token"] = junk
    elif credential in ("token", "game"):
        headers["Authorization"] = known[credential]
    elif credential == "junk":
        headers["Authorization"] = f"Bearer {junk}"
    method, path = route
    content = None if method == "GET" else json.dumps(body).encode()
    response = client.request(method, path, content=content, headers=headers)
    assert response.status_code < 500, (route, body, response.text)
    assert "error" in response.json() or response.status_code in (200, 201)
