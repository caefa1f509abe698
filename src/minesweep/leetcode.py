"""LeetCode 529 "Minesweeper": the board update after one click.

The board is a list of rows, each a list of one-character strings:

====  ==========================================================
``M``  a mine nobody has revealed yet
``E``  an empty square nobody has revealed yet
``B``  a revealed square with no mine among its eight neighbours
``1``-``8``  a revealed square and how many of its neighbours are mines
``X``  a revealed (exploded) mine: the game is over
====  ==========================================================

A click on ``M`` turns it into ``X``. A click on ``E`` reveals it: it shows the
number of mines among its eight neighbours, or ``B`` when there are none, and a
``B`` reveals every hidden neighbour in turn, so that one click opens the whole
connected blank region and the ring of numbers around it.

>>> board = [list("EEEEE"), list("EEMEE"), list("EEEEE"), list("EEEEE")]
>>> for row in update_board(board, [3, 0]):
...     print("".join(row))
B1E1B
B1M1B
B111B
BBBBB
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .errors import GameOverError, InvalidBoardError, InvalidClickError
from .squares import square_name

__all__ = ["HANDOVER", "Handover", "LeetCodeBoard", "check_leetcode_board", "update_board"]

#: A LeetCode board: a list of rows, each a list of one-character strings.
LeetCodeBoard = list[list[str]]

MINE: Final = "M"
EMPTY: Final = "E"
EXPLODED: Final = "X"
#: The symbol of a revealed square with ``i`` adjacent mines is ``REVEALED[i]``.
REVEALED: Final = ("B", "1", "2", "3", "4", "5", "6", "7", "8")
#: Every symbol a board may hold while the game is still on.
PLAYABLE_SYMBOLS: Final = frozenset("MEB12345678")
#: Every symbol of the notation, the exploded mine included.
BOARD_SYMBOLS: Final = PLAYABLE_SYMBOLS | {EXPLODED}


def update_board(
    board: LeetCodeBoard,
    click: Sequence[int],
    *,
    check: bool = True,
    handover: Handover | None = None,
) -> LeetCodeBoard:
    """Apply one click to ``board`` in place, following LeetCode 529, and return it.

    ``click`` is ``[row, col]`` (a list or tuple of two ints) on a hidden
    square (``M`` or ``E``). The function returns the very list it was given.

    Bad input raises :class:`~minesweep.InvalidBoardError`,
    :class:`~minesweep.InvalidClickError` or :class:`~minesweep.GameOverError`
    (all ``ValueError``) and leaves the board exactly as it was.

    With ``check=True`` (the default) every cell is checked before anything
    changes, which costs a pass over the whole board. With ``check=False`` that
    pass is skipped: the board must be a non-empty list whose first row is a
    non-empty list, the click is checked as always, and every row the reveal
    actually reaches is checked for its type and length as it is reached (a bad
    one rolls back what the click had written and raises). A click that opens
    ``k`` squares then costs ``O(k)`` whatever the board's size. The price: a
    bad cell value or a stray ``X`` elsewhere on the board goes unnoticed, and
    the squares next to it are revealed as if it were not a mine; what such a
    board becomes is unspecified.

    ``handover`` says when a big opening leaves Python for the compiled flood
    the game's Board uses (:class:`Handover`; :data:`HANDOVER` by default).
    Both give the same board.

    >>> update_board([["E", "M"]], (0, 1))
    [['E', 'X']]
    """
    rows, cols = _board_dimensions(board)
    row, col = _click_position(click, rows, cols)
    if check:
        _check_every_cell(board, cols)
        checked = (0, rows - 1)
    else:
        # Rows up to two away are read to reveal the clicked square's
        # neighbours; check them now, and any further rows as they are reached.
        checked = _widen_checked_band(board, row, cols, row, row - 1, rows - 1)

    symbol = board[row][col]
    if symbol == MINE:
        board[row][col] = EXPLODED
    elif symbol == EMPTY:
        # Whether the kernels are loaded is a fact of the process: loading
        # them has a cost that a small opening does not earn.
        budget = (handover or HANDOVER).budget(
            rows, cols, checked=check, warm="minesweep.rules.flood" in sys.modules
        )
        _reveal_region(board, row, col, rows, cols, checked, budget, journal=None if check else [])
    elif symbol == EXPLODED:
        raise GameOverError(f"the game is over: the mine at {square_name(row, col)} has exploded")
    elif isinstance(symbol, str) and symbol in PLAYABLE_SYMBOLS:  # a list is unhashable
        raise InvalidClickError(
            f"the click at {square_name(row, col)} is on a revealed square {symbol!r}; "
            "expected 'E' or 'M'"
        )
    else:
        raise InvalidBoardError(f"board cell at {square_name(row, col)} is {symbol!r}; {_ALPHABET}")
    return board


_ALPHABET = "expected one of 'M', 'E', 'B', 'X', '1'-'8'"


def _board_dimensions(board: object) -> tuple[int, int]:
    """Rows and columns of ``board``, from its length and its first row's."""
    if not isinstance(board, list):
        raise InvalidBoardError(f"board must be a list of rows, got {_typed(board)}")
    if not board:
        raise InvalidBoardError("board is empty; expected at least one row")
    first = board[0]
    if not isinstance(first, list):
        raise InvalidBoardError(f"board row 1 must be a list, got {_typed(first)}")
    if not first:
        raise InvalidBoardError("board row 1 is empty; expected at least one column")
    return len(board), len(first)


def check_leetcode_board(board: object, *, allow_exploded: bool = False) -> tuple[int, int]:
    """Check every cell of a LeetCode board and return its ``(rows, cols)``.

    Raises InvalidBoardError for a malformed board, and GameOverError for an
    ``X`` unless ``allow_exploded`` is true.
    """
    rows, cols = _board_dimensions(board)
    _check_every_cell(board, cols, allow_exploded=allow_exploded)  # type: ignore[arg-type]
    return rows, cols


def _check_row(board: LeetCodeBoard, row: int, cols: int) -> None:
    """Raise unless ``board[row]`` is a list of ``cols`` cells."""
    line: object = board[row]
    if not isinstance(line, list):
        raise InvalidBoardError(f"board row {row + 1} must be a list, got {_typed(line)}")
    if len(line) != cols:
        cells = "cell" if len(line) == 1 else "cells"
        raise InvalidBoardError(
            f"board row {row + 1} has {len(line)} {cells}; expected {cols} like row 1"
        )


def _check_every_cell(board: LeetCodeBoard, cols: int, *, allow_exploded: bool = False) -> None:
    """Raise unless every row has ``cols`` cells and every cell is a playable symbol.

    The fast path lets C do the work: ``frozenset.issuperset`` on each row,
    far faster than any pure-Python scan. Only when that finds something
    wrong does a slow scan run to say exactly what and where.
    """
    symbols = BOARD_SYMBOLS if allow_exploded else PLAYABLE_SYMBOLS
    try:
        if all(type(line) is list and len(line) == cols for line in board) and all(
            map(symbols.issuperset, board)
        ):
            return
    except TypeError:  # an unhashable cell such as a list; the scan below names it
        pass
    for row, line in enumerate(board):
        _check_row(board, row, cols)
        for col, symbol in enumerate(line):
            if symbol in symbols if isinstance(symbol, str) else False:
                continue
            if symbol == EXPLODED:
                raise GameOverError(
                    f"the game is over: the mine at {square_name(row, col)} has exploded"
                )
            raise InvalidBoardError(
                f"board cell at {square_name(row, col)} is {symbol!r}; {_ALPHABET}"
            )


def _click_position(click: object, rows: int, cols: int) -> tuple[int, int]:
    """The ``(row, col)`` of ``click``, checked against a ``rows`` x ``cols`` board."""
    # The common case first and cheaply: a click is part of every call.
    if isinstance(click, (list, tuple)) and len(click) == 2:
        row, col = click
        if type(row) is int and type(col) is int and 0 <= row < rows and 0 <= col < cols:
            return row, col
    if not isinstance(click, (list, tuple)) or len(click) != 2:
        raise InvalidClickError(f"click must be a list or tuple [row, col], got {click!r}")
    position = []
    for axis, value, size in (("row", click[0], rows), ("column", click[1], cols)):
        # Anything with __index__ (int, numpy integers) is an index, except
        # bool: a click [True, 0] is surely a mistake.
        try:
            if isinstance(value, bool):
                raise TypeError
            index = operator.index(value)
        except TypeError:
            raise InvalidClickError(
                f"click {axis} must be an int, got {value!r} ({type(value).__name__})"
            ) from None
        if not 0 <= index < size:
            raise InvalidClickError(
                f"click {axis} {index} is outside the board; expected 0 to {size - 1}"
            )
        position.append(index)
    return position[0], position[1]


def _reveal_region(
    board: LeetCodeBoard,
    row: int,
    col: int,
    rows: int,
    cols: int,
    checked: tuple[int, int],
    budget: int,
    journal: list[tuple[int, int]] | None,
) -> None:
    """Reveal the hidden empty square ``(row, col)`` and, if it is blank, its region.

    A square gets its final symbol the moment it is revealed, and only blank
    squares go on the stack to have their neighbours revealed. Writing the
    symbol at once is what keeps a square from being revealed twice, so no
    visited set is needed, and the stack only ever holds blank squares.

    Rows ``checked[0]`` to ``checked[1]`` are known to be lists of ``cols``
    cells; rows outside that band are checked before they are read. When a
    check fails, the squares listed in ``journal`` are hidden again.
    """
    lo, hi = checked
    last_row = rows - 1
    if (row - 2 < lo and lo) or (row + 2 > hi and hi < last_row):
        checked = _widen_checked_band(board, row, cols, lo, hi, last_row)
    start = col - 1 if col else 0
    mines = board[row][start : col + 2].count(MINE)
    if row:
        mines += board[row - 1][start : col + 2].count(MINE)
    if row < last_row:
        mines += board[row + 1][start : col + 2].count(MINE)
    board[row][col] = REVEALED[mines]
    if mines:
        return
    if journal is not None:
        journal.append((row, col))
    try:
        _spread(board, [(row, col)], rows, cols, checked, budget, journal)
    except InvalidBoardError:
        if journal is not None:
            for r, c in journal:
                board[r][c] = EMPTY
        raise


def _spread(
    board: LeetCodeBoard,
    stack: list[tuple[int, int]],
    rows: int,
    cols: int,
    checked: tuple[int, int],
    budget: int,
    journal: list[tuple[int, int]] | None,
) -> None:
    """Reveal the hidden neighbours of the revealed blank squares on ``stack``, and so on.

    The hot path of every click, so it is written for CPython: locals instead
    of helper calls (it walks the 3x3 with ranges, not grid.neighbours), and
    slices with list.count to count mines in C. A slice clamps its upper end
    to the row, but a start of -1 would wrap around to the last column, hence
    the care at the left. Squares it reveals go on ``journal`` when given.
    After ``budget`` blank squares expanded (-1: never) it hands over to arrays.
    """
    lo, hi = checked
    last_row = rows - 1
    expanded = 0
    while stack:
        # The opening is big: finish it on arrays, if the board converts (it
        # always does once fully checked).
        if expanded == budget and _continue_on_arrays(board, stack, rows, cols):
            return
        expanded += 1
        r, c = stack.pop()
        # Revealing a neighbour of (r, c) means counting the mines around it,
        # which reads rows r - 2 to r + 2.
        if (r - 2 < lo and lo) or (r + 2 > hi and hi < last_row):
            lo, hi = _widen_checked_band(board, r, cols, lo, hi, last_row)
        left = c - 1 if c else 0
        right = c + 2 if c + 2 <= cols else cols
        for nr in range(r - 1 if r else 0, r + 2 if r < last_row else rows):
            line = board[nr]
            above = board[nr - 1] if nr else None
            below = board[nr + 1] if nr < last_row else None
            for nc in range(left, right):
                if line[nc] != EMPTY:
                    continue
                start = nc - 1 if nc else 0
                mines = line[start : nc + 2].count(MINE)
                if above is not None:
                    mines += above[start : nc + 2].count(MINE)
                if below is not None:
                    mines += below[start : nc + 2].count(MINE)
                line[nc] = REVEALED[mines]
                if journal is not None:
                    journal.append((nr, nc))
                if not mines:
                    stack.append((nr, nc))


# When update_board hands a growing opening over to the compiled flood kernel,
# the one flood the game's Board uses. Both give the same board; this Python
# flood is kept because it is the cheaper one for what most clicks open: on
# boards of the sizes people play, several times cheaper even with the kernels
# loaded. Handing over means converting the whole board to bytes and back (a
# cost per square of the board) and, the first time in a process, loading numba
# and the kernels; the Python flood costs per blank square expanded. So the
# hand-over waits until the Python flood has expanded a share of the board's
# size: the work done is then at most about twice the cheaper of the two ways,
# and a click stays O(opened). A checked click has already read every square,
# so its share is smaller; before the kernels are loaded in the process,
# loading them has to be earned first. BENCHMARKS.md and
# benchmarks/bench_update_board.py hold the measurements.
@dataclass(frozen=True, slots=True)
class Handover:
    """When a flood leaves Python for the compiled kernel (see the comment above).

    ``update_board(..., handover=...)`` takes one; :data:`HANDOVER` is the
    measured default. A board of fewer than ``min_cells`` squares never hands
    over; otherwise the flood does after expanding ``cells // cells_per_expanded``
    blank squares (``cells_per_expanded_unchecked`` for a click that skipped
    the full check), at least ``min_expanded``, and at least ``cold_expanded``
    while the kernels are not loaded in the process.

    >>> HANDOVER.budget(16, 30, checked=True, warm=True)
    -1
    >>> HANDOVER.budget(1000, 1000, checked=True, warm=True)
    976
    """

    min_cells: int = 512
    min_expanded: int = 64
    cells_per_expanded: int = 1024
    cells_per_expanded_unchecked: int = 64
    cold_expanded: int = 100_000

    def budget(self, rows: int, cols: int, *, checked: bool, warm: bool) -> int:
        """Blank squares to expand in Python before switching to arrays; -1: never."""
        cells = rows * cols
        if cells < self.min_cells:
            return -1
        share = self.cells_per_expanded if checked else self.cells_per_expanded_unchecked
        budget = max(self.min_expanded, cells // share)
        if not warm:
            budget = max(budget, self.cold_expanded)
        return budget


#: The measured hand-over (BENCHMARKS.md, benchmarks/bench_update_board.py).
HANDOVER: Final = Handover()
#: Never hand over: the flood stays in Python (the reference the arrays are tested against).
PYTHON_ONLY: Final = Handover(min_cells=sys.maxsize)
#: Hand over at once, on any board (tests of the array path).
ARRAYS_AT_ONCE: Final = Handover(0, 1, sys.maxsize, sys.maxsize, 1)


def _continue_on_arrays(
    board: LeetCodeBoard, pending: list[tuple[int, int]], rows: int, cols: int
) -> bool:
    """Finish a flood on arrays, with the compiled kernel the game's board uses.

    ``pending`` lists revealed blank squares whose neighbours are still to be
    revealed. Returns False, having changed nothing, if the board does not
    convert cleanly to bytes (which only a board that skipped the full check
    can fail); the caller then carries on in Python.
    """
    if not all(type(line) is list and len(line) == cols for line in board):
        return False
    try:
        data = "".join(["".join(line) for line in board]).encode("ascii")
    except (TypeError, UnicodeEncodeError):
        return False
    if len(data) != rows * cols:
        return False
    # Loaded here, not at import: ``import minesweep`` must not load numpy.
    import numpy as np

    from .grid import adjacent_counts
    from .rules import flood as _flood
    from .squares import STATE_HIDDEN, STATE_OPENING, STATE_REVEALED

    codes = np.frombuffer(data, np.uint8).reshape(rows, cols)
    numbers = adjacent_counts(codes == ord(MINE))
    numbers.flags.writeable = False
    # Only E squares may open; everything else stops the flood, as in Python.
    state = np.where(codes == ord(EMPTY), np.uint8(STATE_HIDDEN), np.uint8(STATE_REVEALED))
    seeds = np.array(pending, np.int64).reshape(-1, 2)
    _, top, bottom, left, right = _flood.flood(
        numbers,
        state,
        np.ascontiguousarray(seeds[:, 0]),
        np.ascontiguousarray(seeds[:, 1]),
        STATE_OPENING,
    )
    box = state[top : bottom + 1, left : right + 1] == STATE_OPENING
    digits = np.frombuffer("".join(REVEALED).encode("ascii"), np.uint8)
    symbols = np.where(box, digits[numbers[top : bottom + 1, left : right + 1]], 0)
    np.copyto(symbols, codes[top : bottom + 1, left : right + 1], where=~box)
    # Write back row by row, one slice assignment per changed row of the box;
    # the unchanged squares in it get their own symbols back.
    text = symbols.tobytes().decode("ascii")
    width = right - left + 1
    for r in np.flatnonzero(box.any(axis=1)).tolist():
        board[top + r][left : right + 1] = text[r * width : (r + 1) * width]
    return True


def _widen_checked_band(
    board: LeetCodeBoard, row: int, cols: int, lo: int, hi: int, last_row: int
) -> tuple[int, int]:
    """Check rows up to two away from ``row`` and return the new checked band."""
    new_lo = row - 2 if row > 2 else 0
    new_hi = row + 2 if row + 2 < last_row else last_row
    for r in range(new_lo, new_hi + 1):
        if not lo <= r <= hi:
            _check_row(board, r, cols)
    return (new_lo if new_lo < lo else lo), (new_hi if new_hi > hi else hi)


def _typed(value: object) -> str:
    """A bad value for a message: its type and its repr, cut short if long."""
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{type(value).__name__} {text}"
