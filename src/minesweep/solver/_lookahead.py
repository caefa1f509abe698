"""The lookahead's guess in compiled code (numba): "50/50 or safe" and the weighed candidates.

:func:`minesweep.solver.policy.choose_guess`, with the lookahead on, asks
two things after the plain choice: is there a square that can be a mine only
as one side of a 50/50 to come (:func:`fifty_or_safe`), and which of the
safest candidates leaves the safest next guess (:func:`weighed_square`)?
Each asks the what-if kernels (:func:`._whatif.square_outcomes`,
:func:`._whatif.joint_chance`) a few dozen times. Asked from Python, every
question crossed into numba and back and built Python objects around the
answer; here the whole choice is one call, made by the Python policy and by
the compiled game (:mod:`._play`) alike, so the rule is written once.

The analysis's counts reach the kernels as one :class:`WhatIf` (the
frontier's arrays and each component's counts, flattened as
:mod:`._whatif` reads them). Python makes it from an analysis's workings
(:meth:`minesweep.solver.whatif.Lookahead.tables`); the compiled game makes
it from the arrays its own analysis counted (:func:`what_if`). The sort keys
are Python's ``round(value, 10)``, reproduced exactly (:func:`settled_key`),
so that either way picks the same square.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._jit import kernel
from ..squares import GLYPH_HIDDEN
from ._guesses import blank_chances, fifty_sides, fifty_structures
from ._whatif import ANSWERED, joint_chance, square_outcomes

__all__ = [
    "DEAD",
    "KEEP",
    "LIVING",
    "UNWEIGHED",
    "WEIGHED",
    "WhatIf",
    "fifty_or_safe",
    "pair_mask",
    "settled_key",
    "weighed_square",
    "what_if",
]

#: How :func:`weighed_square` chose: keep the plain choice (the only
#: candidate), the plain choice could not be weighed (keep it), a weighed
#: candidate (maybe the plain choice), the safest living square elsewhere
#: (every candidate was dead), or every candidate dead and no living square
#: found (keep the plain choice).
KEEP = 0
UNWEIGHED = 1
WEIGHED = 2
LIVING = 3
DEAD = 4


class WhatIf(NamedTuple):
    """What the what-if kernels read of one analysis (see :mod:`._whatif`)."""

    glyphs: np.ndarray
    probability: np.ndarray
    #: Squares certainly mines (the analysis's ``mines``), as a mask.
    sure: np.ndarray
    settled_mask: np.ndarray
    interior_mask: np.ndarray
    group_at: np.ndarray
    group_start: np.ndarray
    group_cells: np.ndarray
    witness_start: np.ndarray
    group_witnesses: np.ndarray
    targets: np.ndarray
    component_of: np.ndarray
    component_start: np.ndarray
    component_groups: np.ndarray
    lay_start: np.ndarray
    lay: np.ndarray
    size_start: np.ndarray
    sizes: np.ndarray
    mines_start: np.ndarray
    mines: np.ndarray
    log_tops: np.ndarray
    mine_count: int
    settled: int
    interior: int
    log_factorial: np.ndarray


@kernel(cache=True, part="solver", nogil=True)
def what_if(  # pragma: no cover - compiled
    view, probability, sure, settled_mask, interior_mask, group_at, group_start, group_cells,
    witness_start, group_witnesses, targets, component_start, component_groups, ids_start, ids,
    w_start, layouts, e_start, mines, mine_count, settled, interior, log_factorial,
):  # fmt: skip
    """A :class:`WhatIf` from :func:`._batch.count_components`'s output for every component.

    ``settled`` and ``interior`` count the squares of those masks. Each
    component's counts are divided by its largest layout count, as
    :class:`minesweep.solver.whatif.Lookahead` divides them; its rows are
    its groups in counting order.
    """
    count = component_start.shape[0] - 1
    component_of = np.full(group_start.shape[0] - 1, -1, np.int64)
    for k in range(count):
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            component_of[g] = k
    lay = np.empty(w_start[count])
    log_tops = np.empty(count)
    size_start = ids_start.copy()
    sizes = np.empty(ids.shape[0])
    flat = np.empty(e_start[count])
    for k in range(count):
        top = layouts[w_start[k] : w_start[k + 1]].max()
        log_tops[k] = np.log(top)
        for m in range(w_start[k], w_start[k + 1]):
            lay[m] = layouts[m] / top
        for j in range(e_start[k], e_start[k + 1]):
            flat[j] = mines[j] / top
        for j in range(ids_start[k], ids_start[k + 1]):
            g = ids[j]
            sizes[j] = group_start[g + 1] - group_start[g]
    return WhatIf(
        view, probability, sure, settled_mask, interior_mask, group_at, group_start, group_cells,
        witness_start, group_witnesses, targets, component_of, component_start,
        component_groups, w_start, lay, size_start, sizes, e_start[:count].copy(), flat, log_tops,
        mine_count, settled, interior, log_factorial,
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True)
def plain_what_if(  # pragma: no cover - compiled
    view, probability, mine, w_start, layouts, component_start, component_groups, group_start,
    group_cells, rest, interior, total, log_factorial,
):  # fmt: skip
    """:func:`what_if` made from the arrays :func:`._plain.plain_analysis` hands back on its
    plain path (``rest`` as it packs them): the one way the compiled game, the progress
    tie-break and the survival search make their tables."""
    (
        settled_mask, interior_mask, group_at, witness_start, group_witnesses, targets, ids_start,
        ids, e_start, e_mines, settled,
    ) = rest  # fmt: skip
    return what_if(
        view, probability, mine, settled_mask, interior_mask, group_at, group_start, group_cells,
        witness_start, group_witnesses, targets, component_start, component_groups, ids_start,
        ids, w_start, layouts, e_start, e_mines, total, settled, interior, log_factorial,
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True)
def outcomes(t, square, states_left, once=0):  # pragma: no cover - compiled
    """:func:`._whatif.square_outcomes` of flat ``square`` on ``t``.

    Returns ``(status, numbers, chances, safest, states_left)``; a mine the
    frontier set aside shows nothing (answered, no outcome). ``once`` is
    :func:`._whatif.square_outcomes`'s: with 1, the square's numbers are
    counted in one pass (the same outcomes up to rounding, the sums run in
    another order, at the cost of one count of the merged component
    instead of one for each number; the states charged are that pass's),
    which is how the lookahead asks; with 2, as the progress tie-break
    asks, the best safeties are exact only where they are 1.
    """
    cols = t.glyphs.shape[1]
    row, col = square // cols, square % cols
    if t.settled_mask[row, col]:
        return ANSWERED, np.zeros(0, np.int64), np.zeros(0), np.zeros(0), states_left
    return square_outcomes(
        row, col, t.glyphs, GLYPH_HIDDEN, 1.0 - t.probability[row, col], t.sure, t.settled_mask,
        t.interior_mask, t.group_at, t.group_start, t.group_cells, t.witness_start,
        t.group_witnesses, t.targets, t.component_of, t.component_start, t.component_groups,
        t.lay_start, t.lay, t.size_start, t.sizes, t.mines_start, t.mines, t.mine_count,
        t.settled, t.interior, t.log_factorial, states_left, once,
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True)
def joint(t, forced, is_mine, states_left):  # pragma: no cover - compiled
    """:func:`._whatif.joint_chance` on ``t``: ``(status, chance, states_left)``."""
    return joint_chance(
        forced, is_mine, t.sure, t.settled_mask, t.interior_mask, t.group_at, t.group_start,
        t.group_cells, t.witness_start, t.group_witnesses, t.targets, t.component_of,
        t.component_start, t.component_groups, t.lay_start, t.lay, t.log_tops, t.mine_count,
        t.settled, t.interior, t.log_factorial, states_left,
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True, inline="always")
def _split(a):  # pragma: no cover - compiled
    """Dekker's split of ``a`` into two halves of 26 bits each."""
    t = 134217729.0 * a  # 2**27 + 1
    high = t - (t - a)
    return high, a - high


@kernel(cache=True, part="solver", nogil=True)
def settled_key(value):  # pragma: no cover - compiled
    """``round(value, 10)`` as Python rounds it, as the integer count of 1e-10s.

    Python rounds the exact binary value correctly (ties to even); a plain
    ``rint(value * 1e10)`` rounds the product first and can land on the
    other side of a half. The product's rounding error (Dekker's exact
    product) settles those cases. For ``value`` in [0, 1], where it is used.
    """
    scale = 1e10
    product = value * scale
    a_high, a_low = _split(value)
    b_high, b_low = _split(scale)
    error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
    whole = np.rint(product)
    off = product - whole
    if off == 0.5 and error > 0:
        whole += 1.0
    elif off == -0.5 and error < 0:
        whole -= 1.0
    return np.int64(whole)


@kernel(cache=True, part="solver", nogil=True)
def pair_mask(revealed, doubtful):  # pragma: no cover - compiled
    """The squares with a pair or 2x2 block of 50/50s that could form around them.

    A neighbour in doubt beside, above or below with no revealed square in
    the two lines past the pair's ends, or a 2x2 block of squares in doubt
    with no revealed square at its corners (off the board counts as neither).
    :func:`.fiftyfifty.could_pair` is this; :func:`._guesses.fifty_structures`
    then finds the structures one square at a time. Whole-board array
    operations, not a loop per square: until the kernels are compiled (the
    first minute after an install) they run interpreted, and numpy's
    slices keep that cheap.
    """
    rows, cols = revealed.shape
    shown = np.zeros((rows + 4, cols + 4), np.bool_)
    shown[2 : rows + 2, 2 : cols + 2] = revealed
    open_ = np.zeros((rows + 4, cols + 4), np.bool_)
    open_[2 : rows + 2, 2 : cols + 2] = doubtful
    found = np.zeros((rows, cols), np.bool_)
    # A pair: the partner beside (or above, below), walls in the two lines past its ends.
    for direction in range(4):
        dr = (0, 0, 1, -1)[direction]
        dc = (1, -1, 0, 0)[direction]
        along = dr + dc
        walled = np.zeros((rows, cols), np.bool_)
        for end in (min(0, along) - 1, max(0, along) + 1):
            for side in (-1, 0, 1):
                r0, c0 = (2 + end, 2 + side) if dr else (2 + side, 2 + end)
                walled = walled | shown[r0 : r0 + rows, c0 : c0 + cols]
        found = found | (open_[2 + dr : 2 + dr + rows, 2 + dc : 2 + dc + cols] & ~walled)
    # A block: its four squares in doubt, no revealed square at its corners.
    for corner in range(4):
        top = -1 if corner < 2 else 0
        left = -1 if corner % 2 == 0 else 0
        inside = open_[2 + top : 2 + top + rows, 2 + left : 2 + left + cols].copy()
        cornered = np.zeros((rows, cols), np.bool_)
        for dr in (0, 1):
            for dc in (0, 1):
                r0, c0 = 2 + top + dr, 2 + left + dc
                inside = inside & open_[r0 : r0 + rows, c0 : c0 + cols]
        for dr in (-1, 2):
            for dc in (-1, 2):
                r0, c0 = 2 + top + dr, 2 + left + dc
                cornered = cornered | shown[r0 : r0 + rows, c0 : c0 + cols]
        found = found | (inside & ~cornered)
    return found


@kernel(cache=True, part="solver", nogil=True)
def _neighbour_counts(mask):  # pragma: no cover - compiled
    """How many of each square's eight neighbours are in ``mask`` (whole-board slices)."""
    rows, cols = mask.shape
    padded = np.zeros((rows + 2, cols + 2), np.int64)
    for r in range(rows):
        padded[r + 1, 1 : cols + 1] = mask[r]
    total = np.zeros((rows, cols), np.int64)
    for dr in range(3):
        for dc in range(3):
            if dr != 1 or dc != 1:
                total += padded[dr : dr + rows, dc : dc + cols]
    return total


@kernel(cache=True, part="solver", nogil=True)
def _revealed_and_doubtful(view, risk):  # pragma: no cover - compiled
    """The revealed squares, and those in doubt (hidden, not known mines)."""
    return view < GLYPH_HIDDEN, np.isfinite(risk)


@kernel(cache=True, part="solver", nogil=True)
def risk_map(view, probability, sure):  # pragma: no cover - compiled
    """:func:`.guess.risk_of`: the probability, infinite where revealed or certainly a mine."""
    risk = probability.copy()
    rows, cols = view.shape
    for r in range(rows):
        for c in range(cols):
            if np.isnan(risk[r, c]) or sure[r, c]:
                risk[r, c] = np.inf
    return risk


@kernel(cache=True, part="solver", nogil=True)
def fifty_or_safe(  # pragma: no cover - compiled
    t, pair_missing, block_missing, states_left
):  # fmt: skip
    """A square that can be a mine only as one side of a 50/50 to come (flat), or -1.

    :func:`.fiftyfifty.fifty_fifty_or_safe` explains the rule; this is it.
    The squares on the frontier with a structure around them are tried
    safest first (board order among equals); the first whose mine layouts
    all make one of its structures is the answer. ``states_left`` is the
    joint questions' budget.
    """
    view = t.glyphs
    rows, cols = view.shape
    risk = risk_map(view, t.probability, t.sure)
    revealed, doubtful = _revealed_and_doubtful(view, risk)
    pairable = pair_mask(revealed, doubtful)
    next_to_revealed = _neighbour_counts(revealed)
    cells = [0]
    cells.pop()
    chances = [0.0]
    chances.pop()
    for r in range(rows):
        for c in range(cols):
            if (
                doubtful[r, c] and risk[r, c] > 0 and not revealed[r, c]
                and next_to_revealed[r, c] > 0 and pairable[r, c]
            ):  # fmt: skip
                cells.append(r * cols + c)
                chances.append(risk[r, c])
    if not cells:
        return -1
    order = np.argsort(np.array(chances), kind="mergesort")
    flat_cells = np.array(cells, np.int64)[order]
    mines_left = t.mine_count - _count(t.sure)
    owner, start, split, squares = fifty_sides(
        revealed, doubtful, risk, flat_cells, min(pair_missing, mines_left - 1),
        min(block_missing, mines_left - 2),
    )  # fmt: skip
    for i in range(owner.shape[0]):
        square = flat_cells[owner[i]]
        chance = risk[square // cols, square % cols]
        status, forming, states_left = _joint_of(
            t, squares, start[i], split[i], start[i + 1], states_left
        )
        if status != ANSWERED or forming < chance * (1.0 - 1e-9):
            continue  # a mine at the square need not make this 50/50
        return square
    return -1


@kernel(cache=True, part="solver", nogil=True)
def _count(mask):  # pragma: no cover - compiled
    n = 0
    for value in mask.ravel():
        if value:
            n += 1
    return n


@kernel(cache=True, part="solver", nogil=True)
def _joint_of(t, squares, a, b, e, states_left):  # pragma: no cover - compiled
    """:func:`joint` of ``squares[a:b]`` all mines and ``squares[b:e]`` all safe."""
    forced = squares[a:e].copy()
    is_mine = np.zeros(e - a, np.bool_)
    is_mine[: b - a] = True
    return joint(t, forced, is_mine, states_left)


@kernel(cache=True, part="solver", nogil=True)
def _factor(  # pragma: no cover - compiled
    t, revealed, doubtful, risk, square, limits, weight, floor, ask, states_left
):  # fmt: skip
    """:meth:`.fiftyfifty.FiftyFifties.factor` of ``square``: ``(factor, states_left)``.

    With ``ask`` False, the bound that needs no counting (each structure's
    chance bounded by its least likely square).
    """
    cols = revealed.shape[1]
    row, col = square // cols, square % cols
    pairs, start, split, squares, bounds = fifty_structures(
        revealed, doubtful, risk, row, col, limits[0], limits[1]
    )
    pair_sum = 0.0
    block_max = 0.0
    for i in range(bounds.shape[0]):
        chance = bounds[i]
        if ask:
            chance = 0.0
            if not bounds[i] < floor:
                status, found, states_left = _joint_of(
                    t, squares, start[i], split[i], start[i + 1], states_left
                )
                if status == ANSWERED:
                    chance = found
        if i < pairs:
            pair_sum += chance
        else:
            block_max = max(block_max, chance)
    influence = pair_sum + block_max
    safe = 1.0 - risk[row, col]
    return 1.0 + weight * min(influence, safe, 1.0 - safe) / safe, states_left


@kernel(cache=True, part="solver", nogil=True)
def _mines_sure(risk):  # pragma: no cover - compiled
    """``risk`` with 1 where it is infinite: revealed squares count as mines for a blank."""
    out = risk.copy()
    rows, cols = out.shape
    for r in range(rows):
        for c in range(cols):
            if np.isinf(out[r, c]):
                out[r, c] = 1.0
    return out


@kernel(cache=True, part="solver", nogil=True)
def candidates(view, risk, own, cut, interior_count, most):  # pragma: no cover - compiled
    """The lookahead's candidates (flat), ``own`` first: see :func:`.policy.lookahead_guess`."""
    rows, cols = view.shape
    hidden = np.zeros((rows, cols), np.bool_)
    doubtful = np.zeros((rows, cols), np.bool_)
    lowest = np.inf
    for r in range(rows):
        for c in range(cols):
            hidden[r, c] = view[r, c] >= GLYPH_HIDDEN
            doubtful[r, c] = np.isfinite(risk[r, c])
            lowest = min(lowest, risk[r, c])
    revealed = ~hidden
    seen = revealed | (_neighbour_counts(revealed) > 0)
    frontier = doubtful & seen
    next_to_frontier = _neighbour_counts(frontier)
    least = (1.0 - lowest) * cut
    blank = blank_chances(_mines_sure(risk))
    near = [0]
    near.pop()
    near_keys = [0]
    near_keys.pop()
    chosen = np.zeros(rows * cols, np.bool_)
    for r in range(rows):
        for c in range(cols):
            good = (1.0 - risk[r, c]) >= least
            if frontier[r, c] and good:
                chosen[r * cols + c] = True
            elif doubtful[r, c] and not seen[r, c] and good and next_to_frontier[r, c] > 0:
                near.append(r * cols + c)
                near_keys.append(-settled_key(blank[r, c]))
    # Likeliest blank first, then board order (the sort is stable).
    by_blank = np.argsort(np.array(near_keys, np.int64), kind="mergesort")
    for i in range(min(interior_count, len(near))):
        chosen[near[by_blank[i]]] = True
    chosen[own] = False
    others = np.flatnonzero(chosen)
    keys = np.empty(others.shape[0], np.int64)
    for i in range(others.shape[0]):
        keys[i] = settled_key(risk[others[i] // cols, others[i] % cols])
    others = others[np.argsort(keys, kind="mergesort")]
    found = np.empty(min(most, others.shape[0] + 1), np.int64)
    found[0] = own
    found[1:] = others[: found.shape[0] - 1]
    return found


@kernel(cache=True, part="solver", nogil=True)
def weighed_square(  # pragma: no cover - compiled
    t, own, cut, interior_count, most, dead_last, living_search, long_term, weight,
    pair_missing, block_missing, floor, budget,
):  # fmt: skip
    """The lookahead's choice, :func:`.policy.lookahead_guess`'s rule.

    Returns ``(how, square, survival, factor)``: ``how`` is :data:`KEEP`
    (``own`` the only candidate), :data:`UNWEIGHED` (``own`` could not be
    weighed: keep it), :data:`WEIGHED` (``square`` scored best: ``survival``,
    its chance of surviving this guess and the next, times its 50/50
    ``factor``), :data:`LIVING` (every candidate was dead: ``square`` is
    the safest living one) or :data:`DEAD` (and none was found: keep
    ``own``). The outcomes and the joint questions each spend at most
    ``budget`` states.
    """
    view = t.glyphs
    rows, cols = view.shape
    risk = risk_map(view, t.probability, t.sure)
    found = candidates(view, risk, own, cut, interior_count, most)
    if found.shape[0] == 1 and not dead_last:
        return KEEP, own, 0.0, 1.0
    revealed, doubtful = _revealed_and_doubtful(view, risk)
    mines_left = t.mine_count - _count(t.sure)
    limits = (min(pair_missing, mines_left - 1), min(block_missing, mines_left - 2))
    outcome_states = budget
    joint_states = budget
    best = -1.0
    best_square = -1
    survival = 0.0
    best_factor = 1.0
    same = 1e-12  # .guess.SAME
    for index in range(found.shape[0]):
        square = found[index]
        r, c = square // cols, square % cols
        safe = 1.0 - risk[r, c]
        # A score is at most the square's safety times its 50/50 factor,
        # whose bound (from single squares' chances) costs no counting.
        bound = 1.0
        if long_term and safe > 0:
            bound, joint_states = _factor(
                t, revealed, doubtful, risk, square, limits, weight, floor, False, joint_states
            )
        if best_square >= 0 and safe * bound < best - same:
            continue
        factor = 1.0
        if bound > 1.0:
            factor, joint_states = _factor(
                t, revealed, doubtful, risk, square, limits, weight, floor, True, joint_states
            )
            if best_square >= 0 and safe * factor < best - same:
                continue
        status, _, chances, safest, outcome_states = outcomes(t, square, outcome_states, 1)
        if status != ANSWERED:
            if index == 0:
                return UNWEIGHED, own, 0.0, 1.0
            continue  # no cheap answer: the candidate is left out
        if dead_last and chances.shape[0] == 1:
            continue  # dead: it can wait
        plain = 0.0
        for i in range(chances.shape[0]):
            plain += chances[i] * safest[i]
        if best_square < 0 or factor * plain > best + same:
            best = factor * plain
            best_square = square
            survival, best_factor = plain, factor
    if best_square >= 0:
        return WEIGHED, best_square, survival, best_factor
    # Every candidate dead: the safest living square elsewhere, ties to the
    # likelier blank, then board order.
    blank = blank_chances(_mines_sure(risk))
    asked = np.zeros(rows * cols, np.bool_)
    for square in found:
        asked[square] = True
    rest = [
        r * cols + c
        for r in range(rows)
        for c in range(cols)
        if doubtful[r, c] and not asked[r * cols + c]
    ]
    by_blank = np.empty(len(rest), np.int64)
    by_risk = np.empty(len(rest), np.int64)
    for i in range(len(rest)):
        by_blank[i] = -settled_key(blank[rest[i] // cols, rest[i] % cols])
        by_risk[i] = settled_key(risk[rest[i] // cols, rest[i] % cols])
    # Sorted by the last key first, each sort stable: risk, then blank, then board order.
    order = np.argsort(by_blank, kind="mergesort")
    order = order[np.argsort(by_risk[order], kind="mergesort")]
    for i in range(min(living_search, order.shape[0])):
        square = rest[order[i]]
        status, _, chances, _, outcome_states = outcomes(t, square, outcome_states, 1)
        if status == ANSWERED and chances.shape[0] > 1:
            return LIVING, square, 0.0, 1.0
    return DEAD, own, 0.0, 1.0
