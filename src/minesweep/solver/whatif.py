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
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..errors import InvalidBoardError
from ..squares import GLYPH_HIDDEN
from ._count import MAX_WIDTH, count_component
from .counting import Untouched, correlate
from .frontier import Frontier, Group, KernelInput, plan_groups
from .probability import Analysis

__all__ = ["DEFAULT_STATES", "Lookahead", "Outcome"]

Floats = npt.NDArray[np.float64]
Cell = tuple[int, int]

#: Dynamic-programming states one :class:`Lookahead` may spend in all, past
#: which it gives up (returns None) rather than stall a game.
DEFAULT_STATES: Final = 200_000


@dataclass(slots=True)
class _Merged:
    """The component a square's opening would make, planned for the compiled counter."""

    #: Interior squares around the square, which join the frontier.
    joining: int
    #: Squares in its groups (0: nothing hidden around the square).
    squares: int
    #: The counter's input (None: no groups, or too tangled for the counter),
    #: which entries of its targets are the opened square's number, and the
    #: groups' sizes.
    kernel_input: KernelInput | None = None
    is_new: npt.NDArray[np.bool_] | None = None
    sizes: Floats | None = None


@dataclass(slots=True)
class _Weights:
    """How the world outside a merged component weighs its mine counts.

    ``weight[m]`` is the weight of its layouts with ``m`` mines (the other
    components and the interior together), ``weight_inside[m]`` the same
    times the mines the interior then holds; ``ways`` the interior's ways
    by mines outside it, relative to the largest.
    """

    untouched: Untouched
    interior: int
    ways: Floats
    weight: Floats
    weight_inside: Floats


@dataclass(frozen=True, slots=True)
class Outcome:
    """One number a square could show."""

    number: int
    #: The chance that the square is safe and shows ``number``.
    chance: float
    #: The best chance of safety of any square afterwards (1.0: one is certain).
    safest: float


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
        if frontier is None:
            return
        self._frontier: Frontier = frontier
        self._counts = workings.counts
        self._component_of = np.full(len(frontier.groups), -1, np.int64)
        for index, members in enumerate(frontier.components):
            self._component_of[members] = index
        self._layouts = [c.layouts / c.layouts.max() for c in workings.counts]
        self._mines = [c.mines / c.layouts.max() for c in workings.counts]
        self._sure = np.zeros(workings.view.shape, np.bool_)
        if len(analysis.mines):
            self._sure[tuple(analysis.mines.T)] = True
        # log(k!) for k up to the interior's size (an opening only shrinks
        # it), for the interior's binomials.
        self._log_factorial = np.concatenate(
            ([0.0], np.cumsum(np.log(np.arange(1, frontier.interior + 1))))
        )
        self._sizes = [c.sizes for c in workings.counts]
        self._joint_states_left = max_states
        self._untouched_by: dict[tuple[int, ...], Untouched] = {}
        self._before: dict[tuple[int, ...], float] = {}

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
            raise InvalidBoardError(f"square ({row}, {col}) is off the {rows}x{cols} view")
        if not hidden[row, col]:
            raise InvalidBoardError(f"square ({row}, {col}) is revealed")
        if not self.available:
            return None
        if self._frontier.settled_mask[row, col]:
            return []  # a mine the frontier set aside
        around = [
            (r, c)
            for r in range(max(0, row - 1), min(rows, row + 2))
            for c in range(max(0, col - 1), min(cols, col + 2))
            if (r, c) != (row, col) and hidden[r, c]
        ]
        merged, touched = self._merged(row, col, around)
        if merged is None:
            return []  # a number needs this square to be a mine
        frontier = self._frontier
        interior = frontier.interior - merged.joining - int(frontier.interior_mask[row, col])
        # Mines the frontier set aside are in no count: the square shows
        # those around it plus what the counts put there.
        settled = sum(bool(frontier.settled_mask[cell]) for cell in around)
        weights = self._weights(touched, interior, merged.squares + 1)
        if weights is None:
            return []
        safe_now = 1.0 - float(self._analysis.probability[row, col])
        if not merged.squares:
            return self._only_interior_changes(weights, settled, safe_now)
        if merged.sizes is None:
            return None  # too tangled for the compiled counter
        # It shows at least the certain mines around it.
        known = sum(bool(self._sure[cell]) for cell in around)
        found: list[tuple[int, float, float]] = []
        for number in range(known, len(around) + 1):
            counted = self._count_merged(merged, number - settled)
            if counted is None:
                return None
            layouts, mines_by = counted
            if not (np.isfinite(layouts).all() and np.isfinite(mines_by).all()):
                return None
            outcome = self._weigh_number(weights, merged.sizes, layouts, mines_by)
            if outcome is not None:
                found.append((number, *outcome))
        total = sum(z for _, z, _ in found)
        if not (math.isfinite(total) and total > 0):
            return None if found else []
        return [Outcome(number, safe_now * z / total, safest) for number, z, safest in found]

    def _weights(self, touched: set[int], interior: int, length: int) -> _Weights | None:
        """The outside's weights for a merged component of ``length - 1`` squares.

        None when no mine count of the merged component fits.
        """
        # Mines the frontier set aside are in no count.
        mines = self._mine_count - self._frontier.settled
        untouched = self._untouched(touched)
        others = untouched.prefix[-1]
        n = np.arange(len(others) + length - 1)
        inside_mines = mines - n
        log_ways = self._log_choose(interior, inside_mines)
        if not np.isfinite(log_ways).any():
            return None
        ways = np.exp(log_ways - log_ways.max())
        weight = correlate(ways, others, length)
        weight_inside = correlate(ways * np.maximum(inside_mines, 0), others, length)
        return _Weights(untouched, interior, ways, weight, weight_inside)

    def _only_interior_changes(
        self, weights: _Weights, settled: int, safe_now: float
    ) -> list[Outcome]:
        """Nothing hidden around the square but mines set aside: it shows those,
        and only the interior changes."""
        z = float(weights.weight[0])
        if not z > 0:
            return []  # no layout leaves it safe
        safest = self._best_elsewhere(weights, np.ones(1))
        interior = weights.interior
        if interior:
            safest = max(safest, 1.0 - float(weights.weight_inside[0]) / (z * interior))
        return [Outcome(settled, safe_now, safest)]

    def _weigh_number(
        self, weights: _Weights, sizes: Floats, layouts: Floats, mines_by: Floats
    ) -> tuple[float, float] | None:
        """The weight of one number's layouts and the best safety after it (None: none)."""
        scale = layouts.max()
        if not scale > 0:
            return None
        # Scaled, so that the products below stay in float range.
        layouts, mines_by = layouts / scale, mines_by / scale
        weight = weights.weight
        z = float(layouts @ weight)
        if not z > 0:
            return None
        # Risks that are exactly zero stay so: a certainly safe square.
        safest = 1.0 - float(((mines_by @ weight) / (sizes * z)).min())
        interior = weights.interior
        if interior:
            safest = max(safest, 1.0 - float(layouts @ weights.weight_inside) / (z * interior))
        if safest < 1.0:
            safest = max(safest, self._best_elsewhere(weights, layouts))
        return z * scale, safest

    def _best_elsewhere(self, weights: _Weights, layouts: Floats) -> float:
        """The best safety in the untouched components, given the merged one's counts."""
        best = 0.0
        untouched = weights.untouched
        apart = untouched.apart()
        for i, index in enumerate(untouched.components):
            weighed = correlate(
                weights.ways, np.convolve(apart[i], layouts), len(self._layouts[index])
            )
            z = float(self._layouts[index] @ weighed)
            if z > 0:
                risk = (self._mines[index] @ weighed) / (self._sizes[index] * z)
                best = max(best, 1.0 - float(risk.min()))
        return best

    def _untouched(self, touched: set[int]) -> Untouched:
        """The components other than ``touched``, with their products; once per set."""
        key = tuple(sorted(touched))
        found = self._untouched_by.get(key)
        if found is None:
            components = [index for index in range(len(self._layouts)) if index not in touched]
            found = self._untouched_by[key] = Untouched(
                components, [self._layouts[index] for index in components]
            )
        return found

    def _merged(self, row: int, col: int, around: list[Cell]) -> tuple[_Merged | None, set[int]]:
        """The component opening (row, col) makes, planned, and the components it takes in.

        None for the component when a number needs the square to be a mine.
        """
        frontier = self._frontier
        touched = set()
        for r, c in [(row, col), *around]:
            group = frontier.group_at[r, c]
            if group >= 0:
                touched.add(int(self._component_of[group]))
        near = set(around)
        new = len(frontier.targets)  # the opened square, as a number
        groups: list[Group] = []
        before: set[int] = set()
        for component in sorted(touched):
            for index in frontier.components[component]:
                group = frontier.groups[index]
                before.update(group.witnesses)
                inside = [cell for cell in group.cells if cell in near]
                outside = [cell for cell in group.cells if cell not in near and cell != (row, col)]
                if inside:
                    groups.append(Group(inside, (*group.witnesses, new)))
                if outside:
                    groups.append(Group(outside, group.witnesses))
        joining = [cell for cell in around if frontier.interior_mask[cell]]
        if joining:
            groups.append(Group(joining, (new,)))
        left = {w for group in groups for w in group.witnesses}
        if any(frontier.targets[w] for w in before - left):
            return None, touched
        merged = _Merged(len(joining), sum(len(group.cells) for group in groups))
        if groups:
            plan = plan_groups(groups, [*frontier.targets, 0], list(range(len(groups))))
            if max(plan.widths, default=0) <= MAX_WIDTH:
                merged.kernel_input = plan.kernel_input
                merged.is_new = np.array(
                    [w == new for group in plan.groups for w in group.witnesses], np.bool_
                )
                merged.sizes = plan.kernel_input.sizes.astype(np.float64)
        return merged, touched

    def _count_merged(self, merged: _Merged, number: int) -> tuple[Floats, Floats] | None:
        """The merged component's layouts and mines by group when the square shows ``number``.

        None past the budget of states.
        """
        assert merged.kernel_input is not None
        assert merged.is_new is not None
        merged.kernel_input.touch_target[merged.is_new] = number
        kernel: Any = entry(count_component)
        layouts, mines_by, _, states = kernel(*merged.kernel_input, self._states_left)
        if states < 0:
            self._states_left = 0
            return None
        self._states_left -= states
        return layouts, mines_by

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
            if not (0 <= r < rows and 0 <= c < cols) or view[r, c] < GLYPH_HIDDEN or cell in forced:
                raise InvalidBoardError(
                    f"square ({r}, {c}) is not a distinct hidden square of the {rows}x{cols} view"
                )
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
        frontier = self._frontier
        mine_count = self._mine_count - frontier.settled
        for cell, is_mine in forced.items():
            if self._sure[cell] and not is_mine:
                return 0.0
        # A mine the frontier set aside is one already: nothing to force.
        forced = {cell: mine for cell, mine in forced.items() if not frontier.settled_mask[cell]}
        touched = sorted(
            {
                int(self._component_of[frontier.group_at[cell]])
                for cell in forced
                if frontier.group_at[cell] >= 0
            }
        )
        changed = self._forced_groups(forced, touched)
        if changed is None:
            return 0.0
        groups, targets = changed
        before = self._unforced_weight(touched, mine_count)
        if not math.isfinite(before):
            return None
        recounted = self._recount(groups, targets)
        if recounted is None:
            return None
        inside = [cell for cell in forced if frontier.interior_mask[cell]]
        after = self._log_weight(
            *recounted, touched, len(inside), mine_count - sum(forced.values())
        )
        if math.isnan(after):
            return None
        return min(1.0, math.exp(after - before)) if after > -math.inf else 0.0

    def _forced_groups(
        self, forced: dict[Cell, bool], touched: list[int]
    ) -> tuple[list[Group], list[int]] | None:
        """The ``touched`` components' groups without the forced squares, and the
        numbers' targets less the forced mines; None when no layout can fit."""
        frontier = self._frontier
        targets = list(frontier.targets)
        witnesses: set[int] = set()
        changed: list[Group] = []
        for component in touched:
            for index in frontier.components[component]:
                group = frontier.groups[index]
                witnesses.update(group.witnesses)
                rest = [cell for cell in group.cells if cell not in forced]
                for cell in group.cells:
                    if forced.get(cell):
                        for w in group.witnesses:
                            targets[w] -= 1
                if rest:
                    changed.append(Group(rest, group.witnesses))
        if any(targets[w] < 0 for w in witnesses):
            return None
        left = {w for group in changed for w in group.witnesses}
        if any(targets[w] for w in witnesses - left):
            return None
        return changed, targets

    def _unforced_weight(self, touched: list[int], mine_count: int) -> float:
        """The log weight of every layout, nothing forced; once per set of components.

        Unforced, the touched components count as the analysis found: each
        scaled to at most 1, the scales kept as logs.
        """
        key = tuple(touched)
        if key not in self._before:
            counted, log_scale = np.ones(1), 0.0
            for index in touched:
                counts = self._counts[index]
                top = float(counts.layouts.max())
                counted = np.convolve(counted, counts.layouts / top)
                log_scale += math.log(top) + counts.log_scale
            self._before[key] = self._log_weight(counted, log_scale, touched, 0, mine_count)
        return self._before[key]

    def _recount(self, groups: list[Group], targets: list[int]) -> tuple[Floats, float] | None:
        """``groups``' layouts by mines, scaled to at most 1, and the log of the scale.

        None without a cheap answer. The recounts spend a budget of their
        own, so that they never leave the lookahead's outcomes without.
        """
        if not groups:
            return np.ones(1), 0.0
        plan = plan_groups(groups, targets, list(range(len(groups))))
        if max(plan.widths, default=0) > MAX_WIDTH:
            return None
        kernel: Any = entry(count_component)
        layouts, _, _, states = kernel(*plan.kernel_input, self._joint_states_left)
        if states < 0:
            self._joint_states_left = 0
            return None
        self._joint_states_left -= states
        if not np.isfinite(layouts).all():
            return None
        top = float(layouts.max())
        if not top > 0:
            return layouts, 0.0  # no layout at all: all zero
        return layouts / top, math.log(top)

    def _log_weight(
        self, layouts: Floats, log_scale: float, touched: list[int], taken: int, mines: int
    ) -> float:
        """The log of the weight of every layout (-inf: none).

        ``layouts`` count the touched components by mines (times
        exp(-``log_scale``)); the untouched ones count as the analysis
        counted them, and the interior less ``taken`` squares holds the rest
        of ``mines``.
        """
        poly = np.convolve(layouts, self._untouched(set(touched)).prefix[-1])
        interior = self._frontier.interior - taken
        fits = poly > 0
        logs = np.log(poly[fits]) + self._log_choose(interior, mines - np.flatnonzero(fits))
        if not np.isfinite(logs).any():
            return -math.inf
        top = float(logs.max())
        return log_scale + top + float(np.log(np.exp(logs - top).sum()))

    def _log_choose(self, interior: int, placed: npt.NDArray[np.int64]) -> Floats:
        """log C(``interior``, k) for each k of ``placed``; -inf where k does not fit."""
        fits = (placed >= 0) & (placed <= interior)
        k = np.where(fits, placed, 0)
        log_factorial = self._log_factorial
        ways: Floats = np.where(
            fits,
            log_factorial[interior] - log_factorial[k] - log_factorial[interior - k],
            -np.inf,
        )
        return ways
