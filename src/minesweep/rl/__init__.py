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
:class:`MinesweeperEnv` may be passed to ``gymnasium.make`` too.
``gymnasium.make_vec(id, num_envs=N)`` gives a :class:`MinesweeperVectorEnv`
(the ``NoGuess`` ids: Gymnasium's ``SyncVectorEnv``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gymnasium.envs.registration import register, registry

from .env import (
    OBSERVATION_HIGH,
    InvalidActionError,
    MinesweeperEnv,
    Rewards,
)

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


_ENTRY = "minesweep.rl.env:MinesweeperEnv"
_VECTOR_ENTRY = "minesweep.rl.vector:MinesweeperVectorEnv"

for _preset in ("beginner", "intermediate", "expert"):
    for _suffix, _options in (
        ("", {}),
        ("Safe", {"rule": "safe"}),
        ("NoGuess", {"no_guess": True}),
    ):
        _id = f"minesweep/{_preset.capitalize()}{_suffix}-v0"
        if _id not in registry:
            # gymnasium.make_vec builds the compiled vector env where it
            # plays the game (it lays no no-guess fields), SyncVectorEnv
            # elsewhere.
            register(
                id=_id,
                entry_point=_ENTRY,
                vector_entry_point=None if _suffix == "NoGuess" else _VECTOR_ENTRY,
                kwargs={"preset": _preset, **_options},
            )
