"""Reading the real replays: ours against ms-toollib, side by side in one process.

Run from the project root (ms-toollib is in the test extra):

    python benchmarks/bench_replays.py [--repeats N]
    python benchmarks/bench_replays.py --stats [--repeats N]
    python benchmarks/bench_replays.py --clicks [--repeats N]

For each real file in ``tests/replays/data``, ``minesweep.replays.read`` and
ms-toollib's reader (``parse()`` alone, and ``parse()`` then ``analyse()``,
which computes its statistics) alternate, ``--repeats`` times each; printed
are the medians in milliseconds and the ratios ours/theirs. Only well-formed
files are given to ms-toollib here: it aborts the process on a bad one.

``--stats`` times reading and every statistic: ours, ``summary(read(data))``
(the file read, the board's 3BV, ZiNi and HZiNi, every click counter and
rate, the header checks), against ``parse()`` then ``analyse()``; ours runs
once before timing, so that its compiled kernels are loaded.

``--stats`` also times small files made as the tests make them (the real
ones are all 861 events or more): an EVF v3 of a short random game on a
beginner board and Clone 0.97 MVF files of 40 and 240 random button states,
where a fixed cost per file weighs most.

``--clicks`` times the solver on every click instead: ours, reading the file
and :func:`minesweep.replays.verdict.judge_clicks`; theirs, ``parse()``,
``analyse()`` and ``analyse_for_features`` of its luck alone (``pluck``) and
of the four analyses that weigh probabilities (``high_risk_guess``,
``jump_judge``, ``needless_guess``, ``pluck``), the nearest to what our table
holds. Ours runs once before timing, so that the compiled counters are loaded.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the tests' makers of small files

import ms_toollib  # noqa: E402
import numpy as np  # noqa: E402
from tests.replays._games import random_game  # noqa: E402
from tests.replays._oracle import evf_v3  # noqa: E402
from tests.replays.test_mvf_files import _mvf_097  # noqa: E402

from minesweep import _jit  # noqa: E402
from minesweep.field import Minefield  # noqa: E402
from minesweep.replays import read, summary  # noqa: E402
from minesweep.replays.verdict import judge_clicks  # noqa: E402

DATA = ROOT / "tests" / "replays" / "data"
READERS: dict[str, Any] = {
    ".avf": ms_toollib.AvfVideo,
    ".evf": ms_toollib.EvfVideo,
    ".rmv": ms_toollib.RmvVideo,
    ".mvf": ms_toollib.MvfVideo,
}


def made_files() -> list[tuple[str, bytes]]:
    """Small files, made as the tests make them (fixed seeds ms-toollib reads)."""
    rng = random.Random(48)
    mask = np.zeros(64, np.bool_)
    mask[rng.sample(range(64), 10)] = True
    field = Minefield(mask.reshape(8, 8))
    evf = evf_v3(field, random_game(rng, field, 16), px=16)
    mines = [(1, 2), (4, 6), (6, 0), (7, 7)]
    made = [("made_short.evf", evf)]
    for count in (40, 240):
        # (ms in tens, left, right, middle, x, y) at random, the time rising.
        states = [
            (10 * i, rng.random() < 0.3, rng.random() < 0.2, 0,
             rng.randrange(128), rng.randrange(128))
            for i in range(count)
        ]  # fmt: skip
        made.append((f"made_{count}.mvf", _mvf_097(mines, states)))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=101)
    parser.add_argument("--clicks", action="store_true", help="time the solver on every click")
    parser.add_argument("--stats", action="store_true", help="time reading and every statistic")
    arguments = parser.parse_args()
    if arguments.clicks:
        clicks(arguments.repeats)
        return
    if arguments.stats:
        with _jit.compiling():  # our kernels compiled, or loaded from numba's cache
            stats(arguments.repeats)
        return
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


def stats(repeats: int) -> None:
    print(f"{platform.python_version()}, ms_toollib {version('ms_toollib')}; medians in ms")
    print(f"{'file':22} {'events':>6} {'ours':>8} {'theirs':>8} {'ours/theirs':>11}")
    files = [(path.name, path.read_bytes()) for path in sorted(DATA.glob("test_subject*"))]
    for name, data in files + made_files():
        video = READERS[Path(name).suffix]
        record = summary(read(data, name=name))  # loads the compiled kernels
        times: dict[str, list[float]] = {"ours": [], "theirs": []}
        for repeat in range(repeats):
            # Alternate who goes first, so neither always meets a warmer cache.
            for who in ("ours", "theirs") if repeat % 2 == 0 else ("theirs", "ours"):
                started = time.perf_counter()
                if who == "ours":
                    summary(read(data, name=name))
                else:
                    theirs = video(name, list(data))
                    theirs.parse()
                    theirs.analyse()
                times[who].append(time.perf_counter() - started)
        ms = {who: statistics.median(values) * 1e3 for who, values in times.items()}
        print(
            f"{name:22} {record['events']:6} {ms['ours']:8.3f} {ms['theirs']:8.3f} "
            f"{ms['ours'] / ms['theirs']:11.2f}"
        )


PROBABILITY_FEATURES = ["high_risk_guess", "jump_judge", "needless_guess", "pluck"]


def clicks(repeats: int) -> None:
    print(f"{platform.python_version()}, ms_toollib {version('ms_toollib')}; medians in ms")
    print(f"{'file':22} {'clicks':>6} {'ours':>8} {'pluck':>8} {'4 feats':>8} "
          f"{'ours/pluck':>10} {'ours/4 feats':>12}")  # fmt: skip
    for path in sorted(DATA.glob("test_subject*")):
        data = path.read_bytes()
        video = READERS[path.suffix]
        table = judge_clicks(read(data, name=path.name))  # loads the compiled counters
        times: dict[str, list[float]] = {"ours": [], "pluck": [], "four": []}
        for repeat in range(repeats):
            order = ["ours", "pluck", "four"]
            # Rotate who goes first, so that none always meets a warmer cache.
            order = order[repeat % 3 :] + order[: repeat % 3]
            for who in order:
                started = time.perf_counter()
                if who == "ours":
                    judge_clicks(read(data, name=path.name))
                else:
                    theirs = video(path.name, list(data))
                    theirs.parse()
                    theirs.analyse()
                    theirs.analyse_for_features(
                        ["pluck"] if who == "pluck" else PROBABILITY_FEATURES
                    )
                times[who].append(time.perf_counter() - started)
        ms = {who: statistics.median(values) * 1e3 for who, values in times.items()}
        print(
            f"{path.name:22} {len(table.clicks):6} {ms['ours']:8.2f} {ms['pluck']:8.2f} "
            f"{ms['four']:8.2f} {ms['ours'] / ms['pluck']:10.2f} {ms['ours'] / ms['four']:12.2f}"
        )


if __name__ == "__main__":
    main()
