"""Experiment: the autoplayer's policy with and without its one-move lookahead.

Run from the project root; each seed is played twice, once per policy, so
the comparison is paired (the games only one of them wins are what the
difference rests on):

    python benchmarks/experiment_lookahead.py --preset expert --seeds 6000:9000

The lookahead (:func:`minesweep.solver.policy.lookahead_guess`) weighs the
safest candidates by how safe the next guess would be after each number
they could show. See BENCHMARKS.md for what it gains and what it costs.
"""

from __future__ import annotations

import argparse
import functools
import math
import time

from minesweep import autoplay
from minesweep.solver import policy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first-click", default="corner")
    parser.add_argument("--seeds", default="0:1000", help="FIRST:END (end excluded)")
    arguments = parser.parse_args()
    first, end = (int(part) for part in arguments.seeds.split(":"))
    config = autoplay.PlayConfig.preset(
        arguments.preset, rule=arguments.rule, first_click=arguments.first_click
    )
    original = policy.choose_guess
    policies = {
        "without": functools.partial(original, lookahead=False),
        "with": functools.partial(original, lookahead=True),
    }
    results: dict[str, list[bool]] = {name: [] for name in policies}
    seconds = dict.fromkeys(policies, 0.0)
    try:
        for seed in range(first, end):
            # Interleaved, so that the machine's moods fall on both alike.
            for name, choose in policies.items():
                policy.choose_guess = choose  # type: ignore[assignment]  # looked up per game
                start = time.perf_counter()
                results[name].append(autoplay.play_game(config, seed).won)
                seconds[name] += time.perf_counter() - start
    finally:
        policy.choose_guess = original
    games = end - first
    base, look = results["without"], results["with"]
    only_look = sum(b and not a for a, b in zip(base, look, strict=True))
    only_base = sum(a and not b for a, b in zip(base, look, strict=True))
    spread = math.sqrt(only_look + only_base) or 1.0
    print(f"{config.rows}x{config.cols}/{config.mines}, {arguments.rule}, seeds {first}:{end}")
    for name, won in results.items():
        print(
            f"  {name:7} lookahead {sum(won):6} wins  {seconds[name] / games * 1e3:7.1f} ms a game"
        )
    print(
        f"  won only with the lookahead {only_look}, only without {only_base}: "
        f"{only_look - only_base:+d} ({(only_look - only_base) / spread:+.1f} standard errors)"
    )


if __name__ == "__main__":
    main()
