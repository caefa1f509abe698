"""Screenshots of the web game for the README and docs/game.md, made by hand, kept in git.

    PYTHONPATH=src python docs/gen_screenshots.py

starts ``minesweep serve`` on a scratch SQLite database, plays a seeded game in Debian's
Chromium (Playwright, a test dependency) and writes four PNG files to docs/screenshots/:
the classic and dark skins, at a desktop's width and at a 360 px phone's. The docs build
only shows the committed files, so it needs no browser; run this again when the page's
look changes, and commit what it writes.

The same seeds and the same clicks give the same boards every run. The one thing the
clicks cannot fix is the timer, which counts the seconds the script happened to take: it
is set to :data:`SHOWN_SECONDS` and the page's clock (Playwright's) held still for the
picture, so that a run on a busy machine draws the same counter as one on an idle one.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SCREENSHOTS = HERE / "screenshots"
SHOWN_SECONDS = 42


@dataclass(frozen=True)
class Shot:
    """One picture: the browser's viewport, what is played, and the part of the page kept."""

    name: str
    skin: str  # "light" (the classic skin) or "dark", as the browser's colour preference
    viewport: tuple[int, int]
    preset: str
    seed: int
    first: tuple[int, int]  # the first click, (row, col)
    flags: int  # how many mines beside the opening's numbers are flagged
    overlay: bool  # the probability overlay on
    size: tuple[int, int]  # the picture's width and height: the page's top left, cropped

    @property
    def path(self) -> Path:
        return SCREENSHOTS / f"{self.name}.png"


def _desktop(name: str, skin: str) -> Shot:
    """Expert at 1280 x 800, the overlay on; the picture ends where the board and bar do."""
    return Shot(
        name,
        skin,
        viewport=(1280, 800),
        preset="expert",
        seed=21,
        first=(8, 15),
        flags=3,
        overlay=True,
        size=(1040, 824),
    )


def _phone(name: str, skin: str) -> Shot:
    """Beginner on a 360 x 760 phone; the picture runs on, as the page does, to the board's end."""
    return Shot(
        name,
        skin,
        viewport=(360, 760),
        preset="beginner",
        seed=13,
        first=(4, 4),
        flags=2,
        overlay=False,
        size=(360, 828),
    )


#: The four pictures; tests/test_screenshots.py holds the files to these sizes.
SHOTS = (
    _desktop("classic-desktop", "light"),
    _desktop("dark-desktop", "dark"),
    _phone("classic-phone", "light"),
    _phone("dark-phone", "dark"),
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def _server(database: Path) -> Iterator[str]:
    """``minesweep serve`` in a subprocess, without rate limits (the script clicks fast)."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "minesweep",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{database}",
            "--create-rate",
            "0",
            "--action-rate",
            "0",
            "--log-level",
            "warning",
        ]
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{base}/openapi.json"):
                    break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.05)
        else:
            raise RuntimeError("the server did not start")
        yield base
    finally:
        process.terminate()
        process.wait()


def _mines(shot: Shot) -> list[tuple[int, int]]:
    """Mines beside the first click's numbers, nearest the click first: the ones to flag.

    The server lays the field from the seed and the first click as the engine does here.
    """
    from minesweep import Game

    game = Game.new(shot.preset, seed=shot.seed)
    game.reveal(*shot.first)
    assert game.field is not None
    glyphs, mines = game.glyphs(), game.field.mines
    rows, cols = mines.shape
    beside = {
        (i, j)
        for r in range(rows)
        for c in range(cols)
        if 0 < glyphs[r, c] < 9  # an open number (9 is a hidden square)
        for i in range(max(r - 1, 0), min(r + 2, rows))
        for j in range(max(c - 1, 0), min(c + 2, cols))
        if mines[i, j]
    }
    row, col = shot.first
    return sorted(beside, key=lambda s: (abs(s[0] - row) + abs(s[1] - col), s))


def _play(page: Any, base: str, shot: Shot) -> None:
    """A new seeded game on the page: its first click, some flags, the overlay."""
    request = urllib.request.Request(
        f"{base}/api/games",
        data=json.dumps({"preset": shot.preset, "seed": shot.seed}).encode(),
        headers={"content-type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        token = json.load(response)["id"]
    # The page starts a game of its own first: let it, then point it at ours.
    page.wait_for_function("localStorage.getItem('minesweep-game') !== null")
    page.evaluate("token => localStorage.setItem('minesweep-game', token)", token)
    page.reload()
    page.wait_for_function(
        "token => minesweep.page.game && minesweep.page.game.id === token", arg=token
    )
    row, col = shot.first
    page.click(f'.cell[data-row="{row}"][data-col="{col}"]')
    page.wait_for_function("minesweep.page.game.status === 'playing'")
    for r, c in _mines(shot)[: shot.flags]:
        page.click(f'.cell[data-row="{r}"][data-col="{c}"]', button="right")
        page.wait_for_selector(f'.cell.flag[data-row="{r}"][data-col="{c}"]')
    if shot.overlay:
        page.click("#overlay")
        page.wait_for_selector(".cell .p")
    page.wait_for_timeout(1000)  # the reveal's animation, ring by ring, ends


def _take(browser: Any, base: str, shot: Shot) -> None:
    width, height = shot.viewport
    page = browser.new_page(
        viewport={"width": width, "height": height},
        color_scheme=shot.skin,
        has_touch=width < 600,
        # Playwright's waits evaluate strings, which the page's own policy forbids.
        bypass_csp=True,
    )
    try:
        page.clock.install()
        page.goto(base)
        page.wait_for_selector(".cell")
        _play(page, base, shot)
        # The counter as if the game had run SHOWN_SECONDS, the clock then held (the
        # module's docstring says why); one tick of the page's timer draws it.
        page.clock.pause_at(time.time() * 1000 + 60_000)
        page.evaluate(
            "s => { minesweep.page.timerBase = s; minesweep.page.timerAt = performance.now(); }",
            SHOWN_SECONDS,
        )
        page.clock.run_for(300)
        page.mouse.move(0, 0)  # no square lit by the pointer's hover
        page.evaluate("document.activeElement && document.activeElement.blur()")
        # The picture is the page's top left, as far as the bar and the board reach (and
        # a margin): what it keeps is fixed, so a page that grew is said, not cut.
        reach = page.evaluate(
            """() => [...document.querySelectorAll("#bar > :not([hidden]), #board")]
                .map(e => e.getBoundingClientRect())
                .reduce(([w, h], r) =>
                    [Math.max(w, r.right + scrollX), Math.max(h, r.bottom + scrollY)], [0, 0])"""
        )
        print(f"{shot.name}: the bar and board reach {reach[0]:.0f} x {reach[1]:.0f} px")
        if reach[0] + 8 > shot.size[0] or reach[1] + 8 > shot.size[1]:
            raise RuntimeError(f"{shot.name}: the page outgrew {shot.size}; enlarge it in SHOTS")
        clip = {"x": 0, "y": 0, "width": shot.size[0], "height": shot.size[1]}
        page.screenshot(path=str(shot.path), clip=clip, full_page=True)
    finally:
        page.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    SCREENSHOTS.mkdir(exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as scratch,
        _server(Path(scratch) / "shots.sqlite3") as base,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            for shot in SHOTS:
                _take(browser, base, shot)
                print(f"{shot.path.relative_to(HERE.parent)}: {shot.path.stat().st_size} bytes")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
