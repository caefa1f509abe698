"""The plain policy's two small choices, compiled (numba): a forced 50/50 and the lowest risk.

:func:`minesweep.solver.policy.choose_guess` (through
:func:`.fiftyfifty.forced_fifty_fifty`) and the compiled game of
:mod:`._play` both call these, so each choice is written once.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..squares import GLYPH_HIDDEN, MAX_NUMBER
from .guess import SAME

__all__ = ["blank_chance", "blank_chances", "forced_square", "plain_square"]


@kernel(cache=True, part="autoplay", nogil=True)
def forced_square(view, probability, mine):  # pragma: no cover - compiled
    """A square of a 50/50 that nothing left on the board can ever resolve (flat), or -1.

    Two hidden squares at probability one half (of at most 64 such), within
    two squares of each other, whose other hidden neighbours are all certain
    mines (``mine``), and which touch the same numbers: no future reveal can
    tell them apart. The first such pair in board order gives its first square.
    """
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
def plain_square(probability, tolerance, opening_weight):  # pragma: no cover - compiled
    """The lowest risk (flat index; -1 with no hidden square), and among squares within
    ``tolerance`` of it the best safety times ``1 + opening_weight`` times its chance
    of a blank, then the first in board order.

    The chance of a blank is :func:`blank_chance`'s. Scores within
    :data:`SAME` tie: only rounding parts them, and the order of a float sum
    must never decide a game.
    """
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
            blank = blank_chance(probability, r, c)
            score = (1.0 - p) * (1.0 + opening_weight * blank)
            scores[n] = score
            chosen[n] = r * cols + c
            n += 1
            best_score = max(best_score, score)
    for i in range(n):
        if scores[i] >= best_score - SAME:
            best = chosen[i]
            break
    return best


@kernel(cache=True, part="autoplay", nogil=True, inline="always")
def blank_chance(probability, r, c):  # pragma: no cover - compiled
    """The chance that square ``(r, c)``, if safe, shows a blank, roughly.

    The product of its neighbours' safety, taken as independent: 1 off the
    board and where the probability is not finite (revealed, as NaN or
    infinity). The factors are taken row by row, as a whole-board numpy
    product of shifted arrays would, so either way gives the same bits.
    """
    rows, cols = probability.shape
    blank = 1.0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            rr = r + dr
            cc = c + dc
            if 0 <= rr < rows and 0 <= cc < cols and np.isfinite(probability[rr, cc]):
                blank *= 1.0 - probability[rr, cc]
            else:
                blank *= 1.0
    return blank


@kernel(cache=True, part="autoplay", nogil=True)
def blank_chances(probability):  # pragma: no cover - compiled
    """:func:`blank_chance` of every square."""
    rows, cols = probability.shape
    chances = np.empty((rows, cols))
    for r in range(rows):
        for c in range(cols):
            chances[r, c] = blank_chance(probability, r, c)
    return chances
