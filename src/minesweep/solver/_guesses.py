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


@kernel(cache=True, part="autoplay", nogil=True)
def _outside(revealed, doubtful, squares, count, limit, out, at):  # pragma: no cover - compiled
    """Copy the outside squares still in doubt into ``out`` from ``at``; -1 when one
    is revealed or more than ``limit`` are in doubt, else the new end."""
    rows, cols = revealed.shape
    end = at
    for i in range(count):
        r, c = squares[i, 0], squares[i, 1]
        if not (0 <= r < rows and 0 <= c < cols):
            continue
        if revealed[r, c]:
            return -1
        if doubtful[r, c]:
            out[end] = r * cols + c
            end += 1
    return end if end - at <= limit else -1


@kernel(cache=True, part="autoplay", nogil=True)
def fifty_structures(  # pragma: no cover - compiled
    revealed, doubtful, risk, row, col, pair_limit, block_limit
):  # fmt: skip
    """The 50/50s that could form around ``(row, col)``, as :class:`.fiftyfifty.FiftyFifties` says.

    Returns ``(pairs, start, split, squares, bounds)``: structure ``i``'s
    squares (flat indices) are ``squares[start[i]:start[i + 1]]``, those
    before ``split[i]`` to be mines and the rest safe; the first ``pairs``
    are pairs (the walls past their ends in doubt, then the partner; the
    square itself safe), the rest 2x2 blocks (the corners in doubt, then the
    diagonal against the square's; the square's diagonal safe).
    ``bounds[i]`` is the chance of its least likely square, which bounds
    the chance that it forms.
    """
    rows, cols = revealed.shape
    start = np.zeros(9, np.int64)
    split = np.zeros(8, np.int64)
    squares = np.empty(8 * 10, np.int64)
    walls = np.empty((6, 2), np.int64)
    count = 0
    end = 0
    for direction in range(4):
        dr = (0, 0, 1, -1)[direction]
        dc = (1, -1, 0, 0)[direction]
        pr, pc = row + dr, col + dc
        if not (0 <= pr < rows and 0 <= pc < cols and doubtful[pr, pc]):
            continue
        k = 0
        if dc:
            low, high = min(col, col + dc) - 1, max(col, col + dc) + 1
            for cc in (low, high):
                for rr in (row - 1, row, row + 1):
                    walls[k, 0], walls[k, 1] = rr, cc
                    k += 1
        else:
            low, high = min(row, row + dr) - 1, max(row, row + dr) + 1
            for rr in (low, high):
                for cc in (col - 1, col, col + 1):
                    walls[k, 0], walls[k, 1] = rr, cc
                    k += 1
        stop = _outside(revealed, doubtful, walls, 6, pair_limit, squares, end)
        if stop < 0:
            continue
        squares[stop] = pr * cols + pc
        squares[stop + 1] = row * cols + col
        split[count] = stop + 1
        end = stop + 2
        count += 1
        start[count] = end
    pairs = count
    corners = np.empty((4, 2), np.int64)
    for corner in range(4):
        top = row - 1 if corner < 2 else row
        left = col - 1 if corner % 2 == 0 else col
        inside = True
        for rr in (top, top + 1):
            for cc in (left, left + 1):
                if not (0 <= rr < rows and 0 <= cc < cols and doubtful[rr, cc]):
                    inside = False
        if not inside:
            continue
        k = 0
        for rr in (top - 1, top + 2):
            for cc in (left - 1, left + 2):
                corners[k, 0], corners[k, 1] = rr, cc
                k += 1
        stop = _outside(revealed, doubtful, corners, 4, block_limit, squares, end)
        if stop < 0:
            continue
        a, b = top * cols + left, top * cols + left + 1
        c, d = (top + 1) * cols + left, (top + 1) * cols + left + 1
        # The square's own diagonal safe, the other one mines.
        on_main = (row == top and col == left) or (row == top + 1 and col == left + 1)
        if on_main:
            squares[stop], squares[stop + 1], squares[stop + 2], squares[stop + 3] = b, c, a, d
        else:
            squares[stop], squares[stop + 1], squares[stop + 2], squares[stop + 3] = a, d, b, c
        split[count] = stop + 2
        end = stop + 4
        count += 1
        start[count] = end
    bounds = np.empty(count)
    for i in range(count):
        least_mine = 1.0
        least_safe = 1.0
        for j in range(start[i], start[i + 1]):
            p = risk[squares[j] // cols, squares[j] % cols]
            if j < split[i]:
                least_mine = min(least_mine, p)
            else:
                least_safe = min(least_safe, 1.0 - p)
        bounds[i] = min(least_mine, least_safe)
    return pairs, start[: count + 1].copy(), split[:count].copy(), squares[:end].copy(), bounds


@kernel(cache=True, part="autoplay", nogil=True)
def fifty_sides(  # pragma: no cover - compiled
    revealed, doubtful, risk, cells, pair_limit, block_limit
):  # fmt: skip
    """The 50/50s to come that "50/50 or safe" must count, for each of ``cells`` in turn.

    For each square of ``cells`` (flat indices, in the order to try them)
    and each structure :func:`fifty_structures` finds around it: were the
    square a mine, the walls and its side would be mines and the other side
    safe; a structure where one of those is less likely than the square
    itself cannot form with every mine layout of the square, and is left
    out without counting. Returns ``(owner, start, split, squares)``: side
    ``i`` belongs to ``cells[owner[i]]``, its squares to be mines are
    ``squares[start[i]:split[i]]`` and those to be safe
    ``squares[split[i]:start[i + 1]]``, in the order to count them.
    """
    cols = revealed.shape[1]
    owner = [0]
    owner.pop()
    start = [0]
    split = [0]
    split.pop()
    flat = [0]
    flat.pop()
    for index in range(cells.shape[0]):
        row, col = cells[index] // cols, cells[index] % cols
        chance = risk[row, col]
        pairs, s_start, s_split, s_squares, _ = fifty_structures(
            revealed, doubtful, risk, row, col, pair_limit, block_limit
        )
        for i in range(s_split.shape[0]):
            a, b, e = s_start[i], s_split[i], s_start[i + 1]
            # A pair: the walls, then the partner (to be mines); the square
            # (safe). Turned round: walls and the square mines, the partner
            # safe. A block likewise with its two diagonals.
            own = 1 if i < pairs else 2
            walls_end = b - own
            ok = True
            for j in range(a, walls_end):
                if risk[s_squares[j] // cols, s_squares[j] % cols] < chance - 1e-12:
                    ok = False
            for j in range(b, e):  # the square's side, mines were it a mine
                if risk[s_squares[j] // cols, s_squares[j] % cols] < chance - 1e-12:
                    ok = False
            for j in range(walls_end, b):  # the other side, then safe
                if 1.0 - risk[s_squares[j] // cols, s_squares[j] % cols] < chance - 1e-12:
                    ok = False
            if not ok:
                continue
            owner.append(index)
            flat.extend(s_squares[a:walls_end])
            flat.extend(s_squares[b:e])
            split.append(len(flat))
            flat.extend(s_squares[walls_end:b])
            start.append(len(flat))
    return (
        np.array(owner, np.int64), np.array(start, np.int64), np.array(split, np.int64),
        np.array(flat, np.int64),
    )  # fmt: skip
