"""Boards as SVG pictures: for notebooks, documents and reports.

:func:`board` draws any view (a 2-D array of :class:`~minesweep.squares.Glyph`
codes and numbers 0-8) as a hand-written SVG string, as python-chess's
``chess.svg`` draws a chess board: no browser and no imaging library. It can
lay a heat map of mine probabilities over the hidden squares, put marks
(:class:`Mark`: a hint, a click, a safe square, a certain mine) on squares
and outline a cursor.

The picture is a grid of ``size``-pixel squares, one ``<rect class="square
...">`` each, with what the square shows drawn over it. Every board has a
``<title>``, which screen readers and browsers' tooltips read. The same input
gives the same bytes, so pictures can be compared and committed.

This module knows only the glyph vocabulary: the engine's objects (``Board``,
``Game``, the solver's ``Analysis``) import it lazily in their ``_repr_svg_``
to show themselves in Jupyter, and it imports none of them.

>>> picture = board([[0, 1, 9], [0, 2, 10]], title="two rows")
>>> picture.startswith("<svg") and "<title>two rows</title>" in picture
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal, get_args
from xml.sax.saxutils import escape

import numpy as np
import numpy.typing as npt

from .errors import InvalidBoardError, SettingsError
from .squares import GLYPH_EXPLODED, GLYPH_FLAG, HIDDEN_GLYPHS, MAX_NUMBER, Glyph, square_name

__all__ = [
    "MARK_KINDS",
    "THEMES",
    "Mark",
    "MarkKind",
    "Theme",
    "board",
    "percent_label",
    "text_width",
]

#: What a mark says of its square: the solver's hint, a player's click, a
#: square certainly safe, a square certainly a mine.
MarkKind = Literal["hint", "click", "safe", "mine"]
MARK_KINDS: Final[tuple[MarkKind, ...]] = get_args(MarkKind)


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark on square ``(row, col)`` of a picture: see :data:`MarkKind`."""

    row: int
    col: int
    kind: MarkKind

    def __post_init__(self) -> None:
        if self.kind not in MARK_KINDS:
            raise SettingsError(f"mark kind must be one of {MARK_KINDS!r}, got {self.kind!r}")
        for name in ("row", "col"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise InvalidBoardError(f"mark {name} must be an int, got {value!r}")


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of a picture, as CSS colours."""

    background: str
    #: A revealed square and the lines between squares.
    revealed: str
    grid: str
    #: A hidden square's face and its raised edges, light (top left) and dark.
    hidden: str
    light_edge: str
    dark_edge: str
    #: The numbers 1 to 8, in order.
    numbers: tuple[str, str, str, str, str, str, str, str]
    #: A question mark, a mine's body, a flag's cloth, the exploded square.
    question: str
    mine: str
    flag: str
    exploded: str
    #: The heat map from a safe square to a mine, through the middle colour.
    #: Its percentages are black or white, whichever reads on the square's colour.
    heat: tuple[str, str, str]
    #: The marks' colours by kind, and the cursor's.
    marks: Mapping[str, str]
    cursor: str
    #: The text of a caption under the board.
    caption: str = "#000000"


THEMES: Final[Mapping[str, Theme]] = MappingProxyType(
    {
        "classic": Theme(
            background="#c0c0c0",
            revealed="#c0c0c0",
            grid="#808080",
            hidden="#c0c0c0",
            light_edge="#ffffff",
            dark_edge="#808080",
            numbers=(
                "#0000ff",  # 1 blue
                "#008000",  # 2 green
                "#ff0000",  # 3 red
                "#000080",  # 4 navy
                "#800000",  # 5 maroon
                "#008080",  # 6 teal
                "#000000",  # 7 black
                "#808080",  # 8 grey
            ),
            question="#000000",
            mine="#000000",
            flag="#ff0000",
            exploded="#ff0000",
            heat=("#4caf50", "#ffeb3b", "#f44336"),
            marks=MappingProxyType(
                {"hint": "#ff8c00", "click": "#0000ff", "safe": "#008000", "mine": "#c00000"}
            ),
            cursor="#000000",
        ),
        "dark": Theme(
            background="#1e1e1e",
            revealed="#2b2b2b",
            grid="#3c3c3c",
            hidden="#4a4a4a",
            light_edge="#6a6a6a",
            dark_edge="#262626",
            numbers=(
                "#7aa2ff",  # 1 blue
                "#6fcf6f",  # 2 green
                "#ff6b6b",  # 3 red
                "#a9a9ff",  # 4 navy, lightened to read on dark
                "#e08a6a",  # 5 maroon, lightened
                "#4fd1c5",  # 6 teal
                "#e6e6e6",  # 7 black turns white on dark
                "#a0a0a0",  # 8 grey
            ),
            question="#e6e6e6",
            mine="#e6e6e6",
            flag="#ff5252",
            exploded="#b71c1c",
            heat=("#2e7d32", "#9e9d24", "#c62828"),
            marks=MappingProxyType(
                {"hint": "#ffb74d", "click": "#64b5f6", "safe": "#81c784", "mine": "#ef5350"}
            ),
            cursor="#ffffff",
            caption="#e6e6e6",
        ),
    }
)

#: Square sizes allowed, in pixels: below 8 nothing reads, above 256 is a poster.
MIN_SIZE: Final = 8
MAX_SIZE: Final = 256
#: The font every text uses, and the widths of its bold characters, in ems
#: (Arial's and Helvetica's agree): the estimate :func:`text_width` makes.
#: A character not listed counts a full em, more than any listed.
FONT: Final = "Arial, Helvetica, sans-serif"
CHAR_WIDTHS: Final[Mapping[str, float]] = MappingProxyType(
    dict.fromkeys("0123456789", 0.556) | {"%": 0.889, "<": 0.584, ">": 0.584, "?": 0.611}
)
#: The caption's font size in pixels, and its line height in fonts.
CAPTION_FONT: Final = 12.0
CAPTION_LINE: Final = 1.3
#: The smallest font a percentage is written in, in pixels; below it the
#: heat map shows only its colour.
MIN_PERCENT_FONT: Final = 7.0
#: The gap kept between a percentage and its square's edges, in pixels each side.
PERCENT_PADDING: Final = 1.0


def text_width(text: str, font_size: float) -> float:
    """The width of ``text`` in bold :data:`FONT` at ``font_size`` pixels, estimated.

    >>> round(text_width("100%", 10.0), 2)
    25.57
    """
    return sum(CHAR_WIDTHS.get(character, 1.0) for character in text) * font_size


def percent_label(probability: float) -> str:
    """A probability as the heat map writes it: whole percent, rounded half up.

    A chance that rounds to 0% or 100% without being certain says so,
    since the difference is the whole point of a heat map.

    >>> [percent_label(p) for p in (0.0, 0.004, 0.125, 0.5, 0.996, 1.0)]
    ['0%', '<1%', '13%', '50%', '>99%', '100%']
    """
    percent = math.floor(probability * 100 + 0.5)
    if percent == 0 and probability > 0:
        return "<1%"
    if percent == 100 and probability < 1:
        return ">99%"
    return f"{percent}%"


def board(
    view: npt.ArrayLike,
    *,
    probabilities: npt.ArrayLike | None = None,
    marks: Iterable[Mark] = (),
    cursor: tuple[int, int] | None = None,
    size: int = 24,
    theme: str = "classic",
    title: str | None = None,
    caption: str | None = None,
) -> str:
    """The SVG picture of ``view``, ``size`` pixels a square, as a string.

    ``probabilities`` (the shape of the view; NaN where there is none, as
    an :class:`~minesweep.solver.probability.Analysis` has them) colours each
    hidden square from safe to mine and writes its percentage where the
    square is large enough. ``marks`` marks squares; ``cursor`` outlines one.
    ``title`` is the board's accessible name (by default its size and what
    it shows). ``caption`` is written under the board, in lines that fit its
    width (a title is read only by screen readers and tooltips; a caption is
    seen). Raises :class:`~minesweep.errors.InvalidBoardError` for a view,
    probabilities, mark or cursor that do not fit, and
    :class:`~minesweep.errors.SettingsError` for a bad ``size`` or ``theme``.
    """
    colours = _theme(theme)
    _check_size(size)
    glyphs = _checked_view(view)
    rows, cols = glyphs.shape
    chances = None if probabilities is None else _checked_probabilities(probabilities, glyphs)
    marked = _checked_marks(marks, glyphs.shape)
    if cursor is not None:
        cursor = _checked_square(cursor, glyphs.shape, "cursor")
    if title is None:
        title = _default_title(glyphs)

    width, height = cols * size, rows * size
    lines = [] if caption is None else _caption_lines(caption, width)
    board_height = height
    height += round(len(lines) * CAPTION_LINE * CAPTION_FONT + (CAPTION_FONT / 2 if lines else 0))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
        f'<rect class="background" width="{width}" height="{height}" fill="{colours.background}"/>',
    ]
    percent_font = _percent_font(size)
    # A square marked certainly safe or a mine shows the mark, not "0%" under it.
    settled = {(mark.row, mark.col) for mark in marked if mark.kind in ("safe", "mine")}
    for row in range(rows):
        for col in range(cols):
            chance = None if chances is None else chances[row, col]
            font = None if (row, col) in settled else percent_font
            out.extend(_square(int(glyphs[row, col]), row, col, size, colours, chance, font))
    out.extend(_mark(mark, size, colours) for mark in marked)
    if cursor is not None:
        x, y = cursor[1] * size, cursor[0] * size
        out.append(
            f'<rect class="cursor" x="{_n(x + 1)}" y="{_n(y + 1)}" width="{_n(size - 2)}" '
            f'height="{_n(size - 2)}" fill="none" stroke="{colours.cursor}" '
            f'stroke-width="2" stroke-dasharray="3 2"/>'
        )
    for n, line in enumerate(lines):
        # Left-aligned, the first baseline a line below the board's edge.
        baseline = board_height + (n + 1) * CAPTION_LINE * CAPTION_FONT
        out.append(
            f'<text class="caption" x="{_n(CAPTION_FONT / 2)}" y="{_n(baseline)}" '
            f'font-family="{FONT}" font-size="{_n(CAPTION_FONT)}" '
            f'fill="{colours.caption}">{escape(line)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _caption_lines(caption: str, width: int) -> list[str]:
    """``caption`` broken at spaces into lines that fit ``width`` pixels (by an estimate).

    A word wider than the board is a line of its own: it may run past the
    edge, but the caption is never cut. Newlines in ``caption`` break lines too.
    """
    room = width - CAPTION_FONT  # half a font's margin each side
    lines: list[str] = []
    for paragraph in caption.splitlines() or [""]:
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and _caption_width(candidate) > room:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


def _caption_width(text: str) -> float:
    """The width of ``text`` in regular :data:`FONT` at :data:`CAPTION_FONT`, estimated.

    Arial's regular letters average about half an em; wide ones (m, w,
    capitals) are counted more, so that a line rarely runs past the edge.
    """
    wide = sum(character in "mwMW@%" or character.isupper() for character in text)
    return (0.52 * len(text) + 0.3 * wide) * CAPTION_FONT


# --- checks ---------------------------------------------------------------------------


def _theme(theme: object) -> Theme:
    if not isinstance(theme, str) or theme not in THEMES:
        raise SettingsError(f"theme must be one of {tuple(THEMES)!r}, got {theme!r}")
    return THEMES[theme]


def _check_size(size: object) -> None:
    if (
        isinstance(size, bool)
        or not isinstance(size, (int, np.integer))
        or not MIN_SIZE <= size <= MAX_SIZE
    ):
        raise SettingsError(
            f"size must be an int of pixels from {MIN_SIZE} to {MAX_SIZE}, got {size!r}"
        )


def _checked_view(view: npt.ArrayLike) -> npt.NDArray[np.int64]:
    try:
        array = np.asarray(view)
    except ValueError as error:
        raise InvalidBoardError(f"view must be a rectangular 2-D array: {error}") from None
    if array.ndim != 2 or array.size == 0 or array.dtype.kind not in "iu":
        raise InvalidBoardError(
            f"view must be a non-empty 2-D array of glyphs, got {array.dtype} {array.shape}"
        )
    bad = np.argwhere((array < 0) | (array > int(max(Glyph))))
    if len(bad):
        row, col = (int(value) for value in bad[0])
        raise InvalidBoardError(
            f"view square at {square_name(row, col)} is {int(array[row, col])!r}, not a glyph "
            f"(0-{MAX_NUMBER} or {min(Glyph)}-{max(Glyph)})"
        )
    return array.astype(np.int64)


def _checked_probabilities(
    probabilities: npt.ArrayLike, view: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    try:
        array = np.asarray(probabilities, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise InvalidBoardError(f"probabilities must be an array of numbers: {error}") from None
    if array.shape != view.shape:
        raise InvalidBoardError(
            f"probabilities have shape {array.shape}, the view {view.shape}: they must agree"
        )
    bad = np.argwhere(~np.isnan(array) & ~((array >= 0) & (array <= 1)))
    if len(bad):
        row, col = (int(value) for value in bad[0])
        raise InvalidBoardError(
            f"probability of {square_name(row, col)} is {float(array[row, col])!r}, "
            "not between 0 and 1 (or NaN for none)"
        )
    return array


def _checked_square(square: object, shape: tuple[int, int], what: str) -> tuple[int, int]:
    if (
        not isinstance(square, tuple)
        or len(square) != 2
        or any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) for v in square)
    ):
        raise InvalidBoardError(f"{what} must be a (row, col) pair of ints, got {square!r}")
    row, col = int(square[0]), int(square[1])
    if not (0 <= row < shape[0] and 0 <= col < shape[1]):
        raise InvalidBoardError(f"{what} ({row}, {col}) is off the {shape[0]}x{shape[1]} view")
    return row, col


def _checked_marks(marks: Iterable[Mark], shape: tuple[int, int]) -> list[Mark]:
    checked = []
    for mark in marks:
        if not isinstance(mark, Mark):
            raise InvalidBoardError(f"marks must be Mark objects, got {mark!r}")
        _checked_square((mark.row, mark.col), shape, f"{mark.kind} mark")
        checked.append(mark)
    return checked


def _default_title(view: npt.NDArray[np.int64]) -> str:
    rows, cols = view.shape
    hidden = int(np.isin(view, HIDDEN_GLYPHS).sum())
    flags = int((view == GLYPH_FLAG).sum())
    words = f"Minesweeper board, {rows} by {cols}: {hidden} hidden, {flags} flagged"
    if (view == GLYPH_EXPLODED).any():
        words += ", a mine exploded"
    return words


# --- drawing --------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate as text: two decimals at most, no trailing zeros, the same every time."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


_GLYPH_CLASS: Final = {
    Glyph.HIDDEN: "hidden",
    Glyph.FLAG: "flag",
    Glyph.QUESTION: "question",
    Glyph.MINE: "mine",
    Glyph.EXPLODED: "exploded",
    Glyph.WRONG_FLAG: "wrong-flag",
}


def _percent_font(size: int) -> float | None:
    """The font of the heat map's percentages, so that the widest fits; None if too small."""
    widest = max(text_width(label, 1.0) for label in ("100%", ">99%", "<1%"))
    font = min(0.4 * size, (size - 2 * PERCENT_PADDING) / widest)
    # Rounded down to the two decimals written, so that the written font fits too.
    font = math.floor(font * 100) / 100
    return font if font >= MIN_PERCENT_FONT else None


def _square(
    glyph: int,
    row: int,
    col: int,
    size: int,
    colours: Theme,
    chance: float | None,
    percent_font: float | None,
) -> list[str]:
    """The elements of one square: its ``rect``, then what it shows.

    ``percent_font`` None leaves the heat map's percentage out.
    """
    x, y = col * size, row * size
    raised = glyph in HIDDEN_GLYPHS
    # The chance the heat map shows on this square: hidden squares only.
    heat = None if chance is None or not raised or math.isnan(chance) else float(chance)
    # The percentage and its font, where one is written (it stands in for a "?").
    percent = (
        (percent_label(heat), percent_font)
        if heat is not None and glyph != Glyph.FLAG and percent_font is not None
        else None
    )
    if glyph <= MAX_NUMBER:
        kind, fill = f"number n{glyph}", colours.revealed
    elif glyph == Glyph.EXPLODED:
        kind, fill = "exploded", colours.exploded
    else:
        kind, fill = _GLYPH_CLASS[Glyph(glyph)], colours.hidden if raised else colours.revealed
    if heat is not None:
        fill = _heat_colour(heat, colours.heat)
    out = [
        f'<rect class="square {kind}" data-row="{row}" data-col="{col}" x="{x}" y="{y}" '
        f'width="{size}" height="{size}" fill="{fill}" stroke="{colours.grid}" '
        f'stroke-width="{_n(0.04 * size if raised else 0.5)}"/>'
    ]
    if raised:
        out.append(_bevel(x, y, size, colours))
    centre_x, centre_y = x + size / 2, y + size / 2
    if 1 <= glyph <= MAX_NUMBER:
        out.append(_text(str(glyph), centre_x, centre_y, 0.75 * size, colours.numbers[glyph - 1]))
    elif glyph == Glyph.FLAG:
        out.append(_flag(x, y, size, colours))
    elif glyph == Glyph.QUESTION and percent is None:
        out.append(_text("?", centre_x, centre_y, 0.7 * size, colours.question))
    elif glyph in (Glyph.MINE, Glyph.EXPLODED):
        out.append(_mine(x, y, size, colours))
    elif glyph == Glyph.WRONG_FLAG:
        out.append(_mine(x, y, size, colours))
        out.append(_cross(x, y, size, colours.flag, "wrong"))
    if percent is not None:
        label, font = percent
        out.append(_text(label, centre_x, centre_y, font, _readable_on(fill), kind="percent"))
    return out


def _text(
    text: str, x: float, y: float, font_size: float, colour: str, *, kind: str = "glyph"
) -> str:
    # The baseline a third of the font below the centre centres digits without
    # dominant-baseline, which not every renderer honours.
    return (
        f'<text class="{kind}" x="{_n(x)}" y="{_n(y + 0.35 * font_size)}" '
        f'font-family="{FONT}" font-size="{_n(font_size)}" font-weight="bold" '
        f'text-anchor="middle" fill="{colour}">{escape(text)}</text>'
    )


def _bevel(x: int, y: int, size: int, colours: Theme) -> str:
    edge = max(1.0, 0.1 * size)
    half = edge / 2
    right, bottom = x + size - half, y + size - half
    return (
        f'<path class="bevel" fill="none" stroke-width="{_n(edge)}" stroke="{colours.light_edge}" '
        f'd="M{_n(x + half)} {_n(bottom)}V{_n(y + half)}H{_n(right)}"/>'
        f'<path class="bevel" fill="none" stroke-width="{_n(edge)}" stroke="{colours.dark_edge}" '
        f'd="M{_n(x + half)} {_n(bottom)}H{_n(right)}V{_n(y + half)}"/>'
    )


def _flag(x: int, y: int, size: int, colours: Theme) -> str:
    s = size / 24  # drawn on a 24-pixel square, scaled
    return (
        f'<g class="flag-sign"><path fill="{colours.mine}" d="M{_n(x + 6 * s)} {_n(y + 19 * s)}'
        f"H{_n(x + 18 * s)}V{_n(y + 17 * s)}H{_n(x + 13 * s)}V{_n(y + 5 * s)}"
        f'H{_n(x + 11.5 * s)}V{_n(y + 17 * s)}H{_n(x + 6 * s)}Z"/>'
        f'<path fill="{colours.flag}" d="M{_n(x + 13 * s)} {_n(y + 4 * s)}'
        f'L{_n(x + 5 * s)} {_n(y + 8.5 * s)}L{_n(x + 13 * s)} {_n(y + 13 * s)}Z"/></g>'
    )


def _mine(x: int, y: int, size: int, colours: Theme) -> str:
    centre_x, centre_y = x + size / 2, y + size / 2
    radius = 0.27 * size
    spike = 0.4 * size
    return (
        f'<g class="mine-sign" stroke="{colours.mine}" stroke-width="{_n(max(1.0, size / 16))}">'
        f'<path d="M{_n(centre_x - spike)} {_n(centre_y)}H{_n(centre_x + spike)}'
        f'M{_n(centre_x)} {_n(centre_y - spike)}V{_n(centre_y + spike)}"/>'
        f'<circle cx="{_n(centre_x)}" cy="{_n(centre_y)}" r="{_n(radius)}" '
        f'fill="{colours.mine}"/>'
        f'<circle cx="{_n(centre_x - radius / 3)}" cy="{_n(centre_y - radius / 3)}" '
        f'r="{_n(radius / 4)}" fill="#ffffff" stroke="none"/></g>'
    )


def _cross(x: int, y: int, size: int, colour: str, kind: str) -> str:
    near, far = 0.2 * size, 0.8 * size
    return (
        f'<path class="{kind}" fill="none" stroke="{colour}" '
        f'stroke-width="{_n(max(1.5, size / 10))}" stroke-linecap="round" '
        f'd="M{_n(x + near)} {_n(y + near)}L{_n(x + far)} {_n(y + far)}'
        f'M{_n(x + far)} {_n(y + near)}L{_n(x + near)} {_n(y + far)}"/>'
    )


def _mark(mark: Mark, size: int, colours: Theme) -> str:
    colour = colours.marks[mark.kind]
    x, y = mark.col * size, mark.row * size
    centre_x, centre_y = x + size / 2, y + size / 2
    width = _n(max(1.5, size / 10))
    label = f' data-row="{mark.row}" data-col="{mark.col}"'
    if mark.kind == "hint":
        # A thick frame: the square to open next.
        inset = max(1.5, size / 10) / 2
        return (
            f'<rect class="mark hint"{label} x="{_n(x + inset)}" y="{_n(y + inset)}" '
            f'width="{_n(size - 2 * inset)}" height="{_n(size - 2 * inset)}" fill="none" '
            f'stroke="{colour}" stroke-width="{width}"/>'
        )
    if mark.kind == "click":
        return (
            f'<circle class="mark click"{label} cx="{_n(centre_x)}" cy="{_n(centre_y)}" '
            f'r="{_n(size / 6)}" fill="{colour}" fill-opacity="0.8"/>'
        )
    if mark.kind == "safe":
        return (
            f'<circle class="mark safe"{label} cx="{_n(centre_x)}" cy="{_n(centre_y)}" '
            f'r="{_n(0.36 * size)}" fill="none" stroke="{colour}" stroke-width="{width}"/>'
        )
    return _cross(x, y, size, colour, "mark mine").replace("<path ", f"<path{label} ", 1)


def _heat_colour(chance: float, stops: tuple[str, str, str]) -> str:
    """The colour of ``chance`` between the three stops (0, 0.5, 1), as ``#rrggbb``."""
    low, high, share = (stops[0], stops[1], chance * 2) if chance <= 0.5 else (
        stops[1], stops[2], chance * 2 - 1,
    )  # fmt: skip
    start, end = _rgb(low), _rgb(high)
    mixed = (round(a + (b - a) * share) for a, b in zip(start, end, strict=True))
    return "#" + "".join(f"{channel:02x}" for channel in mixed)


def _readable_on(background: str) -> str:
    """Black or white, whichever contrasts more with ``background`` (WCAG 2's ratio).

    No one colour reads on a whole heat map (white on the dark theme's middle is 2.88:1);
    the better of the two is 4.58:1 or more on any colour, above AA's 4.5:1, and the web
    page's overlay chooses the same way (drawing.js's readableOn).
    """
    channels = [c / 255 for c in _rgb(background)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return "#000000" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "#ffffff"


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
