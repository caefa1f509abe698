"""From a replay's mouse events to clicks: the mouse state machine ms-toollib 1.5.20 runs.

A replay stores button presses, releases and moves; players are ranked by
*clicks*. :func:`analyse_clicks` turns the one into the other exactly as
ms-toollib's ``MinesweeperBoard::step`` does (``videos/minesweeper_board.rs``)
while ``BaseVideo::analyse`` feeds it every event but moves
(``videos/base_video.rs``), so that every counter equals ms-toollib's, and it
records each click with the view of the board before it.

The machine has seven mouse states: both buttons up; right held (on a closed
square, or on an open one: "not flag"); left held; both held (a chord, again
also "not flag" when the right button went down first on an open square);
and left still held after the right button of a chord came up. What counts:

- **left**: a left release from "left held", on the board or off it. It is
  effective (``lce``) when it opens a closed safe square; on a mine the game
  is lost.
- **right**: a right press from "both up", on the board or off it; on a
  closed square it toggles a flag. Effective (``rce``) only when it flags a
  mine never flagged before: unflagging, re-flagging the same mine and
  flagging a safe square are not.
- **double**: the first release of a chord (either button), or a middle
  release. A chord begun with the right button on an *open* square is one
  click: that right press is taken back. Begun on a closed square, the flag
  toggle stays a right click and the chord adds a double: a "1.5 click".
  Effective (``dce``) when the square shows a number (or 0) equal to the
  flags around it and some neighbour is closed; chording onto an unflagged
  mine loses. A chord released off the board counts nothing.
- **3BV solved**: a left click on a lone number, or on a 0 of an opening
  that has no flag on any of its 0s; a chord adds the lone numbers and such
  whole openings it opens.
- Before the game starts: flags may be placed ("pre-flags": EVF ``pf``
  events, or right presses), and count. A left press on the board released
  off it, with no pre-flag, goes back to the start and clears the counts, as
  does taking the last pre-flag away.
- The game starts at the first left release that opens a square: that is
  time 0 (ms-toollib's ``video_start_time`` is minus the file time of it).
- EVF's ``cc`` (both buttons down, the last one unknown) and ``l``/``r``/``m``
  (a button changed, press or release) are handled as ms-toollib does; so are
  its quirks: a left release on a flag before the game starts counts a left
  click and leaves the button "held"; and once the game is won or lost every
  later event is ignored (but the cursor path still grows).

Where ms-toollib aborts the process (a middle-button chord released off the
board, ``pf`` on an open square, a second ``cc``, ``l``/``r``/``m`` before the
game starts, ...), this module ignores the event instead.

Positions: a square is ``(y // cell_px, x // cell_px)``; an event off the
board counts as ms-toollib's off-board sentinel. ms-toollib's RMV and MVF
readers move every off-board position to the sentinel ``(cols*px, rows*px)``
while its AVF and EVF readers keep the file's pixels, and its path (the
cursor's Euclidean distance once the game is on, in 16-pixel units) skips
only the sentinel; so for ``rmv``/``mvf`` replays an event off the board on
either axis is skipped, for the others only one off the board on both
(negative pixels, which its unsigned readers cannot give, count as off).

Beyond ms-toollib, :class:`ClickAnalysis` counts 1.5-clicks, unflags,
misflags and wasted flags, and :func:`replay_game` rebuilds the game as a
:class:`minesweep.Game` with its timed history.

The machine runs compiled: ``clicks_kernel`` in :mod:`._kernels`, over the
replay's event columns (:class:`.model.EventColumns`), after the board
kernel that also gives the statistics their 3BV and ZiNi (one call for
both: :func:`analyse_with_board`). Until numba has compiled it (see
:mod:`minesweep._jit`, part ``replays``) the same code runs interpreted,
with the same answers. :attr:`ClickAnalysis.clicks` and ``views`` are the
kernel's rows until first read, then built once: statistics never read them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..mouse import Button, action_for
from ..squares import GLYPH_FLAG, GLYPH_HIDDEN
from .model import (
    ArrayRecords,
    EventColumns,
    Replay,
    event_columns,
    event_time,
)

if TYPE_CHECKING:
    from ..game import Game
    from ._kernels import Replayed

__all__ = [
    "Click",
    "ClickAnalysis",
    "ClickEffect",
    "ClickKind",
    "GameEnd",
    "Held",
    "analyse_clicks",
    "analyse_with_buttons",
    "replay_game",
]


class ClickKind(IntEnum):
    """A counted click, as the replay tools name it: a double is a chord."""

    LEFT = 0
    RIGHT = 1
    DOUBLE = 2

    @property
    def button(self) -> Button:
        """The button that makes it: a double is the middle one's (or both together)."""
        return Button.MIDDLE if self is ClickKind.DOUBLE else Button(self.name.lower())


class ClickEffect(IntEnum):
    """What a click did (ms-toollib's ``useful_level``, with flags and unflags told apart)."""

    NOTHING = 0
    FLAG = 1
    UNFLAG = 2
    OPEN = 3
    CHORD = 4
    MINE = 5


class Held(IntEnum):
    """What the buttons held press down, as the games draw it (:func:`analyse_with_buttons`).

    A left button held shows the square under the cursor pressed; both
    buttons, or the middle one, its hidden neighbours too: what a release
    would open or chord. Nothing shows when the release would do nothing
    on the board: the right button alone, or the left one still held after
    the right button of a chord came up (its release clicks nothing).
    """

    NOTHING = 0
    SQUARE = 1
    CHORD = 2


class GameEnd(IntEnum):
    NOT_STARTED = 0
    PLAYING = 1
    WON = 2
    LOST = 3


class Click(NamedTuple):
    """One counted click.

    ``event`` is its index in the replay's events; ``row``/``col`` are -1 for
    a click off the board. ``effective`` says whether ms-toollib counts it in
    ``ce``; ``solved`` is the 3BV it solved; ``view`` indexes
    :attr:`ClickAnalysis.views`: the board as it was just before the click.
    """

    event: int
    kind: ClickKind
    row: int
    col: int
    effect: ClickEffect
    effective: bool
    solved: int
    view: int


@dataclass(frozen=True, slots=True)
class ClickAnalysis:
    """The clicks of a replay and ms-toollib's counters, plus a few it lacks."""

    rows: int
    cols: int
    left: int
    right: int
    double: int
    lce: int
    rce: int
    dce: int
    #: Flags on the board at the end.
    flag: int
    bbbv_solved: int
    #: Cursor path in 16-pixel units (see the module's documentation).
    path: float
    #: File time of the first left release that opened a square (the game's time 0);
    #: without one, of the last pre-flag; 0.0 when neither happened.
    start: float
    #: Index of that event in the replay's events (-1 when there is none).
    start_event: int
    #: File time of the event that won or lost the game, else of the last event.
    end: float
    result: GameEnd
    #: Chords begun with a right press that toggled a flag (1 right + 1 double).
    clicks_15: int
    #: Right clicks that took a flag away.
    unflags: int
    #: Right clicks that put a flag on a safe square.
    misflags: int
    #: Flags placed that were not effective: misflags, and a mine flagged again.
    wasted_flags: int
    #: A tuple, or the kernel's rows (:class:`ClickRows`): both sequences of clicks.
    clicks: Sequence[Click]
    #: Every board the game went through, ``rows * cols`` bytes each, row-major,
    #: in the core's glyphs (:class:`minesweep.squares.Glyph`); the first is all hidden.
    views: Sequence[bytes]

    @property
    def won(self) -> bool:
        return self.result is GameEnd.WON

    @property
    def lost(self) -> bool:
        return self.result is GameEnd.LOST

    @property
    def cl(self) -> int:
        return self.left + self.right + self.double

    @property
    def ce(self) -> int:
        return self.lce + self.rce + self.dce

    def view(self, index: int) -> npt.NDArray[np.uint8]:
        """View ``index`` as a read-only ``(rows, cols)`` array."""
        array = np.frombuffer(self.views[index], np.uint8).reshape(self.rows, self.cols)
        return array

    def click_time(self, click: Click, replay: Replay) -> float:
        """Seconds from the game's start to ``click`` (negative for a pre-flag)."""
        return event_time(replay, click.event) - self.start


#: Formats whose positions ms-toollib's reader moves to the off-board
#: sentinel when either coordinate is off the board (the others keep pixels).
_SENTINEL_FORMATS = frozenset({"rmv", "mvf", "rawvf"})
_KINDS = tuple(ClickKind)
_EFFECTS = tuple(ClickEffect)
#: By the kernel's game state: ready, pre-flagging, playing, won, lost.
_RESULTS = (GameEnd.NOT_STARTED, GameEnd.NOT_STARTED, GameEnd.PLAYING, GameEnd.WON, GameEnd.LOST)


def analyse_clicks(replay: Replay) -> ClickAnalysis:
    """Every click of ``replay``, its counters, path and times (see the module's documentation)."""
    return analyse_with_board(replay, with_zini=False)[0]


def analyse_with_board(replay: Replay, *, with_zini: bool) -> tuple[ClickAnalysis, Replayed]:
    """:func:`analyse_clicks` and the board's profile (``bbbv`` ... of ``Replayed``), in one call.

    ZiNi and HZiNi are 0 in the profile unless ``with_zini``.
    """
    analysis, profile, _ = analyse_everything(replay, with_zini=with_zini, with_operations=False)
    return analysis, profile


def analyse_with_buttons(
    replay: Replay,
) -> tuple[ClickAnalysis, Replayed, npt.NDArray[np.uint8]]:
    """:func:`analyse_with_board` and what the buttons press after each event, as :class:`Held`.

    The mouse machine's own state (its ``buttons``), so that a picture
    presses what the counters clicked. Only the animation asks: the
    statistics leave it out.
    """
    from ._kernels import codes

    analysis, found, _ = analyse_everything(
        replay, with_zini=False, with_operations=False, with_buttons=True
    )
    held = np.zeros(2 * codes.MIDDLE_HELD, np.uint8)
    held[codes.MIDDLE_HELD :] = Held.CHORD
    held[codes.DOWN_UP] = Held.SQUARE
    held[[codes.CHORDING, codes.CHORDING_NF]] = Held.CHORD
    return analysis, found, held[found.buttons]


def analyse_everything(
    replay: Replay, *, with_zini: bool, with_operations: bool, with_buttons: bool = False
) -> tuple[ClickAnalysis, Replayed, list[float]]:
    """:func:`analyse_with_board` and, if asked, the game's operation sums, in one kernel call.

    The sums are :class:`.operations.OperationStats`' fields in its order
    (counts as floats); an empty list unless ``with_operations``.
    """
    mines = replay.field.mines
    rows, cols = mines.shape
    columns = event_columns(replay)
    # C-contiguous arrays of one dtype each (the read-only mask, EventColumns'
    # columns), so that the kernel is compiled for one signature.
    found: Replayed = kernel("replay_kernel")(
        mines,
        rows,
        cols,
        with_zini,
        replay.cell_px,
        replay.format in _SENTINEL_FORMATS,
        columns.codes,
        columns.xs,
        columns.ys,
        columns.times,
        with_operations,
        with_buttons,
    )
    analysis = _analysis_of(rows, cols, replay.cell_px, columns, found)
    return analysis, found, found.game.tolist()


@cache
def kernel(name: str) -> Callable[..., Any]:
    """The kernel ``name`` of :mod:`._kernels`, as Python calls it (``minesweep._jit.entry``).

    Imported on first use: numba loads when statistics are asked for, not
    with the readers.
    """
    from .._jit import entry
    from . import _kernels

    return entry(getattr(_kernels, name))


def _analysis_of(
    rows: int,
    cols: int,
    cell_px: int,
    columns: EventColumns,
    counters: Replayed,
) -> ClickAnalysis:
    """The :class:`ClickAnalysis` of the mouse kernel's results."""
    start_at, end_at = counters.start_at, counters.end_at
    times = columns.times
    start = float(times[start_at]) if start_at >= 0 else 0.0
    # Without a win or loss, the last event's (0.0 without events).
    end = float(times[end_at if end_at >= 0 else -1]) if len(times) else 0.0
    return ClickAnalysis(
        rows=rows,
        cols=cols,
        left=counters.left,
        right=counters.right,
        double=counters.double,
        lce=counters.lce,
        rce=counters.rce,
        dce=counters.dce,
        flag=counters.flag,
        bbbv_solved=counters.solved,
        path=counters.path * 16.0 / cell_px,
        start=start,
        start_event=start_at,
        end=end,
        result=_RESULTS[counters.state],
        clicks_15=counters.c15,
        unflags=counters.unflags,
        misflags=counters.misflags,
        wasted_flags=counters.wasted,
        clicks=ClickRows(counters.clicks),
        views=ViewRows(counters.views),
    )


# The click and view records are built when first read: the statistics need
# only the counters, and a batch of replays (``summary`` of each) would spend
# a fifth of its time building records no one reads. See model.ArrayRecords.


class ClickRows(ArrayRecords[Click]):
    """The mouse kernel's click rows (event, kind, row, col, effect, effective, solved, view)."""

    __slots__ = ("rows",)

    def __init__(self, rows: npt.NDArray[np.int64]) -> None:
        self._built = None
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def _build(self) -> tuple[Click, ...]:
        kinds, effects = _KINDS, _EFFECTS
        return tuple(
            tuple.__new__(
                Click,
                (event, kinds[kind], row, col, effects[effect], effective == 1, solved, view),
            )
            for event, kind, row, col, effect, effective, solved, view in self.rows.tolist()
        )


class ViewRows(ArrayRecords[bytes]):
    """The mouse kernel's views, one ``rows * cols`` row of codes each."""

    __slots__ = ("rows",)

    def __init__(self, rows: npt.NDArray[np.uint8]) -> None:
        self._built = None
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def _build(self) -> tuple[bytes, ...]:
        flat = self.rows.tobytes()
        size = self.rows.shape[1]
        return tuple(flat[at : at + size] for at in range(0, len(flat), size))


def replay_game(replay: Replay, analysis: ClickAnalysis | None = None) -> Game:
    """The replay as a :class:`minesweep.Game` on its minefield, with its timed history.

    Every click on the board that changed it becomes an action: a left click
    that opened squares a reveal, a flag or unflag, a chord that opened
    squares a chord; times are seconds from the first of them (a
    :class:`~minesweep.Game` starts its clock at its first action, so
    pre-flags come at 0 and after). Clicks that changed nothing are left out:
    the project's rules and ms-toollib's disagree on some of them (a chord on
    a 0, a left click on a flag), and ms-toollib's counters are in
    :func:`analyse_clicks`.
    """
    from ..game import Game  # here: reading a replay needs no game engine

    if analysis is None:
        analysis = analyse_clicks(replay)
    actions: list[Action] = []
    origin: float | None = None
    for click in analysis.clicks:
        effect = click.effect
        if click.row < 0 or effect is ClickEffect.NOTHING:
            continue
        # The action is the mouse's (minesweep.mouse) for the click's button
        # on what the square showed, as far as the mapping tells squares
        # apart: a flag where one came off; else a closed square (a left
        # click that changed the board opened one, and a chord is a chord
        # wherever it lands).
        shown = GLYPH_FLAG if effect is ClickEffect.UNFLAG else GLYPH_HIDDEN
        kind = action_for(shown, click.kind.button)
        time = event_time(replay, click.event)
        if origin is None:
            origin = time
        actions.append(Action(kind, click.row, click.col, max(time - origin, 0.0)))
    return Game.replay(Game.from_field(replay.field), actions, clock=_still)


def _still() -> float:
    return 0.0
