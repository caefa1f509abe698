"""What the terminal game's tests share: an app on a store in a test folder, a pilot, squares."""

from __future__ import annotations

import asyncio
import pathlib
from collections.abc import Awaitable, Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep.frontend import Settings
from minesweep.tui import MinesweeperApp, Store
from minesweep.tui.board_view import CELL_WIDTH, LEFT_MARGIN, BoardView

from ..helpers import Clock

__all__ = [
    "Clock",
    "cell_offset",
    "drive",
    "first_mine",
    "make_app",
    "message",
    "step_on_a_mine",
]


def make_app(
    tmp_path: pathlib.Path,
    *,
    clock: Clock | None = None,
    settings: Settings | None = None,
    theme: str = "color",
    keys: dict[str, list[str]] | None = None,
    **options: Any,
) -> MinesweeperApp:
    """The app of ``settings`` (beginner by default) on a store in ``tmp_path``.

    A game whose settings have no seed gets seed 7 (``new_seed`` changes
    that): the same field every run, while the game counts as one whose seed
    the player did not choose.
    """
    options.setdefault("new_seed", lambda: 7)
    return MinesweeperApp(
        settings or Settings.of(preset="beginner"),
        theme=theme,
        keys=keys,
        store=Store(tmp_path / "db.sqlite3"),
        clock_base=clock or Clock(),
        **options,
    )


def drive(
    app: MinesweeperApp, scenario: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int]
) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(run())


def message(app: MinesweeperApp) -> str:
    """The message line's text."""
    return str(app.query_one("#message").render())


def first_mine(app: MinesweeperApp) -> tuple[int, int]:
    """The first mine of the app's game, row by row (its field must be laid)."""
    field = app.game.field
    assert field is not None
    row, col = np.argwhere(field.mines)[0]
    return int(row), int(col)


async def step_on_a_mine(pilot: Pilot[None], app: MinesweeperApp) -> None:
    """Move the cursor onto the first mine and reveal it."""
    app.board.move_cursor(*first_mine(app))
    await pilot.press("space")


def cell_offset(row: int, col: int, view: BoardView | None = None) -> tuple[int, int]:
    """Where to click on a square, relative to the board widget.

    Inside the border and the board's left margin, two columns a square.
    """
    scroll_x, scroll_y = view.scroll_offset if view is not None else (0, 0)
    return 1 + LEFT_MARGIN + CELL_WIDTH * col - scroll_x, 1 + row - scroll_y
