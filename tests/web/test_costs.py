"""What a request costs the server, and what it is charged (minesweep.web.guards, .app).

Costs charged once a request has run (its CPU time, its answer's bytes), a cap
on an address's requests in flight, replays made once and sent from a cache,
and ``Cache-Control: no-store`` on every answer of the API. Every clock here is
frozen or stepped by the test: no figure depends on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from minesweep import Minefield
from minesweep.solver import NoGuessBudgetError
from minesweep.web import Limits
from minesweep.web import guards as guards_module
from minesweep.web.guards import (
    ByteCache,
    InFlight,
    Meter,
    NoGuessPool,
    TokenBuckets,
    spent_elsewhere,
)
from minesweep.web.limits import ApiError
from minesweep.web.routes import ENDPOINTS

from .helpers import account_token, act, auth, get, new_game, post, win

MakeClient = Callable[..., Any]
#: The test client's address, as the app sees it.
CLIENT = "testclient"
# Wins rank without the page's record of the mouse here (test_trace.py checks it).
OPEN: dict[str, Any] = {
    "create_rate": None,
    "action_rate": None,
    "human_limits": None,
    "require_trace": False,
    "require_review": False,
}


def field_of(rows: int, cols: int, mines: int) -> Minefield:
    mines_at = np.zeros(rows * cols, dtype=bool)
    mines_at[:mines] = True
    return Minefield(mines_at.reshape(rows, cols))


def ranked_win(client: Any, preset: str = "beginner") -> tuple[str, str]:
    """A game won by an account (only those rank): its token and its public id."""
    token = new_game(client, headers=account_token(client, "ada"), preset=preset)["id"]
    state = win(client, token)
    assert state["ranked"] is True, state
    return token, state["public_id"]


# --- the pieces alone -------------------------------------------------------------------------


def test_a_bucket_charged_past_its_tokens_is_in_debt_until_the_refill_pays_it() -> None:
    now = [0.0]
    buckets = TokenBuckets(2.0, 10, clock=lambda: now[0])
    assert buckets.take("a", 1) == 0.0
    buckets.charge("a", 15.0)  # work done: charged whatever is left
    assert buckets.tokens("a") == -6.0
    assert buckets.take("a", 1) == 3.5  # (1 + 6) / 2 a second
    assert buckets.take("a", 0.0) == 3.0  # a request that takes nothing waits out the debt
    now[0] += 3.0
    assert buckets.tokens("a") == 0.0
    assert buckets.take("a", 0.0) == 0.0
    buckets.charge("b", 4.0)  # a new client starts from a full bucket
    assert buckets.tokens("b") == 6.0
    buckets.charge("b", 0.0)
    assert buckets.tokens("b") == 6.0


def test_in_flight_counts_each_clients_requests_and_forgets_idle_ones() -> None:
    cap = InFlight(2)
    assert [cap.enter("a") for _ in range(3)] == [True, True, False]
    assert cap.enter("b") is True  # another address has its own count
    cap.leave("a")
    assert cap.enter("a") is True
    assert cap.enter("a") is False
    for client in ("a", "a", "b"):
        cap.leave(client)
    assert len(cap) == 0


def test_a_meter_counts_its_threads_cpu_and_work_done_elsewhere() -> None:
    cpu = [10.0]
    spent_elsewhere(5.0)  # no meter running: nobody to charge
    with Meter(lambda: cpu[0]) as meter:
        cpu[0] += 0.25
        spent_elsewhere(1.5)
    assert meter.seconds == 1.75
    spent_elsewhere(5.0)  # after its end: not its
    assert meter.seconds == 1.75


def test_a_no_guess_field_laid_by_a_worker_charges_the_workers_cpu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers: list[tuple[Minefield | None, float, BaseException | None]] = [
        (field_of(9, 9, 10), 2.5, None),
        (None, 3.0, NoGuessBudgetError("no board in 3 s")),
    ]
    monkeypatch.setattr(guards_module, "_lay_timed", lambda *arguments: answers.pop(0))
    pool = NoGuessPool(1, 0)
    # A thread stands for the worker process: what is measured is what comes back.
    pool._executor = ThreadPoolExecutor(1)
    try:
        with Meter(lambda: 0.0) as laid:
            assert pool.field(9, 9, 10, (4, 4), None, 3.0).mine_count == 10
        assert laid.seconds == 2.5
        with Meter(lambda: 0.0) as failed, pytest.raises(NoGuessBudgetError):
            pool.field(9, 9, 10, (4, 4), None, 3.0)
        assert failed.seconds == 3.0  # a board that ran out of its budget cost all of it
    finally:
        pool.close(wait=True)


def test_a_worker_reports_its_cpu_with_a_field_or_an_error() -> None:
    def fails(*arguments: Any) -> Minefield:
        raise NoGuessBudgetError("no board")

    field, seconds, error = guards_module._lay_timed(
        lambda *arguments: field_of(9, 9, 10), 9, 9, 10, (4, 4), None, 1.0
    )
    assert field is not None
    assert error is None
    assert seconds >= 0.0
    field, seconds, error = guards_module._lay_timed(fails, 9, 9, 10, (4, 4), None, 1.0)
    assert field is None
    assert isinstance(error, NoGuessBudgetError)
    assert seconds >= 0.0


def test_a_byte_cache_drops_the_least_recently_used_past_its_size() -> None:
    cache: ByteCache[str] = ByteCache(10)
    made: list[str] = []

    def make(key: str, size: int) -> Callable[[], bytes]:
        def run() -> bytes:
            made.append(key)
            return key.encode() * size

        return run

    assert cache.get("a", make("a", 4)) == b"aaaa"
    assert cache.get("b", make("b", 4)) == b"bbbb"
    assert cache.get("a", make("a", 4)) == b"aaaa"  # kept, and now the most recent
    assert cache.get("c", make("c", 4)) == b"cccc"  # 12 bytes: "b" goes
    assert (len(cache), cache.size) == (2, 8)
    assert cache.get("b", make("b", 4)) == b"bbbb"
    assert made == ["a", "b", "c", "b"]
    assert cache.get("huge", make("huge", 11)) == b"huge" * 11  # made, but larger than it all
    assert cache.get("huge", make("huge", 11)) == b"huge" * 11
    assert made[-2:] == ["huge", "huge"]
    assert (len(cache), cache.size) == (2, 8)


def test_requests_for_a_value_being_made_wait_for_it_and_make_it_once() -> None:
    cache: ByteCache[str] = ByteCache(1000)
    started, release = threading.Event(), threading.Event()
    calls = []

    def slow() -> bytes:
        calls.append(1)
        started.set()
        assert release.wait(10)
        return b"replay"

    got: list[bytes] = []
    first = threading.Thread(target=lambda: got.append(cache.get("k", slow)))
    first.start()
    assert started.wait(10)
    waiting = [threading.Thread(target=lambda: got.append(cache.get("k", slow))) for _ in range(3)]
    for thread in waiting:
        thread.start()
    release.set()
    for thread in [first, *waiting]:
        thread.join()
    assert got == [b"replay"] * 4
    assert calls == [1]


def test_a_value_that_failed_to_be_made_is_made_by_the_next_request() -> None:
    cache: ByteCache[str] = ByteCache(1000)

    def fails() -> bytes:
        raise ApiError(409, "cannot")

    with pytest.raises(ApiError):
        cache.get("k", fails)
    assert cache.get("k", lambda: b"made") == b"made"
    assert len(cache) == 1


# --- what a request is charged ------------------------------------------------------------------


def metered_client(make_client: MakeClient, **limits: Any) -> tuple[Any, list[float], list[float]]:
    """A client on a frozen clock and a frozen CPU clock, both stepped by the test."""
    now, cpu = [100.0], [0.0]
    options: dict[str, Any] = {"create_rate": None, "action_rate": 1000.0, "action_burst": 1000}
    # Wins rank without the page's record of the mouse here (test_trace.py checks it).
    options["require_trace"] = False
    options["require_review"] = False
    client = make_client(
        limits=Limits(human_limits=None, **(options | limits)),
        clock=lambda: now[0],
        cpu=lambda: cpu[0],
    )
    return client, now, cpu


def test_a_request_is_charged_its_cpu_time_and_its_address_waits_out_the_debt(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, now, cpu = metered_client(make_client, cpu_rate=10.0, cpu_burst=100)
    cpu_bucket = client.app.state.guards.cpu
    token = new_game(client, preset="beginner", seed=1)["id"]
    act(client, token, "reveal", 4, 4)
    assert cpu_bucket.tokens(CLIENT) == 100.0  # the frozen CPU clock: those cost nothing
    service = client.app.state.service
    hint = service.hint

    def costly_hint(*arguments: Any) -> Any:
        cpu[0] += 0.15  # the solver's 150 ms on a hard board
        return hint(*arguments)

    monkeypatch.setattr(service, "hint", costly_hint)
    assert post(client, token, "hint").status_code == 200
    assert cpu_bucket.tokens(CLIENT) == -50.0  # milliseconds: into debt
    refused = get(client, token)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "5"  # 50 ms at 10 ms a second
    assert "share of the server's time" in refused.json()["error"]
    assert client.app.state.guards.buckets["reads"].tokens(CLIENT) == 4000.0 - 2  # untouched
    now[0] += 5.0
    assert get(client, token).status_code == 200


def test_a_request_that_fails_is_charged_the_work_it_did(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _, cpu = metered_client(make_client, cpu_rate=10.0, cpu_burst=100)
    token = new_game(client, preset="beginner")["id"]
    service = client.app.state.service

    def fails_late(token: str) -> Any:
        cpu[0] += 0.3  # say, a no-guess board that ran out of its budget
        raise ApiError(503, "no board in time")

    monkeypatch.setattr(service, "state", fails_late)
    assert get(client, token).status_code == 503
    assert client.app.state.guards.cpu.tokens(CLIENT) == -200.0


def test_a_large_answer_takes_a_token_per_its_bytes(make_client: MakeClient) -> None:
    client, _, _ = metered_client(make_client, answer_bytes_per_token=1000, cpu_rate=None)
    reads = client.app.state.guards.buckets["reads"]
    token, public_id = ranked_win(client, preset="expert")
    before = reads.tokens(CLIENT)
    small = get(client, token)
    assert len(small.content) <= 1000
    assert reads.tokens(CLIENT) == before - 1  # one token, as ever
    for path in (f"/api/replays/{public_id}", f"/api/replays/{public_id}.evf"):
        before = reads.tokens(CLIENT)
        sent = client.get(path)
        assert sent.status_code == 200
        assert len(sent.content) > 1000
        assert reads.tokens(CLIENT) == before - math.ceil(len(sent.content) / 1000), path


def test_costs_are_off_where_rates_are(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(**OPEN))
    guards = client.app.state.guards
    assert guards.cpu is None
    assert all(bucket is None for bucket in guards.buckets.values())
    assert guards.in_flight is not None  # the cap on requests in flight is apart


# --- the cap on requests in flight --------------------------------------------------------------


def test_an_address_has_at_most_its_cap_of_requests_in_flight(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client(limits=Limits(max_in_flight=2, **OPEN))
    token = new_game(client, preset="beginner")["id"]
    service = client.app.state.service
    state = service.state
    entered, release = threading.Semaphore(0), threading.Event()

    def slow_state(token: str) -> Any:
        entered.release()
        assert release.wait(10)
        return state(token)

    monkeypatch.setattr(service, "state", slow_state)
    answers: list[int] = []
    readers = [
        threading.Thread(target=lambda: answers.append(get(client, token).status_code))
        for _ in range(2)
    ]
    for reader in readers:
        reader.start()
    for _ in readers:
        assert entered.acquire(timeout=10)
    refused = client.get("/api/leaderboards/beginner")  # any route: the cap is the address's
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "1"
    assert "at most 2 requests at once" in refused.json()["error"]
    release.set()
    for reader in readers:
        reader.join()
    assert answers == [200, 200]
    assert len(client.app.state.guards.in_flight) == 0
    assert get(client, token).status_code == 200


def test_the_answer_is_encoded_off_the_event_loop(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long replay's encoding takes milliseconds: on the loop, every other request waits."""
    from minesweep.web import app as app_module

    encode = app_module._json
    loops: list[bool] = []

    def recording(*arguments: Any) -> Any:
        try:
            asyncio.get_running_loop()
            loops.append(True)
        except RuntimeError:
            loops.append(False)
        return encode(*arguments)

    monkeypatch.setattr(app_module, "_json", recording)
    _, public_id = ranked_win(client)
    client.get(f"/api/replays/{public_id}")
    assert loops
    assert not any(loops)


# --- replays, made once -----------------------------------------------------------------------


def test_a_replay_is_made_once_and_sent_from_the_cache(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import msgspec

    from minesweep.web import models

    _, public_id = ranked_win(client)
    service = client.app.state.service
    rebuilt: list[str] = []
    # The games' hook: called with each row a game is rebuilt from (a cache miss).
    monkeypatch.setattr(service.games, "on_rebuild", lambda row: rebuilt.append(row.public_id))
    first = client.get(f"/api/replays/{public_id}")
    second = client.get(f"/api/replays/{public_id}")
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert rebuilt == [public_id]
    # The cached bytes are the replay as it is made afresh.
    assert msgspec.json.decode(first.content, type=models.Replay) == service.replay(public_id)
    files = [client.get(f"/api/replays/{public_id}.evf") for _ in range(2)]
    assert files[0].content == files[1].content
    assert files[0].headers["content-disposition"] == files[1].headers["content-disposition"]
    named = files[0].headers["content-disposition"]
    assert named.startswith('attachment; filename="minesweep-beginner-won-')
    assert rebuilt == [public_id] * 3  # the replay() above, and the file once


def test_a_renamed_players_replay_shows_the_new_name(client: Any) -> None:
    """The one thing of a finished game that changes: its player's name is part of the key."""
    headers = account_token(client, "ada")
    public_id = win(client, new_game(client, headers=headers)["id"])["public_id"]
    before = client.get(f"/api/replays/{public_id}")
    assert before.json()["name"] == "ada"
    renamed = client.post("/api/account/name", json={"name": "grace"}, headers=headers)
    assert renamed.status_code == 200, renamed.text
    after = client.get(f"/api/replays/{public_id}")
    assert after.json()["name"] == "grace"
    assert after.json() == before.json() | {"name": "grace"}


def test_a_cache_too_small_for_a_replay_makes_it_every_time(
    make_client: MakeClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = make_client(limits=Limits(replay_cache_bytes=10, **OPEN))
    _, public_id = ranked_win(client)
    service = client.app.state.service
    rebuilt: list[str] = []
    monkeypatch.setattr(service.games, "on_rebuild", lambda row: rebuilt.append("x"))
    first, second = (client.get(f"/api/replays/{public_id}") for _ in range(2))
    assert first.content == second.content
    assert rebuilt == ["x", "x"]
    assert len(service.replays) == 0


# --- no-store ---------------------------------------------------------------------------------


def url_of(path: str, public_id: str) -> str:
    return (
        path.replace("{kind:path}", "beginner")
        .replace("{public_id}", public_id)
        .replace("{kind}", "beginner")
    )


#: A body each route with one takes, and one it refuses.
GOOD: dict[str, Any] = {
    "/api/games": {"preset": "beginner"},
    "/api/game/actions": {"action": "flag", "row": 0, "col": 0, "version": 0},
    "/api/game/undo": {"version": 0},
    "/api/game/hint": {"version": 0},
}


def test_every_answer_of_the_api_is_no_store_errors_included(make_client: MakeClient) -> None:
    client = make_client(limits=Limits(**OPEN))
    won, public_id = ranked_win(client)
    answers: list[Any] = []
    for endpoint in ENDPOINTS:
        url = url_of(endpoint.path, public_id)
        playing = new_game(client, preset="beginner")["id"]
        for token, body in [
            (playing, GOOD.get(endpoint.path)),  # answered (or 409, 422 for a file)
            (won, GOOD.get(endpoint.path)),  # a game over: 409, or its file
            ("x" * 32, GOOD.get(endpoint.path)),  # 404
            (None, GOOD.get(endpoint.path)),  # 401 where a token is needed
        ]:
            headers = {} if token is None else auth(token)
            if endpoint.request is bytes:
                answers.append(client.post(url, content=b"not a replay", headers=headers))
                answers.append(client.post(url, content=b"", headers=headers))  # 400
            else:
                answers.append(client.request(endpoint.method, url, headers=headers, json=body))
        if endpoint.request not in (None, bytes):
            answers.append(client.post(url, content=b"{", headers={**auth(playing),
                                       "content-type": "application/json"}))  # fmt: skip
            answers.append(client.post(url, content=b"{}", headers=auth(playing)))  # 415
            answers.append(client.post(url, content=b"x" * 5000, headers=auth(playing)))  # 413
        answers.append(client.request("DELETE", url))  # 405, the router's own
    answers.append(client.get("/api/nothing"))  # 404, the router's own
    answers.append(client.get("/api/replays/" + "x" * 32))
    # 429s: a slow bucket, and the cap on requests in flight (of zero left).
    slow = make_client(limits=Limits(create_rate=1e-3, create_burst=1, action_rate=1e-3,
                                     action_burst=1))  # fmt: skip
    answers += [slow.post("/api/games", json={"preset": "beginner"}) for _ in range(2)]
    statuses = {answer.status_code for answer in answers}
    assert statuses >= {200, 201, 400, 401, 404, 405, 409, 413, 415, 429}
    for answer in answers:
        assert answer.headers.get("cache-control") == "no-store", (
            answer.request.method,
            answer.request.url,
            answer.status_code,
        )


def test_the_page_and_its_files_may_be_cached(client: Any) -> None:
    for path in ("/", "/static/app.js", "/openapi.json"):
        assert "no-store" not in client.get(path).headers.get("cache-control", ""), path


def test_the_page_s_modules_are_served_as_javascript(client: Any) -> None:
    # The page loads app.js as a module, and the browser refuses a module (and what it
    # imports) served with any other type than JavaScript's.
    assert '<script type="module" src="/static/app.js">' in client.get("/").text
    waiting, seen = ["app.js"], set()
    while waiting:
        name = waiting.pop()
        seen.add(name)
        answer = client.get(f"/static/{name}")
        assert answer.status_code == 200, name
        assert answer.headers["content-type"].split(";")[0] in (
            "text/javascript",
            "application/javascript",
        ), name
        imported = re.findall(r'^import \{[^}]*\} from "\./([\w.]+)";$', answer.text, re.M)
        waiting.extend(module for module in imported if module not in seen)
    assert len(seen) > 5  # app.js and the modules by job
