"""Positions and neighbourhoods: the one implementation every module uses."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep import InvalidClickError, field
from minesweep.grid import (
    NEIGHBOUR_OFFSETS,
    adjacent_counts,
    check_position,
    neighbours,
    position_pair,
)


def test_offsets_are_the_eight_steps_row_by_row() -> None:
    assert NEIGHBOUR_OFFSETS == (
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    )


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_neighbours_are_the_squares_one_step_away(
    rows: int, cols: int, data: st.DataObject
) -> None:
    row = data.draw(st.integers(0, rows - 1))
    col = data.draw(st.integers(0, cols - 1))
    expected = [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if (r, c) != (row, col) and abs(r - row) <= 1 and abs(c - col) <= 1
    ]
    assert list(neighbours((rows, cols), row, col)) == expected


@given(st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=1, max_size=5))
def test_adjacent_counts_count_the_neighbouring_mines(mask: list[list[bool]]) -> None:
    mines = np.array(mask, bool)
    counts = adjacent_counts(mines)
    assert counts.dtype == np.uint8
    for row, col in np.ndindex(mines.shape):
        around = sum(bool(mines[r, c]) for r, c in neighbours(mines.shape, row, col))
        assert counts[row, col] == around


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ((3, 0), "row 3 is outside the board; expected 0 to 2"),
        ((0, -1), "column -1 is outside the board; expected 0 to 3"),
        ((True, 0), "row must be an int, got True (bool)"),
        ((0, 1.0), "column must be an int, got 1.0 (float)"),
    ],
)
def test_check_position_says_what_is_wrong(position: tuple[object, object], message: str) -> None:
    with pytest.raises(InvalidClickError) as raised:
        check_position((3, 4), *position)
    assert str(raised.value) == message


def test_a_position_is_a_pair() -> None:
    assert position_pair([2, 3]) == (2, 3)
    with pytest.raises(InvalidClickError, match=r"a square is \(row, col\), got 5"):
        position_pair(5)
    check_position((3, 4), np.int64(2), 3)  # numpy integers are positions too


def test_field_still_offers_the_grid_helpers() -> None:
    assert field.check_position is check_position
    assert field.position_pair is position_pair
    assert field.adjacent_counts is adjacent_counts
