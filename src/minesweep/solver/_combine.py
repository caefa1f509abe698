"""Step 5 of the analysis, compiled (numba): sharing the mines out, every probability written.

The same arithmetic as the products in :mod:`minesweep.solver.probability`
(see :func:`combine` for the steps), in one call: on a view of a preset
the dozens of small array operations it replaces cost more in calls than in
work. Large boards, and sums that underflow, go to
:mod:`minesweep.solver.tilted` instead.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import kernel

__all__ = ["NO_FIT", "SHARED", "UNDERFLOW", "combine"]

#: What :func:`combine` found (its first result).
SHARED = 0
#: No total of mines fits both the frontier and the interior.
NO_FIT = 1
#: A sum underflowed: share out at the saddle point instead.
UNDERFLOW = 2


@kernel(cache=True, part="solver", nogil=True)
def _convolve(a, b):  # pragma: no cover - compiled
    out = np.zeros(a.shape[0] + b.shape[0] - 1)
    for i in range(a.shape[0]):
        if a[i] != 0.0:
            for j in range(b.shape[0]):
                out[i + j] += a[i] * b[j]
    return out


@kernel(cache=True, part="solver", nogil=True)
def _products(polys_start, polys, count, backwards, boolean):  # pragma: no cover - compiled
    """Running products of the polynomials (renormalised, or clipped to 0/1), as CSR.

    ``products[k]`` is the product of polynomials ``0..k-1`` (or, backwards,
    ``k..count-1``); also returns the sum of the logs of the divisors.
    """
    starts = np.zeros(count + 2, np.int64)
    pieces = [np.ones(1)]
    log_norm = 0.0
    for step in range(count):
        k = count - 1 - step if backwards else step
        poly = polys[polys_start[k] : polys_start[k + 1]]
        product = _convolve(pieces[-1], poly)
        if boolean:
            for m in range(product.shape[0]):
                product[m] = 1.0 if product[m] > 0 else 0.0
        else:
            divisor = product.max()
            product /= divisor
            log_norm += math.log(divisor)
        pieces.append(product)
    if backwards:
        pieces.reverse()
    for k in range(count + 1):
        starts[k + 1] = starts[k] + pieces[k].shape[0]
    flat = np.empty(starts[count + 1])
    for k in range(count + 1):
        flat[starts[k] : starts[k + 1]] = pieces[k]
    return starts, flat, log_norm


@kernel(cache=True, part="solver", nogil=True)
def combine(  # pragma: no cover - compiled
    shape_rows, shape_cols, total, interior, interior_mask, settled_mask,
    w_start, layouts, log_scales, row_start, ids, sizes, e_start, mines, safes,
    group_start, group_cells, tiny,
):  # fmt: skip
    """Share ``total`` mines (those not set aside) between the components and the interior.

    Component ``i`` has counts ``layouts[w_start[i]:w_start[i+1]]`` (times
    ``exp(-log_scales[i])``) and groups ``ids[row_start[i]:row_start[i+1]]``
    of ``sizes`` squares, whose mine and safe sums are the rows of
    ``mines`` and ``safes`` from ``e_start[i]``. Returns ``(status,
    probability, safe, mine, log_layouts)``: every hidden square's
    probability (NaN elsewhere), the squares certainly safe and certainly
    mines, and the log of the count of layouts. A sum below ``tiny`` (times
    its largest term, one) has lost its precision: :data:`UNDERFLOW`.

    The steps: each component's counts scaled to at most one; their running
    products before and after each component (renormalised), and the same
    for feasibility alone (0/1, never rounded); the interior's ways for
    ``t`` mines on the frontier, ``C(interior, total - t)``, relative to the
    largest; each component's probabilities from the ways to place the other
    mines when it holds ``m``; the interior's from the expected mines left
    to it.
    """
    count = w_start.shape[0] - 1
    probability = np.full((shape_rows, shape_cols), np.nan)
    safe = np.zeros((shape_rows, shape_cols), np.bool_)
    mine = np.zeros((shape_rows, shape_cols), np.bool_)
    scaled = np.empty(layouts.shape[0])
    feasible = np.empty(layouts.shape[0])
    log_norm = 0.0
    for i in range(count):
        a, b = w_start[i], w_start[i + 1]
        top = layouts[a:b].max()
        for m in range(a, b):
            scaled[m] = layouts[m] / top
            feasible[m] = 1.0 if layouts[m] > 0 else 0.0
        log_norm += math.log(top) + log_scales[i]
    most = layouts.shape[0] - count
    log_ways = np.full(most + 1, -np.inf)
    fits = np.zeros(most + 1, np.bool_)
    for t in range(most + 1):
        r = total - t
        if 0 <= r <= interior:
            log_ways[t] = (
                math.lgamma(interior + 1) - math.lgamma(r + 1) - math.lgamma(interior - r + 1)
            )
            fits[t] = True
    before_start, before, norms = _products(w_start, scaled, count, False, False)
    log_norm += norms
    after_start, after, _ = _products(w_start, scaled, count, True, False)
    ok_before_start, ok_before, _ = _products(w_start, feasible, count, False, True)
    ok_after_start, ok_after, _ = _products(w_start, feasible, count, True, True)
    totals = before[before_start[count] : before_start[count + 1]]
    totals_ok = ok_before[ok_before_start[count] : ok_before_start[count + 1]]
    reachable = False
    for t in range(min(totals_ok.shape[0], most + 1)):
        if totals_ok[t] > 0 and fits[t]:
            reachable = True
    if not reachable:
        return NO_FIT, probability, safe, mine, 0.0
    peak = -np.inf
    for t in range(most + 1):
        if fits[t]:
            peak = max(peak, log_ways[t])
    ways = np.zeros(most + 1)
    for t in range(most + 1):
        if fits[t]:
            ways[t] = math.exp(log_ways[t] - peak)
    everything = 0.0
    for t in range(totals.shape[0]):
        everything += totals[t] * ways[t]
    if not everything > tiny or not math.isfinite(everything):
        return UNDERFLOW, probability, safe, mine, 0.0
    log_layouts = math.log(everything) + log_norm + peak
    for i in range(count):
        a, b = w_start[i], w_start[i + 1]
        length = b - a
        others = _convolve(
            before[before_start[i] : before_start[i + 1]],
            after[after_start[i + 1] : after_start[i + 2]],
        )
        others_ok = _convolve(
            ok_before[ok_before_start[i] : ok_before_start[i + 1]],
            ok_after[ok_after_start[i + 1] : ok_after_start[i + 2]],
        )
        # outside[m]: the ways to place the other mines when this component holds m.
        outside = np.zeros(length)
        possible = np.zeros(length, np.bool_)
        for m in range(length):
            value = 0.0
            reach = False
            for t in range(others.shape[0]):
                if m + t <= most:
                    value += others[t] * ways[m + t]
                    if others_ok[t] > 0 and fits[m + t]:
                        reach = True
            outside[m] = value
            possible[m] = feasible[a + m] > 0 and reach
        z = 0.0
        for m in range(length):
            z += scaled[a + m] * outside[m]
        if not z > 0 or not math.isfinite(z):
            return UNDERFLOW, probability, safe, mine, 0.0
        top = layouts[a:b].max()
        for g in range(row_start[i + 1] - row_start[i]):
            row = e_start[i] + g * length
            value = 0.0
            certain_safe = True
            certain_mine = True
            for m in range(length):
                value += mines[row + m] / top * outside[m]
                if possible[m]:
                    if mines[row + m] > 0:
                        certain_safe = False
                    if safes[row + m] > 0:
                        certain_mine = False
            group = ids[row_start[i] + g]
            value /= sizes[row_start[i] + g] * z
            if certain_safe:
                value = 0.0
            elif certain_mine:
                value = 1.0
            for j in range(group_start[group], group_start[group + 1]):
                cell = group_cells[j]
                r, c = cell // shape_cols, cell % shape_cols
                probability[r, c] = value
                if certain_safe:
                    safe[r, c] = True
                elif certain_mine:
                    mine[r, c] = True
    if interior:
        weighted = 0.0
        weight = 0.0
        any_left = False
        all_full = True
        for t in range(totals.shape[0]):
            inside = total - t if t <= total else 0
            w = totals[t] * ways[t]
            weight += w
            weighted += w * inside
            if totals_ok[t] > 0 and fits[t]:
                if inside != 0:
                    any_left = True
                if inside != interior:
                    all_full = False
        if not weight > 0:
            return UNDERFLOW, probability, safe, mine, 0.0
        value = weighted / interior / weight
        if not any_left:
            value = 0.0
        elif all_full:
            value = 1.0
        for r in range(shape_rows):
            for c in range(shape_cols):
                if interior_mask[r, c]:
                    probability[r, c] = value
                    if not any_left:
                        safe[r, c] = True
                    elif all_full:
                        mine[r, c] = True
    for r in range(shape_rows):
        for c in range(shape_cols):
            if settled_mask[r, c]:
                probability[r, c] = 1.0
                mine[r, c] = True
    return SHARED, probability, safe, mine, log_layouts
