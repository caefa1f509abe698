"""The flag toggle of a right click, on a board's states and view (numba)."""

from __future__ import annotations

from .._jit import kernel
from ..squares import GLYPH_FLAG, GLYPH_HIDDEN, STATE_FLAGGED, STATE_HIDDEN

__all__ = ["toggle_flag"]


@kernel(cache=True, part="vector", inline="always")
def toggle_flag(state, view, row, col):  # pragma: no cover - compiled
    """The flag toggle: hidden to flagged, flagged to hidden; False if the square is neither."""
    glyph = view[row, col]
    if glyph == GLYPH_HIDDEN:
        state[row, col] = STATE_FLAGGED
        view[row, col] = GLYPH_FLAG
    elif glyph == GLYPH_FLAG:
        state[row, col] = STATE_HIDDEN
        view[row, col] = GLYPH_HIDDEN
    else:
        return False
    return True
