"""minesweep: a Minesweeper engine for Python.

It starts from one rule, the board update after a click of LeetCode 529
(:func:`update_board`), and builds the game around it: :class:`Minefield`
(where the mines are) and :class:`Board` (what the player has revealed), on
numpy arrays and compiled kernels.

``import minesweep`` stays cheap: the array engine, and numpy and numba with
it, load the first time one of its names is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    MinesweepError,
    ParseError,
)
from .leetcode import LeetCodeBoard, update_board

if TYPE_CHECKING:
    from .board import Board, CellState, Reveal
    from .field import Minefield

__version__ = "0.1.0"

__all__ = [
    "Board",
    "CellState",
    "GameOverError",
    "InvalidBoardError",
    "InvalidClickError",
    "LeetCodeBoard",
    "Minefield",
    "MinesweepError",
    "ParseError",
    "Reveal",
    "__version__",
    "update_board",
]

# Public names that live in modules importing numpy, loaded on first use.
_LAZY = {
    "Board": "board",
    "CellState": "board",
    "Reveal": "board",
    "Minefield": "field",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'minesweep' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
