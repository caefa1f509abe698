"""What opening a square would show, worked out from the current analysis.

A lookahead asks, of a square it might open: which number would it show,
how likely is each, and how safe would the best square be then? A fresh
analysis of every imagined view answers that, at the cost of a whole
analysis per number. Most of that work is repeated: opening a square
changes only the frontier component(s) around it. The square leaves its
group, its hidden neighbours gain it as a number, and its interior
neighbours join the frontier. Here that merged component is planned once
and counted once per number the square could show (the plan does not depend
on the number, only the kernel's input does); the other components keep the
counts the analysis already holds (:class:`minesweep.solver.probability.Workings`),
and the global mine count ties them together exactly as in
:func:`minesweep.solver.analyze` (a new number moves their probabilities
too, through the total). The answers are those of the full analyses, within
rounding; tests check them against it.

A component too tangled for the compiled counter (which the full analysis
counts in Python integers, fifty times slower) gets no answer: the
lookahead is meant to be cheap enough to run at every guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..errors import InvalidBoardError
from ..squares import GLYPH_HIDDEN, square_name
from ._lookahead import WhatIf, joint, outcomes
from ._whatif import ANSWERED
from .frontier import Frontier
from .probability import Analysis

__all__ = ["DEFAULT_STATES", "Lookahead", "Outcome", "log_factorials"]

Floats = npt.NDArray[np.float64]
Index = npt.NDArray[np.int64]
Cell = tuple[int, int]

#: Dynamic-programming states one :class:`Lookahead` may spend in all, past
#: which it gives up (returns None) rather than stall a game.
DEFAULT_STATES: Final = 200_000


@dataclass(frozen=True, slots=True)
class Outcome:
    """One number a square could show."""

    number: int
    #: The chance that the square is safe and shows ``number``.
    chance: float
    #: The best chance of safety of any square afterwards (1.0: one is certain).
    safest: float


def log_factorials(n: int) -> Floats:
    """log(k!) for k from 0 to ``n``.

    Summed in order, so a longer table begins with a shorter one to the bit:
    the compiled game makes one for the whole board, a :class:`Lookahead`
    one for its interior, and both must weigh alike.
    """
    table: Floats = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, n + 1)))))
    return table


class Lookahead:
    """What-if questions about one analysis: build once per guess, ask per square."""

    def __init__(self, analysis: Analysis, *, max_states: int = DEFAULT_STATES) -> None:
        workings = analysis.workings
        frontier = workings.frontier
        #: False after an exact analysis, which keeps no float counts.
        self.available = frontier is not None
        self._analysis = analysis
        self._view = workings.view
        self._mine_count = workings.mine_count
        self._states_left = max_states
        self._tables: WhatIf | None = None
        if frontier is None:
            return
        self._frontier: Frontier = frontier
        # Each component's largest count, as a log with the count's own scale.
        self._log_tops = np.array(
            [math.log(float(c.layouts.max())) + c.log_scale for c in workings.counts], np.float64
        )
        self._component_of = np.full(len(frontier.group_sizes), -1, np.int64)
        for index, members in enumerate(frontier.components):
            self._component_of[members] = index
        self._layouts = [c.layouts / c.layouts.max() for c in workings.counts]
        self._mines = [c.mines / c.layouts.max() for c in workings.counts]
        self._sure = np.zeros(workings.view.shape, np.bool_)
        if len(analysis.mines):
            self._sure[tuple(analysis.mines.T)] = True
        # log(k!) for k up to the interior's size (an opening only shrinks
        # it), for the interior's binomials.
        self._log_factorial = log_factorials(frontier.interior)
        self._sizes = [c.sizes for c in workings.counts]
        self._joint_states_left = max_states
        self._flat: tuple[Index, Floats, Index, Floats, Index, Floats] | None = None

    def outcomes(self, row: int, col: int) -> list[Outcome] | None:
        """Every number hidden square ``(row, col)`` could show, with its chance.

        The chances add up to the square's chance of being safe. A square
        off the view or revealed raises InvalidBoardError. None when
        there is no cheap answer: past the budget of states, a component too
        tangled for the compiled counter, counts beyond float range, or an
        analysis without float counts (``exact=True``).
        """
        hidden = self._view >= GLYPH_HIDDEN
        rows, cols = hidden.shape
        if not (0 <= row < rows and 0 <= col < cols):
            raise InvalidBoardError(f"index ({row}, {col}) is off the {rows}x{cols} view")
        if not hidden[row, col]:
            raise InvalidBoardError(f"{square_name(row, col)} is revealed")
        if not self.available:
            return None
        tables = self.tables()  # a mine the frontier set aside shows nothing: no outcome
        assert tables is not None
        status, numbers, chances, safest, self._states_left = entry(outcomes)(
            tables, row * self._view.shape[1] + col, self._states_left
        )
        if status != ANSWERED:
            return None
        return [
            Outcome(number, chance, best)
            for number, chance, best in zip(
                numbers.tolist(), chances.tolist(), safest.tolist(), strict=True
            )
        ]

    def tables(self) -> WhatIf | None:
        """What the compiled lookahead (:mod:`._lookahead`) reads of this analysis; made once.

        None when there are no float counts (an exact analysis).
        """
        if not self.available:
            return None
        if self._tables is None:
            frontier = self._frontier
            self._tables = WhatIf(
                self._view,
                np.ascontiguousarray(self._analysis.probability, np.float64),
                self._sure,
                frontier.settled_mask,
                frontier.interior_mask,
                frontier.group_at,
                frontier.group_start,
                frontier.group_cells,
                frontier.witness_start,
                frontier.group_witnesses,
                frontier.target_array,
                self._component_of,
                frontier.component_start,
                frontier.component_groups,
                *self._flattened(),
                self._log_tops,
                self._mine_count,
                frontier.settled,
                frontier.interior,
                self._log_factorial,
            )
        return self._tables

    def _flattened(self) -> tuple[Index, Floats, Index, Floats, Index, Floats]:
        """The counts as :mod:`._whatif`'s kernels read them (see there); made once."""
        if self._flat is not None:
            return self._flat
        layouts, sizes, mines = self._layouts, self._sizes, self._mines
        lay_start = np.zeros(len(layouts) + 1, np.int64)
        np.cumsum([len(poly) for poly in layouts], out=lay_start[1:])
        size_start = np.zeros(len(sizes) + 1, np.int64)
        np.cumsum([len(group_sizes) for group_sizes in sizes], out=size_start[1:])
        mines_start = np.zeros(len(mines) + 1, np.int64)
        np.cumsum([block.size for block in mines], out=mines_start[1:])

        def flat(parts: list[Floats]) -> Floats:
            return np.ascontiguousarray(
                np.concatenate([part.ravel() for part in parts]) if parts else np.zeros(0)
            )

        self._flat = (
            lay_start,
            flat(layouts),
            size_start,
            flat(sizes),
            mines_start[:-1].copy(),
            flat(mines),
        )
        return self._flat

    def joint(self, mines: list[Cell], safe: list[Cell]) -> float | None:
        """The chance that every square of ``mines`` holds a mine and none of ``safe`` does.

        Squares must be hidden and distinct (InvalidBoardError otherwise).
        Only the components holding them are recounted, with the forced
        mines taken off their numbers and the forced squares out of their
        groups; the global mine count ties the rest in as in
        :meth:`outcomes`. None when there is no cheap answer (see there).
        """
        view = self._view
        rows, cols = view.shape
        forced: dict[Cell, bool] = {}
        for cell, is_mine in [*((m, True) for m in mines), *((s, False) for s in safe)]:
            r, c = cell
            if not (0 <= r < rows and 0 <= c < cols):
                raise InvalidBoardError(f"index ({r}, {c}) is off the {rows}x{cols} view")
            if view[r, c] < GLYPH_HIDDEN:
                raise InvalidBoardError(f"{square_name(r, c)} is revealed, not a hidden square")
            if cell in forced:
                raise InvalidBoardError(f"{square_name(r, c)} is given twice")
            forced[cell] = is_mine
        if not self.available:
            return None
        # The same question about the same analysis (the "50/50 or safe" rule
        # and the lookahead's 50/50 weighing often ask it twice) is answered
        # from memory, charged what it cost, so that the budget runs out
        # exactly where counting again would have run out.
        memory = self._analysis.workings.joints
        key = (frozenset(mines), frozenset(safe))
        if key in memory:
            remembered, cost = memory[key]
            if cost > self._joint_states_left:
                self._joint_states_left = 0
                return None
            self._joint_states_left -= cost
            return remembered
        budget = self._joint_states_left
        chance = self._joint(forced)
        if chance is not None:
            memory[key] = (chance, budget - self._joint_states_left)
        return chance

    def _joint(self, forced: dict[Cell, bool]) -> float | None:
        """:meth:`joint` of the squares ``forced`` to be mines (True) or safe, counted."""
        cols = self._view.shape[1]
        tables = self.tables()
        assert tables is not None
        status, chance, self._joint_states_left = entry(joint)(
            tables,
            np.array([r * cols + c for r, c in forced], np.int64),
            np.array(list(forced.values()), np.bool_),
            self._joint_states_left,
        )
        return float(chance) if status == ANSWERED else None
