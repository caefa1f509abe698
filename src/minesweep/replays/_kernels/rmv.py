"""The RMV reader's event records, decoded in one compiled pass over the bytes.

RMV's records are of variable size (a full mouse event, a reduced move, a
time stamp, board events), so they are read in a loop rather than with
numpy's fixed-size views; :mod:`..rmv` reads the rest of the file.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ..._jit import kernel

__all__ = ["RMV_OK", "RMV_UNKNOWN", "RmvEvents", "rmv_events_kernel"]

Array = Any  # numpy arrays; numba types them from the call
Int64s = npt.NDArray[np.int64]

#: ``rmv_events_kernel``'s status: read to the termination, or where and why it stopped.
(RMV_OK, RMV_NO_END, RMV_IN_MOUSE, RMV_IN_MOVE, RMV_IN_STAMP, RMV_IN_BOARD, RMV_IN_END,
 RMV_UNKNOWN) = range(8)  # fmt: skip


class RmvEvents(NamedTuple):
    """``rmv_events_kernel``'s answer: the event columns, empty unless ``status`` is ``RMV_OK``."""

    times_ms: Int64s
    #: Kind codes 1-8 (:data:`..model.CODE_BY_KIND`).
    codes: npt.NDArray[np.uint8]
    xs: Int64s
    ys: Int64s
    #: The byte each event starts at.
    offsets: Int64s
    #: ``RMV_OK``, or why reading stopped (another ``RMV_*``).
    status: int
    #: Where reading stopped.
    at: int
    #: The termination code; the unknown code for ``RMV_UNKNOWN``.
    ending: int
    total_ms: int


@kernel(cache=True, part="replays", nogil=True)
def rmv_events_kernel(
    data: Array,
    start: int,
    end: int,
    version: int,
    pf_xs: Array,
    pf_ys: Array,
) -> RmvEvents:  # pragma: no cover - compiled
    """The events of an RMV file's event section, ``data[start:end]`` (see :mod:`..rmv`).

    ``data`` is the file's bytes; ``pf_xs`` and ``pf_ys`` the pixels of the
    pre-flags, which come first (time 0, kind ``pf``).
    """
    flags = len(pf_xs)
    # Every record takes at least 3 bytes; the first mouse event is doubled.
    size = flags + (end - start) // 3 + 2
    times = np.empty(size, np.int64)
    codes = np.empty(size, np.uint8)
    xs = np.empty(size, np.int64)
    ys = np.empty(size, np.int64)
    offsets = np.empty(size, np.int64)
    for i in range(flags):
        times[i] = 0
        codes[i] = 8  # pf
        xs[i] = pf_xs[i]
        ys[i] = pf_ys[i]
        offsets[i] = start
    n = flags
    dx, dy = (12, 56) if version == 1 else (0, 0)
    pos = start
    time = x = y = 0
    first = True
    status = RMV_NO_END
    ending = 0
    total = 0
    while pos < end:
        code = data[pos] + 0  # int64 compiled (a byte's type is uint8)
        step = 9
        if 1 <= code <= 7:
            if pos + 9 > end:
                status = RMV_IN_MOUSE
                break
            # Products, not shifts: numba shifts a byte as uint64.
            time = data[pos + 1] * 65536 + data[pos + 2] * 256 + data[pos + 3]
            x = data[pos + 5] * 256 + data[pos + 6]
            y = data[pos + 7] * 256 + data[pos + 8]
            if version == 2:
                x -= (x & 0x8000) << 1
                y -= (y & 0x8000) << 1
            x -= dx
            y -= dy
        elif code == 28 and version == 2 and not first:
            if pos + 3 > end:
                status = RMV_IN_MOVE
                break
            packed = data[pos + 2] + 0
            time += data[pos + 1]
            x += (packed >> 4 & 7) - (packed >> 4 & 8)
            y += (packed & 7) - (packed & 8)
            code = 1  # mv
            step = 3
        elif code == 0 and version == 1:
            if pos + 5 > end:
                status = RMV_IN_STAMP
                break
            pos += 5
            continue
        elif 9 <= code <= 14 or 18 <= code <= 27:
            if pos + 3 > end:
                status = RMV_IN_BOARD
                break
            pos += 3
            continue
        elif 15 <= code <= 17:
            if pos + 4 > end:
                status = RMV_IN_END
                break
            status = RMV_OK
            ending = code
            total = data[pos + 1] * 65536 + data[pos + 2] * 256 + data[pos + 3]
            break
        else:
            status = RMV_UNKNOWN
            ending = code
            break
        if first:
            # Viennasweeper starts the game on the first left press and does
            # not record it; ms-toollib and RawVF both put it back here.
            first = False
            times[n] = time
            codes[n] = 2  # lc
            xs[n] = x
            ys[n] = y
            offsets[n] = pos
            n += 1
        times[n] = time
        codes[n] = code
        xs[n] = x
        ys[n] = y
        offsets[n] = pos
        n += 1
        pos += step
    if status != RMV_OK:
        n = 0
    return RmvEvents(times[:n], codes[:n], xs[:n], ys[:n], offsets[:n], status, pos, ending, total)
