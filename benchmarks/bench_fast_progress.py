"""Games a second of ``fast`` against ``fast`` with Tu's progress tie-break, interleaved.

Run from the project root, compiled (the numbers are relative: the machine
is shared, so only the ratios within one run compare):

    MINESWEEP_JIT=compile python benchmarks/bench_fast_progress.py --rounds 3 --games 2000

Each policy is warmed on a few games, then every round plays the same
``--games`` expert seeds (safe first click in the corner) with each policy
in turn, in this process; a round's ratio is a variant's games a second
over ``fast``'s in that round, and the line gives the median ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time

from minesweep import autoplay
from minesweep.autoplay import PlayConfig
from minesweep.solver.guess import PolicyConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--candidates", default="10", help="comma-separated progress_candidates")
    arguments = parser.parse_args()
    fast = PolicyConfig.preset("fast")
    policies = {"fast": dataclasses.replace(fast, progress_candidates=0)}
    for text in arguments.candidates.split(","):
        policies[f"progress{text}"] = dataclasses.replace(fast, progress_candidates=int(text))
    play = PlayConfig.preset("expert", rule="safe", first_click="corner")
    for policy in policies.values():
        autoplay.play_games(dataclasses.replace(play, policy=policy), range(10**6, 10**6 + 20))
    rates: dict[str, list[float]] = {name: [] for name in policies}
    for round_ in range(arguments.rounds):
        seeds = range(round_ * arguments.games, (round_ + 1) * arguments.games)
        for name, policy in policies.items():
            start = time.perf_counter()
            autoplay.play_games(dataclasses.replace(play, policy=policy), seeds)
            rates[name].append(arguments.games / (time.perf_counter() - start))
    line = [f"fast {[round(r) for r in rates['fast']]}"]
    for name, found in rates.items():
        if name != "fast":
            ratio = statistics.median(v / f for v, f in zip(found, rates["fast"], strict=True))
            line.append(f"{name} {[round(r) for r in found]} {ratio:.3f}")
    print("   ".join(line))


if __name__ == "__main__":
    main()
