"""The replay readers and writers, against the four real files, ms-toollib and bad input.

ms-toollib aborts the whole process on malformed input, so it runs only in a
subprocess here, and only on well-formed files.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep.replays.avf import read_avf
from minesweep.replays.evf import read_evf, write_evf
from minesweep.replays.model import MouseEvent, Replay, ReplayError
from minesweep.replays.mvf import read_mvf
from minesweep.replays.rawvf import read_rawvf, write_rawvf
from minesweep.replays.reading import detect_format, read
from minesweep.replays.rmv import read_rmv
from minesweep.replays.stats import replay_stats

DATA = Path(__file__).parent / "data"
FILES = ["test_subject.avf", "test_subject.evf", "test_subject.rmv", "test_subject_2.rmv"]
MT_CLASS = {".avf": "AvfVideo", ".evf": "EvfVideo", ".rmv": "RmvVideo", ".mvf": "MvfVideo"}

#: FORMATS.md §3, measured with ms-toollib 1.5.20.
EXPECTED: dict[str, dict[str, Any]] = {
    "test_subject.avf": {
        "shape": (8, 8, 10),
        "px": 16,
        "events": 1046,
        "player": "Tommy",
        "software": "Arbiter 0.52.3",
        "kinds": {"mv": 947, "lc": 29, "lr": 29, "rc": 21, "rr": 20},
        "bbbv": 28,
        "rtime": 5.41,
        "start": 1621701545912000,
        "end": 1621701551325000,
    },
    "test_subject.evf": {
        "shape": (16, 30, 99),
        "px": 30,
        "events": 7103,
        "player": "Szymon_M",
        "software": "元3.1.9",
        "kinds": {"mv": 6033, "lc": 143, "lr": 233, "rc": 185, "rr": 302, "cc": 207},
        "bbbv": 167,
        "rtime": 69.597,
        "start": 1725048701386418,
        "end": 1725048770983119,
    },
    "test_subject.rmv": {
        "shape": (8, 8, 10),
        "px": 16,
        "events": 861,
        "player": "tkolar",
        "software": "Viennasweeper 3.0.2C",
        "kinds": {"mv": 823, "lc": 19, "lr": 19},
        "bbbv": 10,
        "rtime": 4.153,
        "start": 1600544477000000,
        "end": 1600544481153000,
    },
    "test_subject_2.rmv": {
        "shape": (8, 8, 10),
        "px": 24,
        "events": 1889,
        "player": "Thomas Kolar",
        "software": "Viennasweeper 5.0.0a1",
        "kinds": {"mv": 1811, "lc": 26, "lr": 26, "rc": 13, "rr": 13},
        "bbbv": 32,
        "rtime": 6.303,
        "start": 1739795277000000,
        "end": 1739795283303000,
    },
}

_MT_SCRIPT = r"""
import json, sys, ms_toollib as ms
out = {}
for path, cls in json.loads(sys.argv[1]):
    v = getattr(ms, cls)(path); v.parse()
    header = dict(completed=v.is_completed, official=v.is_official, fair=v.is_fair)
    events = []
    for r in v.events:
        if r.event.is_mouse():
            m = r.event.unwrap_mouse(); events.append([r.time, m.mouse, m.x, m.y])
    v.analyse(); v.current_time = 1e9
    out[path] = dict(header=header, events=events, board=v.board, rows=v.row, cols=v.column,
                     mines=v.mine_num, px=v.pix_size, player=v.player_identifier,
                     software=v.software, bbbv=v.bbbv, rtime=v.rtime, left=v.left,
                     right=v.right, double=v.double, start=v.start_time, end=v.end_time,
                     unique=v.unique_identifier, race=v.race_identifier)
print(json.dumps(out))
"""


def ms_toollib(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """ms-toollib's reading of well-formed files, in a subprocess (it aborts on bad input)."""
    pytest.importorskip("ms_toollib")
    jobs = [[str(path), MT_CLASS[path.suffix]] for path in paths]
    done = subprocess.run(
        [sys.executable, "-c", _MT_SCRIPT, json.dumps(jobs)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result


@pytest.fixture(scope="module")
def oracle() -> dict[str, dict[str, Any]]:
    found = ms_toollib([DATA / name for name in FILES])
    return {Path(path).name: value for path, value in found.items()}


@pytest.fixture(scope="module")
def replays() -> dict[str, Replay]:
    return {name: read(DATA / name) for name in FILES}


def on_board(event: MouseEvent, replay: Replay) -> bool:
    return (
        0 <= event.x < replay.cols * replay.cell_px and 0 <= event.y < replay.rows * replay.cell_px
    )


# --- the real files -------------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_real_file_matches_formats_md(name: str, replays: dict[str, Replay]) -> None:
    replay, want = replays[name], EXPECTED[name]
    assert (replay.rows, replay.cols, replay.mines) == want["shape"]
    assert replay.cell_px == want["px"]
    assert len(replay.events) == want["events"]
    assert Counter(event.kind for event in replay.events) == want["kinds"]
    assert replay.player == want["player"]
    assert replay.software == want["software"]
    assert replay.claims.bbbv == want["bbbv"]
    assert replay.claims.rtime == pytest.approx(want["rtime"], abs=1e-9)
    assert (replay.start_us, replay.end_us) == (want["start"], want["end"])
    assert replay.format == name.rsplit(".", 1)[1]


@pytest.mark.parametrize("name", FILES)
def test_real_file_matches_ms_toollib(
    name: str, replays: dict[str, Replay], oracle: dict[str, dict[str, Any]]
) -> None:
    replay, theirs = replays[name], oracle[name]
    assert (replay.rows, replay.cols, replay.mines) == (
        theirs["rows"],
        theirs["cols"],
        theirs["mines"],
    )
    assert replay.field.mines.tolist() == [[cell == -1 for cell in row] for row in theirs["board"]]
    assert replay.cell_px == theirs["px"]
    assert replay.player == theirs["player"]
    assert replay.software.startswith(theirs["software"])
    assert replay.claims.bbbv == theirs["bbbv"]
    assert replay.claims.rtime == pytest.approx(theirs["rtime"], abs=1e-9)
    assert (replay.start_us, replay.end_us) == (theirs["start"], theirs["end"])
    if replay.format == "evf":  # the only format whose header makes these claims
        header = theirs["header"]
        assert (replay.claims.completed, replay.claims.official, replay.claims.fair) == (
            header["completed"], header["official"], header["fair"])  # fmt: skip
    extra = dict(replay.extra)
    assert extra.get("unique_identifier", "") == theirs["unique"]
    assert extra.get("race_identifier", "") == theirs["race"]
    events = theirs["events"]
    assert len(replay.events) == len(events)
    assert Counter(e.kind for e in replay.events) == Counter(e[1] for e in events)
    assert replay.events[0].time == pytest.approx(events[0][0])
    assert replay.events[-1].time == pytest.approx(events[-1][0])
    for ours, (time, kind, x, y) in zip(replay.events, events, strict=True):
        assert ours.time == pytest.approx(time, abs=1e-9)
        assert ours.kind == kind
        if on_board(ours, replay):  # off the board, ms-toollib writes its sentinel instead
            assert (ours.x, ours.y) == (x, y)
        else:
            assert (x, y) == (replay.cols * replay.cell_px, replay.rows * replay.cell_px)


def test_rmv_adds_the_unrecorded_first_press(replays: dict[str, Replay]) -> None:
    for name in ("test_subject.rmv", "test_subject_2.rmv"):
        first, second = replays[name].events[:2]
        assert first.kind == "lc"
        assert (first.time, first.x, first.y) == (second.time, second.x, second.y)


def test_rmv_v1_positions_are_board_relative(replays: dict[str, Replay]) -> None:
    # Viennasweeper v1 counts from its window: 12 and 56 pixels off the board.
    assert replays["test_subject.rmv"].events[0] == MouseEvent(0.0, "lc", 65, 32)


def test_claims_and_extra(replays: dict[str, Replay]) -> None:
    evf = replays["test_subject.evf"]
    assert evf.country == "Poland"
    assert dict(evf.extra)["device_uuid"].startswith("4c2a")
    rmv = replays["test_subject.rmv"]
    assert rmv.claims.no_flags is True
    assert rmv.claims.completed is True
    assert dict(rmv.extra)["termination"] == "win"
    avf = replays["test_subject.avf"]
    assert dict(avf.extra)["question_marks"] == "off"
    assert dict(replays["test_subject_2.rmv"].extra)["vsweep_skin_fname"] == "24px_new.bmp"


def test_times_are_monotone_and_on_the_files_clock(replays: dict[str, Replay]) -> None:
    for replay in replays.values():
        times = [event.time for event in replay.events]
        assert times == sorted(times)
        assert times[0] >= 0


# --- writing --------------------------------------------------------------------------------


def _sentinel(replay: Replay) -> list[tuple[int, str, int, int]]:
    """Events as write_evf keeps them: ms times, off-board positions as ms-toollib's mark."""
    w, h = replay.cols * replay.cell_px, replay.rows * replay.cell_px
    return [
        (round(e.time * 1000), e.kind, *((e.x, e.y) if on_board(e, replay) else (w, h)))
        for e in replay.events
    ]


@pytest.mark.parametrize("name", FILES)
def test_write_evf_round_trip(name: str, replays: dict[str, Replay]) -> None:
    replay = replays[name]
    again = read_evf(write_evf(replay), "written.evf")
    assert again.version == 4
    assert again.field == replay.field
    assert _sentinel(again) == _sentinel(replay)
    assert (again.player, again.software, again.cell_px) == (
        replay.player,
        replay.software,
        replay.cell_px,
    )
    assert (again.start_us, again.end_us) == (replay.start_us or 0, replay.end_us or 0)
    assert again.claims.bbbv == replay.claims.bbbv
    assert again.claims.rtime == pytest.approx(replay.claims.rtime or 0.0)
    assert again.claims.completed == bool(replay.claims.completed)
    if replay.format != "evf":
        assert dict(again.extra)["original_format"] == replay.format


def test_ms_toollib_reads_what_write_evf_writes(
    tmp_path: Path, replays: dict[str, Replay], oracle: dict[str, dict[str, Any]]
) -> None:
    paths = []
    for name in FILES:
        path = tmp_path / (name.replace(".", "_") + ".evf")
        path.write_bytes(write_evf(replays[name]))
        paths.append(path)
    written = ms_toollib(paths)
    for name, path in zip(FILES, paths, strict=True):
        theirs, original = written[str(path)], oracle[name]
        assert theirs["board"] == original["board"]
        assert len(theirs["events"]) == len(original["events"])
        for key in ("bbbv", "left", "right", "double", "rows", "cols", "mines", "px", "player"):
            assert theirs[key] == original[key], (name, key)
        assert theirs["rtime"] == pytest.approx(original["rtime"], abs=1e-9)


@pytest.mark.parametrize("name", FILES)
def test_rawvf_round_trip(name: str, replays: dict[str, Replay]) -> None:
    replay = replays[name]
    text = write_rawvf(replay)
    again = read(text.encode(), name="x.rawvf")
    assert again.format == "rawvf"
    assert again.field == replay.field
    assert again.player == replay.player
    assert again.software == replay.software
    assert again.claims.bbbv == replay.claims.bbbv
    assert again.claims.rtime == pytest.approx(replay.claims.rtime)
    assert len(again.events) == len(replay.events)
    px = replay.cell_px
    for ours, back in zip(replay.events, again.events, strict=True):
        assert round(back.time * 1000) == round(ours.time * 1000)
        assert back.kind == ours.kind
        assert (back.x // 16, back.y // 16) == (ours.x // px, ours.y // px)
        if px == 16:
            assert (back.x, back.y) == (ours.x, ours.y)


def test_arbiter_shift_chord_reads_as_a_middle_chord() -> None:
    # Code 11 (RawVF's parser_avf.c prints it as sc) is a left press with
    # Shift held: a one-button chord that the next left release ends.
    avf = bytearray((DATA / "test_subject.avf").read_bytes())
    plain = read(bytes(avf), name="plain.avf")
    press = next(i for i, event in enumerate(plain.events) if event.kind == "lc")
    release = next(i for i in range(press + 1, len(plain.events)) if plain.events[i].kind == "lr")
    assert all(plain.events[i].kind != "rc" for i in range(press, release))
    avf[0x6C + 8 * press] = 11
    chorded = read(bytes(avf), name="chord.avf")
    kinds = [event.kind for event in chorded.events]
    assert (kinds[press], kinds[release]) == ("mc", "mr")
    others = [i for i in range(len(kinds)) if i not in (press, release)]
    assert [chorded.events[i] for i in others] == [plain.events[i] for i in others]


_RAWVF_3X3 = "RawVF_Version: Rev6\nWidth: 3\nHeight: 3\nMines: 1\nBoard:\n*00\n000\n000\nEvents:\n"


def test_rawvf_shift_chord_is_a_middle_chord() -> None:
    # The same game with sc...lr and with mc...mr: the same events, so the
    # same statistics (one double click, the chord around (2, 2)).
    flag = "0.000 rc 1 1 (5 5)\n0.050 rr 1 1 (5 5)\n"
    tail = "0.800 lc 3 3 (40 40)\n0.900 lr 3 3 (40 40)\n"
    shift = flag + "0.600 sc 2 2 (20 20)\n0.700 lr 2 2 (20 20)\n" + tail
    middle = flag + "0.600 mc 2 2 (20 20)\n0.700 mr 2 2 (20 20)\n" + tail
    ours = read_rawvf((_RAWVF_3X3 + shift).encode(), "s.rawvf")
    want = read_rawvf((_RAWVF_3X3 + middle).encode(), "m.rawvf")
    assert ours.events == want.events
    assert [e.kind for e in ours.events] == ["rc", "rr", "mc", "mr", "lc", "lr"]
    assert replay_stats(ours) == replay_stats(want)
    assert replay_stats(ours).double == 1
    # A right press before the left release clears Shift (parser_raw.c's
    # right_press): the press goes on as a left+right chord.
    both = flag + "0.600 sc 2 2 (20 20)\n0.650 rc 2 2 (20 20)\n0.700 lr 2 2 (20 20)\n"
    both += "0.750 rr 2 2 (20 20)\n"
    kinds = [e.kind for e in read_rawvf((_RAWVF_3X3 + both).encode(), "b.rawvf").events]
    assert kinds == ["rc", "rr", "lc", "rc", "lr", "rr"]


def test_rawvf_refuses_mt_naming_the_line() -> None:
    text = _RAWVF_3X3 + "0.000 lc 1 1 (5 5)\n0.500 mt 1 1 (5 5)\n"
    with pytest.raises(ReplayError, match=r"t\.rawvf: line 11: event 'mt' is defined by no"):
        read_rawvf(text.encode(), "t.rawvf")


def test_rawvf_reads_negative_times_and_skips_board_events() -> None:
    text = "RawVF_Version: Rev6\nWidth: 2\nHeight: 1\nMines: 1\nBoard:\n*0\nEvents:\n"
    text += (
        "-0.085 pf 1 1 (3 4)\n0.000 start\n0.010 lc 2 1 (20 5)\nnumber1 2 1\n0.020 lr 2 1 (20 5)\n"
    )
    replay = read_rawvf(text.encode(), "t.rawvf")
    assert [e.kind for e in replay.events] == ["pf", "lc", "lr"]
    assert replay.events[0].time == pytest.approx(-0.085)


# --- MVF (Clone 0.97), made here: there is no real file ---------------------------------------


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


# --- bad input ------------------------------------------------------------------------------


def _raises_replay_error(data: bytes, name: str) -> ReplayError:
    with pytest.raises(ReplayError) as caught:
        read(data, name=name)
    message = str(caught.value)
    assert message.startswith(f"{name}: "), message
    assert "at byte" in message or "line" in message, message
    assert isinstance(caught.value, ValueError)
    return caught.value


@pytest.mark.parametrize("name", FILES)
def test_every_truncation_is_a_replay_error(name: str) -> None:
    data = (DATA / name).read_bytes()
    cuts = (
        range(len(data))
        if len(data) < 10_000
        else sorted(random.Random(5).sample(range(len(data)), 1500))
    )
    # An Arbiter file ends in free text (the program's name and copyright),
    # so a cut there cannot be told from a shorter name.
    free_text = data.rfind(b"\r") + 1 if name.endswith(".avf") else len(data)
    whole = read(data, name=name)
    for cut in cuts:
        if cut >= free_text:
            short = read(data[:cut], name=name)
            assert short.events == whole.events
            assert short.field == whole.field
        else:
            _raises_replay_error(data[:cut], name)


@pytest.mark.parametrize("data", [b"", b"\0", b"garbage" * 100, bytes(range(256)) * 4])
@pytest.mark.parametrize("name", ["x.avf", "x.rmv", "x.evf", "x.mvf", "x.rawvf", "x.bin"])
def test_junk_is_a_replay_error(data: bytes, name: str) -> None:
    _raises_replay_error(data, name)


def test_random_bytes_are_replay_errors() -> None:
    rng = random.Random(7)
    for _ in range(300):
        data = rng.randbytes(rng.randrange(0, 400))
        for name in ("r.avf", "r.evf", "r.rmv", "r.mvf"):
            with contextlib.suppress(ReplayError):
                read(data, name=name)


@pytest.mark.parametrize("name", FILES)
def test_content_decides_not_the_extension(name: str) -> None:
    data = (DATA / name).read_bytes()
    fmt = name.rsplit(".", 1)[1]
    assert detect_format(data) == fmt
    for wrong in ("avf", "rmv", "evf", "mvf", "rawvf"):
        assert read(data, name=f"x.{wrong}").format == fmt


@pytest.mark.parametrize("reader", [read_avf, read_rmv, read_evf, read_mvf, read_rawvf])
@pytest.mark.parametrize("name", FILES)
def test_each_reader_refuses_the_other_formats(reader: Any, name: str) -> None:
    data = (DATA / name).read_bytes()
    if reader.__name__ == f"read_{name.rsplit('.', 1)[1]}":
        return
    with pytest.raises(ReplayError, match=r"^wrong: "):
        reader(data, "wrong")


def test_huge_board_without_data() -> None:
    evf = bytes([3, 0xE0, 0, 255, 255, 0xFE, 0x01, 16, 0, 0, 0, 1, 0, 0, 1]) + b"x\0" * 8
    error = _raises_replay_error(evf, "big.evf")
    assert "mine bitmap" in str(error)
    avf = bytes([52, 0, 0, 0, 0, 6, 254, 254, 0xFF, 0xFF])
    assert "byte" in str(_raises_replay_error(avf, "big.avf"))
    rmv = bytearray((DATA / "test_subject.rmv").read_bytes())
    rmv_error = _raises_replay_error(bytes(rmv[:300]), "big.rmv")
    assert "at byte" in str(rmv_error)


def _evf_v3(events: list[tuple[int, int, int, int]]) -> bytes:
    out = bytearray([3, 0xE0, 0, 2, 2, 0, 1, 16, 0, 0, 0, 1, 0, 0, 100])
    for text in ("t", "p", "", "", "0", "100000", "XX", ""):
        out += text.encode() + b"\0"
    out.append(0b1000_0000)
    for code, ms, x, y in events:
        out += bytes([code]) + ms.to_bytes(3, "big") + x.to_bytes(2, "big") + y.to_bytes(2, "big")
    return bytes(out + b"\xff")


def test_hand_made_evf_v3() -> None:
    replay = read(_evf_v3([(1, 0, 20, 20), (2, 10, 20, 20), (3, 100, 20, 20)]))
    assert [e.kind for e in replay.events] == ["mv", "lc", "lr"]
    assert replay.field.mines.tolist() == [[True, False], [False, False]]


def test_unknown_event_codes() -> None:
    error = _raises_replay_error(_evf_v3([(1, 0, 0, 0), (13, 5, 0, 0)]), "u.evf")
    assert "at byte" in str(error)
    assert "unknown" in str(error)
    avf = bytearray((DATA / "test_subject.avf").read_bytes())
    avf[0x6C + 8 * 5] = 77
    assert "unknown code 77" in str(_raises_replay_error(bytes(avf), "u.avf"))
    v4 = bytearray(write_evf(read(DATA / "test_subject.avf")))
    first = v4.index(bytes([2, 0, 0, 18, 0, 1]))  # the first event: lc at 0 ms, (18, 1)
    v4[first + 6 + 6 * 3] = 50
    assert "unknown event kind 50" in str(_raises_replay_error(bytes(v4), "u.evf"))


def test_times_going_backwards_are_refused() -> None:
    error = _raises_replay_error(_evf_v3([(1, 0, 0, 0), (1, 50, 0, 0), (1, 40, 0, 0)]), "b.evf")
    start = len(_evf_v3([])) - 1
    assert f"at byte {start + 16}" in str(error)
    assert "before the previous event" in str(error)
    avf = bytearray((DATA / "test_subject.avf").read_bytes())
    at = 0x6C + 8 * 600
    avf[at + 2], avf[at + 6] = 1, 0  # back to the first second
    assert f"at byte {at}" in str(_raises_replay_error(bytes(avf), "b.avf"))
    rmv = bytearray((DATA / "test_subject.rmv").read_bytes())
    pos, mouse = 28 + 118 + 127 + 9 + 28 + 2 + 4, 0  # the v1 header and sections' sizes
    while mouse < 100:  # walk to the 100th mouse record (9 bytes; board events 3)
        mouse += rmv[pos] <= 7
        pos += 9 if rmv[pos] <= 7 else 3
    rmv[pos + 1 : pos + 4] = b"\0\0\0"
    assert f"at byte {pos}" in str(_raises_replay_error(bytes(rmv), "b.rmv"))
    text = write_rawvf(read(DATA / "test_subject.avf")).replace("5.410 lr", "0.001 lr")
    assert "line" in str(_raises_replay_error(text.encode(), "b.rawvf"))


def test_write_evf_refuses_what_it_cannot_write(replays: dict[str, Replay]) -> None:
    import dataclasses

    replay = replays["test_subject.avf"]
    late = dataclasses.replace(replay, events=(MouseEvent(1.0, "mv", 0, 0), *replay.events[1:]))
    with pytest.raises(ValueError, match="first event"):
        write_evf(late)
    release = dataclasses.replace(replay, events=(MouseEvent(0.0, "lr", 0, 0),))
    with pytest.raises(ValueError, match="cannot start"):
        write_evf(release)


# --- mutations (hypothesis) -----------------------------------------------------------------

_ORIGINALS = {name: (DATA / name).read_bytes() for name in FILES}


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    name = draw(st.sampled_from(FILES))
    data = bytearray(_ORIGINALS[name])
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "insert", "delete", "set"]))
        if action == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif action == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif action == "delete":
            del data[at : at + draw(st.integers(1, 8))]
        else:
            data[at] = draw(st.sampled_from([0, 1, 0x7F, 0x80, 0xFF]))
    return name, bytes(data)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_read_or_raise_replay_error(case: tuple[str, bytes]) -> None:
    name, data = case
    try:
        replay = read(data, name=name)
    except ReplayError as error:
        message = str(error)
    else:
        message = ""
    if message:
        assert message.startswith(f"{name}: ")
        return
    assert isinstance(replay, Replay)
    assert all(not math.isnan(event.time) for event in replay.events)
    np.testing.assert_equal(replay.field.mines.shape, (replay.rows, replay.cols))
