"""Viennasweeper replays (``.rmv``, format versions 1 and 2), after the open RMV specification.

A header of section sizes, then the sections: (v1) a text result string,
version info, player fields, the board, pre-flags, one-byte properties, (v2)
named extension properties, the events and a checksum. All integers are
big-endian. The section sizes must add up to the file's length, so a cut or
padded file is caught before anything else is read.

Events: mouse events (v1 coordinates relative to the window, 12 and 56 pixels
off the board's corner; v2 signed and relative to the board), v2 reduced moves
(code 28: a time step and two 4-bit signed steps), board events (skipped: the
board can be replayed from the mouse), and a termination (15 blast, 16 win,
17 other) with the game's time. As ms-toollib does, pre-flags become ``pf``
events at their square's corner, and the left press that started the game,
which Viennasweeper does not record, is added before the first mouse event.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..squares import square_name
from ._bytes import ByteReader, Utf8Rule
from ._common import check_times, event_arrays, field_from_cells
from .model import Claims, Replay

if TYPE_CHECKING:
    from ._kernels import RmvEvents

__all__ = ["read_rmv"]

_WIN, _BLAST, _OTHER = 16, 15, 17
#: RMV v2 clone ids (the specification's list; 0 means "see clone_name").
_CLONES = {1: "Viennasweeper", 2: "Arbiter", 3: "Minesweeper X", 4: "Minesweeper Clone",
           5: "Metasweeper", 6: "FreeSweeper", 7: "MySweeper"}  # fmt: skip
#: The player fields in their order; more are read and ignored.
_PLAYER_FIELDS = ("the player's name", "the nickname", "the country", "the token")
_LEVELS = {0: "beginner", 1: "intermediate", 2: "expert", 3: "custom"}
_RELEASE = re.compile(r"Release\s+(\S+)")


def read_rmv(data: bytes, where: str) -> Replay:
    """Read a Viennasweeper replay; ``where`` names the file in errors."""
    reader = ByteReader(data, where)
    if reader.take(4, "the signature") != b"*rmv":
        raise reader.error("the file does not start with '*rmv'", 0)
    version = reader.u16("the format version")
    if version not in (1, 2):
        raise reader.error(f"RMV format version {version} is not supported (only 1 and 2)", 4)
    clone_id = reader.u8("the clone id") if version == 2 else 1
    clone_major = reader.u8("the clone version") if version == 2 else None
    reader.u32("the file size")  # v2 files say 2 less than their length: not trusted
    names = ["result string"] if version == 1 else []
    names += ["version info", "player info", "board", "pre-flags", "properties"]
    if version == 2:
        names.append("extension properties")
    sizes = {name: reader.u16(f"the size of the {name}") for name in names}
    sizes["events"] = reader.u32("the size of the events")
    sizes["checksum"] = reader.u16("the size of the checksum")
    declared = reader.offset + sum(sizes.values())
    if declared != len(data):
        raise reader.error(
            f"the sections add up to {declared} bytes but the file has {len(data)}", len(data)
        )

    utf8 = _utf8_rule(data, reader.offset, version, sizes)
    extra: list[tuple[str, str]] = []
    claims_bbbv: int | None = None
    if version == 1:
        section = _section(reader, sizes["result string"])
        at = section.offset
        raw = section.take(sizes["result string"], "the result string")
        result = _result_string(reader.decode(raw, at, "the result string", utf8))
        extra.extend((f"result_{key.lower()}", value) for key, value in result.items())
        if result.get("3BV", "").isdigit():
            claims_bbbv = int(result["3BV"])
    at = reader.offset
    raw = reader.take(sizes["version info"], "the version info")
    version_info = reader.decode(raw, at, "the version info", utf8).strip("\0")
    extra.append(("version_info", version_info))
    if clone_major is not None:
        extra.append(("clone_major_version", str(clone_major)))

    section = _section(reader, sizes["player info"])
    fields = section.u16("the number of player fields")
    texts = []
    for index, what in enumerate(_PLAYER_FIELDS[:fields] + ("",) * (fields - 4)):
        what = what or f"player field {index + 1}"
        size = section.u8(f"the size of {what}")
        at = section.offset
        texts.append(reader.decode(section.take(size, what), at, what, utf8))
    texts += [""] * (4 - len(texts))
    player, nickname, country, token = texts[:4]
    if nickname:
        extra.append(("unique_identifier", nickname))
    if token:
        extra.append(("race_identifier", token))

    section = _section(reader, sizes["board"])
    boardgen = section.u32("the board's time stamp")
    cols = section.u8("the number of columns")
    rows = section.u8("the number of rows")
    mines = section.u16("the number of mines")
    mines_at = section.offset
    section.need(2 * mines, f"the {mines} mine positions")
    pairs = section.take(2 * mines, "the mine positions")
    field = field_from_cells(rows, cols, list(zip(pairs[1::2], pairs[::2], strict=True)),
                             reader, mines_at)  # fmt: skip

    preflags: list[tuple[int, int]] = []
    if sizes["pre-flags"]:
        section = _section(reader, sizes["pre-flags"])
        count = section.u16("the number of pre-flags")
        flags_at = section.offset
        section.need(2 * count, f"the {count} pre-flag positions")
        raw = section.take(2 * count, "the pre-flag positions")
        preflags = list(zip(raw[::2], raw[1::2], strict=True))
        for col, row in preflags:
            if col >= cols or row >= rows:
                raise reader.error(
                    f"pre-flag at {square_name(row, col)} is off the {rows}x{cols} board",
                    flags_at,
                )

    section = _section(reader, sizes["properties"])
    wanted = 4 if version == 1 else 7
    if sizes["properties"] < wanted:
        raise reader.error(f"{sizes['properties']} properties; at least {wanted} expected")
    marks, no_flags, mode, level = section.take(4, "the properties")
    extra.append(("question_marks", "on" if marks else "off"))
    extra.append(("level", _LEVELS.get(level, str(level))))
    cell_px = 16
    if version == 2:
        low, high, cell_px = section.take(3, "the properties")
        claims_bbbv = low | high << 8
        if cell_px == 0:
            raise reader.error("the square size is 0 pixels", section.offset - 1)
    elif sizes["properties"] > 4:
        extra.append(("utf8", "yes" if section.u8("the utf8 property") == 1 else "no"))

    clone_name = None
    if version == 2:
        section = _section(reader, sizes["extension properties"])
        count = section.u16("the number of extension properties")
        for index in range(count):
            size = section.u8("a name size")
            at = section.offset
            raw = section.take(size, f"extension {index + 1}")
            key = reader.decode(raw, at, f"the name of extension property {index + 1}", utf8)
            value = section.take(section.u8("a value size"), f"extension property {key!r}")
            try:
                text = value.decode("utf-8")
            except UnicodeDecodeError:
                text = value.hex()
            if key == "clone_name":
                clone_name = text
            extra.append((key, text))

    events_at = reader.offset
    events_end = events_at + sizes["events"]
    found = _events(data, events_at, events_end, reader, version, cell_px, preflags)
    check_times(found.times_ms, found.offsets, reader)
    events = event_arrays(found.times_ms / 1000, found.codes, found.xs, found.ys)
    extra.append(("termination", {_WIN: "win", _BLAST: "blast"}.get(found.ending, "other")))
    total_ms = found.total_ms

    if version == 1:
        software = "Viennasweeper"
    elif clone_id == 0:
        software = clone_name or "unknown clone"
    else:
        software = _CLONES.get(clone_id, f"clone {clone_id}")
    release = _RELEASE.search(version_info)
    if release is not None and software == "Viennasweeper":
        software = f"Viennasweeper {release.group(1)}"
    start_us = boardgen * 1_000_000
    return Replay(
        format="rmv",
        version=version,
        field=field,
        events=events,
        cell_px=cell_px,
        software=software,
        player=player,
        country=country,
        mode=mode,
        start_us=start_us,
        end_us=start_us + total_ms * 1000,
        claims=Claims(
            bbbv=claims_bbbv,
            rtime=total_ms / 1000,
            completed=found.ending == _WIN,
            no_flags=no_flags == 1,
        ),
        extra=tuple(extra),
    )


def _section(reader: ByteReader, size: int) -> ByteReader:
    """A reader of the next ``size`` bytes, which cannot read past them; ``reader`` moves on."""
    start = reader.offset
    reader.need(size, "a section")
    reader.offset += size
    return ByteReader(reader.data[: start + size], reader.where, start)


def _utf8_rule(data: bytes, at: int, version: int, sizes: dict[str, int]) -> Utf8Rule:
    """What the file says of its text, read ahead: the properties come after the text.

    v2 text is UTF-8 by the specification; v1 text is UTF-8 when the fifth
    property (utf8) is 1. A v1 file whose utf8 property is 0 was written in
    the machine's code page. One without the property (Viennasweeper before
    it, Arbiter and Clone conversions) says nothing; those programs wrote only
    the code page, so it is read as one: valid UTF-8 there is far more likely
    Windows-1252 or GBK bytes that happen to be valid UTF-8 than UTF-8 that
    the file forgot to declare, and ms-toollib reads them so too.
    """
    if version == 2:
        return "only"
    before = ("result string", "version info", "player info", "board", "pre-flags")
    props_at = at + sum(sizes[name] for name in before)
    if sizes["properties"] > 4 and data[props_at + 4] == 1:
        return "only"
    return "never"


def _result_string(text: str) -> dict[str, str]:
    """``\\nKEY:value#KEY:value#\\n`` as a dict; the values are text."""
    result = {}
    for item in text.strip().split("#"):
        key, colon, value = item.partition(":")
        if colon:
            result[key.strip()] = value.strip()
    return result


def _events(
    data: bytes,
    start: int,
    end: int,
    reader: ByteReader,
    version: int,
    cell_px: int,
    preflags: list[tuple[int, int]],
) -> RmvEvents:
    """Times (ms), kind codes, x, y and offsets of the events; the termination code and time.

    The events are decoded by ``rmv_events_kernel`` (:mod:`._kernels`); the
    pre-flags come first, at their squares' corners.
    """
    if preflags:
        pf_xs = np.array([col * cell_px for col, _ in preflags], np.int64)
        pf_ys = np.array([row * cell_px for _, row in preflags], np.int64)
    else:
        pf_xs = pf_ys = _NONE
    if type(data) is not bytes:  # the kernel is compiled for bytes alone
        data = bytes(data)
    found: RmvEvents = decode_events()(data, start, end, version, pf_xs, pf_ys)
    if found.status != _OK:
        message = _STOPPED.get(found.status) or f"unknown event code {found.ending}"
        raise reader.error(message, found.at)
    return found


_NONE = np.zeros(0, np.int64)
_OK = 0
#: Why ``rmv_events_kernel`` stopped, by its status (``RMV_*``; 7 is an unknown code).
_STOPPED = {
    1: "the events end without a termination event",
    2: "the file ends inside a mouse event",
    3: "the file ends inside a reduced mouse move",
    4: "the file ends inside a time stamp change",
    5: "the file ends inside a board event",
    6: "the file ends inside the termination event",
}


@cache
def decode_events() -> Callable[..., Any]:
    """``rmv_events_kernel`` as Python calls it; the kernels are imported on first use."""
    from .._jit import entry
    from . import _kernels

    if (_kernels.RMV_OK, _kernels.RMV_UNKNOWN) != (_OK, 7):
        raise AssertionError("rmv._STOPPED is out of step with _kernels.RMV_*")
    return entry(_kernels.rmv_events_kernel)
