"""The web page (static/app.js and its modules) in Debian's Chromium, driven by Playwright.

The replay viewer's tests are in test_page_replays.py; the page's handle is browser.py's.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from minesweep.formats import parse_view
from minesweep.solver import analyze

from .browser import BROWSER_TEST, answer, browser_page, open_game, read_view, sqlite_server

pytestmark = BROWSER_TEST


def test_a_browser_wins_a_no_guess_game_with_mouse_and_keyboard(tmp_path: Path) -> None:
    with sqlite_server(tmp_path / "e2e.sqlite3") as server:
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
                    row, col = page.evaluate("minesweep.page.cursor")
                    page.focus(f'.cell[data-row="{row}"][data-col="{col}"]')
                    vertical = "ArrowDown" if target[0] > row else "ArrowUp"
                    horizontal = "l" if target[1] > col else "h"
                    for _ in range(abs(target[0] - row)):
                        page.keyboard.press(vertical)
                    for _ in range(abs(target[1] - col)):
                        page.keyboard.press(horizontal)
                    assert page.evaluate("minesweep.page.cursor") == list(target)
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
    changed = [(r, c) for r, line in enumerate(view) for c, s in enumerate(line) if s != "#"]
    if chord:
        changed.remove(origin)  # the number chorded on was open already
    with sqlite_server(tmp_path / "animation.sqlite3") as server, browser_page(server) as page:
        drawn = page.evaluate(
            """([view, changed, origin]) => {
                    // Stand in for painting and timers: record what each step draws.
                    const timers = [], steps = [];
                    const draw = (r, c) => steps[steps.length - 1].push([r, c]);
                    const savedTimeout = window.setTimeout;
                    window.setTimeout = (callback, delay) => timers.push([delay, callback]);
                    try {
                        minesweep.animate(changed, origin, view.map(line => [...line]), draw);
                    } finally {
                        window.setTimeout = savedTimeout;
                    }
                    timers.sort((a, b) => a[0] - b[0]);
                    for (const [, callback] of timers) { steps.push([]); callback(); }
                    return steps;
                }""",
            [view, changed, list(origin)],
        )
    assert [{tuple(square) for square in step} for step in drawn] == flood_steps(
        view, changed, origin
    )


def test_the_page_passes_axe_and_its_security_policy(tmp_path: Path) -> None:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    with (
        sqlite_server(tmp_path / "axe.sqlite3") as server,
        browser_page(server, bypass_csp=False) as page,
    ):
        blocked: list[str] = []
        page.on(
            "console",
            lambda message: (
                blocked.append(message.text) if "Content Security Policy" in message.text else None
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


def test_a_loss_with_the_overlay_on_shows_the_result(tmp_path: Path) -> None:
    from minesweep import Game

    with sqlite_server(tmp_path / "overlay-end.sqlite3") as server:
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
            page.wait_for_function("minesweep.page.game.status === 'lost'")
            page.wait_for_function(
                "document.getElementById('message').textContent.startsWith('Lost')"
            )
            assert page.get_attribute("#overlay", "aria-pressed") == "false"
            page.wait_for_timeout(500)  # the loss's animation
            assert page.locator(".cell .p").count() == 0


# --- replay files ------------------------------------------------------------------------------
def test_a_finished_game_downloads_as_an_evf_file(tmp_path: Path) -> None:
    import numpy as np

    from minesweep import Game
    from minesweep.replays import read

    with sqlite_server(tmp_path / "download.sqlite3") as server:
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
            page.wait_for_function("minesweep.page.game && minesweep.page.game.status === 'lost'")
            with page.expect_download() as download:
                page.click("#download")
            saved = download.value
            assert saved.suggested_filename.endswith(".evf")
            replay = read(Path(saved.path()).read_bytes(), name=saved.suggested_filename)
            assert replay.player == "ada"
            assert np.array_equal(replay.field.mines, local.field.mines)


# --- as a new player meets the page ----------------------------------------------------------


def test_the_html_alone_draws_the_boards_place_and_says_what_it_needs(tmp_path: Path) -> None:
    with sqlite_server(tmp_path / "first-paint.sqlite3") as server, browser_page(server) as page:
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


def test_an_empty_leaderboard_is_a_sentence_and_the_first_reveal_clears_the_welcome(
    tmp_path: Path,
) -> None:
    with sqlite_server(tmp_path / "empty-board.sqlite3") as server, browser_page(server) as page:
        page.wait_for_selector("#noscores", state="visible")
        assert page.inner_text("#noscores") == "No ranked game yet."
        assert page.locator("#leaderboard li").count() == 0
        assert page.locator("#leaderboard").is_hidden()
        assert page.inner_text("#message") == "New game: click any square."
        page.click('[aria-label="row 8, column 15: hidden"]')
        page.wait_for_selector(".cell.open")
        page.wait_for_function("minesweep.page.game.status === 'playing'")
        assert page.inner_text("#message") == ""
        # With a score, the list shows and the sentence goes.
        score = {"name": "ada", "seconds": 9.5, "bbbv": 30, "win_rate": 1, "games": 1}
        answer(page, "**/api/leaderboards/**", {"scores": [{**score, "replay": "x" * 16}]})
        page.evaluate("minesweep.leaderboard()")
        assert page.locator("#leaderboard li").count() == 1
        assert page.locator("#noscores").is_hidden()


def test_on_a_phone_expert_squares_stay_tappable_and_the_board_scrolls(tmp_path: Path) -> None:
    with (
        sqlite_server(tmp_path / "phone.sqlite3") as server,
        browser_page(server, width=390, height=844) as page,
    ):
        assert page.evaluate("[minesweep.page.game.rows, minesweep.page.game.cols]") == [
            16,
            30,
        ]  # expert, the default
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


# --- the viewer apart from the live game ------------------------------------------------------


@pytest.mark.parametrize("width", [1400, 900, 390])
def test_the_probabilities_fit_their_squares(tmp_path: Path, width: int) -> None:
    # 1400 px wide fits expert's squares at 32 px, 900 at 27, a phone at 24 (the floor).
    with (
        sqlite_server(tmp_path / "odds-fit.sqlite3") as server,
        browser_page(server, width=width) as page,
    ):
        spills = page.evaluate(
            """() => {
                // The widest texts there are: 100, 0 (safe), two digits, one.
                const values = [1, 0, 0.57, 0.07, 0.995];
                const page = minesweep.page;
                page.overlay = page.game.view.map((line, r) =>
                    [...line].map((_, c) => values[(r + c) % values.length]));
                minesweep.paintAll();
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
        size = page.eval_on_selector(".cell .p", "s => parseFloat(getComputedStyle(s).fontSize)")
        assert size >= 9


def test_on_a_360_px_phone_taps_reveal_long_presses_flag_and_the_face_starts_over(
    tmp_path: Path,
) -> None:
    from minesweep import Game

    with sqlite_server(tmp_path / "phone-360.sqlite3") as server:
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
            page.wait_for_function("minesweep.page.game.status === 'playing'")
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
            page.wait_for_function("minesweep.page.game.status === 'lost'")
            page.wait_for_selector('#face[data-state="lost"]')
            page.tap("#face")
            page.wait_for_function(
                f"minesweep.page.game.id !== '{created['id']}'"
                " && minesweep.page.game.status === 'ready'"
            )
            page.wait_for_selector('#face[data-state="ready"]')
            assert page.inner_text("#left") == "10"


def test_enter_on_a_focused_button_is_the_buttons_not_a_reveal(tmp_path: Path) -> None:
    with sqlite_server(tmp_path / "enter-button.sqlite3") as server, browser_page(server) as page:
        page.wait_for_function("minesweep.page.game && minesweep.page.game.status === 'ready'")
        page.focus("#flagmode")
        page.keyboard.press("Enter")
        page.keyboard.press(" ")
        page.keyboard.press("Enter")
        page.wait_for_timeout(500)
        # The button toggled (three times), and no square under the cursor opened.
        assert page.get_attribute("#flagmode", "aria-pressed") == "true"
        assert page.evaluate("minesweep.page.game.status") == "ready"
        assert page.locator(".cell.open").count() == 0
        # The board's own keys still play: the cursor's square opens on Enter.
        page.focus('.cell[tabindex="0"]')
        page.click("#flagmode")  # flag mode off again, by mouse
        page.focus('.cell[tabindex="0"]')
        page.keyboard.press("Enter")
        page.wait_for_function("minesweep.page.game.status === 'playing'")


def _contrast(first: tuple[int, ...], second: tuple[int, ...]) -> float:
    """WCAG 2's contrast ratio of two sRGB colours."""

    def luminance(rgb: tuple[int, ...]) -> float:
        linear = [
            v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
            for v in rgb
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _css_rgb(fill: str) -> str:
    """A ``#rrggbb`` colour as the browser's computed style writes it."""
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def _svg_fills(view: str, odds: list[list[float]], theme: str) -> dict[tuple[int, int], str]:
    """Each square's fill in minesweep.svg's picture of ``view`` with the heat map ``odds``."""
    import xml.etree.ElementTree as ElementTree

    from minesweep import svg

    picture = ElementTree.fromstring(svg.board(parse_view(view), probabilities=odds, theme=theme))
    return {
        (int(rect.attrib["data-row"]), int(rect.attrib["data-col"])): rect.attrib["fill"]
        for rect in picture.iter("{http://www.w3.org/2000/svg}rect")
        if "square" in rect.attrib.get("class", "").split()
    }


def test_the_overlay_paints_the_svg_heat_map_in_both_skins(tmp_path: Path) -> None:
    # Ends, the stops themselves, and mixes between them; 0.75 puts a channel of the
    # classic skin on an exact half, where Python's round and Math.round part ways.
    chances = [0.0, 0.004, 0.07, 0.125, 0.25, 1 / 3, 0.5, 0.57, 0.75, 0.875, 0.995, 1.0]
    with sqlite_server(tmp_path / "odds-colours.sqlite3") as server, browser_page(server) as page:
        page.emulate_media(color_scheme="light")
        lines: list[str] = page.evaluate("minesweep.page.game.view")
        rows, cols = len(lines), len(lines[0])
        odds = [[chances[(r * cols + c) % len(chances)] for c in range(cols)] for r in range(rows)]
        page.evaluate("odds => { minesweep.page.overlay = odds; minesweep.paintAll(); }", odds)
        # Each switch repaints in the new skin, or the squares keep the last one's
        # colours: the browser's own dark preference (a media change), then the theme
        # button twice (to the light skin, since the page was dark, then the dark).
        skins: dict[str, Callable[[], object]] = {
            "classic": lambda: None,
            "dark, by preference": lambda: page.emulate_media(color_scheme="dark"),
            "classic, by the button": lambda: page.click("#theme"),
            "dark, by the button": lambda: page.click("#theme"),
        }
        for skin, switch in skins.items():
            switch()
            expected = _svg_fills("\n".join(lines), odds, skin.split(",")[0])
            # A media change reaches the page's listener a moment later: wait for the
            # repaint on one square before reading them all (a wrong skin still fails,
            # by the timeout, or below).
            probe_row, probe_col = next(
                (r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "#"
            )
            probe = expected[probe_row, probe_col]
            page.wait_for_function(
                """([row, col, rgb]) => getComputedStyle(document.querySelector(
                    `.cell[data-row="${row}"][data-col="${col}"]`)).backgroundColor === rgb""",
                arg=[probe_row, probe_col, _css_rgb(probe)],
                timeout=10_000,
            )
            shown = page.eval_on_selector_all(
                ".cell",
                """cells => cells.filter(c => c.querySelector('.p')).map(c => [
                    +c.dataset.row, +c.dataset.col, getComputedStyle(c).backgroundColor,
                    getComputedStyle(c.querySelector('.p')).color])""",
            )
            assert len(shown) == sum(line.count("#") for line in lines) > len(chances)
            for row, col, background, text in shown:
                square = tuple(int(v) for v in background[4:-1].split(","))
                ink = tuple(int(v) for v in text[4:-1].split(","))
                fill = expected[row, col]
                wanted = tuple(int(fill[i : i + 2], 16) for i in (1, 3, 5))
                assert square == wanted, (skin, odds[row][col], background, fill)
                assert _contrast(square, ink) >= 4.5, (skin, odds[row][col], text)


def test_on_a_360_px_phone_a_tap_on_a_satisfied_number_chords(tmp_path: Path) -> None:
    from minesweep import Game

    with sqlite_server(tmp_path / "phone-chord.sqlite3") as server:
        created = server.http.post("/api/games", json={"preset": "beginner", "seed": 3}).json()
        local = Game.new("beginner", seed=3)  # the same seed and first click: the same field
        local.reveal(4, 4)
        assert local.field is not None
        mines, glyphs = local.field.mines, local.glyphs()
        rows, cols = mines.shape

        def around(r: int, c: int) -> list[tuple[int, int]]:
            return [
                (i, j)
                for i in range(max(r - 1, 0), min(r + 2, rows))
                for j in range(max(c - 1, 0), min(c + 2, cols))
                if (i, j) != (r, c)
            ]

        # An open number after the first tap with a hidden safe neighbour: its mines
        # flagged, a tap on it opens that neighbour (the server chords a left click on a
        # number). 9 is a hidden square's glyph.
        number, flags, safe = next(
            ((r, c), [s for s in hidden if mines[s]], [s for s in hidden if not mines[s]])
            for r in range(rows)
            for c in range(cols)
            if 0 < glyphs[r, c] < 9
            for hidden in [[s for s in around(r, c) if glyphs[s] == 9]]
            if any(not mines[s] for s in hidden)
        )
        with browser_page(server, width=360, height=760, touch=True) as page:
            open_game(page, created["id"])
            page.tap('.cell[data-row="4"][data-col="4"]')
            page.wait_for_selector('.cell.open[data-row="4"][data-col="4"]')
            cdp = page.context.new_cdp_session(page)
            for r, c in flags:
                # A long press (a finger held 0.7 s, by the browser's own touch events) flags.
                box = page.locator(f'.cell[data-row="{r}"][data-col="{c}"]').bounding_box()
                assert box is not None
                point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
                cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
                page.wait_for_timeout(700)
                cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
                page.wait_for_selector(f'.cell.flag[data-row="{r}"][data-col="{c}"]')
            for r, c in safe:
                assert page.is_hidden(f'.cell.open[data-row="{r}"][data-col="{c}"]')
            page.tap(f'.cell[data-row="{number[0]}"][data-col="{number[1]}"]')
            for r, c in safe:
                page.wait_for_selector(f'.cell.open[data-row="{r}"][data-col="{c}"]')
            # The flags held: the chord hit no mine.
            assert page.evaluate("minesweep.page.game.status") != "lost"
            for r, c in flags:
                assert page.is_visible(f'.cell.flag[data-row="{r}"][data-col="{c}"]')
