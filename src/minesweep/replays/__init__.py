"""Competitive replay files: read them, check them, and compute what players rank by.

A replay records a game as its minefield and the player's mouse events.
:func:`read` opens any of the formats competitive players use (AVF from
Minesweeper Arbiter, RMV from Viennasweeper, EVF from Metasweeper, MVF from
Minesweeper Clone 0.97, RawVF text), told apart by their bytes; a file that
cannot be read raises :class:`ReplayError` (a ``ValueError``) naming the file
and the byte, never anything else. :func:`summary` gives one flat record of
a replay: what the file says, what its board asks (3BV, openings,
islands), and :func:`check`'s list of the header's claims that the board
contradicts; :func:`table` gives a batch of them as one pandas table (pandas
is an optional extra, imported only there). :func:`write_evf` and
:func:`write_rawvf` write them back, and :func:`picture` draws a replay's final
board as SVG (``animation`` plays the whole game as a GIF, with Pillow).

The package's parts: ``model`` (the value objects), ``_bytes`` (the bounded
reader every format reads through), one module a format (``avf``, ``rmv``,
``evf``, ``mvf``, ``rawvf``), ``reading`` (which format a file is),
``checks``, ``verdict`` (the exact
solver on a click), ``report`` (the record) and ``frame`` (the table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .checks import check
from .drawing import picture
from .evf import write_evf
from .frame import table
from .model import EVENT_KINDS, FORMATS, Claims, MouseEvent, Replay, ReplayError
from .rawvf import write_rawvf
from .reading import detect_format, read
from .report import summary

if TYPE_CHECKING:
    from .from_game import replay_from_game

__all__ = [
    "EVENT_KINDS",
    "FORMATS",
    "Claims",
    "MouseEvent",
    "Replay",
    "ReplayError",
    "check",
    "detect_format",
    "picture",
    "read",
    "replay_from_game",
    "summary",
    "table",
    "write_evf",
    "write_rawvf",
]


def __getattr__(name: str) -> Any:
    # replay_from_game needs the game engine, which reading a replay does not:
    # loaded on first use.
    if name != "replay_from_game":
        raise AttributeError(f"module 'minesweep.replays' has no attribute {name!r}")
    from .from_game import replay_from_game

    globals()[name] = replay_from_game
    return replay_from_game


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
