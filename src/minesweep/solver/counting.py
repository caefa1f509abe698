"""Step 4 in floating point: every component's layouts counted, compiled, and remembered.

The compiled counter (:func:`minesweep.solver._count.count_component`) counts
a component in float64, keeping exact zeros exact; :func:`count_all` plans
and counts every component of a view that is not remembered in one
compiled call (:mod:`minesweep.solver._batch`). A component too wide for
one order is counted in pieces (:mod:`minesweep.solver.pieces`); one with
counts beyond float range, or a piece too wide for the compiled state, is
counted exactly (:mod:`minesweep.solver.exact`) and scaled into floats.
Counts of components seen recently are remembered by what defines them, so
the analysis after a reveal counts only the components the new numbers
touch. Also here: the float polynomial helpers the lookahead uses.
Internal to the solver package.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from .._jit import entry
from .errors import MAX_COEFFICIENTS, ContradictionError, StateBudget, over_budget
from .exact import ComponentResult, blame, count_exact
from .frontier import Frontier, Group, Plan, plan_members
from .pieces import force, order_tries

__all__ = [
    "COMPONENT_CACHE",
    "COUNTING_METHODS",
    "ComponentCache",
    "CountingMethods",
    "FloatCounts",
    "clear_cache",
    "count_all",
    "prefix",
]

Floats = npt.NDArray[np.float64]


@dataclass(slots=True)
class FloatCounts:
    """One component's counts in floats: layouts by mines, and each group's sums.

    Row ``g`` of ``mines`` and ``safes`` is about the frontier's group
    ``ids[g]``, of ``sizes[g]`` squares.
    """

    ids: list[int]
    sizes: Floats
    layouts: Floats  # W[m]
    mines: Floats  # E[g, m]
    safes: Floats  # S[g, m]: safe squares of group g, summed
    #: The frontier the ids point into.
    source: Frontier
    #: The counts above are the true ones times exp(-log_scale).
    log_scale: float = 0.0

    @property
    def groups(self) -> list[Group]:
        groups = self.source.groups
        return [groups[index] for index in self.ids]

    @property
    def squares(self) -> int:
        return int(self.sizes.sum())


def _float_counts(
    plan: Plan, layouts: Floats, mines: Floats, safes: Floats, log_scale: float = 0.0
) -> FloatCounts:
    assert isinstance(plan.source, Frontier)
    sizes = plan.kernel_input.sizes.astype(np.float64)
    return FloatCounts(plan.ids, sizes, layouts, mines, safes, plan.source, log_scale)


class _Kept(NamedTuple):
    """A remembered component's counts; ``positions[g]``: row g's group, as a
    position in the component's ascending list of groups."""

    sizes: Floats
    layouts: Floats
    mines: Floats
    safes: Floats
    log_scale: float
    positions: list[int]
    states: int


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
#: A component whose plain order opens this many numbers at once is counted
#: in pieces (:mod:`minesweep.solver.pieces`). Views met in play open at most
#: eight or nine, so they keep the plain order and their counts to the bit;
#: views of random clicks can open twenty, where a better order and the
#: forced groups cut the states a hundredfold.
WIDE: Final = 10


@dataclass(frozen=True, slots=True)
class CountingMethods:
    """Which way each count goes. The defaults are the measured ones; every way
    gives the same counts (to 1e-12), so other values serve tests that force a
    way, and benchmarks that compare them.

    ``wide``: a component whose plain order opens this many numbers at once is
    counted in pieces (:data:`WIDE`). ``compiled_width``: pieces at most this
    wide are counted compiled, wider ones exactly in Python integers (None: as
    wide as the compiled counter goes, 15). ``plain_components``: up to this
    many components are shared out by plain products, more at the saddle
    point (:mod:`minesweep.solver.tilted`).
    """

    wide: int = WIDE
    compiled_width: int | None = None
    #: The saddle point's cost grows linearly with the components; the plain
    #: path gives each component the product of all the others.
    plain_components: int = 64


#: The measured ways: what every analysis uses unless told otherwise.
COUNTING_METHODS: Final = CountingMethods()


class ComponentCache:
    """Compiled counts of components met recently, by their key; thread-safe.

    At most ``size`` components and ``max_bytes`` bytes of counts, the least
    recently used going first. :data:`COMPONENT_CACHE` is the process-wide
    one every analysis uses unless given its own (a test or a benchmark that
    must count afresh passes a new one, or clears this one).
    """

    __slots__ = ("_bytes", "_kept", "_lock", "max_bytes", "size")

    def __init__(self, size: int = _CACHE_SIZE, max_bytes: int = _CACHE_BYTES) -> None:
        self.size = size
        self.max_bytes = max_bytes
        self._kept: OrderedDict[bytes, tuple[_Kept, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        """Forget every remembered component."""
        with self._lock:
            self._kept.clear()
            self._bytes = 0

    def get_many(self, keys: list[bytes]) -> list[_Kept | None]:
        """The counts kept for each key (None where none), each found marked as recent."""
        with self._lock:
            hits = [self._kept.get(key) for key in keys]
            for key, hit in zip(keys, hits, strict=True):
                if hit is not None:
                    self._kept.move_to_end(key)
        return [None if hit is None else hit[0] for hit in hits]

    def put(self, key: bytes, kept: _Kept, size: int) -> None:
        """Keep ``kept`` (``size`` bytes), forgetting the oldest past the limits."""
        if size > self.max_bytes:
            return
        with self._lock:
            if key not in self._kept:
                self._kept[key] = (kept, size)
                self._bytes += size
            while len(self._kept) > self.size or self._bytes > self.max_bytes:
                self._bytes -= self._kept.popitem(last=False)[1][1]


#: The process-wide cache: successive views of a game share it.
COMPONENT_CACHE: Final = ComponentCache()


def clear_cache() -> None:
    """Forget every component :data:`COMPONENT_CACHE` remembers (to count afresh)."""
    COMPONENT_CACHE.clear()


def count_all(
    frontier: Frontier,
    budget: StateBudget,
    cache: ComponentCache = COMPONENT_CACHE,
    methods: CountingMethods = COUNTING_METHODS,
) -> list[FloatCounts]:
    """Every component's counts: from memory when counted recently, the rest in one call.

    ``budget`` is what the analysis may still spend; a count from memory
    is charged what counting it took, so whether a call raises
    AnalysisBudgetError never depends on what ran before it. ``cache`` keeps
    the compiled counts for the next view (the process-wide one by default);
    ``methods`` says which way each count goes.
    """
    from ._batch import COUNTED, OVER_BUDGET, OVERFLOW, component_keys, count_components

    components = frontier.components
    if not components:
        return []
    key_start, key_data = entry(component_keys)(
        frontier.group_at.shape[1],
        frontier.group_start,
        frontier.group_cells,
        frontier.witness_start,
        frontier.group_witnesses,
        frontier.witness_rows,
        frontier.witness_cols,
        frontier.target_array,
        frontier.component_start,
        frontier.component_groups,
    )
    bounds = key_start.tolist()
    keys = [key_data[bounds[k] : bounds[k + 1]].tobytes() for k in range(len(components))]
    results: list[FloatCounts | None] = [None] * len(components)
    missing = []
    for k, kept in enumerate(cache.get_many(keys)):
        if kept is None:
            missing.append(k)
            continue
        if budget.limited:
            if kept.states > budget.left:
                raise over_budget(int(kept.sizes.sum()))
            budget.spend(kept.states)
        members = components[k]
        results[k] = FloatCounts(
            [members[p] for p in kept.positions],
            kept.sizes,
            kept.layouts,
            kept.mines,
            kept.safes,
            frontier,
            kept.log_scale,
        )
    if missing:
        status, states_of, ids_start, ids, w_start, layouts, e_start, mines, safes = entry(
            count_components
        )(
            frontier.witness_start,
            frontier.group_witnesses,
            frontier.group_sizes,
            frontier.target_array,
            frontier.component_start,
            frontier.component_groups,
            np.array(missing, np.int64),
            plain_width(methods),
            budget.left,
            MAX_COEFFICIENTS,
            False,
        )
        sizes = frontier.group_sizes
        for i, k in enumerate(missing):
            members = components[k]
            if status[i] == OVER_BUDGET:
                raise over_budget(int(sizes[members].sum()))
            if status[i] == OVERFLOW:
                # Counts beyond float range: count exactly, then scale into floats.
                results[k] = _count_exactly(frontier, members, budget)
                continue
            if status[i] != COUNTED:
                # Many open numbers at once in the plain order: take out the
                # groups a number alone decides, and count the pieces left.
                counts, states = _count_pieces(frontier, members, budget, methods)
                results[k] = counts
                _remember(cache, keys[k], members, counts, states)
                continue
            made = int(states_of[i])
            budget.spend(made)
            chosen = ids[ids_start[i] : ids_start[i + 1]]
            row = w_start[i + 1] - w_start[i]
            groups = len(chosen)
            component_layouts = layouts[w_start[i] : w_start[i + 1]]
            if not component_layouts.any():
                raise ContradictionError(functools.partial(blame, frontier, members))
            counts = FloatCounts(
                chosen.tolist(),
                sizes[chosen].astype(np.float64),
                component_layouts,
                mines[e_start[i] : e_start[i + 1]].reshape(groups, row),
                safes[e_start[i] : e_start[i + 1]].reshape(groups, row),
                frontier,
            )
            results[k] = counts
            _remember(cache, keys[k], members, counts, made)
    return [counts for counts in results if counts is not None]


def _remember(
    cache: ComponentCache, key: bytes, members: list[int], counts: FloatCounts, states: int
) -> None:
    """Keep a compiled count (``states`` >= 0) for the next view with this component."""
    size = counts.layouts.nbytes + counts.mines.nbytes + counts.safes.nbytes
    if states < 0 or size > cache.max_bytes:
        return
    # Copies: the counts may be views of one call's arrays for every
    # component, which the cache must not keep alive.
    # Nor the frontier: a remembered component is bound to the frontier of
    # the view that meets it next.
    position = {index: p for p, index in enumerate(members)}
    kept = _Kept(
        counts.sizes.copy(),
        counts.layouts.copy(),
        counts.mines.copy(),
        counts.safes.copy(),
        counts.log_scale,
        [position[index] for index in counts.ids],
        states,
    )
    for array in (kept.sizes, kept.layouts, kept.mines, kept.safes):
        array.flags.writeable = False
    cache.put(key, kept, size)


def _count_exactly(frontier: Frontier, members: list[int], budget: StateBudget) -> FloatCounts:
    """A component counted in Python integers, scaled into floats (not remembered)."""
    plan = plan_members(frontier, members)
    result = count_exact(plan, budget)
    if result is None:
        raise ContradictionError(functools.partial(blame, frontier, members))
    return _scaled_to_floats(plan, result)


def plain_width(methods: CountingMethods) -> int:
    """How many numbers at once a component's plain order may open and be counted whole.

    Wider ones are counted in pieces (:data:`WIDE`), and none wider than
    the compiled counter takes.
    """
    return min(methods.wide, _compiled_width(methods) + 1)


def _compiled_width(methods: CountingMethods) -> int:
    """The widest piece the compiled counter counts, as ``methods`` allow."""
    from ._count import MAX_WIDTH

    width = methods.compiled_width
    return MAX_WIDTH if width is None else min(width, MAX_WIDTH)


def _count_pieces(
    frontier: Frontier, members: list[int], budget: StateBudget, methods: CountingMethods
) -> tuple[FloatCounts, int]:
    """A wide component's counts, from its forced groups and its pieces (see :mod:`.pieces`)."""
    widest = _compiled_width(methods)
    forced = force(frontier, members)
    length = int(frontier.group_sizes[members].sum()) + 1
    states = 0
    parts: list[FloatCounts] = []
    for piece in forced.pieces:
        plan = plan_members(frontier, piece, forced.targets, tries=order_tries(piece))
        compiled = None
        if max(plan.widths, default=0) <= widest:
            compiled = _count_compiled(plan, budget)
        part: FloatCounts | None
        if compiled is not None:
            part, taken = compiled
            states = states + taken if states >= 0 else states
        else:
            result = count_exact(plan, budget)
            part = None if result is None else _scaled_to_floats(plan, result)
            states = -1
        if part is None or not part.layouts.any():
            raise ContradictionError(functools.partial(blame, frontier, members))
        parts.append(part)
    # Each piece scaled to at most one; the log of what that divides out.
    log_scale = sum(math.log(part.layouts.max()) + part.log_scale for part in parts)
    scaled = [part.layouts / part.layouts.max() for part in parts]
    before = [np.ones(1)]
    for poly in scaled:
        before.append(np.convolve(before[-1], poly))
    after = [np.ones(1)]
    for poly in reversed(scaled):
        after.append(np.convolve(after[-1], poly))
    after.reverse()
    sizes = frontier.group_sizes
    shift = sum(int(sizes[index]) for index, full in forced.mines_in.items() if full)
    layouts = np.zeros(length)
    layouts[shift : shift + len(before[-1])] = before[-1]
    ids: list[int] = []
    mines_rows: list[Floats] = []
    safes_rows: list[Floats] = []
    for index, part in enumerate(parts):
        others = np.convolve(before[index], after[index + 1])
        norm = part.layouts.max()
        for g, group in enumerate(part.ids):
            ids.append(group)
            mines_rows.append(_placed(np.convolve(part.mines[g] / norm, others), shift, length))
            safes_rows.append(_placed(np.convolve(part.safes[g] / norm, others), shift, length))
    for index, full in forced.mines_in.items():
        ids.append(index)
        size = int(sizes[index])
        mines_rows.append(layouts * size if full else np.zeros(length))
        safes_rows.append(np.zeros(length) if full else layouts * size)
    peak = layouts.max()
    counts = FloatCounts(
        ids,
        sizes[ids].astype(np.float64),
        layouts / peak,
        np.array(mines_rows).reshape(len(ids), length) / peak,
        np.array(safes_rows).reshape(len(ids), length) / peak,
        frontier,
        log_scale + math.log(peak),
    )
    return counts, states


def _placed(poly: Floats, shift: int, length: int) -> Floats:
    """``poly`` moved up by ``shift`` mines in an array of ``length``."""
    placed = np.zeros(length)
    placed[shift : shift + len(poly)] = poly[: length - shift]
    return placed


def _count_compiled(plan: Plan, budget: StateBudget) -> tuple[FloatCounts, int] | None:
    """The compiled count and the states it took; None when a count leaves float range."""
    from ._count import count_component

    limit = np.iinfo(np.int64).max
    if budget.limited:
        limit = min(budget.left, MAX_COEFFICIENTS // (plan.squares + 1))
    kernel: Any = entry(count_component)
    layouts, mines, safes, states = kernel(*plan.kernel_input, limit)
    if states < 0:
        raise over_budget(plan.squares)
    budget.spend(states)
    if np.isfinite(layouts).all() and np.isfinite(mines).all() and np.isfinite(safes).all():
        return _float_counts(plan, layouts, mines, safes), int(states)
    return None


def _scaled_to_floats(plan: Plan, result: ComponentResult) -> FloatCounts:
    """Exact counts shifted into float range, exact zeros kept zero and the rest non-zero."""
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
            if e and not mines[g, m]:
                mines[g, m] = 2.0**-1000
            if group.size * result.layouts[m] - e and not safes[g, m]:
                safes[g, m] = 2.0**-1000
    return _float_counts(plan, layouts, mines, safes, shift * math.log(2.0))


def prefix(
    polys: list[Floats],
    *,
    boolean: bool = False,
    norms: list[float] | None = None,
) -> list[Floats]:
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
