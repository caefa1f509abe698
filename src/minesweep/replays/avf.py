"""Minesweeper Arbiter replays (``.avf``, Arbiter 0.35 to 0.52.3).

The format is closed; this follows what ms-toollib, RawVF and sweeping-view
found by reading the bytes (see FORMATS.md §1.2):

- byte 0 the major version (52 for 0.52.3), bytes 1-4 unused, byte 5 the
  level (3-6 beginner .. custom; custom adds width-1, height-1, u16 mines);
- one (row, column) byte pair per mine, counted from 1;
- an obfuscated block, then the text header
  ``[L|start|end|(HS|)B<3BV>T<time+1>]`` (custom: ``W..H..M..|`` after ``L|``);
  the byte two before ``[`` says whether question marks were on (17) or off (127);
- 8-byte mouse records ``(code, x_hi, sec_lo, x_lo, hundredths, y_hi, sec_hi, y_lo)``,
  time = seconds - 1 + hundredths / 100, ended by a record whose seconds are 0;
- code 11 is a left press with Shift held (a one-button chord, RawVF's
  ``sc``): read as a middle press, and the left release ending it as a middle
  release (see :func:`._common.shift_chord_kinds`);
- a footer: ``RealTime: ..\\r``, ``Skin: ..\\r``, the player's name ``\\r`` and
  the program's name and version.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

import numpy as np
import numpy.typing as npt

from ._bytes import ByteReader, decode_text
from ._common import check_times, event_arrays, field_from_cells, shift_chord_kinds
from .model import CODE_BY_KIND, Claims, EventKind, Replay

__all__ = ["parse_arbiter_times", "read_avf"]

#: Board sizes of the levels byte 5 names (rows, cols, mines); 6 is custom.
_LEVELS = {3: (8, 8, 10), 4: (16, 16, 40), 5: (16, 30, 99)}
_LEVEL_NAMES = {3: "beginner", 4: "intermediate", 5: "expert", 6: "custom"}

#: Mouse record codes. 145 and 193 are releases of the right and middle
#: buttons while another is held, 21 a left release after a shift-chord
#: (11, the shift-chord press itself, is read by :func:`_codes`).
_KINDS: dict[int, EventKind] = {
    1: "mv", 3: "lc", 5: "lr", 9: "rc", 17: "rr", 33: "mc", 65: "mr",
    145: "rr", 193: "mr", 21: "lr",
}  # fmt: skip
_SHIFT_CHORD = 11

#: Country codes behind one byte of the obfuscated block, as ms-toollib knows them.
_COUNTRIES = {8: "CN", 37: "CN", 10: "GB", 12: "FR", 13: "DE", 23: "KR", 29: "PL",
              31: "RU", 41: "US", 69: "JP"}  # fmt: skip

# The header opens with "[" and the level digit; the first mouse record has
# seconds 1 (the clock starts at 1) and an x below 512.
_HEADER_START = re.compile(rb"\[[0-3]\|")
_FIRST_RECORD = re.compile(rb".[\x00\x01]\x01", re.DOTALL)
_SCORE = re.compile(r"B(\d+)T(\d+(?:[.,]\d*)?)$")
_PROGRAM_VERSION = re.compile(r"Arbiter\s+(\d[\w.]*?)\.?(?:\s|$)")


def read_avf(data: bytes, where: str) -> Replay:
    """Read an Arbiter replay; ``where`` names the file in errors."""
    reader = ByteReader(data, where)
    if not data:
        raise reader.error("the file is empty")
    version = reader.u8("the version byte")
    reader.take(4, "the header")
    level_at = reader.offset
    level = reader.u8("the level byte")
    if level in _LEVELS:
        rows, cols, mines = _LEVELS[level]
    elif level == 6:
        cols = reader.u8("the board width") + 1
        rows = reader.u8("the board height") + 1
        mines = reader.u16("the mine count")
    else:
        raise reader.error(f"level byte {level} is none of 3-6 (beginner .. custom)", level_at)
    if mines > rows * cols:
        raise reader.error(f"{mines} mines do not fit on a {rows}x{cols} board", level_at)
    mines_at = reader.offset
    reader.need(2 * mines, f"the {mines} mine positions")
    pairs = reader.take(2 * mines, "the mine positions")
    field = field_from_cells(rows, cols, list(zip(pairs[::2], pairs[1::2], strict=True)),
                             reader, mines_at, base=1)  # fmt: skip
    country = _country(field.mines, field.numbers, reader)

    match = _HEADER_START.search(data, reader.offset)
    if match is None:
        raise reader.error("no '[level|' text header after the mines", reader.offset)
    header_at = match.start()
    extra: list[tuple[str, str]] = [("level", _LEVEL_NAMES[level])]
    marks = data[header_at - 2] if header_at >= 2 else None
    if marks in (17, 127):
        extra.append(("question_marks", "on" if marks == 17 else "off"))
    end = data.find(b"]", header_at)
    if end < 0:
        raise reader.error("the text header has no closing ']'", header_at)
    header = data[header_at + 1 : end].decode("latin-1")
    bbbv, rtime, start_us, end_us, high_score = _parse_header(header, reader, header_at)
    if high_score:
        extra.append(("high_score", "yes"))

    first = _FIRST_RECORD.search(data, end + 1)
    if first is None:
        raise reader.error("no mouse events after the text header", end + 1)
    events_at = first.start()
    count = (len(data) - events_at) // 8
    records = np.frombuffer(data, dtype=np.uint8, count=count * 8, offset=events_at)
    records = records.reshape(count, 8).astype(np.int64)
    ends = np.flatnonzero((records[:, 2] == 0) & (records[:, 6] == 0))
    if ends.size == 0:
        raise reader.error("the mouse events have no end record (seconds 0)", events_at)
    records = records[: int(ends[0])]
    offsets = events_at + 8 * np.arange(len(records), dtype=np.int64)
    codes = _codes(records[:, 0], offsets, reader)
    hundredths = records[:, 4]
    bad = np.flatnonzero(hundredths > 99)
    if bad.size:
        i = int(bad[0])
        raise reader.error(f"event {i + 1} has {int(hundredths[i])} hundredths", int(offsets[i]))
    centis = ((records[:, 6] << 8 | records[:, 2]) - 1) * 100 + hundredths
    check_times(centis * 10, offsets, reader)
    xs = records[:, 1] << 8 | records[:, 3]
    ys = records[:, 5] << 8 | records[:, 7]
    events = event_arrays(centis / 100, codes, xs, ys)

    footer_at = events_at + 8 * (len(records) + 1)
    player, software, footer_extra = _footer(data, footer_at, version, reader)
    extra.extend(footer_extra)
    return Replay(
        format="avf",
        version=version,
        field=field,
        events=events,
        cell_px=16,
        software=software,
        player=player,
        country=country,
        start_us=start_us,
        end_us=end_us,
        claims=Claims(bbbv=bbbv, rtime=rtime),
        extra=tuple(extra),
    )


def _country(mines: np.ndarray, numbers: np.ndarray, reader: ByteReader) -> str:
    """The country byte, found as ms-toollib finds it: after a skip computed from the board."""
    rows, cols = mines.shape
    weight = np.where(mines, 10, numbers.astype(np.int64) + 1)
    x = np.arange(cols, dtype=np.int64)[None, :]
    y = np.arange(rows, dtype=np.int64)[:, None]
    total = int((weight * (x + x * y)).sum())
    skip = len(str(total)) + 4
    if reader.left <= skip:
        raise reader.error("the file ends inside the block after the mines")
    code = reader.data[reader.offset + skip]
    return _COUNTRIES.get(code, "")


def parse_arbiter_times(start: str, end: str) -> tuple[int, int]:
    """Arbiter's start and end texts, ``d.m.yyyy.hh:mm:ss:xyyy`` and ``d.hh:mm:ss:xyyy``, in µs.

    Arbiter writes the milliseconds as ms/100, ms/10 and ms%10 run together
    ("9912" is 912 ms), so all but the first digit are the milliseconds. The
    text has no time zone; it is read as UTC (as ms-toollib does). An end day
    before the start day is in the next month. Raises ValueError.
    """
    day, month, year, clock = start.split(".", 3)
    start_dt, start_ms = _clock(int(year), int(month), int(day), clock)
    end_day, end_clock = end.split(".", 1)
    month_, year_ = int(month), int(year)
    if int(end_day) < int(day):
        month_, year_ = (1, year_ + 1) if month_ == 12 else (month_ + 1, year_)
    end_dt, end_ms = _clock(year_, month_, int(end_day), end_clock)
    return _micros(start_dt, start_ms), _micros(end_dt, end_ms)


def _clock(year: int, month: int, day: int, clock: str) -> tuple[datetime, int]:
    hour, minute, second, sub = clock.split(":")
    if len(sub) < 2 or not sub.isdigit():
        raise ValueError(f"milliseconds {sub!r}")
    when = datetime(year, month, day, int(hour), int(minute), int(second), tzinfo=UTC)
    return when, int(sub[1:])


def _micros(when: datetime, ms: int) -> int:
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return ((when - epoch) // _SECOND) * 1_000_000 + ms * 1000


_SECOND = datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC) - datetime(1970, 1, 1, tzinfo=UTC)


def _parse_header(
    header: str, reader: ByteReader, at: int
) -> tuple[int, float, int | None, int | None, bool]:
    """3BV, time (the header's T minus the 1 s Arbiter adds), start and end µs, high score."""
    score = _SCORE.search(header)
    if score is None:
        raise reader.error(f"the text header {header!r} has no B<3BV>T<time>", at)
    try:
        shown = Decimal(score.group(2).replace(",", "."))
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        raise reader.error(f"bad time in the text header {header!r}", at) from None
    rtime = float(shown - 1)
    parts = header[: score.start()].rstrip("|").split("|")
    high_score = "HS" in parts
    parts = [part for part in parts if part != "HS"]
    if len(parts) > 1 and parts[1].startswith("W"):
        del parts[1]
    start_us = end_us = None
    if len(parts) >= 3:
        try:
            start_us, end_us = parse_arbiter_times(parts[1], parts[2])
        except ValueError:
            raise reader.error(
                f"bad start or end time {parts[1]!r}, {parts[2]!r} in the text header", at
            ) from None
    return int(score.group(1)), rtime, start_us, end_us, high_score


def _codes(
    codes: npt.NDArray[np.integer[Any]], offsets: npt.NDArray[np.int64], reader: ByteReader
) -> npt.NDArray[np.uint8]:
    """The kind codes (:data:`.model.CODE_BY_KIND`) of the records' codes, by a table.

    A file with a shift chord goes through :func:`._common.shift_chord_kinds`.
    """
    kind_codes: npt.NDArray[np.uint8] = _KIND_CODES[codes]
    unknown = np.flatnonzero(kind_codes == 0)
    if unknown.size:
        i = int(unknown[0])
        raise reader.error(f"event {i + 1} has unknown code {int(codes[i])}", int(offsets[i]))
    if not (kind_codes == _SHIFT_CODE).any():
        return kind_codes
    table = _KIND_BY_RECORD
    kinds = shift_chord_kinds([table[code] for code in codes.tolist()])
    return np.fromiter(map(CODE_BY_KIND.__getitem__, kinds), np.uint8, len(kinds))


#: The kind of each record code, the shift chord as ``sc``.
_KIND_BY_RECORD: dict[int, str] = {**_KINDS, _SHIFT_CHORD: "sc"}
#: ``_KIND_BY_RECORD`` as kind codes by record code (0 unknown, 255 the shift chord).
_SHIFT_CODE = 255
_KIND_CODES = np.zeros(256, np.uint8)
for _record, _kind in _KINDS.items():
    _KIND_CODES[_record] = CODE_BY_KIND[_kind]
_KIND_CODES[_SHIFT_CHORD] = _SHIFT_CODE
del _record, _kind


def _footer(
    data: bytes, at: int, version: int, reader: ByteReader
) -> tuple[str, str, list[tuple[str, str]]]:
    """The player's name, the program's name and version, and the real time and skin."""
    extra: list[tuple[str, str]] = []
    skin_at = data.find(b"Skin:", at)
    if skin_at < 0:
        raise reader.error("no 'Skin:' line after the mouse events", at)
    real_at = data.find(b"RealTime:", at, skin_at)
    if real_at >= 0:
        line_end = data.find(b"\r", real_at, skin_at)
        if line_end >= 0:
            extra.append(("real_time", data[real_at + 9 : line_end].decode("latin-1").strip()))
    skin_end = data.find(b"\r", skin_at)
    if skin_end < 0:
        raise reader.error("the 'Skin:' line has no end", skin_at)
    # Arbiter is an ANSI Windows program: its text is the machine's code
    # page (Windows-1252, or GBK on Chinese systems), never UTF-8.
    extra.append(("skin", decode_text(data[skin_at + 5 : skin_end], utf8="never").strip()))
    name_end = data.find(b"\r", skin_end + 1)
    if name_end < 0:
        raise reader.error("the player's name has no end", skin_end + 1)
    player = decode_text(data[skin_end + 1 : name_end], utf8="never")
    program_end = data.find(b"\r", name_end + 1)
    program_raw = data[name_end + 1 : program_end if program_end >= 0 else len(data)]
    program = decode_text(program_raw, utf8="never")
    match = _PROGRAM_VERSION.search(program)
    if match is not None:
        software = f"Arbiter {match.group(1)}"
    else:
        software = f"Arbiter 0.{version}" if version else "Arbiter"
    if program:
        extra.append(("program", program.strip()))
    return player, software, extra
