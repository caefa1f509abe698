"""What the end of a game shows: a loss's mines and wrong flags, a win's flags (numba)."""

from __future__ import annotations

from .._jit import kernel
from ..squares import (
    GLYPH_EXPLODED,
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_MINE,
    GLYPH_WRONG_FLAG,
    STATE_EXPLODED,
)

__all__ = ["show_loss", "show_win"]


@kernel(cache=True, part="vector", error_model="numpy")
def show_loss(mines, state, view, row, col):  # pragma: no cover - compiled
    """The board after a loss: every hidden mine, every wrong flag, the mine that went off."""
    rows, cols = view.shape
    state[row, col] = STATE_EXPLODED
    for y in range(rows):
        for x in range(cols):
            if mines[y, x]:
                if view[y, x] == GLYPH_HIDDEN:
                    view[y, x] = GLYPH_MINE
            elif view[y, x] == GLYPH_FLAG:
                view[y, x] = GLYPH_WRONG_FLAG
    view[row, col] = GLYPH_EXPLODED


@kernel(cache=True, part="vector", inline="always")
def show_win(mines, view):  # pragma: no cover - compiled
    """The board after a win: every mine shows a flag."""
    rows, cols = view.shape
    for y in range(rows):
        for x in range(cols):
            if mines[y, x]:
                view[y, x] = GLYPH_FLAG
