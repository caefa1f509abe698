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

  test), an exhaustive search of the endgame or of a part of the board
  nothing else can inform (:func:`.endgame.endgame_guess`,
  :func:`.endgame.isolated_guess`: the same layouts enumerated by
  :func:`._search._layouts`, searched by :func:`._search._search`), else
  the lowest risk, ties going to the likeliest blank and then to board
  order.

What the kernel does not do, it hands back: it returns :data:`TO_PYTHON`
with the position it reached (certain moves played), and the caller takes
the next step in Python as before, then calls back in with the guess
played. It hands back only when the analysis leaves its plain path (a
count that overflows, a component counted in pieces, too many components,
a sum that underflows, a view no layout fits), which is rare; the rest of
a game is one call.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._jit import kernel
from .._vector_kernels import lay_field
from ..squares import GLYPH_HIDDEN, KNOWN_OPEN, MAX_NUMBER, OUTCOME_MINE
from ._batch import COUNTED, count_components
from ._combine import SHARED, combine
from ._deduce import play_certain_moves
from ._frontier import OK, frontier_arrays
from ._search import TOO_LARGE, _layouts, _search
from .counting import COUNTING_METHODS, CountingMethods, plain_width
from .errors import MAX_COEFFICIENTS
from .guess import PolicyConfig
from .tilted import TINY

__all__ = ["LOST", "TO_PYTHON", "WON", "Knobs", "knobs", "play_plain", "play_seed"]

#: How :func:`play_plain` ended: every safe square open,
WON = 0
#: a guess hit a mine,
LOST = 1
#: or the next step is the Python policy's (the position is as the kernel left it).
TO_PYTHON = 2

#: Scores closer than this are the same score (as in :mod:`.policy`).
_SAME = 1e-12


class Knobs(NamedTuple):
    """The tuning :func:`play_plain` takes after its position: the policy's and the analysis's.

    The searches' bounds are the policy's own tests (:func:`.policy.choose_guess`,
    :func:`.endgame.isolated_guess`): a log of layouts, with the same 1e-9.
    """

    tolerance: float
    opening_weight: float
    endgame_log: float
    endgame_squares: int
    endgame_layouts: int
    isolated_log: float
    isolated_layouts: int
    nodes: int
    wide: int
    max_coefficients: int
    tiny: float
    plain_components: int


def knobs(policy: PolicyConfig, methods: CountingMethods = COUNTING_METHODS) -> Knobs:
    """:class:`Knobs` of a policy and the analysis's counting methods."""
    return Knobs(
        policy.tolerance,
        policy.opening_weight,
        math.log(policy.endgame_layouts) + 1e-9,
        policy.endgame_squares,
        policy.endgame_layouts,
        math.log(policy.isolated_layouts) + 1e-9,
        policy.isolated_layouts,
        policy.endgame_nodes,
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
def _zobrist(count, salt):  # pragma: no cover - compiled
    """Two random 64-bit words per layout (splitmix64), fixed for a count.

    :func:`._search.search` draws its keys with numpy's generator; the
    search's answer does not depend on them (they only name sets of
    layouts, which two keys confuse only by a 128-bit collision).
    """
    keys = np.empty(2 * count, np.uint64)
    state = np.uint64(count) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(salt)
    for i in range(2 * count):
        state += np.uint64(0x9E3779B97F4A7C15)
        z = state
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        keys[i] = z ^ (z >> np.uint64(31))
    return keys[:count], keys[count:]


@kernel(cache=True, part="autoplay", nogil=True)
def _search_part(view, squares, known, mines, limit, nodes):  # pragma: no cover - compiled
    """:func:`.endgame._search_part`'s square (a flat index), or -1 where it finds none.

    ``squares`` (flat indices, any order) hold ``mines`` mines between
    them; ``known`` (flat, one a square) are certain mines; nothing else
    hidden touches a number next to ``squares``. The layouts are enumerated
    by :func:`._search._layouts` and searched by :func:`._search._search`,
    as the Python function does, on the same arrays.
    """
    rows, cols = view.shape
    size = rows * cols
    cells = np.sort(squares)
    n = cells.shape[0]
    doubtful = np.zeros(size, np.bool_)
    for cell in cells:
        doubtful[cell] = True
    # The numbers next to a square in doubt, in board order; each needs its
    # count, less the known mines it touches, among those squares.
    near_number = np.zeros(size, np.bool_)
    for cell in cells:
        r, c = cell // cols, cell % cols
        for rr in range(max(0, r - 1), min(rows, r + 2)):
            for cc in range(max(0, c - 1), min(cols, c + 2)):
                if (rr != r or cc != c) and view[rr, cc] <= MAX_NUMBER:
                    near_number[rr * cols + cc] = True
    need = np.zeros(size, np.int64)
    free = np.zeros(size, np.int64)
    member = np.zeros((size, 8), np.int64)  # each number's squares in doubt
    constraints = 0
    for index in range(size):
        if not near_number[index]:
            continue
        r, c = index // cols, index % cols
        value = np.int64(view[r, c])
        count = 0
        for rr in range(max(0, r - 1), min(rows, r + 2)):
            for cc in range(max(0, c - 1), min(cols, c + 2)):
                if rr == r and cc == c:
                    continue
                other = rr * cols + cc
                if doubtful[other]:
                    member[constraints, count] = other
                    count += 1
                elif known[other]:
                    value -= 1
        need[constraints] = value
        free[constraints] = count
        if value < 0 or value > count:
            return -1  # no layout
        constraints += 1
    # Each square's numbers, in the numbers' order; squares next to one first.
    touching = np.zeros(n, np.int64)
    position = np.full(size, -1, np.int64)
    for i in range(n):
        position[cells[i]] = i
    for k in range(constraints):
        for j in range(free[k]):
            touching[position[member[k, j]]] += 1
    order = np.empty(n, np.int64)
    p = 0
    for i in range(n):
        if touching[i] > 0:
            order[p] = i
            p += 1
    for i in range(n):
        if touching[i] == 0:
            order[p] = i
            p += 1
    touch_start = np.zeros(n + 1, np.int64)
    for p in range(n):
        touch_start[p + 1] = touch_start[p] + touching[order[p]]
    touch = np.empty(touch_start[n], np.int64)
    filled = touch_start[:-1].copy()
    rank = np.empty(n, np.int64)
    for p in range(n):
        rank[order[p]] = p
    for k in range(constraints):
        for j in range(free[k]):
            p = rank[position[member[k, j]]]
            touch[filled[p]] = k
            filled[p] += 1
    found, complete = _layouts(
        touch_start, touch, need[:constraints].copy(), free[:constraints].copy(), mines, limit
    )
    count = found.shape[0]
    if not complete or count == 0:
        return -1
    # Mines by layout over the board, and one padding square never a mine.
    layouts = np.zeros((count, size + 1), np.bool_)
    for cell in range(size):
        if known[cell]:
            layouts[:, cell] = True
    for p in range(n):
        layouts[:, cells[order[p]]] = found[:, p]
    shown = np.zeros((count, n), np.int64)
    for i in range(n):
        r, c = cells[i] // cols, cells[i] % cols
        for rr in range(max(0, r - 1), min(rows, r + 2)):
            for cc in range(max(0, c - 1), min(cols, c + 2)):
                if rr != r or cc != c:
                    for layout in range(count):
                        if layouts[layout, rr * cols + cc]:
                            shown[layout, i] += 1
        for layout in range(count):
            if layouts[layout, cells[i]]:
                shown[layout, i] = OUTCOME_MINE
    key_a, key_b = _zobrist(count, 0)
    chance, square = _search(shown, key_a, key_b, nodes)
    if chance == TOO_LARGE:
        return -1
    if square < 0:
        # One layout left: nothing to guess, but a safe square to open.
        for i in range(n):
            if not layouts[0, cells[i]]:
                return cells[i]
        return -1
    return cells[square]


@kernel(cache=True, part="autoplay", nogil=True)
def _endgame(view, mine, total, squares_most, limit, nodes):  # pragma: no cover - compiled
    """:func:`.endgame.endgame_guess`'s square (flat), or -1: the whole board searched."""
    rows, cols = view.shape
    size = rows * cols
    known = np.zeros(size, np.bool_)
    known_count = 0
    hidden = np.empty(size, np.int64)
    n = 0
    for r in range(rows):
        for c in range(cols):
            if mine[r, c]:
                known[r * cols + c] = True
                known_count += 1
            elif view[r, c] >= GLYPH_HIDDEN:
                hidden[n] = r * cols + c
                n += 1
    if n == 0 or n > squares_most or known_count > total:
        return -1
    # A number with no doubt around it must see just its known mines.
    for r in range(rows):
        for c in range(cols):
            if view[r, c] > MAX_NUMBER:
                continue
            doubt = 0
            seen = 0
            for rr in range(max(0, r - 1), min(rows, r + 2)):
                for cc in range(max(0, c - 1), min(cols, c + 2)):
                    if rr == r and cc == c:
                        continue
                    if known[rr * cols + cc]:
                        seen += 1
                    elif view[rr, cc] >= GLYPH_HIDDEN:
                        doubt += 1
            if doubt == 0 and seen != view[r, c]:
                return -1
    return _search_part(view, hidden[:n], known, total - known_count, limit, nodes)


@kernel(cache=True, part="autoplay", nogil=True)
def _isolated(  # pragma: no cover - compiled
    view, mine, w_start, layouts, component_start, component_groups, group_start, group_cells,
    most, limit, nodes,
):  # fmt: skip
    """:func:`.endgame.isolated_guess`'s square (flat), or -1. ``view`` is stuck."""
    rows, cols = view.shape
    size = rows * cols
    known = np.zeros(size, np.bool_)
    for r in range(rows):
        for c in range(cols):
            if mine[r, c]:
                known[r * cols + c] = True
    inside = np.full(size, -1, np.int64)
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
        cells = 0
        doubtful = 0
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                inside[cell] = k
                cells += 1
                if not known[cell]:
                    doubtful += 1
        open_to_outside = False
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                r, c = cell // cols, cell % cols
                for rr in range(max(0, r - 1), min(rows, r + 2)):
                    for cc in range(max(0, c - 1), min(cols, c + 2)):
                        other = rr * cols + cc
                        if view[rr, cc] >= GLYPH_HIDDEN and inside[other] != k and not known[other]:
                            open_to_outside = True
        if open_to_outside:
            continue  # a hidden square outside it could inform it
        squares = np.empty(doubtful, np.int64)
        d = 0
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                if not known[cell]:
                    squares[d] = cell
                    d += 1
        mines = (possible - w_start[k]) - (cells - doubtful)
        guess = _search_part(view, squares, known, mines, limit, nodes)
        if guess >= 0:
            return guess
    return -1


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
    endgame_squares, endgame_layouts, isolated_log, isolated_layouts, nodes, wide,
    max_coefficients, tiny, plain_components,
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
        # choose_guess's order: the endgame search, a forced 50/50, an
        # isolated part's search, the lowest risk.
        guess = -1
        if log_layouts <= endgame_log:
            guess = _endgame(view, mine, total, endgame_squares, endgame_layouts, nodes)
        if guess < 0:
            guess = _forced_fifty_fifty(view, probability, mine)
        if guess < 0:
            guess = _isolated(
                view, mine, w_start, layouts, component_start, component_groups, group_start,
                group_cells, isolated_log, isolated_layouts, nodes,
            )  # fmt: skip
        if guess < 0:
            guess = _plain_guess(probability, tolerance, opening_weight)
        guesses += 1
        if mines[guess // cols, guess % cols]:
            return LOST, guesses
        opens = np.full(1, guess, np.int64)


@kernel(cache=True, part="autoplay", nogil=True)
def play_seed(  # pragma: no cover - compiled
    mines, numbers, state, first, rule, count, seed_lo, seed_hi, tolerance, opening_weight,
    endgame_log, endgame_squares, endgame_layouts, isolated_log, isolated_layouts, nodes, wide,
    max_coefficients, tiny, plain_components,
):  # fmt: skip
    """A whole game of one seed: the field laid, the first click, :func:`play_plain`.

    The field is the engine's (``generate_field(..., first_click=first, seed=seed)``,
    by the vector environment's compiled draw, :func:`minesweep._vector_kernels.lay_field`),
    written into ``mines`` and ``numbers``; ``state`` (all unknown) is played
    on in place. Returns :func:`play_plain`'s ``(outcome, guesses)``, the
    first click counting as a guess when it hits a mine.
    """
    rows, cols = mines.shape
    squares = rows * cols
    lay_field(
        mines, numbers, first, rule, count, seed_lo, seed_hi, np.empty(4, np.uint64),
        np.empty(squares, np.bool_), np.empty(squares, np.int64),
        np.arange(squares) // cols,
    )  # fmt: skip
    if mines[first // cols, first % cols]:
        return LOST, 1
    return play_plain(
        numbers, mines, count, state, np.full(1, first, np.int64), np.zeros(0, np.int64),
        tolerance, opening_weight, endgame_log, endgame_squares, endgame_layouts, isolated_log,
        isolated_layouts, nodes, wide, max_coefficients, tiny, plain_components,
    )  # fmt: skip
