"""The flood of a reveal on small boards, one board of many at a time (numba).

The vector engine's fill: depth first, over a stack the caller keeps for a
whole step, writing the view as it goes. Its twin for one board of any size
is :func:`minesweep.rules.flood.flood` (why two files: see there). Both open
the same squares: the blank's region and its border, flags left shut.
"""

from __future__ import annotations

from .._jit import kernel
from ..squares import STATE_HIDDEN, STATE_REVEALED

__all__ = ["open_around", "open_square"]


@kernel(cache=True, part="vector", error_model="numpy")
def open_around(numbers, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """Open everything the blank at ``row, col`` opens; how many squares.

    The engine's scanline :func:`minesweep.rules.flood.flood` allocates its run
    stack per call and writes states only; on boards this small a plain
    depth-first fill over a stack kept for the whole step, writing the view as
    it goes, took a fifth of its time (251 ns against 1,280 for a 45-square
    beginner opening). Which squares open is the rule's, not
    the order's: the blank's region and its border, flags left shut, as the
    engine's flood leaves them.
    """
    rows, cols = numbers.shape
    stack[0] = row * cols + col
    pending = 1
    opened = 0
    while pending:
        pending -= 1
        square = stack[pending]
        y0 = row_of[square]
        x0 = square - y0 * cols
        for y in range(max(y0 - 1, 0), min(y0 + 2, rows)):
            for x in range(max(x0 - 1, 0), min(x0 + 2, cols)):
                if state[y, x] == STATE_HIDDEN:
                    state[y, x] = STATE_REVEALED
                    view[y, x] = numbers[y, x]
                    opened += 1
                    if numbers[y, x] == 0:
                        stack[pending] = y * cols + x
                        pending += 1
    return opened


@kernel(cache=True, part="vector", error_model="numpy")
def open_square(numbers, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """Reveal a safe hidden square (and what a blank opens); how many squares opened."""
    state[row, col] = STATE_REVEALED
    view[row, col] = numbers[row, col]
    if numbers[row, col] == 0:
        return 1 + open_around(numbers, state, view, row, col, stack, row_of)
    return 1
