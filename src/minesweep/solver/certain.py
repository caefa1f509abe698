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

from collections.abc import Iterable
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..squares import GLYPH_HIDDEN, KNOWN_OPEN, Knowledge
from .errors import DEFAULT_MAX_STATES
from .probability import Analysis, analyze

#: :data:`minesweep.solver._deduce.PROVED_SAFE`, without loading the kernels:
#: the note after the last :class:`~minesweep.squares.Knowledge` value.
_PROVED_SAFE: Final = max(Knowledge) + 1

__all__ = ["SingleNumberRules", "Stuck", "flat_squares", "play_until_stuck", "view_of"]


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


class SingleNumberRules:
    """What the single-number rule alone proves of a game's views, view after view.

    The rule is the player's rule 1 (:func:`minesweep.solver._deduce.one_number`:
    a number whose mines are all found frees its other neighbours; a number
    with as many hidden neighbours as mines left makes them all mines),
    applied over and over, and nothing else: the replays' verdict
    (:mod:`minesweep.replays.verdict`) calls a click it settles "certain by
    the single-number rules". Views come in as glyphs (up to
    :data:`~minesweep.squares.MAX_NUMBER` open, anything else hidden; flags
    are not trusted), each opening a superset of the squares of the one
    before, as a game's views do: what is proved stays proved, and each view
    only resumes the rule around the squares it opened.
    """

    __slots__ = ("_notes", "_numbers", "_queue", "_queued", "_run", "_shape")

    def __init__(self, rows: int, cols: int) -> None:
        from ._deduce import settle_one_number

        self._shape = (rows, cols)
        self._notes = np.zeros((rows, cols), np.uint8)  # all unknown (Knowledge.UNKNOWN)
        self._numbers = np.zeros((rows, cols), np.uint8)
        self._queued = np.zeros(rows * cols, np.bool_)
        self._queue = np.empty(rows * cols, np.int64)
        self._run = entry(settle_one_number)

    def advance(self, view: bytes) -> None:
        """Take the next view: ``rows * cols`` bytes of glyphs, row by row."""
        grid = np.frombuffer(view, np.uint8).reshape(self._shape)
        self._run(grid, self._numbers, self._notes, self._queued, self._queue)

    def safe(self, squares: Iterable[int]) -> bool:
        """Whether every one of ``squares`` (flat, ``row * cols + col``) is proved safe."""
        notes = self._notes.reshape(-1)
        return all(notes[square] == _PROVED_SAFE for square in squares)

    def safe_mask(self) -> npt.NDArray[np.bool_]:
        """The hidden squares proved safe so far, as a mask."""
        mask: npt.NDArray[np.bool_] = self._notes == _PROVED_SAFE
        return mask


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
