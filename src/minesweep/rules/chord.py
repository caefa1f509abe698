"""A chord: when it is ready, and what it opens (numba).

A number with as many flags around it as it says, and a hidden square beside
it, is ready; a ready chord opens its safe hidden neighbours first, then the
first mine among them, row by row, goes off (a loss never mistaken for a win).
"""

from __future__ import annotations

from .._jit import kernel
from ..squares import GLYPH_FLAG, GLYPH_HIDDEN, MAX_NUMBER, STATE_HIDDEN
from .ends import show_loss
from .small_flood import open_square

__all__ = ["chord_ready", "chord_targets", "open_chord"]


@kernel(cache=True, part="vector", inline="always")
def chord_ready(view, row, col):  # pragma: no cover - compiled
    """A number with as many flags around it as it says, and a hidden square beside it."""
    rows, cols = view.shape
    number = view[row, col]
    if number < 1 or number > MAX_NUMBER:
        return False
    flags = 0
    hidden = 0
    for y in range(max(row - 1, 0), min(row + 2, rows)):
        for x in range(max(col - 1, 0), min(col + 2, cols)):
            flags += view[y, x] == GLYPH_FLAG
            hidden += view[y, x] == GLYPH_HIDDEN
    return flags == number and hidden > 0


@kernel(cache=True, part="vector", inline="always")
def open_chord(numbers, mines, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """A ready chord: its safe squares open first, then the first mine among them (row by row).

    Returns how many squares opened and whether a mine went off.
    """
    rows, cols = view.shape
    spread = 0
    exploded = False
    top, bottom = max(row - 1, 0), min(row + 1, rows - 1)
    left, right = max(col - 1, 0), min(col + 1, cols - 1)
    for y in range(top, bottom + 1):
        for x in range(left, right + 1):
            if state[y, x] == STATE_HIDDEN and not mines[y, x]:
                spread += open_square(numbers, state, view, y, x, stack, row_of)
    for y in range(top, bottom + 1):
        for x in range(left, right + 1):
            if not exploded and state[y, x] == STATE_HIDDEN and mines[y, x]:
                show_loss(mines, state, view, y, x)
                exploded = True
    return spread, exploded


@kernel(cache=True, part="vector", inline="always")
def chord_targets(view, row, col, lowest, targets):  # pragma: no cover - compiled
    """A ready chord's hidden neighbours, row by row, as flat squares into ``targets``; how many.

    0 when it is not ready: as :func:`chord_ready`, a number from ``lowest``
    up with as many flags around it as it says. ``lowest`` is 1 in the
    project's engines; the replay machine passes 0, as ms-toollib chords an
    open 0 too (a flag beside a 0 stays shut when it floods; taken off, a
    chord on the 0 opens the square).
    """
    rows, cols = view.shape
    number = view[row, col]
    if number < lowest or number > MAX_NUMBER:
        return 0
    flags = 0
    count = 0
    for y in range(max(row - 1, 0), min(row + 2, rows)):
        for x in range(max(col - 1, 0), min(col + 2, cols)):
            glyph = view[y, x]
            if glyph == GLYPH_FLAG:
                flags += 1
            elif glyph == GLYPH_HIDDEN:
                targets[count] = y * cols + x
                count += 1
    return count if flags == number else 0
