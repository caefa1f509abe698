"""minesweep: a Minesweeper engine for Python.

It starts from one rule, the board update after a click of LeetCode 529
(:func:`update_board`), and builds the game around it.
"""

from __future__ import annotations

from .errors import (
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    MinesweepError,
    ParseError,
)
from .leetcode import LeetCodeBoard, update_board

__version__ = "0.1.0"

__all__ = [
    "GameOverError",
    "InvalidBoardError",
    "InvalidClickError",
    "LeetCodeBoard",
    "MinesweepError",
    "ParseError",
    "__version__",
    "update_board",
]
