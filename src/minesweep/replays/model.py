"""What a replay file holds, whatever program wrote it: the value objects every reader returns.

A replay is a minefield, the settings it was played with, what the file says
about itself (player, program, times, its own flags) and the mouse events in
order. Events are kept as the file has them, in pixels from the board's
top-left corner; turning them into clicks is :mod:`.clicks`' job, and
statistics are computed from those clicks, never taken from the header. What
the header claims is kept apart (:class:`Claims`) so that it can be checked.

A reader's replay holds its events as columns and its board as a mine
mask, and builds the tuple of :class:`MouseEvent` and the
:class:`~minesweep.field.Minefield` the first time ``events`` or ``field``
is read (see "kept as columns until asked for" below): the statistics need
neither, and building them cost more than computing the statistics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Literal, NamedTuple, Protocol, TypeVar, cast, overload

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

    # These read the mask a reader left (see FieldMask) without building the field.

    @property
    def rows(self) -> int:
        rows: int = mine_mask(self).shape[0]
        return rows

    @property
    def cols(self) -> int:
        cols: int = mine_mask(self).shape[1]
        return cols

    @property
    def mines(self) -> int:
        mine_count: int = _FIELD.raw(self).mine_count  # a FieldMask's or a Minefield's
        return mine_count

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


T = TypeVar("T")


class _Deferred(Protocol):
    def build(self) -> Any: ...


class _DeferredSlot:
    """A slot of a frozen dataclass that may hold a ``kind`` until read; read, it holds the build.

    ``setattr(cls, name, _DeferredSlot(cls.__dict__[name], kind))`` after the
    class is made: the slot descriptor stays where the value lives, and this
    one, in its place, builds on the first read (the dataclass's ``__init__``,
    ``__eq__``, ``__repr__``, pickling and ``dataclasses.replace`` all go
    through it).
    """

    def __init__(self, slot: Any, kind: type[_Deferred]) -> None:
        self.slot = slot
        self.kind = kind

    def __get__(self, owner_object: object, owner: type | None = None) -> Any:
        if owner_object is None:
            return self
        value = self.slot.__get__(owner_object, owner)
        if type(value) is self.kind:
            value = value.build()
            self.slot.__set__(owner_object, value)
        return value

    def __set__(self, owner_object: object, value: object) -> None:
        self.slot.__set__(owner_object, value)

    def __delete__(self, owner_object: object) -> None:
        self.slot.__delete__(owner_object)

    def raw(self, owner_object: object) -> Any:
        """What the slot holds, built or not."""
        return self.slot.__get__(owner_object)


def held(owner_object: object, name: str) -> Any:
    """What the deferred field ``name`` of ``owner_object`` holds now, built or not."""
    deferred: _DeferredSlot = type(owner_object).__dict__[name]
    return deferred.raw(owner_object)


def defer(cls: type, name: str, kind: type[_Deferred]) -> _DeferredSlot:
    """Let field ``name`` of the slotted dataclass ``cls`` hold a ``kind``, built when read."""
    deferred = _DeferredSlot(cls.__dict__[name], kind)
    setattr(cls, name, deferred)
    return deferred


class FieldMask:
    """A reader's mine mask, until ``Replay.field`` is read: then the Minefield of it.

    The statistics need the mask alone (the kernels count the numbers
    themselves); a Minefield's own counts cost a small replay a tenth of
    its reading. The mask is C-contiguous bools, read-only like a
    Minefield's (the kernels are compiled for that one type); the reader
    has checked it is not empty, so building it later raises nothing.
    """

    __slots__ = ("mask", "mine_count")

    def __init__(self, mask: npt.NDArray[np.bool_]) -> None:
        mask = np.ascontiguousarray(mask, np.bool_)
        mask.flags.writeable = False
        self.mask = mask
        self.mine_count = int(np.count_nonzero(mask))

    def build(self) -> Minefield:
        return Minefield(self.mask)


_FIELD = defer(Replay, "field", FieldMask)


def lazy_field(mask: FieldMask) -> Minefield:
    """What a reader passes as ``Replay(field=...)``: the mask, made a Minefield when read."""
    return cast("Minefield", mask)


def mine_mask(replay: Replay) -> npt.NDArray[np.bool_]:
    """The replay's mine mask (C-contiguous, read-only), without building its field."""
    value = _FIELD.raw(replay)
    if type(value) is FieldMask:
        return value.mask
    mask: npt.NDArray[np.bool_] = value.mines
    return mask


def slot_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor of the frozen slotted dataclass ``cls`` taking every field by keyword.

    The same object as ``cls(**fields)``, made twice as fast: a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``
    (150 ns a field on a small machine), this one through the slot's own
    setter; a batch of replays sets a hundred fields a file (Replay, Claims,
    ClickAnalysis, ReplayStats). ``cls`` must have no ``__post_init__`` and
    the caller gives every field (defaults are not filled in); a deferred
    field (:func:`defer`) takes its value as stored.
    """
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__name__} has a __post_init__ the fast constructor would skip")
    names = [field.name for field in dataclasses.fields(cls)]  # type: ignore[arg-type]
    setters: dict[str, Any] = {}
    for index, name in enumerate(names):
        descriptor = cls.__dict__[name]
        slot = descriptor.slot if isinstance(descriptor, _DeferredSlot) else descriptor
        setters[f"_set{index}"] = slot.__set__
    lines = [f"def make(*, {', '.join(names)}):", "    made = _new(_cls)"]
    lines += [f"    _set{index}(made, {name})" for index, name in enumerate(names)]
    lines.append("    return made")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, **setters}
    # Our own field names into a def, as dataclasses makes __init__.
    exec("\n".join(lines), namespace)
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = f"{cls.__qualname__} (fast)"
    return make


def event_columns(replay: Replay) -> EventColumns:
    """The replay's events as columns (a reader's own, or made of its tuple of events)."""
    return EventColumns.of_events(replay.events)


def event_time(replay: Replay, index: int) -> float:
    """``replay.events[index].time``, without building a reader's events."""
    events = replay.events
    if isinstance(events, EventColumns):
        return float(events.times[index])
    return float(events[index].time)


#: ``Replay(...)`` and ``Claims(...)`` with every field given, for the readers
#: (see :func:`slot_constructor`).
new_replay = slot_constructor(Replay)
new_claims = slot_constructor(Claims)
