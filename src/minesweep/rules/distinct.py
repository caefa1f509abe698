"""The engine's draw of distinct squares from a long batch, in one compiled pass (numba).

:func:`minesweep.generate.generate_field` draws a field's mines as raw words
from numpy's ``PCG64``; past a couple of million draws, sorting them for
their first occurrences costs seconds, and this pass keeps them instead.
Like :mod:`minesweep.rules.flood` it is compiled eagerly, at import, so it
lives apart from the vector engine's lazily compiled draw
(:mod:`minesweep.rules.draw`).
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

__all__ = ["first_untaken"]

_index_array = types.int64[::1]


@njit(
    types.int64[::1](_index_array, types.boolean[::1], types.int64),
    cache=True,
    nogil=True,
    error_model="numpy",
)
def first_untaken(candidates, taken, needed):  # pragma: no cover - compiled
    """The first ``needed`` candidates, in order, not taken yet nor seen before; marks them.

    A field's mines are drawn as random indices: this keeps each index's
    first draw, skips those already mines, and stops at the count wanted,
    in one pass (numpy's unique would sort the batch).
    """
    chosen = np.empty(min(needed, len(candidates)), np.int64)
    count = 0
    for index in candidates:
        if count == needed:
            break
        if not taken[index]:
            taken[index] = True
            chosen[count] = index
            count += 1
    return chosen[:count]
