"""The lookahead's question about one square, compiled (numba).

:meth:`minesweep.solver.whatif.Lookahead.outcomes` asks, of a hidden square:
which numbers could it show, how likely is each, and how safe would the
best square be after each? :func:`square_outcomes` answers in one call: the
component the opening would make is planned and counted once per number
(:func:`._count.plan_component`, :func:`._count.count_component`), the other
components keep the counts the analysis holds, and the global mine count
ties them together (see :mod:`minesweep.solver.whatif` for the reasoning).
In Python the same steps were a few dozen numpy calls per number, which cost
more than the counting.

The analysis's counts come in flat arrays, one block per component in the
order of ``frontier.components``: layouts by mines ``lay[lay_start[k]:
lay_start[k + 1]]`` and each group's mines by mines (a ``groups x mines``
block of ``mines`` from ``mines_start[k]``, rows as in ``sizes[size_start[k]:
size_start[k + 1]]``), both divided by the component's largest layout count.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import kernel
from ._count import MAX_WIDTH, count_component, plan_component
from ._count_once import count_by_number, may_turn_certain

__all__ = ["ANSWERED", "NO_ANSWER", "square_outcomes"]

#: What :func:`square_outcomes` found (its first result): the outcomes (maybe
#: none: the square cannot be safe), or no cheap answer.
ANSWERED = 0
NO_ANSWER = 1


@kernel(cache=True, part="solver", nogil=True)
def _correlate(ways, others, length):  # pragma: no cover - compiled
    """``out[m] = sum over t of others[t] * ways[m + t]`` for m below ``length``."""
    out = np.zeros(length)
    for m in range(length):
        total = 0.0
        for t in range(others.shape[0]):
            if m + t < ways.shape[0]:
                total += others[t] * ways[m + t]
        out[m] = total
    return out


@kernel(cache=True, part="solver", nogil=True)
def _convolve(a, b):  # pragma: no cover - compiled
    out = np.zeros(a.shape[0] + b.shape[0] - 1)
    for i in range(a.shape[0]):
        for j in range(b.shape[0]):
            out[i + j] += a[i] * b[j]
    return out


@kernel(cache=True, part="solver", nogil=True)
def _normalised(poly):  # pragma: no cover - compiled
    return poly / poly.max()


@kernel(cache=True, part="solver", nogil=True)
def _log_choose(log_factorial, interior, placed):  # pragma: no cover - compiled
    """log C(``interior``, k) for each k of ``placed``; -inf where k does not fit."""
    out = np.full(placed.shape[0], -np.inf)
    for i in range(placed.shape[0]):
        k = placed[i]
        if 0 <= k <= interior:
            out[i] = log_factorial[interior] - log_factorial[k] - log_factorial[interior - k]
    return out


@kernel(cache=True, part="solver", nogil=True)
def _best_elsewhere(  # pragma: no cover - compiled
    untouched, apart_start, apart, ways, layouts, lay_start, lay, size_start, sizes,
    mines_start, mines,
):  # fmt: skip
    """The best safety in the ``untouched`` components, given the merged one's ``layouts``."""
    best = 0.0
    for i in range(untouched.shape[0]):
        k = untouched[i]
        a, b = lay_start[k], lay_start[k + 1]
        length = b - a
        weighed = _correlate(
            ways, _convolve(apart[apart_start[i] : apart_start[i + 1]], layouts), length
        )
        z = 0.0
        for m in range(length):
            z += lay[a + m] * weighed[m]
        if z > 0:
            least = np.inf
            for g in range(size_start[k + 1] - size_start[k]):
                row = mines_start[k] + g * length
                e = 0.0
                for m in range(length):
                    e += mines[row + m] * weighed[m]
                least = min(least, e / (sizes[size_start[k] + g] * z))
            best = max(best, 1.0 - least)
    return best


@kernel(cache=True, part="solver", nogil=True)
def _planned(  # pragma: no cover - compiled
    witness_list, link_start, cell_start, need, n_witnesses
):  # fmt: skip
    """Plan a component made of groups given as lists of witnesses (global numbers).

    Group ``g`` has ``cell_start[g + 1] - cell_start[g]`` squares and the
    witnesses ``witness_list[link_start[g]:link_start[g + 1]]``; the
    witnesses are renumbered from 0 in order, each needing ``need[w]``
    mines (0 past ``need``'s end). Returns ``(local, starts, flat, plan)``:
    the renumbering, the groups' links in local numbers, and
    :func:`._count.plan_component`'s plan.
    """
    local = np.full(n_witnesses, -1, np.int64)
    for w in witness_list:
        local[w] = 0
    n_local = 0
    for w in range(n_witnesses):
        if local[w] == 0:
            local[w] = n_local
            n_local += 1
    n_groups = len(cell_start) - 1
    starts = np.zeros(n_groups + 1, np.int64)
    sizes = np.empty(n_groups, np.int64)
    for g in range(n_groups):
        starts[g + 1] = link_start[g + 1]
        sizes[g] = cell_start[g + 1] - cell_start[g]
    flat = np.empty(len(witness_list), np.int64)
    for j in range(len(witness_list)):
        flat[j] = local[witness_list[j]]
    needs = np.zeros(n_local, np.int64)
    for w in range(min(n_witnesses, need.shape[0])):
        if local[w] >= 0:
            needs[local[w]] = need[w]
    return local, starts, flat, plan_component(starts, flat, sizes, needs, -1, 1)


@kernel(cache=True, part="solver", nogil=True)
def square_outcomes(  # pragma: no cover - compiled
    row, col, view, hidden_code, safe_now, sure, settled_mask, interior_mask, group_at,
    group_start, group_cells, witness_start, group_witnesses, targets, component_of,
    component_start, component_groups, lay_start, lay, size_start, sizes, mines_start, mines,
    mine_count, settled_total, interior_total, log_factorial, states_left, once=0,
):  # fmt: skip
    """Every number hidden square ``(row, col)`` could show: see the module's docstring.

    Returns ``(status, numbers, chances, safest, states_left)``: for each
    number, the chance that the square is safe and shows it, and the best
    safety of any square afterwards; ``status`` :data:`NO_ANSWER` (nothing
    else meaningful) when a count is too wide or beyond float range, or the
    budget of states ran out (``states_left`` is 0 then).

    With ``once`` 1, the merged component is counted in one pass for all
    the numbers (:func:`._count_once.count_by_number`) rather than once for
    each: the same outcomes up to rounding, charged that pass's states. With
    ``once`` 2, also, the untouched components are searched for the safest
    square only where one could become certainly safe: so ``safest`` may be
    lower than the best safety, but is 1 exactly when that is.
    """
    rows, cols = view.shape
    numbers = np.zeros(0, np.int64)
    nothing = np.zeros(0)
    # The square's hidden neighbours, in board order.
    around = np.empty(8, np.int64)
    n_around = 0
    for r in range(max(0, row - 1), min(rows, row + 2)):
        for c in range(max(0, col - 1), min(cols, col + 2)):
            if (r != row or c != col) and view[r, c] >= hidden_code:
                around[n_around] = r * cols + c
                n_around += 1
    near = np.zeros(rows * cols, np.bool_)
    for i in range(n_around):
        near[around[i]] = True
    # The components the opening takes in (their groups touch the square or
    # its neighbours), ascending.
    count = component_start.shape[0] - 1
    is_touched = np.zeros(count, np.bool_)
    g0 = group_at[row, col]
    if g0 >= 0:
        is_touched[component_of[g0]] = True
    for i in range(n_around):
        g = group_at[around[i] // cols, around[i] % cols]
        if g >= 0:
            is_touched[component_of[g]] = True
    # The merged component's groups: each touched group split into the part
    # next to the square (which gains it as a number) and the rest; the
    # interior squares around it join as a group of their own.
    new = targets.shape[0]  # the opened square, as a number
    n_witnesses = new + 1
    cell_start = [0]  # the merged groups' squares are counted, not listed
    witness_list = [0]
    witness_list.pop()
    link_start = [0]
    before = np.zeros(n_witnesses, np.bool_)
    left = np.zeros(n_witnesses, np.bool_)
    filled = 0
    for k in range(count):
        if not is_touched[k]:
            continue
        for index in component_groups[component_start[k] : component_start[k + 1]]:
            w_from, w_to = witness_start[index], witness_start[index + 1]
            for j in range(w_from, w_to):
                before[group_witnesses[j]] = True
            # inside
            first = filled
            for j in range(group_start[index], group_start[index + 1]):
                cell = group_cells[j]
                if near[cell]:
                    filled += 1
            if filled > first:
                cell_start.append(filled)
                for j in range(w_from, w_to):
                    witness_list.append(group_witnesses[j])
                    left[group_witnesses[j]] = True
                witness_list.append(new)
                left[new] = True
                link_start.append(len(witness_list))
            first = filled
            for j in range(group_start[index], group_start[index + 1]):
                cell = group_cells[j]
                if not near[cell] and cell != row * cols + col:
                    filled += 1
            if filled > first:
                cell_start.append(filled)
                for j in range(w_from, w_to):
                    witness_list.append(group_witnesses[j])
                    left[group_witnesses[j]] = True
                link_start.append(len(witness_list))
    joining = 0
    for i in range(n_around):
        cell = around[i]
        if interior_mask[cell // cols, cell % cols]:
            filled += 1
            joining += 1
    if joining:
        cell_start.append(filled)
        witness_list.append(new)
        left[new] = True
        link_start.append(len(witness_list))
    # A number left with no group around it must need no more mines: else
    # only a mine on the square itself fits, and it cannot be safe.
    for w in range(new):
        if before[w] and not left[w] and targets[w] != 0:
            return ANSWERED, numbers, nothing, nothing, states_left
    n_groups = len(cell_start) - 1
    squares = filled
    interior = interior_total - joining - (1 if interior_mask[row, col] else 0)
    settled = 0
    known = 0
    for i in range(n_around):
        r, c = around[i] // cols, around[i] % cols
        if settled_mask[r, c]:
            settled += 1
        if sure[r, c]:
            known += 1
    # The components left alone, and the running products of their layouts.
    untouched_count = 0
    for k in range(count):
        if not is_touched[k]:
            untouched_count += 1
    untouched = np.empty(untouched_count, np.int64)
    u = 0
    for k in range(count):
        if not is_touched[k]:
            untouched[u] = k
            u += 1
    prefix = [np.ones(1)]
    for i in range(untouched_count):
        k = untouched[i]
        prefix.append(_normalised(_convolve(prefix[-1], lay[lay_start[k] : lay_start[k + 1]])))
    others = prefix[-1]
    # How the world outside the merged component weighs its mine counts.
    length = squares + 1
    placed = (mine_count - settled_total) - np.arange(others.shape[0] + length - 1)
    log_ways = _log_choose(log_factorial, interior, placed)
    if not np.isfinite(log_ways).any():
        return ANSWERED, numbers, nothing, nothing, states_left
    ways = np.exp(log_ways - log_ways.max())
    weight = _correlate(ways, others, length)
    weight_inside = _correlate(ways * np.maximum(placed, 0), others, length)
    # For each untouched component, the product of the others (made on first use).
    apart_start = np.zeros(untouched_count + 1, np.int64)
    apart = np.zeros(0)
    apart_made = False
    if squares == 0:
        # Nothing hidden around the square but mines set aside: it shows
        # those, and only the interior changes.
        z = weight[0]
        if not z > 0:
            return ANSWERED, numbers, nothing, nothing, states_left
        apart_start, apart = _apart(untouched, prefix, lay_start, lay)
        safest = _best_elsewhere(
            untouched, apart_start, apart, ways, np.ones(1), lay_start, lay, size_start, sizes,
            mines_start, mines,
        )  # fmt: skip
        if interior:
            safest = max(safest, 1.0 - weight_inside[0] / (z * interior))
        return (
            ANSWERED, np.array([settled], np.int64), np.array([safe_now]), np.array([safest]),
            states_left,
        )  # fmt: skip
    # Plan the merged component; the square's own number needs nothing yet
    # (each number it could show is set in the plan's targets below).
    local, starts, flat, plan = _planned(witness_list, link_start, cell_start, targets, n_witnesses)
    (
        order, plan_sizes, touch_start, touch_before, touch_after, touch_target, touch_capacity,
        carry_start, carry_pairs, widths,
    ) = plan  # fmt: skip
    if widths.shape[0] and widths.max() > MAX_WIDTH:
        return NO_ANSWER, numbers, nothing, nothing, states_left
    new_local = local[new]
    is_new = np.zeros(touch_target.shape[0], np.bool_)
    t = 0
    for position in range(n_groups):
        g = order[position]
        for j in range(starts[g], starts[g + 1]):
            is_new[t] = flat[j] == new_local
            t += 1
    merged_sizes = plan_sizes.astype(np.float64)
    found_numbers = np.empty(n_around + 1, np.int64)
    found_z = np.empty(n_around + 1)
    found_safest = np.empty(n_around + 1)
    found = 0
    # One pass needs the square's number in the plan (it is not when no
    # group is next to the square: then every number counts alike).
    by_number = once > 0 and is_new.any()
    elsewhere = once < 2 or may_turn_certain(
        untouched, lay_start, lay, size_start, mines_start, mines, length,
        mine_count - settled_total, interior,
    )  # fmt: skip
    all_layouts = np.zeros((1, 1))
    all_mines = np.zeros((1, 1, 1))
    if by_number:
        all_layouts, all_mines, states = count_by_number(
            plan_sizes, touch_start, touch_before, touch_after, touch_target, touch_capacity,
            carry_start, carry_pairs, is_new, n_around - settled + 1, states_left,
        )  # fmt: skip
        if states < 0:
            return NO_ANSWER, numbers, nothing, nothing, 0
        states_left -= states
    for number in range(known, n_around + 1):
        if by_number:
            layouts = all_layouts[number - settled]
            mines_by = all_mines[number - settled]
        else:
            for t in range(is_new.shape[0]):
                if is_new[t]:
                    touch_target[t] = number - settled
            layouts, mines_by, _, states = count_component(
                plan_sizes, touch_start, touch_before, touch_after, touch_target, touch_capacity,
                carry_start, carry_pairs, widths, states_left,
            )  # fmt: skip
            if states < 0:
                return NO_ANSWER, numbers, nothing, nothing, 0
            states_left -= states
        if not (np.isfinite(layouts).all() and np.isfinite(mines_by).all()):
            return NO_ANSWER, numbers, nothing, nothing, states_left
        # The weight of this number's layouts, and the best safety after it.
        scale = layouts.max()
        if not scale > 0:
            continue
        layouts = layouts / scale
        mines_by = mines_by / scale
        z = 0.0
        for m in range(length):
            z += layouts[m] * weight[m]
        if not z > 0:
            continue
        least = np.inf
        for g in range(mines_by.shape[0]):
            e = 0.0
            for m in range(length):
                e += mines_by[g, m] * weight[m]
            least = min(least, e / (merged_sizes[g] * z))
        safest = 1.0 - least
        if interior:
            inside = 0.0
            for m in range(length):
                inside += layouts[m] * weight_inside[m]
            safest = max(safest, 1.0 - inside / (z * interior))
        if safest < 1.0 and elsewhere:
            if not apart_made:
                apart_start, apart = _apart(untouched, prefix, lay_start, lay)
                apart_made = True
            safest = max(
                safest,
                _best_elsewhere(
                    untouched, apart_start, apart, ways, layouts, lay_start, lay, size_start,
                    sizes, mines_start, mines,
                ),
            )  # fmt: skip
        found_numbers[found] = number
        found_z[found] = z * scale
        found_safest[found] = safest
        found += 1
    total = 0.0
    for i in range(found):
        total += found_z[i]
    if not (math.isfinite(total) and total > 0):
        if found:
            return NO_ANSWER, numbers, nothing, nothing, states_left
        return ANSWERED, numbers, nothing, nothing, states_left
    chances = np.empty(found)
    for i in range(found):
        chances[i] = safe_now * found_z[i] / total
    return ANSWERED, found_numbers[:found].copy(), chances, found_safest[:found].copy(), states_left


@kernel(cache=True, part="solver", nogil=True)
def _apart(untouched, prefix, lay_start, lay):  # pragma: no cover - compiled
    """For each untouched component, the product of the others' layouts, as CSR.

    ``prefix[i]`` is the (renormalised) product of the first ``i``; the
    products from the end are made here, renormalised the same way.
    """
    count = untouched.shape[0]
    suffix = [np.ones(1)]
    for step in range(count):
        k = untouched[count - 1 - step]
        suffix.append(_normalised(_convolve(suffix[-1], lay[lay_start[k] : lay_start[k + 1]])))
    suffix.reverse()
    pieces = [_convolve(prefix[i], suffix[i + 1]) for i in range(count)]
    starts = np.zeros(count + 1, np.int64)
    for i in range(count):
        starts[i + 1] = starts[i] + pieces[i].shape[0]
    flat = np.empty(starts[count])
    for i in range(count):
        flat[starts[i] : starts[i + 1]] = pieces[i]
    return starts, flat


@kernel(cache=True, part="solver", nogil=True)
def _log_weight(  # pragma: no cover - compiled
    layouts, log_scale, others, interior, mines, log_factorial
):  # fmt: skip
    """The log of the weight of every layout (-inf: none).

    ``layouts`` count the touched components by mines (times
    exp(-``log_scale``)), ``others`` the untouched ones; the ``interior``
    squares hold the rest of ``mines``.
    """
    poly = _convolve(layouts, others)
    count = 0
    for t in range(poly.shape[0]):
        if poly[t] > 0:
            count += 1
    logs = np.empty(count)
    placed = np.empty(count, np.int64)
    i = 0
    for t in range(poly.shape[0]):
        if poly[t] > 0:
            logs[i] = math.log(poly[t])
            placed[i] = mines - t
            i += 1
    logs += _log_choose(log_factorial, interior, placed)
    if not np.isfinite(logs).any():
        return -np.inf
    top = logs.max()
    return log_scale + top + math.log(np.exp(logs - top).sum())


@kernel(cache=True, part="solver", nogil=True)
def joint_chance(  # pragma: no cover - compiled
    forced, is_mine, sure, settled_mask, interior_mask, group_at, group_start, group_cells,
    witness_start, group_witnesses, targets, component_of, component_start, component_groups,
    lay_start, lay, log_tops, mine_count, settled_total, interior_total, log_factorial,
    states_left,
):  # fmt: skip
    """The chance that the ``forced`` squares (flat indices) are mines where ``is_mine``, else safe.

    Only the components holding them are counted again, with the forced
    mines taken off their numbers and the forced squares out of their
    groups; the others keep the analysis's counts (``log_tops[k]``: the log
    of component ``k``'s largest count, its scale included), and the global
    mine count ties them together. Returns ``(status, chance, states_left)``;
    :data:`NO_ANSWER` as :func:`square_outcomes` says.
    """
    cols = group_at.shape[1]
    count = component_start.shape[0] - 1
    mines = mine_count - settled_total
    for i in range(forced.shape[0]):
        r, c = forced[i] // cols, forced[i] % cols
        if sure[r, c] and not is_mine[i]:
            return ANSWERED, 0.0, states_left
    # A mine the frontier set aside is one already: nothing to force.
    n_cells = group_at.shape[0] * cols
    forced_mine = np.zeros(n_cells, np.bool_)
    forced_any = np.zeros(n_cells, np.bool_)
    is_touched = np.zeros(count, np.bool_)
    taken = 0
    for i in range(forced.shape[0]):
        r, c = forced[i] // cols, forced[i] % cols
        if settled_mask[r, c]:
            continue
        forced_any[forced[i]] = True
        if is_mine[i]:
            forced_mine[forced[i]] = True
        if group_at[r, c] >= 0:
            is_touched[component_of[group_at[r, c]]] = True
        if interior_mask[r, c]:
            taken += 1
    forced_mines = 0
    for cell in range(n_cells):
        if forced_mine[cell]:
            forced_mines += 1
    # The touched components' groups without the forced squares, and the
    # numbers' targets less the forced mines.
    need = targets.copy()
    seen = np.zeros(targets.shape[0], np.bool_)
    left = np.zeros(targets.shape[0], np.bool_)
    link_start = [0]
    witness_list = [0]
    witness_list.pop()
    cell_start = [0]
    for k in range(count):
        if not is_touched[k]:
            continue
        for index in component_groups[component_start[k] : component_start[k + 1]]:
            w_from, w_to = witness_start[index], witness_start[index + 1]
            rest = 0
            for j in range(group_start[index], group_start[index + 1]):
                cell = group_cells[j]
                if forced_mine[cell]:
                    for v in range(w_from, w_to):
                        need[group_witnesses[v]] -= 1
                if not forced_any[cell]:
                    rest += 1
            for v in range(w_from, w_to):
                seen[group_witnesses[v]] = True
            if rest:
                cell_start.append(cell_start[-1] + rest)
                for v in range(w_from, w_to):
                    witness_list.append(group_witnesses[v])
                    left[group_witnesses[v]] = True
                link_start.append(len(witness_list))
    for w in range(targets.shape[0]):
        if seen[w] and (need[w] < 0 or (not left[w] and need[w] != 0)):
            return ANSWERED, 0.0, states_left
    # Unforced, the touched components count as the analysis found; the
    # untouched ones are the same on both sides.
    counted = np.ones(1)
    log_scale = 0.0
    others = np.ones(1)
    for k in range(count):
        poly = lay[lay_start[k] : lay_start[k + 1]]
        if is_touched[k]:
            counted = _convolve(counted, poly)
            log_scale += log_tops[k]
        else:
            others = _normalised(_convolve(others, poly))
    before = _log_weight(counted, log_scale, others, interior_total, mines, log_factorial)
    if not math.isfinite(before):
        return NO_ANSWER, 0.0, states_left
    n_groups = len(cell_start) - 1
    recounted = np.ones(1)
    log_top = 0.0
    if n_groups:
        (
            _order, plan_sizes, touch_start, touch_before, touch_after, touch_target,
            touch_capacity, carry_start, carry_pairs, widths,
        ) = _planned(witness_list, link_start, cell_start, need, targets.shape[0])[3]  # fmt: skip
        if widths.shape[0] and widths.max() > MAX_WIDTH:
            return NO_ANSWER, 0.0, states_left
        recounted, _, _, states = count_component(
            plan_sizes, touch_start, touch_before, touch_after, touch_target, touch_capacity,
            carry_start, carry_pairs, widths, states_left,
        )  # fmt: skip
        if states < 0:
            return NO_ANSWER, 0.0, 0
        states_left -= states
        if not np.isfinite(recounted).all():
            return NO_ANSWER, 0.0, states_left
        top = recounted.max()
        if top > 0:
            recounted = recounted / top
            log_top = math.log(top)
    after = _log_weight(
        recounted, log_top, others, interior_total - taken, mines - forced_mines, log_factorial
    )
    if math.isnan(after):
        return NO_ANSWER, 0.0, states_left
    if after == -np.inf:
        return ANSWERED, 0.0, states_left
    return ANSWERED, min(1.0, math.exp(after - before)), states_left
