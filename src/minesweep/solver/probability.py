"""Exact mine probabilities from what the player sees.

The input is a *view*: for every square a glyph (:class:`minesweep.Glyph`):
0-8 for a revealed number, or hidden, flagged or question-marked. Flags are
the player's claims, not facts: a flagged square is analysed like any hidden
one. With the total number of mines, :func:`analyze` returns the exact
probability that each hidden square holds a mine, over all mine layouts that
agree with the view, each layout equally likely.

How, in the order the code does it:

1. **Constraints**, 2. **groups** and 3. **components**: the frontier
   (:mod:`minesweep.solver.frontier`): the numbers with hidden neighbours,
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
   compiled, in floats; :mod:`minesweep.solver.exact`, in integers).
5. **The global count** (here). Components and the interior share the
   remaining mines: a component layout with ``m`` mines is weighted by the
   ways of placing the other mines, ``C(interior, M - m - others)``.

By default step 4 runs compiled, in floating point, keeping exact zeros
exact (so "certainly safe" never rounds away), and the counts of components
seen recently are remembered; ``exact=True`` counts everything in Python
integers, where the probabilities are exact fractions. Either way
"certainly safe" means probability exactly zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..errors import InvalidBoardError
from .counting import FloatCounts, correlate, count_fast, prefix
from .errors import DEFAULT_MAX_STATES, AnalysisBudgetError, ContradictionError
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
    #: The float path's frontier and each of its components' counts, in the
    #: order of ``frontier.components``; None and () after an exact analysis.
    frontier: Frontier | None = None
    counts: tuple[FloatCounts, ...] = ()
    #: The exact analysis, computed when first asked for (or at once with exact=True).
    exact: dict[str, ExactAnalysis] = field(default_factory=dict)
    #: The what-if questions' answers about joint outcomes, with what each
    #: cost: every lookahead on this analysis shares them
    #: (:meth:`minesweep.solver.whatif.Lookahead.joint`).
    joints: dict[Any, tuple[float, int]] = field(default_factory=dict)


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
            raise InvalidBoardError(f"square ({row}, {col}) is off the view")
        if np.isnan(self.probability[row, col]):
            raise InvalidBoardError(f"square ({row}, {col}) is revealed")
        exact = self._exact_analysis()
        return exact.cells.get((row, col), exact.interior)

    @property
    def layouts(self) -> int:
        """How many mine layouts agree with the view: an exact, possibly huge, integer."""
        return self._exact_analysis().layouts

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
) -> Analysis:
    """Mine probabilities of every hidden square of a view with ``mines`` mines in all.

    By default the counting runs compiled, in floating point: probabilities
    within a relative 1e-12 of the exact ones, and which squares are
    certainly safe or mines decided exactly. With ``exact=True`` everything
    is counted in Python integers (slower); :meth:`Analysis.exact` gives the
    exact fraction of a square either way.

    Raises ContradictionError when no layout agrees with the view, and
    AnalysisBudgetError when counting would need more than ``max_states``
    partial layouts (None: no limit).
    """
    view = checked_view(glyphs)
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)) or mines < 0:
        raise InvalidBoardError(f"mines must be a non-negative int, got {mines!r}")
    total = int(mines)
    if exact:
        return _from_exact(view, total, analyze_exact(view, total, max_states))
    frontier = Frontier(view, hidden_mask(view))
    if frontier.settled > total:
        raise ContradictionError(
            f"the view needs at least {frontier.settled} "
            f"mine{'s' if frontier.settled != 1 else ''}, but the game has {total}"
        )
    budget = [max_states if max_states is not None else -1]
    counts = [count_fast(frontier, members, budget) for members in frontier.components]
    analysis = _combine_floats(view, total, frontier, counts)
    if analysis is None:
        # Floating point lost the sum (huge boards: the interior's binomials
        # span more than a float's range): count exactly instead.
        return _from_exact(view, total, analyze_exact(view, total, max_states))
    return analysis


@dataclass(slots=True)
class _Sharing:
    """How the components and the interior share the mines, in floats.

    ``layouts`` are the components' counts each divided by its largest;
    ``before[i]`` and ``after[i]`` the products of the components before
    and after component ``i`` (renormalised), ``*_ok`` the same for
    feasibility only; ``ways[t]`` the ways (relative to the largest) to place
    the rest in the interior for ``t`` mines on the frontier, ``fits`` where
    that is possible.
    """

    layouts: list[Floats]
    feasible: list[npt.NDArray[np.bool_]]
    fits: npt.NDArray[np.bool_]
    ways: Floats
    before: list[Floats]
    after: list[Floats]
    before_ok: list[Floats]
    after_ok: list[Floats]
    log_layouts: float


def _combine_floats(
    view: npt.NDArray[np.uint8], total: int, frontier: Frontier, counts: list[FloatCounts]
) -> Analysis | None:
    """Share the mines out between the components and the interior, in floats.

    Returns None when a sum underflows, for the caller to count exactly.
    ``total`` counts every mine; those the frontier set aside are certain.
    """
    interior = frontier.interior
    settled = frontier.settled
    total -= settled
    filled = None
    if len(counts) <= PLAIN_COMPONENTS:
        filled = _fill_plain(view, total, frontier, counts)
    if filled is None:
        _check_totals(interior, total, settled, counts)
        filled = _fill_tilted(view, total, frontier, counts)
        if filled is None:
            return None
    probability, safe, sure, log_layouts = filled
    if settled:
        probability[frontier.settled_mask] = 1.0
        sure.extend((r, c) for r, c in np.argwhere(frontier.settled_mask).tolist())
    return Analysis(
        probability=probability,
        safe=_cells(safe),
        mines=_cells(sure),
        components=tuple(sum(len(g.cells) for g in c.groups) for c in counts),
        interior=interior,
        log_layouts=log_layouts,
        workings=Workings(view, total + settled, frontier, tuple(counts)),
    )


#: More components than this are shared out at the saddle point
#: (:mod:`minesweep.solver.tilted`), whose cost grows linearly with them;
#: the plain path gives each component the product of all the others.
PLAIN_COMPONENTS: Final = 64

_Filled = tuple[Floats, Cells, Cells, float]


def _fill_plain(
    view: npt.NDArray[np.uint8], total: int, frontier: Frontier, counts: list[FloatCounts]
) -> _Filled | None:
    """Every square's probability by the plain products; None when a sum underflows."""
    sharing = _share(frontier.interior, total, frontier.settled, counts)
    if sharing is None:
        return None
    probability = np.full(view.shape, np.nan)
    safe: Cells = []
    sure: Cells = []
    for index, component in enumerate(counts):
        if not _fill_component(sharing, index, component, probability, safe, sure):
            return None
    if frontier.interior and not _fill_interior(sharing, total, frontier, probability, safe, sure):
        return None
    return probability, safe, sure, sharing.log_layouts


def _fill_tilted(
    view: npt.NDArray[np.uint8], total: int, frontier: Frontier, counts: list[FloatCounts]
) -> _Filled | None:
    """Every square's probability shared out at the saddle point; None when that underflows."""
    shared = share_tilted(frontier.interior, total, counts)
    if shared is None:
        return None
    probability = np.full(view.shape, np.nan)
    safe: Cells = []
    sure: Cells = []
    for component, (values, certain_safe, certain_mine) in zip(counts, shared.groups, strict=True):
        for g, group in enumerate(component.groups):
            rows_, cols_ = zip(*group.cells, strict=True)
            probability[list(rows_), list(cols_)] = values[g]
            if certain_safe[g]:
                safe.extend(group.cells)
            elif certain_mine[g]:
                sure.extend(group.cells)
    if frontier.interior:
        probability[frontier.interior_mask] = shared.interior
        if shared.interior_safe or shared.interior_mine:
            where = np.argwhere(frontier.interior_mask).tolist()
            (safe if shared.interior_safe else sure).extend((r, c) for r, c in where)
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
            f"the view needs between {low + settled} and {high + interior + settled} mines, "
            f"but the game has {total + settled}"
        )


def _share(interior: int, total: int, settled: int, counts: list[FloatCounts]) -> _Sharing | None:
    """The products and interior ways every square's probability is made of.

    ContradictionError when no mine count fits; None when the sum underflows.
    """
    layouts = [c.layouts / c.layouts.max() for c in counts]
    # The log of what the normalisations divide out: the count of layouts
    # comes back from it at the end.
    log_norm = sum(math.log(c.layouts.max()) + c.log_scale for c in counts)
    feasible = [c.layouts > 0 for c in counts]
    most = sum(len(w) - 1 for w in layouts)
    # Ways to place what is left in the interior, for t mines on the frontier,
    # relative to the largest, from log-gamma (the binomials overflow floats).
    log_ways = np.full(most + 1, -np.inf)
    for t in range(most + 1):
        r = total - t
        if 0 <= r <= interior:
            log_ways[t] = (
                math.lgamma(interior + 1) - math.lgamma(r + 1) - math.lgamma(interior - r + 1)
            )
    fits = np.isfinite(log_ways)
    norms: list[float] = []
    before = prefix(layouts, norms=norms)
    log_norm += sum(norms)
    after = prefix(layouts[::-1])[::-1]
    before_ok = prefix([f.astype(np.float64) for f in feasible], boolean=True)
    after_ok = prefix([f.astype(np.float64) for f in feasible[::-1]], boolean=True)[::-1]
    reachable = before_ok[-1] > 0
    if not np.any(reachable[: len(fits)] & fits[: len(reachable)]):
        _check_totals(interior, total, settled, counts)
    peak = np.max(log_ways[fits])
    ways = np.where(fits, np.exp(log_ways - peak), 0.0)
    everything = float(np.dot(before[-1], ways[: len(before[-1])]))
    if not everything > TINY or not math.isfinite(everything):
        return None
    log_layouts = math.log(everything) + log_norm + float(peak)
    return _Sharing(layouts, feasible, fits, ways, before, after, before_ok, after_ok, log_layouts)


def _fill_component(
    sharing: _Sharing,
    index: int,
    component: FloatCounts,
    probability: Floats,
    safe: Cells,
    sure: Cells,
) -> bool:
    """Write component ``index``'s probabilities and certain squares; False on underflow."""
    ways = sharing.ways
    others = np.convolve(sharing.before[index], sharing.after[index + 1])
    others_ok = np.convolve(sharing.before_ok[index], sharing.after_ok[index + 1]) > 0
    length = len(component.layouts)
    # outside[m] = sum over t of others[t] * ways[m + t]: the ways to place
    # the other mines when this component holds m.
    outside = correlate(ways, others, length)
    possible = sharing.feasible[index] & (
        correlate(sharing.fits.astype(np.float64), others_ok, length) > 0
    )
    scale = component.layouts.max()
    z = float(np.dot(sharing.layouts[index], outside))
    if not z > 0 or not math.isfinite(z):
        return False
    sizes = np.array([len(group.cells) for group in component.groups], np.float64)
    values = (component.mines / scale) @ outside / (sizes * z)
    certain_safe = ~np.any(component.mines[:, possible] > 0, axis=1)
    certain_mine = ~np.any(component.safes[:, possible] > 0, axis=1)
    values[certain_safe] = 0.0
    values[certain_mine] = 1.0
    for g, group in enumerate(component.groups):
        cells = group.cells
        rows_, cols_ = zip(*cells, strict=True)
        probability[list(rows_), list(cols_)] = values[g]
        if certain_safe[g]:
            safe.extend(cells)
        elif certain_mine[g]:
            sure.extend(cells)
    return True


def _fill_interior(
    sharing: _Sharing,
    total: int,
    frontier: Frontier,
    probability: Floats,
    safe: Cells,
    sure: Cells,
) -> bool:
    """Write the interior's probability (one for all its squares); False on underflow."""
    interior = frontier.interior
    ways = sharing.ways
    totals = sharing.before[-1]
    totals_ok = sharing.before_ok[-1] > 0
    frontier_mines = np.arange(len(totals))
    inside = np.where(frontier_mines <= total, total - frontier_mines, 0)
    weights = totals * ways[: len(totals)]
    if not weights.sum() > 0:
        return False
    interior_value = float(np.dot(weights, inside) / interior / weights.sum())
    left_inside = inside[totals_ok & sharing.fits[: len(totals)]]
    where = np.argwhere(frontier.interior_mask)
    if not np.any(left_inside):
        interior_value = 0.0
        safe.extend((r, c) for r, c in where.tolist())
    elif np.all(left_inside == interior):
        interior_value = 1.0
        sure.extend((r, c) for r, c in where.tolist())
    probability[frontier.interior_mask] = interior_value
    return True


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
