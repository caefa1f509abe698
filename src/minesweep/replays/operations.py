"""Operation statistics: where the cursor went, where the time went, what each kind of click did.

Players ask for these beside the ranking statistics (ms-toollib's and
Metasweeper's issue trackers); they are built from :mod:`.clicks`' records,
so every click is the click ms-toollib counts.

Per click (:func:`click_operations`, the ``--clicks`` table's columns):

- ``travel``: the cursor's path from the click before (or from the game's
  start) to this click, in ms-toollib's ``path`` units (16 pixels) and by its
  rule (Euclidean, in-board positions, once the game is on): the clicks'
  travels add up to ms-toollib's ``path`` at the last click; before the game
  starts it is 0.
- ``interval``: seconds of game time from the click before (or from time 0)
  to this click; before the game starts it is 0.
- ``opened``: the squares the click opened (a left click's opening counts
  every square of it; a chord's, every square it opened).
- ``click_15``: the double that completed a 1.5-click (see below).
- ``wasted``: the click changed nothing that lasted: a left click or a chord
  that opened nothing (on an open square, on a flag, off the board, a chord
  whose flags do not match), a right click that did nothing, a flag that a
  later right click took away, and that unflag itself. A flag on a safe
  square that stays is a mistake (``misflags``), not counted here.

Per game (:func:`operation_stats`, :attr:`.stats.ReplayStats.operations`,
and fields of ``summary()``): for each kind (``left``, ``right``, ``double``) the
travel (``path_left``...), the time (``time_left``...) and its share of the
game's time (``time_share_left``...), and the wasted clicks
(``wasted_left``...); ``chord_opened`` (squares opened by chords) and
``opened_per_chord`` (per effective chord, ms-toollib's ``dce``).

A **1.5-click** (``clicks_15``, already in :class:`.clicks.ClickAnalysis`)
is a chord begun with the right button on a closed square: the press
toggles a flag (a right click) and the chord that follows is a double, as
ms-toollib 1.5.20 counts it (``minesweeper_board.rs``: a right press on an
open square that becomes a chord is taken back, one on a closed square is
not). ms-toollib has no counter of its own for it.

They are computed by one kernel, ``_kernels.operations_kernel`` (for
:func:`.stats.replay_stats`, in the same call as the board and the clicks);
``_numpy_operations`` computes the same in numpy, and the tests hold the two
to each other to the bit.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .clicks import ClickAnalysis, ClickEffect, ClickKind, ClickRows, GameEnd, ViewRows
from .model import CODE_BY_KIND, Replay, event_columns

if TYPE_CHECKING:
    from ._kernels import Operations

__all__ = [
    "ClickOperations",
    "OperationStats",
    "click_operations",
    "operation_fields",
    "operation_stats",
    "operation_sums",
]

#: Formats whose off-board positions ms-toollib moves to its sentinel (see .clicks).
_SENTINEL_FORMATS = frozenset({"rmv", "mvf", "rawvf"})
_MAX_NUMBER = 8
# Plain ints: an IntEnum member's look-up costs more than the numpy call it feeds.
_NOTHING, _FLAG, _UNFLAG, _OPEN, _CHORD, _MINE = (
    int(effect)
    for effect in (
        ClickEffect.NOTHING, ClickEffect.FLAG, ClickEffect.UNFLAG,
        ClickEffect.OPEN, ClickEffect.CHORD, ClickEffect.MINE,
    )
)  # fmt: skip
_KIND_CODES = (int(ClickKind.LEFT), int(ClickKind.RIGHT), int(ClickKind.DOUBLE))
#: Events that release (or may release) the right or the middle button.
_RIGHT_UP = (CODE_BY_KIND["rr"], CODE_BY_KIND["r"])
_MIDDLE_UP = (CODE_BY_KIND["mr"], CODE_BY_KIND["m"])


@dataclass(frozen=True, slots=True)
class ClickOperations:
    """Per click, in the order of :attr:`ClickAnalysis.clicks` (see the module's documentation)."""

    travel: npt.NDArray[np.float64]
    interval: npt.NDArray[np.float64]
    opened: npt.NDArray[np.int64]
    wasted: npt.NDArray[np.bool_]
    #: The double that completed a 1.5-click (its right click is the click before).
    click_15: npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class OperationStats:
    """Per game, by kind of click (see the module's documentation)."""

    path_left: float
    path_right: float
    path_double: float
    time_left: float
    time_right: float
    time_double: float
    time_share_left: float
    time_share_right: float
    time_share_double: float
    chord_opened: int
    opened_per_chord: float
    wasted_left: int
    wasted_right: int
    wasted_double: int


def cumulative_path(
    replay: Replay, analysis: ClickAnalysis, at: npt.NDArray[np.int64] | None = None
) -> npt.NDArray[np.float64]:
    """ms-toollib's path in pixels at events ``at`` (default: all), as the kernel sums it."""
    columns = event_columns(replay)
    count = len(columns)
    wanted = np.arange(count) if at is None else np.asarray(at, np.int64)
    path = np.zeros(len(wanted), np.float64)
    start = analysis.start_event
    if start < 0 or analysis.result is GameEnd.NOT_STARTED:
        return path
    xs, ys = columns.xs[start:], columns.ys[start:]
    width, height = analysis.cols * replay.cell_px, analysis.rows * replay.cell_px
    x_off = (xs < 0) | (xs >= width)
    y_off = (ys < 0) | (ys >= height)
    skipped = (x_off | y_off) if replay.format in _SENTINEL_FORMATS else (x_off & y_off)
    skipped[0] = False  # the start itself: where the path begins
    kept = np.flatnonzero(~skipped)
    steps = np.hypot(np.diff(xs[kept]).astype(np.float64), np.diff(ys[kept]).astype(np.float64))
    # The same additions, in the same order, as the kernel's running sum.
    sums = np.concatenate(([0.0], np.cumsum(steps)))
    late = wanted >= start
    path[late] = sums[np.searchsorted(kept, wanted[late] - start, side="right") - 1]
    return path


def _click_rows(analysis: ClickAnalysis) -> npt.NDArray[np.int64]:
    """The clicks as the kernel's rows (event, kind, row, col, effect, effective, solved, view)."""
    clicks = analysis.clicks
    if isinstance(clicks, ClickRows):
        return clicks.rows
    return np.array([tuple(click) for click in clicks], np.int64).reshape(-1, 8)


def _view_rows(analysis: ClickAnalysis) -> npt.NDArray[np.uint8]:
    views = analysis.views
    if isinstance(views, ViewRows):
        return views.rows
    # Writable, as the kernel's own views: one compiled signature.
    return np.frombuffer(bytearray(b"".join(views)), np.uint8).reshape(len(views), -1)


def click_operations(replay: Replay, analysis: ClickAnalysis) -> ClickOperations:
    """Each click's travel, interval, squares opened and waste (see the module's documentation)."""
    return _operations(replay, analysis)[0]


def _operations(
    replay: Replay, analysis: ClickAnalysis
) -> tuple[ClickOperations, npt.NDArray[np.float64]]:
    """The clicks' operations and the game's (``_kernels.operations_kernel``), in one call."""
    rows = _click_rows(analysis)
    columns = event_columns(replay)
    started = analysis.start_event >= 0 and analysis.result is not GameEnd.NOT_STARTED
    found: Operations = kernel("operations_kernel")(
        rows,
        _view_rows(analysis),
        columns.codes,
        columns.xs,
        columns.ys,
        columns.times[rows[:, 0]],
        analysis.start_event if started else -1,
        analysis.start,
        analysis.end - analysis.start,
        analysis.dce,
        replay.cell_px,
        analysis.cols,
        analysis.cols * replay.cell_px,
        analysis.rows * replay.cell_px,
        replay.format in _SENTINEL_FORMATS,
    )
    operations = ClickOperations(
        travel=found.travel,
        interval=found.interval,
        opened=found.opened,
        wasted=found.wasted,
        click_15=found.click_15,
    )
    return operations, found.game


def _numpy_operations(replay: Replay, analysis: ClickAnalysis) -> ClickOperations:
    """:func:`click_operations` in numpy alone: what the kernel's answers are held to (tests)."""
    rows = _click_rows(analysis)
    count = len(rows)
    events, effects, views_at = rows[:, 0], rows[:, 4], rows[:, 7]
    at_click = cumulative_path(replay, analysis, events) * (16.0 / replay.cell_px)
    travel = np.diff(at_click, prepend=0.0)
    times = event_columns(replay).times
    game_time = np.maximum(times[events] - analysis.start, 0.0) if count else np.zeros(0)
    interval = np.diff(game_time, prepend=0.0)
    views = _view_rows(analysis)
    opened = np.zeros(count, np.int64)
    changed = np.flatnonzero(
        ((effects == _OPEN) | (effects == _CHORD) | (effects == _MINE))
        & (views_at + 1 < len(views))
    )
    if changed.size:
        before = views[views_at[changed]]
        after = views[views_at[changed] + 1]
        opened[changed] = ((before > _MAX_NUMBER) & (after <= _MAX_NUMBER)).sum(axis=1)
    wasted = effects == _NOTHING
    # A flag taken away: the unflag and the flag it undid are both wasted.
    toggles = np.flatnonzero((effects == _FLAG) | (effects == _UNFLAG))
    if toggles.size:
        last_flag: dict[tuple[int, int], int] = {}
        toggled = rows[toggles][:, [2, 3, 4]].tolist()
        for index, (row, col, effect) in zip(toggles.tolist(), toggled, strict=True):
            if effect == _FLAG:
                last_flag[row, col] = index
            else:
                wasted[index] = True
                flagged = last_flag.pop((row, col), -1)
                if flagged >= 0:
                    wasted[flagged] = True
    return ClickOperations(
        travel=travel,
        interval=interval,
        opened=opened,
        wasted=wasted,
        click_15=_one_and_a_half(rows, event_columns(replay).codes),
    )


def _one_and_a_half(
    rows: npt.NDArray[np.int64], codes: npt.NDArray[np.uint8]
) -> npt.NDArray[np.bool_]:
    """The doubles that complete a 1.5-click.

    A double whose click before is a right click that toggled a flag on the
    board, with the right button held from that press to the chord's
    release (no right release between), and not a middle-button chord: the
    kernel's ``chord_on_flag``, read back from the events.
    """
    found = np.zeros(len(rows), np.bool_)
    kinds, effects, events = rows[:, 1], rows[:, 4], rows[:, 0]
    doubles = np.flatnonzero(kinds[1:] == _KIND_CODES[2]) + 1
    for j in doubles.tolist():
        if kinds[j - 1] != _KIND_CODES[1] or effects[j - 1] not in (_FLAG, _UNFLAG):
            continue
        if codes[events[j]] in _MIDDLE_UP:
            continue
        between = codes[events[j - 1] + 1 : events[j]]
        found[j] = not np.isin(between, _RIGHT_UP).any()
    return found


def operation_stats(
    replay: Replay, analysis: ClickAnalysis, operations: ClickOperations | None = None
) -> OperationStats:
    """The game's operation statistics (see the module's documentation)."""
    if operations is None:
        return OperationStats(**operation_sums(replay, analysis))
    rows = _click_rows(analysis)
    kinds = rows[:, 1]
    by_kind = [kinds == kind for kind in _KIND_CODES]
    paths = [float(operations.travel[mask].sum()) for mask in by_kind]
    times = [float(operations.interval[mask].sum()) for mask in by_kind]
    total = analysis.end - analysis.start
    shares = [time / total if total > 0 else 0.0 for time in times]
    wasted = [int(np.count_nonzero(operations.wasted[mask])) for mask in by_kind]
    chord_opened = int(operations.opened[by_kind[2]].sum())
    return OperationStats(
        path_left=paths[0],
        path_right=paths[1],
        path_double=paths[2],
        time_left=times[0],
        time_right=times[1],
        time_double=times[2],
        time_share_left=shares[0],
        time_share_right=shares[1],
        time_share_double=shares[2],
        chord_opened=chord_opened,
        opened_per_chord=chord_opened / analysis.dce if analysis.dce else 0.0,
        wasted_left=wasted[0],
        wasted_right=wasted[1],
        wasted_double=wasted[2],
    )


_FIELD_NAMES = tuple(field.name for field in dataclasses.fields(OperationStats))
_INT_FIELDS = tuple(
    at for at, name in enumerate(_FIELD_NAMES) if name.startswith(("chord", "wasted"))
)


def operation_fields(game: list[float]) -> dict[str, Any]:
    """:class:`OperationStats`' fields by name, of ``_kernels.operations_kernel``'s sums."""
    for at in _INT_FIELDS:
        game[at] = int(game[at])
    return dict(zip(_FIELD_NAMES, game, strict=True))


def operation_sums(replay: Replay, analysis: ClickAnalysis) -> dict[str, Any]:
    """:class:`OperationStats`' fields by name, computed by the kernel, without building one.

    What :func:`.stats.replay_stats` takes into its :class:`.stats.ReplayStats`.
    """
    return operation_fields(_operations(replay, analysis)[1].tolist())


@cache
def kernel(name: str) -> Callable[..., Any]:
    """The kernel ``name`` of :mod:`._kernels`, as Python calls it (imported on first use)."""
    from .._jit import entry
    from . import _kernels

    if len(_FIELD_NAMES) != _kernels.OPERATION_FIELDS:
        raise AssertionError("OperationStats is out of step with _kernels.OPERATION_FIELDS")
    return entry(getattr(_kernels, name))
