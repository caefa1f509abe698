"""ms-toollib's count of whole openings around a chord when a flag sits on a 0 of one of them.

A quirk kept for ms-toollib parity: its ``op_num_around_cell`` runs one
search from each hidden 0 around the chorded square; the searches share
their marks and stop at a flagged 0, so the count depends on the order they
visit squares in. That order is followed here literally; without a flag the
mouse machine counts the board's opening labels instead (the same answer).

Not a rule of :mod:`minesweep.rules`: no rule needs a search that stops at a
flag and whose answer hangs on its order, and the project's own count of the
openings a chord opens (the labels of :func:`minesweep.rules.openings.openings_of`)
is order-free. The quirk is ms-toollib's, so it stays in the replay machine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._jit import kernel
from .codes import FLAG, HIDDEN

__all__ = ["openings_around_literally"]

Array = Any  # numpy arrays; numba types them from the call


@kernel(cache=True, part="replays", nogil=True)
def openings_around_literally(
    number_of: Array, row_of: Array, col_of: Array, gb: Array, k: int, rows: int, cols: int
) -> int:  # pragma: no cover - compiled
    """op_num_around_cell with a flag on some 0 of an opening around ``k``.

    ms-toollib's searches share their marks and may stop early, so their
    answer depends on the search order; this follows it.
    """
    marked = np.zeros(gb.shape[0], np.bool_)
    stack = np.empty(8 * gb.shape[0] + 8, np.int64)
    whole = 0
    r, c = row_of[k], col_of[k]
    for i in range(max(r - 1, 0), min(r + 2, rows)):
        for j in range(max(c - 1, 0), min(c + 2, cols)):
            start = i * cols + j
            if gb[start] != HIDDEN or number_of[start] != 0 or marked[start]:
                continue
            complete = True
            stack[0] = start
            top = 1
            while top:
                top -= 1
                here = stack[top]
                if number_of[here] != 0:
                    continue
                if gb[here] == FLAG:
                    complete = False
                    break
                marked[here] = True
                hr, hc = row_of[here], col_of[here]
                for a in range(max(hr - 1, 0), min(hr + 2, rows)):
                    for b in range(max(hc - 1, 0), min(hc + 2, cols)):
                        n = a * cols + b
                        if n != here and not marked[n]:
                            # A square may be pushed more than once (marked
                            # when popped, as ms-toollib does): grow if needed.
                            if top == stack.shape[0]:
                                bigger = np.empty(2 * top, np.int64)
                                bigger[:top] = stack
                                stack = bigger
                            stack[top] = n
                            top += 1
            if complete:
                whole += 1
    return whole
