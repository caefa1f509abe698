"""RMV events decoded by the kernel, held to the Python decoder it replaced.

:func:`reference_events` is the reader's event loop before the events were
decoded in ``rmv_events_kernel`` (``minesweep.replays._kernels``); on random
event sections, valid or not, compiled and interpreted, the kernel must give
the same events, or fail with the same message at the same byte.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep import _jit
from minesweep.replays._bytes import ByteReader
from minesweep.replays.model import KIND_BY_CODE, ReplayError
from minesweep.replays.rmv import _events

_MOUSE = {1: "mv", 2: "lc", 3: "lr", 4: "rc", 5: "rr", 6: "mc", 7: "mr"}
_MOUSE_RECORD = struct.Struct(">BHBBHH")
_MOUSE_RECORD_V2 = struct.Struct(">BHBBhh")


def reference_events(
    reader: ByteReader, version: int, cell_px: int, preflags: list[tuple[int, int]]
) -> tuple[list[int], list[str], list[int], list[int], list[int], int, int]:
    """The reader's Python event loop as it was (rmv.py before the kernel)."""
    data, end = reader.data, len(reader.data)
    times: list[int] = [0] * len(preflags)
    kinds: list[str] = ["pf"] * len(preflags)
    xs = [col * cell_px for col, _ in preflags]
    ys = [row * cell_px for _, row in preflags]
    offsets = [reader.offset] * len(preflags)
    record = _MOUSE_RECORD if version == 1 else _MOUSE_RECORD_V2
    dx, dy = (12, 56) if version == 1 else (0, 0)
    pos = reader.offset
    time = x = y = 0
    first = True
    while True:
        if pos >= end:
            raise reader.error("the events end without a termination event", pos)
        code = data[pos]
        if code in _MOUSE:
            if pos + 9 > end:
                raise reader.error("the file ends inside a mouse event", pos)
            _, high, low, _flags, x, y = record.unpack_from(data, pos)
            time = high << 8 | low
            x -= dx
            y -= dy
        elif code == 28 and version == 2 and not first:
            if pos + 3 > end:
                raise reader.error("the file ends inside a reduced mouse move", pos)
            step, packed = data[pos + 1], data[pos + 2]
            time += step
            x += (packed >> 4 & 7) - (packed >> 4 & 8)
            y += (packed & 7) - (packed & 8)
        elif code == 0 and version == 1:
            if pos + 5 > end:
                raise reader.error("the file ends inside a time stamp change", pos)
            pos += 5
            continue
        elif 9 <= code <= 14 or 18 <= code <= 27:
            if pos + 3 > end:
                raise reader.error("the file ends inside a board event", pos)
            pos += 3
            continue
        elif code in (16, 15, 17):
            if pos + 4 > end:
                raise reader.error("the file ends inside the termination event", pos)
            total_ms = int.from_bytes(data[pos + 1 : pos + 4], "big")
            return times, kinds, xs, ys, offsets, code, total_ms
        else:
            raise reader.error(f"unknown event code {code}", pos)
        if first:
            first = False
            times.append(time)
            kinds.append("lc")
            xs.append(x)
            ys.append(y)
            offsets.append(pos)
        times.append(time)
        kinds.append(_MOUSE.get(code, "mv"))
        xs.append(x)
        ys.append(y)
        offsets.append(pos)
        pos += 9 if code in _MOUSE else 3


def _records(version: int, *, stray: bool) -> st.SearchStrategy[bytes]:
    """Event records of ``version``; with ``stray``, a few stray bytes among them."""
    mouse = st.builds(
        lambda code, rest: bytes([code]) + rest,
        st.integers(1, 7),
        st.binary(min_size=8, max_size=8),
    )
    short = st.builds(
        lambda code, rest: bytes([code]) + rest,
        st.sampled_from([28] * (8 if version == 2 else 0) + [*range(9, 15), *range(18, 28)]),
        st.binary(min_size=2, max_size=2),
    )
    stamp = st.binary(min_size=4, max_size=4).map(lambda rest: b"\0" + rest)
    kinds = [mouse, mouse, short] + ([stamp] if version == 1 else [])
    if stray:
        kinds.append(st.binary(min_size=1, max_size=3))
    # A mouse event first: a reduced move cannot start the events.
    return st.lists(st.one_of(*kinds), max_size=60).flatmap(
        lambda records: mouse.map(lambda first: first + b"".join(records))
    )


@st.composite
def sections(draw: Any) -> tuple[int, bytes, list[tuple[int, int]], int]:
    """A version, an event section (usually a whole valid one), pre-flags and a square size."""
    version = draw(st.sampled_from([1, 2]))
    stray = draw(st.integers(0, 3)) == 0
    records = draw(_records(version, stray=stray))
    ending = bytes([draw(st.sampled_from([15, 16, 17]))]) + draw(st.binary(min_size=3, max_size=3))
    body = records + ending + draw(st.binary(max_size=4))
    if stray and draw(st.booleans()):
        body = body[: draw(st.integers(0, len(body)))]
    preflags = draw(st.lists(st.tuples(st.integers(0, 29), st.integers(0, 15)), max_size=3))
    return version, body, preflags, draw(st.sampled_from([16, 24]))


def _decoded(version: int, data: bytes, start: int, cell_px: int, flags: list[Any]) -> Any:
    reader = ByteReader(data, "f.rmv", start)
    try:
        found = _events(data, start, len(data), reader, version, cell_px, flags)
    except ReplayError as error:
        return str(error)
    for column in (found.times_ms, found.xs, found.ys, found.offsets):
        assert column.dtype == np.int64
        assert column.flags.c_contiguous
    assert found.codes.dtype == np.uint8
    kinds = [KIND_BY_CODE[code] for code in found.codes.tolist()]
    return (
        found.times_ms.tolist(),
        kinds,
        found.xs.tolist(),
        found.ys.tolist(),
        found.offsets.tolist(),
        found.ending,
        found.total_ms,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sections(), st.integers(0, 5))
def test_kernel_decodes_as_the_python_loop(
    case: tuple[int, bytes, list[tuple[int, int]], int], head: int
) -> None:
    version, body, flags, cell_px = case
    data = b"\xaa" * head + body
    try:
        expected: Any = reference_events(ByteReader(data, "f.rmv", head), version, cell_px, flags)
    except ReplayError as error:
        expected = str(error)
    with _jit.compiling():
        assert _decoded(version, data, head, cell_px, flags) == expected
    with _jit.interpreting():
        assert _decoded(version, data, head, cell_px, flags) == expected
