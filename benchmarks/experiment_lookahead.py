"""Experiment: the autoplayer's policy with and without its one-move lookahead.

Run from the project root; each seed is played twice, once per policy, so
the comparison is paired (the games only one of them wins are what the
difference rests on):

    python benchmarks/experiment_lookahead.py --preset expert --seeds 6000:9000

The lookahead (:func:`minesweep.solver.policy.lookahead_guess`) weighs the
safest candidates by how safe the next guess would be after each number
they could show. ``--part long-term`` compares instead the lookahead with
and without its weighing of the 50/50s a guess may settle early
(``PolicyConfig.long_term``). See BENCHMARKS.md for what each gains and costs.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import time

from minesweep import autoplay
from minesweep.solver.policy import DEFAULT_POLICY


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first-click", default="corner")
    parser.add_argument("--seeds", default="0:1000", help="FIRST:END (end excluded)")
    parser.add_argument(
        "--part",
        choices=["lookahead", "long-term"],
        default="lookahead",
        help="what to play with and without",
    )
    arguments = parser.parse_args()
    first, end = (int(part) for part in arguments.seeds.split(":"))
    config = autoplay.PlayConfig.preset(
        arguments.preset, rule=arguments.rule, first_click=arguments.first_click
    )
    switch = "lookahead" if arguments.part == "lookahead" else "long_term"
    configs = {
        name: dataclasses.replace(
            config, policy=dataclasses.replace(DEFAULT_POLICY, **{switch: on})
        )
        for name, on in (("without", False), ("with", True))
    }
    results: dict[str, list[bool]] = {name: [] for name in configs}
    seconds = dict.fromkeys(configs, 0.0)
    for seed in range(first, end):
        # Interleaved, so that the machine's moods fall on both alike.
        for name, played in configs.items():
            start = time.perf_counter()
            results[name].append(autoplay.play_game(played, seed).won)
            seconds[name] += time.perf_counter() - start
    games = end - first
    base, look = results["without"], results["with"]
    only_look = sum(b and not a for a, b in zip(base, look, strict=True))
    only_base = sum(a and not b for a, b in zip(base, look, strict=True))
    spread = math.sqrt(only_look + only_base) or 1.0
    part = arguments.part
    print(f"{config.rows}x{config.cols}/{config.mines}, {arguments.rule}, seeds {first}:{end}")
    for name, won in results.items():
        print(f"  {name:7} {part} {sum(won):6} wins  {seconds[name] / games * 1e3:7.1f} ms a game")
    print(
        f"  won only with the {part} {only_look}, only without {only_base}: "
        f"{only_look - only_base:+d} ({(only_look - only_base) / spread:+.1f} standard errors)"
    )


if __name__ == "__main__":
    main()
