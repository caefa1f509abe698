"""What a replay file holds, whatever program wrote it: the value objects every reader returns.

A replay is a minefield, the settings it was played with, what the file says
about itself (player, program, times, its own flags) and the mouse events in
order. Events are kept as the file has them, in pixels from the board's
top-left corner; turning them into clicks is :mod:`.clicks`' job, and
statistics are computed from those clicks, never taken from the header. What
the header claims is kept apart (:class:`Claims`) so that it can be checked.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ..errors import ParseError
from ..field import Minefield

__all__ = ["EVENT_KINDS", "FORMATS", "Claims", "MouseEvent", "Replay", "ReplayError"]

#: The formats :func:`minesweep.replays.read` tells apart.
FORMATS = ("avf", "rmv", "evf", "mvf", "rawvf")

#: Mouse event kinds, as ms-toollib names them: a move; left, right and middle
#: press (``lc rc mc``) and release (``lr rr mr``); ``pf`` a flag placed before
#: the game started (EVF, RMV); ``cc`` both buttons down, which one last unknown
#: (EVF); ``l r m`` a button's press-or-release toggle (EVF).
EVENT_KINDS = ("mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m")

EventKind = Literal["mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m"]


class ReplayError(ParseError):
    """A replay file that cannot be read: the message names the file and the byte (or line)."""


class MouseEvent(NamedTuple):
    """One mouse event: ``time`` in seconds on the file's own clock, ``x`` and ``y`` in pixels.

    ``x`` counts columns of pixels from the board's left edge and ``y`` rows
    from its top; the square under the cursor is ``(y // cell_px, x // cell_px)``.
    A position off the board is kept as the file gives it.

    A named tuple rather than a frozen dataclass: as immutable, and an expert
    replay's 7,000 events are built in a sixth of the time.
    """

    time: float
    kind: EventKind
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Claims:
    """What the file says about the game, to be checked against the board and events.

    None where the format does not say.
    """

    bbbv: int | None = None
    #: The game's time in seconds, as the header gives it.
    rtime: float | None = None
    completed: bool | None = None
    official: bool | None = None
    fair: bool | None = None
    no_flags: bool | None = None


@dataclass(frozen=True, slots=True)
class Replay:
    """A replay file, read: the board, its settings, what the file says, and its mouse events."""

    format: str
    #: The format's own version (EVF 0-4, RMV 1-2, AVF's major version byte, ...).
    version: int
    field: Minefield
    events: tuple[MouseEvent, ...]
    cell_px: int
    #: The program that wrote the file, as it names itself ("Arbiter 0.52.3", "元3.1.9").
    software: str = ""
    player: str = ""
    country: str = ""
    #: Game mode as the format numbers it (0 standard; EVF/RMV v2: 1 UPK, 2 cheat, 3 density, ...).
    mode: int = 0
    #: When the game started and ended, in microseconds since 1970 (None where not recorded).
    start_us: int | None = None
    end_us: int | None = None
    claims: Claims = dataclasses.field(default_factory=Claims)
    #: Other named values the file holds (identifiers, skin, question marks ...), as text.
    extra: tuple[tuple[str, str], ...] = ()

    @property
    def rows(self) -> int:
        return self.field.shape[0]

    @property
    def cols(self) -> int:
        return self.field.shape[1]

    @property
    def mines(self) -> int:
        return self.field.mine_count
