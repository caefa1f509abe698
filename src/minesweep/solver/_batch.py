"""Step 4 for every component of a view in one compiled call (numba).

A view has a handful of components, and calling a compiled function costs
microseconds of argument checking each time: planning and counting each
component in calls of its own cost more than the counting. Here one call
makes every component's cache key, and one more plans and counts every
component not remembered, with the same planner and counter
(:mod:`minesweep.solver._count`) as one at a time would.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._count import count_component, plan_component
from ._frontier import component_key, member_input

__all__ = ["COUNTED", "OVERFLOW", "OVER_BUDGET", "WIDE", "component_keys", "count_components"]

#: What :func:`count_components` did with a component.
COUNTED = 0
#: Its plain order opens too many numbers at once: count it in pieces.
WIDE = 1
#: Past the budget of states (or of coefficients).
OVER_BUDGET = 2
#: A count beyond float range: count it exactly.
OVERFLOW = 3


@kernel(cache=True, part="solver", nogil=True)
def component_keys(  # pragma: no cover - compiled
    cols, group_start, group_cells, witness_start, group_witnesses, witness_rows, witness_cols,
    targets, component_start, component_groups,
):  # fmt: skip
    """Every component's :func:`._frontier.component_key`, as CSR: ``data[start[k]:start[k+1]]``."""
    count = component_start.shape[0] - 1
    start = np.zeros(count + 1, np.int64)
    keys = []
    for k in range(count):
        key = component_key(
            cols, group_start, group_cells, witness_start, group_witnesses, witness_rows,
            witness_cols, targets, component_groups[component_start[k] : component_start[k + 1]],
        )  # fmt: skip
        keys.append(key)
        start[k + 1] = start[k] + key.shape[0]
    data = np.empty(start[count], np.int64)
    for k in range(count):
        data[start[k] : start[k + 1]] = keys[k]
    return start, data


@kernel(cache=True, part="solver", nogil=True)
def count_components(  # pragma: no cover - compiled
    witness_start, group_witnesses, group_sizes, targets, component_start, component_groups,
    which, wide, budget, max_coefficients, stop,
):  # fmt: skip
    """Plan and count components ``which`` (indices into the component CSR), in order.

    ``budget`` is how many states may be made in all (negative: no limit);
    a component whose plain order is ``wide`` or wider is left for the
    caller (and with ``stop`` nothing after it is counted: a caller that
    needs them all counted plainly stops there). Returns, for each of
    ``which``: its status (:data:`COUNTED`, ...),
    the states it took, and (when counted) its groups in counting order and
    its counts: ``layouts[w_start[k]:w_start[k+1]]``, and ``mines`` and
    ``safes`` rows of that length, one per group, from ``ids_start[k]``.
    Stops after a component over budget.
    """
    n = which.shape[0]
    status = np.full(n, -1, np.int64)
    states = np.zeros(n, np.int64)
    ids_start = np.zeros(n + 1, np.int64)
    w_start = np.zeros(n + 1, np.int64)
    e_start = np.zeros(n + 1, np.int64)
    orders = []
    layouts_of = []
    mines_of = []
    safes_of = []
    left = budget
    for i in range(n):
        k = which[i]
        members = component_groups[component_start[k] : component_start[k + 1]].copy()
        starts, local, sizes, local_targets, _ = member_input(
            witness_start, group_witnesses, group_sizes, targets, members, -1
        )
        plan = plan_component(starts, local, sizes, local_targets, -1, 1)
        order = plan[0]
        widths = plan[9]
        widest = 0
        for width in widths:
            widest = max(widest, width)
        length = 1
        for size in sizes:
            length += size
        ids = members[order]
        status[i] = WIDE
        layouts = np.zeros(0)
        mines = np.zeros((0, 0))
        safes = np.zeros((0, 0))
        if widest < wide:
            limit = np.iinfo(np.int64).max
            if left >= 0:
                limit = min(left, max_coefficients // length)
            layouts, mines, safes, made = count_component(
                plan[1], plan[2], plan[3], plan[4], plan[5], plan[6], plan[7], plan[8], plan[9],
                limit,
            )  # fmt: skip
            if made < 0:
                status[i] = OVER_BUDGET
            else:
                states[i] = made
                if left >= 0:
                    left -= made
                status[i] = COUNTED
                for value in layouts:
                    if not np.isfinite(value):
                        status[i] = OVERFLOW
                for value in mines.ravel():
                    if not np.isfinite(value):
                        status[i] = OVERFLOW
                for value in safes.ravel():
                    if not np.isfinite(value):
                        status[i] = OVERFLOW
        if status[i] != COUNTED:
            layouts = np.zeros(0)
            mines = np.zeros((0, 0))
            safes = np.zeros((0, 0))
            if status[i] == OVER_BUDGET or stop:
                # Nothing after it is counted; it holds nothing itself.
                ids_start[i + 1] = ids_start[i]
                w_start[i + 1] = w_start[i]
                e_start[i + 1] = e_start[i]
                orders.append(ids)
                layouts_of.append(layouts)
                mines_of.append(mines)
                safes_of.append(safes)
                break
        orders.append(ids)
        layouts_of.append(layouts)
        mines_of.append(mines)
        safes_of.append(safes)
        ids_start[i + 1] = ids_start[i] + ids.shape[0]
        w_start[i + 1] = w_start[i] + layouts.shape[0]
        e_start[i + 1] = e_start[i] + mines.size
    # After a stop, the components not reached hold nothing.
    for j in range(len(orders), n):
        ids_start[j + 1] = ids_start[j]
        w_start[j + 1] = w_start[j]
        e_start[j + 1] = e_start[j]
    all_ids = np.empty(ids_start[n], np.int64)
    all_layouts = np.empty(w_start[n])
    all_mines = np.empty(e_start[n])
    all_safes = np.empty(e_start[n])
    for i in range(len(orders)):
        if ids_start[i + 1] > ids_start[i]:
            all_ids[ids_start[i] : ids_start[i + 1]] = orders[i]
        all_layouts[w_start[i] : w_start[i + 1]] = layouts_of[i]
        all_mines[e_start[i] : e_start[i + 1]] = mines_of[i].ravel()
        all_safes[e_start[i] : e_start[i + 1]] = safes_of[i].ravel()
    return status, states, ids_start, all_ids, w_start, all_layouts, e_start, all_mines, all_safes
