"""Agents that play through :class:`~minesweep.rl.MinesweeperEnv`: a baseline and a teacher.

:class:`RandomAgent` picks a random allowed action. :class:`SolverAgent`
plays the autoplayer's policy one action at a time: it reveals a square the
solver proves safe while there is one, and otherwise the square
:func:`minesweep.solver.choose_guess` picks, on the same view the autoplayer
is stuck at; so on the same seeds it wins exactly the games ``minesweep
bench play`` wins.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minesweep.solver import analyze
from minesweep.solver.guess import DEFAULT_POLICY, PolicyConfig
from minesweep.squares import GLYPH_HIDDEN

from .env import MinesweeperEnv

__all__ = ["RandomAgent", "SolverAgent"]


class RandomAgent:
    """A random action among those the mask allows, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        return int(self.rng.choice(np.flatnonzero(info["action_mask"])))


class SolverAgent:
    """The autoplayer's policy as an agent (reveal actions only).

    ``first_click`` is the autoplayer's first square (``(0, 0)``, its
    corner, by default).
    """

    def __init__(
        self,
        env: MinesweeperEnv,
        *,
        first_click: tuple[int, int] = (0, 0),
        policy: PolicyConfig = DEFAULT_POLICY,
    ) -> None:
        self.env = env
        self.first_click = first_click
        self.policy = policy

    def act(self, observation: Any, info: dict[str, Any]) -> int:
        from minesweep.solver.policy import choose_guess

        env = self.env
        view = observation["view"] if isinstance(observation, dict) else observation
        if np.all(view == GLYPH_HIDDEN):
            return self.first_click[0] * env.cols + self.first_click[1]
        mines = env.settings.mines
        analysis = analyze(view, mines, max_states=None)
        for row, col in analysis.safe.tolist():
            if view[row, col] == GLYPH_HIDDEN:
                return int(row) * env.cols + int(col)
        guess = choose_guess(analysis, view, mines, config=self.policy)
        return guess.row * env.cols + guess.col
