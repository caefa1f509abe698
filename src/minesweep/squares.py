"""The vocabulary of a square: every code that says what a square is or shows.

Everything else in minesweep imports these names and never writes the numbers
themselves, so that a code is defined once and renumbering it cannot silently
break another module. Three encodings live here, each for its own audience:

- :class:`CellState`: what the game knows of a square on its board (hidden,
  question-marked, flagged, revealed, exploded), one byte a square;
- :class:`Glyph`: what a player sees on a square: ``0`` to ``8`` for a
  revealed number, then the hidden kinds and the end-of-game marks. The solver
  reads views written in glyphs, and :data:`VIEW_SYMBOLS` is the one
  alphabet a view is written in as text;
- :class:`Knowledge`: what the solver's own bookkeeping knows of a square
  while it plays (unknown, open, a mine), which is less than the game knows.

It also names a square for people, once for every front end:
:func:`square_name` in a sentence (``row 4, column 1``) and
:func:`square_tag` in a table (``r4c1``), both counted from 1 as players
count. Programs count from 0: the Python API, JSON, CSV and the HTTP API keep
0-based ``row`` and ``col`` indices, and only text for a person adds the one.

The plain ``int`` constants below repeat enum members as ``int`` objects: numpy
compares an array with an ``IntEnum`` member through its slow path for Python
objects (microseconds a time), and numba's kernels read module-level ints as
compile-time constants. Each is defined from its enum member, never retyped.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from types import MappingProxyType
from typing import Final

__all__ = [
    "GLYPH_EXPLODED",
    "GLYPH_FLAG",
    "GLYPH_HIDDEN",
    "GLYPH_MINE",
    "GLYPH_PLAYABLE_MAX",
    "GLYPH_QUESTION",
    "GLYPH_WRONG_FLAG",
    "HIDDEN_GLYPHS",
    "KNOWN_MINE",
    "KNOWN_OPEN",
    "KNOWN_UNKNOWN",
    "MAX_NUMBER",
    "OUTCOME_MINE",
    "STATE_EXPLODED",
    "STATE_FLAGGED",
    "STATE_HIDDEN",
    "STATE_OPENABLE_MAX",
    "STATE_OPENING",
    "STATE_QUESTIONED",
    "STATE_REVEALED",
    "VIEW_SYMBOLS",
    "CellState",
    "Glyph",
    "Knowledge",
    "glyph_of",
    "square_name",
    "square_tag",
]


class CellState(IntEnum):
    """What the game knows of one square on its board; stored as one byte."""

    HIDDEN = 0
    #: Hidden and marked "?"; a flood opens it as it opens any hidden square.
    QUESTIONED = 1
    #: Hidden and flagged as a mine; never opened, and floods stop at it.
    FLAGGED = 2
    REVEALED = 3
    #: A revealed mine: the game is lost.
    EXPLODED = 4


class Glyph(IntEnum):
    """What the player sees on one square; ``0`` to ``8`` are revealed numbers."""

    HIDDEN = 9
    FLAG = 10
    QUESTION = 11
    #: A mine shown once the game is lost.
    MINE = 12
    #: The mine that went off.
    EXPLODED = 13
    #: A flag on a square without a mine, shown once the game is lost.
    WRONG_FLAG = 14


class Knowledge(IntEnum):
    """What the solver's play loop knows of a square: the player's notes, not the board."""

    UNKNOWN = 0
    OPEN = 1
    MINE = 2


#: The glyphs of a square the player has not opened (it may hold a mine).
HIDDEN_GLYPHS: Final = (Glyph.HIDDEN, Glyph.FLAG, Glyph.QUESTION)
#: The largest revealed number; every glyph above it is not a number.
MAX_NUMBER: Final = 8

# Plain ints for numpy and numba (see the module's docstring).
STATE_HIDDEN: Final = int(CellState.HIDDEN)
STATE_QUESTIONED: Final = int(CellState.QUESTIONED)
STATE_FLAGGED: Final = int(CellState.FLAGGED)
STATE_REVEALED: Final = int(CellState.REVEALED)
STATE_EXPLODED: Final = int(CellState.EXPLODED)
#: The states a flood opens are exactly those up to this one (hidden, questioned).
STATE_OPENABLE_MAX: Final = int(CellState.QUESTIONED)
#: A state no square keeps: a flood that must report what it opened marks those
#: squares with it, and the board turns them into REVEALED once it has
#: collected them. Above every :class:`CellState` so it cannot be mistaken for one.
STATE_OPENING: Final = max(CellState) + 1

GLYPH_HIDDEN: Final = int(Glyph.HIDDEN)
GLYPH_FLAG: Final = int(Glyph.FLAG)
GLYPH_QUESTION: Final = int(Glyph.QUESTION)
GLYPH_MINE: Final = int(Glyph.MINE)
GLYPH_EXPLODED: Final = int(Glyph.EXPLODED)
GLYPH_WRONG_FLAG: Final = int(Glyph.WRONG_FLAG)
#: Glyphs up to this one can be on a board still in play; those above only
#: appear once the game is lost.
GLYPH_PLAYABLE_MAX: Final = int(Glyph.QUESTION)

KNOWN_UNKNOWN: Final = int(Knowledge.UNKNOWN)
KNOWN_OPEN: Final = int(Knowledge.OPEN)
KNOWN_MINE: Final = int(Knowledge.MINE)

#: In the endgame search's tally of what a square can show (``0`` to ``8``),
#: the slot after the numbers counts the layouts where the square is a mine.
OUTCOME_MINE: Final = MAX_NUMBER + 1


# --- the view as text -------------------------------------------------------------

#: The symbol of each glyph that is not a number. Written against the members,
#: not their values, so that renumbering a glyph moves its symbol with it.
_MARK_SYMBOLS: Final = {
    Glyph.HIDDEN: "#",
    Glyph.FLAG: "F",
    Glyph.QUESTION: "?",
    Glyph.MINE: "*",
    Glyph.EXPLODED: "X",
    Glyph.WRONG_FLAG: "!",
}
#: The one alphabet of the player's view as text, indexed by glyph value: ``.``
#: for a revealed blank, the digits, then the other glyphs in the order of
#: their values. :mod:`minesweep.formats` writes and reads views with it, and
#: ``str(board)`` draws a board with it; a screen may draw some glyphs its own
#: way (the terminal game shows a hidden square as ``·``), but a file never does.
#: ``VIEW_SYMBOLS[glyph]`` is the symbol of a glyph; :func:`glyph_of` reads one.
VIEW_SYMBOLS: Final[str] = "".join(
    [".", *(str(number) for number in range(1, MAX_NUMBER + 1))]
    + [_MARK_SYMBOLS[Glyph(value)] for value in range(MAX_NUMBER + 1, max(Glyph) + 1)]
)
#: The glyph of each symbol; ``0`` is read as a blank too (a view written by
#: hand often has one), but never written.
_SYMBOL_GLYPHS: Final[Mapping[str, int]] = MappingProxyType(
    {symbol: glyph for glyph, symbol in enumerate(VIEW_SYMBOLS)} | {"0": 0}
)


def glyph_of(symbol: str) -> int | None:
    """The glyph a view symbol stands for, or None if ``symbol`` is none.

    >>> VIEW_SYMBOLS
    '.12345678#F?*X!'
    >>> glyph_of("F") == Glyph.FLAG, VIEW_SYMBOLS[Glyph.FLAG]
    (True, 'F')
    >>> glyph_of("0"), glyph_of("@")
    (0, None)
    """
    return _SYMBOL_GLYPHS.get(symbol)


# --- a square named for people ----------------------------------------------------


def square_name(row: int, col: int) -> str:
    """The square at 0-based ``(row, col)`` as a sentence names it, counted from 1.

    Every front end (the command line's text, the terminal game, the web page
    and its replay viewer) names a square for a person this one way; programs
    get the 0-based indices themselves.

    >>> square_name(0, 3)
    'row 1, column 4'
    """
    return f"row {row + 1}, column {col + 1}"


def square_tag(row: int, col: int) -> str:
    """:func:`square_name` in a table's few characters: ``r`` row ``c`` column, from 1.

    >>> square_tag(0, 3)
    'r1c4'
    """
    return f"r{row + 1}c{col + 1}"
