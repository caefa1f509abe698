"""Board: what the player has revealed of a :class:`~minesweep.Minefield`.

The state is one byte a square, a :class:`CellState`. :meth:`Board.reveal`
follows the LeetCode 529 rule exactly (a blank square opens its neighbours,
and blanks found that way spread further), with flags: a flagged square is
neither opened nor passed through.

>>> from minesweep import Minefield
>>> board = Board(Minefield.from_text("*...\\n....\\n....\\n"))
>>> board.reveal(2, 3)
Reveal(opened=11, exploded=False)
>>> print(board)
#1..
11..
....
>>> board.reveal(0, 0).exploded
True
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final, final

import numpy as np
import numpy.typing as npt

from .errors import GameOverError, InvalidBoardError, InvalidClickError
from .field import Minefield, adjacent_counts, check_position, leetcode_codes, position_pair
from .leetcode import LeetCodeBoard

__all__ = ["Board", "CellState", "Reveal"]


class CellState(IntEnum):
    """What the player sees of one square; stored as one byte."""

    HIDDEN = 0
    #: Hidden and marked "?"; a flood opens it as it opens any hidden square.
    QUESTIONED = 1
    #: Hidden and flagged as a mine; never opened, and floods stop at it.
    FLAGGED = 2
    REVEALED = 3
    #: A revealed mine: the game is lost.
    EXPLODED = 4


# A state no square keeps: a flood that must report its cells marks them with
# it, and the board turns them into REVEALED once it has collected them.
_OPENING: Final = 5
# Plain ints of the states for numpy: comparing an array with an IntEnum
# member takes numpy's slow path for Python objects, several µs a time.
_HIDDEN: Final = int(CellState.HIDDEN)
_FLAGGED: Final = int(CellState.FLAGGED)
_REVEALED: Final = int(CellState.REVEALED)
_EXPLODED: Final = int(CellState.EXPLODED)

# ASCII codes, for converting LeetCode boards in bulk.
_CODE = {symbol: ord(symbol) for symbol in "MEBX"}
_LEETCODE_DIGITS: Final = np.frombuffer(b"B12345678", np.uint8)
#: Symbols of str(board): the player's view, mines hidden.
_VIEW_SYMBOLS: Final = {
    CellState.HIDDEN: "#",
    CellState.QUESTIONED: "?",
    CellState.FLAGGED: "F",
    CellState.EXPLODED: "X",
}


@dataclass(frozen=True, slots=True)
class Reveal:
    """What one reveal did.

    ``opened`` counts the squares it revealed (none when it hit a mine).
    ``cells``, present only when asked for, lists every square whose state it
    changed, as an ``(n, 2)`` array of ``(row, col)``: the clicked square
    first, so a front end can redraw exactly those.
    """

    opened: int
    exploded: bool
    cells: npt.NDArray[np.int64] | None = field(default=None, repr=False, compare=False)


@final
class Board:
    """The player's progress on a minefield: one :class:`CellState` a square.

    A new board has every square hidden. Pass ``state`` (anything numpy reads
    as a 2-D array of CellState values) to start from a position; it is
    copied and checked against the field.
    """

    __slots__ = ("_exploded_at", "_field", "_revealed", "_state")

    def __init__(self, field: Minefield, state: npt.ArrayLike | None = None) -> None:
        if not isinstance(field, Minefield):
            raise InvalidBoardError(f"field must be a Minefield, got {type(field).__name__}")
        self._field = field
        self._exploded_at: tuple[int, int] | None = None
        self._revealed = 0
        if state is None:
            self._state = np.zeros(field.shape, np.uint8)
            return
        self._state = _checked_state(field, state)
        self._resync()

    def _resync(self) -> None:
        """Recount what the state shows, after it was written to directly (undo)."""
        exploded = np.argwhere(self._state == _EXPLODED)
        self._exploded_at = (int(exploded[0, 0]), int(exploded[0, 1])) if len(exploded) else None
        self._revealed = int(np.count_nonzero(self._state == _REVEALED))

    @classmethod
    def from_leetcode(cls, board: LeetCodeBoard) -> Board:
        """A board from a LeetCode board: ``B`` and digits revealed, ``X`` exploded.

        The digits must agree with the mines; lowercase ``m`` and ``e`` are
        accepted as flagged mine and flagged empty squares (see
        :meth:`to_leetcode`).
        """
        unflagged, flags = _without_flags(board)
        codes = leetcode_codes(unflagged)
        mines = (codes == _CODE["M"]) | (codes == _CODE["X"])
        field_ = Minefield(mines)
        state = np.full(codes.shape, _REVEALED, np.uint8)
        state[(codes == _CODE["M"]) | (codes == _CODE["E"])] = _HIDDEN
        state[codes == _CODE["X"]] = _EXPLODED
        for row, col in flags:
            state[row, col] = _FLAGGED
        shown = _LEETCODE_DIGITS[field_.numbers]
        wrong = np.argwhere((state == _REVEALED) & (codes != shown))
        if len(wrong):
            row, col = (int(v) for v in wrong[0])
            raise InvalidBoardError(
                f"board cell ({row}, {col}) shows {board[row][col]!r} but has "
                f"{field_.numbers[row, col]} adjacent mines"
            )
        return cls(field_, state)

    # --- what the board is ----------------------------------------------------

    @property
    def field(self) -> Minefield:
        return self._field

    @property
    def shape(self) -> tuple[int, int]:
        return self._field.shape

    @property
    def state(self) -> npt.NDArray[np.uint8]:
        """The state of every square, as a read-only view."""
        view = self._state.view()
        view.flags.writeable = False
        return view

    def __getitem__(self, position: tuple[int, int]) -> CellState:
        row, col = position_pair(position)
        check_position(self.shape, row, col)
        return CellState(int(self._state[row, col]))

    @property
    def revealed_count(self) -> int:
        """How many safe squares are revealed."""
        return self._revealed

    @property
    def safe_remaining(self) -> int:
        """How many safe squares are still hidden."""
        return self._field.size - self._field.mine_count - self._revealed

    @property
    def exploded_at(self) -> tuple[int, int] | None:
        """The mine that exploded, or None."""
        return self._exploded_at

    @property
    def nbytes(self) -> int:
        """Bytes held by the field's arrays and the state."""
        return self._field.nbytes + int(self._state.nbytes)

    # --- actions ----------------------------------------------------------

    def reveal(self, row: int, col: int, *, cells: bool = False) -> Reveal:
        """Reveal a hidden square, and the blank region around it if it is blank.

        With ``cells=True`` the result lists the squares that changed. The cost
        is proportional to the squares opened, whatever the board's size.
        Raises InvalidClickError for a square off the board, revealed or
        flagged, and GameOverError once a mine has exploded; either way the
        board is unchanged.
        """
        state = self._state
        rows, cols = state.shape
        # The common case cheaply; anything else gets the full check and message.
        if not (type(row) is int and type(col) is int and 0 <= row < rows and 0 <= col < cols):
            check_position((rows, cols), row, col)
        if self._exploded_at is not None:
            raise GameOverError(f"the game is over: the mine at {self._exploded_at} has exploded")
        current = state[row, col]
        if current == _REVEALED:
            raise InvalidClickError(f"square ({row}, {col}) is already revealed")
        if current == _FLAGGED:
            raise InvalidClickError(f"square ({row}, {col}) is flagged; unflag it first")
        field = self._field
        clicked = np.array([[row, col]], np.int64) if cells else None
        if field.mines[row, col]:
            state[row, col] = _EXPLODED
            self._exploded_at = (int(row), int(col))
            return Reveal(0, True, clicked)
        state[row, col] = _REVEALED
        opened = 1
        found = clicked
        if field.numbers[row, col] == 0:
            count, found = self._flood(np.array([row], np.int64), np.array([col], np.int64), cells)
            opened += count
            if clicked is not None and found is not None:
                found = np.concatenate([clicked, found])
        self._revealed += opened
        return Reveal(opened, False, found)

    def flag(self, row: int, col: int) -> None:
        """Flag a hidden (or question-marked) square."""
        self._set_mark(row, col, CellState.FLAGGED)

    def unflag(self, row: int, col: int) -> None:
        """Take a flag or question mark off a square."""
        self._set_mark(row, col, CellState.HIDDEN)

    def question(self, row: int, col: int) -> None:
        """Mark a hidden (or flagged) square with a question mark."""
        self._set_mark(row, col, CellState.QUESTIONED)

    def _set_mark(self, row: int, col: int, mark: CellState) -> None:
        check_position(self.shape, row, col)
        if self._exploded_at is not None:
            raise GameOverError(f"the game is over: the mine at {self._exploded_at} has exploded")
        if self._state[row, col] >= _REVEALED:
            raise InvalidClickError(
                f"square ({row}, {col}) is revealed; only hidden ones take marks"
            )
        self._state[row, col] = int(mark)

    def _flood(
        self, seed_rows: npt.NDArray[np.int64], seed_cols: npt.NDArray[np.int64], cells: bool
    ) -> tuple[int, npt.NDArray[np.int64] | None]:
        """Run the flood kernel from revealed blank seeds; return the count and cells."""
        from . import _kernels  # loaded at the first flood, not at import

        mark = _OPENING if cells else _REVEALED
        opened, top, bottom, left, right = _kernels.flood(
            self._field.numbers, self._state, seed_rows, seed_cols, mark
        )
        if not cells:
            return opened, None
        # The flood marked exactly its cells; they all lie in the box it reports.
        box = self._state[top : bottom + 1, left : right + 1]
        rows, cols = np.nonzero(box == _OPENING)
        box[rows, cols] = _REVEALED
        return opened, np.stack([rows + top, cols + left], axis=1).astype(np.int64)

    # --- exports and value semantics ---------------------------------------------

    def copy(self) -> Board:
        """An independent board on the same (immutable) field."""
        other = Board.__new__(Board)
        other._field = self._field
        other._state = self._state.copy()
        other._revealed = self._revealed
        other._exploded_at = self._exploded_at
        return other

    def to_leetcode(self) -> LeetCodeBoard:
        """The LeetCode board of this position (mines included, as LeetCode has them).

        Hidden squares are ``M`` or ``E``, revealed ones ``B`` or a digit, an
        exploded mine ``X``. LeetCode has no flags: a flagged square is written
        in lowercase, ``m`` or ``e``, which :meth:`from_leetcode` reads back. A
        question mark is not kept.
        """
        mines = self._field.mines
        symbols = np.where(mines, np.uint8(_CODE["M"]), np.uint8(_CODE["E"]))
        revealed = self._state == _REVEALED
        symbols[revealed] = _LEETCODE_DIGITS[self._field.numbers[revealed]]
        symbols[self._state == _EXPLODED] = _CODE["X"]
        flagged = self._state == _FLAGGED
        symbols[flagged] += ord("a") - ord("A")
        return [list(line.tobytes().decode("ascii")) for line in symbols]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._field == other._field and bool(np.array_equal(self._state, other._state))

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        rows, cols = self.shape
        return (
            f"<Board {rows}x{cols}, {self._field.mine_count} mines, "
            f"{self._revealed} revealed{', exploded' if self._exploded_at else ''}>"
        )

    def __str__(self) -> str:
        """The player's view: ``#`` hidden, ``F`` flag, ``?``, ``.`` blank, digits, ``X``."""
        numbers = self._field.numbers
        lines = []
        for r in range(self.shape[0]):
            line = []
            for c in range(self.shape[1]):
                state = CellState(int(self._state[r, c]))
                if state == CellState.REVEALED:
                    line.append(str(numbers[r, c]) if numbers[r, c] else ".")
                else:
                    line.append(_VIEW_SYMBOLS[state])
            lines.append("".join(line))
        return "\n".join(lines)


def _checked_state(field: Minefield, state: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """A C-contiguous uint8 copy of ``state``, checked against ``field``."""
    try:
        array = np.array(state, copy=True, order="C")
    except ValueError as error:
        raise InvalidBoardError(f"state must be a rectangular 2-D array: {error}") from None
    if array.shape != field.shape:
        raise InvalidBoardError(f"state has shape {array.shape}; the field is {field.shape}")
    if array.dtype.kind not in "iu":
        raise InvalidBoardError(f"state must hold CellState values, got dtype {array.dtype}")
    bad = np.argwhere((array < 0) | (array > _EXPLODED))
    if len(bad):
        row, col = (int(v) for v in bad[0])
        raise InvalidBoardError(
            f"state of square ({row}, {col}) is {array[row, col].item()!r}; expected a CellState"
        )
    array = array.astype(np.uint8)
    mines = field.mines
    for wrong, what in (
        ((array == _REVEALED) & mines, "is a mine but revealed"),
        ((array == _EXPLODED) & ~mines, "is exploded but holds no mine"),
    ):
        where = np.argwhere(wrong)
        if len(where):
            raise InvalidBoardError(f"square ({where[0, 0]}, {where[0, 1]}) {what}")
    if np.count_nonzero(array == _EXPLODED) > 1:
        raise InvalidBoardError("more than one square is exploded")
    return array


def _without_flags(board: LeetCodeBoard) -> tuple[LeetCodeBoard, list[tuple[int, int]]]:
    """The board with its lowercase (flagged) squares in uppercase, and where they were.

    Rows without flags are shared, not copied; ``board`` itself is not changed.
    """
    if not isinstance(board, list):
        return board, []
    flags: list[tuple[int, int]] = []
    unflagged = list(board)
    for row, line in enumerate(board):
        if isinstance(line, list) and ("m" in line or "e" in line):
            unflagged[row] = [symbol.upper() if symbol in ("m", "e") else symbol for symbol in line]
            flags.extend((row, col) for col, symbol in enumerate(line) if symbol in ("m", "e"))
    return unflagged, flags


def continue_leetcode_flood(
    board: LeetCodeBoard, pending: list[tuple[int, int]], rows: int, cols: int
) -> bool:
    """Finish a LeetCode flood on arrays; used by :func:`minesweep.update_board`.

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
    from . import _kernels

    codes = np.frombuffer(data, np.uint8).reshape(rows, cols)
    numbers = adjacent_counts(codes == _CODE["M"])
    numbers.flags.writeable = False
    # Only E squares may open; everything else stops the flood, as in Python.
    state = np.where(codes == _CODE["E"], np.uint8(_HIDDEN), np.uint8(_REVEALED))
    seeds = np.array(pending, np.int64).reshape(-1, 2)
    _, top, bottom, left, right = _kernels.flood(
        numbers,
        state,
        np.ascontiguousarray(seeds[:, 0]),
        np.ascontiguousarray(seeds[:, 1]),
        _OPENING,
    )
    box = state[top : bottom + 1, left : right + 1] == _OPENING
    symbols = np.where(box, _LEETCODE_DIGITS[numbers[top : bottom + 1, left : right + 1]], 0)
    np.copyto(symbols, codes[top : bottom + 1, left : right + 1], where=~box)
    # Write back row by row, one slice assignment per changed row of the box;
    # the unchanged squares in it get their own symbols back.
    text = symbols.tobytes().decode("ascii")
    width = right - left + 1
    for r in np.flatnonzero(box.any(axis=1)).tolist():
        board[top + r][left : right + 1] = text[r * width : (r + 1) * width]
    return True


def kernels_loaded() -> bool:
    """Whether the compiled kernels are already in this process."""
    return "minesweep._kernels" in sys.modules
