"""The analysis's plain path in one compiled call (numba).

:func:`minesweep.solver.analyze` on a view of a preset is a handful of
kernels (:func:`._frontier.frontier_arrays`, :func:`._batch.count_components`,
:func:`._combine.combine`) with Python between them: the component cache,
the arrays each kernel wants, the objects the rest of the solver reads. On
an early beginner view that glue costs several times the counting.
:func:`plain_analysis` makes the same calls on the same arrays inside one
kernel, so its probabilities are the Python path's to the bit; it says
``ok`` False wherever that path would leave the plain route (a component
counted in pieces or past float range, over the state budget, more
components than the plain products take, a sum that underflows, no
layout), and the caller then takes the Python path, which handles each.
The autoplayer's compiled game (:mod:`._play`) analyses with it too.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._batch import COUNTED, count_components
from ._combine import SHARED, combine
from ._frontier import OK, frontier_arrays

__all__ = ["plain_analysis", "plain_result"]


@kernel(cache=True, part="solver", nogil=True)
def plain_analysis(  # pragma: no cover - compiled
    view, total, wide, budget, max_coefficients, tiny, plain_components
):  # fmt: skip
    """The plain path of :func:`minesweep.solver.analyze`, or ``ok`` False off it.

    Returns ``(ok, probability, safe, mine, log_layouts, w_start, layouts,
    component_start, component_groups, group_start, group_cells, interior,
    rest)``, ``rest`` what the lookahead reads besides (``settled_mask,
    interior_mask, group_at, witness_start, group_witnesses, targets,
    ids_start, ids, e_start, mines, settled``: see :func:`._lookahead.what_if`).
    ``budget`` is the states counting may make (negative: no limit).
    """
    (
        problem, _row, _col, settled_mask, _witness_rows, _witness_cols, targets, interior_mask,
        group_at, group_start, group_cells, witness_start, group_witnesses, component_start,
        component_groups,
    ) = frontier_arrays(view, True)  # fmt: skip
    rows, cols = view.shape
    probability = np.full((rows, cols), np.nan)
    safe = np.zeros((rows, cols), np.bool_)
    mine = np.zeros((rows, cols), np.bool_)
    w_start = np.zeros(1, np.int64)
    layouts = np.zeros(0)
    no_ids = np.zeros(1, np.int64)
    rest = (
        settled_mask, interior_mask, group_at, witness_start, group_witnesses, targets, no_ids,
        no_ids, no_ids, layouts, 0,
    )  # fmt: skip
    nothing = (
        False, probability, safe, mine, 0.0, w_start, layouts, component_start,
        component_groups, group_start, group_cells, 0, rest,
    )  # fmt: skip
    if problem != OK:
        return nothing
    settled = 0
    interior = 0
    for r in range(rows):
        for c in range(cols):
            if settled_mask[r, c]:
                settled += 1
            if interior_mask[r, c]:
                interior += 1
    count = component_start.shape[0] - 1
    if settled > total or count > plain_components:
        return nothing
    group_sizes = group_start[1:] - group_start[:-1]
    status, _states, ids_start, ids, w_start, layouts, e_start, mines, safes = count_components(
        witness_start, group_witnesses, group_sizes, targets, component_start, component_groups,
        np.arange(count), wide, budget, max_coefficients, True,
    )  # fmt: skip
    for k in range(count):
        if status[k] != COUNTED:
            return nothing
        feasible = False
        for m in range(w_start[k], w_start[k + 1]):
            if layouts[m] != 0:
                feasible = True
        if not feasible:
            return nothing
    sizes = np.empty(ids.shape[0])
    for j in range(ids.shape[0]):
        sizes[j] = group_sizes[ids[j]]
    shared, probability, safe, mine, log_layouts = combine(
        rows, cols, total - settled, interior, interior_mask, settled_mask, w_start, layouts,
        np.zeros(count), ids_start, ids, sizes, e_start, mines, safes, group_start, group_cells,
        tiny,
    )  # fmt: skip
    if shared != SHARED:
        return nothing
    rest = (
        settled_mask, interior_mask, group_at, witness_start, group_witnesses, targets, ids_start,
        ids, e_start, mines, settled,
    )  # fmt: skip
    return (
        True, probability, safe, mine, log_layouts, w_start, layouts, component_start,
        component_groups, group_start, group_cells, interior, rest,
    )  # fmt: skip


@kernel(cache=True, part="solver", nogil=True)
def plain_result(  # pragma: no cover - compiled
    view, total, wide, budget, max_coefficients, tiny, plain_components
):  # fmt: skip
    """:func:`plain_analysis` as :class:`minesweep.solver.Analysis` holds it.

    ``(ok, probability, safe, mines, log_layouts, components, interior)``:
    the certainly safe squares and mines as ``(n, 2)`` rows and columns in
    board order, each component's squares. Made here, not in Python: on a
    beginner view, handing back a dozen arrays and picking them apart cost
    as much as the counting.
    """
    (
        ok, probability, safe, mine, log_layouts, w_start, _layouts, component_start,
        component_groups, group_start, _group_cells, interior, _rest,
    ) = plain_analysis(
        view, total, wide, budget, max_coefficients, tiny, plain_components
    )  # fmt: skip
    safe_cells = _rows_and_cols(safe)
    mine_cells = _rows_and_cols(mine)
    count = w_start.shape[0] - 1
    sizes = np.zeros(count, np.int64)
    for k in range(count):
        for g in component_groups[component_start[k] : component_start[k + 1]]:
            sizes[k] += group_start[g + 1] - group_start[g]
    return ok, probability, safe_cells, mine_cells, log_layouts, sizes, interior


@kernel(cache=True, part="solver", nogil=True)
def _rows_and_cols(mask):  # pragma: no cover - compiled
    """The squares of ``mask`` as ``(n, 2)`` rows and columns, in board order."""
    cols = mask.shape[1]
    flat = np.flatnonzero(mask.ravel())
    cells = np.empty((flat.shape[0], 2), np.int64)
    cells[:, 0] = flat // cols
    cells[:, 1] = flat % cols
    return cells
