"""The mouse state machine against ms-toollib 1.5.20: the real replays and hand-made cases.

ms-toollib runs only in a subprocess (:mod:`._oracle`); the real replays are
built from ms-toollib's own events and board, so these tests do not depend
on the project's readers.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from minesweep.actions import GameStatus
from minesweep.field import Minefield
from minesweep.replays.clicks import (
    ClickEffect,
    ClickKind,
    GameEnd,
    analyse_clicks,
    replay_game,
)
from minesweep.squares import Glyph

from ._oracle import DATA, REAL_FILES, evf_v3, oracle, real_replay, replay_of

COUNTERS = ("left", "right", "double", "lce", "rce", "dce", "flag", "bbbv_solved")


@pytest.fixture(scope="module")
def real_answers() -> dict[str, dict[str, Any]]:
    answers = oracle([{"path": str(DATA / name)} for name in REAL_FILES])
    assert all(answer is not None for answer in answers)
    return {name: answer for name, answer in zip(REAL_FILES, answers, strict=True) if answer}


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_replays_count_as_ms_toollib(name: str, real_answers: dict[str, Any]) -> None:
    answer = real_answers[name]
    replay = real_replay(name, answer)
    analysis = analyse_clicks(replay)
    for counter in COUNTERS:
        assert getattr(analysis, counter) == answer[counter], counter
    assert analysis.path == pytest.approx(answer["path"], rel=1e-9)
    assert analysis.start == pytest.approx(-answer["video_start_time"], abs=1e-12)
    assert analysis.end - analysis.start == pytest.approx(answer["rtime"], rel=1e-9)
    assert analysis.won
    # The click records add up to the counters.
    kinds = [click.kind for click in analysis.clicks]
    assert kinds.count(ClickKind.LEFT) == analysis.left
    assert kinds.count(ClickKind.RIGHT) == analysis.right
    assert kinds.count(ClickKind.DOUBLE) == analysis.double
    assert sum(click.effective for click in analysis.clicks) == analysis.ce
    assert sum(click.solved for click in analysis.clicks) == analysis.bbbv_solved


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_replays_read_by_our_readers_count_the_same(
    name: str, real_answers: dict[str, Any]
) -> None:
    from minesweep.replays import read

    ours = analyse_clicks(read(DATA / name))
    theirs = analyse_clicks(real_replay(name, real_answers[name]))
    for counter in (*COUNTERS, "start", "end", "result"):
        assert getattr(ours, counter) == getattr(theirs, counter), counter
    # Our RMV reader keeps off-board pixels that ms-toollib's moves to its sentinel.
    assert ours.path == pytest.approx(theirs.path, rel=1e-12)


def test_views_show_the_board_before_each_click(real_answers: dict[str, Any]) -> None:
    name = "test_subject_2.rmv"
    replay = real_replay(name, real_answers[name])
    analysis = analyse_clicks(replay)
    assert analysis.view(0).tolist() == [[Glyph.HIDDEN] * replay.cols] * replay.rows
    for click in analysis.clicks:
        view = analysis.view(click.view)
        if click.effect is ClickEffect.OPEN:
            assert view[click.row, click.col] == Glyph.HIDDEN
        if click.effect is ClickEffect.FLAG:
            assert view[click.row, click.col] == Glyph.HIDDEN
            assert analysis.view(click.view + 1)[click.row, click.col] == Glyph.FLAG
    final = analysis.view(len(analysis.views) - 1)
    opened = final < 9
    assert np.array_equal(opened, ~replay.field.mines)
    assert analysis.click_time(analysis.clicks[0], replay) == 0.0


@pytest.mark.parametrize("name", REAL_FILES)
def test_replay_game_ends_as_the_replay(name: str, real_answers: dict[str, Any]) -> None:
    replay = real_replay(name, real_answers[name])
    game = replay_game(replay)
    assert game.status is GameStatus.WON
    times = [action.time for action in game.history]
    assert times == sorted(times)
    assert times[0] == 0.0


# --- hand-made games: each case is checked against ms-toollib --------------------

# 4 x 5; the 0s of rows 0-1 are one opening, (2, 4) is a lone number:
#   0 0 0 0 0
#   0 0 1 1 1
#   1 1 1 * 1
#   * 1 1 1 1
FIELD = Minefield.from_text(".....\n.....\n...*.\n*....\n")
PX = 16


def at(row: int, col: int) -> tuple[int, int]:
    return col * PX + 5, row * PX + 5


OFF = (5 * PX + 2, 4 * PX + 2)  # ms-toollib's off-board sentinel square
OPEN = [("lc", at(0, 0)), ("lr", at(0, 0))]
FLAG = [("rc", at(2, 3)), ("rr", at(2, 3))]


def chord(row: int, col: int) -> list[tuple[str, tuple[int, int]]]:
    return [("lc", at(row, col)), ("rc", at(row, col)), ("lr", at(row, col)), ("rr", at(row, col))]


CASES: dict[str, list[tuple[str, tuple[int, int]]]] = {
    "open_then_flag": [*OPEN, *FLAG],
    # A chord begun with the right button on an open square is one click.
    "right_first_chord_on_number": [
        *OPEN, *FLAG, ("rc", at(1, 3)), ("lc", at(1, 3)), ("lr", at(1, 3)), ("rr", at(1, 3)),
    ],
    # ... begun on a closed square, it is a right click and a double: a 1.5 click.
    "one_and_a_half": [
        *OPEN, ("rc", at(2, 3)), ("lc", at(2, 3)), ("rr", at(2, 3)), ("lr", at(2, 3)),
    ],
    "left_off_board_counts": [*OPEN, ("lc", at(3, 4)), ("lr", OFF), ("rc", OFF), ("rr", OFF)],
    "chord_released_off_board": [
        *OPEN, *FLAG, ("lc", at(1, 3)), ("rc", at(1, 3)), ("lr", OFF), ("rr", OFF),
    ],
    # Before the first opening: a press on the board released off it starts over.
    "cancelled_start": [("lc", at(1, 1)), ("lr", OFF), *OPEN],
    "pre_flags": [
        ("pf", at(2, 3)), ("pf", at(0, 0)), ("lc", at(1, 1)), ("lr", at(1, 1)),
        ("rc", at(0, 0)), ("rr", at(0, 0)),
    ],
    "pre_flag_taken_back": [*FLAG, *FLAG, *OPEN],
    "left_on_pre_flag": [
        ("rc", at(2, 4)), ("rr", at(2, 4)), ("lc", at(2, 4)), ("lr", at(2, 4)), ("lr", at(0, 0)),
    ],
    "middle_chord": [*OPEN, *FLAG, ("mc", at(1, 3)), ("mr", at(1, 3))],
    "evf_cc_and_toggles": [
        *OPEN, ("r", at(2, 3)), ("r", at(2, 3)),
        ("l", at(1, 4)), ("cc", at(1, 4)), ("l", at(1, 4)), ("r", at(1, 4)),
        ("m", at(2, 2)), ("m", at(2, 2)),
    ],
    # An opening opened past a flag on one of its 0s is no 3BV; opened again, it is.
    "flag_in_an_opening": [
        ("rc", at(0, 2)), ("rr", at(0, 2)), ("lc", at(0, 4)), ("lr", at(0, 4)),
        ("lc", at(0, 0)), ("lr", at(0, 0)), ("rc", at(0, 2)), ("rr", at(0, 2)),
        ("lc", at(0, 2)), ("lr", at(0, 2)),
    ],
    "chord_on_a_mine": [*OPEN, ("rc", at(3, 1)), ("rr", at(3, 1)), *chord(2, 1)],
    "win_by_chords": [
        *OPEN, *FLAG, *chord(1, 3), ("rc", at(3, 0)), ("rr", at(3, 0)), *chord(2, 1),
        *chord(2, 2), *chord(2, 4),
    ],
}  # fmt: skip


def timed(case: list[tuple[str, tuple[int, int]]]) -> list[tuple[int, str, int, int]]:
    return [(100 + 37 * i, kind, x, y) for i, (kind, (x, y)) in enumerate(case)]


@pytest.fixture(scope="module")
def case_answers() -> dict[str, dict[str, Any] | None]:
    jobs = [{"raw": evf_v3(FIELD, timed(case), px=PX).hex()} for case in CASES.values()]
    return dict(zip(CASES, oracle(jobs), strict=True))


@pytest.mark.parametrize("name", list(CASES))
def test_hand_made_cases_count_as_ms_toollib(
    name: str, case_answers: dict[str, dict[str, Any] | None]
) -> None:
    answer = case_answers[name]
    assert answer is not None, "ms-toollib aborted"
    analysis = analyse_clicks(replay_of(FIELD, timed(CASES[name]), px=PX))
    for counter in COUNTERS:
        assert getattr(analysis, counter) == answer[counter], counter
    assert analysis.start == pytest.approx(-answer["video_start_time"])
    assert analysis.path == pytest.approx(answer["path"], rel=1e-9)


def run(name: str, extra: tuple[tuple[str, tuple[int, int]], ...] = ()) -> Any:
    return analyse_clicks(replay_of(FIELD, timed([*CASES[name], *extra]), px=PX))


def test_what_the_hand_made_cases_show() -> None:
    chord_ = run("right_first_chord_on_number")
    assert (chord_.right, chord_.double, chord_.dce, chord_.clicks_15) == (1, 1, 1, 0)
    assert chord_.bbbv_solved == 2  # the opening and the lone (2, 4)
    half = run("one_and_a_half")
    assert (half.right, half.double, half.dce, half.clicks_15) == (1, 1, 0, 1)
    off = run("left_off_board_counts")
    assert (off.left, off.right) == (2, 1)
    assert [c.row for c in off.clicks] == [0, -1, -1]
    assert run("chord_released_off_board").double == 0
    cancelled = run("cancelled_start")
    assert cancelled.left == 1
    assert cancelled.start == pytest.approx(0.1 + 0.037 * 3)
    pre = run("pre_flags")
    assert (pre.right, pre.misflags, pre.unflags, pre.wasted_flags) == (3, 1, 1, 1)
    assert (pre.rce, pre.bbbv_solved) == (1, 0)
    assert pre.clicks[0].event == 0
    taken_back = run("pre_flag_taken_back")
    assert (taken_back.left, taken_back.right, taken_back.flag) == (1, 0, 0)
    assert run("left_on_pre_flag").left == 2
    assert (run("middle_chord").double, run("middle_chord").dce) == (1, 1)
    toggles = run("evf_cc_and_toggles")
    assert (toggles.right, toggles.double, toggles.dce) == (1, 2, 2)
    assert run("flag_in_an_opening").bbbv_solved == 1
    assert run("chord_on_a_mine").result is GameEnd.LOST
    won = run("win_by_chords")
    assert won.won
    assert won.bbbv_solved == 6  # the opening and the five lone numbers: the whole 3BV


def test_events_after_the_end_are_ignored_but_the_path_grows() -> None:
    before = run("win_by_chords")
    after = run("win_by_chords", (("lc", at(3, 4)), ("lr", at(3, 4))))
    assert (after.left, after.end, after.result) == (before.left, before.end, GameEnd.WON)
    assert after.path > before.path
    # The last chord wins at its first release (the next event, its second release, is ignored).
    assert math.isclose(after.end, 0.1 + 0.037 * (len(CASES["win_by_chords"]) - 2))
