"""minesweep: a Minesweeper engine for Python.

It starts from one rule, the board update after a click of LeetCode 529
(:func:`update_board`), and builds the game around it: :class:`Minefield`
(where the mines are), :class:`Board` (what the player has revealed), on
numpy arrays and compiled kernels; :class:`Game` (generation, flags, chords,
win and loss, undo, history), the statistics of :mod:`minesweep.stats` and
the file formats of :mod:`minesweep.formats`.

``import minesweep`` stays cheap: the array engine, and numpy and numba with
it, load the first time one of its names is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    ActionError,
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    MinesweepError,
    ParseError,
    SettingsError,
    StorageError,
)
from .leetcode import LeetCodeBoard, update_board
from .squares import CellState, Glyph

if TYPE_CHECKING:
    from .actions import Action, ActionKind, Effect, GameStatus, Outcome, ReplayFrame, Step
    from .board import Board, Reveal
    from .field import Minefield
    from .game import Game
    from .generate import generate_field
    from .presets import PRESETS, FirstClickRule, Preset
    from .stats import BoardStats, GameStats, board_stats, game_stats

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "ActionError",
    "ActionKind",
    "Board",
    "BoardStats",
    "CellState",
    "Effect",
    "FirstClickRule",
    "Game",
    "GameOverError",
    "GameStats",
    "GameStatus",
    "Glyph",
    "InvalidBoardError",
    "InvalidClickError",
    "LeetCodeBoard",
    "Minefield",
    "MinesweepError",
    "Outcome",
    "ParseError",
    "Preset",
    "ReplayFrame",
    "Reveal",
    "SettingsError",
    "Step",
    "StorageError",
    "__version__",
    "board_stats",
    "game_stats",
    "generate_field",
    "update_board",
]

# Public names that live in modules importing numpy, loaded on first use.
_LAZY = {
    "Board": "board",
    "Reveal": "board",
    "Minefield": "field",
    "Action": "actions",
    "ActionKind": "actions",
    "Effect": "actions",
    "Game": "game",
    "GameStatus": "actions",
    "Outcome": "actions",
    "ReplayFrame": "actions",
    "Step": "actions",
    "PRESETS": "presets",
    "FirstClickRule": "presets",
    "Preset": "presets",
    "generate_field": "generate",
    "BoardStats": "stats",
    "GameStats": "stats",
    "board_stats": "stats",
    "game_stats": "stats",
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
