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
are loaded from the cache, not timed) and then times them. A tree that has
never run compiles kernels the warm-up game does not reach during its first
round: run a short comparison once first (or drop the first round).

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
from typing import Any

_ROUND = """
import json, sys, time
from minesweep.autoplay import PlayConfig, play_game
config = PlayConfig.preset({preset!r}, rule={rule!r}, first_click={click!r})
seeds = range({start}, {start} + {games})
play_game(config, 10**9)
started = time.perf_counter()
won = [seed for seed in seeds if play_game(config, seed).won]
seconds = time.perf_counter() - started
print(json.dumps({{"games_per_second": {games} / seconds, "wins": len(won), "won": won}}))
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


def run_round(tree: Path, code: str) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def alternate(
    trees: dict[str, Path],
    codes: list[str],
    measure: str,
    check: str,
    unit: str,
    *,
    same: bool = True,
    won: dict[str, set[int]] | None = None,
) -> dict[str, float]:
    """Run each round's code in every tree, alternating who goes first; each tree's median.

    ``measure`` names the figure a round prints, ``check`` one that must be
    the same in both trees (the same games won, the same positions met)
    unless ``same`` is False (a change meant to play some games otherwise).
    ``won``, when given, gathers each tree's won seeds, for a paired count.
    """
    figures: dict[str, list[float]] = {name: [] for name in trees}
    for number, code in enumerate(codes):
        # Alternate which tree goes first, so neither always meets a warmer machine.
        order = list(trees) if number % 2 == 0 else list(reversed(trees))
        checks = set()
        for name in order:
            result = run_round(trees[name], code)
            figures[name].append(result[measure])
            checks.add(result[check])
            if won is not None:
                won.setdefault(name, set()).update(result.get("won", []))
        if len(checks) != 1 and same:
            sys.exit(f"round {number + 1}: the trees differ in {check}: {checks}")
        print(
            f"round {number + 1}: "
            + "  ".join(f"{name} {figures[name][-1]:.3f} {unit}" for name in trees)
            + f"  ({' and '.join(map(str, sorted(checks)))} {check})",
            flush=True,
        )
    return {name: statistics.median(values) for name, values in figures.items()}


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
    parser.add_argument(
        "--different-games",
        action="store_true",
        help="go on when the trees play some games otherwise (an intended change of play)",
    )
    arguments = parser.parse_args()
    same = not arguments.different_games
    trees = {"before": arguments.before.resolve(), "after": arguments.after.resolve()}
    starts = [number * arguments.games for number in range(arguments.rounds)]
    size = f"{arguments.games} games x {arguments.rounds} rounds"
    if arguments.work == "analysis":
        codes = [_ANALYSIS_ROUND.format(start=start, games=arguments.games) for start in starts]
        median = alternate(trees, codes, "median_ms", "positions", "ms", same=same)
        print(f"expert positions met in play, {size}")
        what = "median of the rounds' median analysis (cold), ms"
    else:
        codes = [
            _ROUND.format(
                preset=arguments.preset,
                rule=arguments.rule,
                click=arguments.first_click,
                start=start,
                games=arguments.games,
            )
            for start in starts
        ]
        won: dict[str, set[int]] = {}
        median = alternate(trees, codes, "games_per_second", "wins", "games/s", same=same, won=won)
        print(f"{arguments.preset}, {arguments.rule}, first click {arguments.first_click}, {size}")
        games = arguments.games * arguments.rounds
        for name in trees:
            print(f"{name}: won {len(won[name])} of {games} ({len(won[name]) / games:.2%})")
        # Paired on the same seeds: only the games one side won tell them apart.
        print(
            f"won only before: {len(won['before'] - won['after'])}, "
            f"won only after: {len(won['after'] - won['before'])}"
        )
        what = "median games/s"
    before, after = median["before"], median["after"]
    print(f"{what}: before {before:.3f}, after {after:.3f}; after/before {after / before:.3f}")


if __name__ == "__main__":
    main()
