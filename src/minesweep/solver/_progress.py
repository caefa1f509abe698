"""The plain choice's tie-break by progress (numba), after Tu et al.'s PSEQ.

Without the lookahead, the policy takes the lowest risk and, among squares
within ``tolerance`` of it, the one likeliest to be a blank
(:func:`._guesses.plain_square`). A blank is one way a guess makes progress;
a number that leaves some other square certainly safe is another. Tu et
al.'s solver ("PSEQ") breaks exact ties of risk by the chance that the
guess is safe and leaves a square certainly safe, then by the entropy of the
number it shows. Here the same two keys, worked out exactly with the what-if
kernels (:func:`._lookahead.outcomes`), order the plain choice's window: at
most ``most`` of its squares, the plain choice first and the rest by the
plain choice's own score. The what-if tables cost a set-up per guess, so
they are asked only when the window holds more than one square.

One rule, called by the Python policy (:func:`.policy.choose_guess`) and the
compiled game (:mod:`._play`) alike.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..squares import GLYPH_HIDDEN
from ._guesses import blank_chance
from ._lookahead import outcomes
from ._whatif import ANSWERED

__all__ = ["RELATIVE", "interior_class", "progress_square", "window"]

#: Keys within this share of each other are equal, as Tu's ``Largest`` compares them.
RELATIVE = 1e-8


@kernel(cache=True, part="solver", nogil=True)
def window(probability, tolerance, opening_weight, own, most):  # pragma: no cover - compiled
    """The squares within ``tolerance`` of the lowest risk: ``own`` first, then the rest by
    :func:`._guesses.plain_square`'s score (best first, then board order), at most ``most``."""
    rows, cols = probability.shape
    lowest = np.inf
    for r in range(rows):
        for c in range(cols):
            p = probability[r, c]
            if not np.isnan(p) and p < lowest:
                lowest = p
    squares = np.empty(rows * cols, np.int64)
    keys = np.empty(rows * cols)
    n = 0
    for r in range(rows):
        for c in range(cols):
            p = probability[r, c]
            if np.isnan(p) or not p <= lowest + tolerance or r * cols + c == own:
                continue
            squares[n] = r * cols + c
            keys[n] = -(1.0 - p) * (1.0 + opening_weight * blank_chance(probability, r, c))
            n += 1
    order = np.argsort(keys[:n], kind="mergesort")
    found = np.empty(min(most, n + 1), np.int64)
    found[0] = own
    for i in range(found.shape[0] - 1):
        found[i + 1] = squares[order[i]]
    return found


@kernel(cache=True, part="solver", nogil=True)
def interior_class(t, square):  # pragma: no cover - compiled
    """The class of flat ``square`` among interior squares alike to the what-if, or -1.

    :func:`._whatif.square_outcomes` of a square in no group, none of whose
    hidden neighbours is in a group either, reads of the board only how many
    hidden neighbours it has, how many of them are interior, set aside, or
    certain mines, and whether the square itself is interior (with its
    risk, compared apart): every other input is the whole analysis's. Two
    such squares with the same class therefore have the same outcomes, to
    the bit, and the same cost in states.
    """
    rows, cols = t.glyphs.shape
    row, col = square // cols, square % cols
    if t.group_at[row, col] >= 0 or t.settled_mask[row, col]:
        return -1
    around = 0
    joining = 0
    settled = 0
    known = 0
    for r in range(max(0, row - 1), min(rows, row + 2)):
        for c in range(max(0, col - 1), min(cols, col + 2)):
            if (r == row and c == col) or t.glyphs[r, c] < GLYPH_HIDDEN:
                continue
            if t.group_at[r, c] >= 0:
                return -1
            around += 1
            if t.interior_mask[r, c]:
                joining += 1
            if t.settled_mask[r, c]:
                settled += 1
            if t.sure[r, c]:
                known += 1
    own = 1 if t.interior_mask[row, col] else 0
    return (((around * 9 + joining) * 9 + settled) * 9 + known) * 2 + own


@kernel(cache=True, part="solver", nogil=True)
def progress_square(t, found, dead_last, budget):  # pragma: no cover - compiled
    """The square of ``found`` (flat, the plain choice first) that best makes progress.

    Its key: the chance that it is safe and shows a number after which some
    square is certainly safe (the what-if's best safety after that number
    is 1), then the entropy of the number it shows; keys within
    :data:`RELATIVE` tie, and ties go to the earlier square of ``found``.
    With ``dead_last`` a square that can show only one number is passed
    over while another can be weighed. A square without a cheap answer is
    left out; when the first cannot be weighed, it is kept. The outcomes
    spend at most ``budget`` states.

    Interior squares of one :func:`interior_class` (and the same risk) are
    asked once: the later ones reuse the first one's keys and are charged
    its states, so the budget runs out exactly where asking each would.
    """
    states = budget
    best = found[0]
    best_progress = -1.0
    best_entropy = -1.0
    n = found.shape[0]
    seen_class = np.empty(n, np.int64)
    seen_risk = np.empty(n)
    seen_progress = np.empty(n)
    seen_entropy = np.empty(n)
    seen_numbers = np.empty(n, np.int64)
    seen_cost = np.empty(n, np.int64)
    seen = 0
    cols = t.glyphs.shape[1]
    for index in range(n):
        square = found[index]
        kind = interior_class(t, square)
        risk = t.probability[square // cols, square % cols]
        hit = -1
        if kind >= 0:
            for j in range(seen):
                if seen_class[j] == kind and seen_risk[j] == risk and seen_cost[j] <= states:
                    hit = j
                    break
        if hit >= 0:
            states -= seen_cost[hit]
            numbers = seen_numbers[hit]
            progress = seen_progress[hit]
            entropy = seen_entropy[hit]
        else:
            before = states
            status, _, chances, safest, states = outcomes(t, square, states, 2)
            if status != ANSWERED:
                if index == 0:
                    return square
                continue
            numbers = chances.shape[0]
            progress = 0.0
            alive = 0.0
            for i in range(numbers):
                alive += chances[i]
                if safest[i] >= 1.0 - 1e-12:
                    progress += chances[i]
            entropy = 0.0
            for i in range(numbers):
                if chances[i] > 0.0:
                    share = chances[i] / alive
                    entropy -= share * np.log2(share)
            if kind >= 0:
                seen_class[seen] = kind
                seen_risk[seen] = risk
                seen_progress[seen] = progress
                seen_entropy[seen] = entropy
                seen_numbers[seen] = numbers
                seen_cost[seen] = before - states
                seen += 1
        if dead_last and numbers < 2:
            continue
        if best_progress < 0.0 or progress > best_progress + RELATIVE * best_progress + 1e-12:
            better = True
        elif progress < best_progress - RELATIVE * best_progress - 1e-12:
            better = False
        else:
            better = entropy > best_entropy + RELATIVE * best_entropy + 1e-12
        if better:
            best = square
            best_progress = progress
            best_entropy = entropy
    return best
