"""Clone's button states turned into events by numpy, held to the Python loop it replaced."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep.replays._bytes import ByteReader
from minesweep.replays.model import KIND_BY_CODE, ReplayError
from minesweep.replays.mvf import _events


def reference_events(
    ms: list[int],
    lb: list[bool],
    rb: list[bool],
    mb: list[bool],
    xs: list[int],
    ys: list[int],
    *,
    toollib_first_move: bool,
) -> list[tuple[float, str, int, int]]:
    """mvf._events's loop as it was (mvf.py before numpy), times checked by the caller."""
    t_list = [value / 1000 for value in ms]
    buttons = list(zip(lb, rb, mb, strict=True))
    first = "mc" if mb[0] else "rc" if rb[0] else "lc" if lb[0] else "mv"
    out = [(t_list[0], first, xs[0], ys[0])]
    for i in range(1, len(ms)):
        (pl, pr, pm), (cl, cr, cm) = buttons[i - 1], buttons[i]
        changes = []
        before = (xs[i - 1], ys[i - 1]) if i > 1 or not toollib_first_move else (0, 0)
        if (xs[i], ys[i]) != before:
            changes.append("mv")
        edges = (
            ("lc", cl and not pl), ("rc", cr and not pr), ("mc", cm and not pm),
            ("lr", pl and not cl), ("rr", pr and not cr), ("mr", pm and not cm),
        )  # fmt: skip
        changes += [kind for kind, happened in edges if happened]
        out += [(t_list[i], kind, xs[i], ys[i]) for kind in changes]
    return out


_RECORD = st.tuples(
    st.integers(0, 3000), st.booleans(), st.booleans(), st.booleans(),
    st.integers(0, 3), st.integers(0, 3),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_RECORD, min_size=1, max_size=40), st.booleans(), st.booleans())
def test_events_as_the_python_loop(records: list[Any], toollib: bool, rising: bool) -> None:
    ms, lb, rb, mb, xs, ys = (list(column) for column in zip(*records, strict=True))
    if rising:
        ms.sort()
    reader = ByteReader(b"", "f.mvf")
    offsets = np.arange(len(ms), dtype=np.int64)
    try:
        events = _events(
            np.array(ms, np.int64), np.array(lb), np.array(rb), np.array(mb),
            np.array(xs, np.int64), np.array(ys, np.int64), offsets, reader,
            toollib_first_move=toollib,
        )  # fmt: skip
    except ReplayError:
        assert ms != sorted(ms)
        return
    assert ms == sorted(ms)
    columns: Any = events  # the reader's columns, built into MouseEvents by a Replay
    got = list(zip(columns.times.tolist(), [KIND_BY_CODE[code] for code in columns.codes.tolist()],
                   columns.xs.tolist(), columns.ys.tolist(), strict=True))  # fmt: skip
    assert got == reference_events(ms, lb, rb, mb, xs, ys, toollib_first_move=toollib)
