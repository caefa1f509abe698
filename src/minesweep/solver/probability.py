"""Exact mine probabilities from what the player sees.

The input is a *view*: for every square a glyph (:class:`minesweep.Glyph`):
0-8 for a revealed number, or hidden, flagged or question-marked. Flags are
the player's claims, not facts: a flagged square is analysed like any hidden
one. With the total number of mines, :func:`analyze` returns the exact
probability that each hidden square holds a mine, over all mine layouts that
agree with the view, each layout equally likely.

How, in the order the code does it:

1. **Constraints.** Every revealed number with hidden neighbours says how many
   of them are mines. A number with just as many hidden neighbours makes them
   all mines: those are set aside first (the fast path only), and the numbers
   around them need that many fewer. In play, most known mines stay hidden
   and are such squares; left in, they would tie most numbers of the board
   into one large component.
2. **Groups.** Hidden squares next to exactly the same numbers are
   interchangeable; a group of ``s`` squares holding ``k`` mines stands for
   ``C(s, k)`` layouts. Hidden squares next to no number form the *interior*.
3. **Components.** Groups linked through shared numbers form independent
   components.
4. **Counting per component**, by dynamic programming along an ordering of
   its groups: the state is the remaining demand of the numbers that are
   "open" (touching both counted and uncounted groups), and states that agree
   are merged, so a long frontier costs what its width costs, not the
   product of its choices. A forward and a backward pass give, for every
   number of mines ``m`` in the component, the count of layouts ``W(m)`` and
   each group's mine total ``E_g(m)``.
5. **The global count.** Components and the interior share the remaining
   mines: a component layout with ``m`` mines is weighted by the ways of
   placing the other mines, ``C(interior, M - m - others)``.

By default step 4 runs compiled, in floating point, keeping exact zeros
exact (so "certainly safe" never rounds away), and the counts of components
seen recently are remembered; ``exact=True`` counts everything in Python
integers, where the probabilities are exact fractions. Either way
"certainly safe" means probability exactly zero.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..errors import InvalidBoardError, MinesweepError

__all__ = ["DEFAULT_MAX_STATES", "Analysis", "AnalysisBudgetError", "ContradictionError", "analyze"]

HIDDEN_GLYPHS: Final = (9, 10, 11)  # hidden, flag, question mark
_OFFSETS: Final = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


class ContradictionError(MinesweepError):
    """No mine layout agrees with the view; the message names a square at fault.

    Finding the square at fault means counting the component again once per
    number, which costs far more than finding the contradiction: searches
    that try views which may be impossible (a lookahead) would pay it on
    every try. So the message can be given as a function, run the first time
    the message is read (``str``, ``repr``, pickling); until then ``args``
    holds a short summary.
    """

    def __init__(self, message: str | Callable[[], str]) -> None:
        if callable(message):
            super().__init__("no mine layout agrees with the view")
            self._explain: Callable[[], str] | None = message
        else:
            super().__init__(message)
            self._explain = None

    def __str__(self) -> str:
        explain = self._explain  # read once: another thread may get here too
        if explain is not None:
            self.args = (explain(),)
            self._explain = None
        return str(self.args[0])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # The explanation holds the whole frontier: send the message instead,
        # with whatever else the exception carries (notes, say).
        state = {key: value for key, value in vars(self).items() if key != "_explain"}
        return (type(self), (str(self),), state)


class AnalysisBudgetError(MinesweepError):
    """The frontier is too tangled to count exactly within the budget."""


#: Default budget: partial layouts (dynamic-programming states) per analysis.
#: Typical expert positions need a few hundred; the budget stops pathological
#: views (huge boards with long, loosely constrained frontiers) after about a
#: second or two instead of running on.
DEFAULT_MAX_STATES: Final = 200_000


Poly = dict[int, int]  # mines -> weighted count of layouts


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the view says about every hidden square.

    ``probability`` holds each hidden square's mine probability as a float,
    NaN on revealed squares; :meth:`exact` gives the exact fraction. ``safe``
    and ``mines`` list the squares that are certainly safe or certainly mines,
    as ``(n, 2)`` arrays of row and column: exact in every mode.
    """

    probability: npt.NDArray[np.float64]
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
    _view: npt.NDArray[np.uint8] = field(repr=False, compare=False)
    _mine_count: int = field(repr=False, compare=False)
    # The exact analysis, computed when first asked for (or at once with exact=True).
    _exact: dict[str, _Exact] = field(repr=False, compare=False)
    # The float path's frontier and component counts, for what-if questions
    # (:mod:`minesweep.solver._whatif`); None after an exact analysis.
    _frontier: _Frontier | None = field(default=None, repr=False, compare=False)
    _counts: tuple[_FloatCounts, ...] = field(default=(), repr=False, compare=False)

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

    def _exact_analysis(self) -> _Exact:
        if "value" not in self._exact:
            self._exact["value"] = _analyze_exact(self._view, self._mine_count, None)
        return self._exact["value"]


@dataclass(frozen=True, slots=True)
class _Exact:
    cells: dict[tuple[int, int], Fraction]
    interior: Fraction
    layouts: int


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
    view = _checked_view(glyphs)
    if isinstance(mines, bool) or not isinstance(mines, (int, np.integer)) or mines < 0:
        raise InvalidBoardError(f"mines must be a non-negative int, got {mines!r}")
    total = int(mines)
    if exact:
        return _from_exact(view, total, _analyze_exact(view, total, max_states))
    frontier = _Frontier(view, np.isin(view, HIDDEN_GLYPHS))
    if frontier.settled > total:
        raise ContradictionError(
            f"the view needs at least {frontier.settled} "
            f"mine{'s' if frontier.settled != 1 else ''}, but the game has {total}"
        )
    budget = [max_states if max_states is not None else -1]
    counts = [_count_fast(frontier, members, budget) for members in frontier.components]
    analysis = _combine_floats(view, total, frontier, counts)
    if analysis is None:
        # Floating point lost the sum (huge boards: the interior's binomials
        # span more than a float's range): count exactly instead.
        return _from_exact(view, total, _analyze_exact(view, total, max_states))
    return analysis


# --- floating point: the fast path ---------------------------------------------------


@dataclass(slots=True)
class _FloatCounts:
    """One component's counts in floats: layouts by mines, and each group's sums."""

    groups: list[_Group]
    layouts: npt.NDArray[np.float64]  # W[m]
    mines: npt.NDArray[np.float64]  # E[g, m]
    safes: npt.NDArray[np.float64]  # S[g, m]: safe squares of group g, summed
    #: The counts above are the true ones times exp(-log_scale).
    log_scale: float = 0.0


#: Components counted recently, by what defines them (their squares, and the
#: numbers around them with their values). Successive views of one game, and
#: the views a lookahead tries, share most components; counting each once
#: saves most of an analysis. Only compiled counts are kept, with the states
#: they took, so a hit charges the budget what the count would have: whether
#: a call raises AnalysisBudgetError never depends on what ran before it.
_CACHE_SIZE: Final = 1024
#: And at most this many bytes of counts: a component of a huge board can
#: hold megabytes, and a long-running server should not keep a thousand.
_CACHE_BYTES: Final = 64 * 2**20
_cache: OrderedDict[tuple[Any, ...], tuple[_FloatCounts, int, int]] = OrderedDict()
_cache_bytes = [0]
_cache_lock = threading.Lock()


def _clear_cache() -> None:
    """Forget every remembered component (for tests that count afresh)."""
    with _cache_lock:
        _cache.clear()
        _cache_bytes[0] = 0


def _component_key(frontier: _Frontier, members: list[int]) -> tuple[Any, ...]:
    # Each number by where it is and what it says (its id differs between views).
    numbers = frontier.witness_keys
    groups = frontier.groups
    return tuple(
        (tuple(groups[index].cells), tuple(map(numbers.__getitem__, groups[index].witnesses)))
        for index in members
    )


def _count_fast(frontier: _Frontier, members: list[int], budget: list[int]) -> _FloatCounts:
    key = _component_key(frontier, members)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
    if hit is not None:
        counts, states, _ = hit
        if budget[0] >= 0:
            if states > budget[0]:
                raise _over_budget(sum(len(group.cells) for group in counts.groups))
            budget[0] -= states
        return counts
    counts, states = _count_fresh(frontier, members, budget)
    size = counts.layouts.nbytes + counts.mines.nbytes + counts.safes.nbytes
    if states >= 0 and size <= _CACHE_BYTES:
        for array in (counts.layouts, counts.mines, counts.safes):
            array.flags.writeable = False
        with _cache_lock:
            if key not in _cache:
                _cache[key] = (counts, states, size)
                _cache_bytes[0] += size
            while len(_cache) > _CACHE_SIZE or _cache_bytes[0] > _CACHE_BYTES:
                _cache_bytes[0] -= _cache.popitem(last=False)[1][2]
    return counts


def _count_fresh(
    frontier: _Frontier, members: list[int], budget: list[int]
) -> tuple[_FloatCounts, int]:
    """One component's counts, and the states the compiled kernel took (-1: not compiled)."""
    from ._count import MAX_WIDTH, count_component

    plan = _plan(frontier.groups, frontier.targets, members)
    if max(plan.widths, default=0) <= MAX_WIDTH:
        arrays = _kernel_arrays(plan)
        limit = budget[0] if budget[0] >= 0 else np.iinfo(np.int64).max
        kernel: Any = count_component
        layouts, mines, safes, states = kernel(*arrays, limit)
        if states < 0:
            raise _over_budget(plan.squares)
        if budget[0] >= 0:
            budget[0] -= states
        if np.isfinite(layouts).all() and np.isfinite(mines).all() and np.isfinite(safes).all():
            if not layouts.any():
                raise ContradictionError(functools.partial(_blame, frontier, members))
            return _FloatCounts(plan.groups, layouts, mines, safes), int(states)
    # Too many open numbers for the compiled state, or counts beyond float range:
    # count exactly, then scale into floats.
    result = _count_exact(plan, budget)
    if result is None:
        raise ContradictionError(functools.partial(_blame, frontier, members))
    length = plan.squares + 1
    scale = max(result.layouts.values()).bit_length()
    shift = max(0, scale - 900)
    layouts = np.zeros(length)
    for m, w in result.layouts.items():
        layouts[m] = w >> shift
    mines = np.zeros((len(result.groups), length))
    safes = np.zeros((len(result.groups), length))
    for g, group in enumerate(result.groups):
        for m in result.layouts:
            e = group.mines.get(m, 0)
            mines[g, m] = e >> shift
            safes[g, m] = (group.size * result.layouts[m] - e) >> shift
            # Keep exact zeros exact and non-zeros non-zero after the shift.
            if e and not mines[g, m]:
                mines[g, m] = 2.0**-1000
            if group.size * result.layouts[m] - e and not safes[g, m]:
                safes[g, m] = 2.0**-1000
    return _FloatCounts(plan.groups, layouts, mines, safes, shift * math.log(2.0)), -1


def _kernel_arrays(plan: _Plan) -> list[npt.NDArray[np.int64]]:
    """A plan as the compiled kernel takes it (see :func:`._count.count_component`)."""
    return list(plan.arrays[1:])


def _combine_floats(
    view: npt.NDArray[np.uint8], total: int, frontier: _Frontier, counts: list[_FloatCounts]
) -> Analysis | None:
    """Share the mines out between the components and the interior, in floats.

    Returns None when a sum underflows, for the caller to count exactly.
    ``total`` counts every mine; those the frontier set aside are certain.
    """
    interior = frontier.interior
    settled = frontier.settled
    total -= settled
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
    before = _prefix(layouts, norms=norms)
    log_norm += sum(norms)
    after = _prefix(layouts[::-1])[::-1]
    before_ok = _prefix([f.astype(np.float64) for f in feasible], boolean=True)
    after_ok = _prefix([f.astype(np.float64) for f in feasible[::-1]], boolean=True)[::-1]
    reachable = before_ok[-1] > 0
    if not np.any(reachable[: len(fits)] & fits[: len(reachable)]):
        low = sum(int(np.flatnonzero(f)[0]) for f in feasible) + settled
        high = sum(int(np.flatnonzero(f)[-1]) for f in feasible) + interior + settled
        raise ContradictionError(
            f"the view needs between {low} and {high} mines, but the game has {total + settled}"
        )
    peak = np.max(log_ways[fits])
    ways = np.where(fits, np.exp(log_ways - peak), 0.0)
    everything = float(np.dot(before[-1], ways[: len(before[-1])]))
    if not everything > 0 or not math.isfinite(everything):
        return None

    rows, cols = view.shape
    probability = np.full((rows, cols), np.nan)
    safe: list[tuple[int, int]] = []
    sure: list[tuple[int, int]] = []
    if settled:
        probability[frontier.settled_mask] = 1.0
        sure.extend((r, c) for r, c in np.argwhere(frontier.settled_mask).tolist())
    for index, component in enumerate(counts):
        others = np.convolve(before[index], after[index + 1])
        others_ok = np.convolve(before_ok[index], after_ok[index + 1]) > 0
        length = len(component.layouts)
        # outside[m] = sum over t of others[t] * ways[m + t]: the ways to place
        # the other mines when this component holds m.
        outside = _correlate(ways, others, length)
        possible = feasible[index] & (_correlate(fits.astype(np.float64), others_ok, length) > 0)
        scale = component.layouts.max()
        z = float(np.dot(layouts[index], outside))
        if not z > 0 or not math.isfinite(z):
            return None
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
    totals = before[-1]
    totals_ok = before_ok[-1] > 0
    if interior:
        frontier_mines = np.arange(len(totals))
        inside = np.where(frontier_mines <= total, total - frontier_mines, 0)
        weights = totals * ways[: len(totals)]
        if not weights.sum() > 0:
            return None
        interior_value = float(np.dot(weights, inside) / interior / weights.sum())
        left_inside = inside[totals_ok & fits[: len(totals)]]
        where = np.argwhere(frontier.interior_mask)
        if not np.any(left_inside):
            interior_value = 0.0
            safe.extend((r, c) for r, c in where.tolist())
        elif np.all(left_inside == interior):
            interior_value = 1.0
            sure.extend((r, c) for r, c in where.tolist())
        probability[frontier.interior_mask] = interior_value
    return Analysis(
        probability=probability,
        safe=_cells(safe),
        mines=_cells(sure),
        components=tuple(sum(len(g.cells) for g in c.groups) for c in counts),
        interior=interior,
        log_layouts=math.log(everything) + log_norm + float(peak),
        _view=view,
        _mine_count=total + settled,
        _exact={},
        _frontier=frontier,
        _counts=tuple(counts),
    )


def _prefix(
    polys: list[npt.NDArray[np.float64]],
    *,
    boolean: bool = False,
    norms: list[float] | None = None,
) -> list[npt.NDArray[np.float64]]:
    """Running convolutions, renormalised (or clipped to 0/1 for feasibility).

    ``norms``, when given, receives the log of each renormalisation's divisor.
    """
    products = [np.ones(1)]
    for poly in polys:
        product = np.convolve(products[-1], poly)
        if boolean:
            product = (product > 0).astype(np.float64)
        else:
            divisor = product.max()
            product /= divisor
            if norms is not None:
                norms.append(math.log(divisor))
        products.append(product)
    return products


def _correlate(
    ways: npt.NDArray[np.float64], others: npt.ArrayLike, length: int
) -> npt.NDArray[np.float64]:
    """``out[m] = sum over t of others[t] * ways[m + t]`` for m below ``length``."""
    weights = np.asarray(others, np.float64)
    padded = np.zeros(length + len(weights) - 1)
    padded[: min(len(ways), len(padded))] = ways[: len(padded)]
    return np.correlate(padded, weights, mode="valid")[:length]


# --- exact integers ----------------------------------------------------------------------


def _analyze_exact(view: npt.NDArray[np.uint8], total: int, max_states: int | None) -> _Exact:
    """The exact analysis: every count a Python integer, every probability a Fraction."""
    # The reference path counts every hidden square, none set aside.
    frontier = _Frontier(view, np.isin(view, HIDDEN_GLYPHS), settle=False)
    budget = [max_states if max_states is not None else -1]
    results = []
    for members in frontier.components:
        result = _count_exact(_plan(frontier.groups, frontier.targets, members), budget)
        if result is None:
            raise ContradictionError(functools.partial(_blame, frontier, members))
        results.append(result)
    interior = frontier.interior
    polys = [result.layouts for result in results]
    before = _prefix_products(polys)
    after = _prefix_products(polys[::-1])[::-1]
    combined = before[-1]
    # Z: all layouts of the whole board that agree with the view.
    z = sum(w * math.comb(interior, total - t) for t, w in combined.items() if total - t >= 0)
    if z == 0:
        low = sum(min(p) for p in polys)
        high = sum(max(p) for p in polys) + interior
        raise ContradictionError(
            f"the view needs between {low} and {high} mines, but the game has {total}"
        )
    cells: dict[tuple[int, int], Fraction] = {}
    for index, result in enumerate(results):
        others = _convolve(before[index], after[index + 1])
        # For each m of this component, the ways to place the other mines.
        outside = {
            m: sum(
                w * math.comb(interior, total - m - t)
                for t, w in others.items()
                if total - m - t >= 0
            )
            for m in result.layouts
        }
        for group in result.groups:
            mines_in_group = sum(group.mines[m] * outside[m] for m in group.mines)
            value = Fraction(mines_in_group, group.size * z)
            for cell in group.cells:
                cells[cell] = value
    interior_value = Fraction(
        sum(
            w * math.comb(interior - 1, total - t - 1)
            for t, w in combined.items()
            if total - t - 1 >= 0
        )
        if interior
        else 0,
        z,
    )
    return _Exact(cells, interior_value, z)


def _from_exact(view: npt.NDArray[np.uint8], total: int, exact: _Exact) -> Analysis:
    hidden = np.isin(view, HIDDEN_GLYPHS)
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
    frontier = _Frontier(view, hidden)
    return Analysis(
        probability=probability,
        safe=_cells(safe),
        mines=_cells(sure),
        components=tuple(
            sum(len(frontier.groups[g].cells) for g in members) for members in frontier.components
        ),
        interior=interior,
        log_layouts=math.log(exact.layouts),
        _view=view,
        _mine_count=total,
        _exact={"value": exact},
    )


# --- the frontier -------------------------------------------------------------------


@dataclass(slots=True)
class _Group:
    cells: list[tuple[int, int]]
    witnesses: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


class _Frontier:
    """Numbers with hidden neighbours (witnesses), groups of squares, components."""

    def __init__(
        self, view: npt.NDArray[np.uint8], hidden: npt.NDArray[np.bool_], *, settle: bool = True
    ) -> None:
        rows, cols = view.shape
        revealed = ~hidden
        hidden_around = _around(hidden)
        # A number larger than its hidden neighbours can never be satisfied.
        impossible = np.argwhere(revealed & (view > hidden_around))
        if len(impossible):
            r, c = (int(v) for v in impossible[0])
            raise ContradictionError(
                f"square ({r}, {c}) shows {view[r, c]} but has only "
                f"{hidden_around[r, c]} hidden neighbours"
            )
        #: Squares set aside as mines before counting (with ``settle``): every
        #: hidden neighbour of a number equal to its count of hidden
        #: neighbours. In play most known mines stay hidden and are such
        #: squares; left in, they tie the numbers around them into a few
        #: large components (in expert views met in play, 60 of 76 groups
        #: held only such mines, and 183 of 197 numbers touched nothing
        #: else), which every count and every what-if would go through
        #: again. One pass finds them all: setting a number's neighbours
        #: aside takes as much off its count as off its hidden neighbours,
        #: so no other number becomes full.
        self.settled_mask = np.zeros((rows, cols), np.bool_)
        if settle:
            full = revealed & (hidden_around > 0) & (view == hidden_around)
            if full.any():
                self.settled_mask = hidden & (_around(full) > 0)
        self.settled = int(np.count_nonzero(self.settled_mask))
        if self.settled:
            hidden = hidden & ~self.settled_mask
            hidden_around = _around(hidden)
            left = view.astype(np.int64) - _around(self.settled_mask)
            broken = np.argwhere(revealed & (left < 0))
            if len(broken):
                r, c = (int(v) for v in broken[0])
                certain = int(view[r, c] - left[r, c])
                raise ContradictionError(
                    f"no mine layout agrees with the view: square ({r}, {c}) shows "
                    f"{view[r, c]}, but the numbers around it make {certain} of its "
                    f"neighbours certain mine{'s' if certain != 1 else ''}"
                )
        else:
            left = view.astype(np.int64)
        witness_mask = revealed & (hidden_around > 0)
        witness_cells = np.argwhere(witness_mask)
        #: What each number shows, and how many mines it still needs among
        #: its hidden neighbours not set aside.
        self.shown = view[witness_mask].astype(np.int64).tolist()
        self.targets = left[witness_mask].astype(np.int64).tolist()
        self.witness_cells = list(map(tuple, witness_cells.tolist()))
        self.witness_keys = list(zip(self.witness_cells, self.targets, strict=True))
        ids = np.full((rows + 2, cols + 2), -1, np.int64)
        ids[1:-1, 1:-1][witness_mask] = np.arange(len(witness_cells))
        # For every hidden square, the ids of the witnesses around it.
        hidden_cells = np.argwhere(hidden)
        neighbours = np.stack(
            [ids[hidden_cells[:, 0] + 1 + dr, hidden_cells[:, 1] + 1 + dc] for dr, dc in _OFFSETS],
            axis=1,
        )
        neighbours.sort(axis=1)
        on_frontier = neighbours[:, -1] >= 0
        self.interior_mask = np.zeros((rows, cols), np.bool_)
        inner = hidden_cells[~on_frontier]
        self.interior_mask[inner[:, 0], inner[:, 1]] = True
        self.interior = len(inner)
        # Squares seeing the same numbers form a group; groups in the order
        # of their sorted witness lists (padded with -1), squares in board order.
        by_signature: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        for signature, (r, c) in zip(
            map(tuple, neighbours[on_frontier].tolist()),
            hidden_cells[on_frontier].tolist(),
            strict=True,
        ):
            cells = by_signature.get(signature)
            if cells is None:
                by_signature[signature] = [(r, c)]
            else:
                cells.append((r, c))
        signatures = sorted(by_signature)
        #: The group of every frontier square; -1 elsewhere.
        self.group_at = np.full((rows, cols), -1, np.int64)
        self.groups = []
        group_at = self.group_at
        for index, signature in enumerate(signatures):
            cells = by_signature[signature]
            self.groups.append(_Group(cells, tuple(w for w in signature if w >= 0)))
            for cell in cells:
                group_at[cell] = index
        self.components = self._components()

    def _components(self) -> list[list[int]]:
        """Groups linked through shared witnesses: each component's groups in
        ascending order, components in the order of their first group."""
        groups_of: list[list[int]] = [[] for _ in self.targets]
        for index, group in enumerate(self.groups):
            for w in group.witnesses:
                groups_of[w].append(index)
        done = [False] * len(self.groups)
        seen = [False] * len(self.targets)
        components = []
        for start, group in enumerate(self.groups):
            if done[start]:
                continue
            done[start] = True
            members = [start]
            todo = list(group.witnesses)
            for w in todo:
                seen[w] = True
            while todo:
                for index in groups_of[todo.pop()]:
                    if not done[index]:
                        done[index] = True
                        members.append(index)
                        for w in self.groups[index].witnesses:
                            if not seen[w]:
                                seen[w] = True
                                todo.append(w)
            members.sort()
            components.append(members)
        return components


@dataclass(slots=True)
class _GroupResult:
    cells: list[tuple[int, int]]
    size: int
    mines: Poly  # component mines m -> total mines in this group over its layouts


@dataclass(slots=True)
class _ComponentResult:
    layouts: Poly
    groups: list[_GroupResult]
    squares: int


@dataclass(slots=True)
class _Plan:
    """A component's groups in counting order, and how each step reads the state.

    ``arrays`` are what the compiled kernel takes (see
    :func:`._count.plan_component`): for group ``i``, its numbers' entries
    ``touch_start[i]:touch_start[i + 1]`` of ``touch_*`` give the slot in the
    state before (-1 when first seen), the slot after (-1 when closing here),
    the target and the capacity of the later groups; the open numbers it
    does not touch are carried over by the (before, after) slot pairs of
    ``carry_pairs``; ``widths[i]`` is the state width after it.
    """

    groups: list[_Group]
    arrays: tuple[npt.NDArray[np.int64], ...]

    @property
    def squares(self) -> int:
        return sum(len(group.cells) for group in self.groups)

    @property
    def widths(self) -> list[int]:
        return [int(width) for width in self.arrays[9]]

    def touched(self, position: int) -> list[tuple[int, int, int, int]]:
        start, end = self.arrays[2][position], self.arrays[2][position + 1]
        return list(
            zip(
                *(self.arrays[i][start:end].tolist() for i in (3, 4, 5, 6)),
                strict=True,
            )
        )

    def carried(self, position: int) -> list[tuple[int, int]]:
        start, end = self.arrays[7][position], self.arrays[7][position + 1]
        pairs = self.arrays[8][2 * start : 2 * end].tolist()
        return list(zip(pairs[::2], pairs[1::2], strict=True))


def _plan(
    all_groups: list[_Group], targets: list[int], members: list[int], ignored: int = -1
) -> _Plan:
    """Order a component's groups and work out the state bookkeeping of each step.

    The compiled :func:`._count.plan_component` does the work, on the
    component's numbers renumbered from 0. The witness ``ignored`` is left
    out (used to find which number is at fault when nothing fits).
    """
    from ._count import plan_component

    groups = [all_groups[index] for index in members]
    flat = [w for group in groups for w in group.witnesses]
    # The component's numbers renumbered from 0 in order (a few dozen: plain
    # Python beats numpy's unique here).
    numbers = sorted(set(flat))
    local = {w: i for i, w in enumerate(numbers)}
    starts = np.zeros(len(groups) + 1, np.int64)
    np.cumsum([len(group.witnesses) for group in groups], out=starts[1:])
    arrays = plan_component(
        starts,
        np.array([local[w] for w in flat], np.int64),
        np.array([len(group.cells) for group in groups], np.int64),
        np.array([targets[w] for w in numbers], np.int64),
        local.get(ignored, -1),
    )
    return _Plan([groups[i] for i in arrays[0].tolist()], arrays)


def _count_exact(plan: _Plan, budget: list[int]) -> _ComponentResult | None:
    """Layout counts of one component in Python integers; None when nothing fits.

    Forward-backward dynamic programming: ``budget[0]`` is how many more
    states may be made (negative: no limit).
    """
    groups = plan.groups
    n = len(groups)
    # Forward: layers[i] maps states after i groups to mine polynomials, and
    # moves[i] remembers each state's valid choices for the backward pass.
    layers: list[dict[tuple[int, ...], Poly]] = [{(): {0: 1}}]
    moves: list[dict[tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]]] = []
    for position, group in enumerate(groups):
        touched, carried, width = (
            plan.touched(position),
            plan.carried(position),
            int(plan.arrays[9][position]),
        )
        nxt: dict[tuple[int, ...], Poly] = {}
        layer_moves: dict[tuple[int, ...], list[tuple[int, int, tuple[int, ...]]]] = {}
        size = len(group.cells)
        for state, poly in layers[-1].items():
            options = []
            # The mines k this group may take: every number it touches must
            # keep between 0 and its remaining capacity still to find, and a
            # number closing here must be met exactly.
            low, high = 0, size
            base = [0] * width
            for slot_before, slot_after in carried:
                base[slot_after] = state[slot_before]
            demands = []
            for slot_before, slot_after, target, capacity in touched:
                demand = state[slot_before] if slot_before >= 0 else target
                demands.append((slot_after, demand))
                if slot_after < 0:
                    low = max(low, demand)
                    high = min(high, demand)
                else:
                    low = max(low, demand - capacity)
                    high = min(high, demand)
            for k in range(low, high + 1):
                for slot_after, demand in demands:
                    if slot_after >= 0:
                        base[slot_after] = demand - k
                following = tuple(base)
                ways = math.comb(size, k)
                options.append((k, ways, following))
                _add_shifted(nxt.setdefault(following, {}), poly, k, ways)
            layer_moves[state] = options
        layers.append(nxt)
        moves.append(layer_moves)
        if budget[0] >= 0:
            budget[0] -= len(nxt)
            if budget[0] < 0:
                raise _over_budget(plan.squares)
    total = layers[-1].get((), {})
    if not total:
        return None
    # Backward: completions from each state, then every group's mine totals.
    completions: dict[tuple[int, ...], Poly] = {(): {0: 1}}
    results: list[_GroupResult] = []
    for position in range(n - 1, -1, -1):
        group = groups[position]
        here: dict[tuple[int, ...], Poly] = {}
        mines_here: Poly = {}
        for state, options in moves[position].items():
            poly = here.setdefault(state, {})
            before_poly = layers[position][state]
            for k, ways, following in options:
                rest = completions.get(following)
                if not rest:
                    continue
                _add_shifted(poly, rest, k, ways)
                if k:
                    _add_product(mines_here, before_poly, rest, k, ways * k)
        completions = here
        results.append(_GroupResult(group.cells, len(group.cells), mines_here))
    results.reverse()
    return _ComponentResult(total, results, plan.squares)


def _over_budget(squares: int) -> AnalysisBudgetError:
    return AnalysisBudgetError(
        f"counting this view needs more than the budget of partial layouts (a frontier of "
        f"{squares} squares in one component); raise max_states or pass None to count "
        "without limit"
    )


def _blame(frontier: _Frontier, members: list[int]) -> str:
    """Name a number of a component no layout satisfies: one without which some would."""
    witnesses = sorted({w for index in members for w in frontier.groups[index].witnesses})
    for w in witnesses:
        if _count_exact(_plan(frontier.groups, frontier.targets, members, ignored=w), [-1]) is None:
            continue
        r, c = frontier.witness_cells[w]
        return (
            f"no mine layout agrees with the view: the {frontier.shown[w]} at square "
            f"({r}, {c}) contradicts the numbers around it"
        )
    r, c = frontier.witness_cells[witnesses[0]]
    return f"no mine layout agrees with the numbers around square ({r}, {c})"


# --- small helpers -------------------------------------------------------------------


def _add_shifted(into: Poly, poly: Poly, shift: int, factor: int) -> None:
    for m, w in poly.items():
        into[m + shift] = into.get(m + shift, 0) + w * factor


def _add_product(into: Poly, left: Poly, right: Poly, shift: int, factor: int) -> None:
    for a, wa in left.items():
        for b, wb in right.items():
            key = a + b + shift
            into[key] = into.get(key, 0) + wa * wb * factor


def _convolve(left: Poly, right: Poly) -> Poly:
    out: Poly = {}
    _add_product(out, left, right, 0, 1)
    return out


def _prefix_products(polys: list[Poly]) -> list[Poly]:
    products: list[Poly] = [{0: 1}]
    for poly in polys:
        products.append(_convolve(products[-1], poly))
    return products


def _around(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """How many of each square's eight neighbours are in ``mask``."""
    padded = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), np.int64)
    padded[1:-1, 1:-1] = mask
    total = np.zeros(mask.shape, np.int64)
    for dr, dc in _OFFSETS:
        total += padded[1 + dr : padded.shape[0] - 1 + dr, 1 + dc : padded.shape[1] - 1 + dc]
    return total


def _cells(cells: list[tuple[int, int]]) -> npt.NDArray[np.int64]:
    return np.array(sorted(cells), np.int64).reshape(-1, 2)


def _checked_view(glyphs: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    try:
        view = np.asarray(glyphs)
    except ValueError as error:
        raise InvalidBoardError(f"view must be a rectangular 2-D array: {error}") from None
    if view.ndim != 2 or view.size == 0 or view.dtype.kind not in "iu":
        raise InvalidBoardError(
            f"view must be a non-empty 2-D array of glyphs, got {view.dtype} {view.shape}"
        )
    bad = np.argwhere((view < 0) | (view > 11))
    if len(bad):
        r, c = (int(v) for v in bad[0])
        raise InvalidBoardError(
            f"view square ({r}, {c}) is glyph {view[r, c]}; a view to solve holds numbers "
            "0-8, hidden, flag and question mark (a finished game's mines cannot be solved)"
        )
    return view.astype(np.uint8)
