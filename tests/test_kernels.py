"""The compiled flood kernel, on its own arrays."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minesweep import squares
from minesweep.grid import adjacent_counts
from minesweep.rules import flood as kernels
from minesweep.squares import CellState

#: The states a square may be in before a flood: it opens the first two only.
MARKS = [CellState.HIDDEN, CellState.QUESTIONED, CellState.FLAGGED]


def reference_flood(
    numbers: np.ndarray, state: np.ndarray, seeds: list[tuple[int, int]]
) -> set[tuple[int, int]]:
    """The squares a flood opens, from the rules, square by square.

    A revealed blank opens each hidden or question-marked neighbour; a blank
    opened that way does the same in turn. A flagged square is never opened,
    so a flood does not pass through it.
    """
    rows, cols = numbers.shape
    opened: set[tuple[int, int]] = set()
    pending = list(seeds)
    while pending:
        r, c = pending.pop()
        for nr in range(max(r - 1, 0), min(r + 2, rows)):
            for nc in range(max(c - 1, 0), min(c + 2, cols)):
                openable = state[nr, nc] in (CellState.HIDDEN, CellState.QUESTIONED)
                if openable and (nr, nc) not in opened:
                    opened.add((nr, nc))
                    if numbers[nr, nc] == 0:
                        pending.append((nr, nc))
    return opened


@st.composite
def flood_cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int]]]:
    """Mines, squares hidden, question-marked or flagged, and revealed blank seeds."""
    rows, cols = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    # About one square in four a mine, so that floods have room.
    mine = st.sampled_from([False, False, False, True])
    mines = draw(hnp.arrays(np.bool_, (rows, cols), elements=mine))
    square = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    seeds = draw(st.lists(square, min_size=1, max_size=3, unique=True))
    for r, c in seeds:
        mines[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2] = False  # a seed is a blank
    marks = st.sampled_from([int(mark) for mark in MARKS])
    state = draw(hnp.arrays(np.uint8, (rows, cols), elements=marks))
    for r, c in seeds:
        state[r, c] = CellState.REVEALED
    return mines, state, seeds


def test_flood_opens_hidden_and_questioned_squares_and_stops_at_flags() -> None:
    # No mines: every square is a blank. R is the revealed seed, H hidden,
    # Q question-marked, F flagged, O opened by the flood.
    letters = {
        "H": CellState.HIDDEN,
        "Q": CellState.QUESTIONED,
        "F": CellState.FLAGGED,
        "R": CellState.REVEALED,
        "O": squares.STATE_OPENING,
    }
    before = ["RHQFH", "HQHFQ", "FFFFH", "HQHHH"]
    after = ["ROOFH", "OOOFQ", "FFFFH", "HQHHH"]
    state = np.array([[letters[s] for s in row] for row in before], np.uint8)
    numbers = np.zeros(state.shape, np.uint8)
    numbers.flags.writeable = False
    want = {(r, c) for r, row in enumerate(after) for c, s in enumerate(row) if s == "O"}
    assert reference_flood(numbers, state.copy(), [(0, 0)]) == want
    seed = np.array([0], np.int64)
    opened, *_ = kernels.flood(numbers, state, seed, seed, squares.STATE_OPENING)
    names = {int(code): letter for letter, code in letters.items()}
    assert ["".join(names[s] for s in row) for row in state.tolist()] == after
    assert opened == len(want) == 5


@given(flood_cases())
def test_flood_opens_what_the_rules_open(
    case: tuple[np.ndarray, np.ndarray, list[tuple[int, int]]],
) -> None:
    mines, state, seeds = case
    numbers = adjacent_counts(mines)
    numbers.flags.writeable = False
    before = state.copy()
    want = reference_flood(numbers, before, seeds)
    rows, cols = (np.array(axis, np.int64) for axis in zip(*seeds, strict=True))
    opened, top, bottom, left, right = kernels.flood(
        numbers, state, rows, cols, squares.STATE_OPENING
    )
    marked = state == squares.STATE_OPENING
    assert {(r, c) for r, c in np.argwhere(marked).tolist()} == want
    assert opened == len(want)
    # Every other square keeps its state: flags, question marks left alone, seeds.
    assert np.array_equal(state[~marked], before[~marked])
    assert not (marked & mines).any()
    assert all(top <= r <= bottom and left <= c <= right for r, c in want)


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
