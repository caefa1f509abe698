"""A finished game of the terminal game saved as an EVF replay (the export key), and read back."""

from __future__ import annotations

import pathlib
from typing import Any

import numpy as np
import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import ActionKind, CellState, Game, GameStatus
from minesweep.frontend import Settings
from minesweep.replays import read
from minesweep.replays.clicks import replay_game
from minesweep.tui import MinesweeperApp, Store
from minesweep.tui.export import replay_folder, replay_name

from .helpers import Clock, drive, make_app, message, step_on_a_mine

#: 2027-01-15 08:00:00 UTC: when every game of these tests ends, on the wall clock.
ENDED = 1_800_000_000.0
STAMP = "20270115-080000"


def actions(game: Game) -> list[tuple[str, int, int, int]]:
    """A game's actions as (kind, row, col, ms): what a replay keeps of them."""
    return [(a.kind.value, a.row, a.col, round(a.time * 1000)) for a in game.history]


def exporting_app(tmp_path: pathlib.Path, clock: Clock, **options: Any) -> MinesweeperApp:
    """The app of :func:`make_app`, its wall clock stopped at :data:`ENDED`."""
    return make_app(tmp_path, clock=clock, wall_clock=lambda: ENDED, **options)


async def win(pilot: Pilot[None], app: MinesweeperApp, clock: Clock) -> None:
    """Reveal every safe square still hidden, a quarter of a second apart."""
    await pilot.press("space")
    field = app.game.field
    assert field is not None
    for row, col in zip(*(~field.mines).nonzero(), strict=True):
        if app.game.is_over:
            break
        if app.game[int(row), int(col)] is CellState.HIDDEN:
            clock.now += 0.25
            app.board.move_cursor(int(row), int(col))
            await pilot.press("space")
    assert app.game.status is GameStatus.WON


def test_a_won_game_is_saved_and_reads_back_to_its_field_and_actions(
    tmp_path: pathlib.Path,
) -> None:
    clock = Clock()
    app = exporting_app(tmp_path, clock)

    async def scenario(pilot: Pilot[None]) -> None:
        await win(pilot, app, clock)
        assert "e to save the replay" in message(app)
        await pilot.press("e")
        path = tmp_path / "replays" / f"minesweep-beginner-won-{STAMP}.evf"
        assert message(app) == f"Replay saved (EVF, for Metasweeper or ms-toollib): {path}"
        replay = read(path)
        back = replay_game(replay)
        assert back.field == app.game.field
        assert back.status is GameStatus.WON
        assert actions(back) == actions(app.game)
        assert len(actions(back)) > 1
        assert replay.start_us == round((ENDED - app.game.elapsed) * 1_000_000)
        assert replay.end_us == round(ENDED * 1_000_000)

    drive(app, scenario, (80, 24))


def test_a_lost_game_is_saved_once_and_the_next_game_beside_it(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = exporting_app(tmp_path, clock)
    folder = tmp_path / "replays"

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 1.5
        # A flag on the last square still hidden (the first mine is stepped on).
        hidden = np.argwhere(app.game.state == CellState.HIDDEN)[-1]
        app.board.move_cursor(int(hidden[0]), int(hidden[1]))
        await pilot.press("f")
        assert app.game.history[-1].kind is ActionKind.FLAG
        clock.now += 0.75
        await step_on_a_mine(pilot, app)
        assert app.game.status is GameStatus.LOST
        played = app.game
        await pilot.press("e")
        first = folder / f"minesweep-beginner-lost-{STAMP}.evf"
        assert str(first) in message(app)
        back = replay_game(read(first))
        assert back.field == played.field
        assert back.status is GameStatus.LOST
        assert actions(back) == actions(played)
        # Again: the same file, not a second one.
        await pilot.press("e")
        assert message(app) == f"This game's replay is saved already: {first}"
        assert sorted(folder.iterdir()) == [first]
        # The next game, lost in the same second, does not overwrite it.
        await pilot.press("n", "space")
        await step_on_a_mine(pilot, app)
        await pilot.press("e")
        second = folder / f"minesweep-beginner-lost-{STAMP}-2.evf"
        assert set(folder.iterdir()) == {first, second}
        assert replay_game(read(second)).field == app.game.field
        assert replay_game(read(first)).field == played.field

    drive(app, scenario, (80, 24))


def test_a_game_in_progress_is_not_saved(tmp_path: pathlib.Path) -> None:
    app = exporting_app(tmp_path, Clock())

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("e")  # nothing played
        assert "once the game is over: a replay holds the mines" in message(app)
        await pilot.press("space", "e")
        assert app.game.status is GameStatus.PLAYING
        assert message(app) == (
            "Press e once the game is over: a replay holds the mines, which a game in "
            "progress keeps hidden."
        )
        assert not (tmp_path / "replays").exists()

    drive(app, scenario, (80, 24))


def test_a_board_evf_cannot_hold_says_so(tmp_path: pathlib.Path) -> None:
    # One mine on 256 x 2: two openings, won in a few reveals.
    settings = Settings(rows=256, cols=2, mines=1, preset=None, seed=3)
    clock = Clock()
    app = exporting_app(tmp_path, clock, settings=settings)

    async def scenario(pilot: Pilot[None]) -> None:
        await win(pilot, app, clock)
        await pilot.press("e")
        assert message(app).startswith(
            "The replay could not be saved: a 256x2 board of 16-pixel squares does not fit EVF"
        )
        assert not (tmp_path / "replays").exists()

    drive(app, scenario, (80, 24))


def test_the_help_says_where_replays_go(tmp_path: pathlib.Path) -> None:
    app = exporting_app(tmp_path, Clock())

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help").render())
        assert "save the finished game as an EVF replay" in text
        assert f"are saved in {tmp_path / 'replays'}" in text

    drive(app, scenario, (120, 40))


def test_replays_go_beside_the_store_and_are_named_for_their_game(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path / "data"))
    store = Store()
    try:
        assert replay_folder(store) == tmp_path / "data" / "replays"
    finally:
        store.close()
    game = Game.new("beginner", seed=1)
    # A kind's slashes (a custom size, a first-click rule) make no folders.
    assert replay_name("20x40/150/no-guess", game, ENDED) == (
        f"minesweep-20x40-150-no-guess-ready-{STAMP}.evf"
    )
    assert replay_name("expert", game, ENDED, 3) == f"minesweep-expert-ready-{STAMP}-3.evf"
