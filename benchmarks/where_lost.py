"""Diagnostic: at which kind of guess the autoplayer's lost games were lost.

Run from the project root:

    python benchmarks/where_lost.py --preset expert --rule opening --first-click 3,3 --seeds 0:2000

Plays each seed with the policy as it stands and, for every lost game,
files its fatal guess by the step of :func:`minesweep.solver.policy.choose_guess`
that chose it and by how many layouts the view still allowed. Deaths at an
exhaustive search were the best any play could do from that view; deaths
where many layouts remained are where a better guess could still help. The
mean risk of each kind is the risk the policy took knowingly.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter

from minesweep import autoplay
from minesweep.solver.guess import Guess
from minesweep.solver.probability import Analysis

#: Reasons by the start of the text choose_guess gives them (the order matters).
KINDS = (
    ("an exhaustive search of the 2 layouts left", "endgame search, last 2 layouts"),
    ("an exhaustive search of the", "endgame or cut-off part search"),
    ("a forced 50/50", "forced 50/50"),
    ("a mine here only as one side", "50/50 or safe"),
    ("the best chance of surviving", "lookahead"),
    ("the lowest risk", "plain choice"),
)


def kind_of(reason: str, log_layouts: float) -> str:
    kind = next((name for start, name in KINDS if reason.startswith(start)), "other")
    if "search" in kind or "50/50" in kind:
        return kind
    band = "at most 100,000 layouts" if log_layouts <= math.log(1e5) else "more layouts"
    return f"{kind}, {band}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rule", default="opening")
    parser.add_argument("--first-click", default="3,3")
    parser.add_argument("--seeds", default="0:1000", help="FIRST:END (end excluded)")
    arguments = parser.parse_args()
    first, end = (int(part) for part in arguments.seeds.split(":"))
    config = autoplay.PlayConfig.preset(
        arguments.preset, rule=arguments.rule, first_click=arguments.first_click
    )
    last: list[tuple[str, float]] = []

    def noting(analysis: Analysis, guess: Guess) -> None:
        last[:] = [(kind_of(guess.reason, analysis.log_layouts), guess.probability)]

    deaths: Counter[str] = Counter()
    risk: Counter[str] = Counter()
    for seed in range(first, end):
        last.clear()
        if autoplay.play_game(config, seed, on_guess=noting).won:
            continue
        # Certain moves never lose: the fatal click was the last guess,
        # or the first click itself (rule "none").
        blind = config.mines / (config.rows * config.cols)
        kind, probability = last[0] if last else ("the first click", blind)
        deaths[kind] += 1
        risk[kind] += probability
    games = end - first
    print(f"{arguments.preset}, {arguments.rule}, seeds {first} to {end - 1}: ", end="")
    print(f"{sum(deaths.values())} of {games} games lost")
    for kind, count in deaths.most_common():
        print(f"{count:7d}  mean risk {risk[kind] / count:.3f}  {kind}")


if __name__ == "__main__":
    main()
