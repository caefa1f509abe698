"""Reading and writing boards as text, in pairs: every ``parse_*`` has a ``to_*``.

Two notations of the LeetCode board (see :mod:`minesweep.leetcode`):

* the **text grid**: one row per line, one character per cell, such as
  ``EEMEE``; blank lines and spaces or tabs inside a line are ignored, so
  ``E E M E E`` reads the same;
* **LeetCode JSON**: a list of rows, each a list of one-character strings,
  optionally wrapped in an object ``{"board": [...], "click": [row, col]}``.

The parsers check syntax only (text to rows of one-character strings); whether
the symbols make a playable board is :func:`~minesweep.update_board`'s call.

>>> board = parse_text_grid("EEM\\nEEE\\n")
>>> board
[['E', 'E', 'M'], ['E', 'E', 'E']]
>>> print(to_leetcode_json(board))
[
  ["E","E","M"],
  ["E","E","E"]
]
>>> parse_leetcode_json(to_leetcode_json(board)) == (board, None)
True
"""

from __future__ import annotations

import json
from typing import Any

from .errors import ParseError
from .leetcode import LeetCodeBoard
from .squares import square_name

__all__ = [
    "load_json",
    "parse_board",
    "parse_leetcode_json",
    "parse_text_grid",
    "to_leetcode_json",
    "to_text_grid",
]

_BLANK = str.maketrans("", "", " \t\r")


def parse_text_grid(text: str) -> LeetCodeBoard:
    """Read a text grid (one row per line) into a LeetCode board."""
    board = [list(line.translate(_BLANK)) for line in text.split("\n")]
    board = [row for row in board if row]
    if not board:
        raise ParseError("text grid is empty; expected one row per line such as 'EEMEE'")
    return board


def to_text_grid(board: LeetCodeBoard) -> str:
    """Write a board as a text grid: one row per line, ending in a newline."""
    return "".join("".join(row) + "\n" for row in board)


def parse_leetcode_json(text: str) -> tuple[LeetCodeBoard, tuple[int, int] | None]:
    """Read LeetCode JSON: a list of rows, or ``{"board": [...], "click": [r, c]}``.

    Returns the board and the click, or ``None`` when the text has no click.
    """
    data = load_json(text)
    click: tuple[int, int] | None = None
    if isinstance(data, dict):
        unknown = sorted(set(data) - {"board", "click"})
        if unknown:
            raise ParseError(
                f"unexpected key {unknown[0]!r} in JSON object; expected 'board', 'click'"
            )
        if "board" not in data:
            raise ParseError("JSON object has no 'board'")
        if "click" in data:
            click = _parse_click(data["click"])
        data = data["board"]
    if not isinstance(data, list) or not data:
        raise ParseError(f"JSON board must be a non-empty list of rows, got {_brief(data)}")
    for index, row in enumerate(data):
        if not isinstance(row, list):
            raise ParseError(f"JSON board row {index + 1} must be a list, got {_brief(row)}")
        for col, cell in enumerate(row):
            if not isinstance(cell, str) or len(cell) != 1:
                raise ParseError(
                    f"JSON board cell at {square_name(index, col)} must be a one-character string, "
                    f"got {_brief(cell)}"
                )
    return data, click


def load_json(text: str | bytes) -> Any:
    """``json.loads``, with every way it can fail turned into a ParseError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"invalid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except UnicodeDecodeError:
        raise ParseError("JSON text must be UTF-8") from None
    except RecursionError:
        raise ParseError("JSON nested too deeply") from None


def to_leetcode_json(board: LeetCodeBoard) -> str:
    """Write a board as LeetCode JSON, one row per line."""
    rows = ",\n".join("  [" + ",".join(json.dumps(cell) for cell in row) + "]" for row in board)
    return "[\n" + rows + "\n]"


def parse_board(text: str) -> tuple[LeetCodeBoard, tuple[int, int] | None, str]:
    """Read a board in either notation, telling which by its first character.

    Returns the board, the click it carries (``None`` if none) and the
    notation's name: ``"json"`` or ``"grid"``.
    """
    if text.lstrip()[:1] in ("[", "{"):
        board, click = parse_leetcode_json(text)
        return board, click, "json"
    return parse_text_grid(text), None, "grid"


def _parse_click(value: object) -> tuple[int, int]:
    if isinstance(value, list) and len(value) == 2 and all(type(part) is int for part in value):
        return value[0], value[1]
    raise ParseError(f"JSON click must be [row, col] with two integers, got {_brief(value)}")


def _brief(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."
