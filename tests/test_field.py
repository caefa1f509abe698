"""Minefield: the immutable mine layout and its adjacent-mine counts."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minesweep import InvalidBoardError, InvalidClickError, Minefield, ParseError
from minesweep.field import adjacent_counts

from .strategies import boards

masks = hnp.arrays(np.bool_, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=20))


def count_by_definition(mask: np.ndarray, row: int, col: int) -> int:
    rows, cols = mask.shape
    return sum(
        bool(mask[r, c])
        for r in range(max(0, row - 1), min(rows, row + 2))
        for c in range(max(0, col - 1), min(cols, col + 2))
        if (r, c) != (row, col)
    )


@given(masks)
def test_numbers_count_the_eight_neighbours(mask: np.ndarray) -> None:
    field = Minefield(mask)
    expected = [
        [count_by_definition(mask, r, c) for c in range(mask.shape[1])]
        for r in range(mask.shape[0])
    ]
    assert field.numbers.tolist() == expected
    assert field.mine_count == int(mask.sum())


def test_all_mines_count_eight_in_the_middle() -> None:
    assert adjacent_counts(np.ones((3, 3), bool))[1, 1] == 8


@given(masks)
def test_text_round_trips(mask: np.ndarray) -> None:
    field = Minefield(mask)
    assert Minefield.from_text(field.to_text()) == field


@given(masks)
def test_leetcode_round_trips(mask: np.ndarray) -> None:
    field = Minefield(mask)
    board = field.to_leetcode()
    assert {symbol for row in board for symbol in row} <= {"M", "E"}
    assert Minefield.from_leetcode(board) == field


@given(boards())
def test_from_leetcode_takes_m_as_the_mines(board: list[list[str]]) -> None:
    field = Minefield.from_leetcode(board)
    assert field.mines.tolist() == [[symbol == "M" for symbol in row] for row in board]


def test_from_leetcode_counts_an_exploded_mine_as_a_mine() -> None:
    assert Minefield.from_leetcode([["X", "E", "M"]]).mines.tolist() == [[True, False, True]]


def test_small_repr_is_a_constructor_call() -> None:
    field = Minefield([[1, 0], [0, 0]])
    assert repr(field) == "Minefield.from_text('*.\\n..\\n')"
    assert eval(repr(field), {"Minefield": Minefield}) == field


def test_large_repr_is_a_summary() -> None:
    assert repr(Minefield(np.zeros((30, 30), bool))) == "<Minefield 30x30, 0 mines>"


def test_equal_fields_hash_equal_and_differ_from_others() -> None:
    a = Minefield([[1, 0, 0]])
    b = Minefield(np.array([[True, False, False]]))
    assert a == b
    assert hash(a) == hash(b)
    assert a != Minefield([[0, 1, 0]])
    assert a != Minefield([[1], [0], [0]])
    assert a != "*.."


def test_field_is_immutable_and_owns_its_mask() -> None:
    mask = np.zeros((2, 2), bool)
    field = Minefield(mask)
    mask[0, 0] = True
    assert field.mine_count == 0
    assert not field.mines[0, 0]
    with pytest.raises(ValueError, match="read-only"):
        field.mines[0, 0] = True
    with pytest.raises(ValueError, match="read-only"):
        field.numbers[0, 0] = 3


def test_numbers_are_counted_once_when_first_read() -> None:
    field = Minefield.from_text("*..\n...\n")
    copy = pickle.loads(pickle.dumps(field))  # pickled before they were counted
    assert field.numbers is field.numbers
    assert copy == field
    assert copy.numbers.tolist() == field.numbers.tolist() == [[0, 1, 0], [1, 1, 0]]
    assert not copy.numbers.flags.writeable


def test_accessors() -> None:
    field = Minefield.from_text("*..\n...\n")
    assert (field.shape, field.rows, field.cols, field.size) == ((2, 3), 2, 3, 6)
    assert field.is_mine(0, 0)
    assert not field.is_mine(1, 2)
    assert field.adjacent_mines(1, 1) == 1
    assert field.nbytes == 12
    assert str(field) == "*..\n...\n"


@pytest.mark.parametrize(
    ("mask", "message"),
    [
        ([True, False], "must be 2-D, got shape (2,)"),
        ([[[True]]], "must be 2-D, got shape (1, 1, 1)"),
        ([[]], "empty, shape (1, 0)"),
        ([], "must be 2-D"),
        ([[True], [True, False]], "rectangular"),
        ([[0, 2]], "square row 1, column 2 is 2; expected 0 or 1"),
        ([[0, -1]], "square row 1, column 2 is -1"),
        ([[0.0, 1.0]], "dtype float64"),
        ([["*", "."]], "dtype <U1"),
        ([[None, True]], "dtype object"),
    ],
)
def test_bad_masks_are_rejected(mask: object, message: str) -> None:
    with pytest.raises(InvalidBoardError) as raised:
        Minefield(mask)  # type: ignore[arg-type]
    assert message in str(raised.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("..\n.\n", "row 2 has 1 square; expected 2 like row 1"),
        (".x.\n", "square row 1, column 2 is 'x'"),
    ],
)
def test_bad_text_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError) as raised:
        Minefield.from_text(text)
    assert message in str(raised.value)


def test_text_ignores_spaces_and_blank_lines() -> None:
    assert Minefield.from_text("\n * . \n\n . .\n") == Minefield([[1, 0], [0, 0]])


def test_from_leetcode_rejects_what_update_board_rejects() -> None:
    with pytest.raises(InvalidBoardError, match="row 1, column 2 is 'q'"):
        Minefield.from_leetcode([["E", "q"]])


@pytest.mark.parametrize(
    ("row", "col", "message"),
    [(2, 0, "row 2 is outside"), (0, -1, "column -1 is outside"), (True, 0, "row must be an int")],
)
def test_queries_off_the_field_are_rejected(row: object, col: object, message: str) -> None:
    field = Minefield([[0, 0], [0, 0]])
    with pytest.raises(InvalidClickError, match=message):
        field.is_mine(row, col)  # type: ignore[arg-type]


@given(st.integers(1, 6), st.integers(1, 6))
def test_numpy_integer_indices_are_accepted(rows: int, cols: int) -> None:
    field = Minefield(np.ones((rows, cols), bool))
    assert field.is_mine(np.int64(rows - 1), np.int32(cols - 1))  # type: ignore[arg-type]
