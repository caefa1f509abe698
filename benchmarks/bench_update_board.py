"""update_board against the seeds' breadth-first solution, in one process.

Run from the project root:

    python benchmarks/bench_update_board.py [--repeats N] [--quick]

Each case prepares its boards once; every repeat runs the baseline and
minesweep back to back on fresh copies of the same boards (copying is not
timed), so both see the same machine state. The table gives the median over
the repeats and the ratio ours / baseline: below 1.0 means minesweep is faster.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from baselines import seed_bfs
from minesweep import Board, Minefield, update_board

Grid = list[list[str]]
Click = tuple[int, int]


@dataclass(frozen=True)
class Case:
    name: str
    boards: list[tuple[Grid, Click]]
    repeats: int


def random_board(rows: int, cols: int, density: float, rng: random.Random) -> Grid:
    return [["M" if rng.random() < density else "E" for _ in range(cols)] for _ in range(rows)]


def zero_squares(board: Grid) -> list[Click]:
    """Hidden empty squares with no mine among their neighbours."""
    rows, cols = len(board), len(board[0])
    return [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if all(
            board[rr][cc] != "M"
            for rr in range(max(0, r - 1), min(rows, r + 2))
            for cc in range(max(0, c - 1), min(cols, c + 2))
        )
    ]


def opening_size(board: Grid, click: Click) -> int:
    after = seed_bfs([row[:] for row in board], list(click))
    return sum(
        a != b for new, old in zip(after, board, strict=True) for a, b in zip(new, old, strict=True)
    )


def build_cases(quick: bool) -> list[Case]:
    rng = random.Random(529)
    many = 20 if quick else 100
    random_clicks = []
    for _ in range(many):
        board = random_board(50, 50, 0.15, rng)
        zeros = zero_squares(board)
        if zeros:
            random_clicks.append((board, rng.choice(zeros)))
    # The least favourable case for a checked update: the smallest opening a
    # zero square can make (itself and its eight neighbours), where the
    # whole-board check is most of the work.
    smallest = min(random_clicks, key=lambda case: opening_size(*case))
    sparse = random_board(1000, 1000, 0.10, rng)
    # A zero square whose opening is small, as most clicks on a dense board
    # are: the smallest among the zero squares of the top-left corner.
    corner = [(r, c) for r, c in zero_squares(sparse[:41]) if r < 40 and c < 40]
    sparse_click = min(corner, key=lambda click: opening_size(sparse, click))
    big_repeats = 1 if quick else 5
    return [
        Case("50x50 15% mines, random zero-square clicks", random_clicks, 9),
        Case("50x50 15% mines, smallest opening", [smallest] * 50, 9),
        Case("50x50 all E", [([["E"] * 50 for _ in range(50)], (25, 25))] * 10, 9),
        Case("1000x1000 all E", [([["E"] * 1000 for _ in range(1000)], (0, 0))], big_repeats),
        Case("1000x1000 10% mines, small opening", [(sparse, sparse_click)] * 20, 9),
    ]


def time_total(
    function: Callable[[Grid, Click], object], boards: list[tuple[Grid, Click]]
) -> float:
    copies = [([row[:] for row in board], click) for board, click in boards]
    start = time.perf_counter()
    for board, click in copies:
        function(board, click)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards and repeats")
    arguments = parser.parse_args()

    contenders: dict[str, Callable[[Grid, Click], object]] = {
        "seed BFS": lambda board, click: seed_bfs(board, list(click)),
        "update_board": update_board,
        "check=False": lambda board, click: update_board(board, click, check=False),
    }
    # Load the compiled kernels first, as any process that has used the array
    # engine has: update_board then hands big openings over to them.
    Board(Minefield([[0, 0]])).reveal(0, 0)
    cases = build_cases(arguments.quick)
    for case in cases:
        # The results must agree before any timing counts.
        expected = seed_bfs([row[:] for row in case.boards[0][0]], list(case.boards[0][1]))
        for function in contenders.values():
            board, click = case.boards[0]
            assert function([row[:] for row in board], click) == expected
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.platform()}")
    header = (
        f"{'case':44} {'opening':>9} {'seed BFS':>11} {'ours':>11} {'ratio':>6} {'no-check':>9}"
    )
    print(header)
    print("-" * len(header))
    for case in cases:
        samples: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(case.repeats):
            for name, function in contenders.items():
                samples[name].append(time_total(function, case.boards))
        median = {
            name: statistics.median(values) / len(case.boards) for name, values in samples.items()
        }
        opening = statistics.mean(opening_size(*board) for board in case.boards[:20])
        base = median["seed BFS"]
        print(
            f"{case.name:44} {opening:9.0f} {_ms(base):>11} {_ms(median['update_board']):>11} "
            f"{median['update_board'] / base:6.2f} {median['check=False'] / base:9.2f}"
        )
        sys.stdout.flush()


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


if __name__ == "__main__":
    main()
