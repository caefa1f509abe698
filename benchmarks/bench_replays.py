"""Reading the real replays: ours against ms-toollib, side by side in one process.

Run from the project root (ms-toollib is in the test extra):

    python benchmarks/bench_replays.py [--repeats N]

For each real file in ``tests/replays/data``, ``minesweep.replays.read`` and
ms-toollib's reader (``parse()`` alone, and ``parse()`` then ``analyse()``,
which computes its statistics) alternate, ``--repeats`` times each; printed
are the medians in milliseconds and the ratios ours/theirs. Only well-formed
files are given to ms-toollib here: it aborts the process on a bad one.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import ms_toollib

from minesweep.replays import read

DATA = Path(__file__).resolve().parent.parent / "tests" / "replays" / "data"
READERS: dict[str, Any] = {
    ".avf": ms_toollib.AvfVideo,
    ".evf": ms_toollib.EvfVideo,
    ".rmv": ms_toollib.RmvVideo,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=101)
    arguments = parser.parse_args()
    print(f"{platform.python_version()}, ms_toollib {version('ms_toollib')}")
    print(f"{'file':22} {'events':>6} {'ours':>8} {'parse':>8} {'+analyse':>9} "
          f"{'ours/parse':>10} {'ours/+analyse':>13}")  # fmt: skip
    for path in sorted(DATA.glob("test_subject*")):
        data = path.read_bytes()
        video = READERS[path.suffix]
        ours: list[float] = []
        parse: list[float] = []
        analyse: list[float] = []
        for repeat in range(arguments.repeats):
            # Alternate who goes first, so neither always meets a warmer cache.
            for who in ("ours", "theirs") if repeat % 2 == 0 else ("theirs", "ours"):
                if who == "ours":
                    started = time.perf_counter()
                    replay = read(data, name=path.name)
                    ours.append(time.perf_counter() - started)
                else:
                    started = time.perf_counter()
                    theirs = video(path.name, list(data))
                    theirs.parse()
                    parse.append(time.perf_counter() - started)
                    theirs.analyse()
                    analyse.append(time.perf_counter() - started)
        ms = [statistics.median(times) * 1e3 for times in (ours, parse, analyse)]
        print(
            f"{path.name:22} {len(replay.events):6} {ms[0]:8.3f} {ms[1]:8.3f} {ms[2]:9.3f} "
            f"{ms[0] / ms[1]:10.2f} {ms[0] / ms[2]:13.2f}"
        )


if __name__ == "__main__":
    main()
