"""Metasweeper replays (``.evf``, versions 0 to 4), read and written as ms-toollib 1.5.20 does.

Versions 0-3 (FORMATS.md §1.4): a flags byte (completed, official, fair, NF),
(v3) a settings byte, rows, columns, u16 mines, the square size, u16 mode,
u16 3BV, u24 time in ms, NUL-terminated texts (software, player, race id,
unique id, start, end, country, (v2+) device UUID), the mine bitmap row by
row, 8-byte events (kind, u24 absolute ms, u16 x, u16 y), then 0 and a
32-byte checksum, or 255 and none.

Version 4, as ms-toollib implements it (not the English v0.4 proposal): the
flags add "transcoded"; u32 time; 2-letter country; u64 start and end µs;
NUL texts (software, (transcoded) converting program and original format,
player, race id, unique id); u16-prefixed UUID; the bitmap; u16 count of
custom metric names (NUL texts); the first event (kind, u8 ms, u16 x, u16 y),
then events with u8 time steps and i16 position steps, game-state events
(81 replay, 82 win, 83 fail, 99 error: a u8 time step), pauses (255, u16 ms
added to the next step), codes 100-254 of one byte each (ms-toollib skips
them), 0 at the end, then a u16-prefixed checksum. Big-endian throughout.
"""

from __future__ import annotations

import struct

import numpy as np
import numpy.typing as npt

from ._bytes import ByteReader, decode_text
from ._common import check_times, event_arrays, field_from_mask
from .avf import parse_arbiter_times
from .model import EVENT_KINDS, Claims, EventKind, Replay

__all__ = ["read_evf", "write_evf"]

#: Event kind codes 1-12, in EVENT_KINDS' order (mv lc lr rc rr mc mr pf cc l r m).
_KIND_BY_CODE: tuple[EventKind | None, ...] = (
    None, "mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m",
)  # fmt: skip
assert _KIND_BY_CODE[1:] == EVENT_KINDS
_CODE_BY_KIND = {kind: code for code, kind in enumerate(_KIND_BY_CODE) if kind is not None}
_GAME_STATES = {81: "replay", 82: "win", 83: "fail", 99: "error"}
_PAUSE, _END = 255, 0
_CHECKSUM, _NO_CHECKSUM = 0, 255
_COMPLETED, _OFFICIAL, _FAIR, _NO_FLAGS, _TRANSCODED = 0x80, 0x40, 0x20, 0x10, 0x08
_QUESTION_MARKS, _CURSOR_CONFINED, _AUTO_RESTART = 0x80, 0x40, 0x20
#: Kinds that may open a v4 event list (ms-toollib reads no other first kind).
_FIRST_KINDS = {"mv": 1, "lc": 2, "rc": 4, "pf": 8}


def read_evf(data: bytes, where: str) -> Replay:
    """Read a Metasweeper replay of EVF version 0-4; ``where`` names the file in errors."""
    reader = ByteReader(data, where)
    if not data:
        raise reader.error("the file is empty")
    version = reader.u8("the version byte")
    if version > 4:
        raise reader.error(f"EVF version {version} is not supported (only 0-4)", 0)
    flags, settings, rows, cols, mines, cell_px, mode, bbbv, rtime_ms = _fixed(reader, version)
    extra: list[tuple[str, str]] = _settings(settings) if version >= 3 else []
    if version == 4:
        # v4 text is UTF-8 by the format (ms-toollib writes Rust strings and
        # refuses other bytes): invalid UTF-8 is an error naming the field.
        at = reader.offset
        country = reader.decode(reader.take(2, "the country"), at, "the country", "only")
        start_us: int | None = reader.u64("the start time")
        end_us: int | None = reader.u64("the end time")
        software = reader.text("the software", "only")
        if flags & _TRANSCODED:
            extra.append(("transcoded_by", reader.text("the converter", "only")))
            extra.append(("original_format", reader.text("the original format", "only")))
        player = reader.text("the player", "only")
        race = reader.text("the race id", "only")
        unique = reader.text("the unique id", "only")
        uuid = reader.take(reader.u16("the UUID length"), "the device UUID")
    else:
        software = reader.text("the software")
        player = reader.text("the player")
        race = reader.text("the race id")
        unique = reader.text("the unique id")
        start_at = reader.offset
        start_text = reader.text("the start time")
        end_text = reader.text("the end time")
        start_us, end_us = _times(software, start_text, end_text, rtime_ms, reader, start_at)
        country = reader.text("the country")
        uuid = reader.cstring("the device UUID") if version >= 2 else b""
    for name, value in (("race_identifier", race), ("unique_identifier", unique)):
        if value:
            extra.append((name, value))
    if uuid:
        extra.append(("device_uuid", decode_text(uuid, utf8="first")))

    board_at = reader.offset
    size = rows * cols
    reader.need((size + 7) // 8, f"the {rows}x{cols} mine bitmap")
    bitmap = np.frombuffer(data, np.uint8, (size + 7) // 8, board_at)
    reader.offset += (size + 7) // 8
    mask = np.unpackbits(bitmap, count=size).view(np.bool_).reshape(rows, cols)
    field = field_from_mask(mask, reader, board_at)
    if field.mine_count != mines:
        raise reader.error(
            f"the header says {mines} mines, the bitmap has {field.mine_count}", board_at
        )
    if version == 4:
        count = reader.u16("the number of custom metrics")
        for index in range(count):
            reader.text(f"custom metric name {index + 1}", "only")
        times, codes, xs, ys, states = _events_v4(reader)
        if states:
            extra.append(("game_states", " ".join(states)))
        checksum = reader.take(reader.u16("the checksum length"), "the checksum")
    else:
        times, codes, xs, ys, checksum = _events_v3(reader, version)
    if reader.left:
        raise reader.error(f"{reader.left} bytes after the checksum")
    if checksum:
        extra.append(("checksum", checksum.hex()))
    return Replay(
        format="evf",
        version=version,
        field=field,
        events=event_arrays(times, codes, xs, ys),
        cell_px=cell_px,
        software=software,
        player=player,
        country=country,
        mode=mode,
        start_us=start_us,
        end_us=end_us,
        claims=Claims(
            bbbv=bbbv,
            rtime=rtime_ms / 1000,
            completed=bool(flags & _COMPLETED),
            official=bool(flags & _OFFICIAL),
            fair=bool(flags & _FAIR),
            no_flags=bool(flags & _NO_FLAGS),
        ),
        extra=tuple(extra),
    )


#: The fixed fields after the version byte: flags, (v3+) settings, rows,
#: columns, mines, square size, mode, 3BV, time (u24 before v4, u32 in v4).
_FIXED = {
    version: struct.Struct(
        ">B" + ("B" if version >= 3 else "") + "BBHBHH" + ("I" if version == 4 else "3s")
    )
    for version in range(5)
}


def _fixed(reader: ByteReader, version: int) -> tuple[int, int, int, int, int, int, int, int, int]:
    """The fixed header: ``(flags, settings, rows, cols, mines, cell_px, mode, bbbv, rtime_ms)``.

    One unpack when the file holds them all, else field by field, so that
    the error names the field where the file ends.
    """
    layout = _FIXED[version]
    at = reader.offset
    if reader.left >= layout.size:
        fields = layout.unpack_from(reader.data, at)
        if version < 3:
            fields = (fields[0], 0, *fields[1:])
        flags, settings, rows, cols, mines, cell_px, mode, bbbv, rtime = fields
        if cell_px == 0:
            raise reader.error("the square size is 0 pixels", at + (6 if version >= 3 else 5))
        reader.offset = at + layout.size
        rtime_ms = rtime if version == 4 else int.from_bytes(rtime, "big")
        return flags, settings, rows, cols, mines, cell_px, mode, bbbv, rtime_ms
    flags = reader.u8("the flags byte")
    settings = reader.u8("the settings byte") if version >= 3 else 0
    rows = reader.u8("the number of rows")
    cols = reader.u8("the number of columns")
    mines = reader.u16("the number of mines")
    cell_px = reader.u8("the square size")
    if cell_px == 0:
        raise reader.error("the square size is 0 pixels", reader.offset - 1)
    mode = reader.u16("the mode")
    bbbv = reader.u16("the 3BV")
    rtime_ms = reader.u32("the time") if version == 4 else reader.u24("the time")
    return flags, settings, rows, cols, mines, cell_px, mode, bbbv, rtime_ms


def _settings(settings: int) -> list[tuple[str, str]]:
    # ms-toollib calls bit 0x80 use_question although the standard calls it
    # "question marks disabled"; Metasweeper always writes 0. We follow ms-toollib.
    return [
        ("question_marks", "on" if settings & _QUESTION_MARKS else "off"),
        ("cursor_confined", "on" if settings & _CURSOR_CONFINED else "off"),
        ("auto_restart", "on" if settings & _AUTO_RESTART else "off"),
    ]


def _times(
    software: str, start: str, end: str, rtime_ms: int, reader: ByteReader, at: int
) -> tuple[int | None, int | None]:
    """Start and end µs from v0-v3's texts: Arbiter's clock texts, Viennasweeper's seconds, µs."""
    try:
        if software == "Arbiter":
            return parse_arbiter_times(start, end)
        if software == "Viennasweeper":
            return int(start) * 1_000_000, int(start) * 1_000_000 + rtime_ms * 1000
        return (int(start) if start.isdigit() else None), (int(end) if end.isdigit() else None)
    except ValueError:
        raise reader.error(f"bad start or end time {start!r}, {end!r}", at) from None


#: An EVF v0-v3 event record: the kind and the u24 time in one big-endian u32, x, y.
_RECORD = np.dtype([("head", ">u4"), ("x", ">u2"), ("y", ">u2")])


def _events_v3(
    reader: ByteReader, version: int
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.int64],
    bytes,
]:  # fmt: skip
    """8-byte events up to the end byte (0: a 32-byte checksum follows; 255: none).

    A well-formed file takes a few numpy calls (a batch of small replays
    spends a fifth of its reading here); anything odd is left to
    :func:`_events_v3_checked`, which finds and names the fault.
    """
    data, start = reader.data, reader.offset
    highest = 12 if version >= 3 else 9
    if start < len(data):
        codes = np.frombuffer(data, np.uint8, offset=start)[::8]
        # The first code that is no kind (1..highest) must be the end byte.
        # (argmax: the first True; 0, a kind, when there is none.)
        count = int(((codes - 1) >= highest).argmax())
        if data[start + 8 * count] in (_CHECKSUM, _NO_CHECKSUM):
            records = np.frombuffer(data, _RECORD, count=count, offset=start)
            times_ms = records["head"] & 0xFFFFFF
            if count < 2 or not (times_ms[1:] < times_ms[:-1]).any():
                reader.offset = start + 8 * count
                end = reader.u8("the end byte")
                checksum = reader.take(32, "the checksum") if end == _CHECKSUM else b""
                return (
                    times_ms / 1000,
                    codes[:count].copy(),
                    records["x"].astype(np.int64),
                    records["y"].astype(np.int64),
                    checksum,
                )
    return _events_v3_checked(reader, version)


def _events_v3_checked(
    reader: ByteReader, version: int
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.int64],
    bytes,
]:  # fmt: skip
    """:func:`_events_v3`, each check apart, so that a fault is named where it is."""
    data, start = reader.data, reader.offset
    codes = np.frombuffer(data, np.uint8, offset=start)[::8]
    ends = np.flatnonzero((codes == _CHECKSUM) | (codes == _NO_CHECKSUM))
    if ends.size == 0:
        raise reader.error("the events have no end byte (0 or 255)", start + 8 * len(codes))
    count = int(ends[0])
    records = np.frombuffer(data, np.uint8, count=8 * count, offset=start).reshape(count, 8)
    offsets = start + 8 * np.arange(count, dtype=np.int64)
    highest = 12 if version >= 3 else 9
    bad = np.flatnonzero(records[:, 0] > highest)
    if bad.size:
        i = int(bad[0])
        raise reader.error(f"event {i + 1} has unknown kind {records[i, 0]}", int(offsets[i]))
    wide = records.astype(np.int64)
    times_ms = wide[:, 1] << 16 | wide[:, 2] << 8 | wide[:, 3]
    check_times(times_ms, offsets, reader)
    reader.offset = start + 8 * count
    end = reader.u8("the end byte")
    checksum = reader.take(32, "the checksum") if end == _CHECKSUM else b""
    return (
        times_ms / 1000,
        records[:, 0].copy(),
        wide[:, 4] << 8 | wide[:, 5],
        wide[:, 6] << 8 | wide[:, 7],
        checksum,
    )


def _events_v4(
    reader: ByteReader,
) -> tuple[
    npt.NDArray[np.float64], npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.int64],
    list[str],
]:  # fmt: skip
    """The v4 event stream: one absolute first event, then steps, up to the 0 byte."""
    data = reader.data
    first_at = reader.offset
    first_code = reader.u8("the first event")
    if first_code not in _FIRST_KINDS.values():
        raise reader.error(
            f"the first event has kind {first_code}; expected 1, 2, 4 or 8", first_at
        )
    first_ms = reader.u8("the first event's time")
    x0 = reader.u16("the first event's x")
    y0 = reader.u16("the first event's y")
    # Frame the stream first (one pass over the codes), then decode the mouse
    # events' fields with numpy: most events are 6-byte mouse records.
    mouse: list[int] = []  # offsets of mouse records after the first
    steps: list[int] = []  # offsets of every time step, in order, and whether a pause
    pauses: list[int] = []
    states: list[tuple[int, str]] = []  # (index into steps, name)
    pos, end = reader.offset, len(data)
    while True:
        if pos >= end:
            raise reader.error("the events end without the 0 byte", pos)
        code = data[pos]
        if 1 <= code <= 12:
            if pos + 6 > end:
                raise reader.error("the file ends inside a mouse event", pos)
            mouse.append(pos)
            steps.append(pos)
            pos += 6
        elif code == _END:
            pos += 1
            break
        elif code == _PAUSE:
            if pos + 3 > end:
                raise reader.error("the file ends inside a pause", pos)
            pauses.append(len(steps))
            steps.append(pos)
            pos += 3
        elif code in _GAME_STATES:
            if pos + 2 > end:
                raise reader.error("the file ends inside a game-state event", pos)
            states.append((len(steps), _GAME_STATES[code]))
            steps.append(pos)
            pos += 2
        elif code >= 100:
            pos += 1  # ms-toollib reads no payload for 100-254
        else:
            raise reader.error(f"unknown event kind {code}", pos)
    reader.offset = pos
    buffer = np.frombuffer(data, np.uint8)
    at = np.asarray(steps, dtype=np.int64)
    increments = buffer[at + 1].astype(np.int64)
    if pauses:
        paused = at[pauses]
        increments[pauses] = buffer[paused + 1].astype(np.int64) << 8 | buffer[paused + 2]
    clock = first_ms + np.cumsum(increments)
    is_mouse = np.ones(len(steps), dtype=np.bool_)
    is_mouse[pauses] = False
    is_mouse[[index for index, _ in states]] = False
    times_ms = np.concatenate(([first_ms], clock[is_mouse]))
    where = np.asarray(mouse, dtype=np.int64)
    dx = (buffer[where + 2].astype(np.int64) << 8 | buffer[where + 3]).astype(np.uint16)
    dy = (buffer[where + 4].astype(np.int64) << 8 | buffer[where + 5]).astype(np.uint16)
    # Positions add up in 16 bits as ms-toollib's do (a step below 0 wraps).
    xs = (x0 + np.cumsum(dx.view(np.int16), dtype=np.int64)) & 0xFFFF
    ys = (y0 + np.cumsum(dy.view(np.int16), dtype=np.int64)) & 0xFFFF
    codes = np.empty(len(mouse) + 1, np.uint8)
    codes[0] = first_code
    codes[1:] = buffer[where]
    state_names = [f"{name}@{int(clock[index])}" for index, name in states]
    return (
        times_ms / 1000,
        codes,
        np.concatenate(([x0], xs)),
        np.concatenate(([y0], ys)),
        state_names,
    )


def write_evf(replay: Replay) -> bytes:
    """The replay as EVF version 4 bytes, laid out as ms-toollib 1.5.20 writes them.

    Header values come from the replay's claims (3BV, time, flags), as a
    converter would copy them; a claim the file did not make is written as
    0 or false. Positions off the board are written as ms-toollib's off-board
    mark, (columns x square size, rows x square size). The checksum is empty
    (length 0), which ms-toollib reads. Replays converted from another format
    are marked transcoded, by "minesweep", from that format.

    Raises ValueError when the replay cannot be written: more than 255 rows
    or columns, a first event later than 255 ms or of a kind EVF v4 cannot
    start with, or times going backwards.
    """
    rows, cols, px = replay.rows, replay.cols, replay.cell_px
    if rows > 255 or cols > 255 or not 1 <= px <= 255 or max(rows, cols) * px > 32767:
        raise ValueError(f"a {rows}x{cols} board of {px}-pixel squares does not fit EVF v4")
    if replay.mines > 65535:
        raise ValueError(f"{replay.mines} mines do not fit EVF v4")
    if not replay.events:
        raise ValueError("EVF v4 needs at least one event")
    claims = replay.claims
    extra = dict(replay.extra)
    transcoded = replay.format != "evf" or "transcoded_by" in extra
    flags = (
        (_COMPLETED if claims.completed else 0)
        | (_OFFICIAL if claims.official else 0)
        | (_FAIR if claims.fair else 0)
        | (_NO_FLAGS if claims.no_flags else 0)
        | (_TRANSCODED if transcoded else 0)
    )
    settings = (
        (_QUESTION_MARKS if extra.get("question_marks") == "on" else 0)
        | (_CURSOR_CONFINED if extra.get("cursor_confined") == "on" else 0)
        | (_AUTO_RESTART if extra.get("auto_restart") == "on" else 0)
    )
    country = replay.country
    if not (len(country) == 2 and country.isascii() and country.isalpha()):
        country = "XX"
    rtime_ms = round((claims.rtime or 0.0) * 1000)
    out = bytearray(struct.pack(">BBBBBHBHHI", 4, flags, settings, rows, cols, replay.mines,
                                px, replay.mode, claims.bbbv or 0, rtime_ms))  # fmt: skip
    out += country.upper().encode("ascii")
    out += struct.pack(">QQ", replay.start_us or 0, replay.end_us or 0)
    texts = [replay.software]
    if transcoded:
        texts += [
            extra.get("transcoded_by", "minesweep"),
            extra.get("original_format", replay.format),
        ]
    texts += [replay.player, extra.get("race_identifier", ""), extra.get("unique_identifier", "")]
    for text in texts:
        raw = text.encode("utf-8")
        if b"\0" in raw:
            raise ValueError(f"text {text!r} holds a NUL character")
        out += raw + b"\0"
    uuid = extra.get("device_uuid", "").encode("utf-8")
    out += struct.pack(">H", len(uuid)) + uuid
    out += np.packbits(replay.field.mines.ravel()).tobytes()
    out += b"\0\0"  # no custom metrics
    out += _encode_events(replay, rows * px, cols * px)
    out += b"\0\0\0"  # the end of the events, and a checksum of length 0
    return bytes(out)


def _encode_events(replay: Replay, height: int, width: int) -> bytes:
    events = replay.events
    times = [round(event.time * 1000) for event in events]
    first = events[0]
    if first.kind not in _FIRST_KINDS:
        raise ValueError(f"EVF v4 cannot start with a {first.kind!r} event")
    if not 0 <= times[0] <= 255:
        raise ValueError(f"the first event is at {times[0]} ms; EVF v4 needs 0-255 ms")

    def position(x: int, y: int) -> tuple[int, int]:
        return (x, y) if 0 <= x < width and 0 <= y < height else (width, height)

    last_x, last_y = position(first.x, first.y)
    out = bytearray(struct.pack(">BBHH", _FIRST_KINDS[first.kind], times[0], last_x, last_y))
    pack = struct.Struct(">BBhh").pack
    codes = _CODE_BY_KIND
    for index in range(1, len(events)):
        event = events[index]
        step = times[index] - times[index - 1]
        if step < 0:
            raise ValueError(f"event {index + 1} is earlier than the event before it")
        while step > 255:
            pause = min(step, 65535)
            out += struct.pack(">BH", _PAUSE, pause)
            step -= pause
        x, y = position(event.x, event.y)
        out += pack(codes[event.kind], step, x - last_x, y - last_y)
        last_x, last_y = x, y
    return bytes(out)
