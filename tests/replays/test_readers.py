"""The replay readers and writers, against the four real files and ms-toollib.

MVF files, made here, are read in test_mvf_files.py; bad input in test_bad_files.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from minesweep.replays.evf import read_evf, write_evf
from minesweep.replays.model import MouseEvent, Replay, ReplayError
from minesweep.replays.rawvf import read_rawvf, write_rawvf
from minesweep.replays.reading import read
from minesweep.replays.stats import replay_stats

from ._files import DATA, FILES, ms_toollib

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


def test_write_evf_refuses_what_it_cannot_write(replays: dict[str, Replay]) -> None:
    import dataclasses

    replay = replays["test_subject.avf"]
    late = dataclasses.replace(replay, events=(MouseEvent(1.0, "mv", 0, 0), *replay.events[1:]))
    with pytest.raises(ValueError, match="first event"):
        write_evf(late)
    release = dataclasses.replace(replay, events=(MouseEvent(0.0, "lr", 0, 0),))
    with pytest.raises(ValueError, match="cannot start"):
        write_evf(release)
