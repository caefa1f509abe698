"""The counting kernel of the probability analysis, compiled (numba).

It runs the same forward-backward dynamic programming as the exact Python
counter in :mod:`minesweep.solver.exact`, on float64 instead of Python
integers, which is what lets it run compiled. Every count is a sum of products of
binomials, all at least one, so a count is zero in floating point exactly
when it is zero in integers: that is what keeps "certainly safe" exact on
this path too. The caller falls back to the exact counter when a component
is too wide for the state encoding or a count overflows.

States are the remaining demands of the open numbers, four bits each, packed
into one int64 (so at most 15 open numbers); an open-addressing hash table
maps each state of a layer to its row (numba's typed dict cost about half
of a count).
"""

from __future__ import annotations

import numpy as np
from numba import types

from .._jit import kernel
from ..squares import MAX_NUMBER

__all__ = ["MAX_WIDTH", "count_component", "groups_by_number", "plan_component"]

MAX_WIDTH = 15

_index = types.int64[::1]


@kernel(cache=True, part="solver", nogil=True)
def _pascal():  # pragma: no cover - compiled
    # A group's squares all neighbour one number, so it holds at most eight.
    table = np.zeros((MAX_NUMBER + 1, MAX_NUMBER + 1))
    for n in range(MAX_NUMBER + 1):
        table[n, 0] = 1.0
        for k in range(1, n + 1):
            table[n, k] = table[n - 1, k - 1] + table[n - 1, k]
    return table


@kernel(cache=True, part="solver", nogil=True)
def _slot(table_keys, key):  # pragma: no cover - compiled
    """Where ``key`` is in the table, or the empty slot where it would go."""
    mask = table_keys.shape[0] - 1
    slot = ((key * 6364136223846793005) >> 17) & mask
    while table_keys[slot] != key and table_keys[slot] != -1:
        slot = (slot + 1) & mask
    return slot


@kernel(cache=True, part="solver", nogil=True)
def _grow_rows(array, needed):  # pragma: no cover - compiled
    if needed <= array.shape[0]:
        return array
    bigger = np.zeros((max(needed, 2 * array.shape[0]), array.shape[1]))
    for r in range(array.shape[0]):
        for c in range(array.shape[1]):
            bigger[r, c] = array[r, c]
    return bigger


@kernel(cache=True, part="solver", nogil=True)
def _grow(array, needed):  # pragma: no cover - compiled
    if needed <= array.shape[0]:
        return array
    bigger = np.empty(max(needed, 2 * array.shape[0]), array.dtype)
    for i in range(array.shape[0]):
        bigger[i] = array[i]
    return bigger


@kernel(
    types.Tuple((types.float64[::1], types.float64[:, ::1], types.float64[:, ::1], types.int64))(
        _index, _index, _index, _index, _index, _index, _index, _index, _index, types.int64
    ),
    cache=True,
    part="solver",
    nogil=True,
)
def count_component(  # pragma: no cover - compiled
    sizes,
    touch_start,
    touch_before,
    touch_after,
    touch_target,
    touch_capacity,
    carry_start,
    carry_pairs,
    widths,
    max_states,
):
    """Count one component's layouts.

    For group ``i`` (in order): ``sizes[i]`` squares; its numbers are entries
    ``touch_start[i]:touch_start[i + 1]`` of the ``touch_*`` arrays (slot in
    the state before, -1 when first seen; slot after, -1 when it closes
    here; its target; the capacity of its later groups); the numbers it
    carries over untouched are pairs ``carry_pairs[2j], carry_pairs[2j + 1]``
    (slot before, slot after) for ``j`` in ``carry_start[i]:carry_start[i+1]``.

    Returns ``W`` (layouts by mines in the component), ``E`` and ``S`` (for
    each group and mine count: the mines, and the safe squares, summed over
    the layouts), and the number of states made (-1 if over ``max_states``).

    One long function on purpose: it is the innermost loop of every
    analysis and lookahead, and its passes share a dozen growing arrays
    (states, their hash table, the moves between layers) that a split into
    calls would pass back and forth, and re-bind whenever one grows.
    """
    n = sizes.shape[0]
    length = 1
    for i in range(n):
        length += sizes[i]
    pascal = _pascal()
    # Forward: every layer's states (rows of poly arrays) and the moves between them.
    layer_start = np.zeros(n + 2, np.int64)  # rows of layer i: layer_start[i]:layer_start[i+1]
    polys = np.zeros((64, length))
    polys[0, 0] = 1.0
    layer_start[1] = 1
    keys = np.zeros(64, np.int64)  # the packed state of every row
    # Where each row's polynomial is non-zero: counts are sums of products
    # of binomials, so non-zero exactly where some move added to it. Loops
    # run over those ranges only, not the whole length.
    poly_low = np.zeros(64, np.int64)
    poly_high = np.zeros(64, np.int64)
    move_start = np.zeros(n + 1, np.int64)
    move_from = np.zeros(256, np.int64)
    move_to = np.zeros(256, np.int64)
    move_k = np.zeros(256, np.int64)
    moves = 0
    rows = 1
    demand_slots = np.zeros(16, np.int64)
    demand_values = np.zeros(16, np.int64)
    for i in range(n):
        size = sizes[i]
        # This layer's states by key: an open-addressing table (linear
        # probing; a key is never negative, so -1 marks an empty slot),
        # kept at most half full.
        slots = 64
        while slots < 4 * (layer_start[i + 1] - layer_start[i]):
            slots *= 2
        table_keys = np.full(slots, -1, np.int64)
        table_rows = np.zeros(slots, np.int64)
        layer_first = rows
        move_start[i] = moves
        for row in range(layer_start[i], layer_start[i + 1]):
            key = keys[row]
            base = 0
            for j in range(carry_start[i], carry_start[i + 1]):
                source = carry_pairs[2 * j]
                target_slot = carry_pairs[2 * j + 1]
                base |= ((key >> (4 * source)) & 15) << (4 * target_slot)
            low = 0
            high = size
            count = 0
            for t in range(touch_start[i], touch_start[i + 1]):
                before = touch_before[t]
                demand = ((key >> (4 * before)) & 15) if before >= 0 else touch_target[t]
                after = touch_after[t]
                if after < 0:
                    low = max(low, demand)
                    high = min(high, demand)
                else:
                    low = max(low, demand - touch_capacity[t])
                    high = min(high, demand)
                    demand_slots[count] = after
                    demand_values[count] = demand
                    count += 1
            for k in range(low, high + 1):
                following = base
                for j in range(count):
                    following |= (demand_values[j] - k) << (4 * demand_slots[j])
                slot = _slot(table_keys, following)
                if table_keys[slot] == following:
                    target_row = table_rows[slot]
                else:
                    target_row = rows
                    table_keys[slot] = following
                    table_rows[slot] = rows
                    rows += 1
                    if 2 * (rows - layer_first) > slots:
                        slots *= 2
                        table_keys = np.full(slots, -1, np.int64)
                        table_rows = np.zeros(slots, np.int64)
                        for old in range(layer_first, rows - 1):
                            place = _slot(table_keys, keys[old])
                            table_keys[place] = keys[old]
                            table_rows[place] = old
                        place = _slot(table_keys, following)
                        table_keys[place] = following
                        table_rows[place] = target_row
                    if rows > max_states:
                        return np.zeros(1), np.zeros((1, 1)), np.zeros((1, 1)), -1
                    polys = _grow_rows(polys, rows)
                    keys = _grow(keys, rows)
                    keys[target_row] = following
                    poly_low = _grow(poly_low, rows)
                    poly_high = _grow(poly_high, rows)
                    poly_low[target_row] = length
                    poly_high[target_row] = -1
                ways = pascal[size, k]
                source_poly = polys[row]
                target_poly = polys[target_row]
                top = min(poly_high[row], length - 1 - k)
                for m in range(poly_low[row], top + 1):
                    value = source_poly[m]
                    if value != 0.0:
                        target_poly[m + k] += value * ways
                if poly_low[row] <= top:
                    poly_low[target_row] = min(poly_low[target_row], poly_low[row] + k)
                    poly_high[target_row] = max(poly_high[target_row], top + k)
                move_from = _grow(move_from, moves + 1)
                move_to = _grow(move_to, moves + 1)
                move_k = _grow(move_k, moves + 1)
                move_from[moves] = row
                move_to[moves] = target_row
                move_k[moves] = k
                moves += 1
        layer_start[i + 2] = rows
    move_start[n] = moves
    # The last layer has one state (no open number) if anything fits.
    total = np.zeros(length)
    if layer_start[n + 1] > layer_start[n]:
        for m in range(length):
            total[m] = polys[layer_start[n], m]
    # Backward: completions of every state, and each group's sums. A state's
    # polynomial is non-zero over a short range of mine counts only, so every
    # loop runs over those ranges, not the whole length: without that, a
    # wide component's products cost length squared per move.
    completions = np.zeros((rows, length))
    rest_low = np.full(rows, length, np.int64)
    rest_high = np.full(rows, -1, np.int64)
    for row in range(layer_start[n], layer_start[n + 1]):
        completions[row, 0] = 1.0
        rest_low[row] = 0
        rest_high[row] = 0
    mines = np.zeros((n, length))
    safes = np.zeros((n, length))
    for i in range(n - 1, -1, -1):
        size = sizes[i]
        for move in range(move_start[i], move_start[i + 1]):
            source = move_from[move]
            target = move_to[move]
            k = move_k[move]
            if rest_high[target] < 0:
                continue  # no completion from there
            ways = pascal[size, k]
            rest = completions[target]
            here = completions[source]
            for m in range(rest_low[target], min(rest_high[target] + 1, length - k)):
                if rest[m] != 0.0:
                    here[m + k] += rest[m] * ways
            rest_low[source] = min(rest_low[source], rest_low[target] + k)
            rest_high[source] = max(rest_high[source], min(rest_high[target] + k, length - 1))
            if size == 0:
                continue
            before = polys[source]
            for a in range(poly_low[source], poly_high[source] + 1):
                left = before[a]
                if left == 0.0:
                    continue
                for b in range(rest_low[target], min(rest_high[target] + 1, length - a - k)):
                    right = rest[b]
                    if right != 0.0:
                        product = left * right * ways
                        mines[i, a + b + k] += product * k
                        safes[i, a + b + k] += product * (size - k)
    return total, mines, safes, rows


@kernel(cache=True, part="solver", nogil=True)
def groups_by_number(group_start, group_witnesses, k):  # pragma: no cover - compiled
    """The groups of every number, as CSR: number ``w``'s are ``by_witness[per[w]:per[w+1]]``."""
    n = group_start.shape[0] - 1
    per = np.zeros(k + 1, np.int64)
    for j in range(group_start[n]):
        per[group_witnesses[j] + 1] += 1
    for w in range(k):
        per[w + 1] += per[w]
    by_witness = np.zeros(group_start[n], np.int64)
    fill = per[:k].copy()
    for g in range(n):
        for j in range(group_start[g], group_start[g + 1]):
            w = group_witnesses[j]
            by_witness[fill[w]] = g
            fill[w] += 1
    return per, by_witness


@kernel(cache=True, part="solver", nogil=True)
def _far_end(group_start, group_witnesses, per, by_witness, origin):  # pragma: no cover
    """A far end of the frontier: the last group a breadth-first search from ``origin`` reaches."""
    n = group_start.shape[0] - 1
    seen = np.zeros(n, np.bool_)
    queue = np.zeros(n, np.int64)
    queue[0] = origin
    seen[origin] = True
    tail = 1
    head = 0
    while head < tail:
        current = queue[head]
        head += 1
        for j in range(group_start[current], group_start[current + 1]):
            w = group_witnesses[j]
            for i in range(per[w], per[w + 1]):
                other = by_witness[i]
                if not seen[other]:
                    seen[other] = True
                    queue[tail] = other
                    tail += 1
    return queue[tail - 1]


@kernel(cache=True, part="solver", nogil=True)
def _greedy_order(group_start, group_witnesses, per, by_witness, start):  # pragma: no cover
    """The counting order: from ``start``, each step takes, among the groups next to
    an open number, the one that leaves the fewest open (see :func:`plan_component`)."""
    n = group_start.shape[0] - 1
    k = per.shape[0] - 1
    remaining = per[1:] - per[:k]
    order = np.arange(n)
    opened = np.zeros(k, np.bool_)
    placed = np.zeros(n, np.bool_)
    candidate = np.zeros(n, np.bool_)
    listed = np.zeros(n, np.int64)  # the candidates, in no order (some stale)
    count = 1
    listed[0] = start
    candidate[listed[0]] = True
    for position in range(n):
        best = -1
        best_score = 0
        best_closes = 0
        kept = 0
        for c in range(count):
            index = listed[c]
            if not candidate[index]:
                continue
            listed[kept] = index
            kept += 1
            closes = 0
            opens = 0
            for j in range(group_start[index], group_start[index + 1]):
                w = group_witnesses[j]
                if remaining[w] == 1:
                    if opened[w]:
                        closes += 1
                elif not opened[w]:
                    opens += 1
            score = opens - closes
            if (
                best < 0
                or score < best_score
                or (
                    score == best_score
                    and (closes > best_closes or (closes == best_closes and index < best))
                )
            ):
                best = index
                best_score = score
                best_closes = closes
        count = kept
        if best < 0:  # a component in pieces: the lowest group left
            for g in range(n):
                if not placed[g]:
                    best = g
                    break
        order[position] = best
        placed[best] = True
        candidate[best] = False
        for j in range(group_start[best], group_start[best + 1]):
            w = group_witnesses[j]
            remaining[w] -= 1
            if remaining[w]:
                if not opened[w]:
                    opened[w] = True
                    for i in range(per[w], per[w + 1]):
                        other = by_witness[i]
                        if not placed[other] and not candidate[other]:
                            candidate[other] = True
                            listed = _grow(listed, count + 1)
                            listed[count] = other
                            count += 1
            else:
                opened[w] = False
    return order


@kernel(cache=True, part="solver", nogil=True)
def _state_steps(group_start, group_witnesses, sizes, targets, ignored, order):  # pragma: no cover
    """The state bookkeeping of each step of ``order`` (see :func:`plan_component`).

    One long pass on purpose: every array it fills is indexed by the same
    running counters (``touches``, ``carries``, the open numbers' slots),
    which a split would have to hand back and forth at every step.
    """
    n = sizes.shape[0]
    k = targets.shape[0]
    last = np.full(k, -1, np.int64)
    capacity = np.zeros(k, np.int64)
    for position in range(n):
        g = order[position]
        for j in range(group_start[g], group_start[g + 1]):
            w = group_witnesses[j]
            if w != ignored:
                last[w] = position
                capacity[w] += sizes[g]
    slot = np.full(k, -1, np.int64)  # each open number's slot in the state
    active = np.zeros(k, np.int64)
    width = 0
    new_active = np.zeros(k, np.int64)
    new_slot = np.full(k, -1, np.int64)
    mine = np.zeros(k, np.bool_)
    ordered_sizes = np.zeros(n, np.int64)
    touch_start = np.zeros(n + 1, np.int64)
    carry_start = np.zeros(n + 1, np.int64)
    widths = np.zeros(n, np.int64)
    touch_before = np.zeros(group_start[n], np.int64)
    touch_after = np.zeros(group_start[n], np.int64)
    touch_target = np.zeros(group_start[n], np.int64)
    touch_capacity = np.zeros(group_start[n], np.int64)
    carry_pairs = np.zeros(64, np.int64)
    touches = 0
    carries = 0
    for position in range(n):
        g = order[position]
        ordered_sizes[position] = sizes[g]
        after = 0
        for a in range(width):
            w = active[a]
            if last[w] != position:
                new_active[after] = w
                new_slot[w] = after
                after += 1
        for j in range(group_start[g], group_start[g + 1]):
            w = group_witnesses[j]
            if w == ignored:
                continue
            mine[w] = True
            if slot[w] < 0 and last[w] != position:  # opened here
                new_active[after] = w
                new_slot[w] = after
                after += 1
            capacity[w] -= sizes[g]
            touch_before[touches] = slot[w]
            touch_after[touches] = new_slot[w] if last[w] != position else -1
            touch_target[touches] = targets[w]
            touch_capacity[touches] = capacity[w]
            touches += 1
        touch_start[position + 1] = touches
        for a in range(after):
            w = new_active[a]
            if slot[w] >= 0 and not mine[w]:
                carry_pairs = _grow(carry_pairs, 2 * carries + 2)
                carry_pairs[2 * carries] = slot[w]
                carry_pairs[2 * carries + 1] = a
                carries += 1
        carry_start[position + 1] = carries
        widths[position] = after
        for a in range(width):
            slot[active[a]] = -1
        for j in range(group_start[g], group_start[g + 1]):
            mine[group_witnesses[j]] = False
        for a in range(after):
            w = new_active[a]
            active[a] = w
            slot[w] = a
            new_slot[w] = -1
        width = after
    return (
        order,
        ordered_sizes,
        touch_start,
        touch_before[:touches].copy(),
        touch_after[:touches].copy(),
        touch_target[:touches].copy(),
        touch_capacity[:touches].copy(),
        carry_start,
        carry_pairs[: 2 * carries].copy(),
        widths,
    )


@kernel(cache=True, part="solver", nogil=True)
def _order_cost(group_start, group_witnesses, per, sizes, targets, order):  # pragma: no cover
    """About how many states counting in ``order`` makes: an upper bound, layer by layer.

    After each step, an open number can still need as many different
    amounts as the mines its counted groups may hold: at least its target
    less what its later groups can hold, at most its target and what its
    counted groups can hold. A layer holds at most the product of those.
    """
    k = per.shape[0] - 1
    capacity = np.zeros(k, np.int64)
    for g in range(order.shape[0]):
        for j in range(group_start[g], group_start[g + 1]):
            capacity[group_witnesses[j]] += sizes[g]
    placed = np.zeros(k, np.int64)
    remaining = per[1:] - per[:k]
    opened = np.zeros(k, np.bool_)
    open_list = np.zeros(k, np.int64)
    width = 0
    total = 0.0
    for position in range(order.shape[0]):
        g = order[position]
        for j in range(group_start[g], group_start[g + 1]):
            w = group_witnesses[j]
            remaining[w] -= 1
            placed[w] += sizes[g]
            if remaining[w] and not opened[w]:
                opened[w] = True
                open_list[width] = w
                width += 1
        layer = 1.0
        kept = 0
        for a in range(width):
            w = open_list[a]
            if remaining[w] == 0:
                opened[w] = False
                continue
            open_list[kept] = w
            kept += 1
            low = max(0, targets[w] - (capacity[w] - placed[w]))
            high = min(targets[w], placed[w])
            layer *= max(1, high - low + 1)
        width = kept
        total += layer
    return total


@kernel(cache=True, part="solver", nogil=True)
def _best_order(  # pragma: no cover - compiled
    group_start, group_witnesses, per, by_witness, sizes, targets, first, tries
):
    """The cheapest of ``tries`` greedy orders: ``first``, then from other starts.

    The other starts are the far end of ``first``'s start and groups spread
    evenly over the component; cheapest by :func:`_order_cost` (a tie keeps
    the earlier order).
    """
    n = group_start.shape[0] - 1
    best = first
    best_cost = _order_cost(group_start, group_witnesses, per, sizes, targets, first)
    for attempt in range(1, tries):
        if attempt == 1:
            start = _far_end(group_start, group_witnesses, per, by_witness, first[0])
        else:
            start = ((attempt - 2) * n) // max(1, tries - 2)
        order = _greedy_order(group_start, group_witnesses, per, by_witness, start)
        cost = _order_cost(group_start, group_witnesses, per, sizes, targets, order)
        if cost < best_cost:
            best, best_cost = order, cost
    return best


@kernel(
    types.UniTuple(types.int64[::1], 10)(_index, _index, _index, _index, types.int64, types.int64),
    cache=True,
    part="solver",
    nogil=True,
)
def plan_component(  # pragma: no cover - compiled
    group_start, group_witnesses, sizes, targets, ignored, tries
):
    """Order a component's groups and work out how each step reads the state.

    Group ``g`` has ``sizes[g]`` squares and touches the numbers
    ``group_witnesses[group_start[g]:group_start[g + 1]]`` (ids into
    ``targets``); the number ``ignored`` (-1: none) is left out.

    The order keeps few numbers open at a time: the counting state holds the
    numbers touching groups on both sides of the current position, so each
    step takes, among the groups next to an open number, the one that leaves
    the fewest open (closing the most, opening the fewest; the lowest index
    on a tie), starting from a far end of the frontier: the last group a
    breadth-first search from group 0 reaches. With ``tries`` above one, the
    narrowest of that many such orders from different starts is kept (for
    components whose first order is too wide to count).

    Returns the order, then the arrays :func:`count_component` takes (its
    ``sizes`` in that order, ``touch_*``, ``carry_*``, ``widths``).
    """
    n = sizes.shape[0]
    k = targets.shape[0]
    order = np.arange(n)
    if n > 2:
        per, by_witness = groups_by_number(group_start, group_witnesses, k)
        start = _far_end(group_start, group_witnesses, per, by_witness, 0)
        order = _greedy_order(group_start, group_witnesses, per, by_witness, start)
        if tries > 1:
            order = _best_order(
                group_start, group_witnesses, per, by_witness, sizes, targets, order, tries
            )
    return _state_steps(group_start, group_witnesses, sizes, targets, ignored, order)
