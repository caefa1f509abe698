"""Minesweeper Clone replays (``.mvf``): Clone 0.97, the version ms-toollib reads.

0.97 files start with 0x11 0x4D and have '5' (the year's last digit) at byte
27. From byte 74: month, day, u16 year, hour, minute, second; level; mode;
the time (u16 s, u8 hundredths); 3BV, solved 3BV, left, double and right
clicks (u16 each); question marks; width, height, u16 mines and 1-based
(column, row) pairs; the player's name (u8 length); a u16 seed from which a
permutation of 40 bits is computed; a u24 event count and 5-byte events whose
permuted bits hold the three buttons' states, 9-bit y and x, 7-bit
hundredths and 10-bit seconds. Presses and releases are the changes of the
button states, as ms-toollib derives them. Clone 2006/2007 (6-byte events)
and 0.96 or earlier (no header) are recognised and refused.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np

from ._bytes import ByteReader, decode_text
from ._common import check_times, field_from_cells, make_events
from .model import Claims, EventKind, Replay

__all__ = ["read_mvf"]

MAGIC = b"\x11\x4d"
_MODES = {1: 0, 2: 3, 3: 1}  # Clone's classic, density, UPK as EVF numbers them; else cheat (2)
_SCALE = 100000000.0


def read_mvf(data: bytes, where: str) -> Replay:
    """Read a Minesweeper Clone 0.97 replay; ``where`` names the file in errors."""
    reader = ByteReader(data, where)
    if data[:2] != MAGIC:
        raise reader.error(
            "no 0x11 0x4D header: a Clone 0.96 or earlier replay (not supported yet), "
            "or not a Clone replay",
            0,
        )
    reader.offset = 27
    year_digit = reader.u8("the version byte")
    if year_digit != ord("5"):
        name = {ord("6"): "Clone 2006", ord("7"): "Clone 2007", ord("8"): "a Clone 'Funny Mode'"}
        version = name.get(year_digit, f"an unknown Clone version (byte 27 = {year_digit})")
        raise reader.error(f"{version} replay: not supported yet (only Clone 0.97 is)", 27)
    reader.offset = 74
    month, day = reader.u8("the month"), reader.u8("the day")
    year = reader.u16("the year")
    hour, minute, second = reader.u8("the hour"), reader.u8("the minute"), reader.u8("the second")
    try:
        start_us = int(datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp())
        start_us *= 1_000_000
    except ValueError:
        raise reader.error(f"bad date {year}-{month}-{day} {hour}:{minute}:{second}", 74) from None
    level = reader.u8("the level")
    mode = _MODES.get(reader.u8("the mode"), 2)
    score_s = reader.u16("the time")
    score_hundredths = reader.u8("the time's hundredths")
    bbbv = reader.u16("the 3BV")
    solved = reader.u16("the solved 3BV")
    left, double, right = reader.u16("left"), reader.u16("double"), reader.u16("right")
    marks = reader.u8("the question marks setting")
    cols, rows = reader.u8("the width"), reader.u8("the height")
    mines = reader.u16("the number of mines")
    mines_at = reader.offset
    reader.need(2 * mines, f"the {mines} mine positions")
    pairs = reader.take(2 * mines, "the mine positions")
    field = field_from_cells(rows, cols, list(zip(pairs[1::2], pairs[::2], strict=True)),
                             reader, mines_at, base=1)  # fmt: skip
    # Clone 0.97 is an ANSI Windows program: the machine's code page, never UTF-8.
    raw_name = reader.take(reader.u8("the name length"), "the player's name")
    player = decode_text(raw_name, utf8="never")
    byte_of, mask_of = _permutation(reader.u16("the seed"))
    count = reader.u24("the number of events")
    if count == 0:
        raise reader.error("no events")
    events_at = reader.offset
    reader.need(5 * count, f"{count} events")
    raw = np.frombuffer(reader.take(5 * count, "the events"), np.uint8).reshape(count, 5)
    bits = (raw[:, byte_of] & mask_of) != 0  # count x 40: bit i of the permuted record
    weights = 1 << np.arange(10, dtype=np.int64)
    rb, mb, lb = bits[:, 0], bits[:, 1], bits[:, 2]
    ys = bits[:, 3:12] @ weights[:9]
    xs = bits[:, 12:21] @ weights[:9]
    ms = (bits[:, 21:28] @ weights[:7]) * 10 + (bits[:, 28:38] @ weights[:10]) * 1000
    offsets = events_at + 5 * np.arange(count, dtype=np.int64)
    check_times(ms, offsets, reader)
    times_out: list[float] = []
    kinds: list[EventKind] = []
    x_out: list[int] = []
    y_out: list[int] = []
    t_list, x_list, y_list = (ms / 1000).tolist(), xs.tolist(), ys.tolist()
    buttons = list(zip(lb.tolist(), rb.tolist(), mb.tolist(), strict=True))
    first: EventKind = "mc" if mb[0] else "rc" if rb[0] else "lc" if lb[0] else "mv"
    times_out.append(t_list[0])
    kinds.append(first)
    x_out.append(x_list[0])
    y_out.append(y_list[0])
    for i in range(1, count):
        (pl, pr, pm), (cl, cr, cm) = buttons[i - 1], buttons[i]
        changes: list[EventKind] = []
        # ms-toollib compares the second record's position with (0, 0), not
        # with the first record's, so it always starts with a move; so do we.
        before = (x_list[i - 1], y_list[i - 1]) if i > 1 else (0, 0)
        if (x_list[i], y_list[i]) != before:
            changes.append("mv")
        edges: tuple[tuple[EventKind, bool], ...] = (
            ("lc", cl and not pl), ("rc", cr and not pr), ("mc", cm and not pm),
            ("lr", pl and not cl), ("rr", pr and not cr), ("mr", pm and not cm),
        )  # fmt: skip
        changes += [kind for kind, happened in edges if happened]
        for kind in changes:
            times_out.append(t_list[i])
            kinds.append(kind)
            x_out.append(x_list[i])
            y_out.append(y_list[i])
    score = score_s + score_hundredths / 100
    return Replay(
        format="mvf",
        version=97,
        field=field,
        events=make_events(times_out, kinds, x_out, y_out),
        cell_px=16,
        software="Minesweeper Clone 0.97",
        player=player,
        mode=mode,
        start_us=start_us,
        claims=Claims(bbbv=bbbv, rtime=score, completed=bbbv == solved),
        extra=(
            ("level", {1: "beginner", 2: "intermediate", 3: "expert"}.get(level, "custom")),
            ("question_marks", "on" if marks else "off"),
            ("solved_bbbv", str(solved)),
            ("left_clicks", str(left)),
            ("double_clicks", str(double)),
            ("right_clicks", str(right)),
        ),
    )


def _permutation(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Where bit i of a decoded event lies in the 5 stored bytes: (byte index, bit mask) arrays.

    Clone derives 40 decimal digits from sines and cosines of square roots of
    the seed; the bit positions ordered by their digit (stably) give the order.
    """
    n1 = math.sqrt(seed)
    n2 = math.sqrt(seed + 1000.0)
    n3 = math.sqrt(n1 + 1000.0)
    values = (
        math.cos(n3 + 1000.0),
        math.sin(math.sqrt(n2)),
        math.cos(n3),
        math.sin(math.sqrt(n1) + 1000.0),
        math.cos(math.sqrt(n2 + 1000.0)),
    )
    # Rust's round() (ms-toollib) rounds halves away from zero, as this does.
    digits = "".join(f"{math.floor(abs(value) * _SCALE + 0.5):08d}"[:8] for value in values)
    order = sorted(range(40), key=lambda j: digits[j])
    positions = np.asarray(order, dtype=np.int64)
    return positions // 8, (1 << (positions % 8)).astype(np.uint8)
