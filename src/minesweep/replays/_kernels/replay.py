"""The whole replay machine in one compiled call: the board, the mouse, and (if asked) the sums."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..._jit import kernel
from .board import board_kernel
from .codes import PLAYING
from .mouse import clicks_kernel
from .operations import operations_kernel

__all__ = ["Replayed", "replay_kernel"]

Array = Any  # numpy arrays; numba types them from the call


class Replayed(NamedTuple):
    """``replay_kernel``'s answer: the board's :class:`.Profile` and the mouse's :class:`.Counters`.

    Their fields flat, under the same names: numba hands each named tuple
    back through a Python call, and nesting the two cost the batch of
    replays 4 % of its speed.
    """

    bbbv: int
    op: int
    isl: int
    zini: int
    hzini: int
    cells: npt.NDArray[np.int64]
    left: int
    right: int
    double: int
    lce: int
    rce: int
    dce: int
    flag: int
    solved: int
    state: int
    c15: int
    unflags: int
    misflags: int
    wasted: int
    start_at: int
    end_at: int
    #: ``clicks_kernel``'s click rows and views, and its path in pixels.
    clicks: npt.NDArray[np.int64]
    views: npt.NDArray[np.uint8]
    path: float
    #: ``operations_kernel``'s per-game sums (empty unless asked for).
    game: npt.NDArray[np.float64]
    #: ``clicks_kernel``'s mouse state after each event (empty unless asked for).
    buttons: npt.NDArray[np.int8]


@kernel(cache=True, part="replays", nogil=True)
def replay_kernel(
    mines: Array,
    rows: int,
    cols: int,
    with_zini: bool,
    px: int,
    either_axis: bool,
    codes: Array,
    xs: Array,
    ys: Array,
    times: Array,
    with_operations: bool,
    with_buttons: bool,
) -> Replayed:  # pragma: no cover - compiled
    """``board_kernel``, ``clicks_kernel`` and (if ``with_operations``) ``operations_kernel``.

    ``with_buttons`` asks ``clicks_kernel`` for the mouse state after each event.
    """
    board = board_kernel(mines, rows, cols, with_zini)
    profile = board.profile
    mouse = clicks_kernel(
        board.squares, profile.op, rows, cols, px, either_axis, codes, xs, ys, with_buttons
    )
    counters, clicks = mouse.counters, mouse.clicks
    game = np.zeros(0, np.float64)
    if with_operations:
        # As ClickAnalysis has them: time 0, the end, whether the game started.
        start_at, end_at = counters.start_at, counters.end_at
        count = times.shape[0]
        start = times[start_at] if start_at >= 0 else 0.0
        end = 0.0
        if count:
            end = times[end_at] if end_at >= 0 else times[count - 1]
        started = start_at >= 0 and counters.state >= PLAYING
        click_times = times[clicks[:, 0]]
        game = operations_kernel(
            clicks, mouse.views, codes, xs, ys, click_times, start_at if started else -1, start,
            end - start, counters.dce, px, cols, cols * px, rows * px, either_axis,
        ).game  # fmt: skip
    p, n = profile, counters
    return Replayed(
        p.bbbv, p.op, p.isl, p.zini, p.hzini, p.cells,
        n.left, n.right, n.double, n.lce, n.rce, n.dce, n.flag, n.solved, n.state, n.c15,
        n.unflags, n.misflags, n.wasted, n.start_at, n.end_at,
        clicks, mouse.views, mouse.path, game, mouse.buttons,
    )  # fmt: skip
