"""The registered ids, and what ``gymnasium.make_vec`` builds for each option.

Every id has a time limit (``max_episode_steps``, :data:`~minesweep.rl.env.STEPS_PER_SQUARE`
steps a square of its board), so ``gymnasium.make`` wraps it in ``TimeLimit``
and an episode of masked actions or flag toggles ends. ``gymnasium.make_vec``
calls :func:`make_vector`: the compiled :class:`~minesweep.rl.MinesweeperVectorEnv`
where it plays the game the options ask for, else Gymnasium's
``SyncVectorEnv`` of single environments (made as ``gymnasium.make`` makes
them: the same checker, order enforcing and time limit), with the same
spaces.
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium
from gymnasium.envs.registration import EnvSpec, register, registry

from minesweep.errors import SettingsError

from .env import Rewards, check_max_episode_steps, default_max_episode_steps, settings_of

__all__ = ["ENTRY", "VECTOR_ENTRY", "make_vector", "needs_single_envs", "register_all"]

ENTRY: Final = "minesweep.rl.env:MinesweeperEnv"
VECTOR_ENTRY: Final = "minesweep.rl.registration:make_vector"

PRESETS: Final = ("beginner", "intermediate", "expert")
SUFFIXES: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("", {}),
    ("Safe", {"rule": "safe"}),
    ("NoGuess", {"no_guess": True}),
)


def needs_single_envs(options: dict[str, Any]) -> list[str]:
    """The options the compiled vector env cannot play, by name (none: it can).

    No-guess fields are laid by the solver, solver features and the price of
    an avoidable guess run it at every step, ``invalid_action="raise"`` stops
    one board's step, and rendering draws one board: single environments do
    all of these.
    """
    rewards = options.get("rewards")
    named = {
        "no_guess": bool(options.get("no_guess")),
        "solver_features": bool(options.get("solver_features")),
        "rewards": isinstance(rewards, Rewards) and bool(rewards.avoidable_guess),
        "invalid_action": options.get("invalid_action", "penalize") != "penalize",
        "render_mode": options.get("render_mode") is not None,
    }
    return [name for name, single in named.items() if single]


def make_vector(
    num_envs: int = 1, *, max_episode_steps: int | None = None, **options: Any
) -> gymnasium.vector.VectorEnv[Any, Any, Any]:
    """``num_envs`` boards: the compiled vector env, or ``SyncVectorEnv`` where it cannot play.

    ``options`` are :class:`~minesweep.rl.MinesweeperEnv`'s; ``max_episode_steps``
    the time limit of every board (by default the board's, as the ids register).
    """
    if needs_single_envs(options):
        settings = settings_of(
            options.get("preset"),
            options.get("rows"),
            options.get("cols"),
            options.get("mines"),
            rule=options.get("rule", "opening"),
            no_guess=bool(options.get("no_guess")),
        )
        limit = (
            default_max_episode_steps(settings.rows, settings.cols)
            if max_episode_steps is None
            else check_max_episode_steps(max_episode_steps)
        )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise SettingsError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        # An unregistered spec: gymnasium.make wraps it exactly as a registered id.
        spec = EnvSpec(
            id="minesweep/Vectorised-v0",
            entry_point=ENTRY,
            max_episode_steps=limit,
            kwargs=dict(options),
        )
        return gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(spec)] * num_envs)
    from .vector import MinesweeperVectorEnv

    return MinesweeperVectorEnv(num_envs, max_episode_steps=max_episode_steps, **options)


def register_all() -> None:
    """Register every preset with each first-click rule and no-guess (once a process)."""
    for preset in PRESETS:
        settings = settings_of(preset, None, None, None, rule="opening")
        for suffix, options in SUFFIXES:
            name = f"minesweep/{preset.capitalize()}{suffix}-v0"
            if name not in registry:
                register(
                    id=name,
                    entry_point=ENTRY,
                    vector_entry_point=VECTOR_ENTRY,
                    max_episode_steps=default_max_episode_steps(settings.rows, settings.cols),
                    kwargs={"preset": preset, **options},
                )
