"""Certain moves from a position: the compiled rules, then the exact analysis.

One loop, shared by the autoplayer and the no-guess check: the compiled
rules of :func:`minesweep.solver._deduce.play_certain_moves` play while they
make progress; when they stall, :func:`minesweep.solver.analyze` (which also
weighs the mine count) names the squares that are certainly safe or mines,
and the rules carry on from those. It stops when every safe square is open
or when nothing is certain, handing back the analysis for a guess.

The caller knows the field: it passes the numbers, and the squares are
opened by their numbers alone; no decision reads where the mines are.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..squares import GLYPH_HIDDEN, KNOWN_OPEN
from .errors import DEFAULT_MAX_STATES
from .probability import Analysis, analyze

__all__ = ["Stuck", "flat_squares", "play_until_stuck", "view_of"]


class Stuck(NamedTuple):
    """A position where nothing is certain: the player's view and its analysis."""

    view: npt.NDArray[np.uint8]
    analysis: Analysis


def play_until_stuck(
    numbers: npt.NDArray[np.uint8],
    mines: int,
    state: npt.NDArray[np.uint8],
    opens: npt.NDArray[np.int64],
    sure: npt.NDArray[np.int64],
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
) -> Stuck | None:
    """Play every certain move from ``state``; None once every safe square is open.

    ``state`` holds :class:`minesweep.squares.Knowledge` codes and is updated in
    place; ``opens`` are squares (flat indices) known to be safe, to open
    first, and ``sure`` squares known to be mines. Raises
    AnalysisBudgetError when an analysis needs more than ``max_states``
    partial layouts (None: no limit).
    """
    # Imported here, not at the top: the compiled kernels load on first use.
    from ._deduce import play_certain_moves

    while True:
        if entry(play_certain_moves)(numbers, mines, state, opens, sure) == 0:
            return None
        view = view_of(numbers, state)
        analysis = analyze(view, mines, max_states=max_states)
        if not len(analysis.safe):
            return Stuck(view, analysis)
        cols = state.shape[1]
        opens = flat_squares(analysis.safe, cols)
        sure = flat_squares(analysis.mines, cols)


def flat_squares(squares: npt.NDArray[np.int64], cols: int) -> npt.NDArray[np.int64]:
    """``(n, 2)`` rows and columns as flat indices ``row * cols + col``."""
    flat: npt.NDArray[np.int64] = squares[:, 0] * cols + squares[:, 1]
    return flat


def view_of(numbers: npt.NDArray[np.uint8], state: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The player's view of a play state: numbers where open, hidden elsewhere."""
    view = np.full(numbers.shape, GLYPH_HIDDEN, np.uint8)
    opened = state == KNOWN_OPEN
    view[opened] = numbers[opened]
    return view
