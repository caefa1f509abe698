"""Where the terminal game's movement keys take the cursor.

A move is a pure function of the cursor, the board's shape and the rows on
screen (a page); the board view clamps the square it is given, so a move
past an edge stops at it.

>>> cursor_after("down", (0, 3), (9, 9), page=5)
(1, 3)
>>> cursor_after("row_end", (4, 0), (9, 12), page=5)
(4, 11)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

__all__ = ["MOVES", "cursor_after"]

#: A move: (cursor, board shape, page) to the square aimed at, before clamping.
Move = Callable[[tuple[int, int], tuple[int, int], int], tuple[int, int]]

#: The movement keys' actions (the names of :data:`.keys.DEFAULT_KEYS`).
MOVES: Final[dict[str, Move]] = {
    "up": lambda at, shape, page: (at[0] - 1, at[1]),
    "down": lambda at, shape, page: (at[0] + 1, at[1]),
    "left": lambda at, shape, page: (at[0], at[1] - 1),
    "right": lambda at, shape, page: (at[0], at[1] + 1),
    "page_up": lambda at, shape, page: (at[0] - page, at[1]),
    "page_down": lambda at, shape, page: (at[0] + page, at[1]),
    "row_start": lambda at, shape, page: (at[0], 0),
    "row_end": lambda at, shape, page: (at[0], shape[1] - 1),
    "first_row": lambda at, shape, page: (0, at[1]),
    "last_row": lambda at, shape, page: (shape[0] - 1, at[1]),
}


def cursor_after(
    move: str, cursor: tuple[int, int], shape: tuple[int, int], *, page: int
) -> tuple[int, int]:
    """The square ``move`` aims the cursor at, from ``cursor`` (the view clamps it)."""
    return MOVES[move](cursor, shape, page)
