"""Minesweeper Clone replays (``.mvf``): every version RawVF's ``parser_mvf.c`` reads.

Clone's versions lay out the file in three ways (docs/replays.md, "MVF",
has the byte tables and sources):

- 0.97 (and the 0.97 hacks): 0x11 0x4D, '5' (or '8', the "Funny Mode" hack)
  at byte 27, the game from byte 74; or 0x00 0x00 (a hack of unknown
  origin) with the game from byte 7. Month, day, u16 year, hour, minute,
  second; level; mode; the time (u16 s, u8 hundredths); 3BV, solved 3BV,
  left, double and right clicks (u16 each); question marks; width, height,
  u16 mines and 1-based (column, row) pairs; the player's name (u8 length);
  a u16 seed from which a permutation of 40 bits is computed; a u24 event
  count and 5-byte events whose permuted bits hold the three buttons' states,
  9-bit y and x, 7-bit hundredths and 10-bit seconds.
- 2006 and 2007: 0x11 0x4D, '6' or '7' at byte 27, the version's name at
  byte 53 (u8 length), the game from byte 71: the 0.97 fields without the
  counts, the time a u24 of milliseconds, and 6-byte events of 48 permuted
  bits: buttons, 11-bit y and x (32 more than the pixel), 22-bit
  milliseconds.
- 0.96 and earlier: no header. Width, height, u16 mines and 0-based
  (column, row) pairs; question marks; a spare byte; 8-byte events (second,
  hundredths, buttons, u16 x, u16 y, a spare byte); and at the end the time
  (u16 s, u8 hundredths), from 0.76 a 100-byte player's name, and a checksum
  (10 digits up to 0.76, from 0.8 20 bytes between two zero bytes).

Presses and releases are the changes of the button states, as RawVF and
ms-toollib derive them.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ..field import Minefield
from ._bytes import ByteReader, decode_text
from ._common import check_times, event_arrays, field_from_cells
from .model import CODE_BY_KIND, Claims, EventColumns, Replay

__all__ = ["read_mvf"]

MAGIC = b"\x11\x4d"
_MODES = {1: 0, 2: 3, 3: 1}  # Clone's classic, density, UPK as EVF numbers them; else cheat (2)
_LEVELS = {1: "beginner", 2: "intermediate", 3: "expert"}
_SCALE = 100000000.0
#: The early versions' only boards (no custom games were saved): (width, height) -> level.
_EARLY_LEVELS = {(8, 8): 1, (16, 16): 2, (30, 16): 3}


@dataclass(frozen=True)
class _Layout:
    """Where a permuted event record keeps its fields: (first bit, width) each."""

    size: int  # bytes a record
    y: tuple[int, int]
    x: tuple[int, int]
    offset_px: int  # what the stored x and y exceed the pixel by
    #: The time in ms: (first bit, width, ms a unit) of each part.
    ms: tuple[tuple[int, int, int], ...]

    def weights(self) -> npt.NDArray[np.float64]:
        """The (bits x 3) matrix that makes y, x and ms of a record's bits, in one product.

        A float product is exact here (below 2^53) and BLAS makes it many
        times faster than numpy's integer one.
        """
        out = np.zeros((8 * self.size, 3), np.float64)
        for column, parts in enumerate(([(*self.y, 1)], [(*self.x, 1)], self.ms)):
            for at, width, unit in parts:
                out[at : at + width, column] = unit * (1 << np.arange(width))
        return out


# 0.97: hundredths in tens of ms (7 bits), seconds (10 bits); 2006/2007: ms (22 bits).
_LAYOUT_097 = _Layout(5, (3, 9), (12, 9), 0, ((21, 7, 10), (28, 10, 1000)))
_LAYOUT_2007 = _Layout(6, (3, 11), (14, 11), 32, ((25, 22, 1),))
_WEIGHTS = {layout.size: layout.weights() for layout in (_LAYOUT_097, _LAYOUT_2007)}


def read_mvf(data: bytes, where: str) -> Replay:
    """Read a Minesweeper Clone replay of any version; ``where`` names the file in errors."""
    reader = ByteReader(data, where)
    if data[:2] == MAGIC:
        reader.offset = 27
        year_digit = reader.u8("the version byte")
        if year_digit in (ord("5"), ord("8")):
            funny = year_digit == ord("8")
            reader.offset = 74
            return _read_097(reader, "0.97 Funny Mode" if funny else "0.97", funny=funny)
        if year_digit in (ord("6"), ord("7")):
            reader.offset = 53
            name = reader.take(reader.u8("the version's length"), "the version's name")
            reader.offset = 71
            year = 2006 if year_digit == ord("6") else 2007
            return _read_2007(reader, year, decode_text(name, utf8="never").strip())
        raise reader.error(f"an unknown Clone version (byte 27 = {year_digit})", 27)
    if data[:2] == b"\0\0":
        # A 0.97 hacked by someone unknown: parser_mvf.c reads files that
        # start 00 00 as the 0.97 game from byte 7 (its only description).
        reader.offset = 7
        return _read_097(reader, "0.97 (unknown hack)", funny=False)
    return _read_early(reader)


#: Clone's date: month, day, year, hour, minute, second.
_DATE = struct.Struct(">BBHBBB")


def _start_us(reader: ByteReader, *, zero_day_ok: bool) -> int | None:
    """The date and time at the reader (7 bytes) in microseconds since 1970."""
    at = reader.offset
    if reader.left >= _DATE.size:
        month, day, year, hour, minute, second = _DATE.unpack_from(reader.data, at)
        reader.offset += _DATE.size
    else:  # one by one, so that the error names the field the file ends in
        month, day = reader.u8("the month"), reader.u8("the day")
        year = reader.u16("the year")
        hour, minute = reader.u8("the hour"), reader.u8("the minute")
        second = reader.u8("the second")
    if day == 0 and zero_day_ok:
        return None  # Clone 2007 sometimes saves day 0 (a bug RawVF notes): no date then
    try:
        start = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        raise reader.error(f"bad date {year}-{month}-{day} {hour}:{minute}:{second}", at) from None
    return int(start.timestamp()) * 1_000_000


def _board(reader: ByteReader, base: int) -> tuple[int, int, Minefield]:
    """Width, height and the field of mines at ``base``-based (column, row) pairs."""
    cols, rows = reader.u8("the width"), reader.u8("the height")
    mines = reader.u16("the number of mines")
    mines_at = reader.offset
    reader.need(2 * mines, f"the {mines} mine positions")
    pairs = reader.take(2 * mines, "the mine positions")
    cells = list(zip(pairs[1::2], pairs[::2], strict=True))
    return cols, rows, field_from_cells(rows, cols, cells, reader, mines_at, base=base)


#: 0.97's header after the date: level, mode, time (s, hundredths), 3BV,
#: solved 3BV, left, double and right clicks, question marks.
_HEADER_097 = struct.Struct(">BBHBHHHHHB")


def _header_097(reader: ByteReader) -> tuple[int, ...]:
    """0.97's header fields, unpacked at once when all are there (a file's fixed cost);
    read one by one otherwise, so that a short file's error names the field."""
    if reader.left >= _HEADER_097.size:
        fields = _HEADER_097.unpack_from(reader.data, reader.offset)
        reader.offset += _HEADER_097.size
        return fields
    return (
        reader.u8("the level"), reader.u8("the mode"), reader.u16("the time"),
        reader.u8("the time's hundredths"), reader.u16("the 3BV"), reader.u16("the solved 3BV"),
        reader.u16("left"), reader.u16("double"), reader.u16("right"),
        reader.u8("the question marks setting"),
    )  # fmt: skip


def _read_097(reader: ByteReader, version: str, *, funny: bool) -> Replay:
    start_us = _start_us(reader, zero_day_ok=False)
    level, mode_code, score_s, score_hundredths, bbbv, solved, *clicks, marks = _header_097(reader)
    left, double, right = clicks
    mode = _MODES.get(mode_code, 2)
    if funny:
        mode = 1  # the Funny Mode hack plays every game as UPK (parser_mvf.c)
    _, _, field = _board(reader, 1)
    # Clone is an ANSI Windows program: the machine's code page, never UTF-8.
    player = decode_text(
        reader.take(reader.u8("the name length"), "the player's name"), utf8="never"
    )
    seed = reader.u16("the seed")
    bits, offsets = _records(reader, _LAYOUT_097.size, seed)
    events = _events(*_fields(bits, _LAYOUT_097), offsets, reader, toollib_first_move=True)
    return Replay(
        format="mvf",
        version=97,
        field=field,
        events=events,
        cell_px=16,
        software=f"Minesweeper Clone {version}",
        player=player,
        mode=mode,
        start_us=start_us,
        claims=Claims(bbbv=bbbv, rtime=score_s + score_hundredths / 100, completed=bbbv == solved),
        extra=(
            ("level", _LEVELS.get(level, "custom")),
            ("question_marks", "on" if marks else "off"),
            ("solved_bbbv", str(solved)),
            ("left_clicks", str(left)),
            ("double_clicks", str(double)),
            ("right_clicks", str(right)),
        ),
    )


def _read_2007(reader: ByteReader, year: int, version: str) -> Replay:
    start_us = _start_us(reader, zero_day_ok=True)
    level = reader.u8("the level")
    mode = _MODES.get(reader.u8("the mode"), 2)
    score_ms = reader.u24("the time")
    marks = reader.u8("the question marks setting")
    _, _, field = _board(reader, 1)
    player = decode_text(
        reader.take(reader.u8("the name length"), "the player's name"), utf8="never"
    )
    seed = reader.u16("the seed")
    bits, offsets = _records(reader, _LAYOUT_2007.size, seed)
    events = _events(*_fields(bits, _LAYOUT_2007), offsets, reader, toollib_first_move=False)
    return Replay(
        format="mvf",
        version=year,
        field=field,
        events=events,
        cell_px=16,
        software=f"Minesweeper Clone {version or year}",
        player=player,
        mode=mode,
        start_us=start_us,
        claims=Claims(rtime=score_ms / 1000),
        extra=(
            ("level", _LEVELS.get(level, "custom")),
            ("question_marks", "on" if marks else "off"),
        ),
    )


def _read_early(reader: ByteReader) -> Replay:
    """Clone 0.96 and earlier: no header; the time, name and checksum at the end."""
    data = reader.data
    cols, rows, field = _board(reader, 0)
    level = _EARLY_LEVELS.get((cols, rows))
    if level is None:
        raise reader.error(
            f"no 0x11 0x4D header and a {cols}x{rows} board: not a Clone replay "
            "(Clone 0.96 and earlier, which have no header, saved only 8x8, 16x16 and 30x16 games)",
            0,
        )
    marks = reader.u8("the question marks setting")
    reader.u8("the byte after the question marks")
    events_at = reader.offset
    size = len(data)
    if size - 22 < events_at:
        raise reader.error("too short for the time and checksum at the end", size)

    def is_digit(at: int) -> bool:
        return 0x30 <= data[at] <= 0x39

    # The checksum tells the versions apart (so parser_mvf.c): from 0.8 it is
    # 20 bytes between two zero bytes; up to 0.76 it is 10 digits, and 0.76
    # put a 100-byte name, padded with spaces, before it.
    if not is_digit(size - 1) and not is_digit(size - 22):
        version, number, time_at, name = "0.8 to 0.96", 96, size - 125, data[size - 122 : size - 22]
    elif data[size - 13 : size - 10] == b"   ":
        version, number, time_at, name = "0.76", 76, size - 113, data[size - 110 : size - 10]
    else:
        version, number, time_at, name = "0.75 or earlier", 75, size - 13, b""
    if time_at < events_at:
        raise reader.error(f"too short for Clone {version}'s time, name and checksum", size)
    reader.offset = time_at
    score_ms = reader.u16("the time") * 1000 + reader.u8("the time's hundredths") * 10
    # The events run to the time; the last records may be left-overs, so the
    # first going back in time or past the final time ends them (as in
    # parser_mvf.c).
    count = (time_at - events_at) // 8
    raw = np.frombuffer(data, np.uint8, 8 * count, events_at).reshape(count, 8).astype(np.int64)
    ms = raw[:, 0] * 1000 + raw[:, 1] * 10
    going_back = np.flatnonzero(np.diff(ms) < 0)
    end = int(going_back[0]) + 1 if len(going_back) else count
    beyond = np.flatnonzero(ms[:end] > score_ms)
    end = int(beyond[0]) if len(beyond) else end
    if end == 0:
        raise reader.error(f"no events before Clone {version}'s time", events_at)
    raw, ms = raw[:end], ms[:end]
    # Clone saves no record for the last release: one with no button held,
    # at the last place and time, ends the game (so parser_mvf.c).
    records = np.vstack([raw, raw[-1:] * np.array([0, 0, 0, 1, 1, 1, 1, 0])])
    ms = np.append(ms, ms[-1])
    offsets = np.append(events_at + 8 * np.arange(end, dtype=np.int64), events_at + 8 * (end - 1))
    events = _events(
        ms,
        (records[:, 2] & 1) != 0,
        (records[:, 2] & 4) != 0,
        (records[:, 2] & 2) != 0,
        records[:, 3] * 256 + records[:, 4],
        records[:, 5] * 256 + records[:, 6],
        offsets,
        reader,
        toollib_first_move=False,
    )
    player = decode_text(name.replace(b"\0", b" "), utf8="never").strip()
    return Replay(
        format="mvf",
        version=number,
        field=field,
        events=events,
        cell_px=16,
        software=f"Minesweeper Clone {version}",
        player=player,
        mode=0,  # classic: the only mode before 0.97
        claims=Claims(rtime=score_ms / 1000),
        extra=(("level", _LEVELS[level]), ("question_marks", "on" if marks else "off")),
    )


def _records(
    reader: ByteReader, size: int, seed: int
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """The u24 count and the permuted records after it: (count x bits, each record's offset)."""
    count = reader.u24("the number of events")
    if count == 0:
        raise reader.error("no events")
    events_at = reader.offset
    reader.need(size * count, f"{count} events")
    raw = np.frombuffer(reader.take(size * count, "the events"), np.uint8).reshape(count, size)
    byte_of, mask_of = _permutation(seed, 8 * size)
    bits = (raw[:, byte_of] & mask_of) != 0  # bit i of the permuted record
    return bits, events_at + size * np.arange(count, dtype=np.int64)


def _fields(bits: npt.NDArray[np.bool_], layout: _Layout) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_],
    npt.NDArray[np.int64], npt.NDArray[np.int64],
]:  # fmt: skip
    """Time (ms), left, right and middle held, x, y, from the permuted bits (rb, mb, lb first)."""
    values = (bits.astype(np.float64) @ _WEIGHTS[layout.size]).astype(np.int64)
    ys = values[:, 0] - layout.offset_px
    xs = values[:, 1] - layout.offset_px
    return np.ascontiguousarray(values[:, 2]), bits[:, 2], bits[:, 0], bits[:, 1], xs, ys


def _events(
    ms: npt.NDArray[np.int64],
    lb: npt.NDArray[np.bool_],
    rb: npt.NDArray[np.bool_],
    mb: npt.NDArray[np.bool_],
    xs: npt.NDArray[np.int64],
    ys: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    reader: ByteReader,
    *,
    toollib_first_move: bool,
) -> EventColumns:
    """The mouse events: the first record's held button (or a move), then each record's changes.

    Clone records the buttons' states, not presses: a record yields a move
    where the place changed, then a press or release per button that changed
    (in the order of :data:`_CHANGE_CODES`).
    """
    check_times(ms, offsets, reader)
    moved = (xs[1:] != xs[:-1]) | (ys[1:] != ys[:-1])
    if toollib_first_move and len(ms) > 1:
        # ms-toollib compares 0.97's second record's position with (0, 0),
        # not with the first record's, so it always starts with a move; so
        # do we there. RawVF's parser_mvf.c, the only reader of the other
        # versions, compares with the first record.
        moved[0] = xs[1] != 0 or ys[1] != 0
    # The buttons as bits (left 1, right 2, middle 4): a record's changes are
    # one byte, bit 0 the move, bits 1-3 the presses, 4-6 the releases, in
    # _CHANGE_CODES' order; a few whole-array steps, as a file's cost is
    # mostly fixed when it is small.
    held = lb.view(np.uint8) | (rb.view(np.uint8) << 1) | (mb.view(np.uint8) << 2)
    before, after = held[:-1], held[1:]
    changed = moved.view(np.uint8) | ((after & ~before) << 1) | ((before & ~after) << 4)
    changes = np.unpackbits(changed[:, None], axis=1, count=7, bitorder="little")
    record, change = np.nonzero(changes)  # row by row: each record's changes in order
    at = np.concatenate(([0], record + 1))
    first = 6 if mb[0] else 4 if rb[0] else 2 if lb[0] else 1  # mc, rc, lc, mv
    codes = np.concatenate((np.array([first], np.uint8), _CHANGE_CODES[change]))
    return event_arrays(
        ms[at] / 1000,
        codes,
        np.ascontiguousarray(xs[at], np.int64),
        np.ascontiguousarray(ys[at], np.int64),
    )


#: The kind codes (:data:`.model.CODE_BY_KIND`) of a record's changes, in their order.
_CHANGE_CODES = np.array(
    [CODE_BY_KIND[kind] for kind in ("mv", "lc", "rc", "mc", "lr", "rr", "mr")], np.uint8
)


@lru_cache(maxsize=64)
def _permutation(seed: int, size: int = 40) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
    """Where bit i of a decoded record lies in its stored bytes: (byte index, bit mask) arrays.

    Clone derives 8 decimal digits from each of five (0.97, 40 bits) or six
    (2006/2007, 48 bits) sines and cosines of square roots of the seed; the
    bit positions ordered by their digit (stably) give the order.
    """
    n1 = math.sqrt(seed)
    n2 = math.sqrt(seed + 1000.0)
    n3 = math.sqrt(n1 + 1000.0)
    n4 = math.sqrt(n2 + 1000.0)
    values = [
        math.cos(n3 + 1000.0),
        math.sin(math.sqrt(n2)),
        math.cos(n3),
        math.sin(math.sqrt(n1) + 1000.0),
        math.cos(n4),
        math.sin(n4),
    ][: size // 8]
    # Rust's round() (ms-toollib) rounds halves away from zero, as this does.
    digits = "".join(f"{math.floor(abs(value) * _SCALE + 0.5):08d}"[:8] for value in values)
    order = sorted(range(size), key=lambda j: digits[j])
    positions = np.asarray(order, dtype=np.int64)
    byte_of, mask_of = positions // 8, (1 << (positions % 8)).astype(np.uint8)
    byte_of.flags.writeable = mask_of.flags.writeable = False  # shared: cached by seed
    return byte_of, mask_of
