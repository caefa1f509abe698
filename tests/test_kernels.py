"""The compiled flood kernel, on its own arrays."""

from __future__ import annotations

import numpy as np

from minesweep import _kernels as kernels
from minesweep import squares
from minesweep.grid import adjacent_counts


def test_the_kernels_open_the_states_the_vocabulary_says() -> None:
    assert kernels._OPENABLE_MAX == squares.STATE_OPENABLE_MAX


def test_flood_opens_the_region_marks_it_and_reports_its_box() -> None:
    mines = np.zeros((4, 6), bool)
    mines[:, 3] = True  # a wall: the flood stays on the left
    numbers = adjacent_counts(mines)
    numbers.flags.writeable = False
    state = np.zeros(mines.shape, np.uint8)
    state[0, 0] = squares.STATE_REVEALED
    state[3, 0] = squares.STATE_FLAGGED  # floods stop at flags
    opened, top, bottom, left, right = kernels.flood(
        numbers,
        state,
        np.array([0], np.int64),
        np.array([0], np.int64),
        squares.STATE_OPENING,
    )
    marked = state == squares.STATE_OPENING
    assert opened == int(np.count_nonzero(marked)) == 10
    assert (top, bottom, left, right) == (0, 3, 0, 2)
    assert not marked[:, 3:].any()
    assert state[3, 0] == squares.STATE_FLAGGED
