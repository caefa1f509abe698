"""Every statistic against ms-toollib 1.5.20: real replays, random boards, random games.

ms-toollib runs only in a subprocess (:mod:`._oracle`).
"""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import FrozenInstanceError
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep.field import Minefield
from minesweep.replays.stats import ARBITER_STNB, ReplayStats, StatRules, replay_stats
from minesweep.replays.zini import board_profile, human_zini, zini, zini_pair

from ._games import NINE_EVENTS, NINE_MINES, PIXELS, random_field, random_game
from ._oracle import DATA, MT_STATS, REAL_FILES, evf_v3, oracle, real_replay, replay_of

#: FORMATS.md §3 (measured with ms-toollib 1.5.20): the acceptance table.
TABLE: dict[str, dict[str, float]] = {
    "test_subject.avf": {
        "bbbv": 28, "bbbv_solved": 28, "op": 3, "isl": 3, "zini": 18, "hzini": 19,
        "left": 3, "right": 7, "double": 26, "cl": 36, "lce": 2, "rce": 7, "dce": 16, "ce": 25,
        "flag": 7, "bbbv_s": 5.175600739371534, "stnb": 57.15117733248665,
        "rqp": 1.0452892857142857, "qg": 0.6299082832635959, "ioe": 0.7777777777777778,
        "thrp": 1.12, "corr": 0.6944444444444444, "cl_s": 6.654343807763401,
        "ce_s": 4.621072088724584, "etime": 5.41, "rtime": 5.41, "path": 968.6574709237889,
    },
    "test_subject.evf": {
        "bbbv": 167, "bbbv_solved": 167, "op": 11, "isl": 10, "zini": 124, "hzini": 132,
        "left": 29, "right": 98, "double": 207, "cl": 334, "lce": 18, "rce": 91, "dce": 100,
        "ce": 209, "flag": 91, "bbbv_s": 2.3995287153181892, "stnb": 53.555224570057405,
        "rqp": 29.00444556287425, "qg": 8.122456837632372, "ioe": 0.5,
        "thrp": 0.7990430622009569, "corr": 0.625748502994012, "cl_s": 4.7990574306363785,
        "ce_s": 3.0030030030030033, "etime": 69.597, "rtime": 69.597, "path": 8676.350531440296,
    },
    "test_subject.rmv": {
        "bbbv": 10, "bbbv_solved": 10, "op": 2, "isl": 3, "zini": 10, "hzini": 10,
        "left": 19, "right": 0, "double": 0, "cl": 19, "lce": 13, "rce": 0, "dce": 0, "ce": 13,
        "flag": 0, "bbbv_s": 2.4078979051288227, "stnb": 31.99537597404894,
        "rqp": 1.7247408999999998, "qg": 1.1251625869062818, "ioe": 0.5263157894736842,
        "thrp": 0.7692307692307693, "corr": 0.6842105263157895, "cl_s": 4.575006019744763,
        "ce_s": 3.1302672766674697, "etime": 4.153, "rtime": 4.153, "path": 868.911789233296,
    },
    "test_subject_2.rmv": {
        "bbbv": 32, "bbbv_solved": 32, "op": 2, "isl": 2, "zini": 20, "hzini": 17,
        "left": 13, "right": 5, "double": 13, "cl": 31, "lce": 11, "rce": 5, "dce": 12, "ce": 28,
        "flag": 5, "bbbv_s": 5.076947485324449, "stnb": 50.37581170326365,
        "rqp": 1.24149403125, "qg": 0.71462868354472, "ioe": 1.032258064516129,
        "thrp": 1.1428571428571428, "corr": 0.9032258064516129, "cl_s": 4.91829287640806,
        "ce_s": 4.442329049658893, "etime": 6.303, "rtime": 6.303, "path": 1300.6839507963482,
    },
}  # fmt: skip


def same(ours: float, theirs: float) -> bool:
    if isinstance(theirs, float) and math.isnan(theirs):
        return math.isnan(ours)
    if isinstance(theirs, float) and math.isinf(theirs):
        return ours == theirs
    return math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-12)


def differences(stats: ReplayStats, answer: dict[str, Any]) -> dict[str, tuple[float, float]]:
    found = {}
    for name in MT_STATS:
        if not same(getattr(stats, name), answer[name]):
            found[name] = (getattr(stats, name), answer[name])
    if not same(stats.start, -answer["video_start_time"]):
        found["start"] = (stats.start, -answer["video_start_time"])
    return found


@pytest.fixture(scope="module")
def real_answers() -> dict[str, dict[str, Any]]:
    answers = oracle([{"path": str(DATA / name)} for name in REAL_FILES])
    return {name: answer for name, answer in zip(REAL_FILES, answers, strict=True) if answer}


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_replays_match_the_table(name: str, real_answers: dict[str, Any]) -> None:
    stats = replay_stats(real_replay(name, real_answers[name]))
    for key, value in TABLE[name].items():
        assert same(getattr(stats, key), value), key


@pytest.mark.parametrize("name", REAL_FILES)
def test_real_replays_match_ms_toollib_on_every_statistic(
    name: str, real_answers: dict[str, Any]
) -> None:
    stats = replay_stats(real_replay(name, real_answers[name]))
    assert differences(stats, real_answers[name]) == {}


@pytest.mark.parametrize("name", REAL_FILES)
def test_rtime_rules_agree_on_the_real_replays(name: str, real_answers: dict[str, Any]) -> None:
    from minesweep.replays import read

    replay = read(DATA / name)
    times = {
        rule: replay_stats(replay, StatRules(rtime=rule)).rtime
        for rule in ("events", "header", "ms-toollib")
    }
    for rule, value in times.items():
        assert same(value, real_answers[name]["rtime"]), rule


def test_statistics_ms_toollib_lacks() -> None:
    stats = replay_stats(read_real("test_subject.evf"))
    assert stats.ios == pytest.approx(math.log(69.597) / math.log(167))
    reciprocal = replay_stats(
        read_real("test_subject.evf"), StatRules(ios="log_bbbv_over_log_time")
    )
    assert reciprocal.ios == pytest.approx(1 / stats.ios)
    assert stats.zini_s == pytest.approx(124 / 69.597)
    assert stats.zne == pytest.approx(124 / 334)
    assert stats.znt == pytest.approx(124 / 209)
    assert stats.hzne == pytest.approx(132 / 334)
    assert stats.hznt == pytest.approx(132 / 209)
    assert stats.won


def read_real(name: str) -> Any:
    from minesweep.replays import read

    return read(DATA / name)


def test_rules_ask_for_the_other_definitions() -> None:
    replay = read_real("test_subject.rmv")
    default = replay_stats(replay)
    arbiter = replay_stats(replay, StatRules(stnb_constants=ARBITER_STNB))
    assert arbiter.stnb == pytest.approx(default.stnb * 47.3 / 36)
    plus_one = replay_stats(replay, StatRules(rqp="time_time_plus_one"))
    assert plus_one.rqp == pytest.approx(4.153 * 5.153 / 10)
    # RawVF counts no click off the board: FORMATS.md §2.4 measured 18 from its own
    # events and 17 from ms-toollib's (off-board clicks are 2 of the 19 here).
    rawvf = replay_stats(replay, StatRules(count_off_board=False))
    assert rawvf.left == 17
    assert rawvf.ioe == pytest.approx(10 / 17)
    manhattan = replay_stats(replay, StatRules(path="manhattan_all"))
    assert manhattan.path > 0
    avf = read_real("test_subject.avf")
    every_flag = replay_stats(avf, StatRules(right_effective="every_flag_change"))
    assert every_flag.rce >= replay_stats(avf).rce
    with pytest.raises(FrozenInstanceError):
        default.bbbv = 1  # type: ignore[misc]


def test_board_profile_on_the_real_boards(real_answers: dict[str, Any]) -> None:
    for name, answer in real_answers.items():
        field = Minefield(np.array(answer["board"]) == -1)
        profile = board_profile(field)
        assert profile.cells == tuple(answer[f"cell{n}"] for n in range(9)), name
        assert (zini(field), human_zini(field)) == (answer["zini"], answer["hzini"])


_ZINI_CHILD = r"""
import json, sys
import ms_toollib as ms
boards = json.loads(sys.stdin.read())
print(json.dumps([(ms.Board(b).zini, ms.Board(b).hzini) for b in boards]))
"""


def test_zini_equals_ms_toollib_on_random_boards() -> None:
    rng = random.Random(20261204)
    fields = [random_field(rng) for _ in range(400)]
    for rows, cols, mines in ((16, 30, 99), (16, 16, 40), (8, 8, 10), (30, 24, 200), (1, 5, 1)):
        for _ in range(25):
            mask = np.zeros(rows * cols, np.bool_)
            mask[rng.sample(range(rows * cols), mines)] = True
            fields.append(Minefield(mask.reshape(rows, cols)))
    boards = [np.where(f.mines, -1, f.numbers.astype(int)).tolist() for f in fields]
    done = subprocess.run(
        [sys.executable, "-c", _ZINI_CHILD],
        input=json.dumps(boards),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    theirs = [tuple(pair) for pair in json.loads(done.stdout)]
    ours = [zini_pair(field) for field in fields]
    assert ours == theirs


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(st.integers(0, 2**32 - 1))
def test_random_games_match_ms_toollib(seed: int) -> None:
    rng = random.Random(seed)
    games = []
    for _ in range(40):
        field = random_field(rng)
        px = rng.choice(PIXELS)
        games.append((field, px, random_game(rng, field, px)))
    answers = oracle([{"raw": evf_v3(f, events, px=px).hex()} for f, px, events in games])
    compared = 0
    for (field, px, events), answer in zip(games, answers, strict=True):
        if answer is None:
            continue  # ms-toollib aborted on it: nothing to compare
        compared += 1
        stats = replay_stats(replay_of(field, events, px=px))
        assert differences(stats, answer) == {}, (field.to_text(), px, events)
    assert compared >= 30


def test_stnb_is_defined_on_the_three_standard_boards_only() -> None:
    from minesweep.replays.stats import stnb_constant

    assert stnb_constant(8, 8, 10) == 36.0
    assert stnb_constant(16, 16, 40) == 162.0
    assert stnb_constant(16, 30, 99) == 435.0
    assert stnb_constant(8, 8, 10, StatRules(stnb_constants=ARBITER_STNB)) == 47.3
    # Windows' later beginner (and minesweep's preset), and any custom board.
    assert stnb_constant(9, 9, 10) is None
    assert stnb_constant(30, 24, 200) is None
    field = Minefield(NINE_MINES)
    stats = replay_stats(replay_of(field, NINE_EVENTS, px=16))
    assert (stats.bbbv_solved, stats.bbbv, stats.won) == (2, 2, True)
    assert stats.rtime == pytest.approx(2.0)
    # Undefined is 0, as ms-toollib gives it.
    assert stats.stnb == 0.0
    (theirs,) = oracle([{"raw": evf_v3(field, NINE_EVENTS, px=16).hex()}])
    assert theirs is not None
    assert theirs["stnb"] == 0.0
    assert theirs["bbbv_solved"] == stats.bbbv_solved
