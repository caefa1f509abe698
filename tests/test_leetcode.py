"""update_board: the LeetCode 529 contract."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import (
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    MinesweepError,
    update_board,
)
from minesweep.leetcode import ARRAYS_AT_ONCE, HANDOVER, PYTHON_ONLY, Handover

from .reference import adjacent_mines, neighbours, reference_update
from .strategies import boards_and_clicks


def grid(*rows: str) -> list[list[str]]:
    return [list(row) for row in rows]


def after(board: list[list[str]], click: tuple[int, int], *, check: bool = True) -> list[str]:
    """The board after the click, as strings of rows, for readable assertions."""
    return ["".join(row) for row in update_board(board, click, check=check)]


# --- The examples of the problem statement -----------------------------------


def test_example_1_click_on_a_blank_opens_the_region() -> None:
    board = grid("EEEEE", "EEMEE", "EEEEE", "EEEEE")
    assert after(board, (3, 0)) == ["B1E1B", "B1M1B", "B111B", "BBBBB"]


def test_example_2_click_on_a_mine_explodes_it_and_nothing_else() -> None:
    board = grid("B1E1B", "B1M1B", "B111B", "BBBBB")
    assert after(board, (1, 2)) == ["B1E1B", "B1X1B", "B111B", "BBBBB"]


def test_update_board_returns_the_same_list_it_was_given() -> None:
    board = grid("EEE", "EME")
    rows = list(board)
    result = update_board(board, [0, 0])
    assert result is board
    assert all(a is b for a, b in zip(result, rows, strict=True))


def test_click_may_be_a_list_or_a_tuple() -> None:
    assert update_board(grid("EM"), [0, 0]) == update_board(grid("EM"), (0, 0)) == [["1", "M"]]


# --- The walk-throughs of the seeds ------------------------------------------


def test_walkthrough_3x3_numbers_wall_off_the_mine_column() -> None:
    # The DFS walk-through: (0, 0) opens the left column, the middle column
    # becomes a wall of 1s, and (0, 2) and (2, 2) stay hidden behind it.
    board = grid("EEE", "EEM", "EEE")
    assert after(board, (0, 0)) == ["B1E", "B1M", "B1E"]


def test_walkthrough_3x4_opens_six_squares() -> None:
    # The animated walk-through: one mine at (1, 2), click the top-left corner.
    board = grid("EEEE", "EEME", "EEEE")
    result = after(board, (0, 0))
    assert result == ["B1EE", "B1ME", "B1EE"]
    assert sum(symbol not in "EM" for row in result for symbol in row) == 6


def test_walkthrough_rule_one_click_on_the_mine_of_the_3x4_board() -> None:
    board = grid("EEEE", "EEME", "EEEE")
    assert after(board, (1, 2)) == ["EEEE", "EEXE", "EEEE"]


# --- The classic mistakes listed in the seeds, each pinned by a test ----------


def test_mistake_a_number_does_not_keep_spreading() -> None:
    # Forgetting to stop after writing a number would dig (0, 2) open.
    assert after(grid("EEE", "EEM", "EEE"), (0, 0))[0] == "B1E"


def test_mistake_marking_after_recursing_would_never_end() -> None:
    # Two blank squares that reveal each other must not loop.
    assert after(grid("EE", "EE"), (0, 0)) == ["BB", "BB"]


def test_mistake_counting_four_directions_misses_diagonal_mines() -> None:
    assert after(grid("EEE", "EME", "EEE"), (0, 0))[0][0] == "1"


def test_mistake_negative_index_would_wrap_to_the_far_edge() -> None:
    # In Python board[r][-1] is the last column: a mine there must not count
    # for column 0, and row -1 must not be read as the last row.
    assert after(grid("EEM"), (0, 0)) == ["B1M"]
    assert after(grid("E", "E", "M"), (0, 0)) == ["B", "1", "M"]


def test_mistake_clicking_a_mine_must_not_go_on_to_reveal() -> None:
    board = grid("B1E1B", "B1M1B")
    assert after(board, (1, 2)) == ["B1E1B", "B1X1B"]


def test_mistake_stopping_only_at_b_would_dig_up_mines() -> None:
    # The flood must stop at anything that is not E, mines included.
    assert after(grid("EM", "EE"), (1, 0)) == ["EM", "1E"]


def test_mistake_digits_are_characters_not_codes() -> None:
    assert after(grid("EM"), (0, 0)) == ["1M"]
    assert after(grid("MMM", "MEM", "MMM"), (1, 1))[1][1] == "8"


def test_mistake_a_visited_set_must_not_hide_mines_from_the_count() -> None:
    assert after(grid("EME"), (0, 0)) == ["1ME"]


def test_mistake_revealed_numbers_are_not_mines() -> None:
    # A second click on a board that already shows numbers counts only M.
    board = grid("EEEEE", "EEMEE", "EEEEE", "EEEEE")
    update_board(board, (3, 0))
    assert after(board, (0, 2)) == ["B111B", "B1M1B", "B111B", "BBBBB"]


def test_mistake_the_square_itself_is_not_its_own_neighbour() -> None:
    # Every number shown equals exactly the mines among the other eight.
    board = grid("MEM", "EEE", "MEM")
    assert after(board, (1, 1))[1][1] == "4"


# --- Shapes and edges ---------------------------------------------------------


def test_one_by_one_board_reveals_blank() -> None:
    assert after(grid("E"), (0, 0)) == ["B"]


def test_one_by_one_mine_explodes() -> None:
    assert after(grid("M"), (0, 0)) == ["X"]


def test_single_row_board() -> None:
    assert after(grid("EEEMEEE"), (0, 0)) == ["BB1MEEE"]
    assert after(grid("EEEMEEE"), (0, 6)) == ["EEEM1BB"]


def test_single_column_board() -> None:
    board = grid(*"EEEMEEE")
    assert after(board, (6, 0)) == ["E", "E", "E", "M", "1", "B", "B"]


def test_all_e_board_becomes_all_b() -> None:
    assert after(grid("EEEE", "EEEE", "EEEE"), (1, 2)) == ["BBBB"] * 3


def test_click_beside_mines_writes_only_that_number() -> None:
    board = grid("EEEE", "EMME", "EEEE")
    assert after(board, (0, 1)) == ["E2EE", "EMME", "EEEE"]


def test_partly_revealed_board_opens_only_hidden_squares() -> None:
    board = grid("EEE1M", "EEE1E", "EEEBE")
    assert after(board, (0, 0)) == ["BBB1M", "BBB1E", "BBBBE"]


def test_large_single_opening_needs_no_recursion() -> None:
    # 10^6 squares in one opening: a recursive flood would overflow the stack.
    board = [["E"] * 1000 for _ in range(1000)]
    board[999][999] = "M"
    update_board(board, (0, 0))
    assert board[0][0] == "B"
    assert board[998][998] == board[999][998] == board[998][999] == "1"
    assert board[999][999] == "M"
    assert sum(row.count("B") for row in board) == 10**6 - 4


# --- Properties against the independent reference -----------------------------


@given(boards_and_clicks())
def test_matches_the_reference_closure(case: tuple[list[list[str]], tuple[int, int]]) -> None:
    board, click = case
    expected = reference_update(board, click)
    assert update_board(board, click) == expected


@given(boards_and_clicks(revealed=False), st.booleans())
def test_check_false_gives_the_same_result_on_valid_boards(
    case: tuple[list[list[str]], tuple[int, int]], as_tuple: bool
) -> None:
    board, (row, col) = case
    click = (row, col) if as_tuple else [row, col]
    checked = update_board(copy.deepcopy(board), click)
    assert update_board(board, click, check=False) == checked


@given(boards_and_clicks())
def test_invariants_of_a_click(case: tuple[list[list[str]], tuple[int, int]]) -> None:
    board, click = case
    before = copy.deepcopy(board)
    update_board(board, click)
    changed = {
        (r, c)
        for r, row in enumerate(board)
        for c, symbol in enumerate(row)
        if symbol != before[r][c]
    }
    # Only the clicked square and hidden empty squares change.
    assert all(p == click or before[p[0]][p[1]] == "E" for p in changed)
    if before[click[0]][click[1]] == "M":
        assert changed == {click}
        assert board[click[0]][click[1]] == "X"
        return
    for r, c in changed:
        symbol = board[r][c]
        if symbol == "B":
            # A new blank has no mine next to it and leaves nothing hidden
            # and empty next to it.
            assert all(board[nr][nc] not in "ME" for nr, nc in neighbours(board, r, c))
        else:
            assert symbol == str(adjacent_mines(before, r, c))


# --- Bad input: our own error, a message that says what and where, no change --


# Each case: id, board, click, error, part of the message, and whether
# check=False still catches it. Without the whole-board scan a bad cell away
# from the click goes unseen: that is the documented trade.
BAD_INPUTS: list[tuple[str, object, object, type[MinesweepError], str, bool]] = [
    ("board-none", None, [0, 0], InvalidBoardError, "NoneType", True),
    ("board-tuple", (["E"],), [0, 0], InvalidBoardError, "tuple", True),
    ("board-string", "EEE", [0, 0], InvalidBoardError, "str", True),
    ("board-empty", [], [0, 0], InvalidBoardError, "empty", True),
    ("first-row-empty", [[]], [0, 0], InvalidBoardError, "board row 1 is empty", True),
    (
        "later-row-empty",
        [["E", "E"], []],
        [0, 0],
        InvalidBoardError,
        "board row 2 has 0 cells; expected 2 like row 1",
        True,
    ),
    (
        "ragged-row",
        grid("EEE", "EE"),
        [0, 0],
        InvalidBoardError,
        "board row 2 has 2 cells; expected 3 like row 1",
        True,
    ),
    (
        "row-string",
        [["E", "E"], "EE"],
        [0, 0],
        InvalidBoardError,
        "board row 2 must be a list",
        True,
    ),
    ("row-tuple", [("E", "E")], [0, 0], InvalidBoardError, "board row 1 must be a list", True),
    ("cell-none", [["E", None]], [0, 0], InvalidBoardError, "row 1, column 2 is None", False),
    ("cell-int", [["E"], [1]], [0, 0], InvalidBoardError, "row 2, column 1 is 1", False),
    ("cell-two-chars", [["E", "EE"]], [0, 0], InvalidBoardError, "row 1, column 2 is 'EE'", False),
    ("cell-lowercase", [["E", "e"]], [0, 0], InvalidBoardError, "row 1, column 2 is 'e'", False),
    ("cell-zero", [["E", "0"]], [0, 0], InvalidBoardError, "row 1, column 2 is '0'", False),
    ("cell-nine", [["E", "9"]], [0, 0], InvalidBoardError, "row 1, column 2 is '9'", False),
    ("cell-empty-string", [["E", ""]], [0, 0], InvalidBoardError, "row 1, column 2 is ''", False),
    (
        "cell-unhashable",
        [["E", ["E"]]],
        [0, 0],
        InvalidBoardError,
        "row 1, column 2 is ['E']",
        False,
    ),
    ("cell-clicked-bad", [["E", "?"]], [0, 1], InvalidBoardError, "row 1, column 2 is '?'", True),
    (
        "cell-clicked-list",
        [["E", ["E"]]],
        [0, 1],
        InvalidBoardError,
        "row 1, column 2 is ['E']",
        True,
    ),
    ("cell-clicked-dict", [[{}, "E"]], [0, 0], InvalidBoardError, "row 1, column 1 is {}", True),
    ("already-exploded", grid("EXE"), [0, 0], GameOverError, "row 1, column 2 has exploded", False),
    ("click-exploded", grid("EXE"), [0, 1], GameOverError, "row 1, column 2 has exploded", True),
    ("click-none", grid("EE"), None, InvalidClickError, "None", True),
    ("click-string", grid("EE"), "0,0", InvalidClickError, "'0,0'", True),
    ("click-short", grid("EE"), [0], InvalidClickError, "[0]", True),
    ("click-long", grid("EE"), [0, 0, 0], InvalidClickError, "[0, 0, 0]", True),
    ("click-dict", grid("EE"), {0: 0, 1: 0}, InvalidClickError, "{0: 0, 1: 0}", True),
    ("click-bool", grid("EE"), [True, 0], InvalidClickError, "row must be an int, got True", True),
    (
        "click-float",
        grid("EE"),
        [0, 1.0],
        InvalidClickError,
        "column must be an int, got 1.0",
        True,
    ),
    ("click-str-part", grid("EE"), ["0", 0], InvalidClickError, "must be an int, got '0'", True),
    ("click-none-part", grid("EE"), [0, None], InvalidClickError, "column must be an int", True),
    ("click-row-too-big", grid("EE"), [1, 0], InvalidClickError, "row 1 is outside", True),
    ("click-col-too-big", grid("EE"), [0, 2], InvalidClickError, "column 2 is outside", True),
    ("click-negative-row", grid("EE"), [-1, 0], InvalidClickError, "row -1 is outside", True),
    ("click-negative-col", grid("EE"), [0, -1], InvalidClickError, "column -1 is outside", True),
    (
        "click-on-blank",
        grid("EB"),
        [0, 1],
        InvalidClickError,
        "row 1, column 2 is on a revealed",
        True,
    ),
    ("click-on-digit", grid("E3"), [0, 1], InvalidClickError, "revealed square '3'", True),
]


@pytest.mark.parametrize(
    ("board", "click", "error", "message", "check"),
    [
        pytest.param(*case[1:5], check, id=f"{case[0]}-{'check' if check else 'no-check'}")
        for case in BAD_INPUTS
        for check in ([True, False] if case[5] else [True])
    ],
)
def test_bad_input_raises_our_error_and_changes_nothing(
    board: object, click: object, error: type[MinesweepError], message: str, check: bool
) -> None:
    before = copy.deepcopy(board)
    with pytest.raises(error) as raised:
        update_board(board, click, check=check)  # type: ignore[arg-type]
    assert isinstance(raised.value, ValueError)
    assert message in str(raised.value)
    assert board == before


@pytest.mark.parametrize(
    ("board", "click"),
    [pytest.param(*case[1:3], id=case[0]) for case in BAD_INPUTS if not case[5]],
)
def test_check_false_reveals_past_bad_cells_it_does_not_read(
    board: list[list[str]], click: tuple[int, int]
) -> None:
    update_board(board, click, check=False)
    assert board[0][0] in "B12345678"


def test_check_false_rolls_back_when_the_flood_reaches_a_ragged_row() -> None:
    board = [["E"] * 5 for _ in range(40)]
    board[30] = ["E"] * 4
    before = copy.deepcopy(board)
    with pytest.raises(InvalidBoardError, match="board row 31 has 4 cells; expected 5 like row 1"):
        update_board(board, (0, 0), check=False)
    assert board == before


def test_check_false_ignores_rows_the_click_never_reaches() -> None:
    board = [["E", "E", "E"], ["M", "M", "M"], ["E", "E", "E"], ["E"], None]
    update_board(board, (0, 0), check=False)  # type: ignore[arg-type]
    assert board[0] == ["2", "E", "E"]


def test_check_false_refuses_a_ragged_clicked_row() -> None:
    board = [["E", "E"], ["E"]]
    with pytest.raises(InvalidBoardError, match="board row 2 has 1 cell; expected 2 like row 1"):
        update_board(board, (1, 0), check=False)


def test_numpy_style_integer_click_is_accepted() -> None:
    class Index:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    assert after(grid("EM"), (Index(0), Index(0))) == ["1M"]  # type: ignore[arg-type]


# --- update_board on the array path ------------------------------------------


@settings(max_examples=max(300, settings().max_examples))
@given(boards_and_clicks(max_rows=30, max_cols=30), st.booleans())
def test_update_board_on_arrays_matches_the_reference(
    case: tuple[list[list[str]], tuple[int, int]], check: bool
) -> None:
    board, click = case
    expected = (
        reference_update(board, click) if board[0] and len(board) * len(board[0]) <= 400 else None
    )
    result = update_board(copy.deepcopy(board), click, check=check, handover=ARRAYS_AT_ONCE)
    python_only = update_board(copy.deepcopy(board), click, handover=PYTHON_ONLY)
    assert result == python_only
    if expected is not None:
        assert result == expected


@pytest.mark.parametrize("handover", [HANDOVER, ARRAYS_AT_ONCE, PYTHON_ONLY])
def test_update_board_gives_one_board_whichever_flood_runs(handover: Handover) -> None:
    board = [["E"] * 300 for _ in range(300)]
    board[150][150] = "M"
    update_board(board, (0, 0), handover=handover)
    assert sum(row.count("B") for row in board) == 300 * 300 - 9
    assert board[149][149:152] == ["1", "1", "1"]
    assert board[150][149:152] == ["1", "M", "1"]


@pytest.mark.parametrize(
    ("rows", "cols", "checked", "warm", "budget"),
    [
        (16, 30, True, True, -1),  # an expert board: Python always
        (300, 300, True, True, 87),  # 90,000 squares / 1,024
        (300, 300, False, True, 1406),  # unchecked: 90,000 / 64
        (300, 300, True, False, 100_000),  # kernels not loaded: earn the loading first
        (30, 30, True, True, 64),  # at least 64
    ],
)
def test_the_default_handover_is_the_measured_rule(
    rows: int, cols: int, checked: bool, warm: bool, budget: int
) -> None:
    assert HANDOVER.budget(rows, cols, checked=checked, warm=warm) == budget


def test_update_board_array_path_skips_boards_that_do_not_convert() -> None:
    # With check=False a bad cell out of the click's way is not seen; the
    # array path must then leave the work to the Python flood, not crash.
    board = [["E"] * 30 for _ in range(30)]
    board[29][29] = None  # type: ignore[call-overload]
    update_board(board, (0, 0), check=False, handover=ARRAYS_AT_ONCE)
    assert board[0][0] == "B"
    assert board[28][28] == "B"
