"""A batch of generated replays on one core: reading and every statistic, ours against ms-toollib.

Run from the project root (ms-toollib is in the test extra):

    python benchmarks/bench_replay_batch.py [--count 10000] [--seed 1] [--rounds 3]

``--count`` random games (the property tests' generator, tests/replays/_games.py:
boards from 3x3 to expert, 1 to 60 gestures of a plausible player, some off
the board) are written as EVF v3 files (tests/replays/_oracle.py's writer),
with the header's 3BV and time filled in as a recording program would. Each
file is then, on one core (the process is pinned to it):

- ours: ``summary(read(data, name=...))``: the file read, every statistic
  (3BV, ZiNi, HZiNi, clicks, rates ...) and the header checks;
- ms-toollib's: ``EvfVideo(name, list(data))``, ``parse()`` and ``analyse()``.

Both run over the same bytes in chunks of ``--chunk`` files, alternating who
goes first, ``--rounds`` times; printed are the files per second of each
(total files over total time) and the median over chunks of the throughput
ratio ours/theirs (above 1: ours is faster). ms-toollib aborts the whole
process on input it dislikes, so every file is first given to it in a child
process, and those it aborts on are dropped from both sides (their count is
printed). Our kernels are compiled (or loaded from numba's cache) before
timing.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the generator and writer of the tests

import ms_toollib  # noqa: E402
from tests.replays._games import PIXELS, random_field, random_game  # noqa: E402
from tests.replays._oracle import evf_v3  # noqa: E402

from minesweep import _jit  # noqa: E402
from minesweep.replays import read, summary  # noqa: E402

NAME = "generated.evf"

_SCREEN = r"""
import sys
import ms_toollib
data = sys.stdin.buffer.read()
files, at = [], 0
while at < len(data):
    size = int.from_bytes(data[at : at + 4], "big")
    files.append(data[at + 4 : at + 4 + size])
    at += 4 + size
for index, raw in enumerate(files):
    video = ms_toollib.EvfVideo("generated.evf", list(raw))
    video.parse()
    video.analyse()
    print(index, flush=True)
"""


def generate(count: int, seed: int) -> list[bytes]:
    """``count`` EVF v3 files of random games, their header's 3BV and time our own."""
    rng = random.Random(seed)
    files = []
    for _ in range(count):
        field = random_field(rng)
        px = rng.choice(PIXELS)
        raw = bytearray(evf_v3(field, random_game(rng, field, px), px=px))
        stats = summary(read(bytes(raw), name=NAME))
        raw[10:12] = min(stats["bbbv"], 65535).to_bytes(2, "big")
        raw[12:15] = min(max(round(stats["rtime"] * 1000), 0), 2**24 - 1).to_bytes(3, "big")
        files.append(bytes(raw))
    return files


def screen(files: list[bytes]) -> list[int]:
    """Indices of the files ms-toollib reads without aborting, each tried in a child process.

    The child reads them in order and says which it has done; where it dies,
    the file it was on is dropped and a new child goes on after it.
    """
    kept: list[int] = []
    start = 0
    while start < len(files):
        blob = b"".join(len(raw).to_bytes(4, "big") + raw for raw in files[start:])
        # A panicking ms-toollib writes crash.log into its working directory.
        with tempfile.TemporaryDirectory() as scratch:
            done = subprocess.run(
                [sys.executable, "-c", _SCREEN],
                input=blob,
                capture_output=True,
                cwd=scratch,
                check=False,
            )
        read_ok = [start + int(line) for line in done.stdout.split()]
        kept += read_ok
        if done.returncode == 0:
            break
        start += len(read_ok) + 1  # the file it died on is dropped
    return kept


def ours(chunk: list[bytes]) -> None:
    for raw in chunk:
        summary(read(raw, name=NAME))


def theirs(chunk: list[bytes]) -> None:
    for raw in chunk:
        video = ms_toollib.EvfVideo(NAME, list(raw))
        video.parse()
        video.analyse()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=250)
    arguments = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        where = f"pinned to core {core}"
    else:
        where = "not pinned (no sched_setaffinity here)"
    with _jit.compiling():  # our kernels compiled, or loaded from numba's cache
        started = time.perf_counter()
        files = generate(arguments.count, arguments.seed)
        generated = time.perf_counter() - started
        kept = screen(files)
        dropped = len(files) - len(kept)
        files = [files[index] for index in kept]
        events = statistics.mean((len(raw) - 60) // 8 for raw in files)
        print(
            f"{platform.python_version()}, ms_toollib {version('ms_toollib')}, {where}; "
            f"{len(files)} files (mean {events:.0f} events), {dropped} dropped "
            f"(ms-toollib aborts on them); generated in {generated:.1f} s"
        )
        chunks = [files[at : at + arguments.chunk] for at in range(0, len(files), arguments.chunk)]
        ours(chunks[0])
        theirs(chunks[0])
        times: dict[str, list[float]] = {"ours": [], "theirs": []}
        ratios: list[float] = []
        for round_ in range(arguments.rounds):
            for index, chunk in enumerate(chunks):
                gc.collect()
                order = ("ours", "theirs") if (round_ + index) % 2 == 0 else ("theirs", "ours")
                spent = {}
                for who in order:
                    run = ours if who == "ours" else theirs
                    started = time.perf_counter()
                    run(chunk)
                    spent[who] = time.perf_counter() - started
                    times[who].append(spent[who])
                ratios.append(spent["theirs"] / spent["ours"])
    total = len(files) * arguments.rounds
    rate = {who: total / sum(spent) for who, spent in times.items()}
    print(f"ours        {rate['ours']:9.0f} files/s  ({1e6 / rate['ours']:6.1f} us a file)")
    print(f"ms-toollib  {rate['theirs']:9.0f} files/s  ({1e6 / rate['theirs']:6.1f} us a file)")
    print(
        f"throughput ours/ms-toollib: {rate['ours'] / rate['theirs']:.2f} (totals), "
        f"{statistics.median(ratios):.2f} (median of {len(ratios)} chunks)"
    )


if __name__ == "__main__":
    main()
