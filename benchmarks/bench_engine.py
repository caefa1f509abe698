"""The array engine: update_board on big boards, Minefield and Board at 10^8 squares,
and ms_toollib side by side.

Run from the project root (ms-toollib is optional: pip install ms-toollib):

    python benchmarks/bench_engine.py [--quick] [--skip-huge]

One table from one run. Each comparison runs its contenders back to back on
fresh copies of the same input in every repeat and reports medians; "ratio"
is ours / baseline (below 1.0: minesweep is faster). Rows without a baseline
report throughput instead.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

from baselines import seed_bfs
from minesweep import Board, Minefield, update_board

try:
    import ms_toollib
except ImportError:  # optional
    ms_toollib = None

Timed = Callable[[], object]


def timed(setup: Callable[[], Timed]) -> float:
    """Seconds one call takes; ``setup`` builds the call (untimed)."""
    call = setup()
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def compare(contenders: dict[str, Callable[[], Timed]], repeats: int) -> dict[str, float]:
    """Median seconds of each contender, run interleaved."""
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, setup in contenders.items():
            samples[name].append(timed(setup))
    return {name: statistics.median(values) for name, values in samples.items()}


ROWS: list[tuple[str, str, str, str]] = []


def row(case: str, ours: str, baseline: str, result: str) -> None:
    ROWS.append((case, ours, baseline, result))
    print(f"{case:62} {ours:>12} {baseline:>12} {result:>16}", flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def cold_start() -> None:
    """A fresh process: import, build a 1000x1000 field, first reveal."""
    code = (
        "import time; t = time.perf_counter()\n"
        "import numpy as np\n"
        "from minesweep import Board, Minefield\n"
        "Board(Minefield(np.zeros((1000, 1000), bool))).reveal(0, 0)\n"
        "print(time.perf_counter() - t)\n"
    )
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as empty_cache:
        env["NUMBA_CACHE_DIR"] = empty_cache
        compile_run = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        cached_runs = [
            float(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(3)
        ]
    row(
        "cold process: import + field + first reveal, cache loaded",
        ms(min(cached_runs)),
        "",
        "target < 2 s",
    )
    row(
        "cold process: the same, kernels compiled (first run ever)",
        ms(compile_run),
        "",
        "target < 2 s",
    )


def update_board_big(repeats: int) -> None:
    board = [["E"] * 1000 for _ in range(1000)]
    result = compare(
        {
            "seed BFS": lambda: (lambda b: lambda: seed_bfs(b, [0, 0]))(copy.deepcopy(board)),
            "update_board": lambda: (lambda b: lambda: update_board(b, (0, 0)))(
                copy.deepcopy(board)
            ),
        },
        repeats,
    )
    ratio = result["update_board"] / result["seed BFS"]
    row(
        "update_board 1000x1000 all E (checked) vs seed BFS",
        ms(result["update_board"]),
        ms(result["seed BFS"]),
        f"{ratio:.4f} = 1/{1 / ratio:.0f}",
    )


def mine_layout(rows: int, cols: int, density: float, seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).random((rows, cols)) < density


def zero_square(field: Minefield, small: bool) -> tuple[int, int]:
    """A safe square with no adjacent mine; with ``small``, one whose opening is small."""
    candidates = np.argwhere((field.numbers == 0) & ~field.mines)
    if not small:
        return int(candidates[0, 0]), int(candidates[0, 1])
    best, best_size = (0, 0), None
    for r, c in candidates[:200]:
        size = Board(field).reveal(int(r), int(c)).opened
        if best_size is None or size < best_size:
            best, best_size = (int(r), int(c)), size
    return best


def versus_ms_toollib(repeats: int) -> None:
    if ms_toollib is None:
        row("ms_toollib not installed: comparison skipped", "", "", "")
        return
    cases = [
        ("1000x1000 all E, one opening", mine_layout(1000, 1000, 0.0), False),
        ("1000x1000 10% mines, a small opening", mine_layout(1000, 1000, 0.10), True),
        ("1000x1000 10% mines, the first zero square", mine_layout(1000, 1000, 0.10), False),
        ("expert 16x30 20.6% mines, a zero square", mine_layout(16, 30, 99 / 480, 7), False),
        ("100x100 15% mines, a zero square", mine_layout(100, 100, 0.15, 3), False),
    ]
    for name, mines, small in cases:
        versus_ms_toollib_on(name, mines, small, repeats)


def versus_ms_toollib_on(name: str, mines: np.ndarray, small: bool, repeats: int) -> None:
    field = Minefield(mines)
    click = zero_square(field, small)
    numbers = np.where(mines, -1, field.numbers.astype(int)).tolist()
    hidden = [[10] * mines.shape[1] for _ in range(mines.shape[0])]
    mask_lists = mines.tolist()
    # ms_toollib takes its board as nested lists of numbers and computes the
    # refreshed game board. Ours: build the Minefield from the mine mask (an
    # array, counts included), a fresh Board, and the reveal; "lists" builds
    # the Minefield from nested lists instead.
    result = compare(
        {
            "ms_toollib": lambda: lambda: ms_toollib.refresh_board(numbers, hidden, [click]),
            "ours": lambda: lambda: Board(Minefield(mines)).reveal(*click),
            "reveal only": lambda: lambda: Board(field).reveal(*click),
            "lists": lambda: lambda: Board(Minefield(mask_lists)).reveal(*click),
        },
        repeats,
    )
    opened = Board(field).reveal(*click).opened
    base = result["ms_toollib"]
    row(
        f"vs ms_toollib.refresh_board: {name}, {opened} opened",
        ms(result["ours"]),
        ms(base),
        f"{result['ours'] / base:.4f}",
    )
    row(
        "  the same, field prebuilt: Board + reveal only",
        ms(result["reveal only"]),
        ms(base),
        f"{result['reveal only'] / base:.4f}",
    )
    row(
        "  the same, field built from nested lists",
        ms(result["lists"]),
        ms(base),
        f"{result['lists'] / base:.4f}",
    )


def huge(repeats: int) -> None:
    side = 10_000
    cells = side * side
    mask = np.zeros((side, side), bool)
    build = [timed(lambda: lambda: Minefield(mask)) for _ in range(repeats)]
    row(
        "Minefield from a 10^8 mask (counts included)",
        ms(statistics.median(build)),
        "",
        f"{cells / statistics.median(build) / 1e6:.0f} M cells/s",
    )
    field = Minefield(mask)
    times = []
    for _ in range(repeats):
        board = Board(field)
        start = time.perf_counter()
        result = board.reveal(side // 2, side // 2)
        times.append(time.perf_counter() - start)
        assert result.opened == cells
        del board
    row(
        "Board.reveal: one opening of 10^8 squares",
        ms(statistics.median(times)),
        "",
        f"{cells / statistics.median(times) / 1e6:.0f} M cells/s",
    )
    del field

    layout = mine_layout(side, side, 0.10, 5)
    tracemalloc.start()
    field = Minefield(layout)
    _, peak_field = tracemalloc.get_traced_memory()
    board = Board(field)
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del layout
    # The caller's mask was allocated before tracing started, so both figures
    # are minesweep's own allocations.
    row(
        "memory: field + state kept, bytes per square",
        f"{current / cells:.2f} B",
        "",
        "target <= 3",
    )
    row(
        "memory: peak while building the field, bytes per square",
        f"{peak_field / cells:.2f} B",
        "",
        "target <= 6",
    )

    clicks = []
    candidates = np.argwhere(field.numbers[:2000, :2000] == 0)
    for r, c in candidates[:: max(1, len(candidates) // 4000)]:
        if board.state[r, c] == 0 and not field.mines[r, c]:
            clicks.append((int(r), int(c)))
    per_click = []
    for r, c in clicks:
        if board.state[r, c] != 0:
            continue
        start = time.perf_counter()
        result = board.reveal(r, c)
        elapsed = time.perf_counter() - start
        if result.opened < 1000:
            per_click.append(elapsed)
    row(
        f"10^8 board at 10%: a click opening < 1000 squares (n={len(per_click)})",
        ms(statistics.median(per_click)),
        "",
        f"p99 {ms(float(np.percentile(per_click, 99)))}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--skip-huge", action="store_true", help="skip the 10^8-square rows")
    arguments = parser.parse_args()
    repeats = 3 if arguments.quick else 7
    print(
        f"python {platform.python_version()}, numpy {np.__version__}, "
        f"{platform.machine()}, {os.cpu_count()} cpus"
    )
    print(f"{'case':62} {'ours':>12} {'baseline':>12} {'ratio / note':>16}")
    print("-" * 105)
    # Load the kernels before anything is timed; cold start is measured apart.
    Board(Minefield([[0, 0]])).reveal(0, 0)
    cold_start()
    update_board_big(max(3, repeats // 2))
    versus_ms_toollib(repeats)
    if not arguments.skip_huge:
        huge(max(3, repeats // 2))


if __name__ == "__main__":
    main()
