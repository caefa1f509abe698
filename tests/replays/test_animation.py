"""Replays as animated GIFs: minesweep.replays.animation and ``replay --gif``."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from minesweep.cli import main
from minesweep.errors import SettingsError
from minesweep.field import Minefield
from minesweep.replays import read
from minesweep.replays.animation import (
    FINAL_HOLD_MS,
    MIN_FRAME_MS,
    NUMBER_COLOURS,
    frames,
    gif,
)
from minesweep.replays.clicks import ClickEffect, analyse_clicks
from minesweep.replays.model import Replay, event_time
from minesweep.squares import Glyph

from ._oracle import DATA, replay_of

Image = pytest.importorskip("PIL.Image")

EXPERT = DATA / "test_subject.evf"
SIZE = 16


@pytest.fixture(scope="module")
def expert() -> Replay:
    return read(EXPERT)


@pytest.fixture(scope="module")
def expert_gif(expert: Replay) -> Any:
    return Image.open(io.BytesIO(gif(expert, size=SIZE)))


def changing_events(replay: Replay) -> list[int]:
    """The events of the clicks that did something to the board."""
    return [
        click.event
        for click in analyse_clicks(replay).clicks
        if click.effect is not ClickEffect.NOTHING
    ]


def test_a_frame_a_changing_event_and_the_final_board(expert: Replay, expert_gif: Any) -> None:
    events = changing_events(expert)
    assert len(events) > 100
    plan = frames(expert)
    assert expert_gif.n_frames == len(plan)
    assert plan[-1].event == -1
    # Every board change has its frame; the others press or let go of squares
    # (test_animation_pressed holds them to the buttons).
    assert set(events) <= {frame.event for frame in plan}
    for before, after in itertools.pairwise(plan[:-1]):
        assert after.event in events or after.pressed != before.pressed


def durations_of(image: Any) -> list[int]:
    found = []
    for n in range(image.n_frames):
        image.seek(n)
        found.append(image.info["duration"])
    return found


def expected_ends(replay: Replay, speed: float, cap: float) -> list[float]:
    """Each frame's end, in milliseconds, from its event's own time in the file."""
    analysis = analyse_clicks(replay)
    times = [event_time(replay, frame.event) for frame in frames(replay)[:-1]]
    times.append(analysis.end)
    gaps = [min(b - a, cap) / speed for a, b in itertools.pairwise(times)]
    return list(np.cumsum(gaps) * 1000)


@pytest.mark.parametrize(("speed", "cap"), [(1.0, 2.0), (2.5, 2.0), (1.0, 0.3)])
def test_frames_are_timed_like_the_original_with_the_cap_and_speed(
    expert: Replay, speed: float, cap: float
) -> None:
    plan = frames(expert, speed=speed, cap=cap)
    durations = [frame.duration_ms for frame in plan]
    assert durations[-1] == FINAL_HOLD_MS
    assert all(d % 10 == 0 and d >= MIN_FRAME_MS for d in durations)
    assert max(durations[:-1]) <= round(cap / speed * 1000, -1) + 10
    # Each frame ends within one hundredth (GIF's unit) of its event's time,
    # except after a burst of frames faster than MIN_FRAME_MS.
    ends = np.cumsum(durations[:-1])
    late = ends - np.array(expected_ends(expert, speed, cap))
    assert np.all(late >= -5.001)
    assert np.mean(np.abs(late) <= 5.001) > 0.9
    assert late[-1] <= 5.001 + MIN_FRAME_MS


def test_each_gif_frame_starts_within_its_duration_of_its_event(
    expert: Replay, expert_gif: Any
) -> None:
    # The issue's test: the decoded GIF's frames come at the events' times
    # (on the replay's clock, pauses capped at 2 s) within one frame's duration.
    durations = durations_of(expert_gif)[:-1]
    starts = np.cumsum([0, *durations[:-1]])
    expected = np.array([0.0, *expected_ends(expert, 1.0, 2.0)[:-1]])
    assert np.all(np.abs(starts - expected) <= np.array(durations))


def test_the_gif_carries_the_planned_durations(expert: Replay, expert_gif: Any) -> None:
    assert durations_of(expert_gif) == [frame.duration_ms for frame in frames(expert)]
    assert expert_gif.info.get("loop") == 0


def test_the_last_frame_is_the_final_board(expert: Replay, expert_gif: Any) -> None:
    expert_gif.seek(expert_gif.n_frames - 1)
    picture = np.asarray(expert_gif.convert("RGB"))
    rows, cols = expert.rows, expert.cols
    assert picture.shape[:2][1] == cols * SIZE
    assert picture.shape[0] > rows * SIZE  # the caption below the board
    analysis = analyse_clicks(expert)
    assert analysis.won
    final = frames(expert)[-1].view
    mines = expert.field.mines
    numbers = expert.field.numbers
    red, blue = (255, 0, 0), NUMBER_COLOURS[1]
    grey = (192, 192, 192)
    checked = {"flag": 0, "one": 0, "zero": 0}
    for row in range(rows):
        for col in range(cols):
            square = picture[row * SIZE : (row + 1) * SIZE, col * SIZE : (col + 1) * SIZE]
            colours = {tuple(int(c) for c in pixel) for pixel in square.reshape(-1, 3)}
            if mines[row, col]:
                # Won: every mine shows a flag, whose pennant is red.
                assert final[row * cols + col] == Glyph.FLAG
                assert red in colours
                checked["flag"] += 1
            elif numbers[row, col] == 1:
                assert blue in colours
                assert red not in colours
                checked["one"] += 1
            elif numbers[row, col] == 0:
                # An open 0: grey with its grid line, nothing drawn on it.
                assert colours == {grey, (128, 128, 128)}
                checked["zero"] += 1
    assert checked["flag"] == expert.mines
    assert checked["one"] > 0
    assert checked["zero"] > 0


def test_a_frame_shows_the_board_after_its_event(expert: Replay) -> None:
    plan = frames(expert)
    first = next(frame for frame in plan if frame.view != plan[0].view)
    # The first change of this game's board is its opening click: squares open.
    assert (np.frombuffer(first.view, np.uint8) <= 8).sum() > 1
    for before, after in itertools.pairwise(plan[:-1]):
        assert (before.view, before.pressed) != (after.view, after.pressed)
        assert after.time >= before.time


def test_speed_and_cap_must_be_positive(expert: Replay) -> None:
    with pytest.raises(SettingsError, match="speed"):
        frames(expert, speed=0)
    with pytest.raises(SettingsError, match="cap"):
        frames(expert, cap=0)


def test_replay_gif_writes_an_animation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.gif"
    status = main(["replay", str(DATA / "test_subject.avf"), "--gif", str(out), "--speed", "2"])
    assert status == 0
    assert out.stat().st_size > 0
    with Image.open(out) as image:
        assert image.format == "GIF"
        assert image.n_frames == len(frames(read(DATA / "test_subject.avf"), speed=2))
    assert "game.gif" in capsys.readouterr().err


def test_replay_gif_without_pillow_is_one_line_and_status_2(tmp_path: Path) -> None:
    out = tmp_path / "game.gif"
    code = (
        "import sys; sys.modules['PIL'] = None\n"
        "from minesweep.cli import main\n"
        f"sys.exit(main(['replay', {str(DATA / 'test_subject.avf')!r}, '--gif', {str(out)!r}]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1
    assert "pip install 'minesweep[pictures]'" in lines[0]
    assert not out.exists()


def test_a_lost_game_with_a_long_pause(tmp_path: Path) -> None:
    # Mines at the corners (0, 0) and (2, 2): open the middle 2, wait 5 s,
    # flag the safe (0, 1), then click the mine at (2, 2).
    mines = np.zeros((3, 3), np.bool_)
    mines[0, 0] = mines[2, 2] = True
    events = [
        (0, "lc", 24, 24),
        (100, "lr", 24, 24),
        (5100, "rc", 24, 8),
        (5200, "rr", 24, 8),
        (5400, "lc", 40, 40),
        (5500, "lr", 40, 40),
    ]
    replay = replay_of(Minefield(mines), events, px=16)
    plan = frames(replay)
    # The left presses show their square pressed; the right one flags.
    assert [frame.event for frame in plan] == [0, 1, 2, 4, 5, -1]
    assert [frame.pressed for frame in plan] == [(4,), (), (), (8,), (), ()]
    # The 5 s pause is cut to 2 s; the losing click's frame lasts the least.
    assert [frame.duration_ms for frame in plan] == [
        100,
        2000,
        300,
        100,
        MIN_FRAME_MS,
        FINAL_HOLD_MS,
    ]
    # The frame before the pause says what the cap took off it: 3 s of the 5.
    assert [frame.cut for frame in plan] == pytest.approx([0, 3, 0, 0, 0, 0])
    assert plan[2].x == 24
    assert plan[2].y == 8
    assert list(plan[-1].view) == [
        Glyph.MINE, Glyph.WRONG_FLAG, Glyph.HIDDEN,
        Glyph.HIDDEN, 2, Glyph.HIDDEN,
        Glyph.HIDDEN, Glyph.HIDDEN, Glyph.EXPLODED,
    ]  # fmt: skip
    image = Image.open(io.BytesIO(gif(replay, size=SIZE, speed=2)))
    assert image.n_frames == 6
    assert durations_of(image) == [50, 1000, 150, 50, MIN_FRAME_MS, FINAL_HOLD_MS]
    image.seek(5)
    picture = np.asarray(image.convert("RGB"))

    def colours(row: int, col: int) -> set[tuple[int, ...]]:
        square = picture[row * SIZE : (row + 1) * SIZE, col * SIZE : (col + 1) * SIZE]
        return {tuple(int(c) for c in pixel) for pixel in square.reshape(-1, 3)}

    red, black = (255, 0, 0), (0, 0, 0)
    # The exploded mine on red; the other mine in black; the wrong flag crossed in red.
    assert picture[2 * SIZE + 2, 2 * SIZE + 2].tolist() == list(red)
    assert black in colours(0, 0)
    assert red not in colours(0, 0)
    assert {black, red} <= colours(0, 1)
    assert NUMBER_COLOURS[2] in colours(1, 1)
