"""The exhaustive endgame search over a set of layouts, compiled (numba).

A position is the set of layouts still possible, held as an array of layout
indices; opening a square splits it by the number the square shows. The
best chance of winning from a position is worked out depth first, each
position once: positions are remembered under a 128-bit Zobrist key (the
exclusive-or of two random 64-bit words per layout), so that the same set
of layouts reached by different moves is searched once. Two sets sharing a
key by chance would need a collision of two independent 64-bit hashes.

Four things keep it small, none of which changes the chance found or the
square chosen: a square whose number tells nothing (dead) is tried only
when no square tells anything, since opening it last wins every layout
opening it first would; squares that split the layouts alike are tried
once; a move is dropped as soon as winning every layout it has left to
search could not beat the best move found; and a part is told what its
chance must beat for the move to matter (what the best move needs, less
what the move has won and could still win elsewhere), so that it stops as
soon as it cannot, handing back a bound instead of a chance. A bound is
remembered too, and serves again wherever it is under what a chance must
beat; elsewhere the position is searched again. Before a move is tried,
the parts already remembered bound what it can win, which often drops it
unsearched. The bounds keep a margin (``_SLACK``, ``_MARGIN``) far above
rounding, so that a move is dropped only where its exact chance could not
have been chosen: the chances found, and the ties between them, are those
of the search without bounds. It is compiled because a search splits every
layout left at each of its many positions, work an interpreter would pay
for step by step; the tests check it against a plain reference search of
the same rules.

:func:`_search` is one long loop on purpose: numba compiles it into a single
function whose frames live in preallocated arrays, and a call per step
(enter a position, try the next move, split, return) would pass those arrays
at every step of the hottest loop of the endgame.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import types
from numba.typed import Dict

from .._jit import entry, kernel
from ..squares import OUTCOME_MINE

__all__ = ["TOO_LARGE", "search", "zobrist"]

#: What :func:`search` returns as the chance when the search passed its limit.
TOO_LARGE = -1.0

# ``shown`` holds OUTCOME_MINE (the slot after the numbers 0 to 8) for a
# square with a mine: a plain module-level int, which numba reads as a
# compile-time constant.
_key_type = types.UniTuple(types.uint64, 2)
_value_type = types.Tuple((types.float64, types.int64))


_ENTER, _NEXT, _SPLIT, _RETURN = 0, 1, 2, 3
# A remembered or handed-back answer whose square is _BOUND is an upper
# bound on the chance, not the chance. A part is asked to beat _SLACK less
# than the move needs, and a bound is reported _MARGIN above what is known,
# so that a bound handed back is always under what the move needs (the
# margins are far above rounding and far below any gap between two chances:
# a chance is layouts won over layouts, so two differ by 1/layouts at least).
_BOUND = -2
_MARGIN = 1e-9
_SLACK = 1e-8


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
    best_chance = np.zeros(depth)
    best_square = np.full(depth, -1, np.int64)
    free = np.zeros(depth, np.bool_)
    # What a frame's chance must beat to matter to the frame below (see
    # _RETURN), and the level under which its move being tried is dropped.
    below = np.full(depth, -1.0)
    level = np.zeros(depth)
    most = np.zeros(depth)  # the most a dropped move could have won
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
                # A bound is of use only if it is under what the chance
                # must beat now; otherwise the position is searched again.
                if answer_square != _BOUND or answer <= below[d]:
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
            most[d] = 0.0
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
                or (total - risks[d, k]) / total <= below[d]
            ):
                if best_chance[d] > below[d] + _MARGIN:
                    answer, answer_square = best_chance[d], best_square[d]
                else:
                    # No move beat what the frame below needs: what is
                    # known is a bound, which it takes as a dropped move.
                    if k < move_count[d]:
                        most[d] = max(most[d], (total - risks[d, k]) / total)
                    answer = max(best_chance[d] + 1e-12, most[d]) + _MARGIN
                    answer_square = _BOUND
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
            level[d] = max((-1.0 if free[d] else best_chance[d]) + 1e-12, below[d])
            state = _SPLIT
            if level[d] > 0.0:
                # What the parts searched before may win at most: a move
                # that cannot reach the level even so is not searched.
                reach = 0.0
                for n in range(OUTCOME_MINE):
                    part = tally[d, n]
                    if part > 1:
                        key = (part_a[d, n], part_b[d, n])
                        if key in memo:
                            reach += part * min(memo[key][0], 1.0)
                            continue
                    reach += part
                if reach / total <= level[d]:
                    most[d] = max(most[d], reach / total)
                    move[d] += 1
                    state = _NEXT
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
                if (won[d] + left[d]) / total <= level[d]:
                    most[d] = max(most[d], (won[d] + left[d]) / total)
                    move[d] += 1
                    state = _NEXT
                continue
            start = bucket_start[d, n]
            position[d + 1, :part] = bucket[d, start : start + part]
            keys[d + 1, 0] = part_a[d, n]
            keys[d + 1, 1] = part_b[d, n]
            hashed[d + 1] = True
            size[d + 1] = part
            below[d + 1] = (level[d] * total - won[d] - left[d]) / part - _SLACK
            d += 1
            state = _ENTER
        else:  # _RETURN: hand the answer to the frame below
            if d == 0:
                return answer, answer_square
            d -= 1
            total = size[d]
            if answer_square == _BOUND:
                # The part cannot lift this move over its level: drop it.
                part = tally[d, number[d] - 1]
                most[d] = max(most[d], (won[d] + part * answer + left[d]) / total)
                move[d] += 1
                state = _NEXT
                continue
            won[d] += tally[d, number[d] - 1] * answer
            state = _SPLIT
            if (won[d] + left[d]) / total <= level[d]:
                most[d] = max(most[d], (won[d] + left[d]) / total)
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
def zobrist(count, salt):  # pragma: no cover - compiled
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
