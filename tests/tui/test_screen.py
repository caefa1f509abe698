"""What the terminal game shows besides the board's squares: pause, hints, the overlay, sizes."""

from __future__ import annotations

import pathlib

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep.tui import MinesweeperApp

from .helpers import Clock, drive, make_app, message


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
        text = message(app)
        assert text.startswith("Hint: ")
        if "safe:" in text:
            assert not field.mines[app.board.hint]
        assert "assisted" in str(app.query_one("#status").render())

    drive(app, scenario, (60, 20))


def test_advice_before_the_first_reveal_leaves_the_game_unassisted(tmp_path: pathlib.Path) -> None:
    # The first-click hint is the rule's promise: no field is laid yet. One
    # rule for every front end (frontend.advice_assists); the web game too.
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("H")
        await pilot.pause()
        assert message(app).startswith("Hint: ")
        assert not app.assisted
        await pilot.press("o")  # the overlay before the field: nothing to show
        await pilot.pause()
        assert not app.assisted
        await pilot.press("space")  # the field is laid: the overlay now shows it
        await pilot.pause()
        assert app.assisted

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
        assert "Mine probabilities: S safe, M a mine" in message(app)

    drive(app, scenario, (60, 20))


def test_hints_on_a_board_too_big_for_the_solver_say_so(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path, advice_max_squares=80)  # beginner: 81 squares, one past it

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "H")
        text = message(app)
        assert text.startswith("No hints or probabilities on boards over 80 squares")
        assert not app.assisted
        await pilot.press("o")
        assert app.board.overlay is None
        assert not app.assisted

    drive(app, scenario, (60, 20))


def test_a_terminal_too_small_gets_a_message(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        assert app.query_one("#too-small").display
        assert not app.board.display

    drive(app, scenario, (20, 6))


def status(app: MinesweeperApp) -> str:
    return str(app.query_one("#status").render())


def test_the_status_line_names_the_cursor_square_from_1(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        assert "· row 1, column 1 ·" in status(app)
        await pilot.press("down", "down", "right")
        assert "· row 3, column 2 ·" in status(app)

    drive(app, scenario, (80, 20))


def test_a_hint_names_its_square_as_the_status_line_does(tmp_path: pathlib.Path) -> None:
    from minesweep.tui.words import square_name

    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("H")  # before the first reveal: the rule's sentence names no square
        first = app.board.hint
        assert first is not None
        assert message(app).startswith(f"Hint: {square_name(*first)}: the first click is safe")
        app.board.move_cursor(0, 0)
        await pilot.press("space", "H")
        hint = app.board.hint
        assert hint is not None
        assert app.board.cursor == hint
        here = square_name(*hint)
        assert here == f"row {hint[0] + 1}, column {hint[1] + 1}"
        assert message(app).startswith(f"Hint: {here} ")
        assert f"· {here} ·" in status(app)

    drive(app, scenario, (80, 20))


def test_a_hint_is_gone_once_the_game_moves_on(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "H")
        assert message(app).startswith("Hint: ")
        await pilot.press("f")  # an action: the hint was of the game before it
        assert message(app) == "Press ? for help."
        assert app.board.hint is None

    drive(app, scenario, (80, 20))


def test_hiding_the_overlay_takes_its_legend_away(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "o")
        assert message(app).endswith("Press o to hide.")
        await pilot.press("right", "f")  # the legend holds while the overlay is on
        assert message(app).endswith("Press o to hide.")
        await pilot.press("o")
        assert message(app) == "Press ? for help."

    drive(app, scenario, (80, 20))


def test_playing_on_after_the_new_game_question_keeps_the_end_line(
    tmp_path: pathlib.Path,
) -> None:
    from .helpers import first_mine

    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "n")
        assert app.abandon_asked
        app.board.move_cursor(*first_mine(app))
        await pilot.press("space")  # plays on, onto a mine
        assert not app.abandon_asked
        assert message(app).startswith("Lost: ")

    drive(app, scenario, (80, 20))


@pytest.mark.parametrize("theme_name", ["color", "mono"])
def test_the_cursor_cannot_be_mistaken_for_any_square(theme_name: str) -> None:
    """Every square state drawn in a row; the cursor on each: "[g]", the square unchanged."""
    import asyncio

    import numpy as np
    from rich.segment import Segment
    from textual.app import App, ComposeResult
    from textual.strip import Strip

    from minesweep.squares import Glyph
    from minesweep.tui.board_view import OVERLAY_LEVELS, THEMES, BoardView

    theme = THEMES[theme_name]
    glyphs = np.arange(int(max(Glyph)) + 1, dtype=np.uint8)[None, :]  # 0-8, hidden, flag, ...
    cols = glyphs.shape[1]

    class Board(App[None]):
        def compose(self) -> ComposeResult:
            yield BoardView((1, cols), lambda rows: glyphs[rows], theme, id="board")

    def cells(strip: Strip) -> list[tuple[str, object]]:
        """Each column's character and style."""
        return [
            (text, segment.style)
            for segment in strip
            for text in segment.text
            if not Segment(text, segment.style).control
        ]

    async def run() -> None:
        app = Board()
        async with app.run_test(size=(2 * cols + 10, 5)) as pilot:
            board = app.query_one(BoardView)
            board.blur()
            await pilot.pause()
            plain = cells(board.render_line(0))
            # A one-column margin, then each square and the space after it.
            assert "".join(t for t, _ in plain) == " " + "".join(
                f"{theme.symbols[g]} " for g in range(cols)
            )
            board.focus()
            await pilot.pause()
            for col in range(cols):
                board.move_cursor(0, col)
                drawn = cells(board.render_line(0))
                text = "".join(t for t, _ in drawn)
                # Both brackets on every column, the first too (in the margin).
                assert text[2 * col : 2 * col + 3] == f"[{theme.symbols[col]}]"
                # Only the brackets differ from the board without the cursor: the
                # square inside keeps its own character and style.
                changed = [x for x in range(len(drawn)) if drawn[x] != plain[x]]
                assert changed == [2 * col, 2 * col + 2]
                for x in changed:
                    assert drawn[x][1] == theme.cursor

    asyncio.run(run())
    # The brackets are characters no square (nor the overlay) draws: the cursor
    # is told apart without colour (NO_COLOR, --mono) ...
    drawn_by_squares = set("".join(theme.symbols.values())) | set(OVERLAY_LEVELS) | set("SM")
    assert not drawn_by_squares & set("[]")
    # ... and, in colour, by a background no square has.
    if theme_name == "color":
        backgrounds = {style.bgcolor for style in theme.styles.values()}
        assert theme.cursor.bgcolor not in backgrounds | {theme.hint.bgcolor, theme.overlay.bgcolor}


def test_a_click_on_each_column_hits_its_square() -> None:
    """The margin left of the first column moves no square: each square and the
    space after it are its column, and a click in the margin is no square's."""
    import asyncio

    import numpy as np
    from textual.app import App, ComposeResult

    from minesweep.frontend import Button
    from minesweep.squares import VIEW_SYMBOLS, Glyph
    from minesweep.tui.board_view import THEMES, BoardView

    from .helpers import cell_offset

    rows, cols = 3, 12
    glyphs = np.full((rows, cols), Glyph.HIDDEN, np.uint8)
    pressed: list[tuple[int, int, Button]] = []

    class Board(App[None]):
        def compose(self) -> ComposeResult:
            yield BoardView((rows, cols), lambda band: glyphs[band], THEMES["mono"], id="board")

        def on_board_view_pressed(self, event: BoardView.Pressed) -> None:
            pressed.append((event.row, event.col, event.button))

    async def run() -> None:
        app = Board()
        async with app.run_test(size=(2 * cols + 10, rows + 4)) as pilot:
            board = app.query_one(BoardView)
            for col in range(cols):
                x, y = cell_offset(1, col)
                for dx in (0, 1):  # the square, and the space after it
                    pressed.clear()
                    await pilot.click("#board", offset=(x + dx, y))
                    await pilot.pause()
                    assert pressed == [(1, col, Button.LEFT)]
                    assert board.cursor == (1, col)
                    # The cursor's brackets are drawn around the square clicked.
                    line = board.render_line(1).text
                    assert line[x - 2 : x + 1] == f"[{VIEW_SYMBOLS[Glyph.HIDDEN]}]"
            pressed.clear()
            await pilot.click("#board", offset=(1, 2))  # the margin
            await pilot.pause()
            assert pressed == []

    asyncio.run(run())
