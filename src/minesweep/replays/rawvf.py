"""RawVF Rev6 text replays: read and write.

RawVF is the text form the RawVF parsers print for every binary format and
that the web player and ranking sites read::

    RawVF_Version: Rev6
    Program: Arbiter
    ...                       (Key: value lines)
    Board:
    **0000..                  (one line per row, * a mine)
    Events:
    0.000 lc 2 1 (18 1)       (time, kind, column, row counted from 1, (x y) pixels)

``sc`` (a left press with Shift, a one-button chord, written for Arbiter's
and FreeSweeper's replays) is read as a middle press and the left release
ending it as a middle release, as the AVF reader reads code 11. ``mt`` is
refused: no RawVF parser writes or reads it (``parser_raw.c`` stops at it as
an unknown event), so nothing says what it means. Other event lines
(``start``, ``won``, board events, ...) are skipped. RawVF positions are
in 16-pixel squares; :func:`write_rawvf` scales other square sizes to 16
pixels, keeping each position in its square.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ._bytes import ByteReader, decode_text
from ._common import field_from_mask, make_events, shift_chord_kinds
from .model import Claims, EventKind, Replay, ReplayError

__all__ = ["read_rawvf", "write_rawvf"]

_KINDS = {"mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m"}
_READ_KINDS = _KINDS | {"sc"}
#: An event line: ``time kind [column row] (x y)`` after any spaces; what follows
#: is ignored. Spaces only (never a line break) inside, so each match is one line.
_EVENT_LINE = re.compile(
    r"^[^\S\n]*(-?\d+(?:\.\d*)?)[^\S\n]+([a-z]+)(?:[^\S\n]+-?\d+[^\S\n]+-?\d+)?"
    r"[^\S\n]*\([^\S\n]*(-?\d+)[^\S\n]+(-?\d+)[^\S\n]*\)",
    re.MULTILINE,
)
#: Event times at or beyond this many seconds are refused: their milliseconds
#: would not fit the int64 columns (the line-by-line reader crashed on them).
_MAX_SECONDS = 9e15
_MODES = {"classic": 0, "upk": 1, "cheat": 2, "density": 3}
_PX = 16


def read_rawvf(data: bytes, where: str) -> Replay:
    """Read RawVF text (UTF-8, or the legacy guess where it is not); ``where`` names the file."""
    text = decode_text(data, utf8="first")
    lines = text.splitlines()
    header: dict[str, str] = {}
    number = 0

    def error(message: str, line: int) -> ReplayError:
        return ReplayError(f"{where}: line {line}: {message}")

    while True:
        if number >= len(lines):
            raise error("no 'Board:' line", number)
        line = lines[number].strip()
        number += 1
        key, colon, value = line.partition(":")
        if key.strip().lower() == "board":
            break
        if colon:
            header[key.strip().lower()] = value.strip()
    try:
        cols, rows = int(header["width"]), int(header["height"])
    except (KeyError, ValueError):
        raise error("the header needs Width and Height as numbers", number) from None
    if not (1 <= rows <= 10_000 and 1 <= cols <= 10_000):
        raise error(f"a {rows}x{cols} board", number)
    if number + rows > len(lines):
        raise error(f"the board needs {rows} lines", len(lines))
    board = [lines[number + row].strip() for row in range(rows)]
    for row, line in enumerate(board):
        if len(line) < cols or set(line[:cols]) - set("*0123456789."):
            raise error(
                f"board line {row + 1} is not {cols} squares of '*' or '0'", number + row + 1
            )
    mask = np.array([[char == "*" for char in line[:cols]] for line in board], dtype=np.bool_)
    reader = ByteReader(data, where)
    field = field_from_mask(mask, reader, 0)
    number += rows

    times, kinds, xs, ys = _events(lines, number, error)

    extra = [(key, value) for key, value in header.items()
             if key not in ("width", "height", "mines", "player", "program", "version",
                            "time", "bbbv", "mode")]  # fmt: skip
    program = header.get("program", "")
    software = f"{program} {header.get('version', '')}".strip()
    status = header.get("status", "").lower()

    def number_or_none(key: str, kind: type[int] | type[float]) -> float | None:
        try:
            return kind(header[key])
        except (KeyError, ValueError):
            return None

    bbbv = number_or_none("bbbv", int)
    return Replay(
        format="rawvf",
        version=6,
        field=field,
        events=make_events(times / 1000, kinds, xs, ys),
        cell_px=_PX,
        software=software,
        player=header.get("player", ""),
        mode=_MODES.get(header.get("mode", "").lower(), 0),
        claims=Claims(
            bbbv=None if bbbv is None else int(bbbv),
            rtime=number_or_none("time", float),
            completed={"won": True, "lost": False}.get(status),
        ),
        extra=tuple(extra),
    )


def _events(
    lines: list[str], first: int, error: Callable[[str, int], ReplayError]
) -> tuple[npt.NDArray[np.int64], list[EventKind], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Times (ms), kinds, x and y of the event lines from ``lines[first]`` on.

    One regular-expression pass over the section's text and whole columns
    converted at once, not a match and four conversions a line: a line is an
    event exactly when it matches :data:`_EVENT_LINE` (stripped, it starts
    with ``time kind [column row] (x y)``; the tests hold this to a reader
    of one line at a time).
    """
    text = "\n".join(lines[first:])
    found: list[tuple[str, str, str, str]] = _EVENT_LINE.findall(text)

    def line_of(index: int) -> int:
        # Only for an error message: where the index-th event line starts.
        match = next(itertools.islice(_EVENT_LINE.finditer(text), index, None))
        return first + text.count("\n", 0, match.start()) + 1

    if not found:
        empty = np.zeros(0, np.int64)
        return empty, [], empty, empty
    time_text, all_kinds, x_text, y_text = zip(*found, strict=True)
    if "mt" in all_kinds:
        # parser_raw.c, the reference reader, stops here too ("Unknown
        # event"): no RawVF writer or reader gives mt a meaning to follow.
        at = line_of(all_kinds.index("mt"))
        raise error("event 'mt' is defined by no RawVF parser; not read", at)
    # Other kinds (board events, "start", "won", ...) are skipped.
    keep = np.fromiter(map(_READ_KINDS.__contains__, all_kinds), np.bool_, len(all_kinds))
    # Python's own float and int, through fromiter: numpy's conversion of
    # string arrays is slower (measured), and both read the same numbers.
    count = len(found)
    seconds = np.fromiter(map(float, time_text), np.float64, count)[keep]
    too_big = np.flatnonzero(~(np.abs(seconds) < _MAX_SECONDS))
    if too_big.size:
        i = int(too_big[0])
        raise error(f"event {i + 1} is at {seconds[i]} s", line_of(int(np.flatnonzero(keep)[i])))
    times = np.rint(seconds * 1000).astype(np.int64)
    back = np.flatnonzero(times[1:] < times[:-1])
    if back.size:
        i = int(back[0]) + 1
        raise error(
            f"event {i + 1} is at {int(times[i])} ms, before the previous event "
            f"({int(times[i - 1])} ms)",
            line_of(int(np.flatnonzero(keep)[i])),
        )
    kinds: list[str] = list(itertools.compress(all_kinds, keep))
    try:
        xs = np.fromiter(map(int, x_text), np.int64, count)[keep]
        ys = np.fromiter(map(int, y_text), np.int64, count)[keep]
    except OverflowError:
        raise error("an event's position is out of range", first + 1) from None
    return times, shift_chord_kinds(kinds), xs, ys


def write_rawvf(replay: Replay) -> str:
    """The replay as RawVF Rev6 text, positions scaled to 16-pixel squares."""
    px = replay.cell_px
    extra = dict(replay.extra)
    program, _, version = replay.software.partition(" ")
    level = extra.get("level", "")
    lines = [
        "RawVF_Version: Rev6",
        f"Program: {program}",
        f"Version: {version}",
        f"Player: {replay.player}",
        f"Level: {level.capitalize()}" if level else "Level: Custom",
        f"Width: {replay.cols}",
        f"Height: {replay.rows}",
        f"Mines: {replay.mines}",
        f"Marks: {'On' if extra.get('question_marks') == 'on' else 'Off'}",
    ]
    if replay.claims.rtime is not None:
        lines.append(f"Time: {replay.claims.rtime:.3f}")
    if replay.claims.bbbv is not None:
        lines.append(f"BBBV: {replay.claims.bbbv}")
    modes = {value: key.capitalize() for key, value in _MODES.items()}
    lines.append(f"Mode: {modes.get(replay.mode, 'Classic')}")
    if replay.claims.completed is not None:
        lines.append(f"Status: {'Won' if replay.claims.completed else 'Lost'}")
    lines.append("Board:")
    mines = replay.field.mines
    lines += ["".join("*" if mine else "0" for mine in row) for row in mines.tolist()]
    lines.append("Events:")
    for event in replay.events:
        x, y = _scale(event.x, px), _scale(event.y, px)
        ms = round(event.time * 1000)
        sign = "-" if ms < 0 else ""
        seconds, thousandths = divmod(abs(ms), 1000)
        cell = f"{x // _PX + 1} {y // _PX + 1}"
        lines.append(f"{sign}{seconds}.{thousandths:03d} {event.kind} {cell} ({x} {y})")
    return "\n".join(lines) + "\n"


def _scale(value: int, px: int) -> int:
    """A pixel of a ``px``-pixel square grid at the same place in a 16-pixel grid."""
    if px == _PX:
        return value
    square, within = divmod(value, px)
    return square * _PX + within * _PX // px
