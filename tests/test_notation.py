"""Text notations of the LeetCode board: parse/serialise pairs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given

from minesweep import ParseError
from minesweep.notation import (
    parse_board,
    parse_leetcode_json,
    parse_text_grid,
    to_leetcode_json,
    to_text_grid,
)

from .strategies import boards


@given(boards())
def test_text_grid_round_trips(board: list[list[str]]) -> None:
    assert parse_text_grid(to_text_grid(board)) == board


@given(boards())
def test_leetcode_json_round_trips(board: list[list[str]]) -> None:
    assert parse_leetcode_json(to_leetcode_json(board)) == (board, None)


@given(boards())
def test_leetcode_json_is_plain_json_of_the_board(board: list[list[str]]) -> None:
    assert json.loads(to_leetcode_json(board)) == board


def test_text_grid_ignores_blank_lines_spaces_and_carriage_returns() -> None:
    assert parse_text_grid("\n E E M \r\n\nEEE\n\n") == [["E", "E", "M"], ["E", "E", "E"]]


def test_text_grid_keeps_ragged_rows_for_the_board_check_to_report() -> None:
    assert parse_text_grid("EEE\nEE") == [["E", "E", "E"], ["E", "E"]]


def test_empty_text_grid_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="empty"):
        parse_text_grid(" \n\n")


def test_json_object_carries_board_and_click() -> None:
    assert parse_leetcode_json('{"board": [["E", "M"]], "click": [0, 1]}') == (
        [["E", "M"]],
        (0, 1),
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[", "invalid JSON at line 1 column 3"),
        ("[]", "non-empty list of rows, got []"),
        ('"EEE"', 'got "EEE"'),
        ('{"click": [0, 0]}', "no 'board'"),
        ('{"board": [["E"]], "size": 1}', "unexpected key 'size'"),
        ('[["E"], "EE"]', 'row 2 must be a list, got "EE"'),
        ('[["E", 1]]', "cell at row 1, column 2 must be a one-character string, got 1"),
        ('[["E", "EE"]]', 'cell at row 1, column 2 must be a one-character string, got "EE"'),
        ('{"board": [["E"]], "click": [0]}', "click must be [row, col]"),
        ('{"board": [["E"]], "click": [true, 0]}', "got [true, 0]"),
        ('{"board": [["E"]], "click": [0, 0.5]}', "got [0, 0.5]"),
    ],
)
def test_malformed_json_is_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError) as raised:
        parse_leetcode_json(text)
    assert message in str(raised.value)


def test_parse_board_tells_the_notation_by_its_first_character() -> None:
    assert parse_board('  [["E"]]') == ([["E"]], None, "json")
    assert parse_board('{"board": [["E"]], "click": [0, 0]}') == ([["E"]], (0, 0), "json")
    assert parse_board("E\n") == ([["E"]], None, "grid")
