"""The exhaustive searches' layouts and their boards, compiled (numba).

:func:`layouts` enumerates every way to place the mines that meets the
numbers; :func:`search_part` builds, for a part of the board, what every
square shows in every layout and hands it to the game-tree search
(:func:`._search.search`'s kernel); :func:`endgame_square` and
:func:`isolated_square` choose that part: the whole board's squares in doubt,
or the first component nothing outside can inform. :mod:`.endgame` and the
compiled game (:mod:`._play`) call them.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from .._jit import entry, kernel
from ..squares import GLYPH_HIDDEN, MAX_NUMBER, OUTCOME_MINE
from ._search import TOO_LARGE, _search, zobrist

__all__ = ["endgame_square", "isolated_square", "layouts", "search_part"]


@kernel(cache=True, part="autoplay", nogil=True)
def _layouts(touch_start, touch, need, free, mines, limit):  # pragma: no cover - compiled
    """Every way to place ``mines`` mines meeting the constraints, and False past ``limit``.

    Backtracking with an explicit stack: ``value[p]`` is what square ``p``
    holds on the current path (1 a mine, 0 safe, -1 nothing yet), tried
    mine first. Square ``p`` touches the constraints
    ``touch[touch_start[p]:touch_start[p + 1]]``; each constraint tracks the
    mines it still needs and its squares still open to choice, so a wrong
    choice fails at the first constraint it breaks.
    """
    n = len(touch_start) - 1
    need = need.copy()
    free = free.copy()
    found = np.zeros((16, n), np.bool_)
    count = 0
    value = np.full(n + 1, -1, np.int64)
    left = mines
    p = 0
    while p >= 0:
        if p == n:
            if left == 0:
                if count == len(found):
                    grown = np.zeros((2 * len(found), n), np.bool_)
                    grown[:count] = found
                    found = grown
                for i in range(n):
                    found[count, i] = value[i] == 1
                count += 1
                if count > limit:
                    return found[:0], False
            p -= 1
            continue
        held = value[p]
        if held >= 0:  # take back what the square holds before trying the next
            for k in range(touch_start[p], touch_start[p + 1]):
                free[touch[k]] += 1
                need[touch[k]] += held
            left += held
        if held == -1:
            if left > n - p:  # too few squares left for the mines
                p -= 1
                continue
            held = 1 if left > 0 else 0
        elif held == 1:
            held = 0
        else:  # both tried
            value[p] = -1
            p -= 1
            continue
        fits = True
        for k in range(touch_start[p], touch_start[p + 1]):
            c = touch[k]
            free[c] -= 1
            need[c] -= held
            if need[c] < 0 or need[c] > free[c]:
                fits = False
        left -= held
        value[p] = held
        if fits:
            p += 1
            value[p] = -1
    return found[:count], True


def layouts(
    touch_start: npt.NDArray[np.int64],
    touch: npt.NDArray[np.int64],
    need: npt.NDArray[np.int64],
    free: npt.NDArray[np.int64],
    mines: int,
    limit: int,
) -> npt.NDArray[np.bool_] | None:
    """Every set of ``mines`` squares meeting the constraints, one row each, or None past ``limit``.

    Squares are numbered 0 to ``len(touch_start) - 2`` and tried in that
    order (those next to numbers should come first); square ``p`` takes
    part in the constraints listed at ``touch[touch_start[p]:touch_start[p +
    1]]``. Constraint ``c`` needs ``need[c]`` mines among its ``free[c]``
    squares. Rows come in the order of a depth-first search that tries a
    mine before a safe square.
    """
    found, complete = entry(_layouts)(
        np.ascontiguousarray(touch_start, np.int64),
        np.ascontiguousarray(touch, np.int64),
        np.ascontiguousarray(need, np.int64),
        np.ascontiguousarray(free, np.int64),
        mines,
        limit,
    )
    return found if complete else None


@kernel(cache=True, part="autoplay", nogil=True)
def search_part(view, squares, known, mines, limit, nodes):  # pragma: no cover - compiled
    """The best first square among ``squares`` by exhaustive search: ``(square, layouts,
    chance, mines)``, the square -1 where there is none to play.

    ``squares`` (flat indices, any order) hold ``mines`` mines between
    them; ``known`` (flat, one a square) are certain mines; nothing else
    hidden touches a number next to ``squares``. Only the numbers next to a
    square in doubt constrain the layouts; their layouts are enumerated by
    :func:`_layouts` (squares next to numbers first, so a wrong choice fails
    at the number it breaks) and searched by :func:`_search`. ``layouts``
    is how many there were, ``chance`` the chance of clearing ``squares``
    from the square, ``mines`` in how many layouts the square holds one.
    None (-1) past ``limit`` layouts or ``nodes`` positions.
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
            return -1, 0, 0.0, 0  # no layout
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
        return -1, count, 0.0, 0
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
    key_a, key_b = zobrist(count, 0)
    chance, square = _search(shown, key_a, key_b, nodes)
    if chance == TOO_LARGE:
        return -1, count, 0.0, 0
    cell = -1
    if square >= 0:
        cell = cells[square]
    else:
        # One layout left: nothing to guess, but a safe square to open.
        for i in range(n):
            if not layouts[0, cells[i]]:
                cell = cells[i]
                break
    if cell < 0:
        return -1, count, chance, 0
    hits = 0
    for layout in range(count):
        if layouts[layout, cell]:
            hits += 1
    return cell, count, chance, hits


@kernel(cache=True, part="autoplay", nogil=True)
def endgame_square(view, mine, total, squares_most, limit, nodes):  # pragma: no cover - compiled
    """The whole board's search (:func:`.endgame.endgame_guess`): :func:`search_part`'s answer.

    ``mine`` marks the certain mines, set aside; at most ``squares_most``
    squares in doubt are searched.
    """
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
        return -1, 0, 0.0, 0
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
                return -1, 0, 0.0, 0
    return search_part(view, hidden[:n], known, total - known_count, limit, nodes)


@kernel(cache=True, part="autoplay", nogil=True)
def isolated_square(  # pragma: no cover - compiled
    view, mine, safe, w_start, layouts, log_scales, component_start, component_groups,
    group_start, group_cells, most, limit, nodes,
):  # fmt: skip
    """The first isolated part's search (:func:`.endgame.isolated_guess`), as :func:`search_part`.

    A component (groups ``component_groups[component_start[k]:...]``, its
    counts ``layouts[w_start[k]:w_start[k + 1]]`` times
    ``exp(-log_scales[k])``) is isolated when all its layouts hold one
    number of mines, at most ``exp(most)`` of them, none of its squares is
    certainly safe (``safe``), and every hidden neighbour of its squares is
    one of them or a certain mine (``mine``).
    """
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
        if several or possible < 0 or math.log(layouts[possible]) + log_scales[k] > most:
            continue
        cells = 0
        doubtful = 0
        settled = False  # a square certainly safe: nothing to guess there yet
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                inside[cell] = k
                cells += 1
                if not known[cell]:
                    doubtful += 1
                if safe[cell // cols, cell % cols]:
                    settled = True
        open_to_outside = False
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                r, c = cell // cols, cell % cols
                for rr in range(max(0, r - 1), min(rows, r + 2)):
                    for cc in range(max(0, c - 1), min(cols, c + 2)):
                        other = rr * cols + cc
                        if view[rr, cc] >= GLYPH_HIDDEN and inside[other] != k and not known[other]:
                            open_to_outside = True
        if open_to_outside or settled:
            continue  # a hidden square outside it could inform it
        squares = np.empty(doubtful, np.int64)
        d = 0
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            for cell in group_cells[group_start[g] : group_start[g + 1]]:
                if not known[cell]:
                    squares[d] = cell
                    d += 1
        mines = (possible - w_start[k]) - (cells - doubtful)
        found = search_part(view, squares, known, mines, limit, nodes)
        if found[0] >= 0:
            return found
    return -1, 0, 0.0, 0
