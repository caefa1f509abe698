"""Autoplay and analysis speed of two source trees, side by side in one run.

A refactor must not slow the autoplayer. This plays the same seeded expert
games with the code of two trees (say a git worktree of main before the change,
and the working tree), alternating rounds between them so that both see the
same machine load, and prints each tree's median games a second over the
rounds and their ratio::

    git worktree add /tmp/before <commit>
    python benchmarks/compare_trees.py /tmp/before . --games 400 --rounds 7

Each round runs in a fresh process per tree (with that tree's ``src`` first on
``sys.path``) that plays the seeds once to warm up (numba's compiled kernels
are loaded from the cache, not timed) and then times them.

``--work analysis`` times :func:`minesweep.solver.analyze` instead, cold (the
remembered components forgotten before each call), on the expert positions a
simple player meets in the round's seeded games (it opens every safe square
and guesses the least likely mine), and prints the median time a position.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

_ROUND = """
import json, sys, time
from minesweep.autoplay import PlayConfig, play_game
config = PlayConfig.preset({preset!r}, rule={rule!r}, first_click={click!r})
seeds = range({start}, {start} + {games})
play_game(config, 10**9)
started = time.perf_counter()
wins = sum(play_game(config, seed).won for seed in seeds)
seconds = time.perf_counter() - started
print(json.dumps({{"games_per_second": {games} / seconds, "wins": wins}}))
"""

_ANALYSIS_ROUND = """
import json, statistics, time
import numpy as np
from minesweep import Game
from minesweep.solver import analyze
try:
    from minesweep.solver.counting import clear_cache
except ImportError:
    from minesweep.solver.probability import _clear_cache as clear_cache
views = []
for seed in range({start}, {start} + {games}):
    game = Game.new("expert", seed=seed)
    game.reveal(8, 15)
    while not game.is_over:
        view = game.glyphs()
        analysis = analyze(view, game.mine_count)
        views.append(view)
        if len(analysis.safe):
            for row, col in analysis.safe.tolist():
                if not game.is_over:
                    game.reveal(row, col)
        else:
            p = np.where(np.isnan(analysis.probability), 2.0, analysis.probability)
            row, col = np.unravel_index(int(np.argmin(p)), p.shape)
            game.reveal(int(row), int(col))
times = []
for view in views:
    clear_cache()
    started = time.perf_counter()
    analyze(view, 99)
    times.append(time.perf_counter() - started)
print(json.dumps({{"median_ms": statistics.median(times) * 1e3, "positions": len(views)}}))
"""


def run_round(tree: Path, code: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--games", type=int, default=400, help="games a round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rule", default="safe")
    parser.add_argument("--first-click", default="corner")
    parser.add_argument("--work", choices=("autoplay", "analysis"), default="autoplay")
    arguments = parser.parse_args()
    if arguments.work == "analysis":
        compare_analysis(arguments)
        return
    trees = {"before": arguments.before.resolve(), "after": arguments.after.resolve()}
    speeds: dict[str, list[float]] = {name: [] for name in trees}
    for number in range(arguments.rounds):
        code = _ROUND.format(
            preset=arguments.preset,
            rule=arguments.rule,
            click=arguments.first_click,
            start=number * arguments.games,
            games=arguments.games,
        )
        # Alternate which tree goes first, so neither always meets a warmer machine.
        order = list(trees) if number % 2 == 0 else list(reversed(trees))
        wins = set()
        for name in order:
            result = run_round(trees[name], code)
            speeds[name].append(result["games_per_second"])
            wins.add(result["wins"])
        if len(wins) != 1:
            sys.exit(f"round {number + 1}: the trees won different numbers of games: {wins}")
        print(
            f"round {number + 1}: "
            + "  ".join(f"{name} {speeds[name][-1]:6.1f} games/s" for name in trees)
            + f"  ({wins.pop()} wins each)",
            flush=True,
        )
    before = statistics.median(speeds["before"])
    after = statistics.median(speeds["after"])
    print(
        f"{arguments.preset}, {arguments.rule}, first click {arguments.first_click}, "
        f"{arguments.games} games x {arguments.rounds} rounds"
    )
    print(
        f"median games/s: before {before:.1f}, after {after:.1f}; after/before {after / before:.3f}"
    )


def compare_analysis(arguments: argparse.Namespace) -> None:
    trees = {"before": arguments.before.resolve(), "after": arguments.after.resolve()}
    medians: dict[str, list[float]] = {name: [] for name in trees}
    for number in range(arguments.rounds):
        code = _ANALYSIS_ROUND.format(start=number * arguments.games, games=arguments.games)
        order = list(trees) if number % 2 == 0 else list(reversed(trees))
        positions = set()
        for name in order:
            result = run_round(trees[name], code)
            medians[name].append(result["median_ms"])
            positions.add(result["positions"])
        if len(positions) != 1:
            sys.exit(f"round {number + 1}: the trees met different positions: {positions}")
        print(
            f"round {number + 1}: "
            + "  ".join(f"{name} {medians[name][-1]:.3f} ms" for name in trees)
            + f"  ({positions.pop()} positions each)",
            flush=True,
        )
    before = statistics.median(medians["before"])
    after = statistics.median(medians["after"])
    print(f"expert positions met in play, {arguments.games} games x {arguments.rounds} rounds")
    print(
        f"median of the rounds' median analysis (cold): before {before:.3f} ms, "
        f"after {after:.3f} ms; after/before {after / before:.3f}"
    )


if __name__ == "__main__":
    main()
