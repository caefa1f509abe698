"""Minefield: where the mines are on a rectangular grid, and nothing else.

A :class:`Minefield` is immutable: two read-only numpy arrays, the mine mask
and the count of adjacent mines of every cell, one byte a cell each. What the
player has revealed lives apart, in a :class:`~minesweep.Board`.

>>> field = Minefield.from_text('''
... *..
... ...
... ''')
>>> field.shape, field.mine_count
((2, 3), 1)
>>> field.numbers.tolist()
[[0, 1, 0], [1, 1, 0]]
>>> field.to_leetcode()
[['M', 'E', 'E'], ['E', 'E', 'E']]
>>> Minefield.from_leetcode(field.to_leetcode()) == field
True
"""

from __future__ import annotations

import itertools
from typing import Final, final

import numpy as np
import numpy.typing as npt

from .errors import InvalidBoardError, ParseError
from .grid import adjacent_counts, check_position, position_pair
from .leetcode import LeetCodeBoard, check_leetcode_board
from .squares import square_name

# ``adjacent_counts``, ``check_position`` and ``position_pair`` live in
# :mod:`minesweep.grid`; they are re-exported for callers not yet moved there.
__all__ = ["Minefield", "adjacent_counts", "check_position", "leetcode_codes", "position_pair"]

#: Text grid symbols: a mine, and a square without one.
MINE_SYMBOL: Final = "*"
SAFE_SYMBOL: Final = "."
#: The largest board: flat indices and counts must fit comfortably in int64.
MAX_CELLS: Final = 2**40

_MINE_CODE = ord("M")
_EXPLODED_CODE = ord("X")


@final
class Minefield:
    """Where the mines are: a shape, a mine mask and adjacent-mine counts.

    Build one from a boolean mask (a numpy array or nested lists of bools or
    0/1), with :meth:`from_leetcode` or :meth:`from_text`; a random one comes
    from :func:`minesweep.generate_field`. The arrays it exposes are
    read-only, and it makes its own copy of the mask, so nothing can change a
    field after it is built; that is what lets many boards and games share one.
    """

    __slots__ = ("_mine_count", "_mines", "_numbers")

    def __init__(self, mines: npt.ArrayLike) -> None:
        mask = _as_mask(mines)
        mask.flags.writeable = False
        self._mines = mask
        # Counted on first read (see ``numbers``): a replay's statistics read
        # the mask alone, and the counts cost a small replay a tenth of its
        # reading. The counts follow from the mask, so the field stays immutable.
        self._numbers: npt.NDArray[np.uint8] | None = None
        self._mine_count = int(np.count_nonzero(mask))

    @classmethod
    def from_leetcode(cls, board: LeetCodeBoard) -> Minefield:
        """The field of a LeetCode board: its ``M`` and ``X`` squares are the mines."""
        codes = leetcode_codes(board)
        return cls((codes == _MINE_CODE) | (codes == _EXPLODED_CODE))

    @classmethod
    def from_text(cls, text: str) -> Minefield:
        """Read a text grid: one row per line, ``*`` for a mine, ``.`` for none.

        Blank lines and spaces are ignored.
        """
        lines = ["".join(line.split()) for line in text.splitlines()]
        lines = [line for line in lines if line]
        if not lines:
            raise ParseError("minefield text is empty; expected rows such as '..*.'")
        for row, line in enumerate(lines):
            bad = line.strip(MINE_SYMBOL + SAFE_SYMBOL)
            if bad:
                col = line.index(bad[0])
                raise ParseError(
                    f"minefield text square {square_name(row, col)} is {bad[0]!r}; "
                    "expected '*' or '.'"
                )
            if len(line) != len(lines[0]):
                squares = "square" if len(line) == 1 else "squares"
                raise ParseError(
                    f"minefield text row {row + 1} has {len(line)} {squares}; "
                    f"expected {len(lines[0])} like row 1"
                )
        codes = np.frombuffer("".join(lines).encode("ascii"), np.uint8)
        return cls((codes == ord(MINE_SYMBOL)).reshape(len(lines), len(lines[0])))

    # --- what a field is ----------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)``."""
        rows, cols = self._mines.shape
        return rows, cols

    @property
    def rows(self) -> int:
        return int(self._mines.shape[0])

    @property
    def cols(self) -> int:
        return int(self._mines.shape[1])

    @property
    def size(self) -> int:
        """The number of squares."""
        return int(self._mines.size)

    @property
    def mine_count(self) -> int:
        return self._mine_count

    @property
    def mines(self) -> npt.NDArray[np.bool_]:
        """The mine mask, read-only."""
        return self._mines

    @property
    def numbers(self) -> npt.NDArray[np.uint8]:
        """How many of each square's eight neighbours are mines, read-only."""
        numbers = self._numbers
        if numbers is None:
            numbers = adjacent_counts(self._mines)
            numbers.flags.writeable = False
            self._numbers = numbers
        return numbers

    @property
    def nbytes(self) -> int:
        """Bytes held by the field's arrays."""
        return int(self._mines.nbytes + self.numbers.nbytes)

    def is_mine(self, row: int, col: int) -> bool:
        check_position(self.shape, row, col)
        return bool(self._mines[row, col])

    def adjacent_mines(self, row: int, col: int) -> int:
        check_position(self.shape, row, col)
        return int(self.numbers[row, col])

    # --- exports --------------------------------------------------------------

    def to_leetcode(self) -> LeetCodeBoard:
        """A LeetCode board with every square hidden: ``M`` for mines, ``E`` elsewhere."""
        symbols = np.where(self._mines, np.uint8(_MINE_CODE), np.uint8(ord("E")))
        return [list(row.tobytes().decode("ascii")) for row in symbols]

    def to_text(self) -> str:
        """The text grid :meth:`from_text` reads: ``*`` and ``.``, a newline after each row."""
        symbols = np.where(self._mines, np.uint8(ord(MINE_SYMBOL)), np.uint8(ord(SAFE_SYMBOL)))
        return "".join(row.tobytes().decode("ascii") + "\n" for row in symbols)

    # --- value semantics --------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Minefield):
            return NotImplemented
        return self.shape == other.shape and bool(np.array_equal(self._mines, other._mines))

    def __hash__(self) -> int:
        return hash((self.shape, np.packbits(self._mines).tobytes()))

    def __repr__(self) -> str:
        if self.size <= 400:
            return f"Minefield.from_text({self.to_text()!r})"
        return f"<Minefield {self.rows}x{self.cols}, {self.mine_count} mines>"

    def __str__(self) -> str:
        return self.to_text()


def leetcode_codes(board: LeetCodeBoard) -> npt.NDArray[np.uint8]:
    """A LeetCode board as a (rows, cols) array of ASCII codes, every cell checked.

    ``X`` is accepted here: an exploded mine is still a mine.
    """
    rows, cols = check_leetcode_board(board, allow_exploded=True)
    text = "".join(["".join(line) for line in board])
    return np.frombuffer(text.encode("ascii"), np.uint8).reshape(rows, cols)


def _mask_from_lists(mines: object) -> npt.NDArray[np.bool_] | None:
    """Nested lists of bools or 0/1, converted without np.array's per-object work.

    ``bytes`` takes any ints from 0 to 255 in one C loop; whatever it refuses,
    or a value above 1, returns None and goes the general way, which says
    exactly what is wrong.
    """
    if not (isinstance(mines, list) and mines and isinstance(mines[0], list) and mines[0]):
        return None
    cols = len(mines[0])
    if not all(type(line) is list and len(line) == cols for line in mines):
        return None
    try:
        data = bytes(itertools.chain.from_iterable(mines))
    except (TypeError, ValueError):
        return None
    cells = np.frombuffer(data, np.uint8)
    if cells.size > MAX_CELLS or cells.max() > 1:
        return None
    return cells.view(np.bool_).reshape(len(mines), cols)


def _as_mask(mines: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """A C-contiguous boolean copy of ``mines``, which must be 2-D bools or 0/1."""
    fast = _mask_from_lists(mines)
    if fast is not None:
        return fast
    try:
        array = np.array(mines, copy=True, order="C")
    except ValueError as error:  # ragged nested lists
        raise InvalidBoardError(f"mine mask must be a rectangular 2-D array: {error}") from None
    if array.ndim != 2:
        raise InvalidBoardError(f"mine mask must be 2-D, got shape {array.shape}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise InvalidBoardError(f"mine mask is empty, shape {array.shape}")
    if array.size > MAX_CELLS:
        raise InvalidBoardError(f"mine mask has {array.size} squares; at most {MAX_CELLS}")
    if array.dtype == np.bool_:
        return array
    if array.dtype.kind not in "iu":
        raise InvalidBoardError(
            f"mine mask must hold bools or 0/1, got dtype {array.dtype} "
            f"(first value {array.flat[0]!r})"
        )
    bad = np.flatnonzero((array != 0) & (array != 1))
    if bad.size:
        row, col = divmod(int(bad[0]), array.shape[1])
        raise InvalidBoardError(
            f"mine mask square {square_name(row, col)} is {array[row, col].item()!r}; "
            "expected 0 or 1"
        )
    return array.astype(np.bool_)
