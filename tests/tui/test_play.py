"""Playing the terminal game: the mouse, a win, a loss and their records, undo, no-guess games."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import CellState, GameStatus, Minefield
from minesweep.frontend import Settings
from minesweep.tui import Store

from .helpers import Clock, cell_offset, drive, make_app, message, step_on_a_mine


def test_mouse_left_reveals_right_flags_on_exact_squares(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.click("#board", offset=cell_offset(4, 6))
        await pilot.pause()
        assert [str(a) for a in app.game.history] == ["O4,6"]
        hidden = np.argwhere(app.game.state == CellState.HIDDEN)[0]
        r, c = int(hidden[0]), int(hidden[1])
        await pilot.click("#board", offset=cell_offset(r, c), button=3)
        await pilot.pause()
        assert app.game[r, c] is CellState.FLAGGED
        assert str(app.game.history[-1]) == f"F{r},{c}"

    drive(app, scenario, (60, 20))


def test_mouse_hits_the_right_square_after_scrolling(tmp_path: pathlib.Path) -> None:
    settings = Settings(rows=40, cols=80, mines=300, preset=None, seed=3)
    app = make_app(tmp_path, settings=settings)

    async def scenario(pilot: Pilot[None]) -> None:
        app.board.move_cursor(35, 70)  # far outside a 50x15 terminal: it scrolls
        await pilot.pause()
        view = app.board
        assert view.scroll_offset.y > 0
        assert view.scroll_offset.x > 0
        await pilot.click("#board", offset=cell_offset(34, 68, view))
        await pilot.pause()
        assert [str(a) for a in app.game.history] == ["O34,68"]

    drive(app, scenario, (50, 15))


def test_a_left_click_on_a_satisfied_number_chords(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")  # (0, 0) opens
        game = app.game
        field = game.field
        assert field is not None
        # Find a revealed number, flag its mines, then click it: a chord.
        for r, c in np.argwhere((game.state == CellState.REVEALED) & (field.numbers > 0)):
            around = field.mines[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2]
            hidden = game.state[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2] == CellState.HIDDEN
            if hidden.sum() > around.sum():
                break
        for mr, mc in np.argwhere(field.mines):
            if abs(mr - r) <= 1 and abs(mc - c) <= 1:
                game.flag(int(mr), int(mc))
        await pilot.click("#board", offset=cell_offset(int(r), int(c)))
        await pilot.pause()
        assert game.history[-1].kind.value == "C"
        assert game.history[-1].row == r

    drive(app, scenario, (60, 20))


def test_a_left_click_on_an_open_blank_is_a_wasted_reveal(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")  # (0, 0) opens: a blank
        assert app.game.field is not None
        assert app.game.field.numbers[0, 0] == 0
        await pilot.press("space")
        assert [str(a) for a in app.game.history] == ["O0,0", "O0,0"]

    drive(app, scenario, (60, 20))


def test_a_won_game_is_recorded(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        field = app.game.field
        assert field is not None
        field = app.game.field
        assert field is not None
        for r, c in np.argwhere(~field.mines):
            if app.game.state[r, c] != CellState.REVEALED:
                clock.now += 1
                app.board.move_cursor(int(r), int(c))
                await pilot.press("space")
        await pilot.pause()
        assert app.game.status is GameStatus.WON
        text = message(app)
        assert text.startswith("Won in ")
        assert "3BV" in text
        assert "efficiency" in text
        assert "beginner: won 1 of 1 (100%), streak 1 (best 1), best time" in text

    drive(app, scenario, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.won, record.streak) == (1, 1, 1)
    assert record.best_time is not None
    assert Store(tmp_path / "db.sqlite3").saved("beginner") is None


def test_a_loss_shows_the_mines_and_is_recorded(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path, theme="mono")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        field = app.game.field
        assert field is not None
        mine = np.argwhere(field.mines)
        app.board.move_cursor(int(mine[0][0]), int(mine[0][1]))
        await pilot.press("space")
        await pilot.pause()
        assert app.game.status is GameStatus.LOST
        assert message(app).startswith("Lost")
        line = app.board.render_line(int(mine[1][0]) - app.board.scroll_offset.y).text
        assert "*" in line or "X" in line

    drive(app, scenario, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.lost, record.best_time) == (1, 1, None)


def test_games_of_another_rule_are_recorded_apart(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path, settings=Settings.of(preset="beginner", rule="safe"))

    async def scenario(pilot: Pilot[None]) -> None:
        assert str(app.query_one("#status").render()).startswith("beginner/safe ·")
        await pilot.press("space")
        await step_on_a_mine(pilot, app)
        assert app.game.status is GameStatus.LOST

    drive(app, scenario, (60, 20))
    store = Store(tmp_path / "db.sqlite3")
    assert (store.record("beginner/safe").lost, store.record("beginner").played) == (1, 0)


def test_undo_after_a_loss_is_refused_and_the_loss_stays_on_record(
    tmp_path: pathlib.Path,
) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        await step_on_a_mine(pilot, app)
        assert app.game.status is GameStatus.LOST
        view = app.game.glyphs().copy()
        history = app.game.history
        await pilot.press("u")
        # One rule for every front end (minesweep.frontend.undo): an ended game stands.
        assert message(app) == "the game is over (lost): an ended game stands"
        assert app.game.status is GameStatus.LOST
        assert np.array_equal(app.game.glyphs(), view)
        assert app.game.history == history
        assert not app.assisted
        assert "lost" in str(app.query_one("#status").render())

    drive(app, scenario, (60, 20))
    store = Store(tmp_path / "db.sqlite3")
    record = store.record("beginner")
    assert (record.played, record.lost, record.assisted_played) == (1, 1, 0)
    assert store.saved("beginner") is None


def test_new_game_starts_fresh(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "n", "n")  # a game in progress: asked, then abandoned
        assert app.game.history == ()
        assert app.game.status is GameStatus.READY

    drive(app, scenario, (60, 20))


def test_the_record_line_adds_up_after_an_assisted_win(tmp_path: pathlib.Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.finish("beginner", won=True, seconds=20.0, bbbv=10, assisted=False)
    store.finish("beginner", won=True, seconds=30.0, bbbv=10, assisted=True)
    store.finish("beginner", won=False, seconds=5.0, bbbv=10, assisted=True)
    from minesweep.tui.words import record_text

    # The assisted games neither extend nor break the streak, and are counted apart.
    assert record_text(store.record("beginner")) == (
        "beginner: won 1 of 1 (100%), streak 1 (best 1), best time 20.0 s; "
        "assisted apart: won 1 of 2."
    )


def test_no_guess_games_lay_a_field_the_solver_clears(tmp_path: pathlib.Path) -> None:
    from minesweep.solver import clears_without_guessing

    settings = Settings(rows=9, cols=9, mines=10, preset="beginner", seed=5, no_guess=True)
    app = make_app(tmp_path, settings=settings)

    async def scenario(pilot: Pilot[None]) -> None:
        app.board.move_cursor(4, 4)
        await pilot.press("space")
        field = app.game.field
        assert field is not None
        assert clears_without_guessing(field, (4, 4))

    drive(app, scenario, (60, 20))


def test_no_guess_generation_running_out_is_a_message_not_a_crash(
    tmp_path: pathlib.Path,
) -> None:
    from minesweep.solver import NoGuessBudgetError

    def exhausted(*args: object) -> Minefield:
        raise NoGuessBudgetError("no no-guess 9x9 field with 60 mines found")

    settings = Settings(rows=9, cols=9, mines=60, preset=None, no_guess=True)
    app = make_app(tmp_path, settings=settings, lay_no_guess=exhausted)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        assert app.game.field is None
        assert not app.game.history
        text = message(app)
        assert "no no-guess 9x9 field with 60 mines found: try fewer mines" in text

    drive(app, scenario, (60, 20))


def test_a_no_guess_first_reveal_keeps_the_flags_before_it_and_their_times(
    tmp_path: pathlib.Path,
) -> None:
    clock = Clock()
    settings = Settings(rows=9, cols=9, mines=10, preset="beginner", seed=5, no_guess=True)
    app = make_app(tmp_path, settings=settings, clock=clock)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("f")  # (0, 0) flagged before the field is laid
        clock.now += 10
        app.board.move_cursor(4, 4)
        await pilot.press("space")
        assert [(str(a), a.time) for a in app.game.history] == [("F0,0", 0.0), ("O4,4", 10.0)]
        assert app.game.elapsed == 10.0  # the clock started at the flag
        assert app.game[0, 0] is CellState.FLAGGED

    drive(app, scenario, (60, 20))


def test_a_chord_short_of_flags_says_why_it_did_nothing(tmp_path: pathlib.Path) -> None:
    from minesweep.squares import square_name

    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        field = app.game.field
        assert field is not None
        numbered = np.argwhere((app.game.state == CellState.REVEALED) & (field.numbers > 0))
        r, c = int(numbered[0][0]), int(numbered[0][1])
        number = int(field.numbers[r, c])
        app.board.move_cursor(r, c)
        before = app.game.state.copy()
        for key in ("c", "space"):  # the chord key, and a left click on a number
            await pilot.press(key)
            await pilot.pause()
            assert (app.game.state == before).all()  # it opened nothing
            assert message(app) == (
                f"{square_name(r, c)} shows {number} but has 0 flags around it: "
                "a chord needs as many flags as the number."
            )
        # A flag too many or too few says so with its count; a move says it no more.
        hidden = [
            (int(hr), int(hc))
            for hr, hc in np.argwhere(app.game.state == CellState.HIDDEN)
            if max(abs(hr - r), abs(hc - c)) == 1
        ]
        app.board.move_cursor(*hidden[0])
        await pilot.press("f")
        assert "shows" not in message(app)
        app.board.move_cursor(r, c)
        await pilot.press("c")
        await pilot.pause()
        if number == 1:
            assert "shows" not in message(app)  # satisfied: the chord opened the rest
        else:
            assert message(app).startswith(f"{square_name(r, c)} shows {number} but has 1 flag ")

    drive(app, scenario, (60, 20))
