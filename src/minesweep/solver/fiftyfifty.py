"""50/50s: those already forced, and those that could still form.

Two hidden squares that no number will ever tell apart are a guess at even
odds that no play avoids. :func:`forced_fifty_fifty` finds one already
there (take it at once: other risks may still disappear);
:class:`FiftyFifties` weighs how likely a square is to settle one still to
come, and :func:`fifty_fifty_or_safe` takes a square that can be a mine only
as one side of such a pair. Every function sees only the view and its
analysis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..squares import GLYPH_HIDDEN
from .guess import DEFAULT_POLICY, Guess, PolicyConfig, check_shape
from .probability import Analysis

if TYPE_CHECKING:
    from .whatif import Lookahead

__all__ = ["FiftyFifties", "could_pair", "fifty_fifty_or_safe", "forced_fifty_fifty"]

Cell = tuple[int, int]
#: A 50/50 that could form: (the squares that must be mines, those that must be safe).
Structure = tuple[list[Cell], list[Cell]]


class FiftyFifties:
    """The 50/50s that could still form around the squares of one view.

    Two squares side by side (or a 2x2 block, mines on one diagonal) become
    a 50/50 that no number will ever settle when every square that sees one
    of them but not the other holds a mine. A square's *influence* sums,
    over such structures around it that could still form, the chance that
    it forms with the square on its safe side: then opening the square now
    settles a guess that would otherwise come later at even odds. (A sum
    of overlapping chances, so it can pass 1; :meth:`factor` caps it.)
    This is David Hill's "50/50 influence"
    (JSMinesweeper's long-term risk). ``risk`` is the mine probability,
    infinite for revealed squares and known mines.
    """

    def __init__(
        self,
        view: npt.NDArray[np.uint8],
        risk: npt.NDArray[np.float64],
        mines_left: int,
        config: PolicyConfig = DEFAULT_POLICY,
    ) -> None:
        self.rows, self.cols = view.shape
        self._revealed = np.ascontiguousarray(view < GLYPH_HIDDEN)
        self._doubtful = np.isfinite(risk)
        self._risk = np.ascontiguousarray(risk, np.float64)
        self._limits = (
            min(config.pair_missing, mines_left - 1),
            min(config.block_missing, mines_left - 2),
        )
        self._config = config
        self._found: dict[Cell, _Found] = {}

    def factor(self, cell: Cell, ask: Lookahead | None = None) -> float:
        """How much more a guess at ``cell`` is worth for the 50/50s it may settle early.

        1 + ``config.influence_weight`` times its influence over its safety,
        the influence capped at its chances of being a mine and safe. With
        ``ask`` None, an upper bound that needs no counting.
        """
        safe = 1.0 - float(self._risk[cell])
        influence = self.influence(cell, ask)
        return 1.0 + self._config.influence_weight * min(influence, safe, 1.0 - safe) / safe

    def influence(self, cell: Cell, ask: Lookahead | None = None) -> float:
        """How likely ``cell`` is the safe side of 50/50s that could still form, summed.

        For each structure around it whose outside squares are all hidden
        and at most a few are not yet known mines: the chance that those
        are mines, the partner (or the other diagonal) mines and ``cell``
        (with its diagonal) safe, by ``ask.joint``. Pairs add up; of the
        blocks the likeliest counts. With ``ask`` None, each chance is
        bounded by the least likely of its squares.
        """
        found = self._structures(cell)
        bounds: list[float] = found.bounds.tolist()
        if ask is None:
            chances = bounds
        else:
            structures = self._listed(cell)
            chances = [
                0.0 if bound < self._config.structure_floor else _joint(ask, structure)
                for bound, structure in zip(bounds, structures, strict=True)
            ]
        return sum(chances[: found.pairs]) + max(chances[found.pairs :], default=0.0)

    def structures(self, cell: Cell) -> tuple[list[Structure], list[Structure]]:
        """The pairs and the blocks around ``cell``, each as (squares to be mines, to be safe)."""
        listed = self._listed(cell)
        pairs = self._structures(cell).pairs
        return listed[:pairs], listed[pairs:]

    def _structures(self, cell: Cell) -> _Found:
        """The structures around ``cell``, found by :func:`._guesses.fifty_structures`; once."""
        found = self._found.get(cell)
        if found is None:
            from ._guesses import fifty_structures

            found = self._found[cell] = _Found(
                *entry(fifty_structures)(
                    self._revealed, self._doubtful, self._risk, cell[0], cell[1], *self._limits
                )
            )
        return found

    def _listed(self, cell: Cell) -> list[Structure]:
        """The structures around ``cell`` as lists of squares."""
        found = self._structures(cell)
        if found.listed is None:
            cols = self.cols
            squares = [divmod(square, cols) for square in found.squares.tolist()]
            start, split = found.start.tolist(), found.split.tolist()
            found.listed = [
                (squares[start[i] : split[i]], squares[split[i] : start[i + 1]])
                for i in range(len(split))
            ]
        return found.listed


@dataclass(slots=True)
class _Found:
    """The structures around one square (see :func:`._guesses.fifty_structures`)."""

    pairs: int
    start: npt.NDArray[np.int64]
    split: npt.NDArray[np.int64]
    squares: npt.NDArray[np.int64]
    bounds: npt.NDArray[np.float64]
    listed: list[Structure] | None = None


def _joint(ask: Lookahead, structure: Structure) -> float:
    joint = ask.joint(*structure)
    return 0.0 if joint is None else float(joint)


def fifty_fifty_or_safe(
    analysis: Analysis, glyphs: npt.NDArray[np.uint8], *, config: PolicyConfig = DEFAULT_POLICY
) -> Guess | None:
    """A square that can be a mine only as one side of a 50/50 to come, or None.

    Say square *s* is a mine only in layouts where it makes, with a
    neighbour (or, in a 2x2 block, with its diagonal against the other), a
    pair that no number will ever tell apart: every square that sees more
    of one side than of the other holds a mine (see :class:`FiftyFifties`).
    Those walls are all hidden, so every number shown sees as much of one
    side as of the other, and swapping the sides turns each layout where
    the 50/50 forms one way into one where it forms the other. No play can
    tell such a pair of layouts apart but by opening a side, so any play
    loses at least one of each pair: at least *s*'s own risk. Opening *s*
    now pays that risk and no more, and tells its number at once. This is
    a rule of thumb, not a proof that *s* is the best guess: another
    square (the other side, say) may tell more (BENCHMARKS.md measures how
    often). Of such squares on the frontier, the least likely mine, checked
    exactly (:meth:`minesweep.solver.whatif.Lookahead.joint`) within the
    structures' limits of :class:`FiftyFifties`. None when there is none,
    or nothing cheap to count with. David Hill's JSMinesweeper plays such a
    square ("50/50 or safe") before weighing other guesses.

    The rule runs compiled, in one call (:func:`._lookahead.fifty_or_safe`),
    as the compiled game plays it.
    """
    from .whatif import Lookahead

    check_shape(analysis, glyphs)
    return _fifty_fifty_or_safe(Lookahead(analysis), analysis, config)


def _fifty_fifty_or_safe(ask: Lookahead, analysis: Analysis, config: PolicyConfig) -> Guess | None:
    """:func:`fifty_fifty_or_safe` with the what-if tables of ``ask``."""
    from ._lookahead import fifty_or_safe
    from .whatif import DEFAULT_STATES

    tables = ask.tables()
    if tables is None:
        return None  # an exact analysis: nothing cheap to count with
    square = int(
        entry(fifty_or_safe)(tables, config.pair_missing, config.block_missing, DEFAULT_STATES)
    )
    if square < 0:
        return None
    row, col = divmod(square, analysis.probability.shape[1])
    return Guess(
        row,
        col,
        float(analysis.probability[row, col]),
        "a mine here only as one side of a 50/50 to come: as well open it now",
    )


def could_pair(
    revealed: npt.NDArray[np.bool_], doubtful: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The squares with a pair or 2x2 block of :class:`FiftyFifties` around them.

    That is, a neighbour in doubt beside, above or below (or a 2x2 block of
    squares in doubt) with no revealed square among the walls, which
    :meth:`FiftyFifties.structures` looks for one square at a time; here,
    for the whole board at once, so that only these squares are looked at
    (the limit on walls in doubt is left to it).
    """
    from ._lookahead import pair_mask

    mask: npt.NDArray[np.bool_] = entry(pair_mask)(
        np.ascontiguousarray(revealed, np.bool_), np.ascontiguousarray(doubtful, np.bool_)
    )
    return mask


def forced_fifty_fifty(analysis: Analysis, glyphs: npt.NDArray[np.uint8]) -> Cell | None:
    """A square of a 50/50 that nothing left on the board can ever resolve, or None.

    Two hidden squares at probability one half, next to each other or both
    next to the same numbers, whose other neighbours are all revealed or
    certain mines: no future reveal can tell them apart, so the guess is
    forced whatever happens elsewhere. Compiled
    (:func:`minesweep.solver._guesses.forced_square`), as the compiled game
    plays it.
    """
    from ._guesses import forced_square

    check_shape(analysis, glyphs)
    view = np.ascontiguousarray(glyphs, np.uint8)
    sure_mine = np.zeros(view.shape, np.bool_)
    if len(analysis.mines):
        sure_mine[tuple(analysis.mines.T)] = True
    square = int(entry(forced_square)(view, analysis.probability, sure_mine))
    if square < 0:
        return None
    row, col = divmod(square, view.shape[1])
    return row, col
