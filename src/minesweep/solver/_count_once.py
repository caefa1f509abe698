"""The what-if for the progress tie-break: one count for every number a square could show (numba).

The what-if (:func:`._whatif.square_outcomes`) asks, for each number a
hidden square could show, how its merged component counts when the square
is opened and shows that number: with :func:`._count.count_component`, one
count per number, each with the square's demand set to that number. Here
the square's number is counted upwards instead: its slot in the state holds
the mines placed so far next to it, with no target to meet, and where the
number closes its total moves to a slot of its own (the last one, which the
plan never uses: it has at most :data:`._count.MAX_WIDTH` open numbers, in
slots 0 to 14). The last layer then holds one state per number, and every
state's layouts are filed under the number it ends in, so one pass counts
them all.

The backward pass needs each state's completions by the number they end
in. Once the square's number has closed, a state ends in one number only;
before, in a range of them, so each state keeps its completions for that
range alone (its rows of a flat array, found before the pass).
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from ._count import _grow, _grow_rows, _pascal, _slot

__all__ = ["count_by_number", "may_turn_certain"]

#: The state's slot that holds the square's number once it has closed.
_FINAL = 15


@kernel(cache=True, part="solver", nogil=True)
def count_by_number(  # pragma: no cover - compiled
    sizes, touch_start, touch_before, touch_after, touch_target, touch_capacity, carry_start,
    carry_pairs, is_new, numbers, max_states,
):  # fmt: skip
    """Count one component's layouts for each mine count ``0..numbers - 1`` of one number.

    The arguments are :func:`._count.count_component`'s (its ``widths``
    aside), with ``is_new[t]`` marking the touches of the number counted
    upwards (its targets are not read). Returns ``W`` (``numbers x mines``:
    the layouts in which that number has that many mines around it, by
    mines in the component), ``E`` (``numbers x groups x mines``: each
    group's mines summed over those layouts), and the number of states made
    (-1 if over ``max_states``). A state's key can be negative (the last
    slot reaches the sign bit) but never -1, the hash table's empty mark:
    no slot ever holds 15.
    """
    n = sizes.shape[0]
    length = 1
    for i in range(n):
        length += sizes[i]
    pascal = _pascal()
    layer_start = np.zeros(n + 2, np.int64)
    polys = np.zeros((64, length))
    polys[0, 0] = 1.0
    layer_start[1] = 1
    keys = np.zeros(64, np.int64)
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
    # One hash table for every layer, emptied between them (rows are
    # numbered by first appearance, whatever its size).
    slots = 64
    table_keys = np.full(slots, -1, np.int64)
    table_rows = np.zeros(slots, np.int64)
    for i in range(n):
        size = sizes[i]
        if slots < 4 * (layer_start[i + 1] - layer_start[i]):
            while slots < 4 * (layer_start[i + 1] - layer_start[i]):
                slots *= 2
            table_keys = np.full(slots, -1, np.int64)
            table_rows = np.zeros(slots, np.int64)
        else:
            table_keys[:] = -1
        layer_first = rows
        move_start[i] = moves
        for row in range(layer_start[i], layer_start[i + 1]):
            key = keys[row]
            # The closed number's total rides along in its slot.
            base = key & (np.int64(15) << (4 * _FINAL))
            for j in range(carry_start[i], carry_start[i + 1]):
                source = carry_pairs[2 * j]
                target_slot = carry_pairs[2 * j + 1]
                base |= ((key >> (4 * source)) & 15) << (4 * target_slot)
            low = 0
            high = size
            count = 0
            placed = -1  # the square's number: its mines so far, if touched here
            placed_slot = -1
            for t in range(touch_start[i], touch_start[i + 1]):
                before = touch_before[t]
                after = touch_after[t]
                if is_new[t]:
                    placed = ((key >> (4 * before)) & 15) if before >= 0 else 0
                    placed_slot = after if after >= 0 else _FINAL
                    continue
                demand = ((key >> (4 * before)) & 15) if before >= 0 else touch_target[t]
                if after < 0:
                    low = max(low, demand)
                    high = min(high, demand)
                else:
                    low = max(low, demand - touch_capacity[t])
                    high = min(high, demand)
                    demand_slots[count] = after
                    demand_values[count] = demand
                    count += 1
            if placed >= 0:
                high = min(high, numbers - 1 - placed)
            for k in range(low, high + 1):
                following = base
                for j in range(count):
                    following |= (demand_values[j] - k) << (4 * demand_slots[j])
                if placed >= 0:
                    following |= np.int64(placed + k) << (4 * placed_slot)
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
                        return np.zeros((1, 1)), np.zeros((1, 1, 1)), -1
                    # Grown only when full: a call, or a row taken as an array
                    # of its own, costs reference counting on every move.
                    if rows > keys.shape[0]:
                        polys = _grow_rows(polys, rows)
                        keys = _grow(keys, rows)
                        poly_low = _grow(poly_low, rows)
                        poly_high = _grow(poly_high, rows)
                    keys[target_row] = following
                    poly_low[target_row] = length
                    poly_high[target_row] = -1
                ways = pascal[size, k]
                top = min(poly_high[row], length - 1 - k)
                for m in range(poly_low[row], top + 1):
                    value = polys[row, m]
                    if value != 0.0:
                        polys[target_row, m + k] += value * ways
                if poly_low[row] <= top:
                    poly_low[target_row] = min(poly_low[target_row], poly_low[row] + k)
                    poly_high[target_row] = max(poly_high[target_row], top + k)
                if moves == move_from.shape[0]:
                    move_from = _grow(move_from, moves + 1)
                    move_to = _grow(move_to, moves + 1)
                    move_k = _grow(move_k, moves + 1)
                move_from[moves] = row
                move_to[moves] = target_row
                move_k[moves] = k
                moves += 1
        layer_start[i + 2] = rows
    move_start[n] = moves
    layouts = np.zeros((numbers, length))
    # The numbers each state can end in, then each state's block of
    # completions (one row per number of its range).
    end_low = np.full(rows, numbers, np.int64)
    end_high = np.full(rows, -1, np.int64)
    for row in range(layer_start[n], layer_start[n + 1]):
        f = (keys[row] >> (4 * _FINAL)) & 15
        end_low[row] = f
        end_high[row] = f
        layouts[f] = polys[row]
    for move in range(moves - 1, -1, -1):
        source = move_from[move]
        target = move_to[move]
        end_low[source] = min(end_low[source], end_low[target])
        end_high[source] = max(end_high[source], end_high[target])
    block = np.zeros(rows + 1, np.int64)
    for row in range(rows):
        block[row + 1] = block[row] + max(0, end_high[row] - end_low[row] + 1)
    completions = np.zeros((block[rows], length))
    rest_low = np.full(block[rows], length, np.int64)
    rest_high = np.full(block[rows], -1, np.int64)
    for row in range(layer_start[n], layer_start[n + 1]):
        completions[block[row], 0] = 1.0
        rest_low[block[row]] = 0
        rest_high[block[row]] = 0
    mines = np.zeros((numbers, n, length))
    for i in range(n - 1, -1, -1):
        size = sizes[i]
        for move in range(move_start[i], move_start[i + 1]):
            source = move_from[move]
            target = move_to[move]
            k = move_k[move]
            ways = pascal[size, k]
            for f in range(end_low[target], end_high[target] + 1):
                there = block[target] + f - end_low[target]
                if rest_high[there] < 0:
                    continue
                here_row = block[source] + f - end_low[source]
                for m in range(rest_low[there], min(rest_high[there] + 1, length - k)):
                    value = completions[there, m]
                    if value != 0.0:
                        completions[here_row, m + k] += value * ways
                rest_low[here_row] = min(rest_low[here_row], rest_low[there] + k)
                rest_high[here_row] = max(
                    rest_high[here_row], min(rest_high[there] + k, length - 1)
                )
                if size == 0 or k == 0:
                    continue
                for a in range(poly_low[source], poly_high[source] + 1):
                    left = polys[source, a]
                    if left == 0.0:
                        continue
                    for b in range(rest_low[there], min(rest_high[there] + 1, length - a - k)):
                        right = completions[there, b]
                        if right != 0.0:
                            mines[f, i, a + b + k] += left * right * ways * k
    return layouts, mines, rows


@kernel(cache=True, part="solver", nogil=True)
def may_turn_certain(  # pragma: no cover - compiled
    untouched, lay_start, lay, size_start, mines_start, mines, length, mines_left, interior
):  # fmt: skip
    """Whether a square of the ``untouched`` components could be certainly safe after the
    what-if's opening, whose merged component spans ``length`` mine counts.

    The what-if's tie-break reads only certainty (:func:`._progress.progress_square`).
    Where every total of mines the components can hold leaves the
    ``interior`` squares a number of the ``mines_left`` they can take, each
    untouched component keeps every mine count its layouts have, whatever
    the square shows; so none of its squares turns certain unless it was
    already (no mine in any layout). The totals run over the supports: the
    merged component's whole range, the untouched ones' counts with layouts.
    """
    fewest = 0
    most = length - 1
    for i in range(untouched.shape[0]):
        k = untouched[i]
        nonzero = np.flatnonzero(lay[lay_start[k] : lay_start[k + 1]])
        fewest += nonzero[0]
        most += nonzero[-1]
    if fewest < mines_left - interior or most > mines_left:
        return True
    for i in range(untouched.shape[0]):
        k = untouched[i]
        length_k = lay_start[k + 1] - lay_start[k]
        for g in range(size_start[k + 1] - size_start[k]):
            row = mines_start[k] + g * length_k
            if not mines[row : row + length_k].any():
                return True
    return False
