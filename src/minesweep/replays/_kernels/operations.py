"""Each click's operations and the game's sums: travel, interval, squares opened, waste, 1.5-click.

:mod:`..operations` documents what these are; the sums are numpy's own
pairwise summation (:func:`pairwise_sum`), so the numbers equal numpy's to
the bit.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..._jit import kernel
from .codes import CHORDED, DOUBLE, FLAGGED, MINE, MR, NOTHING, OPENED, RIGHT, RR, UNFLAGGED, M, R

__all__ = ["OPERATION_FIELDS", "Operations", "operations_kernel", "pairwise_sum"]

Array = Any  # numpy arrays; numba types them from the call

#: ``operations_kernel``'s per-game vector: OperationStats' fields, in its order.
OPERATION_FIELDS = 14


class Operations(NamedTuple):
    """``operations_kernel``'s answer: one entry a click, and the game's sums."""

    travel: npt.NDArray[np.float64]
    interval: npt.NDArray[np.float64]
    opened: npt.NDArray[np.int64]
    wasted: npt.NDArray[np.bool_]
    click_15: npt.NDArray[np.bool_]
    #: :class:`..operations.OperationStats`' fields, in its order (counts as floats).
    game: npt.NDArray[np.float64]


_PAIRWISE_BLOCK = 128


@kernel(cache=True, part="replays", nogil=True)
def _block_sum(a: Array, lo: int, n: int) -> float:  # pragma: no cover - compiled
    """numpy's pairwise_sum of ``a[lo:lo + n]`` for ``n <= 128``: eight running sums."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return float(res)
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    whole = n - n % 8
    while i < whole:
        at = lo + i
        r0 += a[at]
        r1 += a[at + 1]
        r2 += a[at + 2]
        r3 += a[at + 3]
        r4 += a[at + 4]
        r5 += a[at + 5]
        r6 += a[at + 6]
        r7 += a[at + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return float(res)


@kernel(cache=True, part="replays", nogil=True)
def pairwise_sum(a: Array) -> float:  # pragma: no cover - compiled
    """``a.sum()`` as numpy adds it (its pairwise summation), to the last bit.

    numpy halves a run longer than 128 (the first half a multiple of 8) and
    adds the halves' sums; here with an explicit stack (numba's cache holds
    no recursive kernel).
    """
    n = a.shape[0]
    if n <= _PAIRWISE_BLOCK:
        whole: float = _block_sum(a, 0, n)
        return whole
    los = np.empty(64, np.int64)
    ns = np.empty(64, np.int64)
    lefts = np.empty(64, np.float64)
    second = np.zeros(64, np.bool_)
    los[0], ns[0], second[0] = 0, n, False
    top = 0
    value = 0.0
    done = False  # whether ``value`` is the sum of the node above ``top``'s child
    while True:
        if done:
            if top < 0:
                return float(value)
            if not second[top]:
                lefts[top] = value
                second[top] = True
                half = ns[top] // 2
                half -= half % 8
                top += 1
                los[top], ns[top], second[top] = los[top - 1] + half, ns[top - 1] - half, False
                done = False
            else:
                value = lefts[top] + value
                top -= 1
            continue
        m = ns[top]
        if m <= _PAIRWISE_BLOCK:
            value = _block_sum(a, los[top], m)
            top -= 1
            done = True
        else:
            half = m // 2
            half -= half % 8
            top += 1
            los[top], ns[top], second[top] = los[top - 1], half, False


@kernel(cache=True, part="replays", nogil=True)
def operations_kernel(
    clicks: Array,
    views: Array,
    codes: Array,
    xs: Array,
    ys: Array,
    click_times: Array,
    start_event: int,
    start: float,
    total: float,
    dce: int,
    px: int,
    cols: int,
    width: int,
    height: int,
    either_axis: bool,
) -> Operations:  # pragma: no cover - compiled
    """Each click's travel, interval, squares opened, waste and 1.5-click, and the game's sums.

    ``clicks`` are ``clicks_kernel``'s rows, ``views`` its views,
    ``click_times`` the file time of each click's event; ``start_event`` is
    -1 when the game never started. Returns :class:`Operations` (see
    :mod:`..operations` for what each is). The path follows
    :func:`..operations.cumulative_path` (numpy's hypot, diff and cumsum)
    and the sums numpy's, so the numbers are the same to the bit.
    """
    n = clicks.shape[0]
    count = codes.shape[0]
    events = clicks[:, 0]
    # ms-toollib's path at each click, in pixels: the kept positions' steps from the start.
    at_click = np.zeros(n, np.float64)
    if start_event >= 0 and count:
        sx, sy = xs[start_event:], ys[start_event:]
        x_off = (sx < 0) | (sx >= width)
        y_off = (sy < 0) | (sy >= height)
        skipped = (x_off | y_off) if either_axis else (x_off & y_off)
        skipped[0] = False  # the start itself: where the path begins
        kept = np.flatnonzero(~skipped)
        kx, ky = sx[kept], sy[kept]
        steps = np.hypot(
            (kx[1:] - kx[:-1]).astype(np.float64), (ky[1:] - ky[:-1]).astype(np.float64)
        )
        sums = np.empty(steps.shape[0] + 1, np.float64)
        sums[0] = 0.0
        sums[1:] = np.cumsum(steps)
        for i in range(n):
            if events[i] >= start_event:
                at_click[i] = sums[np.searchsorted(kept, events[i] - start_event, "right") - 1]
    scale = 16.0 / px
    travel = np.empty(n, np.float64)
    interval = np.empty(n, np.float64)
    opened = np.zeros(n, np.int64)
    wasted = np.zeros(n, np.bool_)
    click_15 = np.zeros(n, np.bool_)
    last_flag = np.full(views.shape[1], -1, np.int64)
    before_path = 0.0
    before_time = 0.0
    for i in range(n):
        here = at_click[i] * scale
        travel[i] = here - before_path
        before_path = here
        game_time = np.maximum(click_times[i] - start, 0.0)
        interval[i] = game_time - before_time
        before_time = game_time
        effect = clicks[i, 4]
        view = clicks[i, 7]
        if effect in (OPENED, CHORDED, MINE) and view + 1 < views.shape[0]:
            # Whole rows at once: as fast compiled, and far faster interpreted.
            opened[i] = np.count_nonzero((views[view] > 8) & (views[view + 1] <= 8))
        if effect == NOTHING:
            wasted[i] = True
        elif effect in (FLAGGED, UNFLAGGED):
            # A flag taken away: the unflag and the flag it undid are both wasted.
            k = clicks[i, 2] * cols + clicks[i, 3]
            if effect == FLAGGED:
                last_flag[k] = i
            else:
                wasted[i] = True
                if last_flag[k] >= 0:
                    wasted[last_flag[k]] = True
                last_flag[k] = -1
        # A double after a right click that toggled a flag, the right button
        # held between (no right release), not a middle-button chord.
        if (
            i > 0
            and clicks[i, 1] == DOUBLE
            and clicks[i - 1, 1] == RIGHT
            and clicks[i - 1, 4] in (FLAGGED, UNFLAGGED)
            and codes[events[i]] != MR
            and codes[events[i]] != M
        ):
            held = True
            for e in range(events[i - 1] + 1, events[i]):
                if codes[e] == RR or codes[e] == R:
                    held = False
                    break
            click_15[i] = held
    game = np.zeros(OPERATION_FIELDS, np.float64)
    for kind in range(3):
        mask = clicks[:, 1] == kind
        game[kind] = pairwise_sum(travel[mask])
        game[3 + kind] = pairwise_sum(interval[mask])
        game[6 + kind] = game[3 + kind] / total if total > 0 else 0.0
        game[11 + kind] = np.count_nonzero(wasted[mask])
    chord_opened = 0
    for i in range(n):
        if clicks[i, 1] == DOUBLE:
            chord_opened += opened[i]
    game[9] = chord_opened
    game[10] = chord_opened / dce if dce else 0.0
    return Operations(travel, interval, opened, wasted, click_15, game)
