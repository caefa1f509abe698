"""A person's win ranks only with the page's record of the mouse, matching its actions.

The bot here is the project's solver (:func:`minesweep.solver.hint`, which
reads only the view) acting through the API at a bot's steady pace, on the
server's own clock (injected: no test waits or measures time). Its traces
are made up from the actions it made, as a program that wanted to rank
would make them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from minesweep import Action, ActionKind, frontend
from minesweep.replays import write_evf
from minesweep.replays.model import MouseEvent
from minesweep.solver import hint
from minesweep.web import Limits
from minesweep.web.service import AWAITING_TRACE
from minesweep.web.trace import TraceRules, trace_replay

from .helpers import (
    PASSWORD,
    Server,
    act,
    auth,
    field_of,
    get,
    new_game,
    server_game,
    sign_up,
)

PX = 16

#: Event: (milliseconds, kind, x, y), as the page sends them.
Event = tuple[float, str, int, int]


@pytest.fixture
def paced(make_client: Callable[..., Any]) -> tuple[Any, list[float]]:
    """A client whose server clock the test moves ([0] is now), with the real limits
    on speed and the page's record required (no rate limit: tests act at once)."""
    now = [1000.0]
    client = make_client(
        limits=Limits(create_rate=None, action_rate=None, require_review=False),
        clock=lambda: now[0],
    )
    sign_up(client, "ada")
    return client, now


def play(
    client: Any, now: list[float], pace: Callable[[], float], no_guess: bool = True
) -> dict[str, Any]:
    """A game played by the solver, one reveal per ``pace()`` seconds of server time."""
    token = new_game(client, preset="beginner", no_guess=no_guess)["id"]
    state = get(client, token).json()
    while state["status"] in ("ready", "playing"):
        advice = hint(server_game(client, token))
        now[0] += pace()
        state = act(client, token, "reveal", advice.row, advice.col).json()["state"]
    played: dict[str, Any] = state
    return played


def history(client: Any, token: str) -> list[Action]:
    return list(server_game(client, token).history)


def synthesise(
    actions: list[Action], *, human: bool, seed: int = 0, origin_ms: float = 5000.0
) -> list[Event]:
    """A trace consistent with ``actions``: a press and release at each, moves between.

    ``human``: curved paths with a pixel of jitter, a move a frame, presses of varied
    length with the cursor drifting while the button is down;
    otherwise straight lines at a steady 50 ms press, as the least a bot would do.
    """
    rng = random.Random(seed)
    events: list[Event] = []
    x, y = 3.0, 3.0
    last = origin_ms - 400.0
    events.append((last, "mv", 3, 3))
    for action in actions:
        at = origin_ms + action.time * 1000.0
        hold = rng.uniform(45.0, 140.0) if human else 50.0
        right = action.kind in (ActionKind.FLAG, ActionKind.UNFLAG, ActionKind.QUESTION)
        # A left click counts at its release (the page acts then), a right at its press.
        press = at if right else at - hold
        tx = action.col * PX + PX / 2 + (rng.uniform(-4, 4) if human else 0)
        ty = action.row * PX + PX / 2 + (rng.uniform(-4, 4) if human else 0)
        start, stop = last + 8.0, press - 8.0
        steps = max(2, int((stop - start) / 16.0))
        # A bow of a fifth of the distance, to one side at random.
        bend = rng.choice((-1, 1)) * rng.uniform(0.15, 0.3) if human else 0.0
        nx, ny = -(ty - y), tx - x
        for step in range(1, steps + 1):
            f = step / (steps + 1)
            px = x + (tx - x) * f + bend * nx * 4 * f * (1 - f)
            py = y + (ty - y) * f + bend * ny * 4 * f * (1 - f)
            if human:
                px, py = px + rng.uniform(-1, 1), py + rng.uniform(-1, 1)
            events.append((start + (stop - start) * f, "mv", round(px), round(py)))
        cx, cy = round(tx), round(ty)
        button = "r" if right else "l"
        events.append((press, f"{button}c", cx, cy))
        if human:
            # A hand's press is not frozen: the cursor drifts a pixel while it is down.
            cx += rng.choice((-1, 1))
            events.append((press + hold / 2, "mv", cx, cy))
        events.append((press + hold, f"{button}r", cx, cy))
        x, y, last = tx, ty, press + hold
    return events


def send(client: Any, token: str, events: list[Event], px: int = PX) -> Any:
    body = msgspec.json.encode({"cell_px": px, "events": events})
    return client.post("/api/game/trace", content=body, headers=auth(token))


def human_pace(rng: random.Random) -> Callable[[], float]:
    return lambda: rng.uniform(0.35, 1.6)


def test_a_paced_bot_without_a_record_never_ranks(
    paced: tuple[Any, list[float]],
) -> None:
    """The bot that ranked 12 of 12 before: 0.12 s a move, under the speed ceiling."""
    client, now = paced
    wins = []
    for _ in range(60):
        state = play(client, now, lambda: 0.12, no_guess=False)
        if state["status"] == "won":
            wins.append(state)
        if len(wins) == 20:
            break
    assert len(wins) == 20
    assert all(state["stats"]["bbbv_per_second"] < 20 for state in wins)
    assert [(state["ranked"], state["unranked_because"]) for state in wins] == [
        (False, AWAITING_TRACE)
    ] * 20
    assert client.get("/api/leaderboards/beginner").json()["scores"] == []


def test_a_straight_line_record_of_a_bot_is_too_straight(
    paced: tuple[Any, list[float]],
) -> None:
    client, now = paced
    state = play(client, now, lambda: 0.12)
    assert state["status"] == "won"
    actions = history(client, state["id"])
    assert len(actions) >= 4
    answer = send(client, state["id"], synthesise(actions, human=False))
    assert answer.status_code == 200, answer.text
    judged = answer.json()
    assert judged["ranked"] is False
    assert "too straight for a hand" in judged["unranked_because"]


def test_a_record_of_bare_clicks_is_no_hand(paced: tuple[Any, list[float]]) -> None:
    client, now = paced
    rng = random.Random(3)
    state = play(client, now, human_pace(rng))
    events = synthesise(history(client, state["id"]), human=True)
    clicks_only = [event for event in events if event[1] != "mv"]
    judged = send(client, state["id"], clicks_only).json()
    assert judged["ranked"] is False
    assert "shows no cursor between" in judged["unranked_because"]


def test_a_cursor_that_jumps_is_no_hand(paced: tuple[Any, list[float]]) -> None:
    """A human-like record, but the cursor crosses the board between two frames."""
    client, now = paced
    state = play(client, now, human_pace(random.Random(9)))
    events = synthesise(history(client, state["id"]), human=True, seed=4)
    at = next(i for i, event in enumerate(events) if event[1] == "lc")
    t, _, x, y = events[at]
    jump = [(t - 4.0, "mv", x + 140, y + 140), (t - 3.0, "mv", x, y)]
    judged = send(client, state["id"], events[:at] + jump + events[at:]).json()
    assert judged["ranked"] is False
    assert "the cursor jumped" in judged["unranked_because"]


def test_a_metronome_rhythm_is_a_programs(paced: tuple[Any, list[float]]) -> None:
    """Curved paths, but the bot's clicks every 0.3 s to the millisecond."""
    client, now = paced
    state = play(client, now, lambda: 0.3)
    actions = history(client, state["id"])
    assert len(actions) >= TraceRules().min_clicks
    judged = send(client, state["id"], synthesise(actions, human=True, seed=1)).json()
    assert judged["ranked"] is False
    assert "metronome" in judged["unranked_because"]


def test_a_human_like_record_matching_the_actions_ranks(
    paced: tuple[Any, list[float]],
) -> None:
    client, now = paced
    rng = random.Random(7)
    state = play(client, now, human_pace(rng))
    assert (state["status"], state["unranked_because"]) == ("won", AWAITING_TRACE)
    answer = send(client, state["id"], synthesise(history(client, state["id"]), human=True))
    assert answer.status_code == 200, answer.text
    judged = answer.json()
    assert judged["ranked"] is True, judged.get("unranked_because")
    assert "unranked_because" not in judged
    assert get(client, state["id"]).json()["ranked"] is True
    board = client.get("/api/leaderboards/beginner/no-guess").json()["scores"]
    assert [entry["replay"] for entry in board] == [judged["public_id"]]
    # The record is the game's replay now: its EVF holds the page's moves.
    evf = client.get(f"/api/replays/{judged['public_id']}.evf")
    assert evf.status_code == 200
    from minesweep.replays import read

    replay = read(evf.content)
    assert replay.player == "ada"
    assert sum(event.kind == "mv" for event in replay.events) > len(history(client, state["id"]))
    # Sent once.
    again = send(client, state["id"], synthesise(history(client, state["id"]), human=True))
    assert again.status_code == 409


def test_an_evf_file_is_a_record_too(paced: tuple[Any, list[float]]) -> None:
    client, now = paced
    state = play(client, now, human_pace(random.Random(11)))
    token = state["id"]
    events = synthesise(history(client, token), human=True, seed=2)
    first = events[0][0]
    replay = trace_replay(
        field_of(client, token),
        PX,
        tuple(MouseEvent(round(t - first) / 1000.0, k, x, y) for t, k, x, y in events),  # type: ignore[arg-type]
    )
    answer = client.post("/api/game/trace", content=write_evf(replay), headers=auth(token))
    assert answer.status_code == 200, answer.text
    assert answer.json()["ranked"] is True, answer.json().get("unranked_because")


def _mismatched(events: list[Event], actions: list[Action], how: str) -> list[Event]:
    """The trace of ``actions`` with one thing wrong."""
    clicks = [i for i, event in enumerate(events) if event[1] in ("lc", "rc")]
    k = len(actions) // 2
    # The k-th press's release (a drift move may come between).
    release = next(i for i in range(clicks[k] + 1, len(events)) if events[i][1] in ("lr", "rr"))
    if how == "missing":
        # The k-th action's press and release are gone.
        return [event for i, event in enumerate(events) if i not in (clicks[k], release)]
    if how == "wrong square":
        # The k-th click lands two columns away (off the board if need be).
        t0, kind0, x0, y0 = events[clicks[k]]
        t1, kind1, _, _ = events[release]
        moved = x0 + 2 * PX if actions[k].col < 7 else x0 - 2 * PX
        changed = list(events)
        changed[clicks[k]] = (t0, kind0, moved, y0)
        changed[release] = (t1, kind1, moved, y0)
        return changed
    if how == "late":
        # Everything from the k-th click on happened five seconds later than the server saw.
        start = clicks[k] - 1
        return events[:start] + [(t + 5000.0, kind, x, y) for t, kind, x, y in events[start:]]
    raise AssertionError(how)


@pytest.mark.parametrize(
    ("how", "words"),
    [
        ("missing", "misses action"),
        ("wrong square", "misses action"),
        ("late", "5.0 s away from when the server got it"),
        ("out of order", "out of order"),
    ],
)
def test_a_record_that_does_not_match_the_actions_does_not_rank(
    paced: tuple[Any, list[float]], how: str, words: str
) -> None:
    client, now = paced
    state = play(client, now, human_pace(random.Random(5)))
    actions = history(client, state["id"])
    assert len(actions) >= 4
    if how == "out of order":
        # Two actions' clicks swapped, each at the other's time.
        k = len(actions) // 2
        swapped = list(actions)
        a, b = actions[k], actions[k + 1]
        swapped[k] = Action(b.kind, b.row, b.col, a.time)
        swapped[k + 1] = Action(a.kind, a.row, a.col, b.time)
        events = synthesise(swapped, human=True)
    else:
        events = _mismatched(synthesise(actions, human=True), actions, how)
    judged = send(client, state["id"], events).json()
    assert judged["ranked"] is False
    assert words in judged["unranked_because"], judged["unranked_because"]


def test_a_record_that_waited_for_the_field_to_be_laid_ranks(
    paced: tuple[Any, list[float]],
) -> None:
    """The first action lays the field, and the game's clock starts after: a page that
    waited seconds for a no-guess board has every later click that much later in its
    record than in the server's times, and is still the game's record."""
    client, now = paced
    state = play(client, now, human_pace(random.Random(9)))
    actions = history(client, state["id"])
    events = synthesise(actions, human=True, seed=3)
    first = next(i for i, event in enumerate(events) if event[1] == "lr")
    wait = 8000.0
    events = events[: first + 1] + [(t + wait, k, x, y) for t, k, x, y in events[first + 1 :]]
    judged = send(client, state["id"], events).json()
    assert judged["ranked"] is True, judged.get("unranked_because")


def test_a_bot_account_needs_no_record(make_client: Callable[..., Any]) -> None:
    now = [0.0]
    client = make_client(
        limits=Limits(create_rate=None, action_rate=None, require_review=False),
        clock=lambda: now[0],
    )
    sign_up(client, "robot", bot=True)
    state = play(client, now, lambda: 0.12)
    assert state["unranked_because"] == "declared a bot: see the bot leaderboard"
    assert state["bot"] is True


def _lost(client: Any) -> str:
    token = new_game(client, preset="beginner")["id"]
    act(client, token, "reveal", 4, 4)
    field = field_of(client, token)
    row, col = (int(v) for v in next(zip(*field.mines.nonzero(), strict=True)))
    assert act(client, token, "reveal", row, col).json()["state"]["status"] == "lost"
    lost: str = token
    return lost


@pytest.mark.parametrize(
    "body",
    [
        b"not json and no replay",
        b"{",
        b'{"cell_px": 16}',
        b'{"cell_px": 16, "events": []}',
        b'{"cell_px": 0, "events": [[0, "mv", 1, 1]]}',
        b'{"cell_px": 300, "events": [[0, "mv", 1, 1]]}',
        b'{"cell_px": 16, "events": [[0, "zz", 1, 1]]}',
        b'{"cell_px": 16, "events": [[10, "mv", 1, 1], [5, "mv", 1, 1]]}',
        b'{"cell_px": 16, "events": [[0, "mv", 1e20, 1]]}',
        b'{"cell_px": 16, "events": [[0, "mv", 100000000000000000000000, 1]]}',
        b'{"cell_px": 16, "events": [[0, "mv", 99999, 1]]}',
        b'{"cell_px": 16, "events": [[0, "mv", 1, 1]], "extra": 1}',
        b'{"cell_px": 16, "events": [[0, "mv", 1]]}',
        b'{"cell_px": 16, "events": [[1e300, "mv", 1, 1], [1e301, "mv", 1, 1]]}',
        b"\x00\x01\x02\x03",
        b"[]",
    ],
)
def test_a_bad_record_is_refused_with_a_4xx(client: Any, body: bytes) -> None:
    token = _lost(client)
    answer = client.post("/api/game/trace", content=body, headers=auth(token))
    assert answer.status_code == 400, answer.text
    assert "error" in answer.json()


def test_a_record_is_refused_while_the_game_runs_or_without_a_game(client: Any) -> None:
    token = new_game(client, preset="beginner")["id"]
    body = b'{"cell_px": 16, "events": [[0, "mv", 1, 1]]}'
    assert client.post("/api/game/trace", content=body, headers=auth(token)).status_code == 409
    assert client.post("/api/game/trace", content=body).status_code == 401
    assert client.post("/api/game/trace", content=b"", headers=auth(token)).status_code == 400
    unknown = auth("x" * 32)
    assert client.post("/api/game/trace", content=body, headers=unknown).status_code == 404
    many = msgspec.json.encode({"cell_px": 16, "events": [[i, "mv", 1, 1] for i in range(130_000)]})
    lost = _lost(client)
    answer = client.post("/api/game/trace", content=many, headers=auth(lost))
    assert answer.status_code in (400, 413)
    # A loss's record is kept (as its replay) and changes nothing.
    kept = client.post("/api/game/trace", content=body, headers=auth(lost))
    assert kept.status_code == 200, kept.text
    assert (kept.json()["status"], kept.json()["ranked"]) == ("lost", False)


def test_the_leaderboard_ranks_by_time_and_by_3bv_per_second(
    make_client: Callable[..., Any],
) -> None:
    """Two wins whose orders differ: the one with more 3BV takes longer, but less per 3BV."""
    now = [0.0]
    client = make_client(
        limits=Limits(
            create_rate=None,
            action_rate=None,
            human_limits=None,
            require_trace=False,
            require_review=False,
        ),
        clock=lambda: now[0],
    )
    sign_up(client, "ada")
    first = _won_in(client, now, lambda bbbv: 10.0)
    a = first["stats"]["bbbv"]
    # Between 10 s and 10 s times the 3BV's ratio: slower and faster per 3BV, or the reverse.
    second = _won_in(client, now, lambda bbbv: 10.0 * (1 + bbbv / a) / 2, avoid=a)
    b = second["stats"]["bbbv"]
    assert (first["elapsed"] < second["elapsed"]) == (b > a)
    assert (a / first["elapsed"] > b / second["elapsed"]) == (b < a)
    by_time = client.get("/api/leaderboards/beginner/no-guess").json()
    by_speed = client.get("/api/leaderboards/beginner/no-guess?by=bbbv_per_second").json()
    assert (by_time["by"], by_speed["by"]) == ("time", "bbbv_per_second")
    faster, slower = (first, second) if first["elapsed"] < second["elapsed"] else (second, first)
    assert [e["replay"] for e in by_time["scores"]] == [faster["public_id"], slower["public_id"]]
    assert [e["replay"] for e in by_speed["scores"]] == [slower["public_id"], faster["public_id"]]
    for entry in by_speed["scores"]:
        assert entry["bbbv"] in (a, b)
        assert math.isclose(entry["bbbv_per_second"], entry["bbbv"] / entry["seconds"])
    refused = client.get("/api/leaderboards/beginner?by=luck")
    assert refused.status_code == 422
    assert "by must be one of" in refused.json()["error"]


def _won_in(
    client: Any, now: list[float], seconds: Callable[[int], float], avoid: int | None = None
) -> dict[str, Any]:
    """A no-guess beginner game won by the solver in ``seconds(its 3BV)`` of server time
    (all of it before the second action); a board of 3BV ``avoid`` is left for another."""
    for _ in range(50):
        token = new_game(client, preset="beginner", no_guess=True)["id"]
        state = act(client, token, "reveal", 4, 4).json()["state"]
        bbbv = frontend.score(server_game(client, token)).bbbv
        if state["status"] != "playing" or bbbv == avoid:
            continue
        now[0] += seconds(bbbv)
        while state["status"] == "playing":
            advice = hint(server_game(client, token))
            state = act(client, token, "reveal", advice.row, advice.col).json()["state"]
        assert state["status"] == "won"
        assert state["ranked"] is True
        won: dict[str, Any] = state
        return won
    raise AssertionError("no board of another 3BV in 50 games")


@pytest.mark.slow
def test_the_page_records_a_hands_mouse_and_its_win_ranks_once_reviewed(tmp_path: Path) -> None:
    """The page (app.js in Chromium) records the mouse and sends the record at the end.

    Playwright's own ``mouse.move(steps=...)`` moves in straight lines, which
    would not rank: the test moves the mouse along bowed, jittered paths with
    pauses of varied length, as a hand does.
    """
    from .browser import CHROMIUM, browser_page, open_game, read_view

    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium")
    from minesweep.formats import parse_view
    from minesweep.solver import analyze

    server = Server(f"sqlite:///{tmp_path / 'e2e.sqlite3'}")
    rng = random.Random(17)
    try:
        body = {"name": "ada", "password": PASSWORD}
        assert server.http.post("/api/accounts", json=body).status_code == 201
        bearer = server.http.post("/api/tokens", json=body).json()["token"]
        created = server.http.post(
            "/api/games", json={"preset": "beginner", "no_guess": True}, headers=auth(bearer)
        ).json()
        with browser_page(server) as page:
            open_game(page, created["id"])
            at = [5.0, 5.0]

            def hand_click(row: int, col: int) -> None:
                box = page.locator(f'.cell[data-row="{row}"][data-col="{col}"]').bounding_box()
                tx = box["x"] + box["width"] * rng.uniform(0.3, 0.7)
                ty = box["y"] + box["height"] * rng.uniform(0.3, 0.7)
                x, y = at
                bend = rng.choice((-1, 1)) * rng.uniform(0.15, 0.3)
                steps = rng.randint(8, 14)
                for step in range(1, steps + 1):
                    f = step / steps
                    bow = bend * 4 * f * (1 - f)
                    page.mouse.move(
                        x + (tx - x) * f - (ty - y) * bow + rng.uniform(-1, 1),
                        y + (ty - y) * f + (tx - x) * bow + rng.uniform(-1, 1),
                    )
                    page.wait_for_timeout(rng.uniform(12, 30))
                page.mouse.move(tx, ty)
                page.mouse.down()
                page.wait_for_timeout(rng.uniform(25, 65))
                # A hand's press is not frozen: the cursor drifts a pixel while it is down.
                page.mouse.move(tx + rng.choice((-1, 1)), ty)
                page.wait_for_timeout(rng.uniform(25, 65))
                page.mouse.up()
                at[:] = [tx, ty]

            hand_click(4, 4)
            page.wait_for_selector(".cell.open")
            for _ in range(100):
                if page.inner_text("#status").startswith(("won", "lost")):
                    break
                view = read_view(page, 9, 9)
                safe = analyze(parse_view(view), 10).safe.tolist()
                hidden = [(r, c) for r, c in safe if view.splitlines()[r][c] == "#"]
                assert hidden, f"no safe hidden square in the page's view:\n{view}"
                target = rng.choice(hidden)
                hand_click(*target)
                page.wait_for_selector(
                    f'.cell.open[data-row="{target[0]}"][data-col="{target[1]}"]'
                )
                page.wait_for_timeout(rng.uniform(150, 700))  # looking for the next square
            page.wait_for_function(
                "minesweep.page.game.status === 'won' && minesweep.page.game.ranked !== undefined"
            )
            state = server.http.get("/api/game", headers=auth(created["id"])).json()
            assert state["status"] == "won"
            # The first win of a board would top it: held for an operator's review.
            assert state["ranked"] is False
            assert state["unranked_because"] == "pending review"
            assert "pending review" in page.inner_text("#message")
        # An operator, named at a server's start, confirms it: it ranks.
        body = {"name": "bo", "password": PASSWORD}
        assert server.http.post("/api/accounts", json=body).status_code == 201
        operator = Server(server.url, "--operator", "bo")
        try:
            token = operator.http.post("/api/tokens", json=body).json()["token"]
            decided = operator.http.post(
                f"/api/reviews/{state['public_id']}",
                json={"verdict": "confirm"},
                headers=auth(token),
            )
            assert decided.status_code == 200, decided.text
        finally:
            operator.stop()
        state = server.http.get("/api/game", headers=auth(created["id"])).json()
        assert state["ranked"] is True, state.get("unranked_because")
        evf = server.http.get(f"/api/replays/{state['public_id']}.evf")
        assert evf.status_code == 200
        from minesweep.replays import read

        assert sum(event.kind == "mv" for event in read(evf.content).events) > 20
    finally:
        server.stop()
