"""The terminal game, driven by Textual's Pilot: keys, mouse, win, loss, pause, hint,
undo, persistence, and a few snapshots with the timer frozen."""

from __future__ import annotations

import ast
import asyncio
import json
import pathlib
from collections.abc import Awaitable, Callable

import numpy as np
import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import CellState, GameStatus, ParseError
from minesweep.frontend import Settings
from minesweep.tui import MinesweeperApp, Store, load_keys
from minesweep.tui.app import DEFAULT_KEYS
from minesweep.tui.board_view import BoardView

from .helpers import Clock


def make_app(
    tmp_path: pathlib.Path,
    *,
    clock: Clock | None = None,
    settings: Settings | None = None,
    theme: str = "color",
    keys: dict[str, list[str]] | None = None,
) -> MinesweeperApp:
    return MinesweeperApp(
        settings or Settings.of(preset="beginner", seed=7),
        theme=theme,
        keys=keys,
        store=Store(tmp_path / "db.sqlite3"),
        clock_base=clock or Clock(),
    )


def drive(
    app: MinesweeperApp, scenario: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int]
) -> None:
    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot)

    asyncio.run(run())


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
    """Where to click, relative to the board widget: inside its border, two columns a cell."""
    scroll_x, scroll_y = view.scroll_offset if view is not None else (0, 0)
    return 1 + 2 * col - scroll_x, 1 + row - scroll_y


# --- keyboard and mouse ---------------------------------------------------------------------


def test_keyboard_moves_reveals_and_flags_exact_squares(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("right", "l", "down", "j")  # arrows and hjkl: (2, 2)
        assert app.board.cursor == (2, 2)
        await pilot.press("space")
        assert [str(a) for a in app.game.history] == ["O2,2"]
        await pilot.press("k", "k", "h", "h")  # back to (0, 0)
        assert app.board.cursor == (0, 0)
        mine = first_mine(app)
        app.board.move_cursor(*mine)
        await pilot.press("f")
        assert app.game[mine] is CellState.FLAGGED
        await pilot.press("f")
        assert app.game[mine] is CellState.HIDDEN

    drive(app, scenario, (60, 20))


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


# --- win, loss, pause, hint, undo -----------------------------------------------------------


def test_a_seeded_game_is_won_and_recorded(tmp_path: pathlib.Path) -> None:
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
        message = str(app.query_one("#message").render())
        assert message.startswith("Won in ")
        assert "3BV" in message
        assert "efficiency" in message
        assert "beginner: won 1 of 1 (100%), streak 1 (best 1), best time" in message

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
        assert str(app.query_one("#message").render()).startswith("Lost")
        line = app.board.render_line(int(mine[1][0]) - app.board.scroll_offset.y).text
        assert "*" in line or "X" in line

    drive(app, scenario, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.lost, record.best_time) == (1, 1, None)


def test_games_of_another_rule_are_recorded_apart(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path, settings=Settings.of(preset="beginner", rule="safe", seed=7))

    async def scenario(pilot: Pilot[None]) -> None:
        assert str(app.query_one("#status").render()).startswith("beginner/safe ·")
        await pilot.press("space")
        await step_on_a_mine(pilot, app)
        assert app.game.status is GameStatus.LOST

    drive(app, scenario, (60, 20))
    store = Store(tmp_path / "db.sqlite3")
    assert (store.record("beginner/safe").lost, store.record("beginner").played) == (1, 0)


def test_pause_hides_the_board_and_stops_the_timer(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 5
        assert app.game.elapsed == 5
        await pilot.press("p")
        assert not app.board.display
        assert app.query_one("#paused").display
        clock.now += 100
        assert app.game.elapsed == 5
        await pilot.press("space")  # nothing happens while paused
        assert len(app.game.history) == 1
        await pilot.press("p")
        clock.now += 1
        assert app.game.elapsed == 6
        assert app.board.display

    drive(app, scenario, (60, 20))


def test_hint_highlights_a_safe_square_and_marks_the_game_assisted(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        await pilot.press("H")
        await pilot.pause()
        assert app.assisted
        assert app.board.hint is not None
        assert app.board.cursor == app.board.hint
        field = app.game.field
        assert field is not None
        message = str(app.query_one("#message").render())
        assert message.startswith("Hint: ")
        if "safe:" in message:
            assert not field.mines[app.board.hint]
        assert "assisted" in str(app.query_one("#status").render())

    drive(app, scenario, (60, 20))


def test_probability_overlay_toggles(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path, theme="mono")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "o")
        await pilot.pause()
        assert app.board.overlay is not None
        assert app.assisted
        await pilot.press("o")
        assert app.board.overlay is None

    drive(app, scenario, (60, 20))


def test_undo_takes_back_a_loss(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        before = app.game.state.copy()
        await step_on_a_mine(pilot, app)
        assert app.game.status is GameStatus.LOST
        assert Store(tmp_path / "db.sqlite3").record("beginner").lost == 1
        await pilot.press("u")
        assert app.game.status is GameStatus.PLAYING
        assert np.array_equal(app.game.state, before)
        assert app.assisted
        # The loss taken back is no longer on record; the game is recorded
        # once, as assisted, when it ends for good.
        assert Store(tmp_path / "db.sqlite3").record("beginner").lost == 0
        field = app.game.field
        assert field is not None
        for r, c in np.argwhere(~field.mines):
            if app.game.state[r, c] != CellState.REVEALED:
                app.board.move_cursor(int(r), int(c))
                await pilot.press("space")
        assert app.game.status is GameStatus.WON

    drive(app, scenario, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.lost, record.assisted_played) == (0, 0, 1)


def test_new_game_starts_fresh(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "n")
        assert app.game.history == ()
        assert app.game.status is GameStatus.READY

    drive(app, scenario, (60, 20))


# --- persistence, sizes, keys ------------------------------------------------------------------


def test_a_game_in_progress_resumes_after_a_restart(tmp_path: pathlib.Path) -> None:
    first = make_app(tmp_path)
    state: list[np.ndarray] = []

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space", "down", "down", "right", "f")
        state.append(first.game.state.copy())
        # No quit: the process could have been killed here.

    drive(first, play, (60, 20))
    again = make_app(tmp_path)

    async def check(pilot: Pilot[None]) -> None:
        assert np.array_equal(again.game.state, state[0])
        assert [str(a) for a in again.game.history] == ["O0,0", "F2,1"]

    drive(again, check, (60, 20))


def test_a_terminal_too_small_gets_a_message(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        assert app.query_one("#too-small").display
        assert not app.board.display

    drive(app, scenario, (20, 6))


def test_help_lists_the_keys(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help").render())
        assert "reveal" in text
        assert "hint" in text
        await pilot.press("escape")

    drive(app, scenario, (90, 30))


def test_the_readme_key_file_works(tmp_path: pathlib.Path) -> None:
    readme = (pathlib.Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    example = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "tui.toml"
    path.write_text(example)
    keys = load_keys(path)
    assert keys["flag"] == ["f", "m"]
    assert keys["hint"] == ["H", "t"]
    assert keys["help"] == DEFAULT_KEYS["help"]


def test_keys_are_remapped_from_a_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "tui.toml"
    path.write_text('[keys]\nflag = ["m"]\nreveal = "x"\n')
    keys = load_keys(path)
    assert keys["flag"] == ["m"]
    assert keys["reveal"] == ["x"]
    assert keys["up"] == ["up", "k"]
    app = make_app(tmp_path, keys=keys)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("x")
        assert len(app.game.history) == 1
        await pilot.press("space")  # no longer bound
        assert len(app.game.history) == 1

    drive(app, scenario, (60, 20))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[keys]\nfly = ['f']\n", "unknown action 'fly'"),
        ("[keys\n", "cannot read"),
        ("[keys]\nflag = 3\n", "must be a key or a list"),
        ("[keys]\nhint = '?'\n", "key '\\?' is bound to both hint and help"),
        ("[keys]\nflag = ['f', 'u']\n", "key 'u' is bound to both flag and undo"),
    ],
)
def test_bad_key_files_are_refused(tmp_path: pathlib.Path, text: str, message: str) -> None:
    path = tmp_path / "tui.toml"
    path.write_text(text)
    with pytest.raises(ParseError, match=message):
        load_keys(path)


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
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesweep.solver

    def exhausted(*args: object, **kwargs: object) -> None:
        raise minesweep.solver.NoGuessBudgetError("no no-guess 9x9 field with 60 mines found")

    monkeypatch.setattr(minesweep.solver, "no_guess_game", exhausted)
    settings = Settings(rows=9, cols=9, mines=60, preset=None, no_guess=True)
    app = make_app(tmp_path, settings=settings)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        assert app.game.field is None
        assert not app.game.history
        message = str(app.query_one("#message").render())
        assert "no no-guess 9x9 field with 60 mines found: try fewer mines" in message

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


def test_a_left_click_on_an_open_blank_is_a_wasted_reveal(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")  # (0, 0) opens: a blank
        assert app.game.field is not None
        assert app.game.field.numbers[0, 0] == 0
        await pilot.press("space")
        assert [str(a) for a in app.game.history] == ["O0,0", "O0,0"]

    drive(app, scenario, (60, 20))


def test_nothing_in_the_core_imports_the_terminal_game() -> None:
    package = pathlib.Path(__import__("minesweep").__file__).parent
    for path in package.rglob("*.py"):
        if {"tui", "cli"} & set(path.parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                assert "tui" not in name.split("."), path
                assert not name.startswith("textual"), path


# --- snapshots (the timer frozen, no animation) ------------------------------------------------


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


# --- saves of every kind, records, the overlay, big boards ----------------------------------


def test_each_kind_of_game_keeps_its_own_save_and_resume_says_which(
    tmp_path: pathlib.Path,
) -> None:
    expert = make_app(tmp_path, settings=Settings.of(preset="expert", seed=3))

    async def play_expert(pilot: Pilot[None]) -> None:
        await pilot.press("space", "down", "f")

    drive(expert, play_expert, (80, 24))
    beginner = make_app(tmp_path)

    async def play_beginner(pilot: Pilot[None]) -> None:
        message = str(beginner.query_one("#message").render())
        assert message.startswith("No saved beginner game. Saved: expert (2 actions)")
        await pilot.press("space")

    drive(beginner, play_beginner, (60, 20))
    again = make_app(tmp_path, settings=Settings.of(preset="expert", seed=3))

    async def check(pilot: Pilot[None]) -> None:
        assert [str(a) for a in again.game.history] == ["O0,0", "F1,0"]
        message = str(again.query_one("#message").render())
        assert message.startswith("Resumed your saved expert game: 2 actions")

    drive(again, check, (80, 24))
    kinds = dict(Store(tmp_path / "db.sqlite3").saved_kinds())
    assert kinds == {"expert": 2, "beginner": 1}


def test_the_save_appends_one_record_an_action_and_never_the_board(
    tmp_path: pathlib.Path,
) -> None:
    settings = Settings.of(size=(1000, 1000), mines=150_000, rule="safe")
    app = make_app(tmp_path, settings=settings)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space", "right", "f", "right", "f", "u")

    drive(app, play, (80, 24))
    saved = Store(tmp_path / "db.sqlite3").saved("1000x1000/150000/safe")
    assert saved is not None
    assert len(saved.header) < 300  # settings and a seed, no board
    assert [json.loads(record).get("action", "undo") for record in saved.records] == [
        "O0,0", "F0,1", "F0,2", "undo",
    ]  # fmt: skip
    again = make_app(tmp_path, settings=settings)

    async def check(pilot: Pilot[None]) -> None:
        assert np.array_equal(again.game.state, app.game.state)
        assert again.assisted

    drive(again, check, (80, 24))


def test_undoing_the_first_reveal_takes_the_field_back_and_resumes_so(
    tmp_path: pathlib.Path,
) -> None:
    app = make_app(tmp_path, settings=Settings.of(preset="beginner"))

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("f", "right", "space", "u")
        assert app.game.field is None
        assert [str(a) for a in app.game.history] == ["F0,0"]

    drive(app, play, (60, 20))
    again = make_app(tmp_path, settings=Settings.of(preset="beginner"))

    async def check(pilot: Pilot[None]) -> None:
        assert again.game.field is None
        assert [str(a) for a in again.game.history] == ["F0,0"]

    drive(again, check, (60, 20))


def test_a_no_guess_game_resumes_on_its_field(tmp_path: pathlib.Path) -> None:
    settings = Settings(rows=9, cols=9, mines=10, preset="beginner", seed=5, no_guess=True)
    app = make_app(tmp_path, settings=settings)

    async def play(pilot: Pilot[None]) -> None:
        app.board.move_cursor(4, 4)
        await pilot.press("space")

    drive(app, play, (60, 20))
    again = make_app(tmp_path, settings=settings)

    async def check(pilot: Pilot[None]) -> None:
        assert again.game.field is not None
        assert app.game.field is not None
        assert np.array_equal(again.game.field.mines, app.game.field.mines)

    drive(again, check, (60, 20))


def test_the_record_line_adds_up_after_an_assisted_win(tmp_path: pathlib.Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    store.finish("beginner", won=True, seconds=20.0, bbbv=10, assisted=False)
    store.finish("beginner", won=True, seconds=30.0, bbbv=10, assisted=True)
    store.finish("beginner", won=False, seconds=5.0, bbbv=10, assisted=True)
    from minesweep.tui.app import _record_text

    # The assisted games neither extend nor break the streak, and are counted apart.
    assert _record_text(store.record("beginner")) == (
        "beginner: won 1 of 1 (100%), streak 1 (best 1), best time 20.0 s; "
        "assisted apart: won 1 of 2."
    )


def test_the_overlay_cannot_be_read_as_a_number(tmp_path: pathlib.Path) -> None:
    from minesweep.tui.board_view import overlay_symbol

    symbols = {overlay_symbol(p / 100) for p in range(101)}
    assert not symbols & set("0123456789")
    assert overlay_symbol(0.0) == "S"
    assert overlay_symbol(1.0) == "M"
    assert overlay_symbol(0.05) < overlay_symbol(0.5) < overlay_symbol(0.95)
    app = make_app(tmp_path, theme="mono")

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "o")
        await pilot.pause()
        lines = [app.board.render_line(y).text for y in range(9)]
        drawn = set("".join(lines))
        assert drawn & set("▁▂▃▄▅▆▇█S")
        assert "Mine probabilities: S safe, M a mine" in str(app.query_one("#message").render())

    drive(app, scenario, (60, 20))


def test_hints_on_a_board_too_big_for_the_solver_say_so(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesweep.tui.app

    monkeypatch.setattr(minesweep.tui.app, "ADVICE_MAX_SQUARES", 80)
    app = make_app(tmp_path)  # beginner: 81 squares, one past the patched limit

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "H")
        message = str(app.query_one("#message").render())
        assert message.startswith("No hints or probabilities on boards over 80 squares")
        assert not app.assisted
        await pilot.press("o")
        assert app.board.overlay is None
        assert not app.assisted

    drive(app, scenario, (60, 20))
