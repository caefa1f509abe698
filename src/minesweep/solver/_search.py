"""The exhaustive endgame search, compiled (numba), and the layouts it searches.

A position is the set of layouts still possible, held as an array of layout
indices; opening a square splits it by the number the square shows. The
best chance of winning from a position is worked out depth first, each
position once: positions are remembered under a 128-bit Zobrist key (the
exclusive-or of two random 64-bit words per layout), so that the same set
of layouts reached by different moves is searched once. Two sets sharing a
key by chance would need a collision of two independent 64-bit hashes.

Three things keep it small, none of which changes the chance found: a
square whose number tells nothing (dead) is tried only when no square
tells anything, since opening it last wins every layout opening it first
would; squares that split the layouts alike are tried once; and a move is
dropped as soon as winning every layout it has left to search could not
beat the best move found. It is compiled because a search splits every
layout left at each of its many positions, work an interpreter would pay
for step by step; the tests check it against a plain reference search of
the same rules.

:func:`_search` is one long loop on purpose: numba compiles it into a single
function whose frames live in preallocated arrays, and a call per step
(enter a position, try the next move, split, return) would pass those arrays
at every step of the hottest loop of the endgame.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from numba import types
from numba.typed import Dict

from .._jit import entry, kernel
from ..squares import GLYPH_HIDDEN, MAX_NUMBER, OUTCOME_MINE

__all__ = [
    "TOO_LARGE",
    "endgame_square",
    "isolated_square",
    "layouts",
    "search",
    "search_part",
]

#: What :func:`search` returns as the chance when the search passed its limit.
TOO_LARGE = -1.0

# ``shown`` holds OUTCOME_MINE (the slot after the numbers 0 to 8) for a
# square with a mine: a plain module-level int, which numba reads as a
# compile-time constant.
_key_type = types.UniTuple(types.uint64, 2)
_value_type = types.Tuple((types.float64, types.int64))


_ENTER, _NEXT, _SPLIT, _RETURN = 0, 1, 2, 3


@kernel(cache=True, part="autoplay", nogil=True)
def _search(shown, key_a, key_b, limit):  # pragma: no cover - compiled
    """The best chance of winning over every layout of ``shown`` and the square to open.

    Depth first, with an explicit stack (numba's cache cannot hold recursive
    functions): frame ``d`` is a position (a set of layouts), the squares
    that could still tell its layouts apart, its moves in the order they
    are tried, and where the split of the move being tried has got to.
    Opening a square makes it show one number in each part, so a frame's
    children search among fewer squares and the stack is at most one frame
    per square deep.
    """
    layouts, squares = shown.shape
    depth = squares + 2
    position = np.empty((depth, layouts), np.int64)
    # A frame's layouts by what its move shows (in their order), where each
    # part starts, and each part's key: a part is then a slice handed to the
    # frame above with its key, not another pass over every layout.
    bucket = np.empty((depth, layouts), np.int64)
    bucket_start = np.zeros((depth, OUTCOME_MINE + 1), np.int64)
    part_a = np.zeros((depth, OUTCOME_MINE + 1), np.uint64)
    part_b = np.zeros((depth, OUTCOME_MINE + 1), np.uint64)
    hashed = np.zeros(depth, np.bool_)  # the frame's key is in keys[d] already
    size = np.zeros(depth, np.int64)
    among = np.empty((depth + 1, squares), np.int64)  # frame d searches among[d]
    among_size = np.zeros(depth + 1, np.int64)
    moves = np.empty((depth, squares), np.int64)
    risks = np.empty((depth, squares), np.int64)
    move_count = np.zeros(depth, np.int64)
    move = np.zeros(depth, np.int64)  # the move being tried
    tally = np.zeros((depth, OUTCOME_MINE + 1), np.int64)  # layouts by what it shows
    number = np.zeros(depth, np.int64)  # the next number of its split
    won = np.zeros(depth)
    left = np.zeros(depth, np.int64)  # layouts of its split not yet searched
    beat = np.zeros(depth)
    best_chance = np.zeros(depth)
    best_square = np.full(depth, -1, np.int64)
    free = np.zeros(depth, np.bool_)
    keys = np.zeros((depth, 2), np.uint64)
    memo = Dict.empty(key_type=_key_type, value_type=_value_type)
    counts = np.zeros(OUTCOME_MINE + 1, np.int64)
    part_hash = np.zeros(OUTCOME_MINE + 1, np.uint64)
    signatures = np.empty(squares, np.uint64)
    fill = np.zeros(OUTCOME_MINE + 1, np.int64)
    # What each square shows, square by square and a byte each: a square's
    # layouts are read one after another, and the table stays in the cache
    # (16 % of the time of the heaviest searches).
    by_square = np.empty((squares, layouts), np.int8)
    for i in range(layouts):
        for j in range(squares):
            by_square[j, i] = shown[i, j]
    dead = np.empty(squares, np.int64)
    dead_risk = np.empty(squares, np.int64)

    position[0, :] = np.arange(layouts)
    size[0] = layouts
    among[0, :] = np.arange(squares)
    among_size[0] = squares
    d = 0
    answer = 0.0
    answer_square = -1
    state = _ENTER
    while True:
        if state == _ENTER:
            total = size[d]
            if total == 1:
                answer, answer_square, state = 1.0, -1, _RETURN
                continue
            if hashed[d]:
                hash_a = keys[d, 0]
                hash_b = keys[d, 1]
            else:
                hash_a = np.uint64(0)
                hash_b = np.uint64(0)
                for i in position[d, :total]:
                    hash_a ^= key_a[i]
                    hash_b ^= key_b[i]
            key = (hash_a, hash_b)
            if key in memo:
                answer, answer_square = memo[key]
                state = _RETURN
                continue
            if len(memo) >= limit:
                return TOO_LARGE, -1
            keys[d, 0] = hash_a
            keys[d, 1] = hash_b
            n_still = n_living = n_dead = 0
            free_square = -1
            # Nine positions in ten have a free square (see below), and then
            # the squares before it in order are not needed: find it first,
            # leaving each square at its first mine, and classify every
            # square only when there is none.
            for j in range(among_size[d]):
                square = among[d, j]
                first = -1
                informative = False
                for i in position[d, :total]:
                    shows = by_square[square, i]
                    if shows == OUTCOME_MINE:
                        first = -2
                        break
                    if first == -1:
                        first = shows
                    elif shows != first:
                        informative = True
                if first != -2 and informative:
                    free_square = square
                    break
            for j in range(0 if free_square >= 0 else among_size[d]):
                square = among[d, j]
                counts[:] = 0
                part_hash[:] = 0
                for i in position[d, :total]:
                    shows = by_square[square, i]
                    counts[shows] += 1
                    part_hash[shows] ^= key_a[i]
                at_risk = counts[OUTCOME_MINE]
                if at_risk == total:
                    continue
                parts = 0
                for n in range(OUTCOME_MINE):
                    if counts[n]:
                        parts += 1
                if parts == 1:
                    # A dead square: its number tells nothing. Opening it
                    # later, once the rest is known, wins every layout
                    # opening it now would: it is tried only when nothing
                    # else tells.
                    if at_risk:
                        dead[n_dead] = square
                        dead_risk[n_dead] = at_risk
                        n_dead += 1
                        among[d + 1, n_still] = square
                        n_still += 1
                    continue
                # (A square safe in every layout left whose number tells them
                # apart, a free one, was looked for above: there is none.)
                among[d + 1, n_still] = square
                n_still += 1
                # Squares that split the layouts alike are one move.
                signature = np.uint64(0)
                for n in range(OUTCOME_MINE):
                    if counts[n]:
                        mixed = part_hash[n] ^ (part_hash[n] >> np.uint64(29))
                        signature += mixed * np.uint64(0x9E3779B97F4A7C15)
                repeat = False
                for k in range(n_living):
                    if signatures[k] == signature:
                        repeat = True
                        break
                if not repeat:
                    signatures[n_living] = signature
                    moves[d, n_living] = square
                    risks[d, n_living] = at_risk
                    n_living += 1
            if free_square >= 0:
                # The children may still need every square of this frame.
                among[d + 1, : among_size[d]] = among[d, : among_size[d]]
                among_size[d + 1] = among_size[d]
                moves[d, 0] = free_square
                risks[d, 0] = 0
                move_count[d] = 1
                free[d] = True
            else:
                among_size[d + 1] = n_still
                free[d] = False
                if n_living == 0:
                    # Nothing left tells the layouts apart: the safest first.
                    moves[d, :n_dead] = dead[:n_dead]
                    risks[d, :n_dead] = dead_risk[:n_dead]
                    n_living = n_dead
                # By risk, then square: an insertion sort, as the moves are
                # few and this runs at every position with no free square.
                for a in range(1, n_living):
                    square = moves[d, a]
                    risk = risks[d, a]
                    b = a - 1
                    while b >= 0 and (
                        risks[d, b] > risk or (risks[d, b] == risk and moves[d, b] > square)
                    ):
                        moves[d, b + 1] = moves[d, b]
                        risks[d, b + 1] = risks[d, b]
                        b -= 1
                    moves[d, b + 1] = square
                    risks[d, b + 1] = risk
                move_count[d] = n_living
            move[d] = 0
            best_chance[d] = 0.0
            best_square[d] = -1
            state = _NEXT
        elif state == _NEXT:
            total = size[d]
            k = move[d]
            # A move wins at most its chance of being safe: once that cannot
            # beat the best found, neither can any move after it.
            if (
                k >= move_count[d]
                or best_chance[d] >= 1.0 - 1e-12
                or (total - risks[d, k]) / total <= best_chance[d] + 1e-12
            ):
                answer, answer_square = best_chance[d], best_square[d]
                memo[(keys[d, 0], keys[d, 1])] = (answer, answer_square)
                state = _RETURN
                continue
            square = moves[d, k]
            tally[d, :] = 0
            for i in position[d, :total]:
                tally[d, by_square[square, i]] += 1
            at = 0
            for n in range(OUTCOME_MINE + 1):
                bucket_start[d, n] = at
                at += tally[d, n]
                part_a[d, n] = np.uint64(0)
                part_b[d, n] = np.uint64(0)
            for n in range(OUTCOME_MINE + 1):
                fill[n] = bucket_start[d, n]
            for i in position[d, :total]:
                shows = by_square[square, i]
                bucket[d, fill[shows]] = i
                fill[shows] += 1
                part_a[d, shows] ^= key_a[i]
                part_b[d, shows] ^= key_b[i]
            number[d] = 0
            won[d] = 0.0
            left[d] = total - tally[d, OUTCOME_MINE]
            beat[d] = -1.0 if free[d] else best_chance[d]
            state = _SPLIT
        elif state == _SPLIT:
            total = size[d]
            n = number[d]
            while n < OUTCOME_MINE and tally[d, n] == 0:
                n += 1
            if n == OUTCOME_MINE:  # no number left
                chance = won[d] / total
                if chance > best_chance[d] + 1e-12:
                    best_chance[d] = chance
                    best_square[d] = moves[d, move[d]]
                move[d] += 1
                state = _NEXT
                continue
            number[d] = n + 1
            part = tally[d, n]
            left[d] -= part
            if part == 1:
                won[d] += 1.0
                # Stop once winning every layout left could not beat the best.
                if (won[d] + left[d]) / total <= beat[d] + 1e-12:
                    move[d] += 1
                    state = _NEXT
                continue
            start = bucket_start[d, n]
            position[d + 1, :part] = bucket[d, start : start + part]
            keys[d + 1, 0] = part_a[d, n]
            keys[d + 1, 1] = part_b[d, n]
            hashed[d + 1] = True
            size[d + 1] = part
            d += 1
            state = _ENTER
        else:  # _RETURN: hand the answer to the frame below
            if d == 0:
                return answer, answer_square
            d -= 1
            total = size[d]
            won[d] += tally[d, number[d] - 1] * answer
            state = _SPLIT
            if (won[d] + left[d]) / total <= beat[d] + 1e-12:
                move[d] += 1
                state = _NEXT


def search(shown: npt.NDArray[np.int64], limit: int) -> tuple[float, int]:
    """The best chance of winning and the square (column) to open first.

    ``shown[layout, square]`` is the number the square shows in that layout,
    or :data:`minesweep.squares.OUTCOME_MINE` where it holds a mine; no two
    layouts may be alike (layouts of a board never are; with duplicates, the
    rule for dead squares is wrong).
    Squares are numbered in board order (of squares alike, the first is
    played). The square is -1 when a single
    layout is left, and the chance is :data:`TOO_LARGE` past ``limit``
    positions.
    """
    layouts = shown.shape[0]
    # Fixed keys for a given count: the same search finds the same square.
    keys = np.frombuffer(np.random.default_rng(layouts).bytes(16 * layouts), np.uint64)
    keys = keys.reshape(2, layouts)
    chance, square = entry(_search)(np.ascontiguousarray(shown, np.int64), keys[0], keys[1], limit)
    return float(chance), int(square)


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
    key_a, key_b = _zobrist(count, 0)
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
