"""Minesweeper for reinforcement learning: a Gymnasium environment with the real rules.

An optional extra (``pip install 'minesweep[rl]'``): importing this package
needs Gymnasium, registers the environments below, and nothing in the core
imports it.

>>> import gymnasium
>>> import minesweep.rl
>>> env = gymnasium.make("minesweep/Beginner-v0")
>>> observation, info = env.reset(seed=7)
>>> observation.shape, observation.dtype.name, int(info["action_mask"].sum())
((9, 9), 'uint8', 81)

Registered ids: ``minesweep/Beginner-v0``, ``minesweep/Intermediate-v0`` and
``minesweep/Expert-v0`` (the opening rule), and the same with ``Safe`` or
``NoGuess`` before ``-v0`` (``minesweep/BeginnerSafe-v0``...). Every option of
:class:`MinesweeperEnv` may be passed to ``gymnasium.make`` too, and
``gymnasium.make("minesweep.rl:minesweep/Beginner-v0")`` imports this package
itself. Every id has a time limit, two steps a square of its board
(``max_episode_steps``, 162 on beginner; ``gymnasium.make(id,
max_episode_steps=n)`` changes it): the episode is truncated there.
``gymnasium.make_vec(id, num_envs=N)`` gives a :class:`MinesweeperVectorEnv`
(the same limit), or Gymnasium's ``SyncVectorEnv`` of single environments for
the options it does not play (``no_guess``, the ``NoGuess`` ids,
``solver_features``, ``Rewards.avoidable_guess``, ``invalid_action="raise"``,
``render_mode``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import gymnasium  # noqa: F401  (the extra's one library: say so if it is missing)
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(
        f"minesweep.rl needs the optional extra: pip install 'minesweep[rl]' ({missing})",
        name=missing.name,
    ) from missing

from .env import (
    OBSERVATION_HIGH,
    InvalidActionError,
    MinesweeperEnv,
    Rewards,
)
from .registration import register_all

if TYPE_CHECKING:
    from .vector import MinesweeperVectorEnv

__all__ = [
    "OBSERVATION_HIGH",
    "InvalidActionError",
    "MinesweeperEnv",
    "MinesweeperVectorEnv",
    "Rewards",
]


def __getattr__(name: str) -> Any:
    # The vector env loads numba's kernels: only when it is asked for.
    if name == "MinesweeperVectorEnv":
        from .vector import MinesweeperVectorEnv

        return MinesweeperVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


register_all()
