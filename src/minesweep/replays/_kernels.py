"""The compiled kernels of the replay statistics: the board's numbers and ZiNi, the mouse machine.

:mod:`.zini` and :mod:`.clicks` document what these compute; this module is
how. They run compiled (numba) through :mod:`minesweep._jit`, part
``replays``, and interpreted until that part is compiled: the same source,
so the same answers (the tests hold the two to each other on random games).

Everything is on flat arrays. The board kernel works in column-major order
(``col * rows + row``, the order ZiNi scans in, which decides its ties) and
hands the mouse machine row-major rows of squares (``row * cols + col``, the
order of the views and of ms-toollib's neighbour loops), with each square's
row and column, which spare the divisions a flood would make.

One kernel reads: ``rmv_events_kernel``, the RMV reader's event records
(variable-sized, so decoded in one pass over the bytes).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._jit import kernel

__all__ = [
    "board_kernel",
    "clicks_kernel",
    "operations_kernel",
    "pairwise_sum",
    "replay_kernel",
    "rmv_events_kernel",
]

Array = Any  # numpy arrays; numba types them from the call

# --- the board ----------------------------------------------------------------

#: ``board_kernel``'s profile vector: 3BV, openings, islands, ZiNi, HZiNi, cell0-8.
P_BBBV, P_OP, P_ISL, P_ZINI, P_HZINI, P_CELLS = 0, 1, 2, 3, 4, 5
PROFILE_SIZE = 14
#: ``board_kernel``'s rows of squares (row-major): the number (-1 a mine), the
#: opening of a 0, whether a lone number, the row, the column.
Q_VALUE, Q_ZERO, Q_LONE, Q_ROW, Q_COL = range(5)
Q_ROWS = 5

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
) -> tuple[Array, Array]:  # pragma: no cover - compiled
    """A board's numbers, openings, lone numbers and profile, from its ``(rows, cols)`` mine mask.

    Returns ``(squares, profile)``: ``squares`` the machine's per-square rows
    (``Q_*``: the number of each safe square and -1 for a mine; the opening
    (1, 2, ...) each safe 0 belongs to, else 0; whether it is a lone number,
    one 3BV on its own; its row and column), row-major; ``profile`` the
    ``P_*`` slots (ZiNi and HZiNi left 0 unless ``with_zini``).
    """
    size = rows * cols
    # Column-major, the order ZiNi scans in; row_of and col_of spare divisions.
    mine = np.zeros(size, np.bool_)
    row_of = np.empty(size, np.int64)
    col_of = np.empty(size, np.int64)
    for c in range(cols):
        for r in range(rows):
            i = c * rows + r
            mine[i] = mines[r, c]
            row_of[i] = r
            col_of[i] = c
    # Mines in the 3x3 block, the square itself included (so a mine's is at least 1).
    number = np.zeros(size, np.int64)
    for c in range(cols):
        for r in range(rows):
            if mine[c * rows + r]:
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    for rr in range(max(r - 1, 0), min(r + 2, rows)):
                        number[cc * rows + rr] += 1
    # Openings numbered 1, 2, ... in column-major order of their first square;
    # a border square keeps the first two that reach it, as zini.rs's
    # recursive fill does (it fills one opening completely before the next).
    opening = np.zeros(size, np.int64)
    opening2 = np.zeros(size, np.int64)
    stack = np.empty(size, np.int64)
    count = 0
    for start in range(size):
        if mine[start] or number[start] or opening[start]:
            continue
        count += 1
        opening[start] = count
        stack[0] = start
        top = 1
        while top:
            top -= 1
            here = stack[top]
            r, c = row_of[here], col_of[here]
            for cc in range(max(c - 1, 0), min(c + 2, cols)):
                for rr in range(max(r - 1, 0), min(r + 2, rows)):
                    j = cc * rows + rr
                    if number[j]:
                        if opening[j] == 0:
                            opening[j] = count
                        elif opening[j] != count and opening2[j] == 0:
                            opening2[j] = count
                    elif opening[j] == 0:
                        opening[j] = count
                        stack[top] = j
                        top += 1
    profile = np.zeros(PROFILE_SIZE, np.int64)
    squares = np.zeros((Q_ROWS, size), np.int64)
    lone_count = 0
    safe = 0
    for r in range(rows):
        for c in range(cols):
            i = c * rows + r
            k = r * cols + c
            squares[Q_ROW, k] = r
            squares[Q_COL, k] = c
            if mine[i]:
                squares[Q_VALUE, k] = -1
                continue
            safe += 1
            squares[Q_VALUE, k] = number[i]
            profile[P_CELLS + number[i]] += 1
            if number[i] == 0:
                squares[Q_ZERO, k] = opening[i]
            elif opening[i] == 0:
                squares[Q_LONE, k] = 1
                lone_count += 1
    profile[P_OP] = count
    profile[P_BBBV] = count + lone_count
    # Islands: groups of lone numbers, eight neighbours apart.
    seen = np.zeros(size, np.bool_)
    islands = 0
    for start in range(size):
        if not squares[Q_LONE, start] or seen[start]:
            continue
        islands += 1
        seen[start] = True
        stack[0] = start
        top = 1
        while top:
            top -= 1
            here = stack[top]
            r, c = squares[Q_ROW, here], squares[Q_COL, here]
            for rr in range(max(r - 1, 0), min(r + 2, rows)):
                for cc in range(max(c - 1, 0), min(c + 2, cols)):
                    j = rr * cols + cc
                    if squares[Q_LONE, j] and not seen[j]:
                        seen[j] = True
                        stack[top] = j
                        top += 1
    profile[P_ISL] = islands
    if with_zini:
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
        for human in (False, True):
            profile[P_HZINI if human else P_ZINI] = _zini_run(
                human, rows, cols, mine, number, opening, premium, member_start, members,
                safe, row_of, col_of,
            )  # fmt: skip
    return squares, profile


# --- the mouse machine ----------------------------------------------------------

# Event kind codes (EVF's, in EVENT_KINDS' order).
_MV, _LC, _LR, _RC, _RR, _MC, _MR, _PF, _CC, _L, _R, _M = range(1, 13)
# Mouse states (minesweeper_board.rs's MouseState); "NF": the right button went
# down on an open square, so it toggles no flag.
_UP_UP, _UP_DOWN, _UP_DOWN_NF, _DOWN_UP, _CHORDING, _CHORDING_NF, _DOWN_UP_AFTER = range(7)
# Game states; ms-toollib's PreFlaging is PRE: something happened before the first opening.
READY, PRE, PLAYING, WON, LOST = range(5)
# View codes (clicks.VIEW_*).
_HIDDEN, _FLAG, _WRONG_FLAG, _EXPLODED = 10, 11, 14, 15
# Click kinds and effects (clicks.ClickKind, clicks.ClickEffect).
_LEFT, _RIGHT, _DOUBLE = 0, 1, 2
_NOTHING, _FLAGGED, _UNFLAGGED, _OPENED, _CHORDED, _MINE = range(6)

#: ``clicks_kernel``'s counters vector.
(
    C_LEFT, C_RIGHT, C_DOUBLE, C_LCE, C_RCE, C_DCE, C_FLAG, C_SOLVED, C_STATE, C_C15,
    C_UNFLAGS, C_MISFLAGS, C_WASTED, C_START, C_END,
) = range(15)  # fmt: skip
COUNTERS = 15
#: The columns of a click row: event, kind, row, col, effect, effective, solved, view.
CLICK_FIELDS = 8

# What an event asks of the machine once its mouse state is updated (step's
# calls of left_click, right_click, chording_click and the off-board clicks).
_DO_NOTHING, _DO_LEFT, _DO_RIGHT, _DO_PRESS_RIGHT, _DO_CHORD = range(5)
_DO_OFF_LEFT, _DO_OFF_RIGHT, _DO_LEFT_NOTHING = range(5, 8)
# What follows the opening of squares.
_AFTER_LEFT_MINE, _AFTER_LEFT_OPEN, _AFTER_CHORD = range(3)
# Scratch (``work``): up to 8 squares to open, up to 9 openings found, a stack.
_W_FOUND = 9
_W_STACK = 18


@kernel(cache=True, part="replays", nogil=True)
def _openings_around_literally(
    sq: Array, gb: Array, k: int, rows: int, cols: int
) -> int:  # pragma: no cover - compiled
    """op_num_around_cell with a flag on some 0 of an opening around ``k``.

    ms-toollib's searches share their marks and may stop early, so their
    answer depends on the search order; this follows it.
    """
    marked = np.zeros(gb.shape[0], np.bool_)
    stack = np.empty(8 * gb.shape[0] + 8, np.int64)
    whole = 0
    r, c = sq[Q_ROW, k], sq[Q_COL, k]
    for i in range(max(r - 1, 0), min(r + 2, rows)):
        for j in range(max(c - 1, 0), min(c + 2, cols)):
            start = i * cols + j
            if gb[start] != _HIDDEN or sq[Q_VALUE, start] != 0 or marked[start]:
                continue
            complete = True
            stack[0] = start
            top = 1
            while top:
                top -= 1
                here = stack[top]
                if sq[Q_VALUE, here] != 0:
                    continue
                if gb[here] == _FLAG:
                    complete = False
                    break
                marked[here] = True
                hr, hc = sq[Q_ROW, here], sq[Q_COL, here]
                for a in range(max(hr - 1, 0), min(hr + 2, rows)):
                    for b in range(max(hc - 1, 0), min(hc + 2, cols)):
                        n = a * cols + b
                        if n != here and not marked[n]:
                            # A square may be pushed more than once (marked
                            # when popped, as ms-toollib does): grow if needed.
                            if top == stack.shape[0]:
                                bigger = np.empty(2 * top, np.int64)
                                bigger[:top] = stack
                                stack = bigger
                            stack[top] = n
                            top += 1
            if complete:
                whole += 1
    return whole


@kernel(cache=True, part="replays", nogil=True)
def clicks_kernel(
    sq: Array,
    openings: int,
    rows: int,
    cols: int,
    px: int,
    either_axis: bool,
    codes: Array,
    xs: Array,
    ys: Array,
) -> tuple[Array, Array, Array, float]:  # pragma: no cover - compiled
    """The mouse machine over a replay's events (see :mod:`.clicks`); ``sq`` from board_kernel.

    Returns ``(counters, clicks, views, path)``: ``counters`` the ``C_*``
    slots (``C_START``/``C_END``: the index of the event that started and
    ended the game, -1 for none); ``clicks`` one row of ``CLICK_FIELDS`` a
    click; ``views`` one row a view; ``path`` in pixels.

    One function, its state in local variables: ms-toollib's ``step`` (with
    ``left_click``, ``right_click``, ``chording_click`` and refresh_board)
    is the body of the event loop, in three parts: the mouse state, which
    decides what the event does (``todo``), then that, then the click it
    records and the view it adds (at most one of each an event). As
    functions, each call would count references to every array it is
    given, which cost more than the event itself.
    """
    size = rows * cols
    count = codes.shape[0]
    width, height = cols * px, rows * px
    safe_closed = 0
    for i in range(size):
        if sq[Q_VALUE, i] >= 0:
            safe_closed += 1
    room = 1  # each event but a move records at most one click
    for index in range(count):
        if codes[index] != _MV:
            room += 1
    clicks = np.empty((room, CLICK_FIELDS), np.int64)
    gb = np.full(size, _HIDDEN, np.uint8)
    views = np.empty((min(room + 1, 64), size), np.uint8)
    for i in range(size):
        views[0, i] = _HIDDEN
    n_views = 1
    n_clicks = 0
    opening_flags = np.zeros(openings + 1, np.int64)
    flagged_before = np.zeros(size, np.bool_)
    work = np.empty(_W_STACK + size, np.int64)
    left = right = double = lce = rce = dce = flag = solved = 0
    c15 = unflags = misflags = wasted = pre_flags = 0
    state, mouse = READY, _UP_UP
    chord_on_flag = middle_held = False
    pending = -1  # the click a chord begun with the right button may take back
    start_at = end_at = -1
    # The game starts (time 0, and the path) at the first left release that
    # opens a square; events after it won or lost count only in the path.
    started = False
    playing = False
    last_x = last_y = 0
    path = 0.0
    for index in range(count):
        kind = codes[index]
        x, y = xs[index], ys[index]
        on_board = 0 <= x < width and 0 <= y < height
        if kind != _MV and (playing or not started):
            if n_views == views.shape[0]:
                bigger = np.empty((2 * n_views, size), np.uint8)
                bigger[:n_views] = views
                views = bigger
            k = (y // px) * cols + x // px if on_board else -1
            off = k < 0
            todo = _DO_NOTHING
            clear = unflag_k = add_view = False
            # --- the mouse state (minesweeper_board.rs's step) -------------
            play = False  # whether the playing rules decide (also before the game)
            if state >= WON:
                pass
            elif state == READY:
                if kind == _LC:
                    if mouse == _UP_UP:
                        mouse = _DOWN_UP
                        chord_on_flag = False
                        if not off:
                            state = PRE
                    elif mouse == _UP_DOWN:
                        mouse = _CHORDING
                    elif mouse == _UP_DOWN_NF:
                        mouse = _CHORDING_NF
                elif kind == _PF:
                    if not off and gb[k] == _HIDDEN:  # ms-toollib asserts otherwise
                        pre_flags += 1
                        state = PRE
                        todo = _DO_RIGHT
                elif kind == _RC:
                    if mouse == _UP_UP:
                        mouse = _UP_DOWN
                        if not off:
                            pre_flags = 1
                            state = PRE
                            todo = _DO_PRESS_RIGHT
                    elif mouse == _DOWN_UP_AFTER:
                        mouse = _CHORDING
                    else:
                        play = True
                elif kind == _LR:
                    if mouse in (_CHORDING, _CHORDING_NF):
                        mouse = _UP_DOWN
                    elif mouse in (_DOWN_UP_AFTER, _DOWN_UP, _UP_UP):
                        mouse = _UP_UP
                elif kind == _RR:
                    if mouse == _UP_DOWN:
                        mouse = _UP_UP
                    elif mouse == _CHORDING:
                        mouse = _DOWN_UP_AFTER
                    elif mouse != _UP_UP:
                        play = True
                elif kind == _CC:
                    if mouse == _UP_DOWN_NF:
                        mouse = _CHORDING_NF
                    elif mouse not in (_CHORDING, _CHORDING_NF):
                        mouse = _CHORDING
                # mv mc mr: nothing (Arbiter may start with a middle click);
                # l r m: ms-toollib refuses them here.
            elif state == PRE:
                if kind == _LR:
                    if mouse == _DOWN_UP:
                        if off:
                            mouse = _UP_UP
                            if pre_flags == 0:
                                state = READY
                                clear = True
                            else:
                                left += 1
                                todo = _DO_OFF_LEFT
                        elif gb[k] == _HIDDEN:
                            state = PLAYING
                            mouse = _UP_UP
                            todo = _DO_LEFT
                        else:
                            # On a pre-flag: a left click; ms-toollib leaves the button held.
                            left += 1
                            todo = _DO_LEFT_NOTHING
                    else:
                        play = True
                elif kind == _PF:
                    if not off and gb[k] == _HIDDEN:
                        pre_flags += 1
                        todo = _DO_RIGHT
                elif kind == _RC:
                    if mouse == _UP_UP:
                        if not off:
                            mouse = _UP_DOWN
                            if gb[k] == _HIDDEN:
                                pre_flags += 1
                                todo = _DO_PRESS_RIGHT
                            else:
                                pre_flags -= 1
                                if pre_flags == 0:
                                    # The last pre-flag taken away: back to the start.
                                    state = READY
                                    clear = unflag_k = True
                                else:
                                    todo = _DO_PRESS_RIGHT
                        else:
                            mouse = _UP_DOWN_NF
                            right += 1
                            todo = _DO_OFF_RIGHT
                    elif mouse == _DOWN_UP:
                        mouse = _CHORDING
                        if not off and pre_flags == 0:
                            state = READY
                    elif mouse == _DOWN_UP_AFTER:
                        mouse = _CHORDING
                    # ms-toollib refuses the other states
                elif kind == _CC:
                    if mouse == _DOWN_UP:
                        if not off and pre_flags == 0:
                            state = READY
                        mouse = _CHORDING
                    elif mouse == _UP_DOWN_NF:
                        mouse = _CHORDING_NF
                    elif mouse not in (_CHORDING, _CHORDING_NF):
                        mouse = _CHORDING
                elif kind not in (_L, _R, _M):
                    # lc rr mv mc mr (and lr in other mouse states) follow the
                    # playing rules; ms-toollib refuses l r m before the game.
                    play = True
            else:
                play = True
            if play:
                # The rules once playing, which ms-toollib also applies to
                # some events before; a chord released off the board is none.
                chord = take_back = False
                if kind == _LC or (kind == _L and mouse in (_UP_UP, _UP_DOWN, _UP_DOWN_NF)):
                    if mouse == _UP_UP:
                        mouse = _DOWN_UP
                        chord_on_flag = False
                    elif mouse == _UP_DOWN:
                        mouse = _CHORDING
                    elif mouse == _UP_DOWN_NF:
                        mouse = _CHORDING_NF
                elif kind in (_LR, _L):
                    if mouse == _DOWN_UP:
                        mouse = _UP_UP
                        if not off:
                            todo = _DO_LEFT
                        elif kind == _LR:
                            # ms-toollib counts a left release off the board, but not an "l" one.
                            left += 1
                            todo = _DO_OFF_LEFT
                    elif mouse == _CHORDING:
                        mouse = _UP_DOWN
                        chord = True
                    elif mouse == _CHORDING_NF:
                        mouse = _UP_DOWN
                        chord = take_back = True
                    elif mouse in (_DOWN_UP_AFTER, _UP_UP):
                        mouse = _UP_UP
                        chord_on_flag = False
                elif kind == _RC or (kind == _R and mouse in (_UP_UP, _DOWN_UP, _DOWN_UP_AFTER)):
                    if mouse == _UP_UP:
                        if not off:
                            mouse = _UP_DOWN_NF if gb[k] < _HIDDEN else _UP_DOWN
                            todo = _DO_PRESS_RIGHT
                        elif kind == _RC:  # an "r" here: ms-toollib indexes off the board
                            mouse = _UP_DOWN_NF
                            right += 1
                            todo = _DO_OFF_RIGHT
                    elif mouse in (_DOWN_UP, _DOWN_UP_AFTER):
                        mouse = _CHORDING
                elif kind in (_RR, _R):
                    if mouse in (_UP_DOWN, _UP_DOWN_NF):
                        mouse = _UP_UP
                        chord_on_flag = False
                        pending = -1
                    elif mouse == _CHORDING:
                        mouse = _DOWN_UP_AFTER
                        chord = True
                    elif mouse == _CHORDING_NF:
                        mouse = _DOWN_UP_AFTER
                        chord = take_back = True
                elif kind == _MC:
                    middle_held = True
                elif kind in (_MR, _M):
                    # A middle release chords; "m" is a press or a release, as the button was.
                    middle_held = kind == _M and not middle_held
                    if not middle_held and not off:  # off: ms-toollib indexes off the board
                        chord_on_flag = False
                        todo = _DO_CHORD
                elif kind == _CC:
                    if mouse == _UP_DOWN_NF:
                        mouse = _CHORDING_NF
                    elif mouse not in (_CHORDING, _CHORDING_NF):
                        mouse = _CHORDING
                # mv; pf once playing (ms-toollib refuses it): nothing.
                if take_back:
                    # A chord begun with the right button on an open square:
                    # its right press was no click.
                    if right > 0:  # unsigned in ms-toollib; never 0 here in practice
                        right -= 1
                    if pending >= 0:
                        clicks[pending, 0] = -1  # deleted: dropped at the end
                    pending = -1
                if chord:
                    if off:
                        chord_on_flag = False
                    else:
                        todo = _DO_CHORD
            if clear:
                # clear_click_num: back to the start before the game began.
                flag = double = left = right = 0
                for i in range(size):
                    flagged_before[i] = False
                n_clicks = 0
                pending = -1
                c15 = unflags = misflags = wasted = 0
            if unflag_k:
                gb[k] = _HIDDEN
                if sq[Q_ZERO, k]:
                    opening_flags[sq[Q_ZERO, k]] -= 1
                add_view = True
            # --- what it does ------------------------------------------------
            level = 0
            record = todo != _DO_NOTHING
            click_kind, click_k, effect, effective, click_solved = _LEFT, k, _NOTHING, False, 0
            opening = 0  # squares to open, in work[:opening]
            after = _AFTER_LEFT_OPEN
            if todo == _DO_LEFT:
                left += 1
                if gb[k] == _HIDDEN:
                    value = sq[Q_VALUE, k]
                    work[0] = k
                    opening = 1
                    if value < 0:
                        effect = _MINE
                        after = _AFTER_LEFT_MINE
                    else:
                        # The opening is a whole 3BV unless a flag sits on one of its 0s.
                        if value == 0:
                            if opening_flags[sq[Q_ZERO, k]] == 0:
                                click_solved = 1
                        elif sq[Q_LONE, k]:
                            click_solved = 1
                        solved += click_solved
                        lce += 1
                        effect, effective = _OPENED, True
            elif todo in (_DO_RIGHT, _DO_PRESS_RIGHT):
                right += 1
                click_kind = _RIGHT
                if gb[k] < _HIDDEN:
                    pending = n_clicks
                else:
                    is_mine = sq[Q_VALUE, k] < 0
                    zero = sq[Q_ZERO, k]
                    if gb[k] == _HIDDEN:
                        effective = is_mine and not flagged_before[k]
                        effect = _FLAGGED
                        gb[k] = _FLAG
                        flag += 1
                        if zero:
                            opening_flags[zero] += 1
                        if effective:
                            rce += 1
                        else:
                            wasted += 1
                            if not is_mine:
                                misflags += 1
                        if is_mine:
                            flagged_before[k] = True
                    else:
                        effect = _UNFLAGGED
                        gb[k] = _HIDDEN
                        flag -= 1
                        if zero:
                            opening_flags[zero] -= 1
                        unflags += 1
                    add_view = True
                    level = 1
                if todo == _DO_PRESS_RIGHT:
                    # A right press from "both up": it may start a 1.5 click.
                    chord_on_flag = level == 1
            elif todo == _DO_CHORD:
                double += 1
                if chord_on_flag:
                    c15 += 1
                chord_on_flag = False
                click_kind = _DOUBLE
                shown = gb[k]
                # An open 0 can be chorded too (it may border flagged 0s left closed).
                if shown < 8:
                    flags = 0
                    r, c = sq[Q_ROW, k], sq[Q_COL, k]
                    for i in range(max(r - 1, 0), min(r + 2, rows)):
                        for j in range(max(c - 1, 0), min(c + 2, cols)):
                            n = i * cols + j
                            if n != k:
                                if gb[n] == _FLAG:
                                    flags += 1
                                elif gb[n] == _HIDDEN:
                                    work[opening] = n
                                    opening += 1
                    if flags != shown:
                        opening = 0
                    if opening:
                        # op_num_around_cell: the whole openings it opens.
                        found = 0
                        flagged = False
                        for i in range(max(r - 1, 0), min(r + 2, rows)):
                            for j in range(max(c - 1, 0), min(c + 2, cols)):
                                n = i * cols + j
                                if gb[n] == _HIDDEN and sq[Q_VALUE, n] == 0:
                                    label = sq[Q_ZERO, n]
                                    new = True
                                    for f in range(_W_FOUND, _W_FOUND + found):
                                        if work[f] == label:
                                            new = False
                                    if new:
                                        work[_W_FOUND + found] = label
                                        found += 1
                                        if opening_flags[label] != 0:
                                            flagged = True
                        if flagged:
                            found = _openings_around_literally(sq, gb, k, rows, cols)
                        click_solved = found
                        lost = False
                        for s in range(opening):
                            if sq[Q_LONE, work[s]]:
                                click_solved += 1
                            if sq[Q_VALUE, work[s]] < 0:
                                lost = True
                        dce += 1
                        solved += click_solved
                        if lost:
                            state = LOST
                        effect, effective = _CHORDED, True
                        after = _AFTER_CHORD
            elif todo == _DO_OFF_LEFT:
                click_k = -1
            elif todo == _DO_OFF_RIGHT:
                # A chord may follow, and take this press back.
                pending = n_clicks
                chord_on_flag = False
                click_kind, click_k = _RIGHT, -1
            # _DO_LEFT_NOTHING: the click as set above.
            if opening:
                # refresh_board: open the squares, flood from 0s, show a mine
                # hit and the wrong flags. Squares open as they are pushed
                # (ms-toollib's as they are popped): the same squares open.
                hit = False
                top = _W_STACK
                for s in range(opening):
                    here = work[s]
                    value = sq[Q_VALUE, here]
                    if value < 0:
                        gb[here] = _EXPLODED
                        hit = True
                    elif gb[here] == _HIDDEN:
                        gb[here] = value
                        safe_closed -= 1
                        if value == 0:
                            work[top] = here
                            top += 1
                while top > _W_STACK:
                    top -= 1
                    here = work[top]
                    r, c = sq[Q_ROW, here], sq[Q_COL, here]
                    for i in range(max(r - 1, 0), min(r + 2, rows)):
                        for j in range(max(c - 1, 0), min(c + 2, cols)):
                            n = i * cols + j
                            if gb[n] == _HIDDEN:
                                value = sq[Q_VALUE, n]
                                gb[n] = value
                                safe_closed -= 1
                                if value == 0:
                                    work[top] = n
                                    top += 1
                if hit:
                    for i in range(size):
                        if gb[i] == _FLAG and sq[Q_VALUE, i] >= 0:
                            gb[i] = _WRONG_FLAG
                add_view = True
                if after == _AFTER_LEFT_MINE:
                    state = LOST
                    level = 4
                elif after == _AFTER_LEFT_OPEN:
                    if safe_closed == 0:
                        state = WON
                    level = 2
                else:
                    # ms-toollib looks for a win after a loss: a chord that
                    # opens a mine and the last safe squares wins.
                    if safe_closed == 0:
                        state = WON
                    if state == LOST:
                        effect = _MINE
                        level = 4
                    else:
                        level = 3
            if record:
                # With the view before the event (added below).
                clicks[n_clicks, 0] = index
                clicks[n_clicks, 1] = click_kind
                clicks[n_clicks, 2] = sq[Q_ROW, click_k] if click_k >= 0 else -1
                clicks[n_clicks, 3] = sq[Q_COL, click_k] if click_k >= 0 else -1
                clicks[n_clicks, 4] = effect
                clicks[n_clicks, 5] = 1 if effective else 0
                clicks[n_clicks, 6] = click_solved
                clicks[n_clicks, 7] = n_views - 1
                n_clicks += 1
            if add_view:
                for i in range(size):
                    views[n_views, i] = gb[i]
                n_views += 1
            # --- the game's start and end ------------------------------------
            if not started:
                # BaseVideo::analyse: time 0 is the last event before the game
                # was on that changed the board, i.e. the first opening click.
                if level:
                    start_at = index
                if state >= PLAYING:
                    started = True
                    playing = state == PLAYING
                    last_x, last_y = x, y
                    if not playing:
                        end_at = index
                continue
            if state >= WON:
                playing = False
                end_at = index
        if not started:
            continue
        # ms-toollib skips only its off-board sentinel (see clicks' documentation).
        if not on_board and (either_axis or ((x < 0 or x >= width) and (y < 0 or y >= height))):
            continue
        dx = x - last_x
        dy = y - last_y
        if dx or dy:
            path += math.sqrt(dx * dx + dy * dy)
            last_x = x
            last_y = y
    # Drop the clicks a chord took back.
    kept = 0
    for n in range(n_clicks):
        if clicks[n, 0] >= 0:
            if kept != n:
                for f in range(CLICK_FIELDS):
                    clicks[kept, f] = clicks[n, f]
            kept += 1
    counters = np.empty(COUNTERS, np.int64)
    counters[C_LEFT] = left
    counters[C_RIGHT] = right
    counters[C_DOUBLE] = double
    counters[C_LCE] = lce
    counters[C_RCE] = rce
    counters[C_DCE] = dce
    counters[C_FLAG] = flag
    counters[C_SOLVED] = solved
    counters[C_STATE] = state
    counters[C_C15] = c15
    counters[C_UNFLAGS] = unflags
    counters[C_MISFLAGS] = misflags
    counters[C_WASTED] = wasted
    counters[C_START] = start_at
    counters[C_END] = end_at
    return counters, clicks[:kept], views[:n_views], path


# --- reading ------------------------------------------------------------------

#: ``rmv_events_kernel``'s status: read to the termination, or where and why it stopped.
(RMV_OK, RMV_NO_END, RMV_IN_MOUSE, RMV_IN_MOVE, RMV_IN_STAMP, RMV_IN_BOARD, RMV_IN_END,
 RMV_UNKNOWN) = range(8)  # fmt: skip


@kernel(cache=True, part="replays", nogil=True)
def rmv_events_kernel(
    data: Array,
    start: int,
    end: int,
    version: int,
    pf_xs: Array,
    pf_ys: Array,
) -> tuple[Array, Array, Array, Array, Array, int, int, int, int]:  # pragma: no cover - compiled
    """The events of an RMV file's event section, ``data[start:end]`` (see :mod:`.rmv`).

    ``data`` is the file's bytes; ``pf_xs`` and ``pf_ys`` the pixels of the
    pre-flags, which come first (time 0, kind ``pf``). Returns ``(times_ms,
    codes, xs, ys, offsets, status, at, ending, total_ms)``: the columns
    (kind codes 1-8 as :data:`.model.CODE_BY_KIND`; offsets the byte of each
    event), then ``RMV_OK`` and the termination code and time, or another
    ``RMV_*`` status and the byte ``at`` where reading stopped (``ending``
    the unknown code for ``RMV_UNKNOWN``); the columns are then empty.
    """
    flags = len(pf_xs)
    # Every record takes at least 3 bytes; the first mouse event is doubled.
    size = flags + (end - start) // 3 + 2
    times = np.empty(size, np.int64)
    codes = np.empty(size, np.uint8)
    xs = np.empty(size, np.int64)
    ys = np.empty(size, np.int64)
    offsets = np.empty(size, np.int64)
    for i in range(flags):
        times[i] = 0
        codes[i] = 8  # pf
        xs[i] = pf_xs[i]
        ys[i] = pf_ys[i]
        offsets[i] = start
    n = flags
    dx, dy = (12, 56) if version == 1 else (0, 0)
    pos = start
    time = x = y = 0
    first = True
    status = RMV_NO_END
    ending = 0
    total = 0
    while pos < end:
        code = data[pos] + 0  # int64 compiled (a byte's type is uint8)
        step = 9
        if 1 <= code <= 7:
            if pos + 9 > end:
                status = RMV_IN_MOUSE
                break
            # Products, not shifts: numba shifts a byte as uint64.
            time = data[pos + 1] * 65536 + data[pos + 2] * 256 + data[pos + 3]
            x = data[pos + 5] * 256 + data[pos + 6]
            y = data[pos + 7] * 256 + data[pos + 8]
            if version == 2:
                x -= (x & 0x8000) << 1
                y -= (y & 0x8000) << 1
            x -= dx
            y -= dy
        elif code == 28 and version == 2 and not first:
            if pos + 3 > end:
                status = RMV_IN_MOVE
                break
            packed = data[pos + 2] + 0
            time += data[pos + 1]
            x += (packed >> 4 & 7) - (packed >> 4 & 8)
            y += (packed & 7) - (packed & 8)
            code = 1  # mv
            step = 3
        elif code == 0 and version == 1:
            if pos + 5 > end:
                status = RMV_IN_STAMP
                break
            pos += 5
            continue
        elif 9 <= code <= 14 or 18 <= code <= 27:
            if pos + 3 > end:
                status = RMV_IN_BOARD
                break
            pos += 3
            continue
        elif 15 <= code <= 17:
            if pos + 4 > end:
                status = RMV_IN_END
                break
            status = RMV_OK
            ending = code
            total = data[pos + 1] * 65536 + data[pos + 2] * 256 + data[pos + 3]
            break
        else:
            status = RMV_UNKNOWN
            ending = code
            break
        if first:
            # Viennasweeper starts the game on the first left press and does
            # not record it; ms-toollib and RawVF both put it back here.
            first = False
            times[n] = time
            codes[n] = 2  # lc
            xs[n] = x
            ys[n] = y
            offsets[n] = pos
            n += 1
        times[n] = time
        codes[n] = code
        xs[n] = x
        ys[n] = y
        offsets[n] = pos
        n += 1
        pos += step
    if status != RMV_OK:
        n = 0
    return times[:n], codes[:n], xs[:n], ys[:n], offsets[:n], status, pos, ending, total


# --- operation statistics -------------------------------------------------------

#: ``operations_kernel``'s per-game vector: OperationStats' fields, in its order.
OPERATION_FIELDS = 14
_PAIRWISE_BLOCK = 128


@kernel(cache=True, part="replays", nogil=True)
def _block_sum(a: Array, lo: int, n: int) -> float:  # pragma: no cover - compiled
    """numpy's pairwise_sum of ``a[lo:lo + n]`` for ``n <= 128``: eight running sums."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return float(res)
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    whole = n - n % 8
    while i < whole:
        at = lo + i
        r0 += a[at]
        r1 += a[at + 1]
        r2 += a[at + 2]
        r3 += a[at + 3]
        r4 += a[at + 4]
        r5 += a[at + 5]
        r6 += a[at + 6]
        r7 += a[at + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += a[lo + i]
        i += 1
    return float(res)


@kernel(cache=True, part="replays", nogil=True)
def pairwise_sum(a: Array) -> float:  # pragma: no cover - compiled
    """``a.sum()`` as numpy adds it (its pairwise summation), to the last bit.

    numpy halves a run longer than 128 (the first half a multiple of 8) and
    adds the halves' sums; here with an explicit stack (numba's cache holds
    no recursive kernel).
    """
    n = a.shape[0]
    if n <= _PAIRWISE_BLOCK:
        whole: float = _block_sum(a, 0, n)
        return whole
    los = np.empty(64, np.int64)
    ns = np.empty(64, np.int64)
    lefts = np.empty(64, np.float64)
    second = np.zeros(64, np.bool_)
    los[0], ns[0], second[0] = 0, n, False
    top = 0
    value = 0.0
    done = False  # whether ``value`` is the sum of the node above ``top``'s child
    while True:
        if done:
            if top < 0:
                return float(value)
            if not second[top]:
                lefts[top] = value
                second[top] = True
                half = ns[top] // 2
                half -= half % 8
                top += 1
                los[top], ns[top], second[top] = los[top - 1] + half, ns[top - 1] - half, False
                done = False
            else:
                value = lefts[top] + value
                top -= 1
            continue
        m = ns[top]
        if m <= _PAIRWISE_BLOCK:
            value = _block_sum(a, los[top], m)
            top -= 1
            done = True
        else:
            half = m // 2
            half -= half % 8
            top += 1
            los[top], ns[top], second[top] = los[top - 1], half, False


@kernel(cache=True, part="replays", nogil=True)
def operations_kernel(
    clicks: Array,
    views: Array,
    codes: Array,
    xs: Array,
    ys: Array,
    click_times: Array,
    start_event: int,
    start: float,
    total: float,
    dce: int,
    px: int,
    cols: int,
    width: int,
    height: int,
    either_axis: bool,
) -> tuple[Array, Array, Array, Array, Array, Array]:  # pragma: no cover - compiled
    """Each click's travel, interval, squares opened, waste and 1.5-click, and the game's sums.

    ``clicks`` are ``clicks_kernel``'s rows, ``views`` its views,
    ``click_times`` the file time of each click's event; ``start_event`` is
    -1 when the game never started. Returns ``(travel, interval, opened,
    wasted, click_15, game)``, ``game`` :class:`.operations.OperationStats`'
    fields in its order (see :mod:`.operations` for what each is). The
    path follows :func:`.operations.cumulative_path` (numpy's hypot, diff
    and cumsum) and the sums numpy's, so the numbers are the same to the bit.
    """
    n = clicks.shape[0]
    count = codes.shape[0]
    events = clicks[:, 0]
    # ms-toollib's path at each click, in pixels: the kept positions' steps from the start.
    at_click = np.zeros(n, np.float64)
    if start_event >= 0 and count:
        sx, sy = xs[start_event:], ys[start_event:]
        x_off = (sx < 0) | (sx >= width)
        y_off = (sy < 0) | (sy >= height)
        skipped = (x_off | y_off) if either_axis else (x_off & y_off)
        skipped[0] = False  # the start itself: where the path begins
        kept = np.flatnonzero(~skipped)
        kx, ky = sx[kept], sy[kept]
        steps = np.hypot(
            (kx[1:] - kx[:-1]).astype(np.float64), (ky[1:] - ky[:-1]).astype(np.float64)
        )
        sums = np.empty(steps.shape[0] + 1, np.float64)
        sums[0] = 0.0
        sums[1:] = np.cumsum(steps)
        for i in range(n):
            if events[i] >= start_event:
                at_click[i] = sums[np.searchsorted(kept, events[i] - start_event, "right") - 1]
    scale = 16.0 / px
    travel = np.empty(n, np.float64)
    interval = np.empty(n, np.float64)
    opened = np.zeros(n, np.int64)
    wasted = np.zeros(n, np.bool_)
    click_15 = np.zeros(n, np.bool_)
    last_flag = np.full(views.shape[1], -1, np.int64)
    before_path = 0.0
    before_time = 0.0
    for i in range(n):
        here = at_click[i] * scale
        travel[i] = here - before_path
        before_path = here
        game_time = np.maximum(click_times[i] - start, 0.0)
        interval[i] = game_time - before_time
        before_time = game_time
        effect = clicks[i, 4]
        view = clicks[i, 7]
        if effect in (_OPENED, _CHORDED, _MINE) and view + 1 < views.shape[0]:
            # Whole rows at once: as fast compiled, and far faster interpreted.
            opened[i] = np.count_nonzero((views[view] > 8) & (views[view + 1] <= 8))
        if effect == _NOTHING:
            wasted[i] = True
        elif effect in (_FLAGGED, _UNFLAGGED):
            # A flag taken away: the unflag and the flag it undid are both wasted.
            k = clicks[i, 2] * cols + clicks[i, 3]
            if effect == _FLAGGED:
                last_flag[k] = i
            else:
                wasted[i] = True
                if last_flag[k] >= 0:
                    wasted[last_flag[k]] = True
                last_flag[k] = -1
        # A double after a right click that toggled a flag, the right button
        # held between (no right release), not a middle-button chord.
        if (
            i > 0
            and clicks[i, 1] == _DOUBLE
            and clicks[i - 1, 1] == _RIGHT
            and clicks[i - 1, 4] in (_FLAGGED, _UNFLAGGED)
            and codes[events[i]] != _MR
            and codes[events[i]] != _M
        ):
            held = True
            for e in range(events[i - 1] + 1, events[i]):
                if codes[e] == _RR or codes[e] == _R:
                    held = False
                    break
            click_15[i] = held
    game = np.zeros(OPERATION_FIELDS, np.float64)
    for kind in range(3):
        mask = clicks[:, 1] == kind
        game[kind] = pairwise_sum(travel[mask])
        game[3 + kind] = pairwise_sum(interval[mask])
        game[6 + kind] = game[3 + kind] / total if total > 0 else 0.0
        game[11 + kind] = np.count_nonzero(wasted[mask])
    chord_opened = 0
    for i in range(n):
        if clicks[i, 1] == _DOUBLE:
            chord_opened += opened[i]
    game[9] = chord_opened
    game[10] = chord_opened / dce if dce else 0.0
    return travel, interval, opened, wasted, click_15, game


@kernel(cache=True, part="replays", nogil=True)
def replay_kernel(
    mines: Array,
    rows: int,
    cols: int,
    with_zini: bool,
    px: int,
    either_axis: bool,
    codes: Array,
    xs: Array,
    ys: Array,
    times: Array,
    with_operations: bool,
) -> tuple[Array, Array, Array, float, Array]:  # pragma: no cover - compiled
    """``board_kernel``, ``clicks_kernel`` and (if asked) ``operations_kernel`` in one call.

    Returns ``(numbers, clicks, views, path, game)``: ``numbers`` the
    board's profile (``P_*``) then the counters (``C_*`` after
    ``PROFILE_SIZE``): one array the fewer to hand back to Python; ``game``
    ``operations_kernel``'s per-game sums (empty unless ``with_operations``).
    """
    sq, profile = board_kernel(mines, rows, cols, with_zini)
    counters, clicks, views, path = clicks_kernel(
        sq, profile[P_OP], rows, cols, px, either_axis, codes, xs, ys
    )
    numbers = np.empty(PROFILE_SIZE + COUNTERS, np.int64)
    numbers[:PROFILE_SIZE] = profile
    numbers[PROFILE_SIZE:] = counters
    game = np.zeros(0, np.float64)
    if with_operations:
        # As ClickAnalysis has them: time 0, the end, whether the game started.
        start_at, end_at = counters[C_START], counters[C_END]
        count = times.shape[0]
        start = times[start_at] if start_at >= 0 else 0.0
        end = 0.0
        if count:
            end = times[end_at] if end_at >= 0 else times[count - 1]
        started = start_at >= 0 and counters[C_STATE] >= PLAYING
        click_times = times[clicks[:, 0]]
        game = operations_kernel(
            clicks, views, codes, xs, ys, click_times, start_at if started else -1, start,
            end - start, counters[C_DCE], px, cols, cols * px, rows * px, either_axis,
        )[5]  # fmt: skip
    return numbers, clicks, views, path, game
