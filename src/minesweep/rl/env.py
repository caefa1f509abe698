"""``MinesweeperEnv``: one game of Minesweeper as a ``gymnasium.Env``.

The rules are the engine's (:class:`minesweep.Game` through the front-end
layer): a reveal floods, the first click is protected by the chosen rule,
no-guess fields are laid by the solver. The environment only turns an action
index into an :class:`~minesweep.Action`, and the game into an observation
and a reward.

**Observation**: what the player sees, one byte a square (``uint8``, shape
``(rows, cols)``), the :class:`~minesweep.squares.Glyph` values:

======  ==========================================================
value   meaning
======  ==========================================================
0-8     an open square and its number of adjacent mines
9       hidden
10      flagged
11      question mark (never made by this environment)
12      a mine, shown once the game is lost
13      the mine that went off
14      a wrong flag, shown once the game is lost
======  ==========================================================

With ``solver_features=True`` the observation is a dict: ``"view"`` (the
above) and ``"probability"`` (``float32``, each hidden square's exact mine
probability from the solver; -1 on open squares).

**Actions**: ``Discrete(rows * cols)``, a reveal of square ``row * cols +
col``. With ``actions="all"``, ``Discrete(3 * rows * cols)``: the first
block reveals, the second flags or unflags, the third chords. Invalid
actions (a reveal of an open or flagged square, a flag of an open one, a
chord that opens nothing) are masked: ``info["action_mask"]`` and
:meth:`MinesweeperEnv.action_masks` (as sb3-contrib's MaskablePPO asks). One
taken anyway changes nothing and earns ``Rewards.invalid``, or raises
:class:`InvalidActionError` with ``invalid_action="raise"``.

**Rewards** (:class:`Rewards`, every one configurable).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Final, Literal, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from minesweep import Action, ActionKind, Game, GameStatus, MinesweepError
from minesweep.errors import SettingsError
from minesweep.formats import to_view
from minesweep.frontend import Settings, act
from minesweep.moves import toggled_mark
from minesweep.rules import entry
from minesweep.rules.codes import LOST, PLAYING
from minesweep.rules.masks import fill_masks
from minesweep.squares import GLYPH_HIDDEN, MAX_NUMBER, Glyph, square_name

__all__ = [
    "OBSERVATION_HIGH",
    "STEPS_PER_SQUARE",
    "InvalidActionError",
    "MinesweeperEnv",
    "Rewards",
    "default_max_episode_steps",
]

#: The largest observation value (a wrong flag).
OBSERVATION_HIGH: Final = int(Glyph.WRONG_FLAG)

#: An episode's default time limit, in steps a square of the board. A game
#: that only reveals ends within its safe squares' count of valid steps (each
#: valid reveal opens one or more); with ``actions="all"`` a game played with
#: purpose flags each mine once and reveals each safe square once: one step a
#: square. Twice that never cuts a game short that is getting somewhere, and
#: ends one that an agent spends on masked actions or on flag toggles (which
#: change the board but not the game) before it runs away.
STEPS_PER_SQUARE: Final = 2


def default_max_episode_steps(rows: int, cols: int) -> int:
    """The default ``max_episode_steps`` of a ``rows`` by ``cols`` board (see STEPS_PER_SQUARE)."""
    return STEPS_PER_SQUARE * rows * cols


def check_max_episode_steps(value: object) -> int:
    """A time limit as given: a whole number of steps, at least 1."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise SettingsError(
            f"max_episode_steps must be a whole number of at least 1, got {value!r}"
        )
    return int(value)


class InvalidActionError(MinesweepError):
    """An action the mask forbids, taken with ``invalid_action="raise"``."""


@dataclass(frozen=True, slots=True)
class Rewards:
    """What each outcome of a step earns.

    The defaults: a win and a loss are worth one each, with opposite signs;
    progress shares ``progress`` out over the field's safe squares (each
    square opened earns ``progress / safe squares``), so a won game earns
    ``win + progress`` in all, and the signal is dense without paying an
    agent for dragging a game on. An avoidable guess (a reveal of a square
    that might hold a mine while the solver shows a square certainly safe)
    costs nothing by default: pricing it needs the solver at every reveal,
    which slows stepping; set it to teach with the solver. An invalid action
    costs a little, so an unmasked agent learns the rules.
    """

    win: float = 1.0
    loss: float = -1.0
    progress: float = 1.0
    avoidable_guess: float = 0.0
    invalid: float = -0.1


#: The kinds of action, by block of ``actions="all"``.
_KINDS: Final = (ActionKind.REVEAL, ActionKind.FLAG, ActionKind.CHORD)


def settings_of(
    preset: str | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    *,
    rule: str,
    no_guess: bool = False,
) -> Settings:
    """The game an environment plays: a preset (beginner by default) or a size, not both.

    Only which of the environment's keywords go together is decided here:
    they are the RL's own (``rows``, ``cols`` and ``mines`` apart, where the
    settings take a size and a mine count). Every rule of the game itself
    (the preset names, the size, whether the mines fit, the rule, no-guess)
    is :meth:`Settings.of`'s, and its messages name settings, not options.
    """
    sized = {"rows": rows, "cols": cols, "mines": mines}
    given = [name for name, value in sized.items() if value is not None]
    if preset is not None and given:
        raise SettingsError(
            f"give a preset or rows, cols and mines, not both: got preset {preset!r} "
            f"and {', '.join(given)}"
        )
    if given and len(given) < len(sized):
        missing = [name for name in sized if name not in given]
        raise SettingsError(
            f"give rows, cols and mines together: got {', '.join(given)}, "
            f"without {', '.join(missing)}"
        )
    if rows is not None and cols is not None and mines is not None:
        return Settings.of(size=(rows, cols), mines=mines, rule=rule, no_guess=no_guess)
    # The environment's default is the smallest preset (the settings' is expert).
    return Settings.of(
        preset="beginner" if preset is None else preset, rule=rule, no_guess=no_guess
    )


def rewards_of(rewards: object) -> Rewards:
    """The rewards an environment pays: the defaults for None, else a :class:`Rewards`."""
    if rewards is None:
        return Rewards()
    if not isinstance(rewards, Rewards):
        raise SettingsError(f"rewards must be a Rewards, got {rewards!r}")
    return rewards


def action_blocks(actions: str) -> int:
    """How many blocks of ``rows * cols`` actions: 1 (reveals) or 3 (and flags, chords)."""
    if actions not in ("reveal", "all"):
        raise SettingsError(f"actions must be 'reveal' or 'all', got {actions!r}")
    return 3 if actions == "all" else 1


class _Steps:
    """The game's clock: one second a step, so a game's times depend on nothing outside it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class MinesweeperEnv(gymnasium.Env[Any, np.int64]):
    """One game of Minesweeper, reset to a new game (its seed given, or drawn).

    ``preset`` (beginner, intermediate, expert) or ``rows``, ``cols`` and
    ``mines``; ``rule`` is the first-click rule (``opening``, ``safe`` or
    ``none``), ``no_guess`` lays fields the solver clears from the first
    reveal. ``reset(seed=s)`` plays the game the engine lays from seed ``s``:
    the same field as ``minesweep bench play`` and ``Game(..., seed=s)``.
    """

    # Gymnasium declares it as a plain class attribute, read by its wrappers.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        preset: str | None = None,
        *,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        rule: str = "opening",
        no_guess: bool = False,
        actions: Literal["reveal", "all"] = "reveal",
        solver_features: bool = False,
        rewards: Rewards | None = None,
        invalid_action: Literal["penalize", "raise"] = "penalize",
        render_mode: str | None = None,
    ) -> None:
        self.settings = settings_of(preset, rows, cols, mines, rule=rule, no_guess=no_guess)
        blocks = action_blocks(actions)
        if invalid_action not in ("penalize", "raise"):
            raise SettingsError(
                f"invalid_action must be 'penalize' or 'raise', got {invalid_action!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SettingsError(
                f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.rows, self.cols = self.settings.rows, self.settings.cols
        self.squares = self.rows * self.cols
        self.actions = actions
        self._blocks = blocks
        self.solver_features = solver_features
        self.rewards = rewards_of(rewards)
        self.invalid_action = invalid_action
        self.render_mode = render_mode
        #: How many actions there are (``action_space.n``).
        self.action_count = blocks * self.squares
        self.action_space = spaces.Discrete(self.action_count)
        view = spaces.Box(0, OBSERVATION_HIGH, (self.rows, self.cols), np.uint8)
        if solver_features:
            self.observation_space = spaces.Dict(
                {
                    "view": view,
                    "probability": spaces.Box(-1.0, 1.0, (self.rows, self.cols), np.float32),
                }
            )
        else:
            self.observation_space = view
        self._clock = _Steps()
        self.game = self._new_game(0)
        self.game_seed = 0
        self._look()

    # --- the Gymnasium API -------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        # The game's own seed: the one given, so that seed s is the engine's
        # game s everywhere; else one drawn from the environment's generator.
        self.game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**63))
        self.game = self._new_game(self.game_seed)
        self._look()
        return self._seen, self._info()

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        index = int(action)
        if not 0 <= index < self.action_count:
            raise InvalidActionError(f"action {index} is outside Discrete({self.action_count})")
        game = self.game
        if game.is_over:
            raise InvalidActionError("the game is over: call reset() before stepping again")
        if not self._mask[index]:
            if self.invalid_action == "raise":
                raise InvalidActionError(f"action {index} is masked: {self._describe(index)}")
            # Nothing changed: what the agent saw stands (the solver is not run
            # again), in new arrays, as Gymnasium asks of every step.
            seen = self._seen
            copy = (
                {key: value.copy() for key, value in seen.items()}
                if isinstance(seen, dict)
                else seen.copy()
            )
            return copy, self.rewards.invalid, False, False, self._info()
        block, square = divmod(index, self.squares)
        row, col = divmod(square, self.cols)
        kind = _KINDS[block]
        if kind is ActionKind.FLAG:  # the flag block toggles, as the mask says
            kind = toggled_mark(int(game.state[row, col]), question_marks=game.question_marks)
        reward = 0.0
        if kind is ActionKind.REVEAL and self.rewards.avoidable_guess:
            reward += self._guess_price(row, col)
        self._clock.now += 1.0
        opened_before = self._opened()
        self.game, _ = act(
            game, Action(kind, row, col), no_guess=self.settings.no_guess, clock=self._clock
        )
        game = self.game
        safe = self.squares - self.settings.mines
        if game.status is not GameStatus.LOST and safe:  # a board of mines opens nothing
            reward += self.rewards.progress * (self._opened() - opened_before) / safe
        if game.status is GameStatus.WON:
            reward += self.rewards.win
        elif game.status is GameStatus.LOST:
            reward += self.rewards.loss
        self._look()
        return self._seen, reward, game.is_over, False, self._info()

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return to_view(self.game.glyphs()) + "\n"
        if self.render_mode == "rgb_array":
            return picture(self.game.glyphs())
        return None

    # --- masks -------------------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Which actions do something now (all False once the game is over)."""
        return self._mask.copy()

    def _mask_of(self, glyphs: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        # The engine's one mask rule, the vector environment's too, on a batch of one board.
        status = np.array([LOST if self.game.is_over else PLAYING], np.int8)
        masks = np.zeros((1, self.action_count), np.bool_)
        entry(fill_masks)(glyphs.reshape(1, self.rows, self.cols), status, self._blocks, masks)
        mask: npt.NDArray[np.bool_] = masks[0]
        return mask

    # --- what the agent sees -----------------------------------------------------------------

    def _new_game(self, seed: int) -> Game:
        # The settings decided once, in __init__; a game only adds its seed.
        self._clock = _Steps()
        return replace(self.settings, seed=seed).new_game(clock=self._clock)

    def _look(self) -> None:
        """The game's view read once after each change: the observation and the mask."""
        view = np.ascontiguousarray(self.game.glyphs(), dtype=np.uint8)
        self._view = view
        self._mask = self._mask_of(view)
        self._seen: Any = (
            {"view": view, "probability": self._probabilities(view)}
            if self.solver_features
            else view
        )

    def _probabilities(self, view: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
        from minesweep.frontend import mine_probabilities

        if self.game.is_over:
            return np.full(view.shape, -1.0, np.float32)
        probability = mine_probabilities(self.game)
        if probability is None:
            # Before the first reveal: the first-click rule makes every square
            # safe to click first, so the density is what the view says.
            density = self.settings.mines / self.squares
            return np.where(view == GLYPH_HIDDEN, density, -1.0).astype(np.float32)
        return np.where(np.isnan(probability), -1.0, probability).astype(np.float32)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.action_masks(),
            "status": self.game.status.value,
            "game_seed": self.game_seed,
        }

    def _opened(self) -> int:
        return int(self.game.outcome().revealed)

    def _guess_price(self, row: int, col: int) -> float:
        """``Rewards.avoidable_guess`` if this reveal might hit a mine while a safe square waits."""
        from minesweep.frontend import advise

        if self.game.field is None:
            return 0.0  # the first click: the rule decides, not the solver
        advice = advise(self.game)
        probability = advice.probability
        if probability is None or not advice.hint.safe:
            return 0.0
        return self.rewards.avoidable_guess if probability[row, col] > 0 else 0.0

    def _describe(self, index: int) -> str:
        block, square = divmod(index, self.squares)
        row, col = divmod(square, self.cols)
        return (
            f"{_KINDS[block].name.lower()} of {square_name(row, col)}, which would change nothing"
        )


# --- a picture of the board -------------------------------------------------------------------

#: 3x5 digits, row by row.
_DIGITS: Final = {
    1: ("010", "110", "010", "010", "111"),
    2: ("111", "001", "111", "100", "111"),
    3: ("111", "001", "111", "001", "111"),
    4: ("101", "101", "111", "001", "001"),
    5: ("111", "100", "111", "001", "111"),
    6: ("111", "100", "111", "101", "111"),
    7: ("111", "001", "010", "010", "010"),
    8: ("111", "101", "111", "101", "111"),
}
_NUMBER_COLOURS: Final = {
    1: (37, 99, 235), 2: (22, 163, 74), 3: (220, 38, 38), 4: (30, 58, 138),
    5: (153, 27, 27), 6: (15, 118, 110), 7: (17, 17, 17), 8: (107, 114, 128),
}  # fmt: skip
CELL: Final = 16


def picture(glyphs: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The board as an RGB image (``uint8``, 16 pixels a square) for video recorders."""
    rows, cols = glyphs.shape
    image = np.zeros((rows * CELL, cols * CELL, 3), np.uint8)
    for row in range(rows):
        for col in range(cols):
            glyph = int(glyphs[row, col])
            cell = image[row * CELL : (row + 1) * CELL, col * CELL : (col + 1) * CELL]
            hidden = glyph in (Glyph.HIDDEN, Glyph.FLAG, Glyph.QUESTION)
            cell[:] = (168, 162, 158) if hidden else (231, 229, 228)
            if glyph == Glyph.EXPLODED:
                cell[:] = (220, 38, 38)
            cell[-1, :] = cell[:, -1] = (120, 113, 108)
            if 1 <= glyph <= MAX_NUMBER:
                for y, line in enumerate(_DIGITS[glyph]):
                    for x, bit in enumerate(line):
                        if bit == "1":
                            top, left = 3 + 2 * y, 5 + 2 * x
                            cell[top : top + 2, left : left + 2] = _NUMBER_COLOURS[glyph]
            elif glyph in (Glyph.FLAG, Glyph.WRONG_FLAG):
                cell[4:9, 6:11] = (220, 38, 38)
                cell[9:13, 7:9] = (17, 17, 17)
            elif glyph in (Glyph.MINE, Glyph.EXPLODED):
                cell[5:11, 5:11] = (17, 17, 17)
    return image
