"""The terminal game (``minesweep play``), an optional extra: ``pip install 'minesweep[tui]'``.

Nothing in the core imports this package.
"""

from __future__ import annotations

from .app import DEFAULT_KEYS, MinesweeperApp, PausableClock, Settings, load_keys, settings_for
from .store import Record, Store, data_directory

__all__ = [
    "DEFAULT_KEYS",
    "MinesweeperApp",
    "PausableClock",
    "Record",
    "Settings",
    "Store",
    "data_directory",
    "load_keys",
    "settings_for",
]
