"""Two strengths of the autoplayer on the same seeds: wins, games won by one only, speed.

Run from the project root, for instance (the dial's strongest setting
against the default, issue 50):

    python benchmarks/pair_strength.py --a default --b strongest \\
        --seeds 0:20000 --out benchmarks/results/strongest-paired-0-20000.txt

Each side is a strength (:data:`minesweep.presets.STRENGTHS`) with any
changes to its :class:`minesweep.solver.guess.PolicyConfig` after a comma:
``strongest`` or ``default,endgame_layouts=5000,endgame_nodes=1000000``
(numbers, ``true``/``false``). Both sides play every seed in this process,
one after the other, compiled (:func:`minesweep.autoplay.play_games`), so
their games a second are measured alike.

The output: the games, each side's wins and win rate (95% Wilson interval),
the games won only by A and only by B, the paired difference B - A and its
standard error sqrt(onlyA + onlyB) / n (a sign test), and each side's games
a second and median game. ``--out`` writes the same lines to a file.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import platform
import statistics
import sys
import time

from minesweep import autoplay
from minesweep.autoplay import PlayConfig
from minesweep.solver.guess import PolicyConfig
from minesweep.stats import wilson_interval
from paired_policy import changed_policy


def side(text: str) -> tuple[str, PolicyConfig]:
    """``NAME[,FIELD=VALUE...]``: a named strength with changes."""
    name, *changes = text.split(",")
    return text, changed_policy(PolicyConfig.preset(name), changes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="default", help="NAME[,FIELD=VALUE...] (default: default)")
    parser.add_argument("--b", default="strongest", help="NAME[,FIELD=VALUE...]")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first-click", default="corner")
    parser.add_argument("--seeds", default="0:1000", help="FIRST:END (end excluded)")
    parser.add_argument("--out", help="write the result to this file too")
    arguments = parser.parse_args()
    first, end = (int(part) for part in arguments.seeds.split(":"))
    seeds = range(first, end)
    play = PlayConfig.preset(
        arguments.preset, rule=arguments.rule, first_click=arguments.first_click
    )
    sides = [side(arguments.a), side(arguments.b)]
    # The kernels compiled (or loaded) before any game is timed.
    autoplay.play_game(dataclasses.replace(play, policy=sides[0][1]), first)
    results = []
    for _, policy in sides:
        started = time.perf_counter()
        records = autoplay.play_games(dataclasses.replace(play, policy=policy), seeds)
        results.append((records, time.perf_counter() - started))
    (a, a_seconds), (b, b_seconds) = results
    n = len(seeds)
    only_a = sum(x.won and not y.won for x, y in zip(a, b, strict=True))
    only_b = sum(y.won and not x.won for x, y in zip(a, b, strict=True))
    change = (only_b - only_a) / n
    error = math.sqrt(only_a + only_b) / n
    lines = [
        f"{arguments.preset} {play.rows}x{play.cols}/{play.mines}, rule {play.rule}, "
        f"first click {play.first_click}, seeds {first}:{end} ({n} games), one process, "
        f"{platform.node()}, {time.strftime('%Y-%m-%d')}",
    ]
    for label, (name, _), (records, seconds) in zip("AB", sides, results, strict=True):
        wins = sum(record.won for record in records)
        low, high = wilson_interval(wins, n)
        median = statistics.median(record.seconds for record in records)
        lines.append(
            f"  {label} {name:<40} {wins:6d} wins {wins / n:.3%} "
            f"(95% CI {low:.3%} to {high:.3%}), {n / seconds:.1f} games/s, "
            f"median game {median * 1e3:.2f} ms"
        )
    lines.append(
        f"  won only by A {only_a}, only by B {only_b}: B - A {only_b - only_a:+d} games, "
        f"{change:+.3%} (standard error {error:.3%}, "
        f"{change / error if error else 0.0:+.1f} standard errors)"
    )
    lines.append(f"  seconds: A {a_seconds:.0f}, B {b_seconds:.0f}")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if arguments.out:
        with open(arguments.out, "w", encoding="utf-8") as file:
            file.write(text)


if __name__ == "__main__":
    main()
