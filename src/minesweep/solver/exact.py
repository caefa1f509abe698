"""Counting in Python integers: the exact path, and the fallback of the float path.

The same forward-backward dynamic programming as the compiled counter
(:mod:`minesweep.solver._count`), on Python integers, so every count is
exact and every probability an exact fraction. It counts what the compiled
counter cannot (a component with more open numbers than its state holds,
or counts beyond float range), answers :meth:`minesweep.solver.Analysis.exact`,
and names the number at fault when nothing fits. Internal to the solver
package.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..squares import square_name
from .errors import MAX_COEFFICIENTS, ContradictionError, StateBudget, mines_between, over_budget
from .frontier import Frontier, Plan, hidden_mask, plan_members

__all__ = [
    "ComponentResult",
    "ExactAnalysis",
    "GroupResult",
    "Poly",
    "analyze_exact",
    "blame",
    "count_exact",
]

Poly = dict[int, int]  # mines -> weighted count of layouts
State = tuple[int, ...]
#: A group's choice from a state: (its mines k, the ways C(size, k), the state after).
Move = tuple[int, int, State]


@dataclass(slots=True)
class GroupResult:
    cells: list[tuple[int, int]]
    size: int
    mines: Poly  # component mines m -> total mines in this group over its layouts


@dataclass(slots=True)
class ComponentResult:
    layouts: Poly
    groups: list[GroupResult]
    squares: int


@dataclass(frozen=True, slots=True)
class ExactAnalysis:
    """Every hidden square's exact probability, and the exact count of layouts."""

    cells: dict[tuple[int, int], Fraction]
    interior: Fraction
    layouts: int


def count_exact(plan: Plan, budget: StateBudget) -> ComponentResult | None:
    """Layout counts of one component in Python integers; None when nothing fits.

    Forward-backward dynamic programming: ``budget`` is what the analysis
    may still spend.
    """
    layers, moves = _forward(plan, budget)
    total = layers[-1].get((), {})
    if not total:
        return None
    return ComponentResult(total, _backward(plan, layers, moves), plan.squares)


def _forward(
    plan: Plan, budget: StateBudget
) -> tuple[list[dict[State, Poly]], list[dict[State, list[Move]]]]:
    """``layers[i]`` maps the states after ``i`` groups to mine polynomials, and
    ``moves[i]`` remembers each state's valid choices for the backward pass."""
    layers: list[dict[State, Poly]] = [{(): {0: 1}}]
    moves: list[dict[State, list[Move]]] = []
    coefficients = 0
    for position, group in enumerate(plan.groups):
        touched, carried, width = (
            plan.touched(position),
            plan.carried(position),
            int(plan.kernel_input.widths[position]),
        )
        nxt: dict[State, Poly] = {}
        layer_moves: dict[State, list[Move]] = {}
        size = len(group.cells)
        for state, poly in layers[-1].items():
            options = _options(state, size, touched, carried, width)
            for k, ways, following in options:
                _add_shifted(nxt.setdefault(following, {}), poly, k, ways)
            layer_moves[state] = options
        layers.append(nxt)
        moves.append(layer_moves)
        if budget.limited:
            budget.spend(len(nxt))
            coefficients += sum(map(len, nxt.values()))
            if budget.left < 0 or coefficients > MAX_COEFFICIENTS // 16:
                raise over_budget(plan.squares)
    return layers, moves


def _options(
    state: State,
    size: int,
    touched: list[tuple[int, int, int, int]],
    carried: list[tuple[int, int]],
    width: int,
) -> list[Move]:
    """The mines a group of ``size`` squares may take from ``state``.

    Every number it touches must keep between 0 and its remaining capacity
    still to find, and a number closing here must be met exactly.
    """
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
    options = []
    for k in range(low, high + 1):
        for slot_after, demand in demands:
            if slot_after >= 0:
                base[slot_after] = demand - k
        options.append((k, math.comb(size, k), tuple(base)))
    return options


def _backward(
    plan: Plan, layers: list[dict[State, Poly]], moves: list[dict[State, list[Move]]]
) -> list[GroupResult]:
    """Completions from each state, then every group's mine totals."""
    completions: dict[State, Poly] = {(): {0: 1}}
    results: list[GroupResult] = []
    groups = plan.groups  # made afresh at every access: once here
    for position in range(len(groups) - 1, -1, -1):
        group = groups[position]
        here: dict[State, Poly] = {}
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
        results.append(GroupResult(group.cells, len(group.cells), mines_here))
    results.reverse()
    return results


def blame(frontier: Frontier, members: list[int]) -> str:
    """Name a number of a component no layout satisfies: one without which some would."""
    witnesses = sorted({w for index in members for w in frontier.groups[index].witnesses})
    for w in witnesses:
        plan = plan_members(frontier, members, ignored=w)
        if count_exact(plan, StateBudget(None)) is None:
            continue
        r, c = frontier.witness_cells[w]
        return (
            f"no mine layout agrees with the view: the {frontier.shown[w]} at "
            f"{square_name(r, c)} contradicts the numbers around it"
        )
    r, c = frontier.witness_cells[witnesses[0]]
    return f"no mine layout agrees with the numbers around {square_name(r, c)}"


def analyze_exact(view: npt.NDArray[np.uint8], total: int, max_states: int | None) -> ExactAnalysis:
    """The exact analysis: every count a Python integer, every probability a Fraction."""
    # The reference path counts every hidden square, none set aside.
    frontier = Frontier(view, hidden_mask(view), settle=False)
    budget = StateBudget(max_states)
    results = []
    for members in frontier.components:
        result = count_exact(plan_members(frontier, members), budget)
        if result is None:
            raise ContradictionError(functools.partial(blame, frontier, members))
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
            f"the view needs {mines_between(low, high)}, but the game has {total}"
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
    return ExactAnalysis(cells, interior_value, z)


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
