"""Steps 1 to 3 of the analysis, compiled (numba): numbers, groups and components as arrays.

:class:`minesweep.solver.frontier.Frontier` is built from what
:func:`frontier_arrays` returns, in one call over the board: what every
number needs, the squares a number alone makes mines, the frontier's
groups (squares next to exactly the same numbers) and the components they
link into. Everything here is integer work, so it gives exactly what the
Python it replaced gave: groups in the order of their sorted lists of
numbers, squares in board order, components in the order of their first
group.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ..grid import NEIGHBOUR_OFFSETS
from ..squares import MAX_NUMBER
from ._count import groups_by_number

__all__ = ["BROKEN", "IMPOSSIBLE", "OK", "component_key", "frontier_arrays", "member_input"]

#: What :func:`frontier_arrays` found wrong, if anything (its first result).
OK = 0
#: A number larger than its hidden neighbours.
IMPOSSIBLE = 1
#: A number smaller than the mines the numbers around it make certain.
BROKEN = 2

_OFFSETS = np.array(NEIGHBOUR_OFFSETS, np.int64)


@kernel(cache=True, part="solver", nogil=True)
def _around(mask, offsets):  # pragma: no cover - compiled
    """How many of each square's eight neighbours are in ``mask``."""
    rows, cols = mask.shape
    total = np.zeros((rows, cols), np.int64)
    for r in range(rows):
        for c in range(cols):
            if mask[r, c]:
                for o in range(offsets.shape[0]):
                    rr = r + offsets[o, 0]
                    cc = c + offsets[o, 1]
                    if 0 <= rr < rows and 0 <= cc < cols:
                        total[rr, cc] += 1
    return total


@kernel(cache=True, part="solver", nogil=True)
def _sort_small(values):  # pragma: no cover - compiled
    """Sort ``values`` (integers) in place: by insertion when there are few.

    numba's sort costs about half a microsecond however short the array,
    and every frontier square sorts its eight numbers: on a beginner view
    that was a third of this step. Integers sort to the same order either way.
    """
    n = values.shape[0]
    if n > 16:
        values.sort()
        return
    for i in range(1, n):
        value = values[i]
        j = i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


@kernel(cache=True, part="solver", nogil=True)
def _unique(values):  # pragma: no cover - compiled
    """The distinct ``values`` in ascending order: ``np.unique``, without numba's sort."""
    ordered = values.copy()
    _sort_small(ordered)
    kept = 0
    for i in range(ordered.shape[0]):
        if i == 0 or ordered[i] != ordered[kept - 1]:
            ordered[kept] = ordered[i]
            kept += 1
    return ordered[:kept].copy()


@kernel(cache=True, part="solver", nogil=True)
def _before(signatures, a, b):  # pragma: no cover - compiled
    """Whether row ``a`` of ``signatures`` sorts before row ``b`` (as tuples)."""
    for j in range(signatures.shape[1]):
        if signatures[a, j] != signatures[b, j]:
            return signatures[a, j] < signatures[b, j]
    return False


@kernel(cache=True, part="solver", nogil=True)
def _sorted_rows(signatures):  # pragma: no cover - compiled
    """The rows' indices sorted by their contents, stable (a merge sort)."""
    n = signatures.shape[0]
    order = np.arange(n)
    spare = np.empty(n, np.int64)
    width = 1
    while width < n:
        for low in range(0, n, 2 * width):
            middle = min(low + width, n)
            high = min(low + 2 * width, n)
            i, j, k = low, middle, low
            while i < middle and j < high:
                if _before(signatures, order[j], order[i]):
                    spare[k] = order[j]
                    j += 1
                else:
                    spare[k] = order[i]
                    i += 1
                k += 1
            while i < middle:
                spare[k] = order[i]
                i += 1
                k += 1
            while j < high:
                spare[k] = order[j]
                j += 1
                k += 1
        order, spare = spare, order
        width *= 2
    return order


@kernel(cache=True, part="solver", nogil=True)
def frontier_arrays(view, settle):  # pragma: no cover - compiled
    """The frontier of ``view`` (uint8 glyphs, already checked) as arrays.

    Returns ``(problem, where_row, where_col, settled, witness_rows,
    witness_cols, targets, interior, group_at, group_start, group_cells,
    witness_start, group_witnesses, component_start, component_groups)``:
    ``problem`` is :data:`OK`, or what is wrong at ``(where_row,
    where_col)`` (and nothing else is filled in); ``settled`` the squares
    set aside as mines; witnesses (numbers with hidden neighbours not set aside) in board
    order, with their targets; ``interior`` the hidden squares next to no
    witness; ``group_at`` each frontier square's group (-1 elsewhere);
    group ``g``'s squares (flat indices, board order) are
    ``group_cells[group_start[g]:group_start[g+1]]`` and its witnesses
    ``group_witnesses[witness_start[g]:witness_start[g+1]]``; component
    ``k``'s groups are ``component_groups[component_start[k]:component_start[k+1]]``.
    """
    rows, cols = view.shape
    offsets = _OFFSETS
    hidden = np.zeros((rows, cols), np.bool_)
    for r in range(rows):
        for c in range(cols):
            hidden[r, c] = view[r, c] > MAX_NUMBER
    hidden_around = _around(hidden, offsets)
    empty = np.zeros(0, np.int64)
    no_grid = np.zeros((0, 0), np.int64)
    no_mask = np.zeros((0, 0), np.bool_)
    for r in range(rows):
        for c in range(cols):
            if not hidden[r, c] and view[r, c] > hidden_around[r, c]:
                return (
                    IMPOSSIBLE, r, c, no_mask, empty, empty, empty, no_mask,
                    no_grid, empty, empty, empty, empty, empty, empty,
                )  # fmt: skip
    # 1. Numbers with exactly as many hidden neighbours make them all mines.
    settled = np.zeros((rows, cols), np.bool_)
    if settle:
        for r in range(rows):
            for c in range(cols):
                full = hidden_around[r, c] > 0 and view[r, c] == hidden_around[r, c]
                if full and not hidden[r, c]:
                    for o in range(offsets.shape[0]):
                        rr = r + offsets[o, 0]
                        cc = c + offsets[o, 1]
                        if 0 <= rr < rows and 0 <= cc < cols and hidden[rr, cc]:
                            settled[rr, cc] = True
    settled_around = _around(settled, offsets)
    left = np.zeros((rows, cols), np.int64)
    for r in range(rows):
        for c in range(cols):
            left[r, c] = np.int64(view[r, c]) - settled_around[r, c]
            if not hidden[r, c] and left[r, c] < 0:
                return (
                    BROKEN, r, c, no_mask, empty, empty, empty, no_mask,
                    no_grid, empty, empty, empty, empty, empty, empty,
                )  # fmt: skip
    for r in range(rows):
        for c in range(cols):
            if settled[r, c]:
                hidden[r, c] = False
    hidden_around = _around(hidden, offsets)
    # The witnesses, numbered in board order.
    ids = np.full((rows, cols), -1, np.int64)
    count = 0
    for r in range(rows):
        for c in range(cols):
            if view[r, c] <= MAX_NUMBER and hidden_around[r, c] > 0:
                ids[r, c] = count
                count += 1
    witness_rows = np.zeros(count, np.int64)
    witness_cols = np.zeros(count, np.int64)
    targets = np.zeros(count, np.int64)
    for r in range(rows):
        for c in range(cols):
            w = ids[r, c]
            if w >= 0:
                witness_rows[w] = r
                witness_cols[w] = c
                targets[w] = left[r, c]
    # 2. Frontier squares, each with the sorted ids of its witnesses
    # (padded with -1 in front, as a sorted list of eight would be).
    interior = np.zeros((rows, cols), np.bool_)
    on_frontier = 0
    for r in range(rows):
        for c in range(cols):
            if hidden[r, c]:
                near = False
                for o in range(offsets.shape[0]):
                    rr = r + offsets[o, 0]
                    cc = c + offsets[o, 1]
                    if 0 <= rr < rows and 0 <= cc < cols and ids[rr, cc] >= 0:
                        near = True
                if near:
                    on_frontier += 1
                else:
                    interior[r, c] = True
    slots = offsets.shape[0]
    signatures = np.full((on_frontier, slots), -1, np.int64)
    cells = np.zeros(on_frontier, np.int64)
    index = 0
    for r in range(rows):
        for c in range(cols):
            if hidden[r, c] and not interior[r, c]:
                cells[index] = r * cols + c
                for o in range(slots):
                    rr = r + offsets[o, 0]
                    cc = c + offsets[o, 1]
                    if 0 <= rr < rows and 0 <= cc < cols:
                        signatures[index, o] = ids[rr, cc]
                _sort_small(signatures[index])
                index += 1
    order = _sorted_rows(signatures)
    group_at = np.full((rows, cols), -1, np.int64)
    group_start = np.zeros(on_frontier + 1, np.int64)
    group_cells = np.zeros(on_frontier, np.int64)
    witness_start = np.zeros(on_frontier + 1, np.int64)
    group_witnesses = np.zeros(on_frontier * slots, np.int64)
    groups = 0
    links = 0
    for position in range(on_frontier):
        i = order[position]
        if position == 0 or _before(signatures, order[position - 1], i):
            group_start[groups] = position
            witness_start[groups] = links
            for j in range(slots):
                if signatures[i, j] >= 0:
                    group_witnesses[links] = signatures[i, j]
                    links += 1
            groups += 1
        group_cells[position] = cells[i]
        group_at[cells[i] // cols, cells[i] % cols] = groups - 1
    group_start[groups] = on_frontier
    witness_start[groups] = links
    group_start = group_start[: groups + 1].copy()
    witness_start = witness_start[: groups + 1].copy()
    group_witnesses = group_witnesses[:links].copy()
    # 3. Components: groups linked through shared witnesses, each one's
    # groups in ascending order, in the order of their first group.
    per, by_witness = groups_by_number(witness_start, group_witnesses, count)
    done = np.zeros(groups, np.bool_)
    seen = np.zeros(count, np.bool_)
    component_start = np.zeros(groups + 1, np.int64)
    component_groups = np.zeros(groups, np.int64)
    components = 0
    placed = 0
    todo = np.zeros(count, np.int64)
    for start in range(groups):
        if done[start]:
            continue
        done[start] = True
        first = placed
        component_groups[placed] = start
        placed += 1
        pending = 0
        for j in range(witness_start[start], witness_start[start + 1]):
            w = group_witnesses[j]
            seen[w] = True
            todo[pending] = w
            pending += 1
        while pending:
            pending -= 1
            w = todo[pending]
            for i in range(per[w], per[w + 1]):
                g = by_witness[i]
                if not done[g]:
                    done[g] = True
                    component_groups[placed] = g
                    placed += 1
                    for j in range(witness_start[g], witness_start[g + 1]):
                        other = group_witnesses[j]
                        if not seen[other]:
                            seen[other] = True
                            todo[pending] = other
                            pending += 1
        _sort_small(component_groups[first:placed])
        component_start[components] = first
        components += 1
    component_start[components] = placed
    return (
        OK, -1, -1, settled, witness_rows, witness_cols, targets, interior, group_at,
        group_start, group_cells, witness_start, group_witnesses,
        component_start[: components + 1].copy(), component_groups,
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True)
def component_key(  # pragma: no cover - compiled
    cols, group_start, group_cells, witness_start, group_witnesses, witness_rows, witness_cols,
    targets, members,
):  # fmt: skip
    """What defines a component, as integers: the board's width, then for each
    group its squares, and its numbers by where they are and what they need."""
    length = 1
    for g in members:
        squares = group_start[g + 1] - group_start[g]
        length += 2 + squares + 2 * (witness_start[g + 1] - witness_start[g])
    key = np.empty(length, np.int64)
    key[0] = cols
    at = 1
    for g in members:
        key[at] = group_start[g + 1] - group_start[g]
        at += 1
        for j in range(group_start[g], group_start[g + 1]):
            key[at] = group_cells[j]
            at += 1
        key[at] = witness_start[g + 1] - witness_start[g]
        at += 1
        for j in range(witness_start[g], witness_start[g + 1]):
            w = group_witnesses[j]
            key[at] = witness_rows[w] * cols + witness_cols[w]
            key[at + 1] = targets[w]
            at += 2
    return key


@kernel(cache=True, part="solver", nogil=True)
def member_input(  # pragma: no cover - compiled
    witness_start, group_witnesses, group_sizes, targets, members, ignored
):
    """A component's groups as :func:`._count.plan_component` takes them: its numbers
    renumbered from 0 in ascending order, ``ignored`` (a frontier number, or -1) too."""
    n = members.shape[0]
    starts = np.zeros(n + 1, np.int64)
    for i in range(n):
        g = members[i]
        starts[i + 1] = starts[i] + witness_start[g + 1] - witness_start[g]
    flat = np.empty(starts[n], np.int64)
    sizes = np.empty(n, np.int64)
    for i in range(n):
        g = members[i]
        sizes[i] = group_sizes[g]
        for j in range(witness_start[g + 1] - witness_start[g]):
            flat[starts[i] + j] = group_witnesses[witness_start[g] + j]
    numbers = _unique(flat)
    local = np.empty(flat.shape[0], np.int64)
    for j in range(flat.shape[0]):
        local[j] = np.searchsorted(numbers, flat[j])
    local_targets = np.empty(numbers.shape[0], np.int64)
    local_ignored = -1
    for i in range(numbers.shape[0]):
        local_targets[i] = targets[numbers[i]]
        if numbers[i] == ignored:
            local_ignored = i
    return starts, local, sizes, local_targets, local_ignored
