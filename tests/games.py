"""Games for the tests of Game: small fields by hand, and random moves to play on them."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from minesweep import Action, ActionKind, Game, Minefield

from .helpers import Clock


def game_on(text: str, *, questions: bool = False) -> Game:
    return Game.from_field(
        Minefield.from_text(text), clock=Clock(step=1.0), question_marks=questions
    )


# A wall of mines down the middle parts two regions of three rows:
#   . 2 * 2 .
#   . 3 * 3 .
#   . 2 * 2 .
WALL = "..*..\n..*..\n..*..\n"


#: A random move on a beginner board.
actions = st.tuples(st.sampled_from(list(ActionKind)), st.integers(0, 8), st.integers(0, 8))


def play(game: Game, moves: list[tuple[ActionKind, int, int]]) -> list[np.ndarray]:
    """Apply moves until the game ends; the states after each one."""
    states = [game.state.copy()]
    for kind, row, col in moves:
        if game.is_over:
            break
        game.push(Action(kind, row, col))
        states.append(game.state.copy())
    return states
