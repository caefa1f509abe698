"""The registered ids: their time limits, what make_vec builds, and the ``module:id`` form."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import minesweep.rl  # noqa: E402
from minesweep.errors import SettingsError  # noqa: E402
from minesweep.rl import MinesweeperEnv, Rewards  # noqa: E402

IDS = [
    f"minesweep/{preset}{suffix}-v0"
    for preset in ("Beginner", "Intermediate", "Expert")
    for suffix in ("", "Safe", "NoGuess")
]
SQUARES = {"Beginner": 81, "Intermediate": 256, "Expert": 480}


@pytest.mark.parametrize("name", IDS)
def test_every_id_has_a_time_limit_of_two_steps_a_square(name: str) -> None:
    preset = name.split("/")[1].split("-")[0].removesuffix("Safe").removesuffix("NoGuess")
    assert gymnasium.spec(name).max_episode_steps == 2 * SQUARES[preset]


def _invalid_until_the_end(env: Any, action: int) -> tuple[int, bool, bool]:
    """Take one reveal, then the same (now masked) reveal until the episode ends."""
    env.reset(seed=3)
    steps = 0
    while True:
        _, _, terminated, truncated, _ = env.step(action)
        steps += 1
        if terminated or truncated or steps > 10_000:
            return steps, bool(terminated), bool(truncated)


def test_repeated_invalid_reveals_truncate_at_the_limit_not_terminate() -> None:
    # Seed 3's first reveal at square 0 opens and leaves the game going (the
    # opening rule): every later reveal there is masked and changes nothing.
    env = gymnasium.make("minesweep/Beginner-v0")
    assert _invalid_until_the_end(env, 0) == (162, False, True)
    assert env.unwrapped.game.status.value == "playing"
    shorter = gymnasium.make("minesweep/Beginner-v0", max_episode_steps=7)
    assert _invalid_until_the_end(shorter, 0) == (7, False, True)


def test_toggling_one_flag_truncates_too() -> None:
    env = gymnasium.make("minesweep/Expert-v0", actions="all")
    env.reset(seed=1)
    squares = 480
    steps, truncated = 0, False
    while not truncated and steps <= 10_000:
        _, _, terminated, truncated, _ = env.step(squares + 5)  # flag, unflag, ...
        assert not terminated
        steps += 1
    assert steps == 960


@pytest.mark.parametrize("limit", [None, 4])
def test_the_vector_env_truncates_each_board_and_resets_it_next_step(limit: int | None) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    vector = gymnasium.make_vec(
        "minesweep/Beginner-v0",
        num_envs=3,
        **({} if limit is None else {"max_episode_steps": limit}),
    )
    assert isinstance(vector, MinesweeperVectorEnv)
    expected = 162 if limit is None else limit
    assert vector.max_episode_steps == expected
    vector.reset(seed=3)
    # Board 0 repeats a reveal (masked after the first), board 1 starts one step
    # late (a reset does not count), board 2 only truncates with it.
    actions = np.array([0, 0, 0])
    truncated_at: dict[int, int] = {}
    for step in range(1, expected + 3):
        _, rewards, terminated, truncated, info = vector.step(actions)
        assert not terminated.any()
        for board in np.flatnonzero(truncated).tolist():
            truncated_at.setdefault(board, step)
        if step == expected + 1:  # the step after: Gymnasium's NEXT_STEP autoreset
            assert list(info["status"]) == ["ready"] * 3
            assert not truncated.any()
            assert (rewards == 0).all()
    assert truncated_at == {0: expected, 1: expected, 2: expected}


def test_the_time_limit_is_checked() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    for bad in (0, -1, 2.5, True, "9"):
        with pytest.raises(SettingsError, match="max_episode_steps must be a whole number"):
            MinesweeperVectorEnv(2, "beginner", max_episode_steps=bad)  # type: ignore[arg-type]
        with pytest.raises(SettingsError, match="max_episode_steps must be a whole number"):
            minesweep.rl.registration.make_vector(
                2,
                preset="beginner",
                solver_features=True,
                max_episode_steps=bad,  # type: ignore[arg-type]
            )


#: Every option the README and the package docstring name, alone: whether
#: the compiled env plays it (else make_vec gives SyncVectorEnv).
OPTIONS: list[tuple[dict[str, Any], bool]] = [
    ({}, True),
    ({"rule": "safe"}, True),
    ({"rule": "none"}, True),
    ({"actions": "all"}, True),
    ({"rows": 5, "cols": 6, "mines": 4, "preset": None}, True),
    ({"rewards": Rewards(win=2.0, invalid=-1.0)}, True),
    ({"invalid_action": "penalize"}, True),
    ({"solver_features": True}, False),
    ({"solver_features": True, "actions": "all"}, False),
    ({"no_guess": True}, False),
    ({"rewards": Rewards(avoidable_guess=-0.5)}, False),
    ({"invalid_action": "raise"}, False),
    ({"render_mode": "ansi"}, False),
]


@pytest.mark.parametrize("name", ["minesweep/Beginner-v0", "minesweep/BeginnerNoGuess-v0"])
@pytest.mark.parametrize(("options", "compiled"), OPTIONS)
def test_make_vec_takes_every_option_and_keeps_the_single_envs_spaces(
    name: str, options: dict[str, Any], compiled: bool
) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    if "NoGuess" in name and options.get("rule", "opening") != "opening":
        # No-guess fields always open at the first click: both say so alike.
        for make in (gymnasium.make, lambda *given, **more: gymnasium.make_vec(*given, 2, **more)):
            with pytest.raises(SettingsError, match="no-guess games always open"):
                make(name, **options)
        return
    vector = gymnasium.make_vec(name, num_envs=2, **options)
    single = gymnasium.make(name, **options)
    if compiled and "NoGuess" not in name:
        assert isinstance(vector, MinesweeperVectorEnv)
    else:
        assert isinstance(vector, gymnasium.vector.SyncVectorEnv)
        assert vector.envs[0].spec.max_episode_steps == single.spec.max_episode_steps
    assert vector.num_envs == 2
    assert vector.single_observation_space == single.observation_space
    assert vector.single_action_space == single.action_space
    observations, info = vector.reset(seed=0)
    assert info["action_mask"].shape == (2, single.action_space.n)
    alone, _ = single.reset(seed=0)
    first = observations["view"][0] if isinstance(observations, dict) else observations[0]
    seen = alone["view"] if isinstance(alone, dict) else alone
    assert np.array_equal(first, seen)
    vector.step(np.array([0, 0]))


def test_sync_mode_still_builds_single_envs() -> None:
    sync = gymnasium.make_vec(
        "minesweep/Beginner-v0", num_envs=2, vectorization_mode="sync", solver_features=True
    )
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_the_direct_vector_env_names_what_it_does_not_take() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(SettingsError, match=r"does not take solver_features; gymnasium.make_vec"):
        MinesweeperVectorEnv(2, "beginner", solver_features=True)


def test_the_module_id_form_imports_the_package_in_a_fresh_interpreter() -> None:
    code = (
        "import sys, gymnasium\n"
        "assert 'minesweep.rl' not in sys.modules\n"
        "env = gymnasium.make('minesweep.rl:minesweep/Beginner-v0')\n"
        "observation, info = env.reset(seed=7)\n"
        "vector = gymnasium.make_vec('minesweep.rl:minesweep/Expert-v0', num_envs=2)\n"
        "print(observation.shape, env.spec.max_episode_steps, type(vector).__name__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.split() == ["(9,", "9)", "162", "MinesweeperVectorEnv"]


def test_a_bare_env_keeps_no_limit_of_its_own() -> None:
    # The limit is the registered id's (TimeLimit), as Gymnasium's own envs do.
    env = MinesweeperEnv("beginner")
    env.reset(seed=3)
    env.step(0)
    for _ in range(200):
        assert env.step(0)[3] is False
