"""Exact mine probabilities from what the player sees.

The input is a *view*: for every square a glyph (:class:`minesweep.Glyph`):
0-8 for a revealed number, or hidden, flagged or question-marked. Flags are
the player's claims, not facts: a flagged square is analysed like any hidden
one. With the total number of mines, :func:`analyze` returns the exact
probability that each hidden square holds a mine, over all mine layouts that
agree with the view, each layout equally likely.

How, in the order the code does it:

1. **Constraints**, 2. **groups** and 3. **components**: the frontier
   (:mod:`minesweep.solver.frontier`, compiled in
   :mod:`minesweep.solver._frontier`): the numbers with hidden neighbours,
   the squares next to the same numbers grouped, groups linked through
   shared numbers in components; squares a number alone makes mines are set
   aside first (the fast path only).
4. **Counting per component**, by dynamic programming along an ordering of
   its groups: the state is the remaining demand of the numbers that are
   "open" (touching both counted and uncounted groups), and states that agree
   are merged, so a long frontier costs what its width costs, not the
   product of its choices. A forward and a backward pass give, for every
   number of mines ``m`` in the component, the count of layouts ``W(m)`` and
   each group's mine total ``E_g(m)`` (:mod:`minesweep.solver.counting`,
   compiled, in floats, every component of a view in one call; components
   seen in recent views are remembered, so after a reveal only those the new
   numbers touch are counted again; a component too wide for one order is
   counted in pieces, :mod:`minesweep.solver.pieces`;
   :mod:`minesweep.solver.exact`, in integers).
5. **The global count** (here, compiled in :mod:`minesweep.solver._combine`).
   Components and the interior share the remaining mines: a component
   layout with ``m`` mines is weighted by the ways of placing the other
   mines, ``C(interior, M - m - others)``. On large boards, where those
   weights span more than a float's range, the sharing happens at the
   saddle point (:mod:`minesweep.solver.tilted`).

By default steps 1 to 5 run compiled, in floating point, keeping exact
zeros exact (so "certainly safe" never rounds away); ``exact=True`` counts
everything in Python integers, where the probabilities are exact fractions.
Either way "certainly safe" means probability exactly zero.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..errors import InvalidBoardError
from ..squares import square_name
from .counting import (
    COMPONENT_CACHE,
    COUNTING_METHODS,
    ComponentCache,
    CountingMethods,
    FloatCounts,
    count_all,
    plain_width,
    prefix,
)
from .errors import (
    DEFAULT_MAX_STATES,
    MAX_COEFFICIENTS,
    AnalysisBudgetError,
    ContradictionError,
    StateBudget,
    mines_between,
)
from .exact import ExactAnalysis, analyze_exact
from .frontier import Frontier, checked_view, hidden_mask
from .tilted import TINY, share_tilted

__all__ = [
    "DEFAULT_MAX_STATES",
    "Analysis",
    "AnalysisBudgetError",
    "ContradictionError",
    "Workings",
    "analyze",
]

Floats = npt.NDArray[np.float64]
Cells = list[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Workings:
    """How an analysis was counted: internal to the solver package, not public API.

    The what-if questions (:mod:`minesweep.solver.whatif`) and the guessing
    strategies read these instead of counting the view again; nothing
    outside :mod:`minesweep.solver` should, as they may change.
    """

    #: The view analysed (uint8 glyphs) and the total number of mines.
    view: npt.NDArray[np.uint8]
    mine_count: int
    #: The float path's frontier and its components' counts, when the
    #: analysis made them (the Python path); None when they are made on
    #: first use (``lazy``: the compiled path kept none) or never (after an
    #: exact analysis).
    given: tuple[Frontier, tuple[FloatCounts, ...]] | None = None
    lazy: bool = False
    #: The exact analysis, computed when first asked for (or at once with exact=True).
    exact: dict[str, ExactAnalysis] = field(default_factory=dict)
    #: The what-if questions' answers about joint outcomes, with what each
    #: cost: every lookahead on this analysis shares them
    #: (:meth:`minesweep.solver.whatif.Lookahead.joint`).
    joints: dict[Any, tuple[float, int]] = field(default_factory=dict)
    #: The frontier and counts made on first use.
    made: dict[str, tuple[Frontier, tuple[FloatCounts, ...]]] = field(default_factory=dict)

    @property
    def frontier(self) -> Frontier | None:
        """The float path's frontier; None after an exact analysis."""
        return self._float()[0]

    @property
    def counts(self) -> tuple[FloatCounts, ...]:
        """Each component's counts, in the order of ``frontier.components``; () after an exact
        analysis."""
        return self._float()[1]

    def _float(self) -> tuple[Frontier | None, tuple[FloatCounts, ...]]:
        if self.given is not None:
            return self.given
        if not self.lazy:
            return None, ()
        if "value" not in self.made:
            # The counts the compiled path made and did not keep, made again
            # the Python way: the same kernels on the same arrays, so the
            # same numbers (and the component cache serves what it holds).
            frontier = Frontier(self.view)
            counts = count_all(frontier, StateBudget(None))
            self.made["value"] = (frontier, tuple(counts))
        return self.made["value"]


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the view says about every hidden square.

    ``probability`` holds each hidden square's mine probability as a float,
    NaN on revealed squares; :meth:`exact` gives the exact fraction. ``safe``
    and ``mines`` list the squares that are certainly safe or certainly mines,
    as ``(n, 2)`` arrays of row and column: exact in every mode.
    """

    probability: Floats
    safe: npt.NDArray[np.int64]
    mines: npt.NDArray[np.int64]
    #: Sizes (in squares) of the independent frontier components, leaving
    #: out the squares a number alone makes mines (see the module's step 1).
    components: tuple[int, ...]
    interior: int
    #: The natural log of the number of mine layouts that agree with the view
    #: (in floating point, within rounding, unless counted exactly): the
    #: ratio of two views' counts is the chance of one given the other.
    log_layouts: float
    #: How it was counted, for the solver's own use (see :class:`Workings`).
    workings: Workings = field(repr=False, compare=False)

    def exact(self, row: int, col: int) -> Fraction:
        """The exact probability that hidden square ``(row, col)`` is a mine."""
        if not 0 <= row < self.probability.shape[0] or not 0 <= col < self.probability.shape[1]:
            rows, cols = self.probability.shape
            raise InvalidBoardError(f"index ({row}, {col}) is off the {rows}x{cols} view")
        if np.isnan(self.probability[row, col]):
            raise InvalidBoardError(f"{square_name(row, col)} is revealed")
        exact = self._exact_analysis()
        return exact.cells.get((row, col), exact.interior)

    @property
    def layouts(self) -> int:
        """How many mine layouts agree with the view: an exact, possibly huge, integer."""
        return self._exact_analysis().layouts

    def _repr_svg_(self) -> str:
        """The view as a heat map of these probabilities, for Jupyter.

        The squares certainly safe and certainly mines are marked too.
        """
        from .. import svg  # drawing is for notebooks, not for solving

        marks = [svg.Mark(int(row), int(col), "safe") for row, col in self.safe]
        marks += [svg.Mark(int(row), int(col), "mine") for row, col in self.mines]
        rows, cols = self.probability.shape
        hidden = int((~np.isnan(self.probability)).sum())
        title = (
            f"Mine probabilities, {rows} by {cols}, {self.workings.mine_count} mines: "
            f"{hidden} hidden squares, {len(self.safe)} certainly safe, "
            f"{len(self.mines)} certainly mines"
        )
        return svg.board(
            self.workings.view, probabilities=self.probability, marks=marks, title=title
        )

    def _exact_analysis(self) -> ExactAnalysis:
        memory = self.workings.exact
        if "value" not in memory:
            memory["value"] = analyze_exact(self.workings.view, self.workings.mine_count, None)
        return memory["value"]


def analyze(
    glyphs: npt.ArrayLike,
    mines: int,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
    exact: bool = False,
    cache: ComponentCache = COMPONENT_CACHE,
    methods: CountingMethods = COUNTING_METHODS,
) -> Analysis:
    """Mine probabilities of every hidden square of a view with ``mines`` mines in all.

    By default the counting runs compiled, in floating point: probabilities
    within a relative 1e-12 of the exact ones, and which squares are
    certainly safe or mines decided exactly. With ``exact=True`` everything
    is counted in Python integers (slower); :meth:`Analysis.exact` gives the
    exact fraction of a square either way.

    Raises ContradictionError when no layout agrees with the view, and
    AnalysisBudgetError when counting would need more than ``max_states``
    partial layouts (None: no limit). ``cache`` remembers the compiled counts
    of components for the next view (:class:`~minesweep.solver.counting.ComponentCache`;
    the process-wide one by default). ``methods`` says which way each count
    goes (:class:`~minesweep.solver.counting.CountingMethods`; the measured
    ways by default): every way gives the same answer.
    """
    view = checked_view(glyphs)
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)) or mines < 0:
        raise InvalidBoardError(f"mines must be a non-negative int, got {mines!r}")
    total = int(mines)
    if exact:
        return _from_exact(view, total, analyze_exact(view, total, max_states))
    if cache is COMPONENT_CACHE and methods is COUNTING_METHODS:
        # The common case in one compiled call; off its plain path, below.
        compiled = _compiled(view, total, max_states)
        if compiled is not None:
            return compiled
    frontier = Frontier(view)
    if frontier.settled > total:
        raise ContradictionError(
            f"the view needs at least {frontier.settled} "
            f"mine{'s' if frontier.settled != 1 else ''}, but the game has {total}"
        )
    counts = count_all(frontier, StateBudget(max_states), cache, methods)
    analysis = _combine_floats(view, total, frontier, counts, methods.plain_components)
    if analysis is None:
        # Floating point lost the sum (huge boards: the interior's binomials
        # span more than a float's range): count exactly instead.
        return _from_exact(view, total, analyze_exact(view, total, max_states))
    return analysis


@functools.cache
def _plain_kernel() -> tuple[Callable[..., Any], int]:
    """The kernel of :func:`_compiled`, and the widest order it counts whole.

    Looked up once: the import (here, so that numba loads only when an
    analysis first needs it) and the width cost a few microseconds a call,
    a tenth of a beginner view's analysis. The kernel returned decides at
    each call whether to run compiled (:func:`minesweep._jit.entry`).
    """
    from ._plain import plain_result

    return entry(plain_result), plain_width(COUNTING_METHODS)


def _compiled(view: npt.NDArray[np.uint8], total: int, max_states: int | None) -> Analysis | None:
    """:func:`analyze`'s plain path in one kernel (:mod:`._plain`); None off that path."""
    plain_result, width = _plain_kernel()
    ok, probability, safe, sure, log_layouts, sizes, interior = plain_result(
        np.ascontiguousarray(view),
        total,
        width,
        -1 if max_states is None else max_states,
        MAX_COEFFICIENTS,
        TINY,
        COUNTING_METHODS.plain_components,
    )
    if not ok:
        return None
    return Analysis(
        probability=probability,
        safe=safe,
        mines=sure,
        # The squares of each component (less those a number alone made
        # mines), in the components' order, as the Python path gives them.
        components=tuple(sizes.tolist()),
        interior=int(interior),
        log_layouts=float(log_layouts),
        workings=Workings(view, total, lazy=True),
    )


def _combine_floats(
    view: npt.NDArray[np.uint8],
    total: int,
    frontier: Frontier,
    counts: list[FloatCounts],
    plain_components: int,
) -> Analysis | None:
    """Share the mines out between the components and the interior, in floats.

    Returns None when a sum underflows, for the caller to count exactly.
    ``total`` counts every mine; those the frontier set aside are certain.
    """
    interior = frontier.interior
    settled = frontier.settled
    total -= settled
    filled = None
    if len(counts) <= plain_components:
        filled = _fill_plain(view, total, frontier, counts)
    if filled is None:
        _check_totals(interior, total, settled, counts)
        filled = _fill_tilted(view, total, frontier, counts)
        if filled is None:
            return None
    probability, safe, sure, log_layouts = filled
    return Analysis(
        probability=probability,
        safe=np.argwhere(safe).astype(np.int64),
        mines=np.argwhere(sure).astype(np.int64),
        components=tuple(c.squares for c in counts),
        interior=interior,
        log_layouts=log_layouts,
        workings=Workings(view, total + settled, (frontier, tuple(counts))),
    )


#: Every square's probability, which are certainly safe and mines, the log of the layouts.
_Filled = tuple[Floats, npt.NDArray[np.bool_], npt.NDArray[np.bool_], float]


def _fill_plain(
    view: npt.NDArray[np.uint8], total: int, frontier: Frontier, counts: list[FloatCounts]
) -> _Filled | None:
    """Every square's probability by the products, compiled; None when a sum underflows.

    ContradictionError when no total of mines fits.
    """
    from ._combine import NO_FIT, UNDERFLOW, combine

    lengths = [len(c.layouts) for c in counts]
    rows = [len(c.ids) for c in counts]
    w_start = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(lengths, out=w_start[1:])
    row_start = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(rows, out=row_start[1:])
    e_start = np.zeros(len(counts) + 1, np.int64)
    np.cumsum([r * n for r, n in zip(rows, lengths, strict=True)], out=e_start[1:])
    flat = np.concatenate
    status, probability, safe, sure, log_layouts = entry(combine)(
        view.shape[0],
        view.shape[1],
        total,
        frontier.interior,
        frontier.interior_mask,
        frontier.settled_mask,
        w_start,
        flat([c.layouts for c in counts]) if counts else np.zeros(0),
        np.array([c.log_scale for c in counts], np.float64),
        row_start,
        np.array([i for c in counts for i in c.ids], np.int64),
        flat([c.sizes for c in counts]) if counts else np.zeros(0),
        e_start,
        flat([c.mines.ravel() for c in counts]) if counts else np.zeros(0),
        flat([c.safes.ravel() for c in counts]) if counts else np.zeros(0),
        frontier.group_start,
        frontier.group_cells,
        TINY,
    )
    if status == NO_FIT:
        _check_totals(frontier.interior, total, frontier.settled, counts)
    if status == UNDERFLOW:
        return None
    return probability, safe, sure, float(log_layouts)


def _fill_tilted(
    view: npt.NDArray[np.uint8], total: int, frontier: Frontier, counts: list[FloatCounts]
) -> _Filled | None:
    """Every square's probability shared out at the saddle point; None when that underflows."""
    shared = share_tilted(frontier.interior, total, counts)
    if shared is None:
        return None
    probability = np.full(view.shape, np.nan)
    safe = np.zeros(view.shape, np.bool_)
    sure = np.zeros(view.shape, np.bool_)
    cols = view.shape[1]
    for component, (values, certain_safe, certain_mine) in zip(counts, shared.groups, strict=True):
        for g, group in enumerate(component.ids):
            cells = frontier.group_cells[
                frontier.group_start[group] : frontier.group_start[group + 1]
            ]
            where = (cells // cols, cells % cols)
            probability[where] = values[g]
            if certain_safe[g]:
                safe[where] = True
            elif certain_mine[g]:
                sure[where] = True
    if frontier.interior:
        probability[frontier.interior_mask] = shared.interior
        if shared.interior_safe:
            safe |= frontier.interior_mask
        elif shared.interior_mine:
            sure |= frontier.interior_mask
    probability[frontier.settled_mask] = 1.0
    sure |= frontier.settled_mask
    return probability, safe, sure, shared.log_layouts


def _check_totals(interior: int, total: int, settled: int, counts: list[FloatCounts]) -> None:
    """ContradictionError unless the frontier and the interior can hold ``total`` mines."""
    feasible = [c.layouts > 0 for c in counts]
    low = sum(int(np.flatnonzero(f)[0]) for f in feasible)
    high = sum(int(np.flatnonzero(f)[-1]) for f in feasible)
    reachable = prefix([f.astype(np.float64) for f in feasible], boolean=True)[-1] > 0
    frontier_mines = np.arange(len(reachable))
    if not np.any(reachable & (frontier_mines <= total) & (total - frontier_mines <= interior)):
        raise ContradictionError(
            f"the view needs {mines_between(low + settled, high + interior + settled)}, "
            f"but the game has {total + settled}"
        )


def _from_exact(view: npt.NDArray[np.uint8], total: int, exact: ExactAnalysis) -> Analysis:
    hidden = hidden_mask(view)
    probability = np.full(view.shape, np.nan)
    probability[hidden] = float(exact.interior)
    for cell, value in exact.cells.items():
        probability[cell] = float(value)
    safe = [cell for cell, value in exact.cells.items() if value == 0]
    sure = [cell for cell, value in exact.cells.items() if value == 1]
    interior_mask = hidden.copy()
    for cell in exact.cells:
        interior_mask[cell] = False
    interior = int(interior_mask.sum())
    if interior and exact.interior in (0, 1):
        where = np.argwhere(interior_mask)
        (safe if exact.interior == 0 else sure).extend((r, c) for r, c in where.tolist())
    frontier = Frontier(view, hidden)
    return Analysis(
        probability=probability,
        safe=_cells(safe),
        mines=_cells(sure),
        components=tuple(
            sum(len(frontier.groups[g].cells) for g in members) for members in frontier.components
        ),
        interior=interior,
        log_layouts=math.log(exact.layouts),
        workings=Workings(view, total, exact={"value": exact}),
    )


def _cells(cells: Cells) -> npt.NDArray[np.int64]:
    return np.array(sorted(cells), np.int64).reshape(-1, 2)
