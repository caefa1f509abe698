"""Accounts through the API (minesweep.web.accounts): registering, signing in and out, the
cookie and its CSRF token, API tokens, passwords, renames, deletion, the sign-in limits, and
what guests may do. On SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from argon2 import Parameters, Type
from argon2.profiles import CHEAPEST
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, inspect, select
from starlette.testclient import TestClient

from minesweep.web import Limits
from minesweep.web.accounts import AccountSettings
from minesweep.web.db import accounts, actions, games, sessions

from .helpers import PASSWORD, account_token, act, auth, get, new_game, sign_up, win

MakeClient = Callable[..., Any]
OPEN: dict[str, Any] = {
    "create_rate": None,
    "action_rate": None,
    "human_limits": None,
    "require_review": False,
}


def rows(client: Any, table: Any, *where: Any) -> list[Any]:
    """The rows of ``table`` (where ``where`` holds), straight from the database."""
    with client.app.state.service.db.engine.connect() as connection:
        return list(connection.execute(select(table).where(*where)).all())


def count(client: Any, table: Any) -> int:
    with client.app.state.service.db.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar() or 0)


def sign_in(client: Any, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def another(browser: Any, **options: Any) -> TestClient:
    """A second browser on the same app as ``browser`` (its own cookies). Not entered as a
    context: that would run the app's lifespan, whose end stops the no-guess pool."""
    return TestClient(browser.app, **options)


# --- registering, the cookie, signing in and out ---------------------------------------------


def test_registering_signs_in_with_an_httponly_strict_cookie(client: Any) -> None:
    answer = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["account"]["name"] == "Alice"
    assert body["account"]["bot"] is False
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("minesweep_session=")
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    assert "samesite=strict" in cookie.lower()
    # Plain HTTP: not Secure (the browser would drop it), not __Host-.
    assert "secure" not in attributes
    # The secret is in the cookie only; the body has the CSRF token, which differs.
    secret = cookie.split(";")[0].split("=", 1)[1]
    assert secret not in answer.text
    assert body["csrf_token"]
    assert body["csrf_token"] != secret
    # Only its hash is stored.
    (session,) = rows(client, sessions)
    assert session.digest != secret
    assert secret not in session.digest
    assert session.kind == "cookie"
    (account,) = rows(client, accounts)
    assert account.password.startswith("$argon2id$")
    assert PASSWORD not in account.password
    me = client.get("/api/account")
    assert me.status_code == 200
    assert me.json() == body


def test_over_https_the_cookie_is_secure_and_host_only(client: Any) -> None:
    browser = another(client, base_url="https://testserver")
    answer = browser.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert answer.status_code == 201
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("__Host-minesweep_session=")
    parts = [part.strip().lower() for part in cookie.split(";")]
    assert "secure" in parts
    assert "httponly" in parts
    assert "path=/" in parts
    assert not any(part.startswith("domain") for part in parts)
    assert browser.get("/api/account").json()["account"]["name"] == "Alice"
    browser.close()


def test_signing_out_ends_the_session_and_clears_the_cookie(client: Any) -> None:
    sign_up(client, "Alice")
    cookie = client.cookies.get("minesweep_session")
    assert cookie
    out = client.delete("/api/session")
    assert out.status_code == 200, out.text
    assert "max-age=0" in out.headers["set-cookie"].lower()
    assert count(client, sessions) == 0
    assert client.get("/api/account").status_code == 401
    # A cookie kept from before names no session: refused, and cleared again.
    client.cookies.set("minesweep_session", cookie)
    stale = client.get("/api/account")
    assert stale.status_code == 401
    assert "sign in again" in stale.json()["error"]
    assert "max-age=0" in stale.headers["set-cookie"].lower()
    # Signing in again works, with a new secret.
    again = sign_in(client, "Alice")
    assert again.status_code == 200
    assert again.headers["set-cookie"].split(";")[0] != f"minesweep_session={cookie}"


def test_a_session_ends_when_it_expires(make_client: MakeClient) -> None:
    wall = [1_000_000.0]
    client = make_client(limits=Limits(**OPEN), wall=lambda: wall[0])
    sign_up(client, "Alice")
    assert client.get("/api/account").status_code == 200
    wall[0] += 31 * 24 * 3600.0  # past the 30 days
    assert client.get("/api/account").status_code == 401


# --- CSRF -------------------------------------------------------------------------------------


def test_a_cookie_signed_write_without_the_csrf_token_is_refused(client: Any) -> None:
    sign_up(client, "Alice")
    csrf = client.headers.pop("X-CSRF-Token")
    refused = [
        client.post("/api/games", json={"preset": "beginner"}),
        client.post("/api/games", json={"preset": "beginner"}, headers={"X-CSRF-Token": "x"}),
        client.post("/api/account/name", json={"name": "Alicia"}),
        client.delete("/api/session"),
        client.request("DELETE", "/api/account", json={"password": PASSWORD}),
        client.post("/api/account/password", json={"password": PASSWORD, "new_password": "x" * 12}),
    ]
    assert [answer.status_code for answer in refused] == [403] * len(refused)
    assert "X-CSRF-Token" in refused[0].json()["error"]
    assert count(client, games) == 0
    assert rows(client, accounts)[0].name == "Alice"
    assert count(client, sessions) == 1
    # A browser's word that the request comes from another site: refused, token or not.
    cross = client.post(
        "/api/games",
        json={"preset": "beginner"},
        headers={"X-CSRF-Token": csrf, "Sec-Fetch-Site": "cross-site"},
    )
    assert cross.status_code == 403
    # Reads need no token; with it, a write goes through.
    assert client.get("/api/account").json()["csrf_token"] == csrf
    made = client.post("/api/games", json={"preset": "beginner"}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201
    (game,) = rows(client, games)
    assert game.account_id == rows(client, accounts)[0].id


def test_signing_in_from_another_site_is_refused(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    client.cookies.clear()
    cross = {"Sec-Fetch-Site": "cross-site"}
    for path in ("/api/session", "/api/tokens"):
        answer = client.post(path, json={"name": "Alice", "password": PASSWORD}, headers=cross)
        assert answer.status_code == 403, path
    answer = client.post("/api/accounts", json={"name": "Bob", "password": PASSWORD}, headers=cross)
    assert answer.status_code == 403
    assert count(client, sessions) == 1  # the registration's, cleared from the jar


# --- account tokens -------------------------------------------------------------------------


def test_an_account_token_signs_api_clients_in_and_is_never_a_games(client: Any) -> None:
    headers = account_token(client, "Alice")
    token = headers["Authorization"].removeprefix("Bearer ")
    assert token.startswith("msa_")
    assert (
        "set-cookie"
        not in client.post("/api/tokens", json={"name": "Alice", "password": PASSWORD}).headers
    )
    me = client.get("/api/account", headers=headers)
    assert me.status_code == 200
    assert me.json() == {"account": me.json()["account"], "csrf_token": None}
    # No CSRF token needed: a browser never sends this header by itself.
    game = new_game(client, headers=headers, preset="beginner")
    assert rows(client, games)[0].account_id is not None
    # An account token on a game's route, and a game's token on an account's: refused by name.
    mixed = get(client, token)
    assert mixed.status_code == 401
    assert "account token" in mixed.json()["error"]
    wrong = client.get("/api/account", headers=auth(game["id"]))
    assert wrong.status_code == 401
    assert "game's token" in wrong.json()["error"]
    # A game's token sent to POST /api/games (a client that sends it everywhere) is ignored:
    # the game is a guest's.
    guest = new_game(client, headers=auth(game["id"]), preset="beginner")
    assert client.app.state.service.db.load(guest["id"]).account_id is None
    # Signing out with the token revokes it.
    assert client.delete("/api/session", headers=headers).status_code == 200
    gone = client.post("/api/games", json={"preset": "beginner"}, headers=headers)
    assert gone.status_code == 401
    assert "revoked or expired" in gone.json()["error"]


# --- the same answer for an unknown name and a wrong password -------------------------------


def test_an_unknown_name_gets_the_answer_a_wrong_password_gets(client: Any) -> None:
    sign_up(client, "Alice")
    client.cookies.clear()
    wrong = sign_in(client, "Alice", "not her password")
    unknown = sign_in(client, "Nobody", "not her password")
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json())
    assert wrong.status_code == 401
    assert wrong.json() == {"error": "wrong name or password"}
    assert "set-cookie" not in wrong.headers
    assert "set-cookie" not in unknown.headers
    for path in ("/api/tokens",):
        a = client.post(path, json={"name": "Alice", "password": "nope nope"})
        b = client.post(path, json={"name": "Nobody", "password": "nope nope"})
        assert (a.status_code, a.json()) == (b.status_code, b.json()) == (401, wrong.json())


def test_an_unknown_name_costs_a_hash_check_too(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same work, as far as it can be seen: both answers verify one argon2 hash.
    checked: list[str] = []
    service_accounts = client.app.state.service.accounts
    hasher = service_accounts.hasher

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(hasher, name)

        def verify(self, hash: str, password: str) -> Any:
            checked.append(hash)
            return hasher.verify(hash, password)

    monkeypatch.setattr(service_accounts, "hasher", Counting())
    sign_up(client, "Alice")
    sign_in(client, "Alice", "wrong password")
    sign_in(client, "Nobody", "wrong password")
    assert len(checked) == 2
    assert all(hash.startswith("$argon2id$") for hash in checked)


# --- the sign-in limits ---------------------------------------------------------------------


def test_signing_in_is_limited_per_name_with_waits_that_double(make_client: MakeClient) -> None:
    now = [0.0]
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0])
    sign_up(client, "Alice")
    client.cookies.clear()
    answers = [sign_in(client, "Alice", f"guess {n}").status_code for n in range(5)]
    assert answers == [401] * 5
    # The sixth waits a second, even with the right password; look-alikes share the limit.
    for name in ("Alice", "ALICE", "\u0410lice"):
        blocked = sign_in(client, name)
        assert blocked.status_code == 429, name
        assert blocked.headers["Retry-After"] == "1"
    now[0] += 1.0
    assert sign_in(client, "Alice", "guess 5").status_code == 401
    second = sign_in(client, "Alice")
    assert (second.status_code, second.headers["Retry-After"]) == (429, "2")
    now[0] += 2.0
    assert sign_in(client, "Alice", "guess 6").status_code == 401
    assert sign_in(client, "Alice").headers["Retry-After"] == "4"
    now[0] += 4.0
    # The right password, once the wait is over: signed in, and the failures forgotten.
    assert sign_in(client, "Alice").status_code == 200
    assert sign_in(client, "Alice", "guess 7").status_code == 401


def test_an_unknown_name_is_limited_exactly_as_a_known_one(make_client: MakeClient) -> None:
    now = [0.0]
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0])
    sign_up(client, "Alice")
    client.cookies.clear()

    def attempts(name: str) -> list[tuple[int, Any]]:
        answers = [sign_in(client, name, "wrong password") for _ in range(7)]
        return [(answer.status_code, answer.json()) for answer in answers]

    assert attempts("Alice") == attempts("Nobody")


def test_signing_in_is_limited_per_address(make_client: MakeClient) -> None:
    now = [0.0]
    settings = AccountSettings(hashing=CHEAPEST, address_burst=3, address_rate=0.5)
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0], accounts=settings)
    sign_up(client, "Alice")
    client.cookies.clear()
    # A different name each time, so no name's own limit is reached.
    answers = [sign_in(client, f"name {n}").status_code for n in range(4)]
    assert answers == [401, 401, 401, 429]
    # Another address has its own bucket: the right password signs in from there.
    elsewhere = another(client, client=("198.51.100.7", 4000))
    assert sign_in(elsewhere, "Alice").status_code == 200
    elsewhere.close()
    now[0] += 2.0  # half an attempt a second: one more after 2 s
    assert sign_in(client, "Alice").status_code == 200
    assert sign_in(client, "Alice").status_code == 429


def test_signing_in_is_limited_per_ipv6_64_not_per_address(make_client: MakeClient) -> None:
    # Issue 53: the holder of a /64 has 2**64 addresses; they share one bucket.
    settings = AccountSettings(hashing=CHEAPEST, address_burst=3, address_rate=0.5)
    client = make_client(limits=Limits(**OPEN), clock=lambda: 0.0, accounts=settings)
    sign_up(client, "Alice")
    client.close()
    guesses = [another(client, client=(f"2001:db8:1:2:{n:x}::{n + 1:x}", 4000)) for n in range(4)]
    answers = [sign_in(guesser, f"name {n}").status_code for n, guesser in enumerate(guesses)]
    assert answers == [401, 401, 401, 429]
    # The IPv4-mapped form of an IPv4 address is that address: one bucket.
    mapped = [
        another(client, client=(address, 4000)) for address in ("::ffff:192.0.2.9", "192.0.2.9")
    ]
    assert [sign_in(one, f"other {n}").status_code for n, one in enumerate(mapped * 2)] == [
        401,
        401,
        401,
        429,
    ]
    # Another /64 has its own.
    elsewhere = another(client, client=("2001:db8:1:3::1", 4000))
    assert sign_in(elsewhere, "Alice").status_code == 200
    for one in [*guesses, *mapped, elsewhere]:
        one.close()


# --- passwords ------------------------------------------------------------------------------


def test_changing_the_password_ends_every_other_session(client: Any) -> None:
    sign_up(client, "Alice")
    token = account_token_for(client, "Alice")
    other = another(client)
    assert sign_in(other, "Alice").status_code == 200
    wrong = client.post(
        "/api/account/password", json={"password": "not it at all", "new_password": "x" * 12}
    )
    assert wrong.status_code == 401
    short = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "x"})
    assert short.status_code == 422
    assert "8 to 1024 characters" in short.json()["error"]
    changed = client.post(
        "/api/account/password", json={"password": PASSWORD, "new_password": "a new passphrase"}
    )
    assert changed.status_code == 200, changed.text
    # This session goes on; the other browser's and the API token are over.
    assert client.get("/api/account").status_code == 200
    assert other.get("/api/account").status_code == 401
    assert client.get("/api/account", headers=token).status_code == 401
    other.close()
    client.cookies.clear()
    assert sign_in(client, "Alice").status_code == 401
    assert sign_in(client, "Alice", "a new passphrase").status_code == 200


def account_token_for(client: Any, name: str, password: str = PASSWORD) -> dict[str, str]:
    answer = client.post("/api/tokens", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return auth(answer.json()["token"])


def test_a_hash_made_with_old_parameters_is_made_again_at_sign_in(
    make_client: MakeClient,
) -> None:
    old = make_client(limits=Limits(**OPEN))  # the tests' cheapest parameters
    sign_up(old, "Alice")
    before = rows(old, accounts)[0].password
    assert "m=8,t=1,p=1" in before
    stronger = Parameters(
        type=Type.ID, version=19, salt_len=16, hash_len=32, time_cost=2, memory_cost=1024,
        parallelism=1,
    )  # fmt: skip
    settings = AccountSettings(hashing=stronger)
    new = make_client(limits=Limits(**OPEN), accounts=settings)
    assert sign_in(new, "Alice").status_code == 200
    after = rows(new, accounts)[0].password
    assert "m=1024,t=2" in after
    assert after != before
    # The new hash still checks the same password.
    new.cookies.clear()
    assert sign_in(new, "Alice").status_code == 200


def test_registration_checks_the_name_and_the_password(client: Any) -> None:
    short = client.post("/api/accounts", json={"name": "Alice", "password": "short"})
    assert short.status_code == 422
    sign_up(client, "Alice")
    taken = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert taken.status_code == 409
    assert "belongs to another account" in taken.json()["error"]
    assert count(client, accounts) == 1


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
    from starlette.testclient import TestClient

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
    from .helpers import Server
    from .test_page import CHROMIUM, browser_page

    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium")
    path = tmp_path / "accounts.sqlite3"

    def account_of_game(token: str) -> Any:
        with contextlib.closing(sqlite3.connect(path)) as connection:
            return connection.execute(
                "SELECT account_id FROM web_games WHERE token = ?", (token,)
            ).fetchone()[0]

    def new_game_on(page: Any) -> str:
        before = page.evaluate("game.id")
        page.click("#new")
        page.wait_for_function(f"game && game.id !== '{before}'")
        token: str = page.evaluate("game.id")
        return token

    server = Server(f"sqlite:///{path}")
    try:
        with browser_page(server) as page:
            assert "guest" in page.inner_text("#whoami")
            assert account_of_game(page.evaluate("game.id")) is None
            page.fill("#accountname", "Alice")
            page.fill("#password", PASSWORD)
            page.click("#register")
            page.wait_for_function("account !== null")
            assert "Signed in as Alice" in page.inner_text("#whoami")
            assert page.is_hidden("#signin")
            # The session is the cookie, which the page's script cannot read.
            assert page.evaluate("document.cookie") == ""
            (cookie,) = page.context.cookies()
            assert (cookie["httpOnly"], cookie["sameSite"]) == (True, "Strict")
            assert account_of_game(new_game_on(page)) is not None
            # A reload keeps the session; signing out ends it.
            page.reload()
            page.wait_for_function("account !== null && game !== null")
            page.click("#signout")
            page.wait_for_function("account === null")
            assert account_of_game(new_game_on(page)) is None
            # Signing in with the form, then a rename and the account's deletion.
            page.fill("#accountname", "alice")
            page.fill("#password", PASSWORD)
            page.press("#password", "Enter")
            page.wait_for_function("account !== null")
            assert "Signed in as Alice" in page.inner_text("#whoami")
            page.click("#manage summary")
            page.fill("#newname", "Alice Liddell")
            page.press("#newname", "Enter")
            page.wait_for_function("account && account.name === 'Alice Liddell'")
            page.fill("#deletepassword", PASSWORD)
            page.press("#deletepassword", "Enter")
            page.wait_for_function("account === null")
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
