"""What every replay reader needs: the mine layout as a field, events as columns, times checked.

Private to the readers (:mod:`.avf`, :mod:`.rmv`, :mod:`.evf`, :mod:`.mvf`,
:mod:`.rawvf`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..field import Minefield
from ._bytes import ByteReader
from .model import CODE_BY_KIND, EventColumns, EventKind

__all__ = [
    "check_board", "check_times", "event_arrays", "field_from_cells", "field_from_mask",
    "make_events", "shift_chord_kinds",
]  # fmt: skip


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
    ``offset``, where the list of mines starts. (The field counts its
    numbers when they are first read: the statistics need the mask alone.)
    """
    return Minefield(_mask_of_cells(rows, cols, cells, reader, offset, base))


def _mask_of_cells(
    rows: int,
    cols: int,
    cells: Sequence[tuple[int, int]],
    reader: ByteReader,
    offset: int,
    base: int,
) -> npt.NDArray[np.bool_]:
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
    return mask


def field_from_mask(mask: npt.NDArray[np.bool_], reader: ByteReader, offset: int) -> Minefield:
    """The field of a ``rows x cols`` mask; an empty board is a corrupt file."""
    check_board(mask, reader, offset)
    return Minefield(mask)


def check_board(mask: npt.NDArray[np.bool_], reader: ByteReader, offset: int) -> None:
    if mask.shape[0] < 1 or mask.shape[1] < 1:
        raise reader.error(f"the board is {mask.shape[0]}x{mask.shape[1]}", offset)


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
    times: Sequence[float] | npt.NDArray[np.float64],
    kinds: Sequence[EventKind],
    xs: Sequence[int] | npt.NDArray[np.int64],
    ys: Sequence[int] | npt.NDArray[np.int64],
) -> EventColumns:
    """The events ``MouseEvent(time, kind, x, y)`` of parallel columns, built when first read.

    The statistics read the columns (:func:`.model.event_columns`), not the
    MouseEvents: see :class:`.model.EventColumns`.
    """
    codes = CODE_BY_KIND
    return EventColumns(
        np.ascontiguousarray(times, np.float64),
        np.fromiter(map(codes.__getitem__, kinds), np.uint8, len(kinds)),
        np.ascontiguousarray(xs, np.int64),
        np.ascontiguousarray(ys, np.int64),
    )


def event_arrays(
    times: npt.NDArray[np.float64],
    codes: npt.NDArray[np.uint8],
    xs: npt.NDArray[np.int64],
    ys: npt.NDArray[np.int64],
) -> EventColumns:
    """The events of numpy columns (kind codes 1-12), built when first read."""
    return EventColumns(times, codes, xs, ys)


def shift_chord_kinds(kinds: Sequence[str]) -> list[EventKind]:
    """``kinds`` with each shift chord (``"sc"``) read as a middle-button chord.

    Arbiter and FreeSweeper record a left press with Shift held (AVF code
    11, RawVF ``sc``): a chord made with one button. RawVF's statistics
    engine (``parser_raw.c``, ``left_press_with_shift``) chords on the
    squares around at the next left release, counting one double click,
    unless a right press comes first: that clears the Shift state and the
    press goes on as a plain left+right chord. ms-toollib has no such event
    (1.5.20 panics on AVF code 11), but a middle press and release is the
    one-button chord its click machine knows; so ``sc`` becomes ``mc`` and
    the left release that ends it ``mr``, or ``sc`` becomes ``lc`` when a
    right press takes over. Other kinds pass through unchanged.
    """
    out: list[EventKind] = []
    open_at: int | None = None  # the index of the shift chord not yet released
    for kind in kinds:
        if kind == "sc":
            open_at = len(out)
            out.append("mc")
            continue
        if open_at is not None:
            if kind == "rc":
                out[open_at] = "lc"
                open_at = None
            elif kind == "lr":
                kind, open_at = "mr", None
        out.append(kind)  # type: ignore[arg-type]
    return out
