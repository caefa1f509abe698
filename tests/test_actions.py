"""The game's value objects: actions and their text, steps, outcomes and replay frames."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep import ParseError
from minesweep.actions import Action, ActionKind, GameStatus, Outcome, ReplayFrame, Step

actions = st.builds(
    Action,
    st.sampled_from(list(ActionKind)),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.floats(0.0, 1e9, allow_nan=False, allow_infinity=False),
)


@pytest.mark.parametrize("text", ["O3,4", "F0,0", "U10,2", "Q1,1", "C7,29"])
def test_action_text_round_trips(text: str) -> None:
    assert str(Action.parse(text)) == text


@given(actions)
def test_every_action_round_trips_through_its_text(action: Action) -> None:
    # The text carries no time: parse gives the time it is told, 0 by default.
    assert Action.parse(str(action)) == dataclasses.replace(action, time=0.0)
    assert Action.parse(str(action), action.time) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X3,4", "starts with 'X'"),
        ("O3", "must look like"),
        ("O3;4", "two numbers"),
        ("O-1,4", "two numbers"),
        (None, "must look like"),
    ],
)
def test_bad_action_text_is_a_parse_error(text: object, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        Action.parse(text)  # type: ignore[arg-type]


def test_action_kinds_have_one_letter_each() -> None:
    assert {kind.value for kind in ActionKind} == {"O", "F", "U", "Q", "C"}
    assert [str(Action(kind, 2, 7)) for kind in ActionKind] == [
        "O2,7",
        "F2,7",
        "U2,7",
        "Q2,7",
        "C2,7",
    ]


@pytest.mark.parametrize(
    ("status", "over"),
    [
        (GameStatus.READY, False),
        (GameStatus.PLAYING, False),
        (GameStatus.WON, True),
        (GameStatus.LOST, True),
    ],
)
def test_only_a_won_or_lost_outcome_is_over(status: GameStatus, over: bool) -> None:
    assert Outcome(status, None, 0, 0, 0.0).is_over is over


def test_a_step_is_effective_when_it_changed_a_square() -> None:
    action = Action(ActionKind.FLAG, 0, 0)
    no_squares = np.array([], np.int64)
    wasted = Step(action, no_squares, np.array([], np.uint8), 0, GameStatus.PLAYING)
    assert not wasted.effective
    flagged = Step(action, np.array([0], np.int64), np.array([0], np.uint8), 0, GameStatus.READY)
    assert flagged.effective


def test_a_replay_frame_is_at_its_actions_time() -> None:
    view = np.zeros((1, 1), np.uint8)
    assert ReplayFrame(None, GameStatus.READY, view).time == 0.0
    action = Action(ActionKind.REVEAL, 0, 0, 2.5)
    assert ReplayFrame(action, GameStatus.WON, view).time == 2.5
