"""The trace check against cheap forgeries, and against real players' records.

Real hands: the replay fixtures' games (real players' mouse records, at each
program's sampling rate, and as the page would send them: one move a frame).
Forgers (:mod:`tests.web.forgers`): every combination of a few sampled points
between clicks, uniform or lognormal gaps, constant or jittered presses,
straight or singly-bent paths, each seeded, around the real games' presses.
The history is left empty: these games were not played on the server, so
only the hand is judged (the match with the server's actions has its own
tests in test_trace.py).
"""

from __future__ import annotations

import pytest

from minesweep.web.trace import TraceRules, judge_replay

from .forgers import REAL_FILES, Forger, as_replay, family, frames, page_events, real_replay


@pytest.mark.parametrize("name", REAL_FILES)
def test_every_real_players_record_is_a_hands(name: str) -> None:
    replay = real_replay(name)
    assert sum(event.kind == "mv" for event in replay.events) > 100
    assert judge_replay(replay, [], TraceRules()) is None


@pytest.mark.parametrize("name", REAL_FILES)
def test_a_real_record_kept_once_a_frame_is_still_a_hands(name: str) -> None:
    """The page keeps at most a move a frame (60 a second): fewer moves, the same hand."""
    replay = real_replay(name)
    events = page_events(replay)
    kept = frames(events)
    assert len(kept) < len(events)
    assert judge_replay(as_replay(replay, kept), [], TraceRules()) is None


@pytest.mark.parametrize("name", REAL_FILES)
@pytest.mark.parametrize("forger", family(), ids=repr)
def test_a_cheap_forgery_of_a_real_game_is_no_hands(name: str, forger: Forger) -> None:
    replay = real_replay(name)
    forged = forger.forge(page_events(replay))
    # The forgery has the real game's presses, where and when they were.
    presses = [event for event in page_events(replay) if event[1] in ("lc", "rc", "mc")]
    assert [event for event in forged if event[1] in ("lc", "rc", "mc")] == presses
    because = judge_replay(as_replay(replay, forged), [], TraceRules())
    assert because is not None


def test_each_new_check_rejects_forgeries_the_old_ones_let_through() -> None:
    """Without the cadence and the moving presses, some forgeries pass: those two checks
    are what rejects them (each is needed)."""
    loose = TraceRules(max_move_step_ms=1e9, min_moving_presses=0.0)
    passed = {
        (name, forger)
        for name in REAL_FILES
        for forger in family()
        if judge_replay(
            as_replay(real_replay(name), forger.forge(page_events(real_replay(name)))), [], loose
        )
        is None
    }
    assert passed
    for rules, words in (
        (TraceRules(min_moving_presses=0.0), "ms apart while it moved"),
        (TraceRules(max_move_step_ms=1e9), "never moved while a button was down"),
    ):
        caught = [
            judge_replay(
                as_replay(real_replay(name), forger.forge(page_events(real_replay(name)))),
                [],
                rules,
            )
            for name, forger in passed
        ]
        assert any(because is not None and words in because for because in caught)


def test_judging_a_long_record_reads_it_once() -> None:
    """The checks are single passes over the events: a record four times as long (the
    expert game's, repeated) yields the same verdict."""
    replay = real_replay("test_subject.evf")
    events = page_events(replay)
    span = events[-1][0] + 1000.0
    longer = [(t + k * span, kind, x, y) for k in range(4) for t, kind, x, y in events]
    assert len(longer) > 20_000
    assert judge_replay(as_replay(replay, longer), [], TraceRules()) is None
