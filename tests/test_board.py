"""Board: the reveal state over a minefield."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given

from minesweep import (
    Board,
    CellState,
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    Minefield,
    Reveal,
    update_board,
)

from .reference import reference_reveal
from .strategies import boards_and_clicks, positions


def board_from(mines: list[list[bool]], state: list[list[int]]) -> Board:
    return Board(Minefield(mines), state)


# --- The reveal rule, with flags, against the independent reference -----------


@given(positions())
def test_reveal_matches_the_reference_closure(
    case: tuple[list[list[bool]], list[list[int]], tuple[int, int]],
) -> None:
    mines, state, click = case
    board = board_from(mines, state)
    result = board.reveal(*click)
    expected = reference_reveal(mines, state, click)
    assert board.state.tolist() == expected
    opened = sum(
        a != b for x, y in zip(expected, state, strict=True) for a, b in zip(x, y, strict=True)
    )
    assert result.exploded == mines[click[0]][click[1]]
    assert result.opened == (0 if result.exploded else opened)


@given(positions(max_rows=30, max_cols=30))
def test_reported_cells_are_exactly_the_changed_squares(
    case: tuple[list[list[bool]], list[list[int]], tuple[int, int]],
) -> None:
    mines, state, click = case
    board = board_from(mines, state)
    before = board.state.copy()
    result = board.reveal(*click, cells=True)
    assert result.cells is not None
    changed = {(int(r), int(c)) for r, c in np.argwhere(board.state != before)}
    reported = [(int(r), int(c)) for r, c in result.cells]
    assert reported[0] == click
    assert len(reported) == len(set(reported))
    assert set(reported) == changed
    assert board.revealed_count == int(np.count_nonzero(board.state == CellState.REVEALED))


@given(positions(max_rows=30, max_cols=30))
def test_reveal_with_and_without_cells_agree(
    case: tuple[list[list[bool]], list[list[int]], tuple[int, int]],
) -> None:
    mines, state, click = case
    plain, recorded = board_from(mines, state), board_from(mines, state)
    assert plain.reveal(*click) == recorded.reveal(*click, cells=True)
    assert plain == recorded


@given(boards_and_clicks(max_rows=40, max_cols=40, revealed=False))
def test_board_reveal_agrees_with_update_board(
    case: tuple[list[list[str]], tuple[int, int]],
) -> None:
    lc, click = case
    board = Board.from_leetcode(lc)
    board.reveal(*click)
    assert board.to_leetcode() == update_board(copy.deepcopy(lc), click)


# --- Board behaviour -------------------------------------------------------------


def test_reveal_a_number_opens_only_it() -> None:
    board = Board(Minefield.from_text("*..\n...\n"))
    assert board.reveal(0, 1) == Reveal(1, False)
    assert board[0, 1] is CellState.REVEALED
    assert board.revealed_count == 1
    assert board.safe_remaining == 4


def test_flags_stop_the_flood_and_are_not_opened() -> None:
    board = Board(Minefield.from_text("....\n....\n....\n"))
    for r in range(3):
        board.flag(r, 1)
    result = board.reveal(0, 3)
    assert result.opened == 6
    assert str(board) == "#F..\n#F..\n#F.."


#: The symbols str(board) has always drawn for the states that hide a square's
#: number, written out by hand (the CLI's outputs depend on them).
_STR_OF_STATE = {0: "#", 1: "?", 2: "F", 4: "X"}


@given(positions())
def test_str_is_the_players_view_in_the_view_alphabet(
    case: tuple[list[list[bool]], list[list[int]], tuple[int, int]],
) -> None:
    mines, state, click = case
    board = board_from(mines, state)
    board.reveal(*click)  # opens a region, or explodes a mine
    rows, cols = len(mines), len(mines[0])

    def shown(r: int, c: int) -> str:
        square = int(board.state[r, c])
        if square != CellState.REVEALED:
            return _STR_OF_STATE[square]
        count = sum(
            mines[y][x]
            for y in range(max(r - 1, 0), min(r + 2, rows))
            for x in range(max(c - 1, 0), min(c + 2, cols))
        )
        return str(count) if count else "."

    expected = "\n".join("".join(shown(r, c) for c in range(cols)) for r in range(rows))
    assert str(board) == expected


def test_question_marks_are_opened_by_the_flood() -> None:
    board = Board(Minefield.from_text("...\n...\n"))
    board.question(0, 0)
    assert board.reveal(1, 2).opened == 6
    assert board[0, 0] is CellState.REVEALED


def test_revealing_a_mine_explodes_and_ends_the_game() -> None:
    board = Board(Minefield.from_text("*.\n..\n"))
    result = board.reveal(0, 0, cells=True)
    assert result.exploded
    assert result.opened == 0
    assert result.cells is not None
    assert result.cells.tolist() == [[0, 0]]
    assert board.exploded_at == (0, 0)
    assert board[0, 0] is CellState.EXPLODED
    with pytest.raises(GameOverError, match="row 1, column 1 has exploded"):
        board.reveal(1, 1)
    with pytest.raises(GameOverError):
        board.flag(1, 1)


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        (lambda b: b.reveal(0, 2), InvalidClickError, "already revealed"),
        (lambda b: b.reveal(1, 0), InvalidClickError, "flagged; unflag it first"),
        (lambda b: b.reveal(3, 0), InvalidClickError, "row 3 is outside"),
        (lambda b: b.reveal(0, -1), InvalidClickError, "column -1 is outside"),
        (lambda b: b.reveal(0.0, 1), InvalidClickError, "row must be an int"),
        (lambda b: b.flag(0, 2), InvalidClickError, "only hidden ones take marks"),
        (lambda b: b.unflag(0, 2), InvalidClickError, "only hidden ones take marks"),
    ],
)
def test_bad_actions_raise_and_change_nothing(
    action: object, error: type[Exception], message: str
) -> None:
    board = Board(Minefield.from_text(".*.\n*..\n...\n"))
    assert board.reveal(0, 2).opened == 1
    board.flag(1, 0)
    before = board.copy()
    with pytest.raises(error, match=message):
        action(board)  # type: ignore[operator]
    assert board == before
    assert board.revealed_count == before.revealed_count


def test_copy_is_independent() -> None:
    board = Board(Minefield.from_text("...\n"))
    other = board.copy()
    other.reveal(0, 0)
    assert board.revealed_count == 0
    assert board != other


def test_from_leetcode_reads_flags_and_state() -> None:
    board = Board.from_leetcode([list("B1m"), list("B1E"), list("eEE")])
    assert board[0, 2] is CellState.FLAGGED
    assert board[2, 0] is CellState.FLAGGED
    assert board[0, 0] is CellState.REVEALED
    assert board.field.mine_count == 1
    assert board.to_leetcode() == [list("B1m"), list("B1E"), list("eEE")]


@given(positions(max_rows=15, max_cols=15))
def test_leetcode_export_round_trips(
    case: tuple[list[list[bool]], list[list[int]], tuple[int, int]],
) -> None:
    mines, state, click = case
    board = board_from(mines, state)
    board.reveal(*click)
    # A question mark is not kept by the LeetCode notation.
    without_questions = np.where(board.state == CellState.QUESTIONED, 0, board.state)
    assert Board.from_leetcode(board.to_leetcode()) == Board(board.field, without_questions)


def test_from_leetcode_leaves_its_input_alone_on_error() -> None:
    board = [list("mE"), list("Eq")]
    before = copy.deepcopy(board)
    with pytest.raises(InvalidBoardError, match="row 2, column 2 is 'q'"):
        Board.from_leetcode(board)
    assert board == before


def test_from_leetcode_rejects_numbers_that_disagree_with_the_mines() -> None:
    with pytest.raises(InvalidBoardError, match="row 1, column 1 shows '2' but has 1 adjacent"):
        Board.from_leetcode([list("2M")])


@pytest.mark.parametrize(
    ("state", "message"),
    [
        ([[3, 0]], "row 1, column 1 is a mine but revealed"),
        ([[0, 4]], "row 1, column 2 is exploded but holds no mine"),
        ([[0, 9]], "state of row 1, column 2 is 9"),
        ([[0]], "state has shape (1, 1); the field is (1, 2)"),
        ([["a", "b"]], "dtype <U1"),
    ],
)
def test_bad_states_are_rejected(state: object, message: str) -> None:
    with pytest.raises(InvalidBoardError) as raised:
        Board(Minefield([[1, 0]]), state)  # type: ignore[arg-type]
    assert message in str(raised.value)


def test_repr_and_memory() -> None:
    board = Board(Minefield.from_text("*...\n....\n"))
    board.reveal(1, 3)
    assert repr(board) == "<Board 2x4, 1 mines, 6 revealed>"
    assert board.nbytes == 3 * 8


@pytest.mark.slow
def test_ten_million_square_opening() -> None:
    mines = np.zeros((2500, 4000), bool)
    mines[1234, 2345] = True
    board = Board(Minefield(mines))
    result = board.reveal(0, 0)
    assert result.opened == mines.size - 1
    assert board.safe_remaining == 0
    assert board.nbytes <= 3 * mines.size


# --- restore: what undo needs ------------------------------------------------------


def test_restore_puts_squares_back_and_recounts() -> None:
    board = Board(Minefield.from_text("*...\n....\n"))
    before = board.state.copy()
    result = board.reveal(1, 3, cells=True)
    assert result.cells is not None
    squares = result.cells[:, 0] * 4 + result.cells[:, 1]
    board.restore(squares, before.reshape(-1)[squares])
    assert board == Board(board.field)
    assert board.revealed_count == 0
    assert board.safe_remaining == 7


def test_restore_takes_back_an_explosion() -> None:
    board = Board(Minefield.from_text("*.\n..\n"))
    board.reveal(0, 0)
    assert board.exploded_at == (0, 0)
    board.restore([0], [CellState.HIDDEN])
    assert board.exploded_at is None
    assert board.reveal(1, 1).opened == 1


@pytest.mark.parametrize(
    ("squares", "states", "message"),
    [
        ([0], [CellState.REVEALED], "row 1, column 1 is a mine; it cannot be revealed"),
        ([1], [CellState.EXPLODED], "row 1, column 2 holds no mine; it cannot explode"),
        ([1], [7], "row 1, column 2 is not a CellState"),
        ([1, 1], [0, 3], "must be distinct"),
        ([4], [0], "restore squares go from 0 to 3"),
        ([1], [0, 0], "one state a square"),
        ([1], [0.5], "must be CellState values"),
    ],
)
def test_restore_refuses_states_the_field_cannot_have(
    squares: list[int], states: list[object], message: str
) -> None:
    board = Board(Minefield.from_text("*.\n.*\n"))
    board.reveal(0, 1)
    before = board.state.copy()
    with pytest.raises(InvalidBoardError, match=message):
        board.restore(squares, states)  # type: ignore[arg-type]
    assert np.array_equal(board.state, before)
    assert board.revealed_count == 1


def test_restore_refuses_a_second_explosion() -> None:
    board = Board(Minefield.from_text("*.\n.*\n"))
    board.reveal(0, 0)
    with pytest.raises(InvalidBoardError, match="more than one square would be exploded"):
        board.restore([3], [CellState.EXPLODED])
    assert board.exploded_at == (0, 0)
    assert board[1, 1] is CellState.HIDDEN


def test_cell_state_is_the_vocabulary_s() -> None:
    from minesweep import board, squares

    assert board.CellState is squares.CellState
