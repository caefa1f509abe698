"""The field a board's first reveal lays, behind its first-click box (numba).

Bit-identical to :func:`minesweep.generate.generate_field` for the same seed,
size, count, first click and rule: the same words of the same generator
(:mod:`minesweep.rules.draw`) pick the same squares.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel
from .counts import count_around
from .draw import next_word, remainder_of, seed_pcg64
from .first_click import cleared_box

__all__ = ["lay_field"]


_ALL64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_U64_ONE = np.uint64(1)
_U64_ZERO = np.uint64(0)


# numpy's error model: no division here can be by zero, and Python's checks
# for it cost a branch per division.
@kernel(cache=True, part="vector", error_model="numpy")
def lay_field(
    mines, numbers, first, rule, count, seed_lo, seed_hi, generator, taken, picks, row_of
):  # pragma: no cover - compiled
    """``mines`` and ``numbers`` of ``generate_field(..., first_click=first, seed=...)``.

    The engine's draw, word for word: a raw word below the largest multiple of
    ``n`` names allowed square ``word % n``; repeats are skipped. Past half the
    allowed squares the draw picks the free ones instead. ``row_of[s]`` is
    square ``s``'s row (``s // cols``, looked up: divisions cost).
    """
    rows, cols = mines.shape
    first_row, first_col = first // cols, first % cols
    # The squares the rule keeps clear form a box (empty for rule none).
    top, bottom, left, right = cleared_box(rows, cols, first_row, first_col, rule)
    allowed = rows * cols - (bottom - top + 1) * (right - left + 1)
    dense = count > allowed // 2
    wanted = allowed - count if dense else count
    seed_pcg64(seed_lo, seed_hi, generator)
    n = np.uint64(allowed)
    limit = _ALL64
    reciprocal = _U64_ZERO
    if allowed > 0:
        reciprocal = _ALL64 // n
        remainder = _ALL64 - reciprocal * n
        if remainder != n - _U64_ONE:
            limit = _ALL64 - (remainder + _U64_ONE)
    taken[:allowed] = False
    needed = wanted
    # The engine draws words in batches, but keeps every word of a batch until
    # it has enough and then stops: one word at a time is the same draw.
    while needed > 0:
        word = next_word(generator)
        if word <= limit:
            pick = np.int64(remainder_of(word, n, reciprocal))
            if not taken[pick]:
                taken[pick] = True
                picks[wanted - needed] = pick
                needed -= 1
    # Rank r among the allowed squares is square r moved one on past each
    # kept square at or before it, in order.
    numbers[:, :] = 0
    mines[:, :] = dense
    if dense:
        for y in range(top, bottom + 1):
            for x in range(left, right + 1):
                mines[y, x] = False
    for k in range(wanted):
        square = picks[k]
        for y in range(top, bottom + 1):
            for x in range(left, right + 1):
                if y * cols + x <= square:
                    square += 1
        row = row_of[square]
        col = square - row * cols
        mines[row, col] = not dense
        if not dense:
            count_around(numbers, row, col)
    if dense:
        for row in range(rows):
            for col in range(cols):
                if mines[row, col]:
                    count_around(numbers, row, col)
