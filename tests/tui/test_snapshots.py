"""Snapshots of the terminal game, the timer frozen and no animation.

pytest-textual-snapshot keeps them by this module's path, in
``__snapshots__/test_snapshots/``.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep.tui import MinesweeperApp

from .helpers import make_app, step_on_a_mine


def snapshot_app(tmp_path: pathlib.Path, theme: str = "color") -> MinesweeperApp:
    app = make_app(tmp_path, theme=theme)
    app.animation_level = "none"
    return app


def test_snapshot_a_new_game(snap_compare: Callable[..., bool], tmp_path: pathlib.Path) -> None:
    assert snap_compare(snapshot_app(tmp_path), terminal_size=(40, 16))


def test_snapshot_after_an_opening(
    snap_compare: Callable[..., bool], tmp_path: pathlib.Path
) -> None:
    assert snap_compare(snapshot_app(tmp_path), press=["space"], terminal_size=(40, 16))


def test_snapshot_a_loss_in_mono(snap_compare: Callable[..., bool], tmp_path: pathlib.Path) -> None:
    async def lose(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, MinesweeperApp)
        await pilot.press("space")
        await step_on_a_mine(pilot, app)
        await pilot.pause()

    assert snap_compare(
        snapshot_app(tmp_path, theme="mono"), run_before=lose, terminal_size=(60, 16)
    )
