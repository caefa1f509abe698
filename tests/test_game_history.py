"""Game: undo and redo, history, replays and time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import (
    Action,
    ActionError,
    ActionKind,
    CellState,
    Game,
    GameStatus,
    InvalidBoardError,
    InvalidClickError,
    SettingsError,
)

from .games import WALL, actions, game_on, play
from .helpers import Clock

# --- undo and redo --------------------------------------------------------------


def test_undo_across_a_loss_resumes_the_game() -> None:
    game = game_on(WALL)
    game.reveal(0, 0)
    before = game.state.copy()
    game.reveal(1, 2)
    assert game.status is GameStatus.LOST
    undone = game.pop()
    assert (undone.kind, undone.row, undone.col) == (ActionKind.REVEAL, 1, 2)
    assert game.status is GameStatus.PLAYING  # type: ignore[comparison-overlap]
    assert np.array_equal(game.state, before)
    assert game.outcome().exploded_at is None
    assert game.undos == 1
    game.redo()
    assert game.status is GameStatus.LOST


def test_undo_restores_question_marks_a_flood_opened() -> None:
    game = game_on("....\n....\n...*\n", questions=True)
    game.question(0, 1)
    game.reveal(0, 0)
    assert game[0, 1] is CellState.REVEALED
    game.pop()
    assert game[0, 1] is CellState.QUESTIONED  # type: ignore[comparison-overlap]
    game.reveal(0, 0)
    game.pop()
    game.unflag(0, 1)
    game.reveal(0, 0)
    game.pop()
    assert game[0, 1] is CellState.HIDDEN


def test_nothing_to_undo_or_redo() -> None:
    game = game_on(WALL)
    with pytest.raises(ActionError, match="nothing to undo"):
        game.pop()
    with pytest.raises(ActionError, match="nothing to redo"):
        game.redo()


def test_a_new_action_clears_the_redo_stack() -> None:
    game = game_on(WALL)
    game.reveal(0, 0)
    game.pop()
    game.flag(0, 0)
    with pytest.raises(ActionError, match="nothing to redo"):
        game.redo()


@settings(max_examples=150)
@given(st.integers(0, 2**32), st.lists(actions, max_size=40), st.booleans())
def test_undo_walks_back_through_every_state_and_redo_forward(
    seed: int, moves: list[tuple[ActionKind, int, int]], questions: bool
) -> None:
    game = Game.new("beginner", seed=seed, clock=Clock(step=1.0), question_marks=questions)
    states = play(game, moves)
    statuses = []
    for expected in reversed(states[1:]):
        assert np.array_equal(game.state, expected)
        statuses.append(game.status)
        game.pop()
    assert np.array_equal(game.state, states[0])
    assert game.status is GameStatus.READY
    for expected in states[1:]:
        game.redo()
        assert np.array_equal(game.state, expected)
    assert game.status is (statuses[0] if statuses else GameStatus.READY)


@settings(max_examples=150)
@given(st.integers(0, 2**32), st.lists(actions, max_size=40))
def test_history_replays_to_the_identical_game(
    seed: int, moves: list[tuple[ActionKind, int, int]]
) -> None:
    game = Game.new("beginner", seed=seed, clock=Clock(step=1.0))
    play(game, moves)
    copy = Game.replay(game, game.history, clock=Clock(step=1.0))
    assert np.array_equal(copy.state, game.state)
    assert copy.status is game.status
    assert copy.history == game.history
    assert copy.field == game.field


@settings(max_examples=100)
@given(st.integers(0, 2**32), st.lists(actions, max_size=40), st.booleans())
def test_replay_views_show_what_the_game_showed_after_each_action(
    seed: int, moves: list[tuple[ActionKind, int, int]], questions: bool
) -> None:
    game = Game.new("beginner", seed=seed, clock=Clock(step=1.0), question_marks=questions)
    shown: list[tuple[Action | None, GameStatus, np.ndarray]] = [(None, game.status, game.glyphs())]
    effects = []
    for kind, row, col in moves:
        if game.is_over:
            break
        effects.append(game.push(Action(kind, row, col)))
        shown.append((game.history[-1], game.status, game.glyphs()))
    frames = list(game.replay_views())
    assert [(f.action, f.status) for f in frames] == [(a, s) for a, s, _ in shown]
    assert all(np.array_equal(f.view, view) for f, (_, _, view) in zip(frames, shown, strict=True))
    assert [f.time for f in frames[1:]] == [a.time for a in game.history]
    assert [step.effective for step in game.steps] == [e.effective for e in effects]
    assert np.array_equal(game.glyphs(), shown[-1][2])  # the game itself is untouched


def test_steps_and_initial_state_are_read_only_history() -> None:
    game = game_on(WALL)
    assert game.initial_state is None
    game.flag(0, 2)
    game.flag(0, 2)
    assert [(str(s.action), s.effective, s.opened) for s in game.steps] == [
        ("F0,2", True, 0),
        ("F0,2", False, 0),
    ]
    assert game.steps[0].before.tolist() == [CellState.HIDDEN]
    with pytest.raises(ValueError, match="read-only"):
        game.steps[0].squares[0] = 1
    position = Game.from_leetcode([list("B1E"), list("B1M")])
    assert position.initial_state is not None
    assert position.initial_state.tolist() == [[3, 3, 0], [3, 3, 0]]
    assert not position.initial_state.flags.writeable


def test_replay_restores_a_saved_position_and_its_undo_count() -> None:
    game = game_on(WALL)
    start = [[0, 0, 2, 0, 0], [3, 3, 0, 0, 0], [3, 3, 0, 0, 0]]
    restored = Game.replay(game, [Action(ActionKind.REVEAL, 0, 4, 2.0)], initial=start, undos=3)
    assert restored.initial_state is not None
    assert restored.initial_state.tolist() == start
    assert restored.undos == 3
    assert restored[2, 4] is CellState.REVEALED
    assert restored.status is GameStatus.PLAYING
    assert restored[0, 2] is CellState.FLAGGED
    with pytest.raises(SettingsError, match="undos must be a non-negative int"):
        Game.replay(game, [], undos=-1)
    with pytest.raises(InvalidBoardError, match="only on a given field"):
        Game.replay(Game.new("beginner", seed=1), [], initial=np.zeros((9, 9), np.uint8))


def test_a_start_time_needs_an_action() -> None:
    with pytest.raises(ActionError, match="no start to set"):
        game_on(WALL).set_start(5.0)


@settings(max_examples=150)
@given(st.integers(0, 2**32), st.lists(actions, max_size=40))
def test_revealed_count_matches_the_state(
    seed: int, moves: list[tuple[ActionKind, int, int]]
) -> None:
    game = Game.new("beginner", seed=seed, clock=Clock(step=1.0))
    opened = 0
    for kind, row, col in moves:
        if game.is_over:
            break
        opened += game.push(Action(kind, row, col)).opened
    assert (
        opened == game.outcome().revealed == int(np.count_nonzero(game.state == CellState.REVEALED))
    )


# --- time and history ---------------------------------------------------------------


def test_timer_starts_at_the_first_action_and_stops_at_the_end() -> None:
    game = game_on(WALL)
    assert game.elapsed == 0.0
    game.flag(1, 4)  # clock 1: the start
    game.reveal(0, 0)  # clock 2
    assert [a.time for a in game.history] == [0.0, 1.0]
    game.reveal(1, 2)  # clock 3: lost
    assert game.elapsed == 2.0
    assert game.elapsed == 2.0  # stopped


def test_timestamps_are_monotonic() -> None:
    game = game_on(WALL)
    late, early = Action(ActionKind.FLAG, 1, 1, 5.0), Action(ActionKind.FLAG, 1, 2, 4.0)
    with pytest.raises(ActionError, match="comes before the previous action"):
        Game.replay(game, [late, early])
    assert Game.replay(game, [late]).history == (late,)


@pytest.mark.parametrize("stamp", [float("nan"), float("inf"), -1.0])
def test_a_time_that_is_no_time_is_an_action_error(stamp: float) -> None:
    game = game_on(WALL)
    with pytest.raises(ActionError, match="action time must be finite seconds") as caught:
        Game.replay(game, [Action(ActionKind.FLAG, 1, 1, stamp)])
    assert not isinstance(caught.value, InvalidClickError)  # the click itself is fine
