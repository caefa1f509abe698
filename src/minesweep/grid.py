"""Squares of a rectangular board: positions and their 3x3 neighbourhoods.

One implementation of each: checking a square's position, reading a pair,
walking the up to eight neighbours of a square, and counting the mines around
every square of a mask at once. Everything above the
vocabulary uses these instead of writing its own loops over offsets.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import numpy as np

from .errors import InvalidClickError

# The count is a rule of its own (minesweep.rules.counts); the grid names it for its callers.
from .rules.counts import adjacent_counts

__all__ = [
    "NEIGHBOUR_OFFSETS",
    "adjacent_counts",
    "check_position",
    "middle",
    "neighbours",
    "position_pair",
]

#: The eight (row, column) steps from a square to its neighbours, row by row.
NEIGHBOUR_OFFSETS: Final = tuple(
    (d_row, d_col) for d_row in (-1, 0, 1) for d_col in (-1, 0, 1) if (d_row, d_col) != (0, 0)
)


def position_pair(position: object) -> tuple[int, int]:
    """``position`` as ``(row, col)``; InvalidClickError unless it is a pair."""
    if not isinstance(position, (tuple, list)) or len(position) != 2:
        raise InvalidClickError(f"a square is (row, col), got {position!r}")
    return position[0], position[1]


def check_position(shape: tuple[int, int], row: object, col: object) -> None:
    """Raise InvalidClickError unless ``(row, col)`` is a square of a board of ``shape``."""
    for axis, value, size in (("row", row, shape[0]), ("column", col, shape[1])):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise InvalidClickError(
                f"{axis} must be an int, got {value!r} ({type(value).__name__})"
            )
        if not 0 <= value < size:
            raise InvalidClickError(
                f"{axis} {value} is outside the board; expected 0 to {size - 1}"
            )


def middle(shape: tuple[int, int]) -> tuple[int, int]:
    """The middle square of a board of ``shape`` (up and left of the centre when even).

    Where a first click goes by default, and where the first-click hint points.

    >>> middle((16, 30))
    (8, 15)
    """
    return shape[0] // 2, shape[1] // 2


def neighbours(shape: tuple[int, int], row: int, col: int) -> Iterator[tuple[int, int]]:
    """The squares next to ``(row, col)`` on a board of ``shape``, row by row.

    >>> list(neighbours((2, 3), 0, 0))
    [(0, 1), (1, 0), (1, 1)]
    """
    rows, cols = shape
    for d_row, d_col in NEIGHBOUR_OFFSETS:
        r, c = row + d_row, col + d_col
        if 0 <= r < rows and 0 <= c < cols:
            yield r, c
