"""The solver: probability analysis and no-guess generation, with ms_toollib side by side.

Run from the project root (pip install ms-toollib for the comparison):

    python benchmarks/bench_solver.py [--games N] [--boards N]

1. Analysis of expert positions met in real play: a player reveals every
   square the analysis calls safe, guesses the lowest probability when none
   is, and every position it analyses is timed, ours and
   ms_toollib.cal_probability_onboard back to back on the same view. Ours
   twice: "cold", with the remembered components forgotten first (the cost
   of one position alone, as ms_toollib counts it), and "in play", with the
   components of the game's earlier positions remembered.
2. Large frontiers: the left part of big boards revealed, the time it takes
   and what the state budget does.
3. No-guess expert boards: ours and ms_toollib.laymine_solvable, interleaved.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import numpy as np

from minesweep import Game, Glyph, Minefield
from minesweep.solver import AnalysisBudgetError, analyze, counting, generate_no_guess

try:
    import ms_toollib
except ImportError:  # optional
    ms_toollib = None


def percentiles(values: list[float]) -> str:
    ms = np.array(values) * 1e3
    return (
        f"median {np.median(ms):7.3f} ms  p90 {np.percentile(ms, 90):7.3f}  "
        f"p99 {np.percentile(ms, 99):7.3f}  max {ms.max():7.3f}  (n={len(ms)})"
    )


def time_cold(glyphs: np.ndarray, mines: int) -> float:
    """One analysis with nothing remembered (a cache of its own; the game's stays as it is)."""
    start = time.perf_counter()
    analyze(glyphs, mines, cache=counting.ComponentCache())
    return time.perf_counter() - start


def play_and_time(games: int) -> tuple[list[float], list[float], list[float], list[int]]:
    cold: list[float] = []
    ours: list[float] = []
    theirs: list[float] = []
    frontier: list[int] = []
    for seed in range(games):
        game = Game.new("expert", seed=seed)
        game.reveal(8, 15)
        counting.clear_cache()
        while not game.is_over:
            glyphs = game.glyphs()
            cold.append(time_cold(glyphs, game.mine_count))
            start = time.perf_counter()
            analysis = analyze(glyphs, game.mine_count)
            ours.append(time.perf_counter() - start)
            frontier.append(sum(analysis.components))
            if ms_toollib is not None:
                codes = np.where(glyphs <= 8, glyphs, np.where(glyphs == Glyph.FLAG, 11, 10))
                board = codes.astype(int).tolist()
                start = time.perf_counter()
                ms_toollib.cal_probability_onboard(board, game.mine_count)
                theirs.append(time.perf_counter() - start)
            safe = [tuple(cell) for cell in analysis.safe.tolist()]
            if safe:
                for r, c in safe:
                    if game.is_over:
                        break
                    if game.state[r, c] in (0, 1):
                        game.reveal(r, c)
            else:
                risk = np.where(np.isnan(analysis.probability), 2.0, analysis.probability)
                r, c = np.unravel_index(int(np.argmin(risk)), risk.shape)
                game.reveal(int(r), int(c))
    return cold, ours, theirs, frontier


def large_frontiers() -> None:
    for rows, cols, density in [(100, 100, 0.15), (300, 300, 0.15), (100, 1000, 0.12)]:
        mines = np.random.default_rng(rows + cols).random((rows, cols)) < density
        field = Minefield(mines)
        view = np.full((rows, cols), int(Glyph.HIDDEN), np.uint8)
        left = field.numbers[:, : cols // 2]
        view[:, : cols // 2] = np.where(mines[:, : cols // 2], Glyph.HIDDEN, left)
        start = time.perf_counter()
        try:
            analysis = analyze(view, field.mine_count)
            note = (
                f"frontier {sum(analysis.components)} squares in {len(analysis.components)} parts"
            )
        except AnalysisBudgetError as error:
            note = f"budget hit: {error}"
        elapsed = time.perf_counter() - start
        print(
            f"  {rows}x{cols} at {density:.0%}, left half revealed: {elapsed * 1e3:9.1f} ms, {note}"
        )


def no_guess(boards: int) -> None:
    ours: list[float] = []
    theirs: list[float] = []
    attempts: list[int] = []
    generate_no_guess(16, 30, 99, first_click=(8, 15), seed=10**6)  # compile and load first
    for seed in range(boards):
        start = time.perf_counter()
        result = generate_no_guess(16, 30, 99, first_click=(8, 15), seed=seed)
        ours.append(time.perf_counter() - start)
        attempts.append(result.attempt + 1)
        if ms_toollib is not None:
            start = time.perf_counter()
            ms_toollib.laymine_solvable(16, 30, 99, 8, 15)
            theirs.append(time.perf_counter() - start)
    print(f"  ours:       {percentiles(ours)}  attempts median {statistics.median(attempts)}")
    if theirs:
        print(f"  ms_toollib: {percentiles(theirs)}  (laymine_solvable)")
        print(f"  ratio of medians ours/ms_toollib: {np.median(ours) / np.median(theirs):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="expert games to analyse")
    parser.add_argument("--boards", type=int, default=200, help="no-guess boards to make")
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    # Load the compiled kernels first: a view with a frontier needs the counter.
    warm = np.full((3, 3), int(Glyph.HIDDEN), np.uint8)
    warm[0, 0] = 1
    analyze(warm, 1)
    print(f"1. analysis of expert positions met in play ({arguments.games} games)")
    cold, ours, theirs, frontier = play_and_time(arguments.games)
    print(f"  ours, cold:    {percentiles(cold)}")
    print(f"  ours, in play: {percentiles(ours)}")
    if theirs:
        print(f"  ms_toollib:    {percentiles(theirs)}  (cal_probability_onboard)")
        for name, times in (("cold", cold), ("in play", ours)):
            ratio = np.median(times) / np.median(theirs)
            print(f"  ratio of medians ours ({name})/ms_toollib: {ratio:.2f}")
    print(f"  frontier squares: median {statistics.median(frontier)}, max {max(frontier)}")
    worst = sorted(zip(ours, frontier, strict=True), reverse=True)[:3]
    print("  slowest: " + ", ".join(f"{t * 1e3:.1f} ms ({f} frontier)" for t, f in worst))
    print("2. large frontiers (budget: 200,000 partial layouts per analysis)")
    large_frontiers()
    print(f"3. no-guess expert boards, first click (8, 15) ({arguments.boards} boards)")
    no_guess(arguments.boards)


if __name__ == "__main__":
    main()
