"""One history format: game logs and history records survive a round trip."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import Game
from minesweep.actions import Action, ActionKind
from minesweep.errors import MinesweepError, ParseError
from minesweep.formats import log_base, parse_game_log
from minesweep.frontend import undo
from minesweep.history import History, action_record, read_history, record_line, undo_record


class _Clock:
    """A clock the test moves by hand: the times in a log are the game's own."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


# A step: an action on a square, or None for an undo.
_steps = st.lists(
    st.one_of(
        st.none(),
        st.tuples(
            st.sampled_from(list(ActionKind)),
            st.integers(0, 5),
            st.integers(0, 6),
            st.floats(0.0, 3.0, allow_nan=False),
        ),
    ),
    max_size=25,
)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**16), steps=_steps, question_marks=st.booleans())
def test_a_game_log_replays_to_the_game_that_wrote_it(
    seed: int, steps: list[tuple[ActionKind, int, int, float] | None], question_marks: bool
) -> None:
    clock = _Clock()
    game = Game(6, 7, 8, seed=seed, clock=clock, question_marks=question_marks)
    base = log_base(game)
    lines: list[str] = []
    for step in steps:
        if game.is_over:
            break
        if step is None:
            try:
                # The front ends' undo: it takes the field back with the first reveal.
                game, _ = undo(game, clock=clock)
            except MinesweepError:
                continue  # nothing to undo: the log records nothing either
            lines.append(record_line(undo_record()))
            continue
        kind, row, col, wait = step
        clock.now += wait
        try:
            game.push(Action(kind, row, col))
        except MinesweepError:
            continue  # refused: the game did not change, so neither does its log
        lines.append(record_line(action_record(game.history[-1])))

    replayed = parse_game_log(base, lines, clock=clock)
    assert replayed.history == game.history
    assert replayed.undos == game.undos
    assert replayed.status is game.status
    assert (replayed.glyphs() == game.glyphs()).all()


@given(
    records=st.lists(
        st.one_of(
            st.just(None),
            st.builds(
                lambda row, col, moment: Action(ActionKind.FLAG, row, col, moment),
                st.integers(0, 20),
                st.integers(0, 20),
                st.floats(0, 1e6, allow_nan=False),
            ),
        ),
        max_size=30,
    )
)
def test_history_records_read_back_as_a_stack(records: list[Action | None]) -> None:
    # The reference: an undo takes back the last action still standing.
    standing: list[Action] = []
    written: list[dict[str, object]] = []
    undone = 0
    for record in records:
        if record is None:
            if not standing:
                continue
            standing.pop()
            undone += 1
            written.append(undo_record())
        else:
            standing.append(record)
            written.append(action_record(record))
    lines = [record_line(record) for record in written]
    assert read_history([json.loads(line) for line in lines]) == History(tuple(standing), undone)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{"], "game log entry 0 is not JSON"),
        (['{"undo": true}'], "game log entry 0 undoes an action, but none is left"),
        (['{"action": "O9,9", "time": 0}'], "game log cannot be replayed"),
        (['{"action": "O1,1", "time": -1}'], "game log entry 0 has time -1"),
        (['{"undo": 1}'], "game log entry 0 has undo 1"),
    ],
)
def test_a_bad_log_is_a_parse_error_naming_the_entry(lines: list[str], message: str) -> None:
    base = log_base(Game(4, 4, 1, seed=1))
    with pytest.raises(ParseError, match=message):
        parse_game_log(base, lines)


def test_a_bad_base_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="not a minesweep game"):
        parse_game_log('{"format": "other"}', [])


def test_a_log_base_is_small_and_keeps_the_undo_count() -> None:
    # A base is rewritten with the actions still standing: it carries the
    # undos so far, and no view (all hidden, as big as the board).
    game = Game(30, 40, 100, seed=9)
    game.flag(0, 0)
    game.pop()
    base = json.loads(log_base(game))
    assert "view" not in base
    assert base["undos"] == 1
    assert base["history"] == []
    assert parse_game_log(log_base(game), []).undos == 1
