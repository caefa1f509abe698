"""Views as users make them, analysed by us and by ms_toollib side by side.

Run from the project root (pip install ms-toollib for the comparison):

    python benchmarks/bench_views.py [--views N] [--big-repeats N]

A view is made by a safe first click and then random clicks on safe
squares, which scatters numbers over the board: wider frontiers than play
meets. Every view is analysed by both, back to back, in alternating order,
with nothing remembered (ours "cold"). Rows:

1. early game: the first click and 1 to 5 more, on each preset;
2. expert after 20 to 249 random clicks (where the budget once ran out);
3. large boards at 15% mines after 300 random clicks: 100x100, 300x300 and
   1000x1000. ms_toollib runs in a child process with a time limit (it
   takes seconds there, and its answer is checked against ours).

Printed: medians and 99th percentiles in ms, the ratio ours/theirs, and
every view either side failed (a budget error, a wrong "no solution", a
time-out).
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import time
from typing import Any

import numpy as np

from minesweep import Game, Glyph
from minesweep.solver import AnalysisBudgetError, analyze, counting

try:
    import ms_toollib
except ImportError:  # optional
    ms_toollib = None


def clicked_view(rows: int, cols: int, mines: int, clicks: int, seed: int) -> np.ndarray:
    """A safe first click, then ``clicks`` random safe squares (fewer if the game ends)."""
    game = Game(rows, cols, mines, rule="safe", seed=seed)
    rng = np.random.default_rng(seed)
    game.reveal(int(rng.integers(rows)), int(rng.integers(cols)))
    field = game.field
    assert field is not None
    for _ in range(clicks):
        hidden_safe = np.flatnonzero((game.state == 0) & ~field.mines)
        if game.is_over or not len(hidden_safe):
            break
        row, col = divmod(int(rng.choice(hidden_safe)), cols)
        game.reveal(row, col)
    return game.glyphs()


def their_board(glyphs: np.ndarray) -> list[list[int]]:
    codes = np.where(glyphs <= 8, glyphs, np.where(glyphs == Glyph.FLAG, 11, 10))
    return codes.astype(int).tolist()


def ours(glyphs: np.ndarray, mines: int) -> tuple[float, Any]:
    counting.clear_cache()
    start = time.perf_counter()
    try:
        result: Any = analyze(glyphs, mines)
    except AnalysisBudgetError as error:
        result = error
    return time.perf_counter() - start, result


def theirs(glyphs: np.ndarray, mines: int) -> tuple[float, Any]:
    board = their_board(glyphs)
    start = time.perf_counter()
    try:
        result: Any = ms_toollib.cal_probability_onboard(board, mines)
    except BaseException as error:  # a Rust panic is not an Exception
        result = error
    return time.perf_counter() - start, result


def summary(seconds: list[float]) -> str:
    ms = np.array(seconds) * 1e3
    return f"median {np.median(ms):8.3f}  p99 {np.percentile(ms, 99):8.3f}  max {ms.max():8.2f}"


def side_by_side(name: str, views: list[tuple[np.ndarray, int]]) -> None:
    mine_times: list[float] = []
    their_times: list[float] = []
    failures: list[str] = []
    for index, (glyphs, mines) in enumerate(views):
        pair = [ours, theirs] if index % 2 == 0 else [theirs, ours]
        for run in pair:
            if run is theirs and ms_toollib is None:
                continue
            seconds, result = run(glyphs, mines)
            (mine_times if run is ours else their_times).append(seconds)
            if isinstance(result, BaseException):
                who = "ours" if run is ours else "ms_toollib"
                failures.append(f"view {index}: {who} {type(result).__name__}")
            elif run is theirs:
                probability = np.array(result[0])
                hidden = glyphs > 8
                if not np.isfinite(probability[hidden]).all():
                    failures.append(f"view {index}: ms_toollib gave no probabilities")
    print(f"{name} ({len(views)} views)")
    print(f"  ours:       {summary(mine_times)}")
    if their_times:
        print(f"  ms_toollib: {summary(their_times)}")
        ratio = np.median(mine_times) / np.median(their_times)
        tail = np.percentile(mine_times, 99) / np.percentile(their_times, 99)
        print(f"  ratio ours/ms_toollib: median {ratio:.2f}, p99 {tail:.2f}")
    for failure in failures:
        print(f"  failed: {failure}")


def _their_big(queue: Any, glyphs: np.ndarray, mines: int) -> None:
    seconds, result = theirs(glyphs, mines)
    if isinstance(result, BaseException):
        queue.put((seconds, f"{type(result).__name__}: {result}"))
    else:
        probability = np.array(result[0])
        finite = bool(np.isfinite(probability[glyphs > 8]).all())
        queue.put((seconds, None if finite else "no probabilities"))


def big_boards(repeats: int, limit: float) -> None:
    for size in (100, 300, 1000):
        mines = round(size * size * 0.15)
        glyphs = clicked_view(size, size, mines, 300, size)
        times = []
        for _ in range(repeats):
            seconds, result = ours(glyphs, mines)
            times.append(seconds)
        note = "" if not isinstance(result, BaseException) else f" ({type(result).__name__})"
        frontier = sum(result.components) if not isinstance(result, BaseException) else 0
        line = f"  {size}x{size}, {mines} mines, frontier {frontier} squares: ours {summary(times)}"
        line += note
        if ms_toollib is not None:
            context = multiprocessing.get_context("spawn")
            queue = context.Queue()
            child = context.Process(target=_their_big, args=(queue, glyphs, mines))
            child.start()
            child.join(limit)
            if child.is_alive():
                child.kill()
                child.join()
                line += f"; ms_toollib: over {limit:.0f} s"
            elif queue.empty():
                line += f"; ms_toollib: died (exit {child.exitcode})"
            else:
                seconds, problem = queue.get()
                line += f"; ms_toollib {seconds * 1e3:.1f} ms"
                if problem:
                    line += f" ({problem})"
                else:
                    line += f", ratio {np.median(times) / seconds:.3f}"
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=400, help="views per row")
    parser.add_argument("--big-repeats", type=int, default=5)
    parser.add_argument(
        "--limit", type=float, default=120.0, help="ms_toollib's seconds per big view"
    )
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    analyze(clicked_view(16, 30, 99, 100, 0), 99)  # compile and load first
    presets = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
    for name, (rows, cols, mines) in presets.items():
        views = [
            (clicked_view(rows, cols, mines, 1 + seed % 5, seed), mines)
            for seed in range(args.views)
        ]
        side_by_side(f"early game, {name}", views)
    rng = np.random.default_rng(1)
    views = [
        (clicked_view(16, 30, 99, int(rng.integers(20, 250)), seed), 99)
        for seed in range(args.views)
    ]
    side_by_side("expert after 20-249 random clicks", views)
    print("large boards at 15% mines after 300 random clicks (one view each)")
    big_boards(args.big_repeats, args.limit)


if __name__ == "__main__":
    main()
