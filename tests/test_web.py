"""The web game: the API's rules, no leaks, races, durability, scores, and a real browser."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from minesweep import Minefield
from minesweep.formats import parse_view
from minesweep.solver import analyze
from minesweep.web import Limits, create_app

POSTGRES = os.environ.get("MINESWEEP_TEST_POSTGRES_URL")
VIEW_SYMBOLS = set("#F?.12345678")


def database_urls(tmp_path: Path) -> list[str]:
    urls = [f"sqlite:///{tmp_path / 'web.sqlite3'}"]
    if POSTGRES:
        urls.append(POSTGRES)
    return urls


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    if request.param == "postgresql":
        if not POSTGRES:
            pytest.skip("set MINESWEEP_TEST_POSTGRES_URL to test against PostgreSQL")
        url = POSTGRES
    else:
        url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    app = create_app(url, limits=Limits(max_rows=40, max_cols=60))
    if request.param == "postgresql":
        # One shared test database: every test starts from an empty table.
        from minesweep.web.db import games

        with app.state.service.db.engine.begin() as connection:
            connection.execute(games.delete())
    with TestClient(app) as test_client:
        yield test_client
    app.state.service.db.dispose()


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body or {"preset": "beginner"})
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def act(client: TestClient, token: str, action: str, row: int, col: int) -> Any:
    return client.post(
        f"/api/games/{token}/actions", json={"action": action, "row": row, "col": col}
    )


def field_of(client: TestClient, token: str) -> Minefield:
    """The server's field (a test may look; no client can)."""
    row = client.app.state.service.db.load(token)  # type: ignore[attr-defined]
    return Minefield.from_text("\n".join(json.loads(row.game)["field"]))


# --- the API's rules ------------------------------------------------------------------------


def test_a_new_game_shows_nothing_but_its_size(client: TestClient) -> None:
    state = new_game(client, preset="expert")
    assert (state["rows"], state["cols"], state["mines"], state["status"]) == (16, 30, 99, "ready")
    assert state["view"] == ["#" * 30] * 16
    assert len(state["id"]) >= 32
    assert "seed" not in state
    assert "field" not in state


def test_reveal_flag_chord_and_read(client: TestClient) -> None:
    token = new_game(client, preset="beginner", seed=7)["id"]
    result = act(client, token, "reveal", 4, 4).json()
    assert result["effective"]
    assert result["opened"] == len(result["changed"]) > 1
    state = client.get(f"/api/games/{token}").json()
    assert state == result["state"] | {"elapsed": state["elapsed"]}
    field = field_of(client, token)
    mine = tuple(int(v) for v in np.argwhere(field.mines)[0])
    flagged = act(client, token, "flag", *mine).json()["state"]
    assert flagged["view"][mine[0]][mine[1]] == "F"
    assert flagged["mines_left"] == 9
    assert act(client, token, "unflag", *mine).json()["state"]["mines_left"] == 10


def test_a_loss_shows_the_mines_and_ends_the_game(client: TestClient) -> None:
    token = new_game(client, preset="beginner", seed=3)["id"]
    act(client, token, "reveal", 4, 4)
    r, c = (int(v) for v in np.argwhere(field_of(client, token).mines)[0])
    state = act(client, token, "reveal", r, c).json()["state"]
    assert state["status"] == "lost"
    assert state["view"][r][c] == "X"
    assert sum(line.count("*") for line in state["view"]) == 9
    assert "stats" in state
    after = act(client, token, "reveal", 0, 0)
    assert after.status_code == 409
    assert "over" in after.json()["error"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"preset": "huge"}, 400, "preset must be one of"),
        ({"rows": 500, "cols": 500, "mines": 10}, 422, "boards go up to 40 rows"),
        ({"rows": 3, "cols": 3, "mines": 8}, 422, "do not fit"),
        ({"rows": 9, "cols": 9}, 400, "mines must be an integer"),
        ({"rows": 9.5, "cols": 9, "mines": 1}, 400, "rows must be an integer"),
        ({"preset": "expert", "rows": 9}, 400, "not both"),
        ({"preset": "expert", "colour": "red"}, 400, "unknown field 'colour'"),
        ({"preset": "expert", "rule": "maybe"}, 422, "first-click rule"),
        ({"preset": "expert", "no_guess": True, "rule": "safe"}, 422, "always open"),
        ({"preset": "expert", "seed": -1}, 400, "seed must be"),
        ({"preset": "expert", "name": "x" * 41}, 400, "at most 40"),
        ({"preset": "expert", "no_guess": "yes"}, 400, "true or false"),
    ],
)
def test_bad_new_games_are_refused_and_nothing_is_stored(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    db = client.app.state.service.db  # type: ignore[attr-defined]
    with db.engine.connect() as connection:
        from sqlalchemy import func, select

        from minesweep.web.db import games

        assert connection.execute(select(func.count()).select_from(games)).scalar() == 0


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"action": "reveal", "row": 9, "col": 0}, 422, "row 9 is outside"),
        ({"action": "reveal", "row": -1, "col": 0}, 422, "row -1 is outside"),
        ({"action": "reveal", "row": "1", "col": 0}, 400, "row must be an integer"),
        ({"action": "detonate", "row": 0, "col": 0}, 400, "action must be one of"),
        ({"action": "reveal", "row": 0, "col": 0, "x": 1}, 400, "unknown field 'x'"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    token = new_game(client)["id"]
    act(client, token, "reveal", 4, 4)
    before = client.get(f"/api/games/{token}").json()
    response = client.post(f"/api/games/{token}/actions", json=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    after = client.get(f"/api/games/{token}").json()
    assert after["view"] == before["view"]


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    token = new_game(client)["id"]
    bad = client.post(
        f"/api/games/{token}/actions",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert (bad.status_code, bad.json()["error"]) == (400, "the body is not valid JSON")
    big = client.post("/api/games", content=b"{" + b" " * 5000 + b"}")
    assert big.status_code == 413
    assert client.post("/api/games", json=[1, 2]).status_code == 400


def test_unknown_ids_and_other_players_games(client: TestClient) -> None:
    mine = new_game(client)["id"]
    assert client.get("/api/games/" + "x" * 32).status_code == 404
    assert act(client, "y" * 32, "reveal", 0, 0).status_code == 404
    assert client.get("/api/games/short").status_code == 404
    # Tokens are long and random: nothing about one tells another.
    others = {new_game(client)["id"] for _ in range(20)}
    assert mine not in others
    assert len(others) == 20
    assert all(len(token) >= 32 for token in others)


def test_openapi_describes_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/games", "/api/games/{token}/actions", "/api/leaderboards/{kind}"} <= set(
        spec["paths"]
    )


# --- no leaks ----------------------------------------------------------------------------


ALLOWED_BEFORE_END = {
    "id",
    "kind",
    "rows",
    "cols",
    "mines",
    "rule",
    "no_guess",
    "status",
    "mines_left",
    "elapsed",
    "assisted",
    "seeded",
    "view",
}


def check_no_leak(state: dict[str, Any], field: Minefield, revealed: np.ndarray) -> None:
    """A state of a game in progress: nothing beyond what the player sees."""
    assert set(state) <= ALLOWED_BEFORE_END
    view = parse_view("\n".join(state["view"]))
    symbols = {s for line in state["view"] for s in line}
    assert symbols <= VIEW_SYMBOLS
    shown = view <= 8
    # Numbers only where the game has revealed a square, and they are true.
    assert np.array_equal(shown, revealed)
    assert np.array_equal(view[shown], field.numbers[shown])


@pytest.mark.slow
def test_no_response_leaks_anything_over_many_random_games(client: TestClient) -> None:
    rng = random.Random(2026)
    service = client.app.state.service  # type: ignore[attr-defined]
    for game_number in range(40):
        preset = rng.choice(["beginner", "intermediate", "expert"])
        state = new_game(client, preset=preset, no_guess=rng.random() < 0.3)
        token = state["id"]
        rows, cols = state["rows"], state["cols"]
        for _ in range(60):
            action = rng.choice(
                ["reveal", "reveal", "reveal", "flag", "unflag", "chord", "question"]
            )
            response = act(client, token, action, rng.randrange(rows), rng.randrange(cols))
            if response.status_code == 409:
                break
            payload = response.json()
            assert set(payload) == {"state", "effective", "opened", "changed"}
            state = payload["state"]
            if state["status"] in ("won", "lost"):
                break
            game = service._load(token)[1]
            if game.field is not None:
                check_no_leak(state, game.field, game.state == 3)
            hint = client.post(f"/api/games/{token}/hint").json()
            if game.field is not None and game_number % 5 == 0:
                # The probabilities are the player's view's, the same as a solver run on it.
                view = parse_view("\n".join(hint["state"]["view"]))
                expected = analyze(view, state["mines"]).probability
                served = np.array(hint["probabilities"], dtype=float)
                assert np.array_equal(np.isnan(served), np.isnan(expected))
                assert np.nanmax(np.abs(served - expected)) <= 1e-6


# --- scores, rankings, replays ---------------------------------------------------------------


def win(client: TestClient, token: str) -> dict[str, Any]:
    """Win a game by opening every safe square (the test may know the field)."""
    act(client, token, "reveal", 4, 4)
    field = field_of(client, token)
    state = client.get(f"/api/games/{token}").json()
    for r, c in np.argwhere(~field.mines).tolist():
        if state["status"] != "playing":
            break
        if state["view"][r][c] in "#?":
            state = act(client, token, "reveal", r, c).json()["state"]
    return state


def test_a_won_game_ranks_and_can_be_replayed(client: TestClient) -> None:
    token = new_game(client, preset="beginner", name="ada")["id"]
    state = win(client, token)
    assert state["status"] == "won"
    assert state["ranked"] is True
    board = client.get("/api/leaderboards/beginner").json()
    assert board["scores"][0]["name"] == "ada"
    assert board["scores"][0]["seconds"] == pytest.approx(state["elapsed"], abs=1e-3)
    replay = client.get(f"/api/replays/{state['public_id']}").json()
    assert replay["history"][0]["action"] == "O4,4"
    assert len(replay["field"]) == 9


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        ("expert", 200),
        ("20x30/100", 200),
        ("20x30/100/safe/no-guess", 200),
        ("beginner/none", 200),
        ("nonexistent", 404),
        ("expert/opening", 404),
        ("0x5/3", 404),
        ("20x30", 404),
    ],
)
def test_leaderboards_exist_for_every_kind_of_game_and_no_other(
    client: TestClient, kind: str, status: int
) -> None:
    response = client.get(f"/api/leaderboards/{kind}")
    assert response.status_code == status
    if status == 200:
        assert response.json() == {"kind": kind, "scores": []}
    else:
        assert f"no kind of game {kind!r}" in response.json()["error"]


def test_assisted_and_seeded_games_do_not_rank(client: TestClient) -> None:
    helped = new_game(client, preset="beginner")["id"]
    act(client, helped, "reveal", 4, 4)
    client.post(f"/api/games/{helped}/hint")
    assert win(client, helped)["ranked"] is False
    undone = new_game(client, preset="beginner")["id"]
    act(client, undone, "reveal", 4, 4)
    act(client, undone, "flag", 0, 0)
    client.post(f"/api/games/{undone}/undo")
    assert win(client, undone)["ranked"] is False
    seeded = new_game(client, preset="beginner", seed=5)["id"]
    assert win(client, seeded)["ranked"] is False
    assert client.get("/api/leaderboards/beginner").json()["scores"] == []


def test_the_server_keeps_the_time(tmp_path: Path) -> None:
    now = [1000.0]
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", clock=lambda: now[0])
    with TestClient(app) as client:
        token = new_game(client, preset="beginner", seed=1)["id"]
        act(client, token, "reveal", 4, 4)
        now[0] += 7.5
        assert client.get(f"/api/games/{token}").json()["elapsed"] == 7.5
        now[0] += 2.5
        state = act(client, token, "flag", 0, 0).json()["state"]
        assert state["elapsed"] == 10.0


# --- races and durability (real server processes) ------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``minesweep serve`` in a subprocess."""

    def __init__(self, url: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "minesweep", "serve", "--port", str(self.port), "--db", url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        import httpx2 as httpx

        self.http = httpx.Client(base_url=self.base, timeout=30)
        for _ in range(300):
            try:
                self.http.get("/openapi.json")
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("server did not start: " + self.process.stderr.read().decode())  # type: ignore[union-attr]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self._close()

    def stop(self) -> None:
        self.process.terminate()
        self._close()

    def _close(self) -> None:
        self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.http.close()


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_racing_requests_on_one_game_lose_no_update(tmp_path: Path, backend: str) -> None:
    if backend == "postgresql" and not POSTGRES:
        pytest.skip("set MINESWEEP_TEST_POSTGRES_URL to test against PostgreSQL")
    url = POSTGRES if backend == "postgresql" else f"sqlite:///{tmp_path / 'race.sqlite3'}"
    # Two server processes on one database, requests from many threads.
    servers = [Server(url), Server(url)]
    try:
        token = (
            servers[0]
            .http.post("/api/games", json={"rows": 30, "cols": 30, "mines": 0})
            .json()["id"]
        )
        servers[0].http.post(
            f"/api/games/{token}/actions", json={"action": "flag", "row": 0, "col": 0}
        )
        squares = [(r, c) for r in range(1, 30) for c in range(0, 30, 2)][:120]
        acknowledged: list[tuple[int, int]] = []
        lock = threading.Lock()

        def worker(index: int) -> None:
            server = servers[index % 2]
            for r, c in squares[index::8]:
                response = server.http.post(
                    f"/api/games/{token}/actions", json={"action": "flag", "row": r, "col": c}
                )
                if response.status_code == 200:
                    with lock:
                        acknowledged.append((r, c))

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        state = servers[1].http.get(f"/api/games/{token}").json()
        flagged = {
            (r, c) for r, line in enumerate(state["view"]) for c, s in enumerate(line) if s == "F"
        }
        assert set(acknowledged) <= flagged
        assert len(acknowledged) == len(squares)
        assert state["mines_left"] == -(len(squares) + 1)
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_a_killed_server_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'durable.sqlite3'}"
    server = Server(url)
    token = server.http.post("/api/games", json={"preset": "expert", "seed": 11}).json()["id"]
    server.http.post(f"/api/games/{token}/actions", json={"action": "reveal", "row": 8, "col": 15})
    views = []
    for col in range(0, 30, 3):
        response = server.http.post(
            f"/api/games/{token}/actions", json={"action": "flag", "row": 0, "col": col}
        )
        views.append(response.json()["state"]["view"])
    server.kill()  # SIGKILL: no shutdown, no flush
    again = Server(url)
    try:
        state = again.http.get(f"/api/games/{token}").json()
        assert state["view"] == views[-1]
        assert state["status"] == "playing"
    finally:
        again.stop()


# --- a real browser ---------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextlib.contextmanager
def browser_page(server: Server) -> Iterator[Any]:
    """A page of Debian's Chromium (headless, driven by Playwright) on the server's game."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": 900, "height": 800})
            page.goto(server.base)
            page.wait_for_selector(".cell")
            yield page
        finally:
            browser.close()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_a_browser_wins_a_no_guess_game_with_mouse_and_keyboard(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'e2e.sqlite3'}")
    try:
        created = server.http.post(
            "/api/games", json={"preset": "beginner", "no_guess": True, "seed": 3}
        ).json()
        with browser_page(server) as page:
            # The page starts a game of its own first: let it, then point it at ours.
            page.wait_for_function("localStorage.getItem('minesweep-game') !== null")
            page.evaluate(f"localStorage.setItem('minesweep-game', '{created['id']}')")
            page.reload()
            page.wait_for_function(f"game && game.id === '{created['id']}'")
            page.wait_for_selector(".cell")
            page.click('[aria-label="row 5, column 5: hidden"]')  # the first click, by mouse
            page.wait_for_selector(".cell.open")  # the opening, drawn ring by ring
            use_keyboard = False
            for _ in range(200):
                status = page.inner_text("#status")
                if status.startswith("won"):
                    break
                view = read_view(page, 9, 9)
                safe = analyze(parse_view(view), 10).safe.tolist()
                hidden = [(r, c) for r, c in safe if view.splitlines()[r][c] == "#"]
                assert hidden, f"no safe hidden square in the page's view:\n{view}"
                target = hidden[0]
                if use_keyboard:
                    # Walk the cursor there with arrows one way and hjkl the other.
                    row, col = page.evaluate("cursor")
                    page.focus(f'.cell[data-row="{row}"][data-col="{col}"]')
                    vertical = "ArrowDown" if target[0] > row else "ArrowUp"
                    horizontal = "l" if target[1] > col else "h"
                    for _ in range(abs(target[0] - row)):
                        page.keyboard.press(vertical)
                    for _ in range(abs(target[1] - col)):
                        page.keyboard.press(horizontal)
                    assert page.evaluate("cursor") == list(target)
                    page.keyboard.press("Enter" if len(hidden) % 2 else " ")
                else:
                    page.click(f'.cell[data-row="{target[0]}"][data-col="{target[1]}"]')
                use_keyboard = not use_keyboard
                page.wait_for_selector(
                    f'.cell.open[data-row="{target[0]}"][data-col="{target[1]}"]'
                )
                page.wait_for_timeout(100)  # the rest of the reveal's animation
            page.wait_for_timeout(600)
            assert page.inner_text("#status").startswith("won")
            assert "Won in" in page.inner_text("#message")
            shot = Path(os.environ.get("MINESWEEP_ARTIFACTS", tmp_path)) / "e2e-win.png"
            shot.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 1000
    finally:
        server.stop()


def flood_steps(
    view: list[str], changed: list[tuple[int, int]], origin: tuple[int, int]
) -> list[set[tuple[int, int]]]:
    """The squares a reveal opened, grouped by the step of the flood fill that reaches them.

    From the rule: the clicked square first (for a chord, the squares around it);
    then, step by step, the opened neighbours of every blank reached so far;
    last, what no fill reaches (the mines a loss shows), nearest first.
    """
    left = set(changed)

    def around(square: tuple[int, int]) -> set[tuple[int, int]]:
        r, c = square
        return {(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc}

    step = {origin} & left or around(origin) & left
    steps = []
    while step:
        steps.append(step)
        left -= step
        step = {n for square in step if view[square[0]][square[1]] == "." for n in around(square)}
        step &= left
    by_distance: dict[int, set[tuple[int, int]]] = {}
    for r, c in left:
        by_distance.setdefault(max(abs(r - origin[0]), abs(c - origin[1])), set()).add((r, c))
    return steps + [by_distance[d] for d in sorted(by_distance)]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
@pytest.mark.parametrize(
    ("view", "origin", "chord"),
    [
        (["..1#", "..1#", "1.1#", "1..."], (0, 0), False),  # a click on a blank
        ([".1#", "21#", "#1."], (1, 1), True),  # a chord: the squares around the number first
        (["###", "#1.", "#.."], (2, 2), False),  # a corner opening behind a wall of numbers
        (["*##", "#X#", "##*", "*##"], (1, 1), False),  # a loss: the mine, then the others
    ],
)
def test_the_reveal_animation_follows_the_flood_fill(
    tmp_path: Path, view: list[str], origin: tuple[int, int], chord: bool
) -> None:
    server = Server(f"sqlite:///{tmp_path / 'animation.sqlite3'}")
    changed = [(r, c) for r, line in enumerate(view) for c, s in enumerate(line) if s != "#"]
    if chord:
        changed.remove(origin)  # the number chorded on was open already
    try:
        with browser_page(server) as page:
            drawn = page.evaluate(
                """([view, changed, origin]) => {
                    // Stand in for painting and timers: record what each step draws.
                    const timers = [], steps = [];
                    const [savedPaint, savedTimeout] = [paint, window.setTimeout];
                    paint = (r, c) => steps[steps.length - 1].push([r, c]);
                    window.setTimeout = (callback, delay) => timers.push([delay, callback]);
                    try {
                        animate(changed, origin, view.map(line => [...line]));
                    } finally {
                        window.setTimeout = savedTimeout;
                    }
                    timers.sort((a, b) => a[0] - b[0]);
                    for (const [, callback] of timers) { steps.push([]); callback(); }
                    paint = savedPaint;
                    return steps;
                }""",
                [view, changed, list(origin)],
            )
    finally:
        server.stop()
    assert [{tuple(square) for square in step} for step in drawn] == flood_steps(
        view, changed, origin
    )


def read_view(page: Any, rows: int, cols: int) -> str:
    """The board as the page shows it, from the buttons' aria-labels."""
    labels = page.eval_on_selector_all(
        ".cell", "cells => cells.map(c => c.getAttribute('aria-label'))"
    )
    symbols = []
    for label in labels:
        what = label.split(": ", 1)[1]
        if what.startswith("hidden") or what.startswith("question"):
            symbols.append("#")
        elif what.startswith("flagged"):
            symbols.append("F")
        elif what == "blank":
            symbols.append(".")
        else:
            symbols.append(what[0])
    return "\n".join("".join(symbols[r * cols : (r + 1) * cols]) for r in range(rows))


# --- regressions found in review ---------------------------------------------------------


def test_undo_after_the_end_is_refused(client: TestClient) -> None:
    token = new_game(client, preset="beginner")["id"]
    state = win(client, token)
    assert state["ranked"] is True
    response = client.post(f"/api/games/{token}/undo")
    assert response.status_code == 409
    assert client.get(f"/api/games/{token}").json()["status"] == "won"
    lost = new_game(client, preset="beginner", seed=3)["id"]
    act(client, lost, "reveal", 4, 4)
    r, c = (int(v) for v in np.argwhere(field_of(client, lost).mines)[0])
    act(client, lost, "reveal", r, c)
    assert client.post(f"/api/games/{lost}/undo").status_code == 409


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/games", {"preset": []}, 400),
        ("/api/games", {"preset": {}}, 400),
        ("/api/games", "[" * 1500 + "]" * 1500, 400),
    ],
)
def test_odd_bodies_get_4xx_not_500(
    client: TestClient, path: str, body: object, status: int
) -> None:
    if isinstance(body, str):
        response = client.post(
            path, content=body.encode(), headers={"content-type": "application/json"}
        )
    else:
        response = client.post(path, json=body)
    assert response.status_code == status


def test_odd_actions_get_4xx_not_500(client: TestClient) -> None:
    token = new_game(client, preset="beginner")["id"]
    response = client.post(
        f"/api/games/{token}/actions", json={"action": ["reveal"], "row": 1, "col": 1}
    )
    assert response.status_code == 400
    plain = client.post(
        f"/api/games/{token}/actions",
        content=b'{"action": "reveal", "row": 1, "col": 1}',
        headers={"content-type": "text/plain"},
    )
    assert plain.status_code == 415
    no_guess = new_game(client, preset="beginner", no_guess=True)["id"]
    assert act(client, no_guess, "reveal", -1, 0).status_code == 422
    assert act(client, no_guess, "reveal", 9, 0).status_code == 422
    assert act(client, no_guess, "reveal", 4, 4).status_code == 200


def test_a_hint_with_every_hidden_square_flagged_is_a_clear_error(client: TestClient) -> None:
    token = new_game(client, rows=2, cols=2, mines=1, rule="safe")["id"]
    act(client, token, "reveal", 0, 0)
    for r, c in [(0, 1), (1, 0), (1, 1)]:
        act(client, token, "flag", r, c)
    response = client.post(f"/api/games/{token}/hint")
    assert response.status_code == 409
    assert "flagged" in response.json()["error"]


def test_no_guess_games_keep_their_clock_at_the_first_reveal(tmp_path: Path) -> None:
    now = [500.0]
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", clock=lambda: now[0])
    with TestClient(app) as client:
        token = new_game(client, preset="beginner", no_guess=True)["id"]
        act(client, token, "flag", 0, 0)
        now[0] += 10
        state = act(client, token, "reveal", 4, 4).json()["state"]
        assert state["elapsed"] == 10.0
        assert state["view"][0][0] == "F"


def test_rules_rank_apart(client: TestClient) -> None:
    assert new_game(client, preset="expert", rule="safe")["kind"] == "expert/safe"
    assert new_game(client, preset="expert")["kind"] == "expert"
    assert new_game(client, preset="beginner", no_guess=True)["kind"] == "beginner/no-guess"
    too_big = client.post(
        "/api/games", json={"rows": 40, "cols": 60, "mines": 100, "no_guess": True}
    )
    assert too_big.status_code == 422


@pytest.mark.parametrize("kind", ["flag", "undo"])
def test_racing_writers_apply_each_request_exactly_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    # Widen the window between reading a game and writing it, so that the two
    # requests surely overlap.
    from minesweep.web.app import Service

    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(app) as client:
        token = new_game(client, preset="expert", seed=4)["id"]
        act(client, token, "reveal", 8, 15)
        for col in range(4):
            act(client, token, "flag", 0, col)
        service = app.state.service
        load = Service._load

        def slow_load(self: Service, token: str) -> Any:
            result = load(self, token)
            time.sleep(0.05)
            return result

        monkeypatch.setattr(Service, "_load", slow_load)
        if kind == "undo":
            calls = [lambda: service.undo(token)] * 2
        else:
            calls = [
                lambda: service.act(token, {"action": "flag", "row": 1, "col": 0}),
                lambda: service.act(token, {"action": "flag", "row": 1, "col": 1}),
            ]
        threads = [threading.Thread(target=call) for call in calls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        monkeypatch.setattr(Service, "_load", load)
        history = [str(a) for a in service._load(token)[1].history]
    if kind == "undo":
        assert history == ["O8,15", "F0,0", "F0,1"]
    else:
        assert sorted(history[5:]) == ["F1,0", "F1,1"]
        assert len(history) == 7
