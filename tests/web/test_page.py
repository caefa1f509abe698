"""The web page (static/app.js) in a real browser: Debian's Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from minesweep.formats import parse_view
from minesweep.solver import analyze

from .helpers import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextlib.contextmanager
def browser_page(
    server: Server,
    *,
    bypass_csp: bool = True,
    width: int = 900,
    height: int = 800,
    touch: bool = False,
) -> Iterator[Any]:
    """A page of Debian's Chromium (headless, driven by Playwright) on the server's game.

    Playwright's polling waits evaluate strings, which the page's policy
    forbids; tests may lift it for themselves, and the test of the policy
    keeps it.
    """
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
            page = browser.new_page(
                viewport={"width": width, "height": height},
                bypass_csp=bypass_csp,
                has_touch=touch,
            )
            page.goto(server.base)
            page.wait_for_selector(".cell")
            yield page
        finally:
            browser.close()


def open_game(page: Any, token: str) -> None:
    """Point the page at the game ``token`` names (it starts a game of its own first)."""
    page.wait_for_function("localStorage.getItem('minesweep-game') !== null")
    page.evaluate(f"localStorage.setItem('minesweep-game', '{token}')")
    page.reload()
    page.wait_for_function(f"game && game.id === '{token}'")


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
            open_game(page, created["id"])
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


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_a_replay_draws_the_views_the_server_sends(tmp_path: Path) -> None:
    # A chord that changed nothing, then a loss: the page steps nothing itself.
    views = [["###", "###"], ["1##", "###"], ["1##", "###"], ["1X*", "#*#"]]
    data = {
        "name": "ada",
        "seconds": 0.0,
        "rows": 2,
        "cols": 3,
        "mines": 3,
        "history": [{"action": action, "time": 0.0} for action in ("O0,0", "C0,0", "O0,1")],
        "views": views,
    }
    server = Server(f"sqlite:///{tmp_path / 'replay.sqlite3'}")
    try:
        with browser_page(server) as page:
            page.evaluate(
                """async (data) => {
                    api = async () => data;  // the server's answer, as sent
                    game = null;  // no game to go back to: the last view stays
                    await replay("anything");
                }""",
                data,
            )
            # read_view gives a mine's label's first letter: "e"xploded, "m"ine.
            assert read_view(page, 2, 3) == "1em\n#m#"
            # The bar is the replay's, as it ended (no game to go back to).
            assert bar(page) == ("3", "0", "replay: lost")
            assert "Replay over" in page.inner_text("#message")
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_clicks_during_a_replay_leave_the_game_alone(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'replay-clicks.sqlite3'}")
    try:
        with browser_page(server) as page:
            page.click('[aria-label="row 8, column 15: hidden"]')
            page.wait_for_selector(".cell.open")
            page.wait_for_timeout(300)  # the opening's animation
            token = page.evaluate("game.id")
            header = {"Authorization": f"Bearer {token}"}
            before = server.http.get("/api/game", headers=header).json()
            # A replay of another (made-up) game, slow enough to click into.
            data = {
                "name": "ada",
                "seconds": 1.0,
                "rows": 2,
                "cols": 3,
                "history": [{"action": "O0,0", "time": 1.0}],
                "views": [["###", "###"], ["1##", "###"]],
            }
            page.evaluate(
                """(data) => {
                    api = async () => data;
                    window.replayDone = replay("anything").then(() => true);
                }""",
                data,
            )
            # The viewer is open, with the replay's own EVF file offered.
            assert page.is_visible("#viewer")
            assert page.get_attribute("#evflink", "href") == "/api/replays/anything.evf"
            page.click('.cell[data-row="1"][data-col="2"]')
            page.keyboard.press("Enter")
            page.keyboard.press("f")
            page.click("#hint")
            page.click("#undo")
            page.wait_for_function("window.replayDone")
            after = server.http.get("/api/game", headers=header).json()
            assert (after["version"], after["actions"]) == (before["version"], before["actions"])
            # The board is the player's game again.
            assert read_view(page, 16, 30) == "\n".join(after["view"])
            assert page.is_hidden("#viewer")
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_the_page_passes_axe_and_its_security_policy(tmp_path: Path) -> None:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    server = Server(f"sqlite:///{tmp_path / 'axe.sqlite3'}")
    try:
        with browser_page(server, bypass_csp=False) as page:
            blocked: list[str] = []
            page.on(
                "console",
                lambda message: (
                    blocked.append(message.text)
                    if "Content Security Policy" in message.text
                    else None
                ),
            )
            page.reload()
            page.wait_for_selector(".cell")
            page.click('[aria-label="row 8, column 15: hidden"]')
            page.wait_for_selector(".cell.open")
            page.click("#overlay")  # probabilities drawn on the board
            page.wait_for_selector(".cell .p")
            results = axe.Axe().run(page)
            serious = [
                f"{violation['id']} ({violation['impact']}): {violation['help']}"
                for violation in results.response["violations"]
                if violation["impact"] in ("serious", "critical")
            ]
            assert serious == []
            # The grid is a grid: rows of cells, and the timer is not a live region.
            assert page.locator('[role="grid"] > [role="row"] > [role="gridcell"]').count() == 480
            assert page.locator("[aria-live] #time, #time[aria-live=polite]").count() == 0
            icon = server.http.get("/favicon.ico")
            assert (icon.status_code, icon.headers["content-type"]) == (200, "image/svg+xml")
            assert blocked == []
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_a_loss_with_the_overlay_on_shows_the_result(tmp_path: Path) -> None:
    from minesweep import Game

    server = Server(f"sqlite:///{tmp_path / 'overlay-end.sqlite3'}")
    try:
        created = server.http.post("/api/games", json={"preset": "beginner", "seed": 3}).json()
        # The same seed and first click lay the same field here.
        local = Game.new("beginner", seed=3)
        local.reveal(4, 4)
        assert local.field is not None
        mine = next((r, c) for r in range(9) for c in range(9) if local.field.mines[r, c])
        with browser_page(server) as page:
            open_game(page, created["id"])
            page.click('[aria-label="row 5, column 5: hidden"]')
            page.wait_for_selector(".cell.open")
            page.click("#overlay")
            page.wait_for_selector(".cell .p")
            page.click(f'.cell[data-row="{mine[0]}"][data-col="{mine[1]}"]')
            page.wait_for_function("game.status === 'lost'")
            page.wait_for_function(
                "document.getElementById('message').textContent.startsWith('Lost')"
            )
            assert page.get_attribute("#overlay", "aria-pressed") == "false"
            page.wait_for_timeout(500)  # the loss's animation
            assert page.locator(".cell .p").count() == 0
    finally:
        server.stop()


# --- replay files ------------------------------------------------------------------------------

REPLAYS = Path(__file__).parent.parent / "replays" / "data"
#: A replay's view codes as read_view reads the page: a mine's label's first letter.
SHOWN = {0: ".", **{n: str(n) for n in range(1, 9)}, 10: "#", 11: "F", 14: "w", 15: "e"}


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_a_replay_file_steps_click_by_click_with_the_solvers_verdict(tmp_path: Path) -> None:
    from minesweep.replays import read
    from minesweep.replays.clicks import analyse_clicks
    from minesweep.replays.verdict import judge_clicks

    path = REPLAYS / "test_subject.rmv"
    replay = read(path)
    analysis = analyse_clicks(replay)
    table = judge_clicks(replay, analysis)
    count = len(table.clicks)

    def view(index: int) -> str:
        lines = analysis.view(index).tolist()
        return "\n".join("".join(SHOWN[code] for code in line) for line in lines)

    server = Server(f"sqlite:///{tmp_path / 'replay-file.sqlite3'}")
    try:
        with browser_page(server) as page:
            page.set_input_files("#replayfile", str(path))
            page.wait_for_selector("#viewer:not([hidden])")
            assert page.inner_text("#frame") == f"Click 1 of {count}"
            assert read_view(page, 8, 8) == view(0)
            assert "test_subject.rmv" in page.inner_text("#viewertitle")
            assert "3BV" in page.inner_text("#headline")
            assert page.locator("#checks li").count() >= 1
            # Step to the first click the solver judged after the first one.
            judged = next(c for c in table.clicks if c.judged and not c.first)
            for _ in range(judged.index):
                page.keyboard.press("ArrowRight")
            assert page.inner_text("#frame") == f"Click {judged.index + 1} of {count}"
            assert read_view(page, 8, 8) == view(judged.view)
            marked = page.eval_on_selector_all(
                ".cell.clicked", "cells => cells.map(c => [+c.dataset.row, +c.dataset.col])"
            )
            assert marked == [[judged.row, judged.col]]
            note = page.inner_text("#note")
            assert f"{judged.verdict.mine_chance * 100:.1f}%" in note
            assert f"{judged.luck:.3f}" in note
            page.click("#prev")
            assert page.inner_text("#frame") == f"Click {judged.index} of {count}"
            page.keyboard.press("End")
            assert page.inner_text("#frame") == f"End, after {count} clicks"
            assert read_view(page, 8, 8) == view(len(analysis.views) - 1)
            assert page.is_disabled("#next")
            # Back to the player's own game, as it was.
            page.keyboard.press("Escape")
            assert page.is_hidden("#viewer")
            assert page.locator(".cell").count() == 16 * 30
            # A file that is no replay says why, and leaves the game alone.
            junk = tmp_path / "junk.avf"
            junk.write_bytes(b"not a replay at all")
            page.set_input_files("#replayfile", str(junk))
            page.wait_for_function(
                "document.getElementById('message').textContent.startsWith('junk.avf: at byte')"
            )
            assert page.is_hidden("#viewer")
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_a_finished_game_downloads_as_an_evf_file(tmp_path: Path) -> None:
    import numpy as np

    from minesweep import Game
    from minesweep.replays import read

    server = Server(f"sqlite:///{tmp_path / 'download.sqlite3'}")
    try:
        created = server.http.post(
            "/api/games", json={"preset": "beginner", "seed": 3, "name": "ada"}
        ).json()
        header = {"Authorization": f"Bearer {created['id']}"}
        local = Game.new("beginner", seed=3)  # the same seed and first click: the same field
        local.reveal(4, 4)
        assert local.field is not None
        mine = next((r, c) for r in range(9) for c in range(9) if local.field.mines[r, c])
        with browser_page(server) as page:
            open_game(page, created["id"])
            assert page.is_hidden("#download")  # not before the end: the file holds the mines
            for version, (r, c) in enumerate([(4, 4), mine]):
                move = {"action": "reveal", "row": r, "col": c, "version": version}
                server.http.post("/api/game/actions", json=move, headers=header)
            page.reload()
            page.wait_for_function("game && game.status === 'lost'")
            with page.expect_download() as download:
                page.click("#download")
            saved = download.value
            assert saved.suggested_filename.endswith(".evf")
            replay = read(Path(saved.path()).read_bytes(), name=saved.suggested_filename)
            assert replay.player == "ada"
            assert np.array_equal(replay.field.mines, local.field.mines)
    finally:
        server.stop()


# --- as a new player meets the page ----------------------------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_the_html_alone_draws_the_boards_place_and_says_what_it_needs(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'first-paint.sqlite3'}")
    try:
        with browser_page(server) as page:
            # Without the script, the page is what its first paint shows.
            bare = page.context.browser.new_page(java_script_enabled=False)
            bare.goto(server.base)
            box = bare.locator("#board").bounding_box()
            assert box is not None
            assert box["width"] >= 200
            assert box["height"] >= 100
            assert bare.get_attribute("#board", "aria-busy") == "true"
            assert bare.inner_text("#board") == "Loading the board…"
            assert "needs JavaScript" in bare.inner_text(".noscript")
            # With it, the board replaces the loading state and is no longer busy.
            assert page.get_attribute("#board", "aria-busy") is None
            assert page.locator("#board .loading").count() == 0
            assert page.locator(".noscript").count() == 0
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_an_empty_leaderboard_is_a_sentence_and_the_first_reveal_clears_the_welcome(
    tmp_path: Path,
) -> None:
    server = Server(f"sqlite:///{tmp_path / 'empty-board.sqlite3'}")
    try:
        with browser_page(server) as page:
            page.wait_for_selector("#noscores", state="visible")
            assert page.inner_text("#noscores") == "No ranked game yet."
            assert page.locator("#leaderboard li").count() == 0
            assert page.locator("#leaderboard").is_hidden()
            assert page.inner_text("#message") == "New game: click any square."
            page.click('[aria-label="row 8, column 15: hidden"]')
            page.wait_for_selector(".cell.open")
            page.wait_for_function("game.status === 'playing'")
            assert page.inner_text("#message") == ""
            # With a score, the list shows and the sentence goes.
            page.evaluate(
                """async () => {
                    const score = { name: "ada", seconds: 9.5, bbbv: 30, win_rate: 1, games: 1,
                                    replay: "x".repeat(16) };
                    api = async () => ({ scores: [score] });
                    await leaderboard();
                }"""
            )
            assert page.locator("#leaderboard li").count() == 1
            assert page.locator("#noscores").is_hidden()
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_on_a_phone_expert_squares_stay_tappable_and_the_board_scrolls(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'phone.sqlite3'}")
    try:
        with browser_page(server, width=390, height=844) as page:
            assert page.evaluate("[game.rows, game.cols]") == [16, 30]  # expert, the default
            box = page.locator(".cell").first.bounding_box()
            assert box is not None
            assert box["width"] >= 24
            assert box["height"] >= 24
            sizes = page.evaluate(
                """() => [board.scrollWidth, board.clientWidth,
                          document.documentElement.scrollWidth]"""
            )
            scroll_width, client_width, page_width = sizes
            assert scroll_width > client_width  # the board scrolls inside its frame...
            assert page_width <= 390  # ...and the page itself does not
            # The last column is reachable: scrolled to, and played.
            page.click('[aria-label="row 8, column 30: hidden"]')
            page.wait_for_selector('.cell.open[data-col="29"]')
    finally:
        server.stop()


# --- the viewer apart from the live game ------------------------------------------------------


def bar(page: Any) -> tuple[str, str, str]:
    """The bar's counters as shown: mines left, time, status."""
    return (page.inner_text("#left"), page.inner_text("#time"), page.inner_text("#status"))


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_a_replay_file_opens_with_probabilities_on_and_shows_its_own_counters(
    tmp_path: Path,
) -> None:
    # The live game is beginner (9×9), the file expert (16×30): before the fix the
    # viewer painted the game's probabilities onto the file's board, and past row 9
    # read a row the overlay does not have (a TypeError, and no frame shown).
    path = REPLAYS / "test_subject.evf"
    server = Server(f"sqlite:///{tmp_path / 'viewer-apart.sqlite3'}")
    try:
        # What the server says of the file: its last board and its result.
        data = server.http.post(
            "/api/replay-files?name=test_subject.evf",
            content=path.read_bytes(),
            headers={"Content-Type": "application/octet-stream"},
        ).json()
        flags = sum(line.count("F") + line.count("!") for line in data["views"][-1])
        end = data["clicks"][-1]["time"]
        created = server.http.post("/api/games", json={"preset": "beginner", "seed": 3}).json()
        with browser_page(server) as page:
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            open_game(page, created["id"])
            page.click('[aria-label="row 5, column 5: hidden"]')
            page.wait_for_selector(".cell.open")
            page.click("#overlay")
            page.wait_for_selector(".cell .p")
            page.wait_for_timeout(300)  # the opening's animation
            live = bar(page)
            assert live[2].startswith("playing (assisted)")
            shown_odds = page.locator(".cell .p").count()
            page.set_input_files("#replayfile", str(path))
            page.wait_for_selector("#viewer:not([hidden])")
            page.wait_for_function("document.getElementById('frame').textContent !== ''")
            assert errors == []
            assert page.inner_text("#frame").startswith("Click 1 of ")
            assert page.locator(".cell").count() == 16 * 30
            assert page.locator(".cell .p").count() == 0  # the game's odds are not the file's
            # The bar is the replay's: its 99 mines, its clock, its state.
            assert bar(page) == ("99", "0", "replay: ready")
            page.keyboard.press("End")
            assert bar(page) == (
                str(99 - flags),
                f"{end:.0f}",
                "replay: won" if data["summary"]["won"] else "replay: lost",
            )
            # The live game's clock does not run over the replay's.
            page.wait_for_timeout(600)
            assert bar(page)[2].startswith("replay: ")
            # Back: the game's board, probabilities and counters again, untouched.
            page.keyboard.press("Escape")
            assert page.is_hidden("#viewer")
            assert page.locator(".cell").count() == 81
            assert page.locator(".cell .p").count() == shown_odds
            assert bar(page)[0] == live[0]
            assert bar(page)[2] == live[2]
            # A file smaller than the game (8×8 on 9×9): no odds of the game on it either.
            page.set_input_files("#replayfile", str(REPLAYS / "test_subject.rmv"))
            page.wait_for_function(
                "document.getElementById('viewertitle').textContent.startsWith('test_subject.rmv')"
            )
            assert page.locator(".cell").count() == 64
            assert page.locator(".cell .p").count() == 0
            assert bar(page) == ("10", "0", "replay: ready")
            assert errors == []
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
@pytest.mark.parametrize("width", [1400, 900, 390])
def test_the_probabilities_fit_their_squares(tmp_path: Path, width: int) -> None:
    # 1400 px wide fits expert's squares at 32 px, 900 at 27, a phone at 24 (the floor).
    server = Server(f"sqlite:///{tmp_path / 'odds-fit.sqlite3'}")
    try:
        with browser_page(server, width=width) as page:
            spills = page.evaluate(
                """() => {
                    // The widest texts there are: 100, 0 (safe), two digits, one.
                    const values = [1, 0, 0.57, 0.07, 0.995];
                    overlay = game.view.map((line, r) =>
                        [...line].map((_, c) => values[(r + c) % values.length]));
                    paintAll();
                    const spills = [];
                    for (const span of document.querySelectorAll(".cell .p")) {
                        // The text's own extent, whatever the square clips.
                        const range = document.createRange();
                        range.selectNodeContents(span);
                        const text = range.getBoundingClientRect();
                        const square = span.parentElement.getBoundingClientRect();
                        if (text.left < square.left - 0.5 || text.right > square.right + 0.5 ||
                            text.top < square.top - 0.5 || text.bottom > square.bottom + 0.5) {
                            spills.push([span.textContent, text.width, square.width]);
                        }
                    }
                    return [document.querySelectorAll(".cell .p").length, spills];
                }"""
            )
            count, spilled = spills
            assert count == 16 * 30
            assert spilled == []
            # Readable: not shrunk below 9 px to fit.
            size = page.eval_on_selector(
                ".cell .p", "s => parseFloat(getComputedStyle(s).fontSize)"
            )
            assert size >= 9
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_on_a_360_px_phone_taps_reveal_long_presses_flag_and_the_face_starts_over(
    tmp_path: Path,
) -> None:
    from minesweep import Game

    server = Server(f"sqlite:///{tmp_path / 'phone-360.sqlite3'}")
    try:
        created = server.http.post("/api/games", json={"preset": "beginner", "seed": 3}).json()
        local = Game.new("beginner", seed=3)  # the same seed and first click: the same field
        local.reveal(4, 4)
        assert local.field is not None
        mines = [(r, c) for r in range(9) for c in range(9) if local.field.mines[r, c]]
        with browser_page(server, width=360, height=760, touch=True) as page:
            open_game(page, created["id"])
            # Nothing is wider than the phone: the page does not scroll sideways, and the
            # whole beginner board, the counters and the face are on screen.
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            for selector in ("#left", "#face", "#time", '.cell[data-row="8"][data-col="8"]'):
                box = page.locator(selector).bounding_box()
                assert box is not None
                assert box["x"] >= 0
                assert box["x"] + box["width"] <= 360, selector
            assert page.get_attribute("#face", "data-state") == "ready"
            # A tap reveals.
            page.tap('.cell[data-row="4"][data-col="4"]')
            page.wait_for_selector('.cell.open[data-row="4"][data-col="4"]')
            page.wait_for_function("game.status === 'playing'")
            # The face follows the status when the board is painted: wait for it.
            page.wait_for_selector('#face[data-state="playing"]')
            # A long press (a finger held 0.7 s, by the browser's own touch events) flags.
            r, c = mines[0]
            box = page.locator(f'.cell[data-row="{r}"][data-col="{c}"]').bounding_box()
            assert box is not None
            point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
            cdp = page.context.new_cdp_session(page)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
            page.wait_for_timeout(700)
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            page.wait_for_selector(f'.cell.flag[data-row="{r}"][data-col="{c}"]')
            page.wait_for_timeout(300)
            assert page.inner_text("#left") == "9"
            assert page.is_visible(f'.cell.flag[data-row="{r}"][data-col="{c}"]')
            # A mine tapped: the face is knocked out; tapped, it starts a new game.
            r, c = mines[1]
            page.tap(f'.cell[data-row="{r}"][data-col="{c}"]')
            page.wait_for_function("game.status === 'lost'")
            page.wait_for_selector('#face[data-state="lost"]')
            page.tap("#face")
            page.wait_for_function(f"game.id !== '{created['id']}' && game.status === 'ready'")
            page.wait_for_selector('#face[data-state="ready"]')
            assert page.inner_text("#left") == "10"
    finally:
        server.stop()


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium")
def test_enter_on_a_focused_button_is_the_buttons_not_a_reveal(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'enter-button.sqlite3'}")
    try:
        with browser_page(server) as page:
            page.wait_for_function("game && game.status === 'ready'")
            page.focus("#flagmode")
            page.keyboard.press("Enter")
            page.keyboard.press(" ")
            page.keyboard.press("Enter")
            page.wait_for_timeout(500)
            # The button toggled (three times), and no square under the cursor opened.
            assert page.get_attribute("#flagmode", "aria-pressed") == "true"
            assert page.evaluate("game.status") == "ready"
            assert page.locator(".cell.open").count() == 0
            # The board's own keys still play: the cursor's square opens on Enter.
            page.focus('.cell[tabindex="0"]')
            page.click("#flagmode")  # flag mode off again, by mouse
            page.focus('.cell[tabindex="0"]')
            page.keyboard.press("Enter")
            page.wait_for_function("game.status === 'playing'")
    finally:
        server.stop()
