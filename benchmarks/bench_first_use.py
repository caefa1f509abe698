"""The first answer of each front end after an install: from a cleared numba cache.

Each case runs in a fresh process with ``NUMBA_CACHE_DIR`` set to an empty
folder, as after ``pip install`` (numba then compiles every kernel it meets),
then again on that folder (the kernels load from the cache): the ratio says
what the first use costs over every use after. ``--warm-first`` runs
``minesweep warm`` on the empty folder before the first answer, and times
that too. Without it, the first answer comes from the kernels run uncompiled
while one background process compiles them (``minesweep/_jit.py``); the
"after" run waits for that process, then measures a compiled answer::

    python benchmarks/bench_first_use.py
    python benchmarks/bench_first_use.py --warm-first --cases solve hint

The cases: ``solve`` (the command line on a view), ``hint`` (the first hint of
a game, as the terminal game asks it), ``play`` (``bench play``, 50 games on
one process; ``play1``: its first game alone; ``fast`` and ``fast1``: the same
at ``--strength fast``, 200 games and one) and ``rl`` (the first step of the
vector environment).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VIEW = "#########\n#1122211#\n#1.....1#\n#1.....1#\n#########\n"

CASES: dict[str, list[str]] = {
    "solve": [sys.executable, "-m", "minesweep", "solve", "{view}", "--mines", "6"],
    "hint": [
        sys.executable,
        "-c",
        "from minesweep import Game; from minesweep.solver import hint; "
        "g = Game.new('beginner', seed=1); g.reveal(4, 4); print(hint(g).reason)",
    ],
    "play": [sys.executable, "-m", "minesweep", "bench", "play", "--games", "50", "--workers", "1"],
    "play1": [sys.executable, "-m", "minesweep", "bench", "play", "--games", "1", "--workers", "1"],
    "fast1": [
        *(sys.executable, "-m", "minesweep", "bench", "play", "--strength", "fast"),
        *("--games", "1", "--workers", "1"),
    ],
    "fast": [
        *(sys.executable, "-m", "minesweep", "bench", "play", "--strength", "fast"),
        *("--games", "200", "--workers", "1"),
    ],
    "rl": [
        sys.executable,
        "-c",
        "from minesweep.rl import MinesweeperVectorEnv; e = MinesweeperVectorEnv(4, 'beginner'); "
        "e.reset(seed=0); print(e.step([40] * 4)[1])",
    ],
}


def timed(command: list[str], cache: str) -> tuple[float, int, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "MINESWEEP_JIT": "auto"}
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    return time.perf_counter() - started, done.returncode, done.stderr.strip()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--cases", nargs="+", default=list(CASES), choices=list(CASES))
    parser.add_argument(
        "--warm-first", action="store_true", help="run `minesweep warm` before the first answer"
    )
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        view = Path(folder) / "view.txt"
        view.write_text(VIEW)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
        print(f"{'case':<8}{'first use':>12}{'after':>10}{'ratio':>9}  notes")
        for name in arguments.cases:
            command = [part.replace("{view}", str(view)) for part in CASES[name]]
            with tempfile.TemporaryDirectory() as cache:
                note = ""
                if arguments.warm_first:
                    seconds, _, _ = timed([sys.executable, "-m", "minesweep", "warm"], cache)
                    note = f"minesweep warm took {seconds:.1f} s first"
                cold, code, said = timed(command, cache)
                # On a cold cache the answer came uncompiled, and a background
                # process is compiling: wait for it (its lock file goes).
                waited = time.perf_counter()
                while list(Path(cache).rglob("minesweep-warming.lock")):
                    time.sleep(0.2)
                if (background := time.perf_counter() - waited) > 0.5:
                    note += f"background compile took {background:.0f} s more;"
                warm, _, _ = timed(command, cache)
            if code != 0:
                note += f" exit {code}: {said.splitlines()[-1] if said else ''}"
            elif said:
                note += f" said: {said.splitlines()[0]}"
            print(f"{name:<8}{cold:>10.1f} s{warm:>8.1f} s{cold / warm:>9.1f}  {note.strip()}")


if __name__ == "__main__":
    main()
