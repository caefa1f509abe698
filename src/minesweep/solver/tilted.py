"""Step 5 on large boards: sharing the mines out at the saddle point, in linear time.

:mod:`minesweep.solver.probability` shares the mines between the components
and the interior by multiplying the components' polynomials (layouts by
mines) and weighting each total by the interior's binomial. On a large
board both span thousands of orders of magnitude: the product peaks where
the frontier's own density puts it, the binomial where the interior's does,
and where they meet, either has fallen below the smallest float. The sum
underflows to nothing.

The cure is the saddle point of the generating function. Every component's
count of layouts with ``m`` mines is multiplied by ``x**m`` and the
interior's by ``x**-t`` for ``t`` mines on the frontier: every whole-board
layout keeps its weight (the factors cancel), but with ``x`` the odds at
which the frontier and the interior expect together exactly the mines there
are, every factor peaks where the sum lives, so nothing that matters
underflows. ``x`` is found by Newton's method on the expected mines.

The second cost of a large board is the number of components: giving each
its "ways to place the other mines" by multiplying the others' polynomials
is quadratic in them. Here the interior's ways are pushed back through the
components once (``pushed[k]``: the ways to complete a board from the mines
on components before ``k``), so that each component's share costs one
correlation: linear in the frontier, whatever the number of components.

Which squares are certainly safe or mines is decided on feasibility alone
(booleans, never rounded), exactly as in the plain path. Internal to the
solver package.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from .counting import FloatCounts

__all__ = ["Shared", "share_tilted"]

Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

#: Newton's steps to find the odds: it converges in a handful.
_NEWTON_STEPS: Final = 60
#: A sum below this many times its largest term has lost its precision.
TINY: Final = 1e-250


@dataclass(slots=True)
class Shared:
    """Each component's groups' probabilities and certainties, and the interior's.

    ``groups[i]`` holds component ``i``'s probability per group, and which
    groups are certainly safe and certainly mines; ``interior`` the
    interior's probability, ``interior_safe`` and ``interior_mine`` whether
    that is certain; ``log_layouts`` the log of the count of layouts.
    """

    groups: list[tuple[Floats, Bools, Bools]]
    interior: float
    interior_safe: bool
    interior_mine: bool
    log_layouts: float


def _log(values: Floats) -> Floats:
    with np.errstate(divide="ignore"):
        logs: Floats = np.log(values)
    return logs


def _log_binomials(n: int, ks: npt.NDArray[np.int64]) -> Floats:
    """``log C(n, k)`` for each ``k``, ``-inf`` where ``k`` is out of ``0..n``."""
    fits = (ks >= 0) & (ks <= n)
    safe_k = np.where(fits, ks, 0).astype(np.float64)
    values = math.lgamma(n + 1) - _lgamma(safe_k + 1) - _lgamma(n - safe_k + 1)
    return np.where(fits, values, -np.inf)


def _lgamma(values: Floats) -> Floats:
    out: Floats = np.asarray(np.frompyfunc(math.lgamma, 1, 1)(values), np.float64)
    return out


def saddle(logs: list[Floats], interior: int, total: int) -> float:
    """The log-odds ``λ`` at which the components and the interior expect ``total`` mines."""
    lengths = np.array([len(log) for log in logs], np.int64)
    squares = float(lengths.sum() - len(lengths) + interior)
    density = min(max(total / squares, 1e-9), 1 - 1e-9) if squares else 0.5
    # The odds of the mines' density over every square: the answer when the
    # interior is all there is, and where Newton's method starts otherwise.
    tilt = math.log(density / (1 - density))
    if not logs:
        return tilt
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    flat = np.concatenate(logs)
    mines = np.concatenate([np.arange(length, dtype=np.float64) for length in lengths])
    # Newton's method, kept inside a bracket that bisection narrows: the
    # expected mines grow with the tilt, so the bracket always holds the root.
    low, high = -50.0, 50.0
    for _ in range(_NEWTON_STEPS):
        x = flat + tilt * mines
        peak = np.maximum.reduceat(x, starts)
        weights = np.exp(x - np.repeat(peak, lengths))
        z = np.add.reduceat(weights, starts)
        mean = np.add.reduceat(weights * mines, starts) / z
        square = np.add.reduceat(weights * mines * mines, starts) / z
        share = 1.0 / (1.0 + math.exp(-tilt))
        excess = float(mean.sum()) + interior * share - total
        spread = float((square - mean * mean).sum()) + interior * share * (1 - share)
        if excess > 0:
            high = tilt
        else:
            low = tilt
        step = excess / spread if spread > 1e-12 else math.inf
        following = tilt - step
        if not low < following < high:
            following = (low + high) / 2
        if abs(following - tilt) < 1e-9 or high - low < 1e-9:
            return following
        tilt = following
    return tilt


def share_tilted(interior: int, total: int, counts: list[FloatCounts]) -> Shared | None:
    """Share ``total`` mines between the components' ``counts`` and ``interior`` squares.

    None when a sum still underflows (the caller counts exactly); the caller
    has checked that some mine count fits.
    """
    logs = [_log(c.layouts) for c in counts]
    tilt = saddle(logs, interior, total)
    tilted: list[Floats] = []
    # shifts[i][m]: what tilting and renormalising component i multiplies
    # its counts with m mines by, as a log.
    shifts: list[Floats] = []
    log_norm = 0.0
    for c, log in zip(counts, logs, strict=True):
        shift: Floats = tilt * np.arange(len(log), dtype=np.float64)
        peak = float((log + shift).max())
        shift -= peak
        tilted.append(np.exp(log + shift))
        shifts.append(shift)
        log_norm += peak + c.log_scale
    feasible = [(c.layouts > 0).astype(np.float64) for c in counts]
    most = sum(len(poly) - 1 for poly in tilted)
    frontier_mines = np.arange(most + 1, dtype=np.int64)
    log_ways = _log_binomials(interior, total - frontier_mines) - tilt * frontier_mines
    fits = np.isfinite(log_ways)
    peak_ways = float(np.max(log_ways[fits]))
    ways = np.where(fits, np.exp(log_ways - peak_ways), 0.0)
    # before[i]: the components before i, multiplied (renormalised; the
    # logs of the divisors kept for the count of layouts).
    before = [np.ones(1)]
    before_ok = [np.ones(1)]
    for poly, ok in zip(tilted, feasible, strict=True):
        product = np.convolve(before[-1], poly)
        divisor = float(product.max())
        if not divisor > 0:
            return None
        log_norm += math.log(divisor)
        before.append(product / divisor)
        before_ok.append(np.minimum(np.convolve(before_ok[-1], ok), 1.0))
    # pushed[k][s]: the ways to complete the board, components k onwards and
    # the interior, when the components before k hold s mines (renormalised).
    pushed = [ways]
    pushed_ok = [fits.astype(np.float64)]
    for poly, ok, prior in zip(tilted[::-1], feasible[::-1], before[-2::-1], strict=True):
        needed = len(prior) + len(poly) - 1
        step = np.correlate(pushed[-1][:needed], poly, mode="valid")
        top = float(step.max())
        pushed.append(step / top if top > 0 else step)
        pushed_ok.append(np.minimum(np.correlate(pushed_ok[-1][:needed], ok, mode="valid"), 1.0))
    pushed.reverse()
    pushed_ok.reverse()
    everything = float(np.dot(before[-1], ways[: len(before[-1])]))
    if not everything > TINY or not math.isfinite(everything):
        return None
    shares: list[tuple[Floats, Bools, Bools]] = []
    for index, component in enumerate(counts):
        prior, prior_ok = before[index], before_ok[index]
        length = len(tilted[index])
        needed = len(prior) + length - 1
        outside = np.correlate(pushed[index + 1][:needed], prior, mode="valid")
        possible = (feasible[index] > 0) & (
            np.correlate(pushed_ok[index + 1][:needed], prior_ok, mode="valid") > 0
        )
        z = float(np.dot(tilted[index], outside))
        if not z > TINY * float(outside.max(initial=0.0)) or not math.isfinite(z):
            return None
        sizes = component.sizes
        weighted = np.exp(_log(component.mines) + shifts[index])
        values = weighted @ outside / (sizes * z)
        certain_safe = ~np.any(component.mines[:, possible] > 0, axis=1)
        certain_mine = ~np.any(component.safes[:, possible] > 0, axis=1)
        values[certain_safe] = 0.0
        values[certain_mine] = 1.0
        shares.append((values, certain_safe, certain_mine))
    totals, totals_ok = before[-1], before_ok[-1] > 0
    inside = total - np.arange(len(totals))
    weights = totals * ways[: len(totals)]
    expected_inside = float(np.dot(weights, np.maximum(inside, 0)) / weights.sum())
    interior_value = expected_inside / max(interior, 1)
    left_inside = inside[totals_ok & fits[: len(totals)]]
    interior_safe = bool(interior) and not np.any(left_inside)
    interior_mine = bool(interior) and bool(np.all(left_inside == interior))
    if interior_safe:
        interior_value = 0.0
    elif interior_mine:
        interior_value = 1.0
    log_layouts = math.log(everything) + log_norm + peak_ways
    return Shared(shares, interior_value, interior_safe, interior_mine, log_layouts)
