"""A compiled player that only ever makes certain moves (numba).

:func:`play_certain_moves` plays a position on with three sound rules, and
reports how many safe squares are left. It is what no-guess generation and
the autoplayer run many times over (through
:func:`minesweep.solver.certain.play_until_stuck`, which asks the exact
analysis when it stalls), so it is a numba kernel, and it is deliberately not
the exact solver: every move it makes is certain, but it may stall on a
board that deeper reasoning would clear.

The rules, applied until none makes progress:

1. **One number.** Around a revealed number with ``r`` mines still to find
   among ``u`` unknown neighbours: ``r == 0`` makes them all safe, ``r == u``
   makes them all mines.
2. **Two numbers.** For two numbers within two squares of each other, their
   unknown neighbours split into "only the first" (``a``), "only the second"
   (``b``) and "both" (``c``). The mines in ``c`` lie in a range both numbers
   bound; where the range pins a part to none or all of its squares, that
   part is decided.
3. **The mine count.** When no number helps and every mine is known, every
   unknown square is safe.

A work queue holds the numbers whose surroundings changed since they were
last looked at, so each deduction costs only what it touches.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .._jit import kernel
from ..squares import KNOWN_MINE as _MINE
from ..squares import KNOWN_OPEN as _OPEN
from ..squares import KNOWN_UNKNOWN as _UNKNOWN
from ..squares import MAX_NUMBER, Knowledge

__all__ = [
    "ALL_MINES",
    "ALL_SAFE",
    "PROVED_SAFE",
    "UNDECIDED",
    "one_number",
    "play_certain_moves",
    "resume_certain_moves",
    "settle_one_number",
]

_grid = types.Array(types.uint8, 2, "C", readonly=True)

#: What rule 1 says of a number's unknown neighbours (:func:`one_number`).
UNDECIDED, ALL_SAFE, ALL_MINES = 0, 1, 2
#: A fourth note, for :func:`settle_one_number`, which opens nothing: a hidden
#: square proved safe, to :func:`_tally` neither unknown nor a mine.
PROVED_SAFE = int(max(Knowledge)) + 1


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _touch(numbers, state, queued, queue, tail, row, col):  # pragma: no cover - compiled
    """Queue the revealed numbers around a square that just changed (and itself)."""
    rows, cols = state.shape
    size = queue.shape[0]
    for r in range(max(row - 1, 0), min(row + 2, rows)):
        for c in range(max(col - 1, 0), min(col + 2, cols)):
            index = r * cols + c
            if state[r, c] == _OPEN and numbers[r, c] > 0 and not queued[index]:
                queued[index] = True
                queue[tail % size] = index
                tail += 1
    return tail


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _open(numbers, state, queued, queue, tail, stack, row, col):  # pragma: no cover
    """Open a safe square and the blank region around it; return (tail, opened).

    A flood fill of its own, not the board's (:func:`minesweep.rules.flood.flood`):
    it fills the player's notes (:class:`minesweep.squares.Knowledge`), not the
    board's states, and queues every number it opens for the rules as it
    goes, which the board's flood has no reason to do.
    """
    rows, cols = numbers.shape
    state[row, col] = _OPEN
    tail = _touch(numbers, state, queued, queue, tail, row, col)
    opened = 1
    top = 0
    if numbers[row, col] == 0:
        stack[0] = row * cols + col
        top = 1
    while top:
        top -= 1
        r, c = divmod(stack[top], cols)
        for rr in range(max(r - 1, 0), min(r + 2, rows)):
            for cc in range(max(c - 1, 0), min(c + 2, cols)):
                if state[rr, cc] == _UNKNOWN:
                    state[rr, cc] = _OPEN
                    opened += 1
                    tail = _touch(numbers, state, queued, queue, tail, rr, cc)
                    if numbers[rr, cc] == 0:
                        stack[top] = rr * cols + cc
                        top += 1
    return tail, opened


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _tally(state, row, col):  # pragma: no cover - compiled
    """Unknown and known-mine neighbours of a square."""
    rows, cols = state.shape
    unknown = 0
    mines = 0
    for r in range(max(row - 1, 0), min(row + 2, rows)):
        for c in range(max(col - 1, 0), min(col + 2, cols)):
            s = state[r, c]
            if s == _UNKNOWN:
                unknown += 1
            elif s == _MINE:
                mines += 1
    return unknown, mines


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy", inline="always")
def one_number(numbers, state, row, col):  # pragma: no cover - compiled
    """Rule 1 at the open number ``row, col``: what it says, its unknown neighbours, mines left.

    ``ALL_SAFE`` when no mine is left to find among its unknown neighbours,
    ``ALL_MINES`` when there are as many as unknown neighbours, else (and
    when it has no unknown neighbour) ``UNDECIDED``. The one statement of
    the single-number rule: the player below and the replays' verdict
    (:func:`settle_one_number`) both ask it.
    """
    unknown, found = _tally(state, row, col)
    left = numbers[row, col] - found
    says = UNDECIDED
    if unknown:
        if left == 0:
            says = ALL_SAFE
        elif left == unknown:
            says = ALL_MINES
    return says, unknown, left


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy", inline="always")
def _mark_mine(numbers, state, queued, queue, tail, row, col):  # pragma: no cover - compiled
    """Note a deduced mine and queue the numbers around it; return the new tail."""
    state[row, col] = _MINE
    return _touch(numbers, state, queued, queue, tail, row, col)


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _one_number(numbers, state, queued, queue, tail, stack, r, c, left):  # pragma: no cover
    """Rule 1 at number (r, c) with ``left`` mines to find: open or mark all its unknowns.

    Returns (tail, squares opened, mines marked).
    """
    rows, cols = state.shape
    opened = 0
    marked = 0
    for rr in range(max(r - 1, 0), min(r + 2, rows)):
        for cc in range(max(c - 1, 0), min(c + 2, cols)):
            if state[rr, cc] != _UNKNOWN:
                continue
            if left == 0:
                tail, count = _open(numbers, state, queued, queue, tail, stack, rr, cc)
                opened += count
            else:
                tail = _mark_mine(numbers, state, queued, queue, tail, rr, cc)
                marked += 1
    return tail, opened, marked


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy", inline="always")
def _pair_verdict(unknown, left, unknown2, left2, shared):  # pragma: no cover - compiled
    """Rule 2's verdict on the three parts of two numbers' unknown squares.

    Part 0 is "only the first", 1 "only the second", 2 "both". Returns a
    bit mask: bit ``2 * part`` when that part is certainly safe, bit
    ``2 * part + 1`` when it is certainly mines (an empty part: neither).
    """
    only_a = unknown - shared
    only_b = unknown2 - shared
    low = max(0, left - only_a, left2 - only_b)
    high = min(shared, left, left2)
    verdict = 0
    if only_a:
        verdict |= (left - low == 0) | ((left - high == only_a) << 1)
    if only_b:
        verdict |= ((left2 - low == 0) << 2) | ((left2 - high == only_b) << 3)
    if shared:
        verdict |= ((high == 0) << 4) | ((low == shared) << 5)
    return verdict


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _two_numbers(
    numbers, state, queued, queue, tail, stack, r, c, unknown, left
):  # pragma: no cover
    """Rule 2 at number (r, c) against every other number up to two squares away.

    Stops at the first pair that decides a square. Returns (tail, squares
    opened, mines marked).
    """
    rows, cols = state.shape
    for r2 in range(max(r - 2, 0), min(r + 3, rows)):
        for c2 in range(max(c - 2, 0), min(c + 3, cols)):
            if (r2 == r and c2 == c) or state[r2, c2] != _OPEN or numbers[r2, c2] == 0:
                continue
            # The squares both see first: far pairs share one or two, often
            # none unknown, and then the other number's tally is not needed.
            shared = 0
            for rr in range(max(r - 1, r2 - 1, 0), min(r + 2, r2 + 2, rows)):
                for cc in range(max(c - 1, c2 - 1, 0), min(c + 2, c2 + 2, cols)):
                    if state[rr, cc] == _UNKNOWN:
                        shared += 1
            if shared == 0:
                continue
            unknown2, found2 = _tally(state, r2, c2)
            verdict = _pair_verdict(unknown, left, unknown2, numbers[r2, c2] - found2, shared)
            if verdict == 0:
                continue  # this pair decides nothing
            tail, opened, marked = _decide_parts(
                numbers, state, queued, queue, tail, stack, r, c, r2, c2, verdict
            )
            if opened or marked:
                return tail, opened, marked
    return tail, 0, 0


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _decide_parts(
    numbers, state, queued, queue, tail, stack, r, c, r2, c2, verdict
):  # pragma: no cover - compiled
    """Open or mark the unknown squares of every part rule 2 decided.

    Returns (tail, squares opened, mines marked).
    """
    rows, cols = state.shape
    opened = 0
    marked = 0
    for part in range(3):
        safe = (verdict >> (2 * part)) & 1
        if not (verdict >> (2 * part)) & 3:
            continue
        for rr in range(max(min(r, r2) - 1, 0), min(max(r, r2) + 2, rows)):
            for cc in range(max(min(c, c2) - 1, 0), min(max(c, c2) + 2, cols)):
                if state[rr, cc] != _UNKNOWN:
                    continue
                near_a = abs(rr - r) <= 1 and abs(cc - c) <= 1
                near_b = abs(rr - r2) <= 1 and abs(cc - c2) <= 1
                if part == 0 and not (near_a and not near_b):
                    continue
                if part == 1 and not (near_b and not near_a):
                    continue
                if part == 2 and not (near_a and near_b):
                    continue
                if safe:
                    tail, count = _open(numbers, state, queued, queue, tail, stack, rr, cc)
                    opened += count
                else:
                    tail = _mark_mine(numbers, state, queued, queue, tail, rr, cc)
                    marked += 1
    return tail, opened, marked


@kernel(
    types.int64(_grid, types.int64, types.uint8[:, ::1], types.int64[::1], types.int64[::1]),
    cache=True,
    part="autoplay",
    nogil=True,
    error_model="numpy",
)
def play_certain_moves(numbers, total_mines, state, opens, mines):  # pragma: no cover
    """Play certain moves from a position; return how many safe squares are left.

    ``state`` (:class:`minesweep.squares.Knowledge`: unknown, open, or a deduced
    mine) is updated in place. ``opens`` lists squares (flat indices) known
    to be safe to open first, and ``mines`` squares known to be mines. The
    caller knows the field; squares are opened by their numbers alone, and
    no decision reads where the mines are.
    """
    return _certain_moves(numbers, total_mines, state, opens, mines, True)


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def resume_certain_moves(numbers, total_mines, state, opens, mines):  # pragma: no cover
    """:func:`play_certain_moves` from a position it left stuck, with new ``opens`` and ``mines``.

    Where no rule applies anywhere in ``state`` (as :func:`play_certain_moves`
    leaves it when it returns more than 0), a number can only say something
    new once a square around it changes; so only the numbers around the
    squares opened and marked here are looked at, not every number on the
    board. The rules reach the same fixpoint whatever order they run in (each
    makes only sound deductions, and knowing more never stops one from
    firing), so the position is the one :func:`play_certain_moves` reaches.
    Except at the end: both stop as soon as every safe square is open, and
    the mines marked by then depend on the order; so when this one opens the
    last safe square, the position before it is played again by
    :func:`play_certain_moves` (once a game), and even the marks are its.
    The compiled game (:mod:`._play`) calls it after each analysis and guess.
    """
    before = state.copy()
    left = _certain_moves(numbers, total_mines, state, opens, mines, False)
    if left == 0:
        state[:] = before
        left = _certain_moves(numbers, total_mines, state, opens, mines, True)
    return left


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def _certain_moves(numbers, total_mines, state, opens, mines, every):  # pragma: no cover
    """The two above: ``every`` queues every open number first, else only those
    around the squares that change."""
    rows, cols = numbers.shape
    cells = rows * cols
    queued = np.zeros(cells, np.bool_)
    queue = np.empty(cells, np.int64)  # a ring: each square is queued at most once
    stack = np.empty(cells, np.int64)
    head = 0
    tail = 0
    known_mines = 0
    hidden_safe = 0
    for r in range(rows):
        for c in range(cols):
            s = state[r, c]
            if s == _MINE:
                known_mines += 1
            elif s == _OPEN and numbers[r, c] > 0 and every:
                queued[r * cols + c] = True
                queue[tail % cells] = r * cols + c
                tail += 1
            elif s == _UNKNOWN:
                hidden_safe += 1
    safe_left = hidden_safe - (total_mines - known_mines)
    for i in range(mines.shape[0]):
        r, c = divmod(mines[i], cols)
        if state[r, c] == _UNKNOWN:
            tail = _mark_mine(numbers, state, queued, queue, tail, r, c)
            known_mines += 1
    for i in range(opens.shape[0]):
        r, c = divmod(opens[i], cols)
        if state[r, c] == _UNKNOWN:
            tail, count = _open(numbers, state, queued, queue, tail, stack, r, c)
            safe_left -= count
    while head < tail and safe_left > 0:
        index = queue[head % cells]
        head += 1
        queued[index] = False
        r, c = divmod(index, cols)
        says, unknown, left = one_number(numbers, state, r, c)
        if unknown == 0:
            continue
        if says != UNDECIDED:
            tail, opened, marked = _one_number(
                numbers, state, queued, queue, tail, stack, r, c, left
            )
        else:
            tail, opened, marked = _two_numbers(
                numbers, state, queued, queue, tail, stack, r, c, unknown, left
            )
        safe_left -= opened
        known_mines += marked
    if safe_left > 0 and known_mines == total_mines:
        # Rule 3: every mine is known, so every unknown square is safe.
        for r in range(rows):
            for c in range(cols):
                if state[r, c] == _UNKNOWN:
                    state[r, c] = _OPEN
                    safe_left -= 1
    return safe_left


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy", inline="always")
def _queue_open(state, queued, queue, tail, row, col):  # pragma: no cover - compiled
    """Queue the open squares around a square that changed (and itself), 0s too; the new tail.

    Unlike :func:`_touch`, a 0 is queued: in a player's view a 0 may border
    hidden squares (a flag the flood left shut, and flags are not trusted).
    """
    rows, cols = state.shape
    size = queue.shape[0]
    for r in range(max(row - 1, 0), min(row + 2, rows)):
        for c in range(max(col - 1, 0), min(col + 2, cols)):
            index = r * cols + c
            if state[r, c] == _OPEN and not queued[index]:
                queued[index] = True
                queue[tail % size] = index
                tail += 1
    return tail


@kernel(cache=True, part="autoplay", nogil=True, error_model="numpy")
def settle_one_number(view, numbers, state, queued, queue):  # pragma: no cover - compiled
    """Rule 1 alone over a player's view, to a fixpoint, resumed from an earlier view's notes.

    ``view`` holds glyphs: up to :data:`~minesweep.squares.MAX_NUMBER` an open
    square, anything else hidden (flags are not trusted). ``state`` holds
    the notes of the view before (:class:`~minesweep.squares.Knowledge`, and
    :data:`PROVED_SAFE`; all unknown at first) and ``numbers`` its open
    squares' numbers, both updated; ``queued`` (False) and ``queue`` are
    scratch of one entry a square. Each view must open a superset of the
    squares of the one before, as a game's views do: what rule 1 proved stays
    proved, so only the squares that opened are looked at again. Opens
    nothing (the squares' numbers are not known); returns how many squares
    the view opened.
    """
    rows, cols = view.shape
    size = queue.shape[0]
    head = 0
    tail = 0
    opened = 0
    for r in range(rows):
        for c in range(cols):
            if state[r, c] != _OPEN and view[r, c] <= MAX_NUMBER:
                state[r, c] = _OPEN
                numbers[r, c] = view[r, c]
                opened += 1
                tail = _queue_open(state, queued, queue, tail, r, c)
    while head < tail:
        index = queue[head % size]
        head += 1
        queued[index] = False
        r, c = divmod(index, cols)
        says = one_number(numbers, state, r, c)[0]
        if says == UNDECIDED:
            continue
        note = PROVED_SAFE if says == ALL_SAFE else _MINE
        for rr in range(max(r - 1, 0), min(r + 2, rows)):
            for cc in range(max(c - 1, 0), min(c + 2, cols)):
                if state[rr, cc] == _UNKNOWN:
                    state[rr, cc] = note
                    tail = _queue_open(state, queued, queue, tail, rr, cc)
    return opened
