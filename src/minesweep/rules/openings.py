"""What 3BV counts: openings, their borders, lone numbers and islands (numba).

An **opening** is a group (eight neighbours) of safe squares with no
adjacent mine; its **border** the numbers around it, which one click on the
opening opens too. A **lone number** is a safe number on no opening's
border: one click (one 3BV) of its own. **Islands** are the groups of lone
numbers. 3BV is the openings plus the lone numbers.

:func:`openings_of` computes them all; :func:`minesweep.stats.board_stats`
(a field's 3BV, openings and islands) and the replay machine's board
(:mod:`minesweep.replays._kernels.board`, which goes on to ZiNi) both call
it. It scans row-major: openings are numbered in the order of their first
square. The replay machine needs ms-toollib's column-major numbering (it
decides ZiNi's ties) and hands it the board transposed, which numbers the
same openings column by column; the counts are the same either way.

Kernels of the ``replays`` part (:mod:`minesweep._jit`): the replay
statistics are their main caller, interpreted until that part is compiled.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .._jit import kernel

__all__ = ["Openings", "count_islands", "label_openings", "lone_numbers", "openings_of"]

Array = Any  # numpy arrays; numba types them from the call


class Openings(NamedTuple):
    """:func:`openings_of`'s answer, on the board's ``(rows, cols)`` grid."""

    #: A safe 0's opening (1, 2, ...); a border number's first opening (its
    #: lowest label); 0 elsewhere.
    opening: npt.NDArray[np.int32]
    #: A border number's second opening, if it borders two or more (0 else);
    #: ``(0, 0)`` unless asked for.
    second: npt.NDArray[np.int32]
    #: The lone numbers.
    lone: npt.NDArray[np.bool_]
    openings: int
    lone_count: int
    islands: int


@kernel(cache=True, part="replays", nogil=True, error_model="numpy")
def label_openings(
    numbers: Array, mines: Array, opening: Array, second: Array
) -> int:  # pragma: no cover - compiled
    """Number the openings 1, 2, ... in row-major order of their first square; how many.

    ``opening`` (zeros in) gets each safe 0's opening and each border
    number's first; ``second``, unless it is empty, each border number's
    second (ZiNi's premium counts up to two, as zini.rs keeps them). The
    openings are filled one at a time, each completely before the next, so a
    border number meets them in label order: its first and second are its
    two lowest labels.
    """
    rows, cols = numbers.shape
    with_second = second.shape[0] > 0
    # Each square is pushed once at most, as its row and its column (a
    # division a square would cost more). np.empty takes no memory until
    # written: a stack as large as the board costs what the flood uses.
    stack = np.empty(2 * rows * cols, np.int64)
    count = 0
    for y0 in range(rows):
        for x0 in range(cols):
            if mines[y0, x0] or numbers[y0, x0] or opening[y0, x0]:
                continue
            count += 1
            opening[y0, x0] = count
            stack[0] = y0
            stack[1] = x0
            top = 2
            while top:
                top -= 2
                y, x = stack[top], stack[top + 1]
                for yy in range(max(y - 1, 0), min(y + 2, rows)):
                    for xx in range(max(x - 1, 0), min(x + 2, cols)):
                        if numbers[yy, xx]:
                            if opening[yy, xx] == 0:
                                opening[yy, xx] = count
                            elif with_second and opening[yy, xx] != count and not second[yy, xx]:
                                second[yy, xx] = count
                        elif opening[yy, xx] == 0:
                            opening[yy, xx] = count
                            stack[top] = yy
                            stack[top + 1] = xx
                            top += 2
    return count


@kernel(cache=True, part="replays", nogil=True, error_model="numpy")
def lone_numbers(mines: Array, opening: Array, lone: Array) -> int:  # pragma: no cover - compiled
    """Mark in ``lone`` the safe squares on no opening nor its border; how many."""
    rows, cols = mines.shape
    count = 0
    for y in range(rows):
        for x in range(cols):
            if not mines[y, x] and opening[y, x] == 0:
                lone[y, x] = True
                count += 1
    return count


@kernel(cache=True, part="replays", nogil=True, error_model="numpy")
def count_islands(lone: Array) -> int:  # pragma: no cover - compiled
    """How many groups (eight neighbours) the lone numbers make.

    Its own flood, not :func:`label_openings` on a board made of the lone
    numbers: making that board cost the replay batch 0.5 us a file.
    """
    rows, cols = lone.shape
    seen = np.zeros((rows, cols), np.bool_)
    stack = np.empty(2 * rows * cols, np.int64)  # as label_openings'
    islands = 0
    for y0 in range(rows):
        for x0 in range(cols):
            if not lone[y0, x0] or seen[y0, x0]:
                continue
            islands += 1
            seen[y0, x0] = True
            stack[0] = y0
            stack[1] = x0
            top = 2
            while top:
                top -= 2
                y, x = stack[top], stack[top + 1]
                for yy in range(max(y - 1, 0), min(y + 2, rows)):
                    for xx in range(max(x - 1, 0), min(x + 2, cols)):
                        if lone[yy, xx] and not seen[yy, xx]:
                            seen[yy, xx] = True
                            stack[top] = yy
                            stack[top + 1] = xx
                            top += 2
    return islands


@kernel(cache=True, part="replays", nogil=True, error_model="numpy")
def openings_of(
    numbers: Array, mines: Array, with_second: bool
) -> Openings:  # pragma: no cover - compiled
    """The openings, lone numbers and islands of a board (:class:`Openings`).

    ``numbers`` counts each safe square's adjacent mines (a mine's own is
    not read), ``mines`` is the mine mask; ``with_second`` asks for each
    border number's second opening too.
    """
    rows, cols = mines.shape
    opening = np.zeros((rows, cols), np.int32)
    second = np.zeros((rows, cols) if with_second else (0, 0), np.int32)
    count = label_openings(numbers, mines, opening, second)
    lone = np.zeros((rows, cols), np.bool_)
    lone_count = lone_numbers(mines, opening, lone)
    islands = count_islands(lone) if lone_count else 0
    return Openings(opening, second, lone, count, lone_count, islands)
