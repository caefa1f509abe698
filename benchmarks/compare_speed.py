"""The engine's speeds in two source trees, side by side in one run: the house pass's proof.

A refactor must leave every speed where it was. This times, with the code of
two trees (say a git worktree of main before the change, and the working
tree), the jobs a refactor of the rules could slow, alternating the trees
round by round so that both see the same machine load, and prints each
job's median over the rounds and the ratio of the speeds (after over
before: below 1 is slower)::

    git worktree add /tmp/before <commit>
    python benchmarks/compare_speed.py /tmp/before . --rounds 7

The jobs: the vector environment's steps a second (256 beginner boards, a
random masked agent), the statistics of the four real replays in the tests
(read and ``summary``, in a loop), one replay from a fresh process
(``python -m minesweep replay FILE``, wall time), ``update_board`` on a
300x300 board of all ``E`` (one opening), a ``Game.chord`` on an expert
board, and one opening of 10^8 squares (``Board.reveal`` on an empty
10,000 x 10,000 field; ``--skip-huge`` leaves it out, as it needs about 2 GB).
Each job runs in a fresh process per tree, warmed once (numba's kernels
loaded from the cache) before it is timed; a tree that has never run
compiles during its first round, so run a short comparison first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

_PRELUDE = """
import json, sys, time
import numpy as np
def best(job, repeats):
    job()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)
"""

#: Each job's code: it prints one JSON number, the job's rate (higher is faster).
_JOBS = {
    "vector env steps/s": """
from minesweep.rl.vector import MinesweeperVectorEnv
env = MinesweeperVectorEnv(256, "beginner")
_, info = env.reset(seed=0)
noise = np.random.default_rng(0).random((200, 256, 81), dtype=np.float32)
def job():
    global info
    for step in range(200):
        actions = (info["action_mask"] * noise[step]).argmax(axis=1)
        _, _, _, _, info = env.step(actions)
print(json.dumps(256 * 200 / best(job, 5)))
""",
    "replay statistics files/s": """
from pathlib import Path
from minesweep.replays import read, summary
files = sorted(Path("{data}").glob("test_subject*"))
def job():
    for path in files:
        summary(read(path))
print(json.dumps(len(files) * 20 / best(lambda: [job() for _ in range(20)], 5)))
""",
    "update_board 300x300 /s": """
from minesweep import update_board
board = [["E"] * 300 for _ in range(300)]
import copy
def job():
    update_board(copy.deepcopy(board), (0, 0))
print(json.dumps(1 / best(job, 7)))
""",
    "Game.chord /s": """
from minesweep import Game
def job():
    for seed in range(200):
        game = Game(16, 30, 99, rule="safe", seed=seed)
        game.reveal(8, 15)
        field = game.field
        view = game.glyphs()
        for r in range(16):
            for c in range(30):
                if 1 <= view[r, c] <= 8:
                    game.chord(r, c)
print(json.dumps(200 / best(job, 5)))
""",
    "10^8 opening squares/s": """
from minesweep import Board, Minefield
field = Minefield(np.zeros((10_000, 10_000), bool))
def job():
    board = Board(field)
    board.reveal(5_000, 5_000)
print(json.dumps(10**8 / best(job, 2)))
""",
}


def _time_job(tree: Path, code: str) -> float:
    environment = dict(os.environ, PYTHONPATH=str(tree / "src"), MINESWEEP_JIT="compile")
    done = subprocess.run(
        [sys.executable, "-c", _PRELUDE + code],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the job failed:\n{done.stderr}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def _one_file(tree: Path, path: Path) -> float:
    """Files a second of ``python -m minesweep replay FILE`` from a fresh process (best of 5)."""
    environment = dict(os.environ, PYTHONPATH=str(tree / "src"))
    environment.pop("MINESWEEP_JIT", None)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "minesweep", "replay", str(path)],
            env=environment,
            capture_output=True,
            check=True,
        )
        times.append(time.perf_counter() - start)
    return 1 / min(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-huge", action="store_true", help="leave out the 10^8 opening")
    arguments = parser.parse_args(argv)
    data = Path(__file__).resolve().parent.parent / "tests" / "replays" / "data"
    jobs = {name: code.replace("{data}", str(data)) for name, code in _JOBS.items()}
    if arguments.skip_huge:
        del jobs["10^8 opening squares/s"]
    trees = {"before": arguments.before.resolve(), "after": arguments.after.resolve()}
    rates: dict[str, dict[str, list[float]]] = {
        name: {"before": [], "after": []} for name in [*jobs, "one replay, fresh process /s"]
    }
    for round_ in range(arguments.rounds):
        # Alternate which tree goes first, so neither always meets a warmer machine.
        order = ["before", "after"] if round_ % 2 == 0 else ["after", "before"]
        for name, code in jobs.items():
            for side in order:
                rates[name][side].append(_time_job(trees[side], code))
        for side in order:
            rates["one replay, fresh process /s"][side].append(
                _one_file(trees[side], data / "test_subject.avf")
            )
        print(f"round {round_ + 1} of {arguments.rounds} done", file=sys.stderr)
    print(f"{'job':34s} {'before':>14s} {'after':>14s}  after/before (median of rounds)")
    for name, sides in rates.items():
        before = statistics.median(sides["before"])
        after = statistics.median(sides["after"])
        ratios = [a / b for a, b in zip(sides["after"], sides["before"], strict=True)]
        print(
            f"{name:34s} {before:14.1f} {after:14.1f}  {statistics.median(ratios):.3f}"
            f"  (rounds {', '.join(f'{r:.2f}' for r in ratios)})"
        )


if __name__ == "__main__":
    main()
