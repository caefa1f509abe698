"""The board: one Line-API widget that draws only the lines on screen.

Each square is two columns wide (its glyph and a space), so the board lines
up in any terminal. The cursor is drawn in those spaces, as brackets around
its square ("[3]"): a character no square uses, in any theme, with or
without colour, and the square inside keeps its own look. A one-column
margin left of the first column holds the first column's "[". (Reverse video,
as it was drawn before, made a hidden square look revealed.) The widget
keeps a cursor, a highlighted hint square and an optional overlay of mine
probabilities; it holds no rules: the app gives it a way to read the game's
glyphs, a band of rows at a time, and tells it which rows changed. It reads
only the rows on screen, so drawing costs the same on a 10,000x10,000 board
as on beginner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from minesweep.frontend import Button
from minesweep.squares import VIEW_SYMBOLS, Glyph

__all__ = ["OVERLAY_LEVELS", "THEMES", "BoardView", "Theme", "overlay_symbol"]

CELL_WIDTH = 2
#: The column left of the first square: room for the cursor's "[" on the first column.
LEFT_MARGIN = 1

#: The probability overlay's symbols: bars that grow with the probability, in
#: eight steps, so that no overlay square can be read as a board number.
OVERLAY_LEVELS = "▁▂▃▄▅▆▇█"


def overlay_symbol(probability: float) -> str:
    """A hidden square's mine probability as the overlay draws it: S safe, M a mine, or a bar."""
    if probability == 0:
        return "S"
    if probability == 1:
        return "M"
    return OVERLAY_LEVELS[min(len(OVERLAY_LEVELS) - 1, int(probability * len(OVERLAY_LEVELS)))]


#: Textual's mouse buttons by number.
_BUTTONS = {1: Button.LEFT, 2: Button.MIDDLE, 3: Button.RIGHT}


@dataclass(frozen=True)
class Theme:
    """How each glyph looks: a character and a style (glyph value -> style)."""

    name: str
    symbols: dict[int, str]
    styles: dict[int, Style]
    #: The cursor's brackets.
    cursor: Style
    hint: Style
    overlay: Style


#: The view alphabet of files (:data:`minesweep.squares.VIEW_SYMBOLS`), as the
#: mono theme draws it; the colour theme draws a blank as a space (its colour
#: says revealed) and a hidden square as a middle dot.
_VIEW = dict(enumerate(VIEW_SYMBOLS))
_SYMBOLS = _VIEW | {0: " ", int(Glyph.HIDDEN): "·"}

# The classic number colours: 1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black, 8 grey.
_NUMBER_COLOURS = {
    1: "#3b82f6",
    2: "#22a34a",
    3: "#ef4444",
    4: "#1e3a8a",
    5: "#991b1b",
    6: "#0f9b9b",
    7: "#111111",
    8: "#808080",
}
_REVEALED = "#d6d3d1"
_HIDDEN = "#78716c"

THEMES = {
    "color": Theme(
        "color",
        _SYMBOLS,
        {
            0: Style(bgcolor=_REVEALED),
            **{
                n: Style(color=colour, bgcolor=_REVEALED, bold=True)
                for n, colour in _NUMBER_COLOURS.items()
            },
            int(Glyph.HIDDEN): Style(color="#d6d3d1", bgcolor=_HIDDEN),
            int(Glyph.FLAG): Style(color="#dc2626", bgcolor=_HIDDEN, bold=True),
            int(Glyph.QUESTION): Style(color="#fde047", bgcolor=_HIDDEN, bold=True),
            int(Glyph.MINE): Style(color="#000000", bgcolor=_REVEALED, bold=True),
            int(Glyph.EXPLODED): Style(color="#ffffff", bgcolor="#dc2626", bold=True),
            int(Glyph.WRONG_FLAG): Style(color="#dc2626", bgcolor=_REVEALED, bold=True),
        },
        # Yellow behind the brackets: no square is drawn on it.
        cursor=Style(color="#000000", bgcolor="#facc15", bold=True),
        hint=Style(bgcolor="#16a34a", color="#ffffff", bold=True),
        overlay=Style(color="#fafaf9", bgcolor=_HIDDEN, italic=True),
    ),
    # Readable without colour: every state has its own character.
    "mono": Theme(
        "mono",
        _VIEW,
        {glyph: Style() for glyph in _SYMBOLS},
        cursor=Style(bold=True),
        hint=Style(underline=True, bold=True),
        overlay=Style(italic=True),
    ),
}


class BoardView(ScrollView, can_focus=True, inherit_bindings=False):
    """The board; scrolls when it is larger than the terminal.

    It takes none of ScrollView's key bindings: on a board wider or taller
    than the terminal, the arrows would scroll it instead of moving the
    cursor (the cursor's moves scroll it to stay in sight).
    """

    DEFAULT_CSS = """
    BoardView {
        border: round $accent;
        max-width: 100%;
        max-height: 100%;
        scrollbar-size: 1 1;
    }
    """

    class Pressed(Message):
        """A mouse button went down on a square."""

        def __init__(self, row: int, col: int, button: Button) -> None:
            super().__init__()
            self.row = row
            self.col = col
            self.button = button

    def __init__(
        self,
        shape: tuple[int, int],
        glyphs: Callable[[slice], npt.NDArray[np.uint8]],
        theme: Theme,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.theme = theme
        self.cursor = (0, 0)
        self.hint: tuple[int, int] | None = None
        self.overlay: npt.NDArray[np.float64] | None = None
        self.hidden_board = False
        self.set_glyphs(shape, glyphs)

    # --- what to draw -------------------------------------------------------------

    def set_glyphs(
        self,
        shape: tuple[int, int],
        glyphs: Callable[[slice], npt.NDArray[np.uint8]],
        rows: list[int] | None = None,
    ) -> None:
        """A board of ``shape`` whose rows ``glyphs`` reads; redraw ``rows`` only, or all."""
        self.shape = shape
        self.read_rows = glyphs
        self.virtual_size = Size(LEFT_MARGIN + shape[1] * CELL_WIDTH, shape[0])
        # Exactly the board, its margin and its border; max-width and max-height
        # shrink it (and bring scrollbars) when the terminal is smaller.
        self.styles.width = LEFT_MARGIN + shape[1] * CELL_WIDTH + 2
        self.styles.height = shape[0] + 2
        if rows is None:
            self.refresh()
        else:
            for row in sorted(set(rows)):
                self.refresh_row(row)

    def refresh_row(self, row: int) -> None:
        y = row - self.scroll_offset.y
        if 0 <= y < self.size.height:
            self.refresh_line(y)

    def move_cursor(self, row: int, col: int) -> None:
        rows, cols = self.shape
        row = min(max(row, 0), rows - 1)
        col = min(max(col, 0), cols - 1)
        old = self.cursor
        self.cursor = (row, col)
        self.refresh_row(old[0])
        self.refresh_row(row)
        # The square and both its brackets, "[3]", in sight.
        self.scroll_to_region(
            Region(LEFT_MARGIN - 1 + col * CELL_WIDTH, row, CELL_WIDTH + 1, 1),
            animate=False,
            immediate=True,
        )

    def set_hint(self, square: tuple[int, int] | None) -> None:
        old = self.hint
        self.hint = square
        for cell in (old, square):
            if cell is not None:
                self.refresh_row(cell[0])

    def set_overlay(self, probability: npt.NDArray[np.float64] | None) -> None:
        self.overlay = probability
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = y + scroll_y
        width = self.size.width
        rows, cols = self.shape
        if self.hidden_board or row >= rows:
            return Strip.blank(width, self.rich_style)
        theme = self.theme
        segments: list[Segment] = []
        line = self.read_rows(slice(row, row + 1))[0]
        overlay = self.overlay[row] if self.overlay is not None else None
        # Only the columns on screen: a line of a 10,000-column board is drawn
        # in the time of a line of the terminal's width. Square ``col`` is at
        # x = LEFT_MARGIN + 2 col, the space after it one further on.
        first = max(0, (scroll_x - LEFT_MARGIN) // CELL_WIDTH)
        last = min(cols, (scroll_x + width) // CELL_WIDTH + 1)
        # The cursor's column on this line, drawn in brackets: "[3]".
        cursor = self.cursor[1] if self.cursor[0] == row and self.has_focus else -2
        start = LEFT_MARGIN + first * CELL_WIDTH  # where the strip starts on the board
        if first == 0:
            # The margin (one column): the first column's "[" when the cursor is on it.
            start = 0
            if cursor == 0:
                segments.append(Segment("[", theme.cursor))
            else:
                segments.append(Segment(" ", self.rich_style))
        for col in range(first, last):
            glyph = int(line[col])
            text = theme.symbols[glyph]
            style = theme.styles[glyph]
            if overlay is not None and glyph in (Glyph.HIDDEN, Glyph.QUESTION):
                value = overlay[col]
                if not np.isnan(value):
                    text = overlay_symbol(float(value))
                    style = theme.overlay
            if self.hint == (row, col):
                style = style + theme.hint
            segments.append(Segment(text, style))
            # The space after the square: the cursor's brackets, where it is beside it.
            if col == cursor:
                segments.append(Segment("]", theme.cursor))
            elif col == cursor - 1:
                segments.append(Segment("[", theme.cursor))
            else:
                segments.append(Segment(" ", style))
        end = LEFT_MARGIN + last * CELL_WIDTH
        strip = Strip(Segment.simplify(segments), end - start)
        offset = scroll_x - start
        return strip.crop(offset, offset + width)

    # --- the mouse -------------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        offset = event.get_content_offset(self)
        if offset is None or self.hidden_board:
            return
        # A square and the space after it are its column; the margin is none.
        col = (offset.x + self.scroll_offset.x - LEFT_MARGIN) // CELL_WIDTH
        row = offset.y + self.scroll_offset.y
        rows, cols = self.shape
        button = _BUTTONS.get(event.button)
        if button is not None and 0 <= row < rows and 0 <= col < cols:
            self.move_cursor(row, col)
            self.post_message(self.Pressed(row, col, button))
            event.stop()

    def on_focus(self) -> None:
        self.refresh_row(self.cursor[0])

    def on_blur(self) -> None:
        self.refresh_row(self.cursor[0])
