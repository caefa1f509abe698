"""A chord: when it is ready, and which squares it opens, in which order (numba).

A number with as many flags around it as it says, and a hidden square beside
it, is ready (:func:`chord_targets`, a rule of the view, which also names
those hidden squares: the replay machine opens them); a ready chord opens
its safe hidden neighbours first, row by row, then the first mine among them,
row by row, goes off, so that a loss never passes for a win
(:func:`chord_order`, on the squares' states and the mines). The vector
engine inlines both (:func:`open_chord`); the one-board engine asks them as
plain Python (:func:`minesweep.moves.chord_targets`: nine squares, not worth
loading numba) and opens what they name with its own flood. Question marks,
which only the one-board engine has, count as hidden.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..squares import (
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_QUESTION,
    MAX_NUMBER,
    STATE_HIDDEN,
    STATE_OPENABLE_MAX,
)
from .ends import show_loss
from .small_flood import open_square

__all__ = ["chord_order", "chord_targets", "open_chord"]


@kernel(cache=True, part="vector", inline="always")
def chord_order(mines, state, row, col, order):  # pragma: no cover - compiled
    """The squares a ready chord at ``row, col`` opens, in order, as flat indices in ``order``.

    Its safe neighbours a reveal opens (hidden or question-marked), row by
    row, then the first such mine, row by row, which goes off: ``order``
    (nine long) holds them, and the result is how many are safe and whether
    a mine follows them. A safe square an earlier one's flood opened is
    still named: the caller skips it.
    """
    rows, cols = state.shape
    safe = 0
    mine = -1
    for y in range(max(row - 1, 0), min(row + 2, rows)):
        for x in range(max(col - 1, 0), min(col + 2, cols)):
            if state[y, x] <= STATE_OPENABLE_MAX:
                if not mines[y, x]:
                    order[safe] = y * cols + x
                    safe += 1
                elif mine < 0:
                    mine = y * cols + x
    if mine < 0:
        return safe, False
    order[safe] = mine
    return safe, True


@kernel(cache=True, part="vector", inline="always")
def open_chord(numbers, mines, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """A ready chord, by :func:`chord_order`: how many squares opened, whether a mine went off."""
    cols = state.shape[1]
    order = np.empty(9, np.int64)
    safe, exploded = chord_order(mines, state, row, col, order)
    spread = 0
    for k in range(safe):
        square = order[k]
        y = row_of[square]
        x = square - y * cols
        if state[y, x] == STATE_HIDDEN:  # not opened by an earlier square's flood
            spread += open_square(numbers, state, view, y, x, stack, row_of)
    if exploded:
        square = order[safe]
        y = row_of[square]
        show_loss(mines, state, view, y, square - y * cols)
    return spread, exploded


@kernel(cache=True, part="vector", inline="always")
def chord_targets(view, row, col, lowest, question_marks, targets):  # pragma: no cover - compiled
    """A ready chord's hidden neighbours, row by row, as flat squares into ``targets``; how many.

    The one rule of a chord's readiness: a number from ``lowest`` up with as
    many flags around it as it says, and a hidden square beside it (0 when
    it is not ready, so that the count is also the test). ``lowest`` is 1 in
    the project's engines; the replay machine passes 0, as ms-toollib chords
    an open 0 too (a flag beside a 0 stays shut when it floods; taken off, a
    chord on the 0 opens the square). With ``question_marks`` (the one-board
    engine's), a question-marked square counts as hidden. ``targets`` holds
    nine; a caller that asks only whether the chord is ready passes one
    buffer for all its calls.
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
            elif glyph == GLYPH_HIDDEN or (question_marks and glyph == GLYPH_QUESTION):
                targets[count] = y * cols + x
                count += 1
    return count if flags == number else 0
