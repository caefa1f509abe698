"""Replays as animated PNG and WebP: the GIF's frames and times, written by another format."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from minesweep.cli import _replay
from minesweep.errors import SettingsError
from minesweep.replays import read
from minesweep.replays.animation import FORMATS, AnimationFormat, animation, frames, gif
from minesweep.replays.model import Replay

from ..cli.runner import run
from ._oracle import DATA

Image = pytest.importorskip("PIL.Image")

EXPERT = DATA / "test_subject.evf"
SMALL = DATA / "test_subject.avf"
SIZE = 16
#: Pillow's format name for each of the animation's formats, as decoded.
DECODED_AS = {"gif": "GIF", "apng": "PNG", "webp": "WEBP"}


@pytest.fixture(scope="module")
def expert() -> Replay:
    return read(EXPERT)


@pytest.fixture(scope="module")
def expert_frames(expert: Replay) -> dict[str, tuple[list[int], np.ndarray[Any, Any]]]:
    """Each format's decoded durations and last frame (RGB), for the expert EVF."""
    decoded: dict[str, tuple[list[int], np.ndarray[Any, Any]]] = {}
    for form in FORMATS:
        with Image.open(io.BytesIO(animation(expert, form, size=SIZE))) as image:
            assert image.format == DECODED_AS[form]
            assert image.info.get("loop") == 0
            durations = []
            for n in range(image.n_frames):
                image.seek(n)
                image.load()  # WebP says a frame's duration once the frame is decoded
                durations.append(round(image.info["duration"]))
            decoded[form] = (durations, np.asarray(image.convert("RGB")))
    return decoded


def rgb_frames(data: bytes) -> list[np.ndarray[Any, Any]]:
    with Image.open(io.BytesIO(data)) as image:
        found = []
        for n in range(image.n_frames):
            image.seek(n)
            found.append(np.asarray(image.convert("RGB")))
        return found


@pytest.mark.parametrize("form", ["apng", "webp"])
def test_each_format_has_the_gifs_frames_and_durations(
    expert: Replay, expert_frames: dict[str, tuple[list[int], Any]], form: str
) -> None:
    planned = [frame.duration_ms for frame in frames(expert)]
    gif_durations, _ = expert_frames["gif"]
    durations, _ = expert_frames[form]
    assert len(durations) == len(gif_durations) == len(planned) > 100
    # APNG and WebP keep milliseconds, finer than the GIF's hundredths the plan is in.
    assert durations == gif_durations == planned


@pytest.mark.parametrize("form", ["apng", "webp"])
def test_the_last_frame_is_the_final_board_pixel_for_pixel(
    expert_frames: dict[str, tuple[list[int], Any]], form: str
) -> None:
    # The GIF's last frame is held to the final board in test_animation: the
    # others must show the very same pixels (the WebP is lossless).
    _, gif_last = expert_frames["gif"]
    _, last = expert_frames[form]
    assert last.shape == gif_last.shape
    assert np.array_equal(last, gif_last)


@pytest.mark.parametrize("form", ["apng", "webp"])
def test_every_frame_is_the_gifs_frame(form: AnimationFormat) -> None:
    replay = read(SMALL)
    expected = rgb_frames(gif(replay, size=SIZE, speed=3))
    found = rgb_frames(animation(replay, form, size=SIZE, speed=3))
    assert len(found) == len(expected) == len(frames(replay, speed=3))
    for n, (mine, theirs) in enumerate(zip(found, expected, strict=True)):
        assert np.array_equal(mine, theirs), n


def test_an_unknown_format_or_a_bad_size_is_refused(expert: Replay) -> None:
    with pytest.raises(SettingsError, match="animation format must be one of"):
        animation(expert, "mp4")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="size"):
        animation(expert, "webp", size=4)


def test_the_cli_offers_each_format_the_library_writes() -> None:
    assert _replay._ANIMATIONS == FORMATS


@pytest.mark.parametrize(("flag", "name"), [("--apng", "game.png"), ("--webp", "game.webp")])
def test_replay_writes_an_animation_in_the_format_asked(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    flag: str,
    name: str,
) -> None:
    out = tmp_path / name
    status, printed, err = run(capsys, monkeypatch, "replay", str(SMALL), flag, str(out))
    assert (status, printed) == (0, "")
    assert err.splitlines() == [f"wrote {out} ({out.stat().st_size:,} bytes)"]
    with Image.open(out) as image:
        assert image.format == DECODED_AS[flag[2:]]
        assert image.n_frames == len(frames(read(SMALL)))


@pytest.mark.parametrize("flag", ["--gif", "--apng", "--webp"])
@pytest.mark.parametrize("where", ["missing/game", "."])
def test_a_bad_output_path_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    flag: str,
    where: str,
) -> None:
    # A folder that does not exist, and a folder where the file should be.
    out = tmp_path / where
    status, printed, err = run(capsys, monkeypatch, "replay", str(SMALL), flag, str(out))
    assert (status, printed) == (2, "")
    assert len(err.splitlines()) == 1
    assert err.startswith("minesweep replay: ")
    assert str(out) in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--apng", "a.png", "--timeline", "t.svg"], "--timeline writes one picture"),
        (["--webp", "a.webp", "--timeline", "t.svg"], "--timeline writes one picture"),
        (["--gif", "a.gif", "--webp", "a.webp"], "write one animation: give one of them"),
        (["--apng", "a.png", "--webp", "a.webp"], "write one animation: give one of them"),
        (["--apng", "a.png", "--clicks"], "--apng takes one replay file, without --clicks"),
        (["--webp", "a.webp", "--format", "json"], "--webp takes one replay file"),
        (["--gif", "a.gif", "--svg", "pictures"], "without --clicks, --format or --svg"),
        (["--webp", "a.webp", "--clicks", "--svg", "pictures"], "--webp takes one replay file"),
        (["--speed", "2"], "--speed sets an animation's pace: give it with --gif, --apng or"),
        (["--svg", "pictures", "--speed", "0.5"], "--speed sets an animation's pace"),
    ],
)
def test_an_animation_with_another_output_is_refused_on_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    words: list[str],
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, printed, err = run(capsys, monkeypatch, "replay", str(SMALL), *words)
    assert (status, printed) == (2, "")
    assert len(err.splitlines()) == 1
    assert said in err
    assert list(tmp_path.iterdir()) == []  # nothing written, of either picture


def test_webp_without_libwebp_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from PIL import features

    real = features.check
    monkeypatch.setattr(features, "check", lambda name: name != "webp" and real(name))
    out = tmp_path / "game.webp"
    status, printed, err = run(capsys, monkeypatch, "replay", str(SMALL), "--webp", str(out))
    assert (status, printed) == (2, "")
    assert err.splitlines() == [
        "minesweep replay: WebP needs Pillow built with libwebp, and this one is not: "
        "write a GIF or an APNG"
    ]
    assert not out.exists()
    # The other formats do not need it.
    status, _, _ = run(capsys, monkeypatch, "replay", str(SMALL), "--apng", str(tmp_path / "a.png"))
    assert status == 0
