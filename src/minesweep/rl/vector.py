"""``MinesweeperVectorEnv``: N boards stepped in one compiled call.

It plays exactly the games N :class:`~minesweep.rl.MinesweeperEnv` would
with the same seeds (reveal actions, no solver features, no no-guess
fields): each board lays its field at its first reveal with the engine's
own :func:`~minesweep.generate.generate_field` and the game's seed, and draws
the next game's seed from its own generator, as a single environment does
when Gymnasium resets it. Then every board's reveal (flood included) is one
call of a numba kernel over the batch. Autoreset is Gymnasium's
``NEXT_STEP``: the step after a board's game ends resets that board, and its
reward is 0.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode

from minesweep import MinesweepError
from minesweep.frontend import Settings
from minesweep.generate import generate_field
from minesweep.squares import GLYPH_HIDDEN, STATE_HIDDEN

from ._kernels import PLAYING, RESETTING, step_boards
from .env import OBSERVATION_HIGH, Rewards

__all__ = ["MinesweeperVectorEnv"]


class MinesweeperVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` boards of one kind, stepped together (reveal actions only)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        preset: str | None = None,
        *,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        rule: str = "opening",
        rewards: Rewards | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise MinesweepError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        if preset is not None or (rows is None and cols is None and mines is None):
            settings = Settings.of(preset=preset or "beginner", rule=rule)
        else:
            if rows is None or cols is None or mines is None:
                raise MinesweepError("give rows, cols and mines together")
            settings = Settings.of(size=(rows, cols), mines=mines, rule=rule)
        self.settings = settings
        self.num_envs = num_envs
        self.rows, self.cols, self.mines = settings.rows, settings.cols, settings.mines
        self.rewards = rewards or Rewards()
        shape = (self.rows, self.cols)
        self.single_observation_space = spaces.Box(0, OBSERVATION_HIGH, shape, np.uint8)
        self.single_action_space = spaces.Discrete(self.rows * self.cols)
        self.observation_space = spaces.Box(0, OBSERVATION_HIGH, (num_envs, *shape), np.uint8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.rows * self.cols))
        batch = (num_envs, *shape)
        self._numbers = np.zeros(batch, np.uint8)
        self._mines = np.zeros(batch, np.bool_)
        self._state = np.zeros(batch, np.uint8)
        self._view = np.full(batch, GLYPH_HIDDEN, np.uint8)
        self._status = np.zeros(num_envs, np.int8)
        self._opened = np.zeros(num_envs, np.int64)
        self._laid = np.zeros(num_envs, np.bool_)
        self._rewards = np.zeros(num_envs, np.float64)
        self._autoreset = np.zeros(num_envs, np.bool_)
        self._generators = [seeding.np_random(None)[0] for _ in range(num_envs)]
        # Python ints: a game's seed may be any of the engine's (up to 2**128).
        self.game_seeds: list[int] = [0] * num_envs

    # --- the Gymnasium API -----------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            # Seed s gives boards s, s+1, ...: as SyncVectorEnv seeds its copies.
            seeds: list[int | None] = (
                [None] * self.num_envs if seed is None else [seed + i for i in range(self.num_envs)]
            )
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise MinesweepError(f"give {self.num_envs} seeds, got {len(seeds)}")
        for board, board_seed in enumerate(seeds):
            self._reset_board(board, board_seed)
        self._autoreset[:] = False
        return self._view.copy(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[
        npt.NDArray[np.uint8],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        if np.any(actions < 0) or np.any(actions >= self.rows * self.cols):
            raise MinesweepError(f"actions must lie in 0..{self.rows * self.cols - 1}")
        resetting = np.flatnonzero(self._autoreset)
        for board in resetting.tolist():
            self._reset_board(board, None)
        # A board reset this step takes no action (Gymnasium's NEXT_STEP).
        self._status[resetting] = RESETTING
        for board in np.flatnonzero(~self._laid & (self._status == PLAYING)).tolist():
            row, col = divmod(int(actions[board]), self.cols)
            self._lay(board, row, col)
        rewards = self.rewards
        step_boards(
            actions, self._numbers, self._mines, self._state, self._view, self._status,
            self._opened, self.rows * self.cols - self.mines, self._rewards, rewards.win,
            rewards.loss, rewards.progress, rewards.invalid,
        )  # fmt: skip
        self._rewards[resetting] = 0.0
        self._status[resetting] = PLAYING
        terminated = self._status != PLAYING
        terminated[resetting] = False
        self._autoreset = terminated.copy()
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._view.copy(), self._rewards.copy(), terminated, truncated, self._infos()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which squares each board may reveal, shape ``(num_envs, rows * cols)``."""
        mask: npt.NDArray[np.bool_] = (self._view == GLYPH_HIDDEN).reshape(self.num_envs, -1)
        mask[self._status != PLAYING] = False
        return mask

    # --- boards --------------------------------------------------------------------------------

    def _reset_board(self, board: int, seed: int | None) -> None:
        if seed is not None:
            self._generators[board] = seeding.np_random(seed)[0]
            game_seed = int(seed)
        else:
            game_seed = int(self._generators[board].integers(2**63))
        self.game_seeds[board] = game_seed
        self._view[board] = GLYPH_HIDDEN
        self._state[board] = STATE_HIDDEN
        self._mines[board] = False
        self._numbers[board] = 0
        self._status[board] = PLAYING
        self._opened[board] = 0
        self._laid[board] = False

    def _lay(self, board: int, row: int, col: int) -> None:
        """The engine's field for this game's seed and first reveal."""
        field = generate_field(
            self.rows,
            self.cols,
            self.mines,
            first_click=(row, col),
            rule=self.settings.rule,
            seed=self.game_seeds[board],
        )
        self._mines[board] = field.mines
        self._numbers[board] = field.numbers
        self._laid[board] = True

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "game_seed": list(self.game_seeds)}
