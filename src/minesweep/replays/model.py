"""What a replay file holds, whatever program wrote it: the value objects every reader returns.

A replay is a minefield, the settings it was played with, what the file says
about itself (player, program, times, its own flags) and the mouse events in
order. Events are kept as the file has them, in pixels from the board's
top-left corner; turning them into clicks is :mod:`.clicks`' job, and
statistics are computed from those clicks, never taken from the header. What
the header claims is kept apart (:class:`Claims`) so that it can be checked.

A reader's replay holds its events as columns and builds the tuple of
:class:`MouseEvent` the first time ``events`` is read (see "records kept as
arrays until asked for" below); its :class:`~minesweep.field.Minefield`
counts its numbers the first time they are read. The statistics need
neither (the kernels take the mask and count for themselves), and building
them cost more than computing the statistics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Literal, NamedTuple, TypeVar, overload

import numpy as np
import numpy.typing as npt

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
    #: A tuple, or (from a reader) the :class:`EventColumns` it decoded: both sequences of events.
    events: Sequence[MouseEvent]
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
        return self.field.rows

    @property
    def cols(self) -> int:
        return self.field.cols

    @property
    def mines(self) -> int:
        return self.field.mine_count

    def _repr_svg_(self) -> str:
        """The final board, with the player, time, 3BV and 3BV/s under it, for Jupyter.

        :func:`minesweep.replays.picture` draws it (see :func:`draw_with`).
        """
        if _DRAWER is None:  # pragma: no cover - the package installs it on import
            raise RuntimeError("minesweep.replays.drawing was not imported")
        return _DRAWER(self)


# --- drawing, installed by the module that can -----------------------------------------
#
# The final board comes from the click analysis (.clicks), which imports this
# module: a Replay that imported its drawing, even inside the method, would be
# an import cycle, and the layers allow none (tests/test_package.py reads
# function-level imports too). So the drawing depends on the model, not the
# other way round: .drawing hands its function over here when it is imported,
# and the package's __init__ imports it, so every Replay (a Replay cannot be
# had without importing minesweep.replays first) draws itself.

_DRAWER: Callable[[Replay], str] | None = None


def draw_with(drawer: Callable[[Replay], str]) -> None:
    """Make ``drawer`` what ``Replay._repr_svg_`` returns (called by :mod:`.drawing`)."""
    global _DRAWER
    _DRAWER = drawer


# --- records kept as arrays until asked for -----------------------------------------
#
# A reader decodes the events into numpy columns, and the click kernel hands
# back its clicks and views as arrays; the statistics run on those arrays
# (compiled, see ._kernels) and never need the 7,000 MouseEvent tuples of an
# expert replay, nor the click records, which cost more to build than the
# statistics. So ``Replay.events`` may hold an EventColumns and
# ``ClickAnalysis.clicks`` and ``views`` their kernel rows: each a read-only
# sequence of its records that builds their tuple the first time one is read
# (or the sequence compared, hashed or printed), and keeps it.

#: Kind codes 1-12 (EVF's), index 0 unused.
KIND_BY_CODE: tuple[EventKind, ...] = ("mv", *EVENT_KINDS)  # type: ignore[assignment]
CODE_BY_KIND: dict[str, int] = {kind: code for code, kind in enumerate(EVENT_KINDS, 1)}

R = TypeVar("R")


class ArrayRecords(Sequence[R]):
    """Records held as arrays: a sequence that builds the tuple of them once, when first read.

    Equal to (and hashed as) that tuple, so that a value holding one compares
    with a value holding the tuple itself as if both held tuples.
    """

    __slots__ = ("_built",)

    def __init__(self) -> None:
        self._built: tuple[R, ...] | None = None

    def _build(self) -> tuple[R, ...]:
        raise NotImplementedError

    def built(self) -> tuple[R, ...]:
        """The tuple of records (built on the first call)."""
        built = self._built
        if built is None:
            built = self._built = self._build()
        return built

    @overload
    def __getitem__(self, index: int) -> R: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[R, ...]: ...
    def __getitem__(self, index: int | slice) -> R | tuple[R, ...]:
        return self.built()[index]

    def __iter__(self) -> Iterator[R]:
        return iter(self.built())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ArrayRecords):
            other = other.built()
        if isinstance(other, tuple):
            return self.built() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.built())

    def __repr__(self) -> str:
        return repr(self.built())


class EventColumns(ArrayRecords[MouseEvent]):
    """A replay's events as parallel columns: seconds, kind codes (1-12), x and y pixels.

    C-contiguous float64, uint8, int64 and int64 arrays, as the kernels take
    them; as a sequence, the MouseEvents of them.
    """

    __slots__ = ("codes", "times", "xs", "ys")

    def __init__(
        self,
        times: npt.NDArray[np.float64],
        codes: npt.NDArray[np.uint8],
        xs: npt.NDArray[np.int64],
        ys: npt.NDArray[np.int64],
    ) -> None:
        if not len(times) == len(codes) == len(xs) == len(ys):
            raise ValueError("event columns of different lengths")
        self._built = None
        self.times = times
        self.codes = codes
        self.xs = xs
        self.ys = ys

    @classmethod
    def of_events(cls, events: Sequence[MouseEvent]) -> EventColumns:
        """The columns of a sequence of events."""
        if isinstance(events, EventColumns):
            return events
        count = len(events)
        if not count:
            return cls(np.empty(0), np.empty(0, np.uint8), *(np.empty(0, np.int64),) * 2)
        times, kinds, xs, ys = zip(*events, strict=True)
        codes = CODE_BY_KIND
        return cls(
            np.array(times, np.float64),
            np.fromiter(map(codes.__getitem__, kinds), np.uint8, count),
            np.array(xs, np.int64),
            np.array(ys, np.int64),
        )

    def __len__(self) -> int:
        return len(self.times)

    def _build(self) -> tuple[MouseEvent, ...]:
        kinds = map(KIND_BY_CODE.__getitem__, self.codes.tolist())
        rows = zip(self.times.tolist(), kinds, self.xs.tolist(), self.ys.tolist(), strict=True)
        # tuple.__new__ straight from zip's tuples: the named tuple's own
        # constructor is a Python function, three times slower.
        return tuple(map(tuple.__new__, repeat(MouseEvent), rows))


def event_columns(replay: Replay) -> EventColumns:
    """The replay's events as columns (a reader's own, or made of its tuple of events)."""
    return EventColumns.of_events(replay.events)


def event_time(replay: Replay, index: int) -> float:
    """``replay.events[index].time``, without building a reader's events."""
    events = replay.events
    if isinstance(events, EventColumns):
        return float(events.times[index])
    return float(events[index].time)
