"""The replay machine's mouse: ms-toollib's step over a replay's events, in one kernel.

:mod:`..clicks` documents what ``clicks_kernel`` computes; this is how. The
views it records are in the core's glyphs (:mod:`.codes`). The rules are the
engines' (:mod:`minesweep.rules`): it opens squares with their reveal and
flood, toggles flags with their toggle and finds a chord's targets with
theirs; what is its own is ms-toollib's mouse (its states, its counters, its
3BV accounting) and the quirks kept for parity, each where it is used.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._jit import kernel
from ...rules.chord import chord_targets
from ...rules.marks import toggle_flag
from ...rules.small_flood import open_square
from ...squares import STATE_EXPLODED, STATE_HIDDEN
from .board import Squares
from .codes import (
    CC,
    CHORDED,
    CHORDING,
    CHORDING_NF,
    DOUBLE,
    DOWN_UP,
    DOWN_UP_AFTER,
    EXPLODED,
    FLAG,
    FLAGGED,
    HIDDEN,
    LC,
    LEFT,
    LOST,
    LR,
    MC,
    MINE,
    MR,
    MV,
    NOTHING,
    OPENED,
    PF,
    PLAYING,
    PRE,
    RC,
    READY,
    RIGHT,
    RR,
    UNFLAGGED,
    UP_DOWN,
    UP_DOWN_NF,
    UP_UP,
    WON,
    WRONG_FLAG,
    L,
    M,
    R,
)  # fmt: skip
from .literal import openings_around_literally
from .mouse_results import Clicks, Counters

__all__ = ["CLICK_FIELDS", "Clicks", "Counters", "clicks_kernel"]

Array = Any  # numpy arrays; numba types them from the call


#: The columns of a click row: event, kind, row, col, effect, effective, solved, view.
CLICK_FIELDS = 8

# What an event asks of the machine once its mouse state is updated (step's
# calls of left_click, right_click, chording_click and the off-board clicks).
_DO_NOTHING, _DO_LEFT, _DO_RIGHT, _DO_PRESS_RIGHT, _DO_CHORD = range(5)
_DO_OFF_LEFT, _DO_OFF_RIGHT, _DO_LEFT_NOTHING = range(5, 8)
# What follows the opening of squares.
_AFTER_LEFT_MINE, _AFTER_LEFT_OPEN, _AFTER_CHORD = range(3)
# Scratch (``work``): up to 8 squares to open, then up to 9 openings found.
_W_FOUND = 9
_W_SIZE = 18


@kernel(cache=True, part="replays", nogil=True)
def clicks_kernel(
    sq: Squares,
    openings: int,
    rows: int,
    cols: int,
    px: int,
    either_axis: bool,
    codes: Array,
    xs: Array,
    ys: Array,
) -> Clicks:  # pragma: no cover - compiled
    """The mouse machine over a replay's events (see :mod:`..clicks`); ``sq`` from board_kernel.

    One function, its state in local variables: ms-toollib's ``step`` (with
    ``left_click``, ``right_click``, ``chording_click`` and refresh_board)
    is the body of the event loop, in three parts: the mouse state, which
    decides what the event does (``todo``), then that, then the click it
    records and the view it adds (at most one of each an event). As
    functions, each call would count references to every array it is
    given, which cost more than the event itself.
    """
    number_of, zero_of, lone_of, row_of, col_of = sq
    size = rows * cols
    count = codes.shape[0]
    width, height = cols * px, rows * px
    safe_closed = 0
    for i in range(size):
        if number_of[i] >= 0:
            safe_closed += 1
    room = 1  # each event but a move records at most one click
    for index in range(count):
        if codes[index] != MV:
            room += 1
    clicks = np.empty((room, CLICK_FIELDS), np.int64)
    # The view, flat (``gb``, as ms-toollib names it) and as the rules' grid;
    # the rules' flood and flag toggle keep the squares' states beside it.
    gb = np.full(size, HIDDEN, np.uint8)
    view = gb.reshape(rows, cols)
    cell_state = np.full((rows, cols), STATE_HIDDEN, np.uint8)
    numbers = number_of.reshape(rows, cols)
    stack = np.empty(size, np.int64)
    views = np.empty((min(room + 1, 64), size), np.uint8)
    for i in range(size):
        views[0, i] = HIDDEN
    n_views = 1
    n_clicks = 0
    opening_flags = np.zeros(openings + 1, np.int64)
    flagged_before = np.zeros(size, np.bool_)
    work = np.empty(_W_SIZE, np.int64)
    left = right = double = lce = rce = dce = flag = solved = 0
    c15 = unflags = misflags = wasted = pre_flags = 0
    state, mouse = READY, UP_UP
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
        if kind != MV and (playing or not started):
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
                if kind == LC:
                    if mouse == UP_UP:
                        mouse = DOWN_UP
                        chord_on_flag = False
                        if not off:
                            state = PRE
                    elif mouse == UP_DOWN:
                        mouse = CHORDING
                    elif mouse == UP_DOWN_NF:
                        mouse = CHORDING_NF
                elif kind == PF:
                    if not off and gb[k] == HIDDEN:  # ms-toollib asserts otherwise
                        pre_flags += 1
                        state = PRE
                        todo = _DO_RIGHT
                elif kind == RC:
                    if mouse == UP_UP:
                        mouse = UP_DOWN
                        if not off:
                            pre_flags = 1
                            state = PRE
                            todo = _DO_PRESS_RIGHT
                    elif mouse == DOWN_UP_AFTER:
                        mouse = CHORDING
                    else:
                        play = True
                elif kind == LR:
                    if mouse in (CHORDING, CHORDING_NF):
                        mouse = UP_DOWN
                    elif mouse in (DOWN_UP_AFTER, DOWN_UP, UP_UP):
                        mouse = UP_UP
                elif kind == RR:
                    if mouse == UP_DOWN:
                        mouse = UP_UP
                    elif mouse == CHORDING:
                        mouse = DOWN_UP_AFTER
                    elif mouse != UP_UP:
                        play = True
                elif kind == CC:
                    if mouse == UP_DOWN_NF:
                        mouse = CHORDING_NF
                    elif mouse not in (CHORDING, CHORDING_NF):
                        mouse = CHORDING
                # mv mc mr: nothing (Arbiter may start with a middle click);
                # l r m: ms-toollib refuses them here.
            elif state == PRE:
                if kind == LR:
                    if mouse == DOWN_UP:
                        if off:
                            mouse = UP_UP
                            if pre_flags == 0:
                                state = READY
                                clear = True
                            else:
                                left += 1
                                todo = _DO_OFF_LEFT
                        elif gb[k] == HIDDEN:
                            state = PLAYING
                            mouse = UP_UP
                            todo = _DO_LEFT
                        else:
                            # On a pre-flag: a left click; ms-toollib leaves the button held.
                            left += 1
                            todo = _DO_LEFT_NOTHING
                    else:
                        play = True
                elif kind == PF:
                    if not off and gb[k] == HIDDEN:
                        pre_flags += 1
                        todo = _DO_RIGHT
                elif kind == RC:
                    if mouse == UP_UP:
                        if not off:
                            mouse = UP_DOWN
                            if gb[k] == HIDDEN:
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
                            mouse = UP_DOWN_NF
                            right += 1
                            todo = _DO_OFF_RIGHT
                    elif mouse == DOWN_UP:
                        mouse = CHORDING
                        if not off and pre_flags == 0:
                            state = READY
                    elif mouse == DOWN_UP_AFTER:
                        mouse = CHORDING
                    # ms-toollib refuses the other states
                elif kind == CC:
                    if mouse == DOWN_UP:
                        if not off and pre_flags == 0:
                            state = READY
                        mouse = CHORDING
                    elif mouse == UP_DOWN_NF:
                        mouse = CHORDING_NF
                    elif mouse not in (CHORDING, CHORDING_NF):
                        mouse = CHORDING
                elif kind not in (L, R, M):
                    # lc rr mv mc mr (and lr in other mouse states) follow the
                    # playing rules; ms-toollib refuses l r m before the game.
                    play = True
            else:
                play = True
            if play:
                # The rules once playing, which ms-toollib also applies to
                # some events before; a chord released off the board is none.
                chord = take_back = False
                if kind == LC or (kind == L and mouse in (UP_UP, UP_DOWN, UP_DOWN_NF)):
                    if mouse == UP_UP:
                        mouse = DOWN_UP
                        chord_on_flag = False
                    elif mouse == UP_DOWN:
                        mouse = CHORDING
                    elif mouse == UP_DOWN_NF:
                        mouse = CHORDING_NF
                elif kind in (LR, L):
                    if mouse == DOWN_UP:
                        mouse = UP_UP
                        if not off:
                            todo = _DO_LEFT
                        elif kind == LR:
                            # ms-toollib counts a left release off the board, but not an "l" one.
                            left += 1
                            todo = _DO_OFF_LEFT
                    elif mouse == CHORDING:
                        mouse = UP_DOWN
                        chord = True
                    elif mouse == CHORDING_NF:
                        mouse = UP_DOWN
                        chord = take_back = True
                    elif mouse in (DOWN_UP_AFTER, UP_UP):
                        mouse = UP_UP
                        chord_on_flag = False
                elif kind == RC or (kind == R and mouse in (UP_UP, DOWN_UP, DOWN_UP_AFTER)):
                    if mouse == UP_UP:
                        if not off:
                            mouse = UP_DOWN_NF if gb[k] < HIDDEN else UP_DOWN
                            todo = _DO_PRESS_RIGHT
                        elif kind == RC:  # an "r" here: ms-toollib indexes off the board
                            mouse = UP_DOWN_NF
                            right += 1
                            todo = _DO_OFF_RIGHT
                    elif mouse in (DOWN_UP, DOWN_UP_AFTER):
                        mouse = CHORDING
                elif kind in (RR, R):
                    if mouse in (UP_DOWN, UP_DOWN_NF):
                        mouse = UP_UP
                        chord_on_flag = False
                        pending = -1
                    elif mouse == CHORDING:
                        mouse = DOWN_UP_AFTER
                        chord = True
                    elif mouse == CHORDING_NF:
                        mouse = DOWN_UP_AFTER
                        chord = take_back = True
                elif kind == MC:
                    middle_held = True
                elif kind in (MR, M):
                    # A middle release chords; "m" is a press or a release, as the button was.
                    middle_held = kind == M and not middle_held
                    if not middle_held and not off:  # off: ms-toollib indexes off the board
                        chord_on_flag = False
                        todo = _DO_CHORD
                elif kind == CC:
                    if mouse == UP_DOWN_NF:
                        mouse = CHORDING_NF
                    elif mouse not in (CHORDING, CHORDING_NF):
                        mouse = CHORDING
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
                toggle_flag(cell_state, view, row_of[k], col_of[k])
                if zero_of[k]:
                    opening_flags[zero_of[k]] -= 1
                add_view = True
            # --- what it does ------------------------------------------------
            level = 0
            record = todo != _DO_NOTHING
            click_kind, click_k, effect, effective, click_solved = LEFT, k, NOTHING, False, 0
            opening = 0  # squares to open, in work[:opening]
            after = _AFTER_LEFT_OPEN
            if todo == _DO_LEFT:
                left += 1
                if gb[k] == HIDDEN:
                    value = number_of[k]
                    work[0] = k
                    opening = 1
                    if value < 0:
                        effect = MINE
                        after = _AFTER_LEFT_MINE
                    else:
                        # The opening is a whole 3BV unless a flag sits on one of its 0s.
                        if value == 0:
                            if opening_flags[zero_of[k]] == 0:
                                click_solved = 1
                        elif lone_of[k]:
                            click_solved = 1
                        solved += click_solved
                        lce += 1
                        effect, effective = OPENED, True
            elif todo in (_DO_RIGHT, _DO_PRESS_RIGHT):
                right += 1
                click_kind = RIGHT
                if gb[k] < HIDDEN:
                    pending = n_clicks
                else:
                    is_mine = number_of[k] < 0
                    zero = zero_of[k]
                    flagging = gb[k] == HIDDEN
                    toggle_flag(cell_state, view, row_of[k], col_of[k])
                    if flagging:
                        effective = is_mine and not flagged_before[k]
                        effect = FLAGGED
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
                        effect = UNFLAGGED
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
                click_kind = DOUBLE
                r, c = row_of[k], col_of[k]
                # An open 0 chords too, in ms-toollib (it may border flagged 0s left closed).
                opening = chord_targets(view, r, c, 0, False, work)
                if opening:
                    # op_num_around_cell: the whole openings it opens.
                    found = 0
                    flagged = False
                    for i in range(max(r - 1, 0), min(r + 2, rows)):
                        for j in range(max(c - 1, 0), min(c + 2, cols)):
                            n = i * cols + j
                            if gb[n] == HIDDEN and number_of[n] == 0:
                                label = zero_of[n]
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
                        found = openings_around_literally(
                            number_of, row_of, col_of, gb, k, rows, cols
                        )
                    click_solved = found
                    lost = False
                    for s in range(opening):
                        if lone_of[work[s]]:
                            click_solved += 1
                        if number_of[work[s]] < 0:
                            lost = True
                    dce += 1
                    solved += click_solved
                    if lost:
                        state = LOST
                    effect, effective = CHORDED, True
                    after = _AFTER_CHORD
            elif todo == _DO_OFF_LEFT:
                click_k = -1
            elif todo == _DO_OFF_RIGHT:
                # A chord may follow, and take this press back.
                pending = n_clicks
                chord_on_flag = False
                click_kind, click_k = RIGHT, -1
            # _DO_LEFT_NOTHING: the click as set above.
            if opening:
                # refresh_board: open the squares (the rules' reveal and
                # flood: ms-toollib's opens them in another order, the same
                # squares), show a mine hit and the wrong flags. Not the
                # rules' loss view (rules.ends.show_loss: the first mine
                # goes off, every mine shows): ms-toollib shows each mine
                # the click opened as gone off, and no other, and the tests
                # hold the views to its.
                hit = False
                for s in range(opening):
                    here = work[s]
                    r, c = row_of[here], col_of[here]
                    if number_of[here] < 0:
                        gb[here] = EXPLODED
                        cell_state[r, c] = STATE_EXPLODED
                        hit = True
                    elif cell_state[r, c] == STATE_HIDDEN:
                        safe_closed -= open_square(numbers, cell_state, view, r, c, stack, row_of)
                if hit:
                    for i in range(size):
                        if gb[i] == FLAG and number_of[i] >= 0:
                            gb[i] = WRONG_FLAG
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
                        effect = MINE
                        level = 4
                    else:
                        level = 3
            if record:
                # With the view before the event (added below).
                clicks[n_clicks, 0] = index
                clicks[n_clicks, 1] = click_kind
                clicks[n_clicks, 2] = row_of[click_k] if click_k >= 0 else -1
                clicks[n_clicks, 3] = col_of[click_k] if click_k >= 0 else -1
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
    counters = Counters(
        left, right, double, lce, rce, dce, flag, solved, state, c15, unflags, misflags, wasted,
        start_at, end_at,
    )  # fmt: skip
    return Clicks(counters, clicks[:kept], views[:n_views], path)
