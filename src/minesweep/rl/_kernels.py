"""The vector environment's kernel: every board's reveal in one compiled call (numba)."""

from __future__ import annotations

import numpy as np
from numba import njit

from minesweep._kernels import flood
from minesweep.squares import (
    GLYPH_EXPLODED,
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_MINE,
    STATE_EXPLODED,
    STATE_REVEALED,
)

__all__ = ["LOST", "PLAYING", "RESETTING", "WON", "step_boards"]

#: A board's status; RESETTING marks a board that takes no action this step.
PLAYING, WON, LOST, RESETTING = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def step_boards(  # pragma: no cover - compiled
    actions,
    numbers,
    mines,
    state,
    view,
    status,
    opened,
    safe,
    rewards_out,
    win,
    loss,
    progress,
    invalid,
):
    """Reveal ``actions[i]`` on every board ``i``; rewards, statuses and views in place."""
    boards, rows, cols = view.shape
    seed_rows = np.empty(1, np.int64)
    seed_cols = np.empty(1, np.int64)
    for i in range(boards):
        square = actions[i]
        r = square // cols
        c = square % cols
        if status[i] != PLAYING or view[i, r, c] != GLYPH_HIDDEN:
            rewards_out[i] = invalid
            continue
        if mines[i, r, c]:
            state[i, r, c] = STATE_EXPLODED
            status[i] = LOST
            for y in range(rows):
                for x in range(cols):
                    if mines[i, y, x] and view[i, y, x] == GLYPH_HIDDEN:
                        view[i, y, x] = GLYPH_MINE
            view[i, r, c] = GLYPH_EXPLODED
            rewards_out[i] = loss
            continue
        before = opened[i]
        state[i, r, c] = STATE_REVEALED
        view[i, r, c] = numbers[i, r, c]
        count = 1
        if numbers[i, r, c] == 0:
            seed_rows[0] = r
            seed_cols[0] = c
            spread, top, bottom, left, right = flood(
                numbers[i], state[i], seed_rows, seed_cols, np.uint8(STATE_REVEALED)
            )
            count += spread
            for y in range(max(top, 0), min(bottom, rows - 1) + 1):
                for x in range(max(left, 0), min(right, cols - 1) + 1):
                    if state[i, y, x] == STATE_REVEALED and view[i, y, x] == GLYPH_HIDDEN:
                        view[i, y, x] = numbers[i, y, x]
        opened[i] = before + count
        rewards_out[i] = progress * count / safe
        if opened[i] == safe:
            status[i] = WON
            for y in range(rows):
                for x in range(cols):
                    if mines[i, y, x]:
                        view[i, y, x] = GLYPH_FLAG
            rewards_out[i] += win
