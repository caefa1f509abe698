"""Operation statistics and guess grades: games counted by hand, positions known, ms-toollib.

ms-toollib runs only in a subprocess (:mod:`._oracle`, and a child of this module's own).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tempfile
from typing import Any

import numpy as np
import pytest

from minesweep.replays import read, summary
from minesweep.replays.clicks import analyse_clicks
from minesweep.replays.operations import click_operations, operation_stats
from minesweep.replays.verdict import click_verdict, judge_clicks
from minesweep.squares import GLYPH_HIDDEN

from ._oracle import DATA, REAL_FILES, evf_v3, oracle, real_replay, replay_of
from .test_clicks import CASES, FIELD, PX, at, chord, timed

# --- a small game, counted by hand -------------------------------------------------
#
#   0 0 0 0 0      clicks (square, opened):  L (0,0) 13 | R (2,3) flag | L (0,1) nothing
#   0 0 1 1 1      R (3,4) flag a safe square | R (3,4) unflag | D (1,3) 1 | R (3,0) flag
#   1 1 1 * 1      D (0,2) nothing (a 0, nothing closed) | D (2,1) 2 | D (2,2) 1 | D (2,4) 1: won
#   * 1 1 1 1

GAME = [
    ("lc", at(0, 0)), ("lr", at(0, 0)), ("rc", at(2, 3)), ("rr", at(2, 3)),
    ("lc", at(0, 1)), ("lr", at(0, 1)), ("rc", at(3, 4)), ("rr", at(3, 4)),
    ("rc", at(3, 4)), ("rr", at(3, 4)), *chord(1, 3), ("rc", at(3, 0)), ("rr", at(3, 0)),
    *chord(0, 2), *chord(2, 1), *chord(2, 2), *chord(2, 4),
]  # fmt: skip
STEP = 0.037  # seconds between events (timed)


def game() -> Any:
    return replay_of(FIELD, timed(GAME), px=PX)


def test_per_click_operations_counted_by_hand() -> None:
    replay = game()
    analysis = analyse_clicks(replay)
    assert analysis.won
    kinds = [click.kind.name[0] for click in analysis.clicks]
    assert "".join(kinds) == "LRLRRDRDDDD"
    ops = click_operations(replay, analysis)
    r5, r8, r13 = math.sqrt(5), math.sqrt(8), math.sqrt(13)
    # In squares; ms-toollib's path counts pixels of a 16-pixel square.
    travel = [0, r13, r8, math.sqrt(18), 0, r5, r13, r13, r5, 1, 2]
    assert ops.travel.tolist() == pytest.approx([16 * t for t in travel], rel=1e-12)
    assert ops.travel.sum() == pytest.approx(analysis.path, rel=1e-12)
    steps = [0, 1, 3, 1, 2, 4, 2, 4, 4, 4, 4]
    assert ops.interval.tolist() == pytest.approx([STEP * n for n in steps], abs=1e-9)
    assert ops.opened.tolist() == [13, 0, 0, 0, 0, 1, 0, 0, 2, 1, 1]
    wasted = [False, False, True, True, True, False, False, True, False, False, False]
    assert ops.wasted.tolist() == wasted
    assert not ops.click_15.any()


@pytest.mark.parametrize("name", list(CASES))
def test_the_one_and_a_half_clicks_are_the_counted_ones(name: str) -> None:
    replay = replay_of(FIELD, timed(CASES[name]), px=PX)
    analysis = analyse_clicks(replay)
    marked = click_operations(replay, analysis).click_15
    assert int(marked.sum()) == analysis.clicks_15
    if name == "one_and_a_half":
        # right press on a closed square (a flag), left press, right release, left release
        assert marked.tolist() == [False, False, True]


def test_per_game_operations_counted_by_hand() -> None:
    replay = game()
    analysis = analyse_clicks(replay)
    stats = operation_stats(replay, analysis)
    r5, r8, r13, r18 = (math.sqrt(n) for n in (5, 8, 13, 18))
    assert stats.path_left == pytest.approx(16 * r8)
    assert stats.path_right == pytest.approx(16 * (2 * r13 + r18))
    assert stats.path_double == pytest.approx(16 * (2 * r5 + r13 + 3))
    assert (stats.time_left, stats.time_right, stats.time_double) == pytest.approx(
        (3 * STEP, 6 * STEP, 20 * STEP)
    )
    assert (stats.time_share_left, stats.time_share_right, stats.time_share_double) == (
        pytest.approx((3 / 29, 6 / 29, 20 / 29))
    )
    assert (stats.chord_opened, analysis.dce, stats.opened_per_chord) == (5, 4, 1.25)
    assert (stats.wasted_left, stats.wasted_right, stats.wasted_double) == (1, 2, 1)
    record = summary(replay)
    assert (record["wasted_right"], record["chord_opened"]) == (2, 5)
    assert record["path_left"] + record["path_right"] + record["path_double"] == pytest.approx(
        record["path"]
    )


def test_the_hand_counted_game_counts_as_ms_toollib() -> None:
    (answer,) = oracle([{"raw": evf_v3(FIELD, timed(GAME), px=PX).hex()}])
    assert answer is not None, "ms-toollib aborted"
    analysis = analyse_clicks(game())
    for name in ("left", "right", "double", "lce", "rce", "dce", "path"):
        assert getattr(analysis, name) == pytest.approx(answer[name]), name


# --- the real files against ms-toollib's per-event path and boards ---------------------

_CHILD = r"""
import json, sys
import ms_toollib as ms
CLASSES = {"avf": ms.AvfVideo, "evf": ms.EvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo}
out = {}
for path in json.loads(sys.argv[1]):
    v = CLASSES[path.rsplit(".", 1)[1]](path); v.parse(); v.analyse(); v.current_time = 1e9
    paths, opened = [], []
    for e in v.events:
        if not e.event.is_mouse():
            continue
        paths.append(e.path)
        count = 0
        if e.useful_level >= 2:
            before, after = e.prior_game_board.game_board, e.next_game_board.game_board
            count = sum(
                b >= 10 and a <= 8 for rb, ra in zip(before, after) for b, a in zip(rb, ra)
            )
        opened.append(count)
    out[path] = {"paths": paths, "opened": opened}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def per_event() -> dict[str, dict[str, Any]]:
    paths = [str(DATA / name) for name in REAL_FILES]
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(paths)],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
            cwd=scratch,
        )
    found: dict[str, dict[str, Any]] = json.loads(done.stdout)
    answers = oracle([{"path": path} for path in paths])
    return {
        name: {**found[path], "answer": answer}
        for name, path, answer in zip(REAL_FILES, paths, answers, strict=True)
    }


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_files_travel_and_open_as_ms_toollib(
    name: str, per_event: dict[str, dict[str, Any]]
) -> None:
    theirs = per_event[name]
    replay = real_replay(name, theirs["answer"])
    analysis = analyse_clicks(replay)
    ops = click_operations(replay, analysis)
    running = np.cumsum(ops.travel)
    for click, travelled, opened in zip(analysis.clicks, running, ops.opened, strict=True):
        assert travelled == pytest.approx(theirs["paths"][click.event], rel=1e-9, abs=1e-9)
        assert opened == theirs["opened"][click.event]
    # Every square ms-toollib opened was opened by one of the clicks.
    assert ops.opened.sum() == sum(theirs["opened"])
    assert int(ops.click_15.sum()) == analysis.clicks_15
    # Our own readers give the same operations.
    ours = operation_stats(read(DATA / name), analyse_clicks(read(DATA / name)))
    assert ours == operation_stats(replay, analysis)


# --- guess grades on positions known by the rules ---------------------------------------

H = GLYPH_HIDDEN


def corner_one() -> np.ndarray:
    """3x3, a 1 in the corner, the rest hidden: 3 squares around it, 5 off the frontier."""
    view = np.full((3, 3), H, np.uint8)
    view[0, 0] = 1
    return view


def test_grade_best_and_worse() -> None:
    # Two mines: one of the 3 frontier squares (1/3 each), one of the 5 others (1/5 each).
    off = click_verdict(corner_one(), 2, [(2, 2)])
    assert off.mine_chance == pytest.approx(1 / 5)
    assert off.off_frontier_chance == pytest.approx(1 / 5)
    assert off.grade == "best"
    assert off.over_best == pytest.approx(0.0)
    near = click_verdict(corner_one(), 2, [(0, 1)])
    assert near.mine_chance == pytest.approx(1 / 3)
    assert near.grade == "worse"
    assert near.over_best == pytest.approx(2 / 15)


def test_grade_avoidable() -> None:
    # One mine: it is around the 1, so the five squares off the frontier are safe.
    verdict = click_verdict(corner_one(), 1, [(0, 1)])
    assert verdict.safe_squares == 5
    assert verdict.grade == "avoidable"
    assert verdict.over_best == pytest.approx(1 / 3)


def test_grade_forced() -> None:
    # 1 1 over two hidden squares, one mine: a 50/50 nothing can settle.
    view = np.array([[1, 1], [H, H]], np.uint8)
    verdict = click_verdict(view, 1, [(1, 0)])
    assert verdict.fifty_fifty
    assert (verdict.grade, verdict.over_best) == ("forced", 0.0)


def test_grade_of_a_certain_click_is_empty() -> None:
    verdict = click_verdict(corner_one(), 1, [(2, 2)])
    assert verdict.certain
    assert verdict.grade == ""


@pytest.mark.parametrize("name", ["test_subject.evf", "test_subject_2.rmv"])
def test_the_table_grades_every_guess(name: str) -> None:
    table = judge_clicks(read(DATA / name))
    for click in table.clicks:
        assert bool(click.verdict.grade) == (
            click.verdict.guess and not math.isnan(click.verdict.mine_chance)
        )
        if click.verdict.grade == "avoidable":
            assert click.verdict.avoidable
        if click.verdict.grade in ("best", "forced"):
            assert click.verdict.over_best == 0.0
    row = table.rows()[0]
    assert {"grade", "over_best", "travel", "interval", "opened", "wasted", "click_15"} <= set(row)
