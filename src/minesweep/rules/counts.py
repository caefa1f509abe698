"""Adjacent-mine counts: of a whole board at once (numpy), and around one new mine (numba).

:func:`adjacent_counts` counts a whole field in five array operations
(:class:`~minesweep.field.Minefield`); :func:`count_around` adds one mine to
the counts around it, as the vector engine lays a field mine by mine
(:func:`minesweep.rules.lay.lay_field`). A mine's own count is never read.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._jit import kernel

__all__ = ["adjacent_counts", "count_around"]


def adjacent_counts(mines: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    """For every square, how many of its eight neighbours are mines.

    Five whole-array operations on bytes, separable as a box blur is: sum each
    row's three-square windows, then sum those over three rows, then take the
    square itself away. numpy runs each at memory speed, so no compiled kernel
    is needed; peak memory is one temporary byte a square besides the result.

    >>> adjacent_counts(np.array([[True, False, False]])).tolist()
    [[0, 1, 0]]
    """
    cells = mines.view(np.uint8)
    across = cells.copy()
    across[:, 1:] += cells[:, :-1]
    across[:, :-1] += cells[:, 1:]
    counts = across.copy()
    counts[1:] += across[:-1]
    counts[:-1] += across[1:]
    del across
    counts -= cells
    return counts


@kernel(cache=True, part="vector", inline="always")
def count_around(numbers, row, col):  # pragma: no cover - compiled
    """One more mine at ``row, col``: every square of its 3x3 box counts it (itself too)."""
    rows, cols = numbers.shape
    for y in range(max(row - 1, 0), min(row + 2, rows)):
        for x in range(max(col - 1, 0), min(col + 2, cols)):
            numbers[y, x] += 1
