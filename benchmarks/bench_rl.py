"""Steps a second of the RL environments: our vector env against Gymnasium's SyncVectorEnv.

Both run ``--boards`` beginner boards (opening rule) in this process, with
the same masked random actions (argmax of uniform noise times the mask,
drawn outside the timing), interleaved round by round; the figure is the
median over ``--rounds`` of steps (boards times batch steps) a second.

    python benchmarks/bench_rl.py --boards 256 --steps 200 --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import gymnasium
import numpy as np

import minesweep.rl  # noqa: F401  (registers the ids)
from minesweep.rl.vector import MinesweeperVectorEnv


def run(env: Any, masks_of: Any, boards: int, steps: int, seed: int) -> float:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    noise = rng.random((steps, boards, 81))
    began = time.perf_counter()
    for step in range(steps):
        actions = (masks_of(env, info) * noise[step]).argmax(axis=1)
        _, _, _, _, info = env.step(actions)
    return boards * steps / (time.perf_counter() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=256)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    boards, steps = arguments.boards, arguments.steps
    ours = MinesweeperVectorEnv(boards, "beginner")
    sync = gymnasium.vector.SyncVectorEnv(
        [lambda: gymnasium.make("minesweep/Beginner-v0").unwrapped for _ in range(boards)]
    )
    run(ours, lambda env, info: info["action_mask"], boards, 5, 0)  # compile the kernel
    figures: dict[str, list[float]] = {"ours": [], "SyncVectorEnv": []}
    for round_ in range(arguments.rounds):
        figures["ours"].append(
            run(ours, lambda env, info: info["action_mask"], boards, steps, round_)
        )
        figures["SyncVectorEnv"].append(
            run(sync, lambda env, info: np.stack(info["action_mask"]), boards, steps, round_)
        )
    medians = {name: statistics.median(values) for name, values in figures.items()}
    for name, value in medians.items():
        print(f"{name:<14} {value:12,.0f} steps/s")
    print(f"ours/SyncVectorEnv {medians['ours'] / medians['SyncVectorEnv']:.1f}")


if __name__ == "__main__":
    main()
