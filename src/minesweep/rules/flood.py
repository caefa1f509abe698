"""The flood of a reveal on one board of any size: the scanline fill (numba).

Its twin for many small boards, the vector engine's depth-first fill, is
:func:`minesweep.rules.small_flood.open_around`: the same squares open, in
another order. They are two files, not one, because this one is compiled
eagerly, at import, for exactly its signature (a 10^8-square board needs it
compiled from the first click), while the vector kernels are compiled in
the background (:mod:`minesweep._jit`): were they in one file, importing the
vector engine would import numba and compile this flood too, seconds on a
fresh install before its first, interpreted, step.

Importing this module imports numba and loads (or, the first time on a
machine, compiles and caches) the kernel, which is why nothing imports it
until a reveal needs it. numba is used where a loop cannot be vectorised (a
flood follows the board square by square); plain numpy does everything that
vectorises (docs/design.md gives the reasons).

Arrays are C-contiguous ``uint8``: ``numbers`` holds the count of adjacent
mines, ``state`` a :class:`~minesweep.CellState` value (or the flood's
transient :data:`~minesweep.squares.STATE_OPENING` mark). Every kernel has an
explicit signature, so it is compiled once, eagerly, for exactly these types,
and the compiled code is cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from ..squares import STATE_OPENABLE_MAX

__all__ = ["flood"]

# numba cannot read an IntEnum, but it reads a module-level int as a
# compile-time constant: the states a flood opens are those up to this one.
# The kernels are cached on disk keyed on this file, so a renumbering in
# squares.py needs the cache cleared (the flood tests catch a stale one).
_OPENABLE_MAX = STATE_OPENABLE_MAX

_grid = types.uint8[:, ::1]
_readonly_grid = types.Array(types.uint8, 2, "C", readonly=True)
_index_array = types.int64[::1]


@njit(cache=True, nogil=True, error_model="numpy")
def _open_run(state_row, number_row, c, mark):
    """Open the run of hidden blanks through column ``c`` and the cell past each end.

    Returns the run's first and last column and how many cells it opened.
    """
    last = state_row.shape[0] - 1
    first = c
    while first > 0 and state_row[first - 1] <= _OPENABLE_MAX and number_row[first - 1] == 0:
        first -= 1
    stop = c
    while stop < last and state_row[stop + 1] <= _OPENABLE_MAX and number_row[stop + 1] == 0:
        stop += 1
    opened = 0
    for k in range(first - 1 if first > 0 else 0, (stop + 1 if stop < last else last) + 1):
        if state_row[k] <= _OPENABLE_MAX:
            state_row[k] = mark
            opened += 1
    return first, stop, opened


@njit(
    types.UniTuple(types.int64, 5)(_readonly_grid, _grid, _index_array, _index_array, types.uint8),
    cache=True,
    nogil=True,
    # No Python exceptions can arise here (no division, no bounds checks), so
    # numpy's error model drops their handling code: a faster compile.
    error_model="numpy",
)
def flood(numbers, state, seed_rows, seed_cols, mark):
    """Open the blank regions around revealed blank seed cells.

    Each seed is a cell already revealed with no adjacent mine. Every hidden or
    question-marked cell next to a blank is opened, and blanks found that way
    spread further; flagged cells are neither opened nor passed through. Opened
    cells get the state ``mark``: REVEALED, or a temporary marker that lets the
    caller find exactly the cells this flood opened.

    Returns how many cells it opened and the rows and columns of the box
    around them: ``(opened, first row, last row, first col, last col)``.

    The fill works on horizontal runs of blank cells (scanline), not single
    cells: a run is extended left and right in one tight loop, and only the
    rows above and below it are scanned for more, so each cell is looked at
    about three times instead of nine. The stack holds runs, which keeps it
    small: its size follows the number of pending runs, not of cells.
    """
    rows, cols = numbers.shape
    last = cols - 1
    runs = np.empty(3 * max(64, seed_rows.shape[0]), np.int64)  # (row, first, last col)
    pending = 0
    opened = 0
    top, bottom, left, right = rows, -1, cols, -1
    for i in range(seed_rows.shape[0]):
        # A seed opens its own row's run first, as a newly found blank would.
        r = seed_rows[i]
        first, stop, count = _open_run(state[r], numbers[r], seed_cols[i], mark)
        opened += count
        runs[pending] = r
        runs[pending + 1] = first
        runs[pending + 2] = stop
        pending += 3
    while pending:
        pending -= 3
        r = runs[pending]
        lo = max(runs[pending + 1] - 1, 0)
        hi = min(runs[pending + 2] + 1, last)
        # Every cell opened lies within one row and column of a run.
        top = min(top, r - 1)
        bottom = max(bottom, r + 1)
        left = min(left, lo)
        right = max(right, hi)
        for nr in range(r - 1, r + 2, 2):
            if nr < 0 or nr >= rows:
                continue
            state_row = state[nr]
            number_row = numbers[nr]
            c = lo
            while c <= hi:
                if state_row[c] > _OPENABLE_MAX:
                    c += 1
                elif number_row[c] != 0:
                    state_row[c] = mark
                    opened += 1
                    c += 1
                else:
                    # A hidden blank: its run may reach past [lo, hi].
                    first, stop, count = _open_run(state_row, number_row, c, mark)
                    opened += count
                    if pending + 3 > runs.shape[0]:
                        # An explicit loop: a slice assignment here would
                        # make the kernel much slower to compile.
                        bigger = np.empty(2 * runs.shape[0], np.int64)
                        for k in range(pending):
                            bigger[k] = runs[k]
                        runs = bigger
                    runs[pending] = nr
                    runs[pending + 1] = first
                    runs[pending + 2] = stop
                    pending += 3
                    c = stop + 2
    return opened, max(top, 0), min(bottom, rows - 1), left, right
