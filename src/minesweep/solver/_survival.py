"""A survival search of depth k at a guess point, compiled (numba).

The lookahead (:func:`._lookahead.weighed_square`) scores a candidate by the
chance of surviving it and then the safest next guess: a search of depth 2.
This module looks further. The value of a view with ``k`` clicks to go is

    value(view, 1) = the best safety of any square,
    value(view, k) = max over candidates c of
        sum over the numbers n that c can show of P(c safe and shows n)
        times value(view + (c, n), k - 1),

the chance of surviving the next ``k`` clicks when each is chosen to
maximise it. A square certain to be safe is a candidate like any other
(its chance of being safe is 1): opening it uses up a click, as in
minesolve's search, rather than being opened for free, which would mean
branching on every number each certain square can show.

Every question about one square (the numbers it can show, their chances
and the safest square after each) is :func:`._whatif.square_outcomes`, asked
through :func:`._lookahead.outcomes`; every view inside the search is
analysed by :func:`._plain.plain_analysis` and turned into what-if tables
by :func:`._lookahead.what_if`, as the compiled game does. Nothing of the
counting is written again here.

Three bounds keep it small, all safe (they never change the value found):
a candidate's value is at most its depth-2 score (each later value is at
most the next safety), so candidates are searched best depth-2 score first
and the search of a view stops at the first whose depth-2 score cannot beat
the best value found; the sum over a candidate's numbers stops as soon as
what is left, bounded the same way, cannot lift it past the best; and a
candidate whose own safety is no more than the best value found is not
asked at all. Views reached in two orders (a then b, b then a) are
remembered by the (square, number) pairs revealed since the root.

The search is budgeted in nodes (analyses and square questions); when the
budget runs out it answers -1 and the caller keeps the lookahead's choice.
Depths 3 and 4 are searched (:data:`DEPTHS`): each level is a function of
its own, since a self-recursive kernel cannot be cached by numba.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._guesses import plain_square
from ._lookahead import (
    _count,
    _factor,
    _revealed_and_doubtful,
    candidates,
    outcomes,
    plain_what_if,
    risk_map,
)
from ._plain import plain_analysis
from ._whatif import ANSWERED

__all__ = ["ABORTED", "DEPTHS", "survival_square", "survival_value"]

#: The depths searched (0 in :class:`.guess.PolicyConfig` means no search).
DEPTHS = (3, 4)
#: What a node answers when the budget ran out or a view had no cheap answer.
ABORTED = -1.0

# Memo slots: a power of two, open addressing; a key is 0 when the slot is empty.
_MEMO_SLOTS = 1 << 12
# A (square, number) pair's code, plus one, fits in this many bits.
_PAIR_BITS = 21


@kernel(cache=True, part="solver", nogil=True)
def _analysed(view, a):  # pragma: no cover - compiled
    """:func:`._plain.plain_analysis` of ``view``, as the game makes it: ``ok`` first."""
    total, wide, max_coefficients, tiny, plain_components = a[:5]
    return plain_analysis(view, total, wide, -1, max_coefficients, tiny, plain_components)


@kernel(cache=True, part="solver", nogil=True)
def _tables(view, analysis, a):  # pragma: no cover - compiled
    """``(tables, risk)`` of an analysis :func:`_analysed` made on its plain path (``ok``).

    Only then: off the plain path, its arrays are not all made.
    """
    total, log_factorial = a[0], a[5]
    (
        _ok, probability, _safe, mine, _log_layouts, w_start, layouts, component_start,
        component_groups, group_start, group_cells, interior, rest,
    ) = analysis  # fmt: skip
    t = plain_what_if(
        view, probability, mine, w_start, layouts, component_start, component_groups, group_start,
        group_cells, rest, interior, total, log_factorial,
    )  # fmt: skip
    return t, risk_map(view, probability, mine)


@kernel(cache=True, part="solver", nogil=True)
def _memo_key(pairs, depth):  # pragma: no cover - compiled
    """The exact key of a view by its revealed pairs (any order): 0 when none fits in 63 bits."""
    n = pairs.shape[0]
    if n * _PAIR_BITS + 3 > 63 or depth > 7:
        return 0
    ordered = np.sort(pairs)
    key = np.int64(depth)
    for i in range(n):
        if ordered[i] + 1 >= (1 << _PAIR_BITS):
            return 0
        key = (key << _PAIR_BITS) | (ordered[i] + 1)
    return key


@kernel(cache=True, part="solver", nogil=True)
def _memo_find(memo_keys, key):  # pragma: no cover - compiled
    """The slot of ``key``, or the empty slot where it would go (-1: the table is full)."""
    mask = memo_keys.shape[0] - 1
    slot = (key * 0x9E3779B1) & mask
    for _ in range(memo_keys.shape[0]):
        if memo_keys[slot] == key or memo_keys[slot] == 0:
            return slot
        slot = (slot + 1) & mask
    return -1


@kernel(cache=True, part="solver", nogil=True)
def _won_is_one(safest):  # pragma: no cover - compiled
    """The next safety, with 1 where it is 0: every square left is a mine, the game is won.

    The what-if kernel reports no safe square after such a number as a best
    safety of 0; for survival it is the end of the game, survived.
    """
    out = safest.copy()
    for i in range(out.shape[0]):
        if not out[i] > 0:
            out[i] = 1.0
    return out


@kernel(cache=True, part="solver", nogil=True)
def _scores(view, t, risk, a, left):  # pragma: no cover - compiled
    """Each candidate's outcomes and depth-2 score, best score first.

    Returns ``(ok, squares, scores, numbers, chances, safest)``, the last three
    lists parallel to ``squares``; ``ok`` False when the budget ran out.
    ``left[0]`` is the budget of nodes, spent here.
    """
    tolerance, opening_weight, cut, most, states = a[6:11]
    found = np.zeros(0, np.int64)
    own = plain_square(t.probability, tolerance, opening_weight)
    if own >= 0:
        found = candidates(view, risk, own, cut, 1, most)
    squares = np.empty(found.shape[0], np.int64)
    scores = np.empty(found.shape[0])
    numbers = [np.zeros(0, np.int64)]
    chances = [np.zeros(0)]
    safest = [np.zeros(0)]
    numbers.pop()
    chances.pop()
    safest.pop()
    n = 0
    for square in found:
        if left[0] <= 0:
            return False, squares[:n], scores[:n], numbers, chances, safest
        left[0] -= 1
        status, shown, chance, after, _ = outcomes(t, square, states)
        if status != ANSWERED:
            continue  # no cheap answer: left out, as the lookahead leaves it
        after = _won_is_one(after)
        score = 0.0
        for i in range(chance.shape[0]):
            score += chance[i] * after[i]
        squares[n] = square
        scores[n] = score
        numbers.append(shown)
        chances.append(chance)
        safest.append(after)
        n += 1
    # Best score first; the sort is stable, so equal scores keep the candidates' order.
    order = np.argsort(-scores[:n], kind="mergesort")
    return (
        True, squares[:n][order], scores[:n][order], [numbers[i] for i in order],
        [chances[i] for i in order], [safest[i] for i in order],
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True)
def _node2(view, pairs, a, left, memo_keys, memo_values):  # pragma: no cover - compiled
    """value(``view``, 2), or :data:`ABORTED`."""
    key = _memo_key(pairs, 2)
    slot = -1
    if key != 0:
        slot = _memo_find(memo_keys, key)
        if slot >= 0 and memo_keys[slot] == key:
            return memo_values[slot]
    if left[0] <= 0:
        return ABORTED
    left[0] -= 1
    analysis = _analysed(view, a)
    if not analysis[0]:
        return ABORTED
    t, risk = _tables(view, analysis, a)
    if not np.isfinite(risk).any():
        value = 1.0  # nothing left in doubt: every safe square is open
    else:
        done, _, scores, _, _, _ = _scores(view, t, risk, a, left)
        if not done:
            return ABORTED
        value = scores[0] if scores.shape[0] else 0.0
    if slot >= 0:
        memo_keys[slot] = key
        memo_values[slot] = value
    return value


@kernel(cache=True, part="solver", nogil=True)
def _child(view, pairs, square, number):  # pragma: no cover - compiled
    """The view with ``square`` (flat) showing ``number``, and the pairs with it added."""
    cols = view.shape[1]
    seen = view.copy()
    seen[square // cols, square % cols] = number
    more = np.empty(pairs.shape[0] + 1, np.int64)
    more[: pairs.shape[0]] = pairs
    more[pairs.shape[0]] = square * 9 + number
    return seen, more


@kernel(cache=True, part="solver", nogil=True)
def _node3(view, pairs, a, left, memo_keys, memo_values):  # pragma: no cover - compiled
    """value(``view``, 3), or :data:`ABORTED`."""
    if left[0] <= 0:
        return ABORTED
    left[0] -= 1
    analysis = _analysed(view, a)
    if not analysis[0]:
        return ABORTED
    t, risk = _tables(view, analysis, a)
    if not np.isfinite(risk).any():
        return 1.0
    done, squares, scores, numbers, chances, safest = _scores(view, t, risk, a, left)
    if not done:
        return ABORTED
    best = 0.0
    for index in range(squares.shape[0]):
        if not scores[index] > best:
            break  # no later candidate can beat the best: each value is at most its score
        value = 0.0
        bound = scores[index]
        for i in range(numbers[index].shape[0]):
            seen, more = _child(view, pairs, squares[index], numbers[index][i])
            below = _node2(seen, more, a, left, memo_keys, memo_values)
            if below < 0:
                return ABORTED
            value += chances[index][i] * below
            bound -= chances[index][i] * (safest[index][i] - below)
            if not bound > best:
                break
        best = max(best, value)
    return best


@kernel(cache=True, part="solver", nogil=True)
def _below(view, pairs, depth, a, left, memo_keys, memo_values):  # pragma: no cover - compiled
    """value(``view``, ``depth``) for depth 2 or 3."""
    if depth == 2:
        return _node2(view, pairs, a, left, memo_keys, memo_values)
    return _node3(view, pairs, a, left, memo_keys, memo_values)


@kernel(cache=True, part="solver", nogil=True)
def survival_value(view, depth, a, nodes):  # pragma: no cover - compiled
    """value(``view``, ``depth``) for depth 2 to 4 (see the module), or :data:`ABORTED`.

    ``a`` is :func:`survival_square`'s tuple of knobs, ``nodes`` the budget.
    The reference the tests hold it to: no candidates are cut (``cut`` 0,
    enough ``most``), every living and dead square next to the frontier and
    one interior square is tried.
    """
    left = np.full(1, nodes, np.int64)
    memo_keys = np.zeros(_MEMO_SLOTS, np.int64)
    memo_values = np.zeros(_MEMO_SLOTS)
    empty = np.zeros(0, np.int64)
    if depth == 4:
        analysis = _analysed(view, a)
        if not analysis[0]:
            return ABORTED
        t, risk = _tables(view, analysis, a)
        if not np.isfinite(risk).any():
            return 1.0
        done, squares, _, numbers, chances, _ = _scores(view, t, risk, a, left)
        if not done:
            return ABORTED
        best = 0.0
        for index in range(squares.shape[0]):
            value = 0.0
            for i in range(numbers[index].shape[0]):
                seen, more = _child(view, empty, squares[index], numbers[index][i])
                below = _node3(seen, more, a, left, memo_keys, memo_values)
                if below < 0:
                    return ABORTED
                value += chances[index][i] * below
            best = max(best, value)
        return best
    return _below(view, empty, depth, a, left, memo_keys, memo_values)


@kernel(cache=True, part="solver", nogil=True)
def survival_square(  # pragma: no cover - compiled
    view, own, depth, a, nodes, dead_last, long_term, weight, pair_missing, block_missing,
    floor,
):  # fmt: skip
    """The root of the search: the candidate (flat) with the best score, or -1.

    A candidate's score is its 50/50 factor (``long_term``, as
    :func:`._lookahead.weighed_square` weighs it) times the chance of
    surviving it and the next ``depth - 1`` clicks; with ``dead_last`` a
    dead candidate is passed over, as the lookahead passes it. ``own`` is
    the plain choice (flat), ``a`` the knobs: ``(total, wide,
    max_coefficients, tiny, plain_components, log_factorial, tolerance,
    opening_weight, cut, most, states)``. -1 when the budget of ``nodes``
    ran out, a view had no cheap answer, or no candidate was living: the
    caller keeps the lookahead's choice.
    """
    left = np.full(1, nodes, np.int64)
    memo_keys = np.zeros(_MEMO_SLOTS, np.int64)
    memo_values = np.zeros(_MEMO_SLOTS)
    empty = np.zeros(0, np.int64)
    analysis = _analysed(view, a)
    if not analysis[0]:
        return -1
    t, risk = _tables(view, analysis, a)
    total = a[0]
    cut, most, states = a[8:11]
    found = candidates(view, risk, own, cut, 1, most)
    revealed, doubtful = _revealed_and_doubtful(view, risk)
    mines_left = total - _count(t.sure)
    limits = (min(pair_missing, mines_left - 1), min(block_missing, mines_left - 2))
    joint_states = states
    # Each candidate's factor and depth-2 score (an upper bound on its score).
    squares = np.empty(found.shape[0], np.int64)
    bounds = np.empty(found.shape[0])
    factors = np.empty(found.shape[0])
    numbers = [np.zeros(0, np.int64)]
    chances = [np.zeros(0)]
    safest = [np.zeros(0)]
    numbers.pop()
    chances.pop()
    safest.pop()
    n = 0
    for square in found:
        left[0] -= 1
        status, shown, chance, after, _ = outcomes(t, square, states)
        if status != ANSWERED or (dead_last and shown.shape[0] == 1):
            continue
        after = _won_is_one(after)
        factor = 1.0
        if long_term and risk[square // view.shape[1], square % view.shape[1]] < 1.0:
            factor, joint_states = _factor(
                t, revealed, doubtful, risk, square, limits, weight, floor, True, joint_states
            )
        score = 0.0
        for i in range(chance.shape[0]):
            score += chance[i] * after[i]
        squares[n] = square
        bounds[n] = factor * score
        factors[n] = factor
        numbers.append(shown)
        chances.append(chance)
        safest.append(after)
        n += 1
    order = np.argsort(-bounds[:n], kind="mergesort")
    best = 0.0
    best_square = -1
    for index in order:
        if best_square >= 0 and not bounds[index] > best:
            break
        value = 0.0
        bound = bounds[index] / factors[index]
        for i in range(numbers[index].shape[0]):
            seen, more = _child(view, empty, squares[index], numbers[index][i])
            below = _below(seen, more, depth - 1, a, left, memo_keys, memo_values)
            if below < 0:
                return -1
            value += chances[index][i] * below
            bound -= chances[index][i] * (safest[index][i] - below)
            if best_square >= 0 and not factors[index] * bound > best:
                break
        if best_square < 0 or factors[index] * value > best:
            best = factors[index] * value
            best_square = squares[index]
    return best_square
