"""Every statistic competitive players rank a replay by, equal to ms-toollib 1.5.20's.

:func:`replay_stats` returns a :class:`ReplayStats` with ms-toollib's names
(``bbbv``, ``bbbv_s``, ``stnb``, ``ioe`` ...), computed from the replay's
minefield (:func:`.zini.board_profile`) and its clicks
(:func:`.clicks.analyse_clicks`) as ms-toollib's ``analyse()`` and its video
getters compute them (``videos/base_video.rs`` L441-482,
``videos/base_video_metrics.rs`` L422-700) once the replay is viewed at its end
(``current_time`` past the end: the time is then ``rtime``). The board's 3BV
is always computed from the mines, never taken from the header
(ms-toollib keeps an EVF header's 3BV: a forged one passes through there).

Formulas (``time`` is ``rtime``; ``solved`` is ``bbbv_solved``): ``etime =
time / solved * bbbv``; ``bbbv_s = solved / time``; ``stnb = K * solved /
time**1.7 * (solved / bbbv) ** 0.5``; ``rqp = time**2 / solved``; ``qg =
time**1.7 / solved``; ``ioe = solved / cl``; ``thrp = solved / ce``; ``corr =
ce / cl``; ``X_s = X / time``. ms-toollib's guards are kept: a rate of a
zero count is 0; ``etime``, ``rqp``, ``qg`` are infinite with nothing solved
(``stnb`` 0); ``ioe``, ``corr`` are 0 with no click, ``thrp`` with no
effective click; with ``time`` 0, ``etime`` is 0 and ``bbbv_s`` infinite.

Statistics ms-toollib lacks, with their sources:

- ``ios`` (index of speed): minesweepergame.com's statistics page gives
  ``log(Time) / log(3BV)``; minesweep-ing.pages.dev/docs/stats gives
  ``log(3BV) / log(Time)`` (``StatRules.ios``). The 3BV is the solved 3BV.
- ``zini_s``, ``zne``, ``znt``, ``hzne``, ``hznt`` (RawVF ``parser_raw.c``):
  the solved part of the ZiNi, ``zini * solved / bbbv``, per second, per click
  and per effective click; likewise for Human ZiNi.
- ``clicks_15``, ``unflags``, ``misflags``, ``wasted_flags``: see
  :class:`.clicks.ClickAnalysis`.
- ``path_left`` ... ``wasted_double`` (cursor travel, time and its share,
  and wasted clicks by kind of click; squares opened by chords): see
  :mod:`.operations`. They follow ms-toollib's clicks and path whatever the
  rules.

Where tools define a statistic differently, ms-toollib's is the default and
:class:`StatRules` asks for the other:

- **STNB constants** (``stnb_constants``): ms-toollib 1.5.20 uses 36 / 162 /
  435 for beginner 8x8/10, intermediate 16x16/40, expert 16x30/99;
  minesweep-ing.pages.dev ("Arbiter-compatible") uses 47.3 / 153.7 / 435.0
  (:data:`ARBITER_STNB`), as ms-toollib's later source does (47.299 /
  153.73 / 435.001). STNB is defined on those three boards alone: its
  constant scales each level's 3BV and time to one scale, and none was ever
  fitted to another board (the 9x9/10 beginner of Windows XP and later, and
  of minesweep's own presets, included). There both tools give 0, and so
  does ``stnb`` here, to stay equal to ms-toollib; :func:`stnb_constant`
  tells an undefined STNB from a score of 0.
- **RQP** (``rqp``): minesweepergame.com's "Time / 3BV/s" is ``time**2 /
  solved`` (ms-toollib); minesweep-ing.pages.dev lists ``time * (time + 1) /
  solved``.
- **Clicks off the board** (``count_off_board``): ms-toollib counts left
  releases and right presses off the board; RawVF counts neither. Off, a
  replay's off-board left and right clicks are left out of ``left``,
  ``right`` and everything built on them.
- **Effective right clicks** (``right_effective``): ms-toollib counts only a
  first flag on a mine; RawVF counts every flag and unflag (only a right
  press on an open square is wasted).
- **Path** (``path``): ms-toollib sums the Euclidean distance of in-board
  cursor positions once the game is on, in 16-pixel units; RawVF sums the
  Manhattan distance of every move, in the file's pixels (``"manhattan"``).
- **rtime** (``rtime``): ms-toollib takes an EVF's header time, an AVF's
  header time (unless it is shorter than the events, then the last event
  minus the first left release), an RMV's last event time and an MVF's last
  event minus the first left release. Here the default computes it from the
  events: from the first opening click (time 0) to the click that won or
  lost, or to the last event of a game not finished. ``"header"`` takes
  ``replay.claims.rtime`` where the file has one; ``"ms-toollib"`` follows
  ms-toollib's per-format choice. On the four real replays of the project's
  tests all three agree.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .clicks import ClickAnalysis, ClickEffect, ClickKind, analyse_everything
from .model import CODE_BY_KIND, Replay, event_columns
from .operations import OperationStats, operation_fields, operation_sums
from .zini import board_profile

__all__ = [
    "ARBITER_STNB",
    "MS_TOOLLIB_STNB",
    "ReplayStats",
    "StatRules",
    "replay_stats",
    "stat_fields",
    "stnb_constant",
]

#: STNB constants by ``(rows, cols, mines)``: ms-toollib's.
MS_TOOLLIB_STNB: tuple[tuple[tuple[int, int, int], float], ...] = (
    ((8, 8, 10), 36.0),
    ((16, 16, 40), 162.0),
    ((16, 30, 99), 435.0),
)
#: The "Arbiter-compatible" constants of minesweep-ing.pages.dev.
ARBITER_STNB: tuple[tuple[tuple[int, int, int], float], ...] = (
    ((8, 8, 10), 47.3),
    ((16, 16, 40), 153.7),
    ((16, 30, 99), 435.0),
)


@dataclass(frozen=True, slots=True)
class StatRules:
    """Which definition to use where tools differ; the defaults are ms-toollib's."""

    stnb_constants: tuple[tuple[tuple[int, int, int], float], ...] = MS_TOOLLIB_STNB
    rqp: Literal["time_squared", "time_time_plus_one"] = "time_squared"
    count_off_board: bool = True
    right_effective: Literal["first_flag_on_mine", "every_flag_change"] = "first_flag_on_mine"
    path: Literal["euclidean_playing", "manhattan_all"] = "euclidean_playing"
    rtime: Literal["events", "header", "ms-toollib"] = "events"
    ios: Literal["log_time_over_log_bbbv", "log_bbbv_over_log_time"] = "log_time_over_log_bbbv"


def stnb_constant(rows: int, cols: int, mines: int, rules: StatRules | None = None) -> float | None:
    """STNB's constant for a ``rows`` x ``cols`` board of ``mines``; None where STNB is undefined.

    Only the three standard levels have one (8x8/10, 16x16/40, 16x30/99);
    ``stnb`` is 0 elsewhere, as in ms-toollib, and this tells that 0 apart.
    """
    constants = (rules or StatRules()).stnb_constants
    for key, value in constants:
        if key == (rows, cols, mines):
            return value
    return None


@dataclass(frozen=True, slots=True)
class ReplayStats:
    """A replay's statistics, named as ms-toollib names them (see the module's documentation)."""

    bbbv: int
    bbbv_solved: int
    op: int
    isl: int
    zini: int
    hzini: int
    cell0: int
    cell1: int
    cell2: int
    cell3: int
    cell4: int
    cell5: int
    cell6: int
    cell7: int
    cell8: int
    left: int
    right: int
    double: int
    cl: int
    lce: int
    rce: int
    dce: int
    ce: int
    flag: int
    path: float
    rtime: float
    etime: float
    bbbv_s: float
    stnb: float
    rqp: float
    qg: float
    ioe: float
    thrp: float
    corr: float
    left_s: float
    right_s: float
    double_s: float
    cl_s: float
    ce_s: float
    flag_s: float
    ios: float
    zini_s: float
    zne: float
    znt: float
    hzne: float
    hznt: float
    clicks_15: int
    wasted_flags: int
    unflags: int
    misflags: int
    #: Cursor travel, time and wasted clicks by kind of click: see :mod:`.operations`.
    #: The flat record (:func:`stat_fields`, ``summary()``) spreads its fields here, in order.
    operations: OperationStats
    won: bool
    #: File time of the game's time 0 (the first opening click).
    start: float


def replay_stats(
    replay: Replay, rules: StatRules | None = None, *, clicks: ClickAnalysis | None = None
) -> ReplayStats:
    """Every statistic of ``replay`` under ``rules`` (ms-toollib's by default).

    ``clicks`` is :func:`.clicks.analyse_clicks`'s result if the caller has it already.
    """
    fields = stat_fields(replay, rules, clicks=clicks)
    operations = OperationStats(**{name: fields.pop(name) for name in _OPERATION_NAMES})
    return ReplayStats(**fields, operations=operations)


_OPERATION_NAMES = tuple(field.name for field in dataclasses.fields(OperationStats))


def stat_fields(
    replay: Replay, rules: StatRules | None = None, *, clicks: ClickAnalysis | None = None
) -> dict[str, Any]:
    """:func:`replay_stats`' fields by name, flat, without building one.

    In :class:`ReplayStats`' order, with :attr:`ReplayStats.operations`'
    fields in its place.

    What :func:`.report.summary`'s flat record takes: a batch of replays
    would otherwise spend a tenth of its time setting and reading back the
    66 statistics of frozen dataclasses (112 against 102 us of CPU a file,
    2,000 generated EVF files, one core).
    """
    rules = _DEFAULT_RULES if rules is None else rules
    if clicks is None:
        # The board, the clicks and their operations in one kernel call.
        analysis, profile, game = analyse_everything(replay, with_zini=True, with_operations=True)
        operations = operation_fields(game)
        # Read by name from the kernel's answer: a BoardProfile would cost the batch 2 %.
        bbbv, op, isl, zini, hzini = (
            profile.bbbv,
            profile.op,
            profile.isl,
            profile.zini,
            profile.hzini,
        )
        cells = profile.cells.tolist()
    else:
        analysis = clicks
        operations = operation_sums(replay, analysis)
        board = board_profile(replay.field)
        bbbv, op, isl, zini, hzini = board.bbbv, board.op, board.isl, board.zini, board.hzini
        cells = list(board.cells)
    solved = analysis.bbbv_solved
    left, right, double = analysis.left, analysis.right, analysis.double
    lce, rce, dce = analysis.lce, analysis.rce, analysis.dce
    if not rules.count_off_board or rules.right_effective != "first_flag_on_mine":
        for click in analysis.clicks:
            if not rules.count_off_board and click.row < 0:
                if click.kind is ClickKind.LEFT:
                    left -= 1
                elif click.kind is ClickKind.RIGHT:
                    right -= 1
            if (
                rules.right_effective == "every_flag_change"
                and click.kind is ClickKind.RIGHT
                and click.effect in (ClickEffect.FLAG, ClickEffect.UNFLAG)
                and not click.effective
            ):
                rce += 1
    cl = left + right + double
    ce = lce + rce + dce
    time = _rtime(replay, analysis, rules)
    path = analysis.path if rules.path == "euclidean_playing" else _manhattan(replay)
    flag = analysis.flag
    field = replay.field
    rows, cols = field.shape
    # Off the three standard boards STNB is undefined: 0, as ms-toollib says it.
    constant = stnb_constant(rows, cols, field.mine_count, rules) or 0.0
    if solved == 0:
        etime = 0.0 if time == 0 else math.inf
        stnb = 0.0
        rqp = qg = math.inf
    else:
        etime = 0.0 if time == 0 else time / solved * bbbv
        stnb = _divide(constant * solved, time**1.7) * (solved / bbbv) ** 0.5 if constant else 0.0
        squared = time * time if rules.rqp == "time_squared" else time * (time + 1)
        rqp = squared / solved
        qg = time**1.7 / solved
    bbbv_s = solved / time if time else (0.0 if solved == 0 else math.inf)
    solved_zini = zini * solved / bbbv if bbbv else 0.0
    solved_hzini = hzini * solved / bbbv if bbbv else 0.0
    # X / time for a count X, 0 for a count of 0 (not nan with a time of 0).
    if time:
        left_s = left / time if left else 0.0
        right_s = right / time if right else 0.0
        double_s = double / time if double else 0.0
        cl_s = cl / time if cl else 0.0
        ce_s = ce / time if ce else 0.0
        flag_s = flag / time if flag else 0.0
        zini_s = solved_zini / time if solved_zini else 0.0
    else:
        left_s, right_s, double_s, cl_s, ce_s, flag_s, zini_s = (
            _divide(count, 0.0) if count else 0.0
            for count in (left, right, double, cl, ce, flag, solved_zini)
        )
    return {
        "bbbv": bbbv,
        "bbbv_solved": solved,
        "op": op,
        "isl": isl,
        "zini": zini,
        "hzini": hzini,
        "cell0": cells[0],
        "cell1": cells[1],
        "cell2": cells[2],
        "cell3": cells[3],
        "cell4": cells[4],
        "cell5": cells[5],
        "cell6": cells[6],
        "cell7": cells[7],
        "cell8": cells[8],
        "left": left,
        "right": right,
        "double": double,
        "cl": cl,
        "lce": lce,
        "rce": rce,
        "dce": dce,
        "ce": ce,
        "flag": flag,
        "path": path,
        "rtime": time,
        "etime": etime,
        "bbbv_s": bbbv_s,
        "stnb": stnb,
        "rqp": rqp,
        "qg": qg,
        "ioe": solved / cl if cl else 0.0,
        "thrp": solved / ce if ce else 0.0,
        "corr": ce / cl if cl else 0.0,
        "left_s": left_s,
        "right_s": right_s,
        "double_s": double_s,
        "cl_s": cl_s,
        "ce_s": ce_s,
        "flag_s": flag_s,
        "ios": _ios(time, solved, rules),
        "zini_s": zini_s,
        "zne": solved_zini / cl if cl else 0.0,
        "znt": solved_zini / ce if ce else 0.0,
        "hzne": solved_hzini / cl if cl else 0.0,
        "hznt": solved_hzini / ce if ce else 0.0,
        "clicks_15": analysis.clicks_15,
        "wasted_flags": analysis.wasted_flags,
        "unflags": analysis.unflags,
        "misflags": analysis.misflags,
        **operations,
        "won": analysis.won,
        "start": analysis.start,
    }


_DEFAULT_RULES = StatRules()


def _divide(numerator: float, denominator: float) -> float:
    """IEEE division, as Rust's f64: x/0 is ±inf (nan for 0/0) instead of an exception."""
    if denominator == 0:
        return math.nan if numerator == 0 else math.copysign(math.inf, numerator)
    return numerator / denominator


def _ios(time: float, solved: int, rules: StatRules) -> float:
    if time <= 0 or solved <= 0:
        return math.nan
    log_time, log_bbbv = math.log(time), math.log(solved)
    if rules.ios == "log_time_over_log_bbbv":
        return _divide(log_time, log_bbbv)
    return _divide(log_bbbv, log_time)


def _rtime(replay: Replay, analysis: ClickAnalysis, rules: StatRules) -> float:
    from_events = analysis.end - analysis.start
    if rules.rtime == "events":
        return from_events
    header = replay.claims.rtime
    if rules.rtime == "header":
        return from_events if header is None else header
    columns = event_columns(replay)
    times = columns.times
    last = float(times[-1]) if len(times) else 0.0
    releases = np.flatnonzero(columns.codes == CODE_BY_KIND["lr"])
    first_release = float(times[releases[0]]) if releases.size else 0.0
    if replay.format == "evf" and header is not None:
        return header
    if replay.format == "avf" and header is not None:
        # avf_video.rs: the header's time, unless the events run longer.
        return last - first_release if header + 1e-6 < last else header
    if replay.format == "rmv":
        return last
    if replay.format == "mvf":
        return last - first_release
    return from_events


def _manhattan(replay: Replay) -> float:
    """RawVF's path: the Manhattan distance of every move, in the file's pixels."""
    columns = event_columns(replay)
    steps = np.abs(np.diff(columns.xs)).sum() + np.abs(np.diff(columns.ys)).sum()
    return float(int(steps))


def warm_up() -> None:
    """Run the statistics' kernels once (compiling them, or loading numba's cache).

    What ``minesweep warm`` runs for the ``replays`` part: a small game, read
    the way a file is (its events as columns, its mask read-only), so that
    the kernels are compiled for the types every reader gives them; and the
    RMV reader's event kernel.
    """
    from ..field import Minefield
    from .model import MouseEvent
    from .rmv import decode_events

    field = Minefield.from_text("*..\n...\n..*")
    events = tuple(
        MouseEvent(time, kind, x, y)  # type: ignore[arg-type]
        for time, kind, x, y in (
            (0.0, "lc", 24, 8), (0.01, "lr", 24, 8), (0.02, "rc", 8, 8), (0.03, "rr", 8, 8),
            (0.04, "lc", 40, 24), (0.05, "rc", 40, 24), (0.06, "lr", 40, 24), (0.07, "rr", 40, 24),
        )
    )  # fmt: skip
    replay = Replay(format="evf", version=4, field=field, events=events, cell_px=16)
    replay_stats(replay)
    board_profile(field)
    # The --clicks table's operations: the same kernel, called from Python.
    from .clicks import analyse_clicks
    from .operations import click_operations

    click_operations(replay, analyse_clicks(replay))
    # The RMV reader's event kernel, on the types read_rmv gives it: a move, a win.
    none = np.zeros(0, np.int64)
    decode_events()(b"\x01" + bytes(8) + b"\x10\0\0\0", 0, 13, 2, none, none)
