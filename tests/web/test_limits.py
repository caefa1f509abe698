"""The web game as an attacker or a bot meets it: exactly-once actions, rate limits, caps,
expiry, the no-guess pool, names, time, headers, fair leaderboards. On SQLite and PostgreSQL."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from minesweep import Minefield
from minesweep.web import Limits
from minesweep.web.guards import NoGuessPool
from minesweep.web.limits import network
from minesweep.web.schema import actions, games

from .helpers import (
    account_token,
    act,
    auth,
    field_of,
    get,
    new_game,
    post,
    server_game,
    win,
)

MakeClient = Callable[..., Any]
# Wins rank without the page's record of the mouse here (test_trace.py checks it).
OPEN: dict[str, Any] = {
    "create_rate": None,
    "action_rate": None,
    "human_limits": None,
    "require_trace": False,
    "require_review": False,
}


def count_rows(client: Any, table: Any, token: str | None = None) -> int:
    query = select(func.count()).select_from(table)
    if token is not None:
        query = query.where(table.c.token == token)
    with client.app.state.service.db.engine.connect() as connection:
        return int(connection.execute(query).scalar() or 0)


# --- exactly once ---------------------------------------------------------------------------


def test_a_repeated_request_is_applied_once(client: Any) -> None:
    token = new_game(client, preset="beginner", seed=7)["id"]
    body = {"action": "reveal", "row": 4, "col": 4, "version": 0}
    answers = [client.post("/api/game/actions", json=body, headers=auth(token)) for _ in range(5)]
    assert [answer.status_code for answer in answers] == [200, 409, 409, 409, 409]
    # The refusal carries the game as it is, so a client can carry on from it.
    assert answers[1].json()["state"] == answers[0].json()["state"] | {
        "elapsed": answers[1].json()["state"]["elapsed"]
    }
    assert len(server_game(client, token).history) == 1
    undo = {"version": 1}
    assert client.post("/api/game/undo", json=undo, headers=auth(token)).status_code == 200
    assert client.post("/api/game/undo", json=undo, headers=auth(token)).status_code == 409


def test_actions_and_undo_need_a_version(client: Any) -> None:
    token = new_game(client)["id"]
    for path, body in [
        ("/api/game/actions", {"action": "reveal", "row": 0, "col": 0}),
        ("/api/game/undo", {}),
    ]:
        response = client.post(path, json=body, headers=auth(token))
        assert response.status_code == 400
        assert "missing required field `version`" in response.json()["error"]


# --- append-only storage ----------------------------------------------------------------------


def test_an_action_appends_one_row_and_rewrites_nothing(client: Any) -> None:
    token = new_game(client, preset="expert", seed=2)["id"]
    act(client, token, "reveal", 8, 15)
    base = client.app.state.service.db.load(token).base
    for col in range(12):
        act(client, token, "flag", 0, col)
        assert count_rows(client, actions, token) == col + 2
        assert client.app.state.service.db.load(token).base == base
    warm = get(client, token).json()
    client.app.state.service.forget(token)  # a cold read replays the log
    assert get(client, token).json() | {"elapsed": 0} == warm | {"elapsed": 0}


def test_a_game_holds_at_most_its_cap_of_actions(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(max_actions=5, **OPEN))
    token = new_game(client, preset="expert", seed=2)["id"]
    act(client, token, "reveal", 8, 15)
    for col in range(4):
        assert act(client, token, "flag", 0, col).status_code == 200
    refused = act(client, token, "flag", 0, 9)
    assert refused.status_code == 409
    assert "at most 5 actions" in refused.json()["error"]
    assert get(client, token).json()["actions"] == 5


def test_undoing_the_first_reveal_takes_the_field_back(client: Any) -> None:
    token = new_game(client, preset="beginner")["id"]
    act(client, token, "flag", 0, 0)
    act(client, token, "reveal", 4, 4)
    assert server_game(client, token).field is not None
    state = post(client, token, "undo").json()
    assert state["view"][0][0] == "F"
    assert state["status"] == "playing"
    game = server_game(client, token)
    assert game.field is None
    assert [str(action) for action in game.history] == ["F0,0"]
    # The next reveal lays a field again, around the square now clicked.
    opened = act(client, token, "reveal", 8, 8).json()["state"]
    assert opened["view"][8][8] == "."
    assert field_of(client, token).mines[7:, 7:].sum() == 0


# --- rate limits, expiry, the pool ----------------------------------------------------------


def test_a_flood_gets_429_with_retry_after(make_client: MakeClient) -> None:
    now = [100.0]
    client = make_client(
        limits=Limits(create_rate=1.0, create_burst=3, action_rate=2.0, action_burst=4),
        clock=lambda: now[0],
    )
    statuses = [
        client.post("/api/games", json={"preset": "beginner"}).status_code for _ in range(4)
    ]
    assert statuses == [201, 201, 201, 429]
    refused = client.post("/api/games", json={"preset": "beginner"})
    assert refused.headers["Retry-After"] == "1"
    assert "too many requests" in refused.json()["error"]
    now[0] += 1.0
    token = client.post("/api/games", json={"preset": "beginner"}).json()["id"]
    # Actions have a bucket of their own; reads are not limited.
    flags = [
        client.post(
            "/api/game/actions",
            json={"action": "flag", "row": 0, "col": col, "version": col},
            headers=auth(token),
        ).status_code
        for col in range(5)
    ]
    assert flags == [200, 200, 200, 200, 429]
    # Reads have a bucket of their own, four times the actions' (a burst of 16 here).
    reads = [get(client, token).status_code for _ in range(17)]
    assert reads == [200] * 16 + [429]


def test_one_ipv6_64_is_one_client_to_the_creations_bucket(make_client: MakeClient) -> None:
    # Issue 53: two addresses of one /64 share a bucket; another /64 has its own;
    # IPv4 addresses are counted one by one, as before, and an IPv4-mapped IPv6
    # address is its IPv4 one.
    client = make_client(
        limits=Limits(create_rate=1.0, create_burst=2, action_rate=None), clock=lambda: 100.0
    )

    def statuses(*addresses: str) -> list[int]:
        answers = []
        for address in addresses:
            other = TestClient(client.app, client=(address, 5000))
            answers.append(other.post("/api/games", json={"preset": "beginner"}).status_code)
            other.close()
        return answers

    assert statuses("2001:db8:0:1::1", "2001:db8:0:1:ffff::2", "2001:db8:0:1::3") == [201, 201, 429]
    assert statuses("2001:db8:0:2::1", "2001:db8:0:2::2") == [201, 201]
    assert statuses("192.0.2.1", "192.0.2.1", "192.0.2.2") == [201, 201, 201]
    assert statuses("::ffff:192.0.2.1") == [429]
    assert statuses("::ffff:192.0.2.3", "192.0.2.3", "192.0.2.3") == [201, 201, 429]


def test_the_cpu_bucket_is_per_ipv6_64(make_client: MakeClient) -> None:
    # A request's CPU is charged to its network: a debt run up from one address
    # of a /64 holds back the others, not another /64's.
    cpu = [0.0]
    client = make_client(
        limits=Limits(**(OPEN | {"action_rate": 1000.0}), cpu_rate=1.0, cpu_burst=10),
        clock=lambda: 100.0,
        cpu=lambda: cpu[0],
    )
    guards = client.app.state.guards
    assert guards.cpu is not None
    guards.cpu.charge("2001:db8:0:1::/64", 1000.0)

    def status(address: str) -> int:
        other = TestClient(client.app, client=(address, 5000))
        answer = other.post("/api/games", json={"preset": "beginner"}).status_code
        other.close()
        return int(answer)

    assert status("2001:db8:0:1::77") == 429
    assert status("2001:db8:0:1:1:2:3:4") == 429
    assert status("2001:db8:0:2::77") == 201


@pytest.mark.parametrize(
    ("address", "ipv4_prefix", "ipv6_prefix", "key"),
    [
        ("203.0.113.5", 32, 64, "203.0.113.5"),
        ("203.0.113.5", 24, 64, "203.0.113.0/24"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 32, 64, "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", 32, 56, "2001:db8:1::/56"),
        ("2001:db8:1:2::1", 32, 128, "2001:db8:1:2::1"),
        ("::ffff:203.0.113.5", 32, 64, "203.0.113.5"),
        ("::ffff:cb00:7105", 32, 64, "203.0.113.5"),
        ("fe80::1%eth0", 32, 64, "fe80::/64"),
        ("testclient", 32, 64, "testclient"),
    ],
)
def test_a_client_is_its_network(
    address: str, ipv4_prefix: int, ipv6_prefix: int, key: str
) -> None:
    assert network(address, ipv4_prefix=ipv4_prefix, ipv6_prefix=ipv6_prefix) == key
    limits = Limits(ipv4_prefix=ipv4_prefix, ipv6_prefix=ipv6_prefix)
    assert limits.client(address) == key


def test_prefix_lengths_are_checked() -> None:
    with pytest.raises(ValueError, match="prefix lengths"):
        Limits(ipv6_prefix=129)
    with pytest.raises(ValueError, match="prefix lengths"):
        Limits(ipv4_prefix=-1)


def test_unfinished_games_expire_and_count_as_losses(make_client: MakeClient) -> None:
    wall = [1_000_000.0]
    client = make_client(limits=Limits(expire_after=3600.0, **OPEN), wall=lambda: wall[0])
    ada = account_token(client, "ada")
    left = new_game(client, headers=ada, preset="beginner")["id"]
    act(client, left, "reveal", 4, 4)
    won = new_game(client, headers=ada, preset="beginner")["id"]
    win(client, won)
    wall[0] += 3601.0
    gone = get(client, left)
    assert gone.status_code == 410
    assert "expired" in gone.json()["error"]
    late = client.post(
        "/api/game/actions",
        json={"action": "flag", "row": 0, "col": 0, "version": 1},
        headers=auth(left),
    )
    assert late.status_code == 410
    # The next creation sweeps (the last sweep was an hour ago): the game is
    # marked expired and its log dropped.
    new_game(client, preset="beginner")
    assert client.app.state.service.db.load(left).status == "expired"
    assert count_rows(client, actions, left) == 0
    board = client.get("/api/leaderboards/beginner").json()
    assert [(s["name"], s["games"], s["win_rate"]) for s in board["scores"]] == [("ada", 2, 0.5)]


def test_hard_no_guess_boards_wait_in_a_bounded_queue(make_client: MakeClient) -> None:
    started, release = threading.Event(), threading.Event()

    def slow(rows: int, cols: int, mines: int, click: Any, seed: Any, seconds: Any) -> Minefield:
        started.set()
        release.wait(10)
        mines_at = np.zeros(rows * cols, dtype=bool)
        mines_at[:mines] = True
        return Minefield(mines_at.reshape(rows, cols))

    client = make_client(limits=Limits(**OPEN), pool=NoGuessPool(0, 0, lay=slow))
    first = new_game(client, preset="beginner", no_guess=True)["id"]
    second = new_game(client, preset="beginner", no_guess=True)["id"]
    plain = new_game(client, preset="beginner")["id"]
    answers: list[Any] = []
    worker = threading.Thread(target=lambda: answers.append(act(client, first, "reveal", 4, 4)))
    worker.start()
    assert started.wait(10)
    began = time.monotonic()
    busy = act(client, second, "reveal", 4, 4)
    assert busy.status_code == 503
    assert int(busy.headers["Retry-After"]) >= 1
    # An unrelated read is not held up by the board being made.
    assert get(client, plain).status_code == 200
    assert time.monotonic() - began < 2.0
    release.set()
    worker.join()
    assert answers[0].status_code == 200
    assert get(client, second).json()["status"] == "ready"  # nothing was applied


# --- bad input never 500s -------------------------------------------------------------------


def test_a_dead_no_guess_worker_is_a_503_not_a_500(make_client: MakeClient) -> None:
    from concurrent.futures.process import BrokenProcessPool

    def dies(*args: Any) -> Minefield:
        raise BrokenProcessPool("a worker died")

    client = make_client(limits=Limits(**OPEN), pool=NoGuessPool(0, 1, lay=dies))
    token = new_game(client, preset="beginner", no_guess=True)["id"]
    response = act(client, token, "reveal", 4, 4)
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert get(client, token).json()["status"] == "ready"


@pytest.mark.parametrize(
    ("raw", "status", "message"),
    [
        # Not valid Unicode: the body itself is malformed.
        (b'{"preset": "beginner", "name": "a\\ud800"}', 400, "lone surrogate"),
        # Valid text, but no name: refused naming the character.
        (b'{"preset": "beginner", "name": "a\\u0000b"}', 422, "U+0000"),
        (b'{"preset": "beginner", "name": "evil\\u202eeman"}', 422, "U+202E"),
        (b'{"preset": "beginner", "name": "a\\u0007"}', 422, "U+0007"),
    ],
)
def test_names_that_would_break_a_database_or_a_leaderboard_are_refused(
    client: Any, raw: bytes, status: int, message: str
) -> None:
    response = client.post("/api/games", content=raw, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert message in response.json()["error"]
    assert count_rows(client, games) == 0


def test_names_are_stored_in_nfc_and_counted_in_characters(client: Any) -> None:
    composed = new_game(client, preset="beginner", name="e\u0301" * 40)
    stored = client.app.state.service.db.load(composed["id"]).name
    assert stored == "\u00e9" * 40


def test_odd_paths_and_tokens_get_4xx(client: Any) -> None:
    for path in ["/api/replays/a%00b", "/api/replays/" + "x" * 300, "/api/leaderboards/a%00",
                 "/api/bots/%ff%fe", "/api/game/nothing"]:  # fmt: skip
        assert 400 <= client.get(path).status_code < 500, path
    for token in ["a\x00" * 10, "~" * 20, "x" * 65, ""]:
        response = client.get("/api/game", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code in (401, 404)


# --- time -------------------------------------------------------------------------------------


def test_a_wall_clock_jump_changes_no_time(make_client: MakeClient) -> None:
    now, wall = [50.0], [1_000_000.0]
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0], wall=lambda: wall[0])
    token = new_game(client, preset="beginner", seed=1)["id"]
    act(client, token, "reveal", 4, 4)
    now[0] += 3.0
    wall[0] -= 7200.0  # the wall clock goes back two hours
    assert get(client, token).json()["elapsed"] == 3.0
    wall[0] += 86_000.0  # and forward a day: still no expiry, still 5 seconds
    now[0] += 2.0
    assert act(client, token, "flag", 0, 0).json()["state"]["elapsed"] == 5.0


def test_time_the_server_was_down_is_not_charged(make_client: MakeClient) -> None:
    now = [50.0]
    first = make_client(limits=Limits(**OPEN), clock=lambda: now[0], epoch="boot-1")
    token = new_game(first, preset="beginner", seed=1)["id"]
    act(first, token, "reveal", 4, 4)
    now[0] += 4.0
    act(first, token, "flag", 0, 0)
    now[0] += 600.0  # the server is down for ten minutes
    second = make_client(limits=Limits(**OPEN), clock=lambda: now[0], epoch="boot-1")
    now[0] += 1.5
    assert get(second, token).json()["elapsed"] == 5.5
    # Another clock (a reboot, or another host up for a day): its readings say
    # nothing of this game's, so the game runs on from when it is read.
    now[0] = 86_400.0
    third = make_client(limits=Limits(**OPEN), clock=lambda: now[0], epoch="host-2")
    assert get(third, token).json()["elapsed"] == 4.0
    now[0] += 2.0
    assert act(third, token, "flag", 1, 1).json()["state"]["elapsed"] == 6.0


# --- headers ----------------------------------------------------------------------------------


def test_every_response_has_the_security_headers(client: Any) -> None:
    token = new_game(client)["id"]
    for response in [
        client.get("/"),
        client.get("/static/app.js"),
        client.get("/openapi.json"),
        get(client, token),
        get(client, "x" * 32),
        client.post("/api/games", json={"preset": "nope"}),
    ]:
        headers = response.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert "unsafe-inline" not in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    page = client.get("/").text
    for inline in ("<script>", " style=", "onclick"):
        assert inline not in page


# --- fair leaderboards --------------------------------------------------------------------------


def test_a_win_faster_than_people_play_is_not_ranked_among_them(make_client: MakeClient) -> None:
    now = [0.0]
    # The speed limit alone: the page's record of the mouse is test_trace.py's.
    client = make_client(
        limits=Limits(
            create_rate=None, action_rate=None, require_trace=False, require_review=False
        ),
        clock=lambda: now[0],
    )
    fast = new_game(client, preset="beginner", name="bot-maybe")["id"]
    act(client, fast, "reveal", 4, 4)
    now[0] += 0.05
    state = win(client, fast)
    assert state["ranked"] is False
    assert "faster than any person plays beginner" in state["unranked_because"]
    slow = new_game(client, headers=account_token(client, "ada"), preset="beginner")["id"]
    act(client, slow, "reveal", 4, 4)
    now[0] += 120.0  # two minutes: any person can be this fast
    state = win(client, slow)
    assert state["ranked"] is True
    board = client.get("/api/leaderboards/beginner").json()
    assert board["human_limit"] == 20.0
    assert [score["name"] for score in board["scores"]] == ["ada"]


def test_declared_bots_rank_apart_by_win_rate(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(bot_min_games=3, **OPEN))
    # Bot accounts' games; a guest's game declared a bot's counts for no one.
    guest = new_game(client, preset="beginner", name="steady", bot=True)["id"]
    win(client, guest)
    for name, wins, losses in [("steady", 3, 1), ("lucky", 1, 0), ("weak", 1, 3)]:
        bot = account_token(client, name, bot=True)
        for outcome in ["won"] * wins + ["lost"] * losses:
            token = new_game(client, headers=bot, preset="beginner", bot=True)["id"]
            if outcome == "won":
                state = win(client, token)
                assert state["ranked"] is False
                assert "bot" in state["unranked_because"]
            else:
                act(client, token, "reveal", 4, 4)
                mine = np.argwhere(field_of(client, token).mines)[0].tolist()
                assert act(client, token, "reveal", *mine).json()["state"]["status"] == "lost"
    board = client.get("/api/bots/beginner").json()
    assert board["min_games"] == 3
    rows = [(bot["name"], bot["games"], bot["wins"]) for bot in board["bots"]]
    assert rows == [("steady", 4, 3), ("weak", 4, 1)]  # "lucky" has too few games
    assert board["bots"][0]["low"] < 0.75 < board["bots"][0]["high"]
    assert client.get("/api/leaderboards/beginner").json()["scores"] == []


def test_a_seeded_no_guess_game_reads_back_cold(client: Any) -> None:
    token = new_game(client, preset="beginner", no_guess=True, seed=12)["id"]
    warm = act(client, token, "reveal", 4, 4).json()["state"]
    client.app.state.service.forget()  # rebuilt from its base and its log
    cold = get(client, token)
    assert cold.status_code == 200, cold.text
    assert cold.json()["view"] == warm["view"]


@pytest.mark.parametrize(("argv", "prefix"), [([], 64), (["--ipv6-prefix", "56"], 56)])
def test_serve_passes_its_ipv6_prefix_to_the_limits(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], prefix: int
) -> None:
    import minesweep.web
    from minesweep.cli import main

    seen: list[Limits] = []

    def create_app(url: str | None, *, limits: Limits, operators: Any = ()) -> Any:
        seen.append(limits)
        raise RuntimeError("no database in this test")

    monkeypatch.setattr(minesweep.web, "create_app", create_app)
    with pytest.raises(SystemExit):
        main(["serve", "--port", "1", *argv])
    assert [limits.ipv6_prefix for limits in seen] == [prefix]
