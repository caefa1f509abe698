"""The MVF reader on files made here (Clone 0.97, 2006-2007, the early versions): no real one."""

from __future__ import annotations

from pathlib import Path

import pytest

from minesweep.replays.model import MouseEvent, ReplayError
from minesweep.replays.mvf import read_mvf
from minesweep.replays.rawvf import read_rawvf
from minesweep.replays.reading import read
from minesweep.replays.stats import replay_stats

from ._files import ms_toollib


def _mvf_097(mines: list[tuple[int, int]], states: list[tuple[int, int, int, int, int, int]],
             *, seed: int = 1234, width: int = 8, height: int = 8,
             name: bytes = b"Tommy") -> bytes:  # fmt: skip
    """A Clone 0.97 file; ``states`` are (ms, left, right, middle, x, y), ms in tens."""
    from minesweep.replays.mvf import _permutation

    byte_of, mask_of = _permutation(seed)
    head = bytearray(74)
    head[0:2] = b"\x11\x4d"
    head[27] = ord("5")
    out = head + bytes([5, 22]) + (2021).to_bytes(2, "big") + bytes([16, 39, 5])
    out += bytes([1, 1]) + (5).to_bytes(2, "big") + bytes([41])
    out += b"".join(n.to_bytes(2, "big") for n in (3, 3, 2, 0, 1)) + b"\0"
    out += bytes([width, height]) + len(mines).to_bytes(2, "big")
    out += b"".join(bytes([col + 1, row + 1]) for row, col in mines)
    out += bytes([len(name)]) + name + seed.to_bytes(2, "big") + len(states).to_bytes(3, "big")
    for ms, lb, rb, mb, x, y in states:
        value = [rb, mb, lb]
        value += [(y >> j) & 1 for j in range(9)] + [(x >> j) & 1 for j in range(9)]
        value += [((ms % 1000) // 10 >> j) & 1 for j in range(7)]
        value += [(ms // 1000 >> j) & 1 for j in range(10)] + [0, 0]
        record = bytearray(5)
        for bit, on in enumerate(value):
            if on:
                record[int(byte_of[bit])] |= int(mask_of[bit])
        out += record
    return bytes(out)


_MVF_STATES = [(0, 1, 0, 0, 20, 20), (50, 0, 0, 0, 20, 20), (120, 0, 0, 0, 40, 20),
               (300, 0, 1, 0, 40, 20), (340, 0, 0, 0, 40, 20), (1000, 1, 1, 0, 200, 200),
               (1100, 0, 0, 0, 200, 200)]  # fmt: skip


def test_mvf_097_matches_ms_toollib(tmp_path: Path) -> None:
    path = tmp_path / "made.mvf"
    path.write_bytes(_mvf_097([(0, 7), (3, 3)], _MVF_STATES))
    replay = read(path)
    assert replay.software == "Minesweeper Clone 0.97"
    assert replay.player == "Tommy"
    assert replay.field.mines[0, 7]
    assert replay.field.mines[3, 3]
    assert replay.mines == 2
    theirs = ms_toollib([path])[str(path)]
    assert [[c == -1 for c in row] for row in theirs["board"]] == replay.field.mines.tolist()
    assert [(round(t * 1000), k) for t, k, _, _ in theirs["events"]] == [
        (round(e.time * 1000), e.kind) for e in replay.events
    ]
    assert replay.events[-1] == MouseEvent(1.1, "rr", 200, 200)  # kept as given: off the board


def _mvf_2007(mines: list[tuple[int, int]], states: list[tuple[int, int, int, int, int, int]],
              *, seed: int = 4321, digit: str = "7", version: bytes = b"2007 beta",
              width: int = 8, height: int = 8, name: bytes = b"Tommy") -> bytes:  # fmt: skip
    """A Clone 2006/2007 file (docs/replays.md); ``states`` are (ms, left, right, middle, x, y)."""
    from minesweep.replays.mvf import _permutation

    byte_of, mask_of = _permutation(seed, 48)
    head = bytearray(71)
    head[0:2] = b"\x11\x4d"
    head[27] = ord(digit)
    head[53] = len(version)
    head[54 : 54 + len(version)] = version
    out = head + bytes([5, 22]) + (2007).to_bytes(2, "big") + bytes([16, 39, 5])
    out += bytes([1, 1]) + (1100).to_bytes(3, "big") + b"\0"
    out += bytes([width, height]) + len(mines).to_bytes(2, "big")
    out += b"".join(bytes([col + 1, row + 1]) for row, col in mines)
    out += bytes([len(name)]) + name + seed.to_bytes(2, "big") + len(states).to_bytes(3, "big")
    for ms, lb, rb, mb, x, y in states:
        value = [rb, mb, lb]
        value += [(y + 32 >> j) & 1 for j in range(11)] + [(x + 32 >> j) & 1 for j in range(11)]
        value += [(ms >> j) & 1 for j in range(22)] + [0]
        record = bytearray(6)
        for bit, on in enumerate(value):
            if on:
                record[int(byte_of[bit])] |= int(mask_of[bit])
        out += record
    return bytes(out)


def _mvf_early(mines: list[tuple[int, int]], states: list[tuple[int, int, int, int, int, int]],
               *, version: str, name: bytes = b"Tommy") -> bytes:  # fmt: skip
    """A headerless Clone 0.96-or-earlier file of an 8x8 game (docs/replays.md)."""
    out = bytes([8, 8]) + len(mines).to_bytes(2, "big")
    out += b"".join(bytes([col, row]) for row, col in mines) + b"\1\0"
    for ms, lb, rb, mb, x, y in states:
        out += bytes([ms // 1000, ms % 1000 // 10, lb | mb << 1 | rb << 2])
        out += x.to_bytes(2, "big") + y.to_bytes(2, "big") + b"\0"
    out += (1).to_bytes(2, "big") + bytes([10])  # the time: 1.10 s
    padded = name.ljust(100)
    if version == "0.96":
        return out + padded + b"\0" + b"K" * 20 + b"\0"
    if version == "0.76":
        return out + padded + b"1234567890"
    return out + b"1234567890"


#: _MVF_STATES as RawVF's parser_mvf.c prints it: the first record's held
#: button, then each record's changes (a move only where the place changed).
_MVF_RAWVF = (
    "RawVF_Version: Rev6\nWidth: 8\nHeight: 8\nMines: 2\nBoard:\n"
    "0000000*\n00000000\n00000000\n000*0000\n" + "00000000\n" * 4 + "Events:\n"
    "0.000 lc 2 2 (20 20)\n0.050 lr 2 2 (20 20)\n0.120 mv 3 2 (40 20)\n"
    "0.300 rc 3 2 (40 20)\n0.340 rr 3 2 (40 20)\n1.000 mv 13 13 (200 200)\n"
    "1.000 lc 13 13 (200 200)\n1.000 rc 13 13 (200 200)\n1.100 lr 13 13 (200 200)\n"
    "1.100 rr 13 13 (200 200)\n"
)


@pytest.mark.parametrize("digit", ["6", "7"])
def test_mvf_2006_2007_read_as_parser_mvf_prints_them(digit: str) -> None:
    version = f"200{digit} beta".encode()
    replay = read(_mvf_2007([(0, 7), (3, 3)], _MVF_STATES, digit=digit, version=version))
    want = read_rawvf(_MVF_RAWVF.encode(), "want.rawvf")
    assert replay.version == int(f"200{digit}")
    assert replay.software == f"Minesweeper Clone 200{digit} beta"
    assert (replay.player, replay.claims.rtime, replay.mode) == ("Tommy", 1.1, 0)
    assert replay.field.mines.tolist() == want.field.mines.tolist()
    assert replay.events == want.events
    assert replay_stats(replay) == replay_stats(want)
    # Stored x and y are 32 more than the pixel: a place left of the board reads negative.
    off = read(_mvf_2007([(0, 0)], [(0, 0, 0, 0, -7, 3), (10, 1, 0, 0, 5, 3)]))
    assert [(e.kind, e.x, e.y) for e in off.events] == [("mv", -7, 3), ("mv", 5, 3), ("lc", 5, 3)]


def test_mvf_2007_day_zero_has_no_start() -> None:
    data = bytearray(_mvf_2007([(0, 0)], _MVF_STATES))
    data[72] = 0  # Clone 2007's bug: the day saved as 0
    assert read(bytes(data)).start_us is None


@pytest.mark.parametrize("version", ["0.96", "0.76", "0.75"])
def test_mvf_early_versions_read_as_parser_mvf_prints_them(version: str) -> None:
    replay = read(_mvf_early([(0, 7), (3, 3)], _MVF_STATES, version=version), name="old.mvf")
    want = read_rawvf(_MVF_RAWVF.encode(), "want.rawvf")
    assert version in replay.software
    assert replay.player == ("" if version == "0.75" else "Tommy")
    assert replay.claims.rtime == 1.1
    assert replay.field.mines.tolist() == want.field.mines.tolist()
    assert replay.events == want.events
    assert replay_stats(replay) == replay_stats(want)


def test_mvf_early_ends_at_the_time_and_adds_the_last_release() -> None:
    # A record past the final time is a left-over: the events end before it,
    # and the button still held is released at the last record's place.
    states = [(0, 1, 0, 0, 20, 20), (50, 0, 0, 0, 20, 20), (900, 1, 0, 0, 40, 20),
              (2000, 0, 0, 0, 40, 20)]  # fmt: skip
    replay = read(_mvf_early([(0, 7)], states, version="0.96"), name="old.mvf")
    assert [(round(e.time * 1000), e.kind) for e in replay.events] == [
        (0, "lc"), (50, "lr"), (900, "mv"), (900, "lc"), (900, "lr")
    ]  # fmt: skip


def test_mvf_097_hacks() -> None:
    data = _mvf_097([(0, 7), (3, 3)], _MVF_STATES)
    plain = read(data)
    funny = bytearray(data)
    funny[27] = ord("8")
    read_funny = read(bytes(funny), name="f.mvf")
    assert (read_funny.events, read_funny.mode) == (plain.events, 1)  # Funny Mode: always UPK
    assert read_funny.software == "Minesweeper Clone 0.97 Funny Mode"
    unknown = bytes(7) + data[74:]  # the unknown hack: the 0.97 game from byte 7
    assert read(unknown, name="u.mvf").events == plain.events


def test_other_clone_files_are_named_and_refused() -> None:
    data = bytearray(_mvf_097([(0, 0)], _MVF_STATES))
    data[27] = ord("9")
    with pytest.raises(ReplayError, match=r"x\.mvf: at byte 27: an unknown Clone version"):
        read(bytes(data), name="x.mvf")
    with pytest.raises(ReplayError, match=r"at byte 0: no 0x11 0x4D header and a 9x8 board"):
        read_mvf(b"\x09\x08\x00\x01\x01\x01", "old.mvf")
    with pytest.raises(ReplayError, match=r"too short for the time and checksum"):
        read_mvf(b"\x08\x08\x00\x01\x01\x01\x00\x00", "old.mvf")
