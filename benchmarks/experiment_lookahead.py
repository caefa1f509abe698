"""Experiment: a one-move lookahead ("secondary safety") against the autoplayer's policy.

Run from the project root; each seed is played twice, once per policy, so
the comparison is paired (the games either policy alone wins are what the
difference rests on):

    python benchmarks/experiment_lookahead.py --preset expert --seeds 6000:9000

The lookahead follows David Hill's solver in spirit: when the policy must
guess (and no endgame search or forced 50/50 applies), the candidates are
the frontier squares within 90% of the best safety, up to three interior
squares next to the frontier, and the policy's own choice; each is scored
by its safety times the best safety of the position after each number it
could show, every number's chance counted exactly from two analyses
(``Analysis.log_layouts``). A candidate is dropped as soon as its score
cannot beat the best found. It is not the default: see BENCHMARKS.md for
what it gains and what it costs.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

import numpy as np
import numpy.typing as npt

from minesweep import autoplay
from minesweep.solver import ContradictionError, analyze, policy
from minesweep.solver.probability import Analysis

HIDDEN = 9
CUT = 0.9  # candidates: at least this share of the best safety
INTERIOR = 3  # interior squares next to the frontier, at most
MOST = 10  # candidates, at most

_policy = policy.choose_guess


def _spread(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Squares with a neighbour (or themselves) in ``mask``."""
    rows, cols = mask.shape
    padded = np.zeros((rows + 2, cols + 2), np.bool_)
    padded[1:-1, 1:-1] = mask
    out = np.zeros(mask.shape, np.bool_)
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        out |= padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return out


def lookahead_guess(
    analysis: Analysis, glyphs: npt.NDArray[np.uint8], mines: int | None = None
) -> policy.Guess:
    view = np.asarray(glyphs)
    if mines is None:
        return _policy(analysis, glyphs, mines)
    if policy.endgame_guess(view, mines, analysis.mines) is not None:
        return _policy(analysis, glyphs, mines)
    if policy.forced_fifty_fifty(analysis, view) is not None:
        return _policy(analysis, glyphs, mines)
    own = _policy(analysis, glyphs, mines)
    hidden = view >= HIDDEN
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    sure = np.zeros(view.shape, np.bool_)
    if len(analysis.mines):
        sure[tuple(analysis.mines.T)] = True
    risk[sure] = np.inf
    frontier = hidden & ~sure & _spread(~hidden)
    interior = hidden & ~sure & ~_spread(~hidden)
    good = (1.0 - risk) >= (1.0 - risk.min()) * CUT
    blank = policy._chance_of_blank(np.where(np.isinf(risk), 1.0, risk))
    near = sorted(
        map(tuple, np.argwhere(interior & _spread(frontier) & good).tolist()),
        key=lambda cell: -blank[cell],
    )
    candidates = [tuple(cell) for cell in np.argwhere(frontier & good).tolist()]
    candidates += [*near[:INTERIOR], (own.row, own.col)]
    candidates = sorted(dict.fromkeys(candidates), key=lambda cell: risk[cell])[:MOST]
    if (own.row, own.col) not in candidates:
        candidates.append((own.row, own.col))
    if len(candidates) == 1:
        return own
    rows, cols = view.shape
    best: tuple[float, int, int] | None = None
    for r, c in candidates:
        left = 1.0 - risk[r, c]  # the chance not yet given to any number
        if best is not None and left < best[0] - 1e-12:
            continue
        around = [
            (rr, cc)
            for rr in range(max(0, r - 1), min(rows, r + 2))
            for cc in range(max(0, c - 1), min(cols, c + 2))
            if (rr, cc) != (r, c)
        ]
        known = sum(bool(sure[cell]) for cell in around)
        doubtful = sum(bool(hidden[cell] and not sure[cell]) for cell in around)
        score = 0.0
        for number in range(known, known + doubtful + 1):
            if best is not None and score + left < best[0] - 1e-12:
                break
            shown = view.copy()
            shown[r, c] = number
            try:
                after = analyze(shown, mines, max_states=None)
            except ContradictionError:
                continue
            chance = math.exp(after.log_layouts - analysis.log_layouts)
            left -= chance
            # A certain move next is as good as it gets; else the safest guess.
            safest = 1.0 if len(after.safe) else 1.0 - float(np.nanmin(after.probability))
            score += chance * safest
        if best is None or score > best[0] + 1e-12:
            best = (score, r, c)
    assert best is not None
    _, r, c = best
    return policy.Guess(r, c, float(risk[r, c]), "one-move lookahead")


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
    results: dict[str, list[bool]] = {"policy": [], "lookahead": []}
    seconds = dict.fromkeys(results, 0.0)
    for seed in range(first, end):
        # Interleaved, so that the machine's moods fall on both alike.
        for name, choose in (("policy", _policy), ("lookahead", lookahead_guess)):
            policy.choose_guess = choose  # play_game looks it up at each game
            start = time.perf_counter()
            results[name].append(autoplay.play_game(config, seed).won)
            seconds[name] += time.perf_counter() - start
    policy.choose_guess = _policy
    games = end - first
    base, look = results["policy"], results["lookahead"]
    only_look = sum(b and not a for a, b in zip(base, look, strict=True))
    only_base = sum(a and not b for a, b in zip(base, look, strict=True))
    spread = math.sqrt(only_look + only_base) or 1.0
    print(f"{config.rows}x{config.cols}/{config.mines}, {arguments.rule}, seeds {first}:{end}")
    for name, won in results.items():
        print(f"  {name:9} {sum(won):6} wins  {seconds[name] / games * 1e3:7.1f} ms a game")
    print(
        f"  won only with the lookahead {only_look}, only without {only_base}: "
        f"{only_look - only_base:+d} ({(only_look - only_base) / spread:+.1f} standard errors)"
    )


if __name__ == "__main__":
    main()
