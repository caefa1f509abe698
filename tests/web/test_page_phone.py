"""A large board on a 360 px phone, in Debian's Chromium: reached by a finger's scrolls.

The beginner board's phone tests (taps, long presses, chords) are in test_page.py; this
file plays the expert board, wider than the phone, the way a thumb would.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser import BROWSER_TEST, browser_page, sqlite_server

pytestmark = BROWSER_TEST

WIDTH, HEIGHT = 360, 760
CORNER = '.cell[data-row="15"][data-col="29"]'  # expert's last square, 16 rows by 30


def _on_screen(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the phone's screen (the layout viewport)."""
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return bool(
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= WIDTH
        and box["y"] + box["height"] <= HEIGHT
    )


def _swipe(page: Any, cdp: Any, start: tuple[float, float], by: tuple[float, float]) -> None:
    """A finger put down at ``start``, moved by ``by`` in ten steps a frame apart, lifted."""
    x, y = start
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        point = {"x": x + by[0] * step / 10, "y": y + by[1] * step / 10}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        page.wait_for_timeout(16)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_timeout(300)  # the scroll settles (no fling: the finger stopped)


def test_on_a_360_px_phone_a_finger_scrolls_to_experts_far_corner_and_taps_it_open(
    tmp_path: Path,
) -> None:
    with (
        sqlite_server(tmp_path / "phone-expert.sqlite3") as server,
        browser_page(server, width=WIDTH, height=HEIGHT, touch=True) as page,
    ):
        page.wait_for_function("minesweep.page.game && minesweep.page.game.status === 'ready'")
        assert page.evaluate("[minesweep.page.game.rows, minesweep.page.game.cols]") == [16, 30]
        # Pinch-zoom is the browser's to give: the page neither forbids it in its viewport
        # nor takes the board's pinches for itself ("manipulation" keeps pans and pinches).
        content = page.get_attribute('meta[name="viewport"]', "content")
        viewport = dict(part.strip().split("=", 1) for part in content.split(","))
        assert viewport["width"] == "device-width"
        assert viewport.get("user-scalable", "yes") not in ("no", "0")
        assert float(viewport.get("maximum-scale", "10")) > 1
        touch = page.eval_on_selector("#board", "b => getComputedStyle(b).touchAction")
        assert touch in ("auto", "manipulation")
        # The squares keep a finger's size; the board is wider than the phone and scrolls
        # in its own frame, so the page (and the bar above the board) does not move sideways.
        box = page.locator(CORNER).bounding_box()
        assert box is not None
        assert box["width"] >= 24
        assert box["height"] >= 24
        assert page.evaluate("board.scrollWidth > board.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
        assert not _on_screen(page, CORNER)
        # Swipes, as a finger makes them (the browser's own touch events, which it turns
        # into scrolls): left on the board, then up, until the far corner is on screen.
        cdp = page.context.new_cdp_session(page)
        for _ in range(12):
            if _on_screen(page, CORNER):
                break
            frame = page.locator("#board").bounding_box()
            assert frame is not None
            # Each swipe starts inside the board's frame as it is on screen now.
            x = frame["x"] + frame["width"] * 0.75
            y = min(max(frame["y"], 0) + 60, HEIGHT - 60)
            at_end = page.evaluate("board.scrollLeft + board.clientWidth >= board.scrollWidth - 1")
            _swipe(page, cdp, (x, y), (0, -200) if at_end else (-200, 0))
        assert _on_screen(page, CORNER)
        # Scrolling is no press: nothing was flagged or opened on the way.
        assert page.locator(".cell.flag, .cell.open").count() == 0
        # The bar is still there to read and tap: counters and face on screen.
        for selector in ("#left", "#face", "#time"):
            assert _on_screen(page, selector), selector
        # A tap where the corner now is (no scrolling of the harness's own) opens it.
        box = page.locator(CORNER).bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_selector(f"{CORNER}.open")
        page.wait_for_function("minesweep.page.game.status !== 'ready'")
        assert page.locator(".cell.flag").count() == 0
