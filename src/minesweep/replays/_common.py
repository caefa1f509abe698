"""What every replay reader needs: the mine layout as a field, events built fast, times checked.

Private to the readers (:mod:`.avf`, :mod:`.rmv`, :mod:`.evf`, :mod:`.mvf`,
:mod:`.rawvf`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import repeat

import numpy as np
import numpy.typing as npt

from ..field import Minefield
from ._bytes import ByteReader
from .model import EventKind, MouseEvent

__all__ = ["check_times", "field_from_cells", "field_from_mask", "make_events"]


def field_from_cells(
    rows: int,
    cols: int,
    cells: Sequence[tuple[int, int]],
    reader: ByteReader,
    offset: int,
    *,
    base: int = 0,
) -> Minefield:
    """The field with a mine on each ``(row, col)`` of ``cells``, counted from ``base``.

    A mine off the board or listed twice is a corrupt file: the error names
    ``offset``, where the list of mines starts.
    """
    if rows < 1 or cols < 1:
        raise reader.error(f"the board is {rows}x{cols}; it needs at least one square", offset)
    mask = np.zeros((rows, cols), dtype=np.bool_)
    for index, (row, col) in enumerate(cells):
        r, c = row - base, col - base
        if not (0 <= r < rows and 0 <= c < cols):
            raise reader.error(
                f"mine {index + 1} is at row {row}, column {col}, off the {rows}x{cols} board",
                offset,
            )
        if mask[r, c]:
            raise reader.error(
                f"mine {index + 1} (row {row}, column {col}) is listed twice", offset
            )
        mask[r, c] = True
    return Minefield(mask)


def field_from_mask(mask: npt.NDArray[np.bool_], reader: ByteReader, offset: int) -> Minefield:
    """The field of a ``rows x cols`` mask; an empty board is a corrupt file."""
    if mask.shape[0] < 1 or mask.shape[1] < 1:
        raise reader.error(f"the board is {mask.shape[0]}x{mask.shape[1]}", offset)
    return Minefield(mask)


def check_times(
    times_ms: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64] | Sequence[int],
    reader: ByteReader,
) -> None:
    """Fail at the first event whose time is before the previous event's.

    Replay clocks only run forward; a time going back is a corrupt or forged
    file, and the statistics (time, speed) would be meaningless.
    """
    if len(times_ms) < 2:
        return
    back = np.flatnonzero(np.diff(times_ms) < 0)
    if back.size:
        i = int(back[0]) + 1
        raise reader.error(
            f"event {i + 1} is at {int(times_ms[i])} ms, before the previous event "
            f"({int(times_ms[i - 1])} ms)",
            int(offsets[i]),
        )


def make_events(
    times: Iterable[float], kinds: Iterable[EventKind], xs: Iterable[int], ys: Iterable[int]
) -> tuple[MouseEvent, ...]:
    """The events ``MouseEvent(time, kind, x, y)`` for parallel sequences."""
    # tuple.__new__ straight from zip's tuples: the named tuple's own
    # constructor is a Python function, a third of the cost of reading a file.
    return tuple(map(tuple.__new__, repeat(MouseEvent), zip(times, kinds, xs, ys, strict=True)))
