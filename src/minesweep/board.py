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

from dataclasses import dataclass, field
from typing import Final, final

import numpy as np
import numpy.typing as npt

from .errors import GameOverError, InvalidBoardError, InvalidClickError
from .field import Minefield, leetcode_codes
from .grid import check_position, position_pair
from .leetcode import REVEALED, LeetCodeBoard
from .squares import (
    GLYPH_EXPLODED,
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_QUESTION,
    MAX_NUMBER,
    STATE_EXPLODED,
    STATE_FLAGGED,
    STATE_HIDDEN,
    STATE_OPENING,
    STATE_REVEALED,
    VIEW_SYMBOLS,
    CellState,
    square_name,
)

__all__ = ["Board", "CellState", "Reveal", "shown"]

#: The largest CellState value; anything above it is no state a square keeps.
_STATE_MAX: Final = int(max(CellState))
# ASCII codes, for converting LeetCode boards in bulk.
_CODE = {symbol: ord(symbol) for symbol in "MEBX"}
_LEETCODE_DIGITS: Final = np.frombuffer("".join(REVEALED).encode("ascii"), np.uint8)
#: The glyph str(board) draws for each CellState, indexed by state: the
#: player's view, mines hidden. A revealed square shows its number instead.
_STATE_GLYPHS: Final = np.array(
    [
        {
            CellState.HIDDEN: GLYPH_HIDDEN,
            CellState.QUESTIONED: GLYPH_QUESTION,
            CellState.FLAGGED: GLYPH_FLAG,
            CellState.REVEALED: 0,  # replaced by the square's number
            CellState.EXPLODED: GLYPH_EXPLODED,
        }[CellState(state)]
        for state in range(_STATE_MAX + 1)
    ],
    np.uint8,
)
#: How many numbers a square may have, 0 to 8.
_NUMBERS: Final = MAX_NUMBER + 1
#: What a square shows by its state and number, at ``state * _NUMBERS + number``:
#: one lookup a square (numpy's take), where a mask and a choice cost three passes.
_SHOWN: Final = np.array(
    [
        number if state == STATE_REVEALED else _STATE_GLYPHS[state]
        for state in range(_STATE_MAX + 1)
        for number in range(_NUMBERS)
    ],
    np.uint8,
)
#: The one view alphabet (see minesweep.squares), as bytes to index.
_VIEW_BYTES: Final = np.frombuffer(VIEW_SYMBOLS.encode("ascii"), np.uint8)


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
        """Recount what the state shows, after it was written to as a whole."""
        exploded = np.argwhere(self._state == STATE_EXPLODED)
        self._exploded_at = (int(exploded[0, 0]), int(exploded[0, 1])) if len(exploded) else None
        self._revealed = int(np.count_nonzero(self._state == STATE_REVEALED))

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
        state = np.full(codes.shape, STATE_REVEALED, np.uint8)
        state[(codes == _CODE["M"]) | (codes == _CODE["E"])] = STATE_HIDDEN
        state[codes == _CODE["X"]] = STATE_EXPLODED
        for row, col in flags:
            state[row, col] = STATE_FLAGGED
        shown = _LEETCODE_DIGITS[field_.numbers]
        wrong = np.argwhere((state == STATE_REVEALED) & (codes != shown))
        if len(wrong):
            row, col = (int(v) for v in wrong[0])
            raise InvalidBoardError(
                f"board cell at {square_name(row, col)} shows {board[row][col]!r} but has "
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

    def restore(self, squares: npt.ArrayLike, states: npt.ArrayLike) -> None:
        """Put squares (flat indices, row by row) into the given states, as undo needs.

        The states are written as they are, with no rule applied: it is how a
        game takes back what an action changed, or shows its end (the flags a
        win puts on every mine). Each state is checked against the field (no
        revealed mine, no exploded safe square, at most one exploded square);
        on error the board is unchanged.

        >>> board = Board(Minefield.from_text("*.\\n.."))
        >>> opened = board.reveal(1, 1)
        >>> board.restore([3], [CellState.HIDDEN])
        >>> board.revealed_count
        0
        """
        flat = np.asarray(squares, np.int64).reshape(-1)
        new = np.asarray(states).reshape(-1)
        if new.dtype.kind not in "iu":
            raise InvalidBoardError(f"restore states must be CellState values, got {new.dtype}")
        if flat.shape != new.shape:
            raise InvalidBoardError(
                f"restore needs one state a square, got {len(flat)} squares and {len(new)} states"
            )
        if not len(flat):
            return
        size = self._field.size
        if flat.min() < 0 or flat.max() >= size:
            raise InvalidBoardError(f"restore squares go from 0 to {size - 1}, got {flat.tolist()}")
        # Sorting costs what the squares number; a bincount would cost the board.
        if len(flat) > 1 and np.unique(flat).size != flat.size:
            raise InvalidBoardError(f"restore squares must be distinct, got {flat.tolist()}")
        self._check_restorable(flat, new)
        state = self._state.reshape(-1)
        old = state[flat]
        state[flat] = new
        if np.count_nonzero(old == STATE_EXPLODED) or np.count_nonzero(new == STATE_EXPLODED):
            if np.count_nonzero(state == STATE_EXPLODED) > 1:
                state[flat] = old
                raise InvalidBoardError("more than one square would be exploded; not restored")
            self._resync()
        else:
            self._revealed += int(np.count_nonzero(new == STATE_REVEALED)) - int(
                np.count_nonzero(old == STATE_REVEALED)
            )

    def _check_restorable(self, flat: npt.NDArray[np.int64], new: npt.NDArray[np.integer]) -> None:
        """Raise unless every new state is one the square can have on this field."""
        mines = self._field.mines.reshape(-1)[flat]
        revealed_mine = (new == STATE_REVEALED) & mines
        exploded_safe = (new == STATE_EXPLODED) & ~mines
        unknown = (new < 0) | (new > _STATE_MAX)
        wrong = unknown | revealed_mine | exploded_safe
        if not np.count_nonzero(wrong):
            return
        first = int(np.argmax(wrong))
        what = (
            "is not a CellState"
            if unknown[first]
            else "is a mine; it cannot be revealed"
            if revealed_mine[first]
            else "holds no mine; it cannot explode"
        )
        where = divmod(int(flat[first]), self.shape[1])
        raise InvalidBoardError(f"{square_name(*where)} {what}; not restored")

    def reveal(self, row: int, col: int, *, cells: bool = False) -> Reveal:
        """Reveal a hidden square, and the blank region around it if it is blank.

        With ``cells=True`` the result lists the squares that changed. The cost
        is proportional to the squares opened, whatever the board's size.
        Raises InvalidClickError for a square off the board, revealed or
        flagged, and GameOverError once a mine has exploded; either way the
        board is unchanged.
        """
        rows, cols = self._state.shape
        # A user's call is an edge, so the square is checked here (plain ints
        # on the board pass in one cheap test; only bad input meets the full
        # check and its message). The engine calls _reveal past it.
        if not (type(row) is int and type(col) is int and 0 <= row < rows and 0 <= col < cols):
            check_position((rows, cols), row, col)
        return self._reveal(row, col, cells)

    def _reveal(self, row: int, col: int, cells: bool) -> Reveal:
        """:meth:`reveal` of a square on the board: one Game.push checked, or its neighbour."""
        state = self._state
        if self._exploded_at is not None:
            raise GameOverError(
                f"the game is over: the mine at {square_name(*self._exploded_at)} has exploded"
            )
        current = state[row, col]
        if current == STATE_REVEALED:
            raise InvalidClickError(f"{square_name(row, col)} is already revealed")
        if current == STATE_FLAGGED:
            raise InvalidClickError(f"{square_name(row, col)} is flagged; unflag it first")
        field = self._field
        clicked = np.array([[row, col]], np.int64) if cells else None
        if field.mines[row, col]:
            state[row, col] = STATE_EXPLODED
            self._exploded_at = (int(row), int(col))
            return Reveal(0, True, clicked)
        state[row, col] = STATE_REVEALED
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
        self._mark(row, col, mark)

    def _mark(self, row: int, col: int, mark: int) -> None:
        """Give a square on the board a mark (a state), past the check of its place.

        For the engine, whose squares Game.push checked on their way in: the
        rules of marking (none once the game is lost, none on a revealed
        square) still hold.
        """
        if self._exploded_at is not None:
            raise GameOverError(
                f"the game is over: the mine at {square_name(*self._exploded_at)} has exploded"
            )
        if self._state[row, col] >= STATE_REVEALED:
            raise InvalidClickError(
                f"{square_name(row, col)} is revealed; only hidden ones take marks"
            )
        self._state[row, col] = int(mark)

    def _flood(
        self, seed_rows: npt.NDArray[np.int64], seed_cols: npt.NDArray[np.int64], cells: bool
    ) -> tuple[int, npt.NDArray[np.int64] | None]:
        """Run the flood kernel from revealed blank seeds; return the count and cells."""
        from .rules import flood as _flood  # loaded at the first flood, not at import

        mark = STATE_OPENING if cells else STATE_REVEALED
        opened, top, bottom, left, right = _flood.flood(
            self._field.numbers, self._state, seed_rows, seed_cols, mark
        )
        if not cells:
            return opened, None
        # The flood marked exactly its cells; they all lie in the box it reports.
        box = self._state[top : bottom + 1, left : right + 1]
        rows, cols = np.nonzero(box == STATE_OPENING)
        box[rows, cols] = STATE_REVEALED
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
        revealed = self._state == STATE_REVEALED
        symbols[revealed] = _LEETCODE_DIGITS[self._field.numbers[revealed]]
        symbols[self._state == STATE_EXPLODED] = _CODE["X"]
        flagged = self._state == STATE_FLAGGED
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
        """The player's view in the view alphabet: ``#`` hidden, ``F`` flag, ``?``,
        ``.`` blank, digits, ``X``; rows joined by newlines, none after the last.

        Mines stay hidden, and a lost board shows only the mine that went off:
        a board knows no game, so no end-of-game marks (a game's view has them).
        """
        symbols = _VIEW_BYTES[self._glyphs()]
        return "\n".join(row.tobytes().decode("ascii") for row in symbols)

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter: the glyphs :meth:`__str__` writes."""
        from . import svg  # drawing is for notebooks, not for play

        rows, cols = self.shape
        title = (
            f"Board {rows} by {cols}, {self._field.mine_count} mines, "
            f"{self._revealed} revealed{', a mine exploded' if self._exploded_at else ''}"
        )
        return svg.board(self._glyphs(), title=title)

    def _glyphs(self) -> npt.NDArray[np.uint8]:
        """The player's view as glyphs, without end-of-game marks (see :meth:`__str__`)."""
        return shown(self._state, self._field.numbers)


def shown(
    state: npt.NDArray[np.uint8], numbers: npt.NDArray[np.uint8] | None
) -> npt.NDArray[np.uint8]:
    """What squares in ``state`` show, mines hidden and no end-of-game marks (any shape).

    A revealed square shows its number (``numbers`` is None before the mines
    are laid, when none is revealed); every other its state's glyph.
    """
    glyphs: npt.NDArray[np.uint8] = (
        _STATE_GLYPHS.take(state)
        if numbers is None
        else _SHOWN.take(state * np.uint8(_NUMBERS) + numbers)
    )
    return glyphs


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
    bad = np.argwhere((array < 0) | (array > _STATE_MAX))
    if len(bad):
        row, col = (int(v) for v in bad[0])
        raise InvalidBoardError(
            f"state of {square_name(row, col)} is {array[row, col].item()!r}; expected a CellState"
        )
    array = array.astype(np.uint8)
    mines = field.mines
    for wrong, what in (
        ((array == STATE_REVEALED) & mines, "is a mine but revealed"),
        ((array == STATE_EXPLODED) & ~mines, "is exploded but holds no mine"),
    ):
        where = np.argwhere(wrong)
        if len(where):
            raise InvalidBoardError(f"{square_name(int(where[0, 0]), int(where[0, 1]))} {what}")
    if np.count_nonzero(array == STATE_EXPLODED) > 1:
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
