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

import functools
import itertools
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, NoReturn

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..errors import InvalidBoardError
from ..grid import NEIGHBOUR_OFFSETS
from ..squares import (
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_PLAYABLE_MAX,
    GLYPH_QUESTION,
    VIEW_SYMBOLS,
    square_name,
)
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
# Every glyph a view to solve may hold, as bytes: deleting them from a uint8
# view's bytes leaves nothing when the view is good, a tenth of a microsecond
# against ten for numpy's comparisons and argwhere on a beginner view.
_PLAYABLE_BYTES: Final = bytes(range(GLYPH_PLAYABLE_MAX + 1))


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
    to its count of hidden neighbours; the exact path counts every hidden
    square instead. Built in one compiled pass
    (:func:`._frontier.frontier_arrays`), which keeps the groups as arrays:
    group ``g``'s squares (flat indices, board order) are
    ``group_cells[group_start[g]:group_start[g + 1]]`` and its numbers
    ``group_witnesses[witness_start[g]:witness_start[g + 1]]``. The
    :class:`Group` objects are made only when first asked for.

    Why set aside the squares a number alone makes mines: in play most
    known mines stay hidden and are such squares; left in, they would tie
    the numbers around them into a few large components, which every count
    and every what-if would go through again. One pass finds them all:
    setting a number's neighbours aside takes as much off its count as off
    its hidden neighbours, so no other number becomes full.
    """

    def __init__(
        self,
        view: npt.NDArray[np.uint8],
        hidden: npt.NDArray[np.bool_] | None = None,
        *,
        settle: bool = True,
    ) -> None:
        from ._frontier import IMPOSSIBLE, OK, frontier_arrays

        # ``hidden``, when given, is hidden_mask(view): the kernel reads the
        # view itself, and only an error message needs the mask.
        (
            problem,
            row,
            col,
            self.settled_mask,
            self.witness_rows,
            self.witness_cols,
            self.target_array,
            self.interior_mask,
            self.group_at,
            self.group_start,
            self.group_cells,
            self.witness_start,
            self.group_witnesses,
            self.component_start,
            self.component_groups,
        ) = entry(frontier_arrays)(view, settle)
        if problem != OK:
            if hidden is None:
                hidden = hidden_mask(view)
            _complain(view, hidden, problem == IMPOSSIBLE, int(row), int(col))
        self._view = view
        self.settled = int(np.count_nonzero(self.settled_mask))
        #: How many mines each number still needs among its hidden
        #: neighbours not set aside.
        self.targets: list[int] = self.target_array.tolist()
        self.interior = int(np.count_nonzero(self.interior_mask))
        self.group_sizes: Index = np.diff(self.group_start)
        starts = self.component_start.tolist()
        flat = self.component_groups.tolist()
        self.components: list[list[int]] = [flat[a:b] for a, b in itertools.pairwise(starts)]

    @functools.cached_property
    def shown(self) -> list[int]:
        """What each number shows."""
        shown: list[int] = self._view[self.witness_rows, self.witness_cols].tolist()
        return shown

    @functools.cached_property
    def witness_cells(self) -> list[tuple[int, int]]:
        return list(zip(self.witness_rows.tolist(), self.witness_cols.tolist(), strict=True))

    @functools.cached_property
    def witness_keys(self) -> list[tuple[tuple[int, int], int]]:
        """Each number by where it is and what it still needs."""
        return list(zip(self.witness_cells, self.targets, strict=True))

    @functools.cached_property
    def groups(self) -> list[Group]:
        cols = self._view.shape[1]
        cells = self.group_cells.tolist()
        starts = self.group_start.tolist()
        witnesses = self.group_witnesses.tolist()
        links = self.witness_start.tolist()
        return [
            Group(
                [divmod(cell, cols) for cell in cells[starts[g] : starts[g + 1]]],
                tuple(witnesses[links[g] : links[g + 1]]),
            )
            for g in range(len(starts) - 1)
        ]


def _complain(
    view: npt.NDArray[np.uint8], hidden: npt.NDArray[np.bool_], impossible: bool, r: int, c: int
) -> NoReturn:
    """Raise the ContradictionError :func:`._frontier.frontier_arrays` found at ``(r, c)``."""
    hidden_around = around(hidden)
    if impossible:
        raise ContradictionError(
            f"{square_name(r, c)} shows {view[r, c]} but has only "
            f"{hidden_around[r, c]} hidden neighbours"
        )
    full = ~hidden & (hidden_around > 0) & (view == hidden_around)
    certain = int(around(hidden & (around(full) > 0))[r, c])
    raise ContradictionError(
        f"no mine layout agrees with the view: {square_name(r, c)} shows "
        f"{view[r, c]}, but the numbers around it make {certain} of its "
        f"neighbours {'a certain mine' if certain == 1 else 'certain mines'}"
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
    """A component's groups in counting order, and how each step reads the state.

    ``ids[i]`` is the group counted ``i``-th, as an index into ``source``'s
    groups (a frontier's, or a list of groups made up by a what-if).
    """

    ids: list[int]
    kernel_input: KernelInput
    source: Frontier | list[Group]

    @property
    def groups(self) -> list[Group]:
        source = self.source.groups if isinstance(self.source, Frontier) else self.source
        return [source[index] for index in self.ids]

    @property
    def squares(self) -> int:
        return int(self.kernel_input.sizes.sum())

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
    order, *kernel_input = entry(plan_component)(
        starts,
        np.array([local[w] for w in flat], np.int64),
        np.array([len(group.cells) for group in groups], np.int64),
        np.array([targets[w] for w in numbers], np.int64),
        local.get(ignored, -1),
        tries,
    )
    return Plan([members[i] for i in order.tolist()], KernelInput(*kernel_input), all_groups)


def plan_members(
    frontier: Frontier,
    members: list[int],
    targets: list[int] | None = None,
    *,
    ignored: int = -1,
    tries: int = 1,
) -> Plan:
    """:func:`plan_groups` for a frontier's component, from the frontier's arrays.

    ``targets`` replace the frontier's own when given (one per number).
    """
    from ._count import plan_component
    from ._frontier import member_input

    chosen = np.array(members, np.int64)
    needs = frontier.target_array if targets is None else np.array(targets, np.int64)
    planner: Any = entry(plan_component)
    order, *kernel_input = planner(
        *entry(member_input)(
            frontier.witness_start,
            frontier.group_witnesses,
            frontier.group_sizes,
            needs,
            chosen,
            ignored,
        ),
        tries,
    )
    return Plan(chosen[order].tolist(), KernelInput(*kernel_input), frontier)


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
    if view.dtype == np.uint8 and not view.tobytes().translate(None, _PLAYABLE_BYTES):
        return view.astype(np.uint8)  # a copy, as below: the caller may change theirs
    bad = np.argwhere((view < 0) | (view > GLYPH_PLAYABLE_MAX))
    if len(bad):
        r, c = (int(v) for v in bad[0])
        raise InvalidBoardError(
            f"view square {square_name(r, c)} is {_symbol(int(view[r, c]))}; a view to solve holds "
            "numbers 0-8, hidden, flag and question mark (a finished game's mines cannot be "
            "solved)"
        )
    return view.astype(np.uint8)


def _symbol(glyph: int) -> str:
    """A glyph as a view writes it (``'*'``, a mine shown), or its number if it has no symbol."""
    if 0 <= glyph < len(VIEW_SYMBOLS):
        return f"{VIEW_SYMBOLS[glyph]!r} (a mine or a wrong flag, shown after a loss)"
    return f"glyph {glyph}"
