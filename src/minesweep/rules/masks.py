"""Which actions change a board: the action mask of both RL environments (numba)."""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..squares import GLYPH_FLAG, GLYPH_HIDDEN
from .chord import chord_targets
from .codes import PLAYING

__all__ = ["fill_masks"]


@kernel(cache=True, part="vector", nogil=True, error_model="numpy")
def fill_masks(view, status, blocks, masks):  # pragma: no cover - compiled
    """Which actions change each board: reveals, then flag toggles and chords (``blocks`` 3)."""
    boards, rows, cols = view.shape
    squares = rows * cols
    flat = view.reshape(boards, squares)
    targets = np.empty(9, np.int64)  # where chord_targets names them, unread
    for i in range(boards):
        if status[i] != PLAYING:
            masks[i, :] = False
            continue
        for square in range(squares):
            masks[i, square] = flat[i, square] == GLYPH_HIDDEN
        if blocks == 3:
            for row in range(rows):
                for col in range(cols):
                    square = row * cols + col
                    glyph = view[i, row, col]
                    masks[i, squares + square] = glyph in (GLYPH_HIDDEN, GLYPH_FLAG)
                    ready = chord_targets(view[i], row, col, 1, False, targets) > 0
                    masks[i, 2 * squares + square] = ready
