"""The terminal game (``minesweep play``), an optional extra: ``pip install 'minesweep[tui]'``.

Nothing in the core imports this package. What kind of game to play is a
:class:`minesweep.frontend.Settings`. One job a module: :mod:`.app` the app,
:mod:`.board_view` the board, :mod:`.keys` the keys and the key file,
:mod:`.clock` the pausable clock, :mod:`.help` the help screen,
:mod:`.saves` a game in progress as a game log, :mod:`.store` the SQLite file,
:mod:`.export` a finished game as an EVF replay file, :mod:`.words` how
squares, counts and records are worded.
"""

from __future__ import annotations

from .app import MinesweeperApp
from .clock import PausableClock
from .keys import DEFAULT_KEYS, load_keys, parse_keys
from .store import Record, Store, data_directory

__all__ = [
    "DEFAULT_KEYS",
    "MinesweeperApp",
    "PausableClock",
    "Record",
    "Store",
    "data_directory",
    "load_keys",
    "parse_keys",
]
