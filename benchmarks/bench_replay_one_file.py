"""One replay file, from a fresh process: ``minesweep replay FILE`` against ms-toollib's.

Run from the project root, with minesweep importable (``PYTHONPATH=src``):

    python benchmarks/bench_replay_one_file.py [FILE ...] [--runs 15]

Each run starts a new Python process and times it whole (wall clock, with
``time.perf_counter`` around ``subprocess.run``), as a user waits for it:

- ours: ``python -m minesweep replay FILE`` (the file read, every statistic
  and the header checks, printed);
- ms-toollib's: ``python -c`` importing ms_toollib, reading the same file and
  running ``parse()`` and ``analyse()``.

The two alternate, who goes first alternating too; printed are the median
of ``--runs`` of each and the ratio ours / ms-toollib's. Without ms-toollib
installed, ours alone is printed, and it says so. The default files are the
real replays of tests/replays/data. Our kernels' part should be in numba's
cache (``minesweep warm``) for a fair "warm install", though a single file
is interpreted and never loads numba (src/minesweep/_jit.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "replays" / "data"

_THEIRS = """
import sys
import ms_toollib
path = sys.argv[1]
kind = {"avf": ms_toollib.AvfVideo, "evf": ms_toollib.EvfVideo, "rmv": ms_toollib.RmvVideo}
video = kind[path.rsplit(".", 1)[-1].lower()](path)
video.parse()
video.analyse()
print(video.bbbv, video.rtime)
"""


def _seconds(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=15)
    arguments = parser.parse_args()
    files = arguments.files or sorted(
        path for path in DATA.iterdir() if path.suffix in {".avf", ".evf", ".rmv"}
    )
    have_theirs = importlib.util.find_spec("ms_toollib") is not None
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"MINESWEEP_JIT={os.environ.get('MINESWEEP_JIT', 'auto')}; medians of "
        f"{arguments.runs} fresh processes, wall clock, in seconds"
    )
    if not have_theirs:
        print("ms-toollib is not installed: ours alone")
    for path in files:
        ours_command = [sys.executable, "-m", "minesweep", "replay", str(path)]
        theirs_command = [sys.executable, "-c", _THEIRS, str(path)]
        _seconds(ours_command)  # the file and the modules in the page cache
        ours: list[float] = []
        theirs: list[float] = []
        for run in range(arguments.runs):
            if have_theirs and run % 2:
                theirs.append(_seconds(theirs_command))
            ours.append(_seconds(ours_command))
            if have_theirs and not run % 2:
                theirs.append(_seconds(theirs_command))
        line = f"{path.name:<20} ours {statistics.median(ours):.3f}"
        if have_theirs:
            mine, other = statistics.median(ours), statistics.median(theirs)
            line += f"  ms-toollib {other:.3f}  ours / ms-toollib {mine / other:.1f}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
