"""Steps a second of the RL environments: ours against SyncVectorEnv, and against Jumanji.

Part 1 runs ``--boards`` beginner boards (opening rule) in our vector env
and in Gymnasium's ``SyncVectorEnv`` over our single env, with the same
masked random actions (argmax of uniform noise times the mask, the noise
drawn outside the timing; choosing the actions is timed).

Part 2 (when ``jumanji`` is installed) runs Jumanji's ``Minesweeper-v0``,
10x10 with 10 mines, jitted and vmapped with its auto-reset wrapper over
``--boards`` boards, against our vector env on the same board with the
first-click rule ``none``. Jumanji's step is a ``lax.scan`` of
``--steps`` steps (its random masked actions drawn inside it), compiled
before the timing; XLA runs it on every core, ours runs on one. The rules
differ: Jumanji opens one square a click (no flood fill), keeps no first
click safe, and ends a game on an invalid action; ours floods and masks.
Jumanji's auto-reset starts the next game inside an acting step, ours (in
Gymnasium's next-step mode) spends a step without an action on it: the
figures for ours are given with and without those steps.

Each round times every side once, interleaved; the figure is the median
over ``--rounds`` of steps (boards times batch steps) a second.

    python benchmarks/bench_rl.py --boards 4096 --steps 100 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

import minesweep.rl  # noqa: F401  (registers the ids)
from minesweep.rl.vector import MinesweeperVectorEnv


def run(env: Any, masks_of: Any, boards: int, steps: int, seed: int) -> float:
    """Steps a second (boards times batch steps) of ``env`` under a random masked agent."""
    return run_counting(env, masks_of, boards, steps, seed)[0]


def run_counting(
    env: Any, masks_of: Any, boards: int, steps: int, seed: int
) -> tuple[float, float]:
    """Steps a second, and steps that took an action a second (not a NEXT_STEP reset)."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    squares = np.prod(env.single_observation_space.shape)
    noise = rng.random((steps, boards, squares), dtype=np.float32)
    resets = 0
    ended = np.zeros(boards, np.bool_)
    began = time.perf_counter()
    for step in range(steps):
        actions = (masks_of(env, info) * noise[step]).argmax(axis=1)
        resets += int(ended.sum())  # a board that ended last step resets in this one
        _, _, ended, _, info = env.step(actions)
    seconds = time.perf_counter() - began
    return boards * steps / seconds, (boards * steps - resets) / seconds


def jumanji_runner(boards: int, steps: int) -> Callable[[int], float]:
    """Steps a second of Jumanji's Minesweeper-v0, ``boards`` at once, compiled first."""
    import jax
    import jax.numpy as jnp
    import jumanji
    from jumanji.wrappers import VmapAutoResetWrapper

    env = VmapAutoResetWrapper(jumanji.make("Minesweeper-v0"))
    cols = env.num_cols

    def one_step(carry: Any, key: Any) -> Any:
        state, timestep = carry
        mask = timestep.observation.action_mask.reshape(boards, -1)
        noise = jax.random.uniform(key, mask.shape)
        square = jnp.argmax(jnp.where(mask, noise, -1.0), axis=1)
        action = jnp.stack([square // cols, square % cols], axis=1).astype(jnp.int32)
        state, timestep = env.step(state, action)
        return (state, timestep), timestep.reward

    @jax.jit
    def play(key: Any) -> Any:
        reset_key, step_key = jax.random.split(key)
        carry = env.reset(jax.random.split(reset_key, boards))
        carry, rewards = jax.lax.scan(one_step, carry, jax.random.split(step_key, steps))
        return rewards.sum()

    @jax.jit
    def reset_only(key: Any) -> Any:
        _state, timestep = env.reset(jax.random.split(key, boards))
        return timestep.observation.board.sum()

    play(jax.random.PRNGKey(0)).block_until_ready()  # compile
    reset_only(jax.random.PRNGKey(0)).block_until_ready()

    def timed(seed: int) -> float:
        key = jax.random.PRNGKey(seed)
        began = time.perf_counter()
        play(key).block_until_ready()
        both = time.perf_counter() - began
        began = time.perf_counter()
        reset_only(key).block_until_ready()
        reset = time.perf_counter() - began
        # The reset before the scan is not a step: its time is taken off.
        return boards * steps / max(both - reset, 1e-9)

    return timed


def report(figures: dict[str, list[float]], ours: str, other: str) -> None:
    medians = {name: statistics.median(values) for name, values in figures.items()}
    for name in (ours, other):
        print(f"  {name:<34} {medians[name]:12,.0f} steps/s")
    print(f"  ratio {ours} / {other}: {medians[ours] / medians[other]:.1f}")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Every option's default in ``--help``, and the module's text as written."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        # A switch's default (True for --no-plot's destination) reads backwards: none shown.
        if action.nargs == 0:
            return action.help
        return super()._get_help_string(action)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="bench_rl.py", description=__doc__, formatter_class=_HelpFormatter
    )
    parser.add_argument("--boards", type=int, default=4096,
                        help="boards stepped together (ours against Jumanji)")  # fmt: skip
    parser.add_argument("--steps", type=int, default=100,
                        help="batch steps a round (each steps every board)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=5,
                        help="timed rounds; the figure is their median")  # fmt: skip
    parser.add_argument("--sync-boards", type=int, default=256,
                        help="boards of the SyncVectorEnv part (it is slow)")  # fmt: skip
    parser.add_argument("--skip-sync", action="store_true",
                        help="skip part 1 (ours against SyncVectorEnv)")  # fmt: skip
    parser.add_argument("--skip-jumanji", action="store_true",
                        help="skip part 2 (ours against Jumanji; skipped without it)")  # fmt: skip
    arguments = parser.parse_args(argv)
    boards, steps = arguments.boards, arguments.steps

    def our_masks(env: Any, info: Any) -> Any:
        return info["action_mask"]

    if not arguments.skip_sync:
        sync_boards = arguments.sync_boards
        print(f"beginner, opening rule, {sync_boards} boards: ours against SyncVectorEnv")
        ours = MinesweeperVectorEnv(sync_boards, "beginner")
        sync = gymnasium.vector.SyncVectorEnv(
            [lambda: gymnasium.make("minesweep/Beginner-v0").unwrapped for _ in range(sync_boards)]
        )
        run(ours, our_masks, sync_boards, 5, 0)  # compile the kernel
        figures: dict[str, list[float]] = {"ours": [], "SyncVectorEnv": []}
        for round_ in range(arguments.rounds):
            figures["ours"].append(run(ours, our_masks, sync_boards, steps, round_))
            figures["SyncVectorEnv"].append(
                run(
                    sync,
                    lambda env, info: np.stack(info["action_mask"]),
                    sync_boards,
                    steps,
                    round_,
                )
            )
        report(figures, "ours", "SyncVectorEnv")

    print(f"beginner, opening rule, {boards} boards: ours alone")
    ours = MinesweeperVectorEnv(boards, "beginner")
    run(ours, our_masks, boards, 5, 0)
    alone = [run(ours, our_masks, boards, steps, round_) for round_ in range(arguments.rounds)]
    print(f"  ours {statistics.median(alone):12,.0f} steps/s")

    if arguments.skip_jumanji:
        return
    try:
        timed = jumanji_runner(boards, steps)
    except ImportError:
        print("Jumanji is not installed: pip install jumanji (part 2 skipped)")
        return
    print(f"10x10, 10 mines, {boards} boards: ours (rule none) against Jumanji Minesweeper-v0")
    ours = MinesweeperVectorEnv(boards, rows=10, cols=10, mines=10, rule="none")
    run(ours, our_masks, boards, 5, 0)
    figures = {"ours": [], "ours, acting steps only": [], "Jumanji (jit, vmap, scan)": []}
    for round_ in range(arguments.rounds):
        every, acting = run_counting(ours, our_masks, boards, steps, round_)
        figures["ours"].append(every)
        figures["ours, acting steps only"].append(acting)
        figures["Jumanji (jit, vmap, scan)"].append(timed(round_))
    report(figures, "ours", "Jumanji (jit, vmap, scan)")
    # Jumanji resets inside an acting step; ours spends a step on it (NEXT_STEP).
    report(figures, "ours, acting steps only", "Jumanji (jit, vmap, scan)")


if __name__ == "__main__":
    main()
