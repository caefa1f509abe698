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
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..actions import Action, ActionKind
from ..field import Minefield
from ..game import Game
from ..stats import lone_numbers, opening_labels
from .model import Replay

__all__ = [
    "VIEW_EXPLODED",
    "VIEW_FLAG",
    "VIEW_HIDDEN",
    "VIEW_WRONG_FLAG",
    "Click",
    "ClickAnalysis",
    "ClickEffect",
    "ClickKind",
    "GameEnd",
    "analyse_clicks",
    "replay_game",
]

#: Codes of a square in a view (ms-toollib's game-board codes): 0-8 an open
#: square showing that number, and these.
VIEW_HIDDEN = 10
VIEW_FLAG = 11
VIEW_WRONG_FLAG = 14
VIEW_EXPLODED = 15


class ClickKind(IntEnum):
    LEFT = 0
    RIGHT = 1
    DOUBLE = 2


class ClickEffect(IntEnum):
    """What a click did (ms-toollib's ``useful_level``, with flags and unflags told apart)."""

    NOTHING = 0
    FLAG = 1
    UNFLAG = 2
    OPEN = 3
    CHORD = 4
    MINE = 5


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
    clicks: tuple[Click, ...]
    #: Every board the game went through, ``rows * cols`` bytes each, row-major,
    #: in the codes of :data:`VIEW_HIDDEN` and friends; the first is all hidden.
    views: tuple[bytes, ...]

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
        return replay.events[click.event].time - self.start


# Mouse states (minesweeper_board.rs's MouseState); "NF": the right button went
# down on an open square, so it toggles no flag.
_UP_UP, _UP_DOWN, _UP_DOWN_NF, _DOWN_UP, _CHORDING, _CHORDING_NF, _DOWN_UP_AFTER = range(7)
# Game states; ms-toollib's PreFlaging is _PRE: something happened before the first opening.
_READY, _PRE, _PLAYING, _WON, _LOST = range(5)
_HIDDEN, _FLAG = VIEW_HIDDEN, VIEW_FLAG


@lru_cache(maxsize=64)
def _neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Each square's neighbours (itself excluded) as row-major indices, in ms-toollib's order."""
    return tuple(
        tuple(
            i * cols + j
            for i in range(max(r - 1, 0), min(r + 2, rows))
            for j in range(max(c - 1, 0), min(c + 2, cols))
            if (i, j) != (r, c)
        )
        for r in range(rows)
        for c in range(cols)
    )


class _Machine:
    """minesweeper_board.rs's MinesweeperBoard, on flat row-major lists."""

    __slots__ = (
        "bbbv_solved", "board", "c15", "chord_on_flag", "clicks", "cols", "dce", "double",
        "event", "flag", "flagged_before", "gb", "lce", "left", "lone", "middle_held",
        "misflags", "mouse", "nbrs", "opening", "opening_flags", "pre_flags", "rce", "right",
        "right_pending", "rows", "safe_closed", "state", "unflags", "views", "wasted_flags",
    )  # fmt: skip

    def __init__(self, field: Minefield) -> None:
        rows, cols = field.shape
        self.rows, self.cols = rows, cols
        numbers = field.numbers.astype(np.int16)
        numbers[field.mines] = -1
        self.board: list[int] = numbers.reshape(-1).tolist()
        labels, _ = opening_labels(field)
        #: The opening each 0 belongs to (1, 2, ...), 0 for other squares.
        self.opening: list[int] = labels.reshape(-1).tolist()
        #: Safe numbered squares with no 0 around: one 3BV each (cell_is_bbbv).
        self.lone: list[bool] = lone_numbers(field, labels).reshape(-1).tolist()
        for index, value in enumerate(self.board):
            if value <= 0:
                self.lone[index] = False
        #: Flags on the 0s of each opening: such an opening opened is not a whole 3BV.
        self.opening_flags = [0] * (int(labels.max(initial=0)) + 1)
        self.nbrs = _neighbours(rows, cols)
        self.gb = bytearray([_HIDDEN]) * (rows * cols)
        self.views: list[bytes] = [bytes(self.gb)]
        self.safe_closed = rows * cols - field.mine_count
        self.mouse = _UP_UP
        self.state = _READY
        self.left = self.right = self.double = 0
        self.lce = self.rce = self.dce = self.flag = self.bbbv_solved = 0
        self.pre_flags = 0
        self.flagged_before: set[int] = set()
        self.c15 = self.unflags = self.misflags = self.wasted_flags = 0
        self.chord_on_flag = False
        self.middle_held = False
        #: Index in ``clicks`` of a right press on an open square a chord may take back.
        self.right_pending = -1
        self.clicks: list[Click] = []
        self.event = 0

    # --- the three clicks (left_click, right_click, chording_click) -------------

    def left_click(self, k: int) -> int:
        self.left += 1
        gb = self.gb
        view = len(self.views) - 1
        if gb[k] != _HIDDEN:
            self._record(ClickKind.LEFT, k, ClickEffect.NOTHING, False, 0, view)
            return 0
        value = self.board[k]
        if value < 0:
            self._open([k])
            self.state = _LOST
            self._record(ClickKind.LEFT, k, ClickEffect.MINE, False, 0, view)
            return 4
        solved = 0
        if value == 0:
            # The opening is a whole 3BV unless a flag sits on one of its 0s.
            if self.opening_flags[self.opening[k]] == 0:
                solved = 1
        elif self.lone[k]:
            solved = 1
        self.bbbv_solved += solved
        self.lce += 1
        self._open([k])
        if self.safe_closed == 0:
            self.state = _WON
        self._record(ClickKind.LEFT, k, ClickEffect.OPEN, True, solved, view)
        return 2

    def right_click(self, k: int) -> int:
        self.right += 1
        gb = self.gb
        view = len(self.views) - 1
        if gb[k] < _HIDDEN:
            self.right_pending = len(self.clicks)
            self._record(ClickKind.RIGHT, k, ClickEffect.NOTHING, False, 0, view)
            return 0
        is_mine = self.board[k] < 0
        zero = self.opening[k]
        if gb[k] == _HIDDEN:
            gb[k] = _FLAG
            self.flag += 1
            if zero:
                self.opening_flags[zero] += 1
            effective = is_mine and k not in self.flagged_before
            if effective:
                self.rce += 1
            else:
                self.wasted_flags += 1
                if not is_mine:
                    self.misflags += 1
            if is_mine:
                self.flagged_before.add(k)
            self._record(ClickKind.RIGHT, k, ClickEffect.FLAG, effective, 0, view)
        else:
            gb[k] = _HIDDEN
            self.flag -= 1
            if zero:
                self.opening_flags[zero] -= 1
            self.unflags += 1
            self._record(ClickKind.RIGHT, k, ClickEffect.UNFLAG, False, 0, view)
        self.views.append(bytes(gb))
        return 1

    def press_right(self, k: int) -> int:
        """A right press from "both up" on the board: a right click that may start a 1.5 click."""
        level = self.right_click(k)
        self.chord_on_flag = level == 1
        return level

    def chording_click(self, k: int) -> int:
        self.double += 1
        if self.chord_on_flag:
            self.c15 += 1
        self.chord_on_flag = False
        gb = self.gb
        view = len(self.views) - 1
        shown = gb[k]
        # An open 0 can be chorded too (it may border flagged 0s left closed).
        if shown >= 8:
            self._record(ClickKind.DOUBLE, k, ClickEffect.NOTHING, False, 0, view)
            return 0
        board, lone = self.board, self.lone
        flags = 0
        closed = []
        for j in self.nbrs[k]:
            if gb[j] == _FLAG:
                flags += 1
            elif gb[j] == _HIDDEN:
                closed.append(j)
        if flags != shown or not closed:
            self._record(ClickKind.DOUBLE, k, ClickEffect.NOTHING, False, 0, view)
            return 0
        solved = sum(1 for j in closed if lone[j]) + self._openings_around(k)
        self.dce += 1
        self.bbbv_solved += solved
        lost = any(board[j] < 0 for j in closed)
        if lost:
            self.state = _LOST
        self._open(closed)
        # ms-toollib looks for a win after a loss: a chord that opens a mine
        # and the last safe squares wins.
        if self.safe_closed == 0:
            self.state = _WON
        if self.state == _LOST:
            self._record(ClickKind.DOUBLE, k, ClickEffect.MINE, True, solved, view)
            return 4
        self._record(ClickKind.DOUBLE, k, ClickEffect.CHORD, True, solved, view)
        return 3

    def _openings_around(self, k: int) -> int:
        """op_num_around_cell: whole openings a chord on ``k`` opens."""
        gb, board, opening, opening_flags = self.gb, self.board, self.opening, self.opening_flags
        found: list[int] = []
        for j in (k, *self.nbrs[k]):
            if gb[j] == _HIDDEN and board[j] == 0 and opening[j] not in found:
                found.append(opening[j])
        if all(opening_flags[o] == 0 for o in found):
            return len(found)
        # A flag on some 0: ms-toollib's searches share their marks and may
        # stop early, so their answer depends on the search order; follow it.
        return self._openings_around_literally(k)

    def _openings_around_literally(self, k: int) -> int:
        rows, cols = self.rows, self.cols
        gb, board, nbrs = self.gb, self.board, self.nbrs
        marked = [False] * (rows * cols)
        count = 0
        r, c = divmod(k, cols)
        for i in range(max(r - 1, 0), min(r + 2, rows)):
            for j in range(max(c - 1, 0), min(c + 2, cols)):
                start = i * cols + j
                if gb[start] != _HIDDEN or board[start] != 0 or marked[start]:
                    continue
                complete = True
                stack = [start]
                while stack:
                    here = stack.pop()
                    if board[here] != 0:
                        continue
                    if gb[here] == _FLAG:
                        complete = False
                        break
                    marked[here] = True
                    stack.extend(n for n in nbrs[here] if not marked[n])
                count += complete
        return count

    def _open(self, squares: list[int]) -> None:
        """refresh_board: open ``squares``, flood from 0s, show a mine hit and the wrong flags."""
        gb, board, nbrs = self.gb, self.board, self.nbrs
        hit = False
        stack = squares
        while stack:
            here = stack.pop()
            value = board[here]
            if value > 0:
                if gb[here] == _HIDDEN:
                    self.safe_closed -= 1
                gb[here] = value
            elif value == 0:
                if gb[here] == _HIDDEN:
                    self.safe_closed -= 1
                gb[here] = 0
                stack.extend(n for n in nbrs[here] if gb[n] == _HIDDEN)
            else:
                gb[here] = VIEW_EXPLODED
                hit = True
        if hit:
            for index, shown in enumerate(gb):
                if shown == _FLAG and board[index] >= 0:
                    gb[index] = VIEW_WRONG_FLAG
        self.views.append(bytes(gb))

    def _record(
        self, kind: ClickKind, k: int, effect: ClickEffect, effective: bool, solved: int, view: int
    ) -> None:
        if k < 0:
            row = col = -1
        else:
            row, col = divmod(k, self.cols)
        self.clicks.append(Click(self.event, kind, row, col, effect, effective, solved, view))

    def _off_click(self, kind: ClickKind) -> None:
        if kind is ClickKind.RIGHT:
            # A chord may follow, and take this press back.
            self.right_pending = len(self.clicks)
            self.chord_on_flag = False
        self._record(kind, -1, ClickEffect.NOTHING, False, 0, len(self.views) - 1)

    def _take_back_right(self) -> None:
        """A chord begun with the right button on an open square: its right press was no click."""
        if self.right > 0:  # unsigned in ms-toollib; never 0 here in practice
            self.right -= 1
        if self.right_pending >= 0:
            del self.clicks[self.right_pending]
        self.right_pending = -1

    def _clear(self) -> None:
        """clear_click_num: back to the start before the game began."""
        self.flag = 0
        self.flagged_before.clear()
        self.double = self.left = self.right = 0
        self.clicks.clear()
        self.right_pending = -1
        self.c15 = self.unflags = self.misflags = self.wasted_flags = 0

    # --- step ---------------------------------------------------------------------

    def step(self, kind: str, k: int) -> int:
        """One event on square ``k`` (-1 off the board): ms-toollib's ``step``.

        Returns its useful level: 0 nothing, 1 a flag changed, 2 a square
        opened, 3 a chord opened squares, 4 a mine was hit.
        """
        state = self.state
        mouse = self.mouse
        off = k < 0
        if state >= _WON:
            return 0
        if state == _READY:
            if kind == "lc":
                if mouse == _UP_UP:
                    self.mouse = _DOWN_UP
                    self.chord_on_flag = False
                    if not off:
                        self.state = _PRE
                elif mouse == _UP_DOWN:
                    self.mouse = _CHORDING
                elif mouse == _UP_DOWN_NF:
                    self.mouse = _CHORDING_NF
                return 0
            if kind == "pf":
                if off or self.gb[k] != _HIDDEN:
                    return 0  # ms-toollib asserts here
                self.pre_flags += 1
                self.state = _PRE
                return self.right_click(k)
            if kind == "rc":
                if mouse == _UP_UP:
                    self.mouse = _UP_DOWN
                    if not off:
                        self.pre_flags = 1
                        self.state = _PRE
                        return self.press_right(k)
                    return 0
                if mouse == _DOWN_UP_AFTER:
                    self.mouse = _CHORDING
                    return 0
                # Other states fall through to the playing rules.
            elif kind == "lr":
                if mouse in (_CHORDING, _CHORDING_NF):
                    self.mouse = _UP_DOWN
                elif mouse in (_DOWN_UP_AFTER, _DOWN_UP, _UP_UP):
                    self.mouse = _UP_UP
                return 0
            elif kind == "rr":
                if mouse == _UP_DOWN:
                    self.mouse = _UP_UP
                    return 0
                if mouse == _CHORDING:
                    self.mouse = _DOWN_UP_AFTER
                    return 0
                if mouse == _UP_UP:
                    return 0
            elif kind == "cc":
                if mouse in (_DOWN_UP, _DOWN_UP_AFTER, _UP_DOWN, _UP_UP):
                    self.mouse = _CHORDING
                elif mouse == _UP_DOWN_NF:
                    self.mouse = _CHORDING_NF
                return 0
            else:
                # mv mc mr: nothing (Arbiter may start with a middle click);
                # l r m: ms-toollib refuses them here.
                return 0
        elif state == _PRE:
            if kind == "lr":
                if mouse == _DOWN_UP:
                    if off:
                        self.mouse = _UP_UP
                        if self.pre_flags == 0:
                            self.state = _READY
                            self._clear()
                        else:
                            self.left += 1
                            self._off_click(ClickKind.LEFT)
                        return 0
                    if self.gb[k] == _HIDDEN:
                        self.state = _PLAYING
                        self.mouse = _UP_UP
                        return self.left_click(k)
                    # On a pre-flag: a left click; ms-toollib leaves the button held.
                    self.left += 1
                    self._record(
                        ClickKind.LEFT, k, ClickEffect.NOTHING, False, 0, len(self.views) - 1
                    )
                    return 0
            elif kind == "pf":
                if off or self.gb[k] != _HIDDEN:
                    return 0
                self.pre_flags += 1
                return self.right_click(k)
            elif kind == "rc":
                if mouse == _UP_UP:
                    if not off:
                        self.mouse = _UP_DOWN
                        if self.gb[k] == _HIDDEN:
                            self.pre_flags += 1
                        else:
                            self.pre_flags -= 1
                            if self.pre_flags == 0:
                                # The last pre-flag taken away: back to the start.
                                self.state = _READY
                                self._clear()
                                self.gb[k] = _HIDDEN
                                if self.opening[k]:
                                    self.opening_flags[self.opening[k]] -= 1
                                self.views.append(bytes(self.gb))
                                return 0
                        return self.press_right(k)
                    self.mouse = _UP_DOWN_NF
                    self.right += 1
                    self._off_click(ClickKind.RIGHT)
                    return 0
                if mouse == _DOWN_UP:
                    self.mouse = _CHORDING
                    if not off and self.pre_flags == 0:
                        self.state = _READY
                    return 0
                if mouse == _DOWN_UP_AFTER:
                    self.mouse = _CHORDING
                return 0  # ms-toollib refuses the other states
            elif kind == "cc":
                if mouse == _DOWN_UP:
                    if not off and self.pre_flags == 0:
                        self.state = _READY
                    self.mouse = _CHORDING
                elif mouse in (_DOWN_UP_AFTER, _UP_DOWN, _UP_UP):
                    self.mouse = _CHORDING
                elif mouse == _UP_DOWN_NF:
                    self.mouse = _CHORDING_NF
                return 0
            elif kind in ("l", "r", "m"):
                return 0  # ms-toollib refuses them before the game starts
            # lc rr mv mc mr (and lr in other mouse states) follow the playing rules.
        return self._play(kind, k, off)

    def _play(self, kind: str, k: int, off: bool) -> int:
        """The rules once playing, which ms-toollib also applies to some events before."""
        mouse = self.mouse
        if kind == "lc" or (kind == "l" and mouse in (_UP_UP, _UP_DOWN, _UP_DOWN_NF)):
            if mouse == _UP_UP:
                self.mouse = _DOWN_UP
                self.chord_on_flag = False
            elif mouse == _UP_DOWN:
                self.mouse = _CHORDING
            elif mouse == _UP_DOWN_NF:
                self.mouse = _CHORDING_NF
            return 0
        if kind in ("lr", "l"):
            if mouse == _DOWN_UP:
                self.mouse = _UP_UP
                if off:
                    # ms-toollib counts a left release off the board, but not an "l" one.
                    if kind == "lr":
                        self.left += 1
                        self._off_click(ClickKind.LEFT)
                    return 0
                return self.left_click(k)
            if mouse == _CHORDING:
                self.mouse = _UP_DOWN
                return self._chord(k, off)
            if mouse == _CHORDING_NF:
                self.mouse = _UP_DOWN
                self._take_back_right()
                return self._chord(k, off)
            if mouse in (_DOWN_UP_AFTER, _UP_UP):
                self.mouse = _UP_UP
                self.chord_on_flag = False
            return 0
        if kind == "rc" or (kind == "r" and mouse in (_UP_UP, _DOWN_UP, _DOWN_UP_AFTER)):
            if mouse == _UP_UP:
                if not off:
                    self.mouse = _UP_DOWN_NF if self.gb[k] < _HIDDEN else _UP_DOWN
                    return self.press_right(k)
                if kind == "r":
                    return 0  # ms-toollib indexes off the board here and aborts
                self.mouse = _UP_DOWN_NF
                self.right += 1
                self._off_click(ClickKind.RIGHT)
            elif mouse in (_DOWN_UP, _DOWN_UP_AFTER):
                self.mouse = _CHORDING
            return 0
        if kind in ("rr", "r"):
            if mouse in (_UP_DOWN, _UP_DOWN_NF):
                self.mouse = _UP_UP
                self.chord_on_flag = False
                self.right_pending = -1
            elif mouse == _CHORDING:
                self.mouse = _DOWN_UP_AFTER
                return self._chord(k, off)
            elif mouse == _CHORDING_NF:
                self.mouse = _DOWN_UP_AFTER
                self._take_back_right()
                return self._chord(k, off)
            return 0
        if kind == "mc":
            self.middle_held = True
            return 0
        if kind in ("mr", "m"):
            # A middle release chords; "m" is a press or a release, as the
            # button was.
            self.middle_held = kind == "m" and not self.middle_held
            if self.middle_held:
                return 0
            if off:
                return 0  # ms-toollib indexes off the board here and aborts
            self.chord_on_flag = False
            return self.chording_click(k)
        if kind == "cc":
            if mouse in (_DOWN_UP, _DOWN_UP_AFTER, _UP_DOWN, _UP_UP):
                self.mouse = _CHORDING
            elif mouse == _UP_DOWN_NF:
                self.mouse = _CHORDING_NF
            return 0
        return 0  # mv; pf once playing (ms-toollib refuses it)

    def _chord(self, k: int, off: bool) -> int:
        if off:
            self.chord_on_flag = False
            return 0
        return self.chording_click(k)


#: Formats whose positions ms-toollib's reader moves to the off-board
#: sentinel when either coordinate is off the board (the others keep pixels).
_SENTINEL_FORMATS = frozenset({"rmv", "mvf", "rawvf"})


def analyse_clicks(replay: Replay) -> ClickAnalysis:
    """Every click of ``replay``, its counters, path and times (see the module's documentation)."""
    field = replay.field
    rows, cols = field.shape
    px = replay.cell_px
    width, height = cols * px, rows * px
    machine = _Machine(field)
    step = machine.step
    either_axis = replay.format in _SENTINEL_FORMATS
    events = replay.events
    count = len(events)
    start = 0.0
    end: float | None = None
    path = 0.0
    sqrt = math.sqrt
    # Before the game is on, only clicks matter.
    index = 0
    while index < count and machine.state < _PLAYING:
        time, kind, x, y = events[index]
        index += 1
        if kind == "mv":
            continue
        on_board = 0 <= x < width and 0 <= y < height
        machine.event = index - 1
        # BaseVideo::analyse: time 0 is the last event before the game was on
        # that changed the board, i.e. the first opening click.
        if step(kind, (y // px) * cols + x // px if on_board else -1):
            start = time
    if machine.state >= _WON:
        end = events[index - 1].time
    # The path starts at the first opening click (always on the board).
    last_x, last_y = (events[index - 1].x, events[index - 1].y) if index else (0, 0)
    playing = machine.state == _PLAYING
    for index in range(index, count):  # noqa: B020 - carries on where the first loop stopped
        time, kind, x, y = events[index]
        if 0 <= x < width and 0 <= y < height:
            if playing and kind != "mv":
                machine.event = index
                step(kind, (y // px) * cols + x // px)
                if machine.state >= _WON:
                    playing = False
                    end = time
        else:
            if playing and kind != "mv":
                machine.event = index
                step(kind, -1)
                if machine.state >= _WON:
                    playing = False
                    end = time
            # ms-toollib skips only its off-board sentinel (see the module's documentation).
            if either_axis or ((x < 0 or x >= width) and (y < 0 or y >= height)):
                continue
        dx = x - last_x
        dy = y - last_y
        if dx or dy:
            path += sqrt(dx * dx + dy * dy)
            last_x = x
            last_y = y
    if end is None:
        end = replay.events[-1].time if replay.events else 0.0
    result = {
        _READY: GameEnd.NOT_STARTED,
        _PRE: GameEnd.NOT_STARTED,
        _PLAYING: GameEnd.PLAYING,
        _WON: GameEnd.WON,
        _LOST: GameEnd.LOST,
    }[machine.state]
    return ClickAnalysis(
        rows=rows,
        cols=cols,
        left=machine.left,
        right=machine.right,
        double=machine.double,
        lce=machine.lce,
        rce=machine.rce,
        dce=machine.dce,
        flag=machine.flag,
        bbbv_solved=machine.bbbv_solved,
        path=path * 16.0 / px,
        start=start,
        end=end,
        result=result,
        clicks_15=machine.c15,
        unflags=machine.unflags,
        misflags=machine.misflags,
        wasted_flags=machine.wasted_flags,
        clicks=tuple(machine.clicks),
        views=tuple(machine.views),
    )


_ACTION_OF_EFFECT = {
    ClickEffect.FLAG: ActionKind.FLAG,
    ClickEffect.UNFLAG: ActionKind.UNFLAG,
}


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
    if analysis is None:
        analysis = analyse_clicks(replay)
    events = replay.events
    actions: list[Action] = []
    origin: float | None = None
    for click in analysis.clicks:
        effect = click.effect
        if click.row < 0 or effect is ClickEffect.NOTHING:
            continue
        if effect in _ACTION_OF_EFFECT:
            kind = _ACTION_OF_EFFECT[effect]
        elif click.kind is ClickKind.DOUBLE:
            kind = ActionKind.CHORD
        else:
            kind = ActionKind.REVEAL
        time = events[click.event].time
        if origin is None:
            origin = time
        actions.append(Action(kind, click.row, click.col, max(time - origin, 0.0)))
    return Game.replay(Game.from_field(replay.field), actions, clock=_still)


def _still() -> float:
    return 0.0
