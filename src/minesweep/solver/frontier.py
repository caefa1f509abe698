"""The view as the counters see it: numbers, groups of squares, components, and plans.

Steps 1 to 3 of :mod:`minesweep.solver.probability` live here:

1. **Constraints.** Every revealed number with hidden neighbours (a
   *witness*) says how many of them are mines. A number with just as many
   hidden neighbours makes them all mines: those are set aside first (the
   fast path only), and the numbers around them need that many fewer.
2. **Groups.** Hidden squares next to exactly the same numbers are
   interchangeable; a group of ``s`` squares holding ``k`` mines stands for
   ``C(s, k)`` layouts. Hidden squares next to no number form the *interior*.
3. **Components.** Groups linked through shared numbers form independent
   components.

Then :func:`plan_groups` orders a component's groups for counting (the
compiled :func:`._count.plan_component`) and names what each step reads.
Everything here is internal to the solver package.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from ..errors import InvalidBoardError
from ..grid import NEIGHBOUR_OFFSETS
from ..squares import GLYPH_FLAG, GLYPH_HIDDEN, GLYPH_PLAYABLE_MAX, GLYPH_QUESTION
from .errors import ContradictionError

__all__ = [
    "Frontier",
    "Group",
    "KernelInput",
    "Plan",
    "around",
    "checked_view",
    "hidden_mask",
    "plan_groups",
]

Index = npt.NDArray[np.int64]

# The glyphs of a square not opened, as plain ints (numpy compares those fastest).
_HIDDEN: Final = (GLYPH_HIDDEN, GLYPH_FLAG, GLYPH_QUESTION)


@dataclass(slots=True)
class Group:
    """Hidden squares next to exactly the same numbers (``witnesses``: their ids)."""

    cells: list[tuple[int, int]]
    witnesses: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)


class Frontier:
    """Numbers with hidden neighbours (witnesses), groups of squares, components.

    ``settle`` sets aside, as mines, every hidden neighbour of a number equal
    to its count of hidden neighbours (see :meth:`_settle`); the exact path
    counts every hidden square instead.
    """

    def __init__(
        self, view: npt.NDArray[np.uint8], hidden: npt.NDArray[np.bool_], *, settle: bool = True
    ) -> None:
        rows, cols = view.shape
        revealed = ~hidden
        hidden_around = around(hidden)
        _check_numbers(view, revealed, hidden_around)
        left = self._settle(view, hidden, revealed, hidden_around, settle)
        if self.settled:
            hidden = hidden & ~self.settled_mask
            hidden_around = around(hidden)
        witness_mask = revealed & (hidden_around > 0)
        witness_cells = np.argwhere(witness_mask)
        #: What each number shows, and how many mines it still needs among
        #: its hidden neighbours not set aside.
        self.shown = view[witness_mask].astype(np.int64).tolist()
        self.targets: list[int] = left[witness_mask].astype(np.int64).tolist()
        self.witness_cells = list(map(tuple, witness_cells.tolist()))
        self.witness_keys = list(zip(self.witness_cells, self.targets, strict=True))
        ids = np.full((rows + 2, cols + 2), -1, np.int64)
        ids[1:-1, 1:-1][witness_mask] = np.arange(len(witness_cells))
        # The hidden squares next to a witness, and for each, the ids of the
        # witnesses around it (only those: on a large board most hidden
        # squares are interior, and this is the frontier's cost).
        on_frontier = hidden & (around(witness_mask) > 0)
        self.interior_mask = hidden & ~on_frontier
        self.interior = int(np.count_nonzero(self.interior_mask))
        frontier_cells = np.argwhere(on_frontier)
        neighbours = np.stack(
            [
                ids[frontier_cells[:, 0] + 1 + dr, frontier_cells[:, 1] + 1 + dc]
                for dr, dc in NEIGHBOUR_OFFSETS
            ],
            axis=1,
        ).reshape(len(frontier_cells), len(NEIGHBOUR_OFFSETS))
        neighbours.sort(axis=1)
        self._group(neighbours, frontier_cells)
        self.components = self._components()

    def _settle(
        self,
        view: npt.NDArray[np.uint8],
        hidden: npt.NDArray[np.bool_],
        revealed: npt.NDArray[np.bool_],
        hidden_around: Index,
        settle: bool,
    ) -> Index:
        """Set aside the squares a number alone makes mines; what each number still needs.

        In play most known mines stay hidden and are such squares; left in,
        they would tie the numbers around them into a few large components,
        which every count and every what-if would go through again. One pass
        finds them all: setting a number's neighbours aside takes as much off
        its count as off its hidden neighbours, so no other number becomes
        full.
        """
        self.settled_mask = np.zeros(view.shape, np.bool_)
        if settle:
            full = revealed & (hidden_around > 0) & (view == hidden_around)
            if full.any():
                self.settled_mask = hidden & (around(full) > 0)
        self.settled = int(np.count_nonzero(self.settled_mask))
        if not self.settled:
            return view.astype(np.int64)
        left = view.astype(np.int64) - around(self.settled_mask)
        broken = np.argwhere(revealed & (left < 0))
        if len(broken):
            r, c = (int(v) for v in broken[0])
            certain = int(view[r, c] - left[r, c])
            raise ContradictionError(
                f"no mine layout agrees with the view: square ({r}, {c}) shows "
                f"{view[r, c]}, but the numbers around it make {certain} of its "
                f"neighbours certain mine{'s' if certain != 1 else ''}"
            )
        return left

    def _group(self, signatures_of: Index, cells_of: Index) -> None:
        """Squares seeing the same numbers form a group.

        Groups come in the order of their sorted witness lists (padded with
        -1), squares in board order.
        """
        by_signature: dict[tuple[int, ...], list[tuple[int, int]]] = {}
        for signature, (r, c) in zip(
            map(tuple, signatures_of.tolist()), cells_of.tolist(), strict=True
        ):
            cells = by_signature.get(signature)
            if cells is None:
                by_signature[signature] = [(r, c)]
            else:
                cells.append((r, c))
        #: The group of every frontier square; -1 elsewhere.
        self.group_at = np.full(self.interior_mask.shape, -1, np.int64)
        self.groups: list[Group] = []
        group_at = self.group_at
        for index, signature in enumerate(sorted(by_signature)):
            cells = by_signature[signature]
            self.groups.append(Group(cells, tuple(w for w in signature if w >= 0)))
            for cell in cells:
                group_at[cell] = index

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


def _check_numbers(
    view: npt.NDArray[np.uint8], revealed: npt.NDArray[np.bool_], hidden_around: Index
) -> None:
    """A number larger than its hidden neighbours can never be satisfied."""
    impossible = np.argwhere(revealed & (view > hidden_around))
    if len(impossible):
        r, c = (int(v) for v in impossible[0])
        raise ContradictionError(
            f"square ({r}, {c}) shows {view[r, c]} but has only "
            f"{hidden_around[r, c]} hidden neighbours"
        )


class KernelInput(NamedTuple):
    """A planned component as :func:`._count.count_component` takes it, in its order.

    For group ``i`` (in counting order): ``sizes[i]`` squares; its numbers
    are entries ``touch_start[i]:touch_start[i + 1]`` of the ``touch_*``
    arrays: the slot in the state before (-1 when first seen), the slot
    after (-1 when the number closes here), the number's target, and the
    capacity of its later groups; the open numbers it does not touch are
    carried over by the (before, after) slot pairs
    ``carry_pairs[2j], carry_pairs[2j + 1]`` for ``j`` in
    ``carry_start[i]:carry_start[i + 1]``; ``widths[i]`` is the state's
    width after it.
    """

    sizes: Index
    touch_start: Index
    touch_before: Index
    touch_after: Index
    touch_target: Index
    touch_capacity: Index
    carry_start: Index
    carry_pairs: Index
    widths: Index


@dataclass(slots=True)
class Plan:
    """A component's groups in counting order, and how each step reads the state."""

    groups: list[Group]
    kernel_input: KernelInput

    @property
    def squares(self) -> int:
        return sum(len(group.cells) for group in self.groups)

    @property
    def widths(self) -> list[int]:
        return [int(width) for width in self.kernel_input.widths]

    def touched(self, position: int) -> list[tuple[int, int, int, int]]:
        """Each number group ``position`` touches: (slot before, slot after, target, capacity)."""
        plan = self.kernel_input
        start, end = plan.touch_start[position], plan.touch_start[position + 1]
        return list(
            zip(
                *(
                    array[start:end].tolist()
                    for array in (
                        plan.touch_before,
                        plan.touch_after,
                        plan.touch_target,
                        plan.touch_capacity,
                    )
                ),
                strict=True,
            )
        )

    def carried(self, position: int) -> list[tuple[int, int]]:
        """The (slot before, slot after) of each open number group ``position`` carries over."""
        plan = self.kernel_input
        start, end = plan.carry_start[position], plan.carry_start[position + 1]
        pairs = plan.carry_pairs[2 * start : 2 * end].tolist()
        return list(zip(pairs[::2], pairs[1::2], strict=True))


def plan_groups(
    all_groups: list[Group],
    targets: list[int],
    members: list[int],
    ignored: int = -1,
    *,
    tries: int = 1,
) -> Plan:
    """Order a component's groups and work out the state bookkeeping of each step.

    The compiled :func:`._count.plan_component` does the work, on the
    component's numbers renumbered from 0. The witness ``ignored`` is left
    out (used to find which number is at fault when nothing fits); with
    ``tries`` above one, the narrowest of that many orders is kept.
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
    order, *kernel_input = plan_component(
        starts,
        np.array([local[w] for w in flat], np.int64),
        np.array([len(group.cells) for group in groups], np.int64),
        np.array([targets[w] for w in numbers], np.int64),
        local.get(ignored, -1),
        tries,
    )
    return Plan([groups[i] for i in order.tolist()], KernelInput(*kernel_input))


def around(mask: npt.NDArray[np.bool_]) -> Index:
    """How many of each square's eight neighbours are in ``mask``."""
    padded = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), np.int64)
    padded[1:-1, 1:-1] = mask
    total = np.zeros(mask.shape, np.int64)
    for dr, dc in NEIGHBOUR_OFFSETS:
        total += padded[1 + dr : padded.shape[0] - 1 + dr, 1 + dc : padded.shape[1] - 1 + dc]
    return total


def hidden_mask(view: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """The squares of a view the player has not opened (hidden, flagged or questioned)."""
    return np.isin(view, _HIDDEN)


def checked_view(glyphs: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """``glyphs`` as a view to solve (uint8), or InvalidBoardError saying what is wrong."""
    try:
        view = np.asarray(glyphs)
    except ValueError as error:
        raise InvalidBoardError(f"view must be a rectangular 2-D array: {error}") from None
    if view.ndim != 2 or view.size == 0 or view.dtype.kind not in "iu":
        raise InvalidBoardError(
            f"view must be a non-empty 2-D array of glyphs, got {view.dtype} {view.shape}"
        )
    bad = np.argwhere((view < 0) | (view > GLYPH_PLAYABLE_MAX))
    if len(bad):
        r, c = (int(v) for v in bad[0])
        raise InvalidBoardError(
            f"view square ({r}, {c}) is glyph {view[r, c]}; a view to solve holds numbers "
            "0-8, hidden, flag and question mark (a finished game's mines cannot be solved)"
        )
    return view.astype(np.uint8)
