"""``MinesweeperVectorEnv``: N boards stepped in one compiled call.

It plays exactly the games N :class:`~minesweep.rl.MinesweeperEnv` would
with the same seeds and the same ``actions`` (no solver features, no
no-guess fields). A step of every board is one call of a numba kernel
(``_kernels.step_boards``): a board whose game ended draws the next game's
seed from its own generator, as a single environment does when Gymnasium
resets it (after a loss, a win, or its time limit: ``max_episode_steps``,
by default the registered ids' limit for its board, truncates a board's
episode as ``TimeLimit`` does a single environment's); a board's first
reveal lays the field the engine's
:func:`~minesweep.generate.generate_field` lays for that seed; then the
action, by the engine's rules (floods, flags, chords). Seeds and fields are
bit-identical to numpy's and the engine's (the kernels write numpy's
``SeedSequence`` and ``PCG64``). Autoreset is Gymnasium's ``NEXT_STEP``: the
step after a board's game ends resets that board, and its reward is 0.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode

from minesweep import GameStatus
from minesweep.errors import ActionError, SettingsError
from minesweep.generate import check_seed
from minesweep.rules import entry
from minesweep.rules.codes import LOST, PLAYING, WON, rule_code
from minesweep.rules.draw import next_word, seed_words
from minesweep.rules.masks import fill_masks
from minesweep.squares import GLYPH_HIDDEN, STATE_HIDDEN

from ._kernels import step_boards
from .env import (
    OBSERVATION_HIGH,
    InvalidActionError,
    Rewards,
    action_blocks,
    check_max_episode_steps,
    default_max_episode_steps,
    rewards_of,
    settings_of,
)

__all__ = ["MinesweeperVectorEnv"]

_LOW_64 = 2**64 - 1

#: The statuses a board in play can have, by their codes in the kernels.
_STATUS_NAMES = np.array(
    [
        status.value
        for _, status in sorted(
            {PLAYING: GameStatus.PLAYING, WON: GameStatus.WON, LOST: GameStatus.LOST}.items()
        )
    ]
)


class MinesweeperVectorEnv(gymnasium.vector.VectorEnv[Any, Any, Any]):
    """``num_envs`` boards of one kind, stepped together.

    ``actions`` as :class:`~minesweep.rl.MinesweeperEnv` takes it: ``"reveal"``
    (``Discrete(rows * cols)`` a board), or ``"all"`` (reveals, then flag
    toggles, then chords).
    """

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
        actions: Literal["reveal", "all"] = "reveal",
        rewards: Rewards | None = None,
        max_episode_steps: int | None = None,
        **unsupported: Any,
    ) -> None:
        # gymnasium.make_vec passes the single environment's options here too;
        # those this env plays the same way are let through.
        if unsupported.get("invalid_action") == "penalize":
            del unsupported["invalid_action"]
        offered = {key: value for key, value in unsupported.items() if value not in (None, False)}
        if offered:
            raise SettingsError(
                f"MinesweeperVectorEnv does not take {', '.join(sorted(offered))}; "
                "gymnasium.make_vec runs single environments (SyncVectorEnv) for them"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise SettingsError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        settings = settings_of(preset, rows, cols, mines, rule=rule)
        self.settings = settings
        self.num_envs = num_envs
        self.rows, self.cols, self.mines = settings.rows, settings.cols, settings.mines
        self.rewards = rewards_of(rewards)
        #: Steps after which a board's episode is truncated (TimeLimit's rule).
        self.max_episode_steps = (
            default_max_episode_steps(self.rows, self.cols)
            if max_episode_steps is None
            else check_max_episode_steps(max_episode_steps)
        )
        if self.rewards.avoidable_guess:
            raise SettingsError(
                "MinesweeperVectorEnv does not price avoidable guesses (the solver would run "
                "at every reveal); gymnasium.make_vec runs single environments "
                "(SyncVectorEnv) for it"
            )
        self._blocks = action_blocks(actions)
        self.actions = actions
        #: How many actions each board has (as ``MinesweeperEnv.action_count``).
        self.action_count = self._blocks * self.rows * self.cols
        shape = (self.rows, self.cols)
        self.single_observation_space = spaces.Box(0, OBSERVATION_HIGH, shape, np.uint8)
        self.single_action_space = spaces.Discrete(self.action_count)
        self.observation_space = spaces.Box(0, OBSERVATION_HIGH, (num_envs, *shape), np.uint8)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.action_count))
        batch = (num_envs, *shape)
        self._numbers = np.zeros(batch, np.uint8)
        self._mines = np.zeros(batch, np.bool_)
        self._state = np.zeros(batch, np.uint8)
        self._view = np.full(batch, GLYPH_HIDDEN, np.uint8)
        self._status = np.zeros(num_envs, np.int8)
        self._opened = np.zeros(num_envs, np.int64)
        self._laid = np.zeros(num_envs, np.bool_)
        # Whether a board's game took an action yet (its status reads "ready" until then).
        self._started = np.zeros(num_envs, np.bool_)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)
        # Steps of each board's episode so far (TimeLimit's count: resets are not steps).
        self._elapsed = np.zeros(num_envs, np.int64)
        # Each board's PCG64 (state and increment, high and low words), as
        # Gymnasium's np_random would hold it, and its game's seed (low, high).
        self._generators = np.zeros((num_envs, 4), np.uint64)
        self._seeds = np.zeros((num_envs, 2), np.uint64)
        self._rule = rule_code(settings.rule)
        #: Which boards have a generator (seeded, or drawn from the system once).
        self._seeded = np.zeros(num_envs, np.bool_)

    # --- the Gymnasium API -----------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.uint8], dict[str, Any]]:
        if seed is None or _is_whole(seed):
            # Seed s gives boards s, s+1, ...: as SyncVectorEnv seeds its copies.
            seeds: list[Any] = (
                [None] * self.num_envs
                if seed is None
                else [int(seed) + i for i in range(self.num_envs)]  # type: ignore[arg-type]
            )
        elif isinstance(seed, (list, tuple)):
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise SettingsError(f"give {self.num_envs} seeds, got {len(seeds)}")
        else:
            raise SettingsError(
                f"seed must be an int, a list of ints (or None) or None, got {seed!r}"
            )
        chosen = np.ones(self.num_envs, np.bool_)
        if options and "reset_mask" in options:
            # Gymnasium's partial reset: only these boards start again.
            chosen = np.asarray(options["reset_mask"])
            if chosen.shape != (self.num_envs,) or chosen.dtype != np.bool_:
                raise SettingsError(
                    f"options['reset_mask'] must be {self.num_envs} booleans, got {chosen!r}"
                )
        # Every seed is checked before any board changes.
        seeds = [None if value is None else check_seed(value) for value in seeds]
        for board in np.flatnonzero(chosen).tolist():
            self._reset_board(board, seeds[board])
        self._autoreset[chosen] = False
        self._terminated[chosen] = False
        self._elapsed[chosen] = 0
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
        if not self._seeded.all():
            raise ActionError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.size != self.num_envs:
            raise InvalidActionError(
                f"give one action a board: {self.num_envs}, got {actions.size} "
                f"(shape {actions.shape})"
            )
        actions = actions.reshape(self.num_envs)
        if actions.dtype.kind not in "iu":
            raise InvalidActionError(f"actions must be whole numbers, got {actions.dtype.name}")
        actions = actions.astype(np.int64, copy=False)
        if np.any(actions < 0) or np.any(actions >= self.action_count):
            raise InvalidActionError(f"actions must lie in 0..{self.action_count - 1}")
        rewards = self.rewards
        resetting = self._autoreset.copy()
        entry(step_boards)(
            actions, self._generators, self._seeds, self._laid, self._started, self._autoreset,
            self._numbers, self._mines, self._state, self._view, self._status,
            self._opened, self.mines, self._rule, self._rewards, self._terminated,
            rewards.win, rewards.loss, rewards.progress, rewards.invalid,
        )  # fmt: skip
        # As TimeLimit over a single env: a board's step counts unless it was a
        # reset, and reaching the limit truncates (a last step that also ends
        # the game is both); the board resets at its next step.
        self._elapsed = np.where(resetting, 0, self._elapsed + 1)
        truncated = self._elapsed >= self.max_episode_steps
        self._autoreset |= truncated
        return (
            self._view.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            truncated,
            self._infos(),
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which actions change each board, shape ``(num_envs, action_count)``."""
        masks = np.empty((self.num_envs, self.action_count), np.bool_)
        entry(fill_masks)(self._view, self._status, self._blocks, masks)
        return masks

    # --- boards --------------------------------------------------------------------------------

    @property
    def game_seeds(self) -> list[int]:
        """Each board's game seed (``reset(seed=s)`` of a single environment plays it)."""
        return [int(low) | int(high) << 64 for low, high in self._seeds.tolist()]

    def _reset_board(self, board: int, seed: int | None) -> None:
        if seed is None and self._seeded[board]:
            # A single env's reset() draws on from its generator: so does the board.
            game_seed = int(entry(next_word)(self._generators[board]) >> np.uint64(1))
        else:
            generator, _ = seeding.np_random(seed)
            game_seed = seed if seed is not None else int(generator.integers(2**63))
            words = generator.bit_generator.state["state"]
            for index, value in enumerate((words["state"], words["inc"])):
                self._generators[board, 2 * index] = value >> 64
                self._generators[board, 2 * index + 1] = value & _LOW_64
            self._seeded[board] = True
        self._seeds[board] = seed_words(game_seed)
        self._view[board] = GLYPH_HIDDEN
        self._state[board] = STATE_HIDDEN
        self._status[board] = PLAYING
        self._opened[board] = 0
        self._laid[board] = False
        self._started[board] = False

    def _infos(self) -> dict[str, Any]:
        seeds: npt.NDArray[Any] = (
            self._seeds[:, 0].astype(np.int64)
            if not self._seeds[:, 1].any() and (self._seeds[:, 0] < 2**63).all()
            else np.array(self.game_seeds, dtype=object)
        )
        return {
            "action_mask": self.action_masks(),
            "status": np.where(self._started, _STATUS_NAMES[self._status], GameStatus.READY.value),
            "game_seed": seeds,
        }


def _is_whole(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
