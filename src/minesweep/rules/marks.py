"""A right click's mark: the rule of the toggle, and the vector engine's toggle (numba).

:func:`toggled` is the rule, for a square's :class:`~minesweep.squares.CellState`:
the vector engine inlines it (:func:`toggle_flag`, never with question
marks), and the one-board engine asks it as plain Python
(:func:`minesweep.moves.toggled_mark`, with the game's ``question_marks``).
"""

from __future__ import annotations

from .._jit import kernel
from ..squares import (
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_QUESTION,
    STATE_FLAGGED,
    STATE_HIDDEN,
    STATE_QUESTIONED,
)

__all__ = ["toggle_flag", "toggled"]


@kernel(cache=True, part="vector", inline="always")
def toggled(state, question_marks):  # pragma: no cover - compiled
    """The state a right click gives a square in ``state``; ``state`` itself if none.

    Hidden to flagged; flagged to question-marked when question marks are
    on, else to hidden; question-marked to hidden. A revealed (or exploded)
    square takes no mark.
    """
    if state == STATE_HIDDEN:
        return STATE_FLAGGED
    if state == STATE_FLAGGED:
        return STATE_QUESTIONED if question_marks else STATE_HIDDEN
    if state == STATE_QUESTIONED:
        return STATE_HIDDEN
    return state


@kernel(cache=True, part="vector", inline="always")
def toggle_flag(state, view, row, col):  # pragma: no cover - compiled
    """A right click without question marks, on a board's states and view; False if no change."""
    current = state[row, col]
    target = toggled(current, False)
    if target == current:
        return False
    state[row, col] = target
    if target == STATE_FLAGGED:
        view[row, col] = GLYPH_FLAG
    elif target == STATE_QUESTIONED:
        view[row, col] = GLYPH_QUESTION
    else:
        view[row, col] = GLYPH_HIDDEN
    return True
