"""What the end of a game shows: a loss's mines and wrong flags, a win's flags.

The rules are two functions of one square, what it holds and what it showed:
:func:`loss_glyph` and :func:`win_glyph`. The vector engine applies them
square by square, compiled (:func:`show_loss`, :func:`show_win`); the
one-board engine applies the same functions to whole bands of rows through
numpy, as the tables :data:`LOSS_GLYPHS` and :data:`WIN_GLYPHS` made by
calling them on every input (:func:`end_view`): a board of 10^8 squares
shows its rows on screen in time proportional to them, which neither the
interpreter nor loading numba for a plain game would allow.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from .._jit import kernel
from ..squares import (
    GLYPH_EXPLODED,
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_MINE,
    GLYPH_QUESTION,
    GLYPH_WRONG_FLAG,
    STATE_EXPLODED,
    Glyph,
)

__all__ = [
    "LOSS_GLYPHS",
    "WIN_GLYPHS",
    "end_view",
    "loss_glyph",
    "show_loss",
    "show_win",
    "table_index",
    "win_glyph",
]


@kernel(cache=True, part="vector", inline="always")
def loss_glyph(mine, glyph):  # pragma: no cover - compiled
    """What a square shows once the game is lost, given what it showed before.

    A hidden (or question-marked) mine shows as a mine, a flag on a safe
    square as a wrong flag; every other square as before (the mine that
    went off is the caller's to show).
    """
    if mine:
        if glyph in (GLYPH_HIDDEN, GLYPH_QUESTION):
            return GLYPH_MINE
    elif glyph == GLYPH_FLAG:
        return GLYPH_WRONG_FLAG
    return glyph


@kernel(cache=True, part="vector", inline="always")
def win_glyph(mine, glyph):  # pragma: no cover - compiled
    """What a square shows once the game is won: every mine a flag."""
    if mine:
        return GLYPH_FLAG
    return glyph


@kernel(cache=True, part="vector", error_model="numpy")
def show_loss(mines, state, view, row, col):  # pragma: no cover - compiled
    """The board after a loss: every hidden mine, every wrong flag, the mine that went off."""
    rows, cols = view.shape
    state[row, col] = STATE_EXPLODED
    for y in range(rows):
        for x in range(cols):
            view[y, x] = loss_glyph(mines[y, x], view[y, x])
    view[row, col] = GLYPH_EXPLODED


@kernel(cache=True, part="vector", inline="always")
def show_win(mines, view):  # pragma: no cover - compiled
    """The board after a win: every mine shows a flag."""
    rows, cols = view.shape
    for y in range(rows):
        for x in range(cols):
            view[y, x] = win_glyph(mines[y, x], view[y, x])


#: A square's glyph takes the low four bits of a table's index, its mine the next.
_GLYPH_BITS: Final = 4
assert max(Glyph) < 1 << _GLYPH_BITS


def _table(rule: object) -> npt.NDArray[np.uint8]:
    """``rule`` on every input, as a table indexed by ``mine << 4 | glyph``."""
    square = rule.py_func  # type: ignore[attr-defined]  # plain Python: it calls no kernel
    glyphs = range(1 << _GLYPH_BITS)
    table = np.array([square(mine, glyph) for mine in (0, 1) for glyph in glyphs], np.uint8)
    table.flags.writeable = False
    return table


#: :func:`loss_glyph` and :func:`win_glyph` of every square, at ``mine << 4 | glyph``.
LOSS_GLYPHS: Final = _table(loss_glyph)
WIN_GLYPHS: Final = _table(win_glyph)


def end_view(
    glyphs: npt.NDArray[np.uint8], mines: npt.NDArray[np.bool_], *, won: bool
) -> npt.NDArray[np.uint8]:
    """``glyphs`` as the end of a game shows them: won, or else lost (any shape, numpy)."""
    table = WIN_GLYPHS if won else LOSS_GLYPHS
    shown: npt.NDArray[np.uint8] = table.take(table_index(glyphs, mines))
    return shown


def table_index(
    glyphs: npt.NDArray[np.uint8], mines: npt.NDArray[np.bool_]
) -> npt.NDArray[np.uint8]:
    """Where each square's glyph and mine are in :data:`LOSS_GLYPHS` and :data:`WIN_GLYPHS`."""
    index = ((mines.view(np.uint8) << _GLYPH_BITS) | glyphs).astype(np.uint8, copy=False)
    return index
