"""The terminal game (``minesweep play``), an optional extra: ``pip install 'minesweep[tui]'``.

Nothing in the core imports this package. What kind of game to play is a
:class:`minesweep.frontend.Settings`.
"""

from __future__ import annotations

from .app import DEFAULT_KEYS, MinesweeperApp, PausableClock, load_keys
from .store import Record, Store, data_directory

__all__ = [
    "DEFAULT_KEYS",
    "MinesweeperApp",
    "PausableClock",
    "Record",
    "Store",
    "data_directory",
    "load_keys",
]
