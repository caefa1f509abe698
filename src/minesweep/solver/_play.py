"""A game played by the plain policy in one compiled call (numba).

Without the lookahead (``PolicyConfig(lookahead=False)``, the ``fast``
strength), a game is certain moves, an analysis when they stall, and a
guess when nothing is certain. Run from Python, each of those steps crosses
into numba several times and builds Python objects around the kernels'
arrays; measured, four fifths of a fast game was that glue. Here the
whole loop runs inside one kernel, made of the solver's own kernels, none
copied:

- certain moves: :func:`._deduce.play_certain_moves`;
- the analysis: :func:`._frontier.frontier_arrays`, then
  :func:`._batch.count_components` for every component, then
  :func:`._combine.combine`, the calls :func:`minesweep.solver.analyze`
  makes on its plain path, on the same arrays, so the probabilities are the
  same to the bit;
- the guess, as :func:`.policy.choose_guess` makes it without the
  lookahead: a forced 50/50 (:func:`.fiftyfifty.forced_fifty_fifty`'s
  test), else the lowest risk, ties going to the likeliest blank and then
  to board order.

What the kernel does not do, it hands back: it returns :data:`TO_PYTHON`
with the position it reached (certain moves played), and the caller takes
the next step in Python as before, then calls back in with the guess
played. It hands back when the analysis leaves its plain path (a count
that overflows, a component counted in pieces, too many components, a
sum that underflows, a view no layout fits), and before a guess that an
exhaustive search may make (few enough layouts for the endgame search, or
a part of the board nothing else can inform, for the isolated search).
Those are rare and costly anyway; the rest of a game is one call.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import kernel
from ..squares import GLYPH_HIDDEN, KNOWN_OPEN, MAX_NUMBER
from ._batch import COUNTED, count_components
from ._combine import SHARED, combine
from ._deduce import play_certain_moves
from ._frontier import OK, frontier_arrays
from .counting import COUNTING_METHODS, CountingMethods, plain_width
from .errors import MAX_COEFFICIENTS
from .guess import PolicyConfig
from .tilted import TINY

__all__ = ["LOST", "TO_PYTHON", "WON", "knobs", "play_plain"]

#: How :func:`play_plain` ended: every safe square open,
WON = 0
#: a guess hit a mine,
LOST = 1
#: or the next step is the Python policy's (the position is as the kernel left it).
TO_PYTHON = 2

#: Scores closer than this are the same score (as in :mod:`.policy`).
_SAME = 1e-12


def knobs(
    policy: PolicyConfig, methods: CountingMethods = COUNTING_METHODS
) -> tuple[float, float, float, int, float, int, int, float, int]:
    """The tuning :func:`play_plain` takes after its position: ``policy``'s and the analysis's.

    The searches' bounds are the policy's own tests (:func:`.policy.choose_guess`,
    :func:`.endgame.isolated_guess`): a log of layouts, with the same 1e-9.
    """
    return (
        policy.tolerance,
        policy.opening_weight,
        math.log(policy.endgame_layouts) + 1e-9,
        policy.endgame_squares,
        math.log(policy.isolated_layouts) + 1e-9,
        plain_width(methods),
        MAX_COEFFICIENTS,
        TINY,
        methods.plain_components,
    )


@kernel(cache=True, part="autoplay", nogil=True)
def _analysis(view, total, wide, max_coefficients, tiny, plain_components):  # pragma: no cover
    """The plain path of :func:`minesweep.solver.analyze`, or ``ok`` False off it.

    Returns ``(ok, probability, safe, mine, log_layouts, w_start, layouts,
    component_start, component_groups, group_start, group_cells)``.
    """
    (
        problem, _row, _col, settled_mask, _witness_rows, _witness_cols, targets, interior_mask,
        _group_at, group_start, group_cells, witness_start, group_witnesses, component_start,
        component_groups,
    ) = frontier_arrays(view, True)  # fmt: skip
    rows, cols = view.shape
    probability = np.full((rows, cols), np.nan)
    safe = np.zeros((rows, cols), np.bool_)
    mine = np.zeros((rows, cols), np.bool_)
    w_start = np.zeros(1, np.int64)
    layouts = np.zeros(0)
    nothing = (
        False, probability, safe, mine, 0.0, w_start, layouts, component_start,
        component_groups, group_start, group_cells,
    )  # fmt: skip
    if problem != OK:
        return nothing
    settled = 0
    interior = 0
    for r in range(rows):
        for c in range(cols):
            if settled_mask[r, c]:
                settled += 1
            if interior_mask[r, c]:
                interior += 1
    count = component_start.shape[0] - 1
    if settled > total or count > plain_components:
        return nothing
    group_sizes = group_start[1:] - group_start[:-1]
    status, _states, ids_start, ids, w_start, layouts, e_start, mines, safes = count_components(
        witness_start, group_witnesses, group_sizes, targets, component_start, component_groups,
        np.arange(count), wide, -1, max_coefficients,
    )  # fmt: skip
    for k in range(count):
        if status[k] != COUNTED:
            return nothing
        feasible = False
        for m in range(w_start[k], w_start[k + 1]):
            if layouts[m] != 0:
                feasible = True
        if not feasible:
            return nothing
    sizes = np.empty(ids.shape[0])
    for j in range(ids.shape[0]):
        sizes[j] = group_sizes[ids[j]]
    shared, probability, safe, mine, log_layouts = combine(
        rows, cols, total - settled, interior, interior_mask, settled_mask, w_start, layouts,
        np.zeros(count), ids_start, ids, sizes, e_start, mines, safes, group_start, group_cells,
        tiny,
    )  # fmt: skip
    if shared != SHARED:
        return nothing
    return (
        True, probability, safe, mine, log_layouts, w_start, layouts, component_start,
        component_groups, group_start, group_cells,
    )  # fmt: skip


@kernel(cache=True, part="autoplay", nogil=True)
def _forced_fifty_fifty(view, probability, mine):  # pragma: no cover - compiled
    """:func:`.fiftyfifty.forced_fifty_fifty`'s square as a flat index, or -1."""
    rows, cols = view.shape
    halves = np.empty(64, np.int64)
    n = 0
    for r in range(rows):
        for c in range(cols):
            if abs(probability[r, c] - 0.5) < 1e-12:
                if n == 64:
                    return -1  # more than 64 halves: the Python test gives up too
                halves[n] = r * cols + c
                n += 1
    if n < 2:
        return -1
    for i in range(n):
        r1, c1 = halves[i] // cols, halves[i] % cols
        for j in range(i + 1, n):
            r2, c2 = halves[j] // cols, halves[j] % cols
            if max(abs(r1 - r2), abs(c1 - c2)) > 2:
                continue
            informed = False
            alike = True
            # Every square near either: a hidden one that is not a certain
            # mine might still inform; a number must touch both or neither.
            for rr in range(max(0, min(r1, r2) - 1), min(rows, max(r1, r2) + 2)):
                for cc in range(max(0, min(c1, c2) - 1), min(cols, max(c1, c2) + 2)):
                    near1 = max(abs(rr - r1), abs(cc - c1)) == 1
                    near2 = max(abs(rr - r2), abs(cc - c2)) == 1
                    if not (near1 or near2):
                        continue
                    if (rr == r1 and cc == c1) or (rr == r2 and cc == c2):
                        continue
                    if view[rr, cc] >= GLYPH_HIDDEN:
                        if not mine[rr, cc]:
                            informed = True
                    elif view[rr, cc] <= MAX_NUMBER and near1 != near2:
                        alike = False
            if not informed and alike:
                return halves[i]
    return -1


@kernel(cache=True, part="autoplay", nogil=True)
def _isolated_part(  # pragma: no cover - compiled
    view, mine, w_start, layouts, component_start, component_groups, group_start, group_cells,
    most,
):  # fmt: skip
    """Whether :func:`.endgame.isolated_guess` would search a part (its cheap tests only).

    A component with one possible count of mines, at most ``most`` (a log)
    layouts, and no hidden square outside it next to it but certain mines.
    ``view`` is stuck: no square is certainly safe.
    """
    rows, cols = view.shape
    inside = np.full(rows * cols, -1, np.int64)
    for k in range(component_start.shape[0] - 1):
        possible = -1
        several = False
        for m in range(w_start[k], w_start[k + 1]):
            if layouts[m] > 0:
                if possible >= 0:
                    several = True
                possible = m
        if several or possible < 0 or math.log(layouts[possible]) > most:
            continue
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                inside[cell] = k
        open_to_outside = False
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                r, c = cell // cols, cell % cols
                for rr in range(max(0, r - 1), min(rows, r + 2)):
                    for cc in range(max(0, c - 1), min(cols, c + 2)):
                        if (
                            view[rr, cc] >= GLYPH_HIDDEN
                            and inside[rr * cols + cc] != k
                            and not mine[rr, cc]
                        ):
                            open_to_outside = True
        if not open_to_outside:
            return True
    return False


@kernel(cache=True, part="autoplay", nogil=True)
def _plain_guess(probability, tolerance, opening_weight):  # pragma: no cover - compiled
    """:func:`.policy.choose_guess`'s last step as a flat index: the lowest risk, and
    among squares within ``tolerance`` of it the likeliest blank, then board order."""
    rows, cols = probability.shape
    lowest = np.inf
    for r in range(rows):
        for c in range(cols):
            p = probability[r, c]
            if not np.isnan(p) and p < lowest:
                lowest = p
    best = -1
    best_score = -np.inf
    scores = np.empty(rows * cols)
    chosen = np.empty(rows * cols, np.int64)
    n = 0
    for r in range(rows):
        for c in range(cols):
            p = probability[r, c]
            if np.isnan(p) or not p <= lowest + tolerance:
                continue
            # The chance of a blank: the product of the neighbours' safety
            # (1 off the board and where revealed), in numpy's order.
            blank = 1.0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    rr = r + dr
                    cc = c + dc
                    if 0 <= rr < rows and 0 <= cc < cols and not np.isnan(probability[rr, cc]):
                        blank *= 1.0 - probability[rr, cc]
                    else:
                        blank *= 1.0
            score = (1.0 - p) * (1.0 + opening_weight * blank)
            scores[n] = score
            chosen[n] = r * cols + c
            n += 1
            best_score = max(best_score, score)
    for i in range(n):
        if scores[i] >= best_score - _SAME:
            best = chosen[i]
            break
    return best


@kernel(cache=True, part="autoplay", nogil=True)
def play_plain(  # pragma: no cover - compiled
    numbers, mines, total, state, opens, sure, tolerance, opening_weight, endgame_log,
    endgame_squares, isolated_log, wide, max_coefficients, tiny, plain_components,
):  # fmt: skip
    """Play on from ``state`` with the plain policy: ``(outcome, guesses made)``.

    ``opens`` and ``sure`` are squares (flat indices) known safe and known
    mines, as :func:`.certain.play_until_stuck` takes them; ``mines`` (the
    field) is read only to tell whether a guess hit one. The knobs are
    :class:`.guess.PolicyConfig`'s: ``endgame_log`` and ``isolated_log`` are
    the logs of its layout bounds (plus the policy's 1e-9), past which the
    searches cannot run. ``state`` is updated in place; the outcome is
    :data:`WON`, :data:`LOST` or :data:`TO_PYTHON`.
    """
    rows, cols = numbers.shape
    guesses = 0
    while True:
        if play_certain_moves(numbers, total, state, opens, sure) == 0:
            return WON, guesses
        view = np.full((rows, cols), GLYPH_HIDDEN, np.uint8)
        for r in range(rows):
            for c in range(cols):
                if state[r, c] == KNOWN_OPEN:
                    view[r, c] = numbers[r, c]
        (
            ok, probability, safe, mine, log_layouts, w_start, layouts, component_start,
            component_groups, group_start, group_cells,
        ) = _analysis(view, total, wide, max_coefficients, tiny, plain_components)  # fmt: skip
        if not ok:
            return TO_PYTHON, guesses
        safe_count = 0
        mine_count = 0
        for r in range(rows):
            for c in range(cols):
                if safe[r, c]:
                    safe_count += 1
                if mine[r, c]:
                    mine_count += 1
        sure = np.empty(mine_count, np.int64)
        n = 0
        for r in range(rows):
            for c in range(cols):
                if mine[r, c]:
                    sure[n] = r * cols + c
                    n += 1
        if safe_count:
            opens = np.empty(safe_count, np.int64)
            n = 0
            for r in range(rows):
                for c in range(cols):
                    if safe[r, c]:
                        opens[n] = r * cols + c
                        n += 1
            continue
        if log_layouts <= endgame_log:
            # The endgame search may run: unless too many squares are in doubt.
            doubtful = 0
            for r in range(rows):
                for c in range(cols):
                    if view[r, c] >= GLYPH_HIDDEN and not mine[r, c]:
                        doubtful += 1
            if doubtful <= endgame_squares:
                return TO_PYTHON, guesses
        guess = _forced_fifty_fifty(view, probability, mine)
        if guess < 0:
            if _isolated_part(
                view, mine, w_start, layouts, component_start, component_groups, group_start,
                group_cells, isolated_log,
            ):  # fmt: skip
                return TO_PYTHON, guesses
            guess = _plain_guess(probability, tolerance, opening_weight)
        guesses += 1
        if mines[guess // cols, guess % cols]:
            return LOST, guesses
        opens = np.full(1, guess, np.int64)
