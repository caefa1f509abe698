"""The board's labels for the replay machine: numbers, openings, lone numbers, islands, 3BV, ZiNi.

The counts and the openings are the rules' (:func:`minesweep.rules.counts.count_around`,
:func:`minesweep.rules.openings.openings_of`); ZiNi is the replay machine's own.
The board kernel works in column-major order (``col * rows + row``, the
order ZiNi scans in, which decides its ties, as ms-toollib's zini.rs does)
and hands the mouse machine row-major squares (``row * cols + col``, the
order of the views and of ms-toollib's neighbour loops), with each square's
row and column, which spare the divisions a flood would make.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..._jit import kernel
from ...rules.counts import count_around
from ...rules.openings import openings_of

__all__ = ["Board", "Profile", "Squares", "board_kernel", "profile_kernel"]

Array = Any  # numpy arrays; numba types them from the call
Int64s = npt.NDArray[np.int64]


class Squares(NamedTuple):
    """Per square, row-major: what the mouse machine reads of the board."""

    #: The number of a safe square; -1 for a mine.
    value: Int64s
    #: The opening (1, 2, ...) a safe 0 belongs to, else 0.
    zero: Int64s
    #: 1 for a lone number (a number on no opening: one 3BV on its own), else 0.
    lone: Int64s
    row: Int64s
    col: Int64s


class Profile(NamedTuple):
    """The board's numbers (:class:`..zini.BoardProfile` reads them by name)."""

    bbbv: int
    op: int
    isl: int
    #: Greedy and Human ZiNi: 0 unless asked for.
    zini: int
    hzini: int
    #: How many safe squares show each number 0-8.
    cells: Int64s


class Board(NamedTuple):
    """``board_kernel``'s answer."""

    squares: Squares
    profile: Profile


# Added to the key of squares ZiNi may not choose (mines; in Human ZiNi,
# closed squares): far below any real premium (within -10..+18).
_BARRED = -(1 << 20)
# ZiNi keeps the largest key of each run of 32 squares, raised as keys rise
# and recomputed only when that largest one falls, so that finding the
# highest key reads a tenth of them.
_BLOCK = 5


@kernel(cache=True, part="replays", nogil=True)
def _zini_run(
    human: bool,
    rows: int,
    cols: int,
    mine: Array,
    number: Array,
    opening: Array,
    premium: Array,
    member_start: Array,
    members: Array,
    safe: int,
    row_of: Array,
    col_of: Array,
) -> int:  # pragma: no cover - compiled
    """One ZiNi run (zini.rs's loop); ``human`` clicks every opening first.

    ``reveal`` of zini.rs is the loop at the end, over the squares of
    ``todo``: the same squares open, and the same keys change, in whatever
    order they are revealed.
    """
    size = rows * cols
    key = np.empty(size, np.int64)
    for i in range(size):
        key[i] = premium[i]
        if mine[i] or human:
            key[i] += _BARRED
    blocks = (size + (1 << _BLOCK) - 1) >> _BLOCK
    block_max = np.zeros(blocks, np.int64)  # recomputed (dirty) before first read
    dirty = np.ones(blocks, np.bool_)
    opened = np.zeros(size, np.bool_)
    flagged = np.zeros(size, np.bool_)
    todo = np.empty(9, np.int64)
    closed_safe = safe
    clicks = 0
    scan = 0  # Human ZiNi's first pass: the next square to look at
    fallback = 0
    while True:
        count = 0
        if human:
            while scan < size and (mine[scan] or number[scan] != 0 or opened[scan]):
                scan += 1
        if scan < size and human:
            todo[0] = scan
            scan += 1
            count = 1
            clicks += 1
        else:
            if closed_safe <= 0:
                break
            # The first square of the highest key: the column-major order breaks ties.
            best = _BARRED * 4
            best_block = 0
            for b in range(blocks):
                if dirty[b]:
                    low = b << _BLOCK
                    high = min(low + (1 << _BLOCK), size)
                    largest = key[low]
                    for i in range(low + 1, high):
                        largest = max(largest, key[i])
                    block_max[b] = largest
                    dirty[b] = False
                if block_max[b] > best:
                    best = block_max[b]
                    best_block = b
            if best >= 0:
                chosen = best_block << _BLOCK
                while key[chosen] != best:
                    chosen += 1
                # Click it (if closed), flag its mines, chord it; the reveals below.
                if not opened[chosen]:
                    clicks += 1
                r, c = row_of[chosen], col_of[chosen]
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    for rr in range(max(r - 1, 0), min(r + 2, rows)):
                        j = cc * rows + rr
                        if mine[j] and not flagged[j]:
                            flagged[j] = True
                            clicks += 1
                            for mc in range(max(cc - 1, 0), min(cc + 2, cols)):
                                for mr in range(max(rr - 1, 0), min(rr + 2, rows)):
                                    m = mc * rows + mr
                                    key[m] += 1
                                    block_max[m >> _BLOCK] = max(block_max[m >> _BLOCK], key[m])
                        todo[count] = j
                        count += 1
                clicks += 1
            else:
                # The first closed safe square that is a 0 or on no opening's
                # edge: squares only open, so it is never before the last one.
                while fallback < size and (
                    opened[fallback]
                    or mine[fallback]
                    or (number[fallback] != 0 and opening[fallback] != 0)
                ):
                    fallback += 1
                if fallback == size:
                    break
                todo[0] = fallback
                count = 1
                clicks += 1
        for t in range(count):
            i = todo[t]
            if opened[i] or flagged[i]:
                continue
            # A number opens alone; a 0 opens its whole opening, border
            # included, and every square of the opening loses one premium,
            # open before or not. (m -1: the number itself.)
            if number[i]:
                m, end = -1, 0
            else:
                m, end = member_start[opening[i]], member_start[opening[i] + 1]
            while m < end:
                j = i if m < 0 else members[m]
                if not opened[j]:
                    opened[j] = True
                    key[j] += 1
                    if human and not mine[j]:
                        key[j] -= _BARRED
                    block_max[j >> _BLOCK] = max(block_max[j >> _BLOCK], key[j])
                    if opening[j] == 0:
                        r, c = row_of[j], col_of[j]
                        for cc in range(max(c - 1, 0), min(c + 2, cols)):
                            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                                n = cc * rows + rr
                                if key[n] == block_max[n >> _BLOCK]:
                                    dirty[n >> _BLOCK] = True
                                key[n] -= 1
                    closed_safe -= 1
                if m >= 0:
                    if key[j] == block_max[j >> _BLOCK]:
                        dirty[j >> _BLOCK] = True
                    key[j] -= 1
                m += 1
    return clicks


@kernel(cache=True, part="replays", nogil=True)
def board_kernel(
    mines: Array, rows: int, cols: int, with_zini: bool
) -> Board:  # pragma: no cover - compiled
    """A board's numbers, openings, lone numbers and profile, from its ``(rows, cols)`` mine mask.

    Returns a :class:`Board`: the mouse machine's :class:`Squares`, and the
    :class:`Profile` (ZiNi and HZiNi left 0 unless ``with_zini``).
    """
    size = rows * cols
    # Column-major, the order ZiNi scans in (zini.rs's: it breaks ZiNi's ties,
    # and decides which two openings a border number keeps): the board
    # transposed, ``[col, row]``, whose row-major index is ``col * rows + row``.
    # The rules scan row-major, so on it they number the openings column by
    # column, as ms-toollib does. row_of and col_of spare divisions.
    mine_t = np.zeros((cols, rows), np.bool_)
    # Mines in the 3x3 block, the square itself included (so a mine's is at least 1).
    number_t = np.zeros((cols, rows), np.int64)
    row_of = np.empty(size, np.int64)
    col_of = np.empty(size, np.int64)
    for c in range(cols):
        for r in range(rows):
            i = c * rows + r
            row_of[i] = r
            col_of[i] = c
            if mines[r, c]:
                mine_t[c, r] = True
                count_around(number_t, c, r)
    mine = mine_t.reshape(size)
    number = number_t.reshape(size)
    found = openings_of(number_t, mine_t, with_zini)
    opening = found.opening.reshape(size)
    count = found.openings
    cells = np.zeros(9, np.int64)
    value = np.zeros(size, np.int64)
    zero = np.zeros(size, np.int64)
    lone = np.zeros(size, np.int64)
    row = np.zeros(size, np.int64)
    col = np.zeros(size, np.int64)
    safe = 0
    for r in range(rows):
        for c in range(cols):
            i = c * rows + r
            k = r * cols + c
            row[k] = r
            col[k] = c
            if mine[i]:
                value[k] = -1
                continue
            safe += 1
            value[k] = number[i]
            cells[number[i]] += 1
            if number[i] == 0:
                zero[k] = opening[i]
            elif found.lone[c, r]:
                lone[k] = 1
    greedy = human = 0
    if with_zini:
        opening2 = found.second.reshape(size)
        # Premium: what one chord there would save (adj3bv - number - 2).
        # adj3bv counts the safe squares of the 3x3 block on no opening:
        # summed down each column first, then across three columns.
        column = np.zeros(size, np.int64)
        for c in range(cols):
            base = c * rows
            for r in range(rows):
                i = base + r
                if not mine[i] and opening[i] == 0:
                    column[i] += 1
                    if r > 0:
                        column[i - 1] += 1
                    if r < rows - 1:
                        column[i + 1] += 1
        premium = np.zeros(size, np.int64)
        for i in range(size):
            # A mine's is never read: its key stays far below 0.
            if mine[i]:
                continue
            if number[i] == 0:
                adj = 1
            else:
                adj = column[i] + (opening[i] != 0) + (opening2[i] != 0)
                if col_of[i] > 0:
                    adj += column[i - rows]
                if col_of[i] < cols - 1:
                    adj += column[i + rows]
            premium[i] = adj - number[i] - 2
        # The squares whose first or second opening is each label, as CSR.
        member_start = np.zeros(count + 2, np.int64)
        for i in range(size):
            if opening[i]:
                member_start[opening[i] + 1] += 1
            if opening2[i]:
                member_start[opening2[i] + 1] += 1
        for label in range(1, count + 2):
            member_start[label] += member_start[label - 1]
        members = np.empty(member_start[count + 1], np.int64)
        filled = member_start[:-1].copy()
        for i in range(size):
            if opening[i]:
                members[filled[opening[i]]] = i
                filled[opening[i]] += 1
            if opening2[i]:
                members[filled[opening2[i]]] = i
                filled[opening2[i]] += 1
        greedy = _zini_run(
            False, rows, cols, mine, number, opening, premium, member_start, members, safe,
            row_of, col_of,
        )  # fmt: skip
        human = _zini_run(
            True, rows, cols, mine, number, opening, premium, member_start, members, safe,
            row_of, col_of,
        )  # fmt: skip
    squares = Squares(value, zero, lone, row, col)
    profile = Profile(count + found.lone_count, count, found.islands, greedy, human, cells)
    return Board(squares, profile)


@kernel(cache=True, part="replays", nogil=True)
def profile_kernel(
    mines: Array, rows: int, cols: int, with_zini: bool
) -> Profile:  # pragma: no cover - compiled
    """``board_kernel``'s :class:`Profile` alone, for Python: the squares are not handed back."""
    board: Board = board_kernel(mines, rows, cols, with_zini)
    return board.profile
