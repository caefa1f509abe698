"""Bad input to the replay readers: truncations, junk, other formats, mutated files."""

from __future__ import annotations

import contextlib
import math
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep.replays.avf import read_avf
from minesweep.replays.evf import read_evf, write_evf
from minesweep.replays.model import Replay, ReplayError
from minesweep.replays.mvf import read_mvf
from minesweep.replays.rawvf import read_rawvf, write_rawvf
from minesweep.replays.reading import detect_format, read
from minesweep.replays.rmv import read_rmv

from ._files import DATA, FILES


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
