"""Our autoplayer against Tu et al.'s C++ simulator, side by side on one core.

Tu, Yang and Li's MineSweeperProb (https://github.com/b1f6c1c4/MineSweeperProb)
is the published reference for expert win rates: strategy PSEQ wins 39.98% of
expert games (30x16, 99 mines) opened with a safe click in a corner. This
measures, on the same machine and the same core, both players' win rates and
how many games a second each plays, so that a claim "we win more" comes with
what it costs::

    git clone https://github.com/b1f6c1c4/MineSweeperProb /tmp/tu-src
    python benchmarks/bench_vs_tu.py --tu-source /tmp/tu-src --rounds 3 --games 2000

Tu's code is never copied into this repository nor committed: the script
compiles ``MineSweeperSolver/*.cpp`` (all but ``wasm.cpp`` and ``Prover.cpp``,
which need emscripten and boost) from the checkout given by ``--tu-source``
with ``g++ -O3 -march=native -DNDEBUG`` into a cache folder outside the
repository (``~/.cache/minesweep-bench/tu`` unless ``--build-dir``), and builds
again only when the binary is missing or was built from another commit or with
other flags. It needs nlohmann-json (``apt-get install nlohmann-json3-dev``).

Both players play the same game: expert, the first click safe (not
necessarily an opening) and at the top-left corner. Tu's spec string is
``FL@[1,1]-PSEQ-30-16-T99-SFAR`` (full logic, first click at the 1-based
column 1, row 1, which is our 0-based (0, 0); heuristics P, S, E, Q in turn;
"SFAR" is a safe first click, "SNR" would be a safe neighbourhood).

Each round runs Tu's binary and ours once each, one after the other, the
order alternating between rounds so that a drift in machine load does not
favour one side, both pinned with ``taskset`` to the same core. Only games
are timed, not process start, numba's kernel loading or Tu's binomial table:

* ours runs in a child process (this script in ``--ours`` mode) that plays
  one warm-up game and then times :func:`minesweep.autoplay.play_games` on
  ``workers=1`` and prints JSON; round ``r`` plays seeds ``r*games`` up to
  ``(r+1)*games - 1``, so rounds do not repeat games;
* Tu's binary, run as ``MineSweeperSolver SPEC GAMES 1``, forks one worker
  process and reports in its JSON the wall time from the fork to the last
  result, which is what is used here. Tu seeds its generator from
  ``std::random_device``: its games cannot be chosen, so the two sides play
  different (equally distributed) boards and only the win rates compare.

Printed: per round and in total, each side's games, wins, win rate with a 95%
Wilson interval, games a second, and ours/Tu of games a second.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, TypedDict

from minesweep.presets import STRENGTHS

#: Tu's strategy string for the game both sides play (see the module docstring).
TU_SPEC = "FL@[1,1]-PSEQ-30-16-T99-SFAR"
#: Tu's published PSEQ win rate on expert with a safe corner click.
TU_PUBLISHED = 0.3998
TU_SKIP = ("wasm.cpp", "Prover.cpp")
CXXFLAGS = ("-std=c++23", "-O3", "-march=native", "-DNDEBUG")
DEFAULT_BUILD_DIR = Path.home() / ".cache" / "minesweep-bench" / "tu"
WARMUP_SEED = 10**9


class Result(TypedDict):
    """One side's run: games counted, games won, and the seconds they took."""

    games: int
    wins: int
    seconds: float


# --------------------------------------------------------------------------
# Tu's simulator


def tu_commit(source: Path) -> str:
    """The checkout's commit, or "unknown" when it is not a git work tree."""
    try:
        done = subprocess.run(
            ["git", "-C", str(source), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def build_tu(source: Path, build_dir: Path) -> tuple[Path, list[str], str]:
    """Tu's binary in ``build_dir``, compiled when missing or stale.

    Stale means built from another commit or with another command: a stamp
    file next to the binary records both. Returns the binary, the compile
    command and the commit.
    """
    solver = source / "MineSweeperSolver"
    sources = sorted(p for p in solver.glob("*.cpp") if p.name not in TU_SKIP)
    binary = build_dir / "MineSweeperSolver"
    command = ["g++", *CXXFLAGS, "-o", str(binary), *map(str, sources), "-lpthread"]
    commit = tu_commit(source)
    stamp = build_dir / "stamp.json"
    wanted = {"commit": commit, "command": command}
    if binary.exists() and stamp.exists():
        try:
            if json.loads(stamp.read_text()) == wanted:
                return binary, command, commit
        except ValueError:
            pass
    if not Path("/usr/include/nlohmann/json.hpp").exists():
        print(
            "warning: /usr/include/nlohmann/json.hpp not found; "
            "install it with: apt-get install nlohmann-json3-dev",
            file=sys.stderr,
        )
    build_dir.mkdir(parents=True, exist_ok=True)
    print(f"building Tu's simulator: {shlex.join(command)}", file=sys.stderr)
    subprocess.run(command, check=True)
    stamp.write_text(json.dumps(wanted))
    return binary, command, commit


def run_tu(binary: Path, games: int, core: int) -> Result:
    """Tu's simulator for ``games`` games on one worker, pinned to ``core``.

    Its JSON's ``exec.duration`` is the time from starting its worker to the
    last result; its binomial table is built before that and not counted.
    Games that crashed or timed out are reported by it but not counted as
    games: they are printed here if any.
    """
    done = subprocess.run(
        ["taskset", "-c", str(core), str(binary), TU_SPEC, str(games), "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result = report["result"]
    if result["error"] or result["timeout"] or result["strange"]:
        print(f"warning: Tu's run reported {result}", file=sys.stderr)
    return Result(
        games=int(result["pass"]) + int(result["fail"]),
        wins=int(result["pass"]),
        seconds=float(report["exec"]["duration"]),
    )


# --------------------------------------------------------------------------
# Ours


def play_ours(start: int, games: int, strength: str) -> Result:
    """Seeds ``start`` to ``start + games - 1`` in this process, timed after a warm-up game."""
    from minesweep.autoplay import PlayConfig, play_games
    from minesweep.solver.guess import PolicyConfig
    from paired_policy import changed_policy

    name, *changes = strength.split(",")
    config = dataclasses.replace(
        PlayConfig.preset("expert", rule="safe", first_click="corner"),
        policy=changed_policy(PolicyConfig.preset(name), changes),
    )
    play_games(config, [WARMUP_SEED], workers=1)  # numba's kernels loaded here, untimed
    started = time.perf_counter()
    records = play_games(config, range(start, start + games), workers=1)
    seconds = time.perf_counter() - started
    return Result(games=len(records), wins=sum(r.won for r in records), seconds=seconds)


def run_ours(start: int, games: int, strength: str, core: int) -> Result:
    """:func:`play_ours` in a child process pinned to ``core`` (``--ours`` mode)."""
    env = dict(os.environ)
    env.setdefault("MINESWEEP_JIT", "compile")
    command = [
        "taskset",
        "-c",
        str(core),
        sys.executable,
        str(Path(__file__).resolve()),
        "--ours",
        str(start),
        "--games",
        str(games),
        "--strength",
        strength,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    report: Result = json.loads(done.stdout.strip().splitlines()[-1])
    return report


# --------------------------------------------------------------------------
# Table


def row(label: str, side: str, result: Result) -> str:
    """One line of the table: games, wins, win rate [95% Wilson], games/s."""
    from minesweep.stats import wilson_interval

    games, wins = result["games"], result["wins"]
    low, high = wilson_interval(wins, games)
    rate = wins / games if games else float("nan")
    speed = games / result["seconds"] if result["seconds"] > 0 else float("nan")
    return (
        f"{label:>6}  {side:<5} {games:>6} {wins:>6}  {100 * rate:6.2f}%"
        f"  [{100 * low:5.2f}, {100 * high:5.2f}]  {result['seconds']:8.2f}  {speed:9.1f}"
    )


def ratio(ours: Result, tu: Result) -> str:
    """Ours/Tu of games a second, as a line under a round's two rows."""
    value = (ours["games"] / ours["seconds"]) / (tu["games"] / tu["seconds"])
    return f"{'':>6}  ours/Tu games/s: {value:.3f}"


def speed(result: Result) -> float:
    """Games a second."""
    return result["games"] / result["seconds"]


def total(results: list[Result]) -> Result:
    """The rounds' results summed."""
    return Result(
        games=sum(r["games"] for r in results),
        wins=sum(r["wins"] for r in results),
        seconds=sum(r["seconds"] for r in results),
    )


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, build Tu's binary, play the rounds, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tu-source", type=Path, help="a checkout of b1f6c1c4/MineSweeperProb")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=2000, help="games a side a round")
    parser.add_argument("--core", type=int, default=0, help="the core both are pinned to")
    parser.add_argument(
        "--strength",
        default="default",
        help=f"one of {', '.join(STRENGTHS)}, with any PolicyConfig changes after a comma "
        "(fast,endgame_layouts=350), as pair_strength.py takes them",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        default=DEFAULT_BUILD_DIR,
        help=f"where Tu's binary is built (default {DEFAULT_BUILD_DIR})",
    )
    parser.add_argument("--ours", type=int, metavar="START", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.strength.split(",")[0] not in STRENGTHS:
        parser.error(f"--strength must start with one of {', '.join(STRENGTHS)}")

    if args.ours is not None:  # the child process of run_ours
        print(json.dumps(play_ours(args.ours, args.games, args.strength)))
        return 0

    source: Path | None = args.tu_source
    if source is None or not (source / "MineSweeperSolver").is_dir():
        print(
            "Tu's simulator is needed: git clone https://github.com/b1f6c1c4/MineSweeperProb "
            "and pass the checkout as --tu-source PATH",
            file=sys.stderr,
        )
        return 2

    binary, command, commit = build_tu(source, args.build_dir)
    print(f"Tu's MineSweeperProb {commit}, built with: {shlex.join(command)}")
    print(
        f"{TU_SPEC} vs ours (expert, safe first click at (0, 0), strength "
        f"{args.strength!r}); {args.games} games a side a round, core {args.core}; "
        "Tu's [1,1] is 1-based, our (0, 0)"
    )
    print(
        f"{'round':>6}  {'side':<5} {'games':>6} {'wins':>6}  {'win':>7}"
        f"  {'95% Wilson':>14}  {'seconds':>8}  {'games/s':>9}"
    )
    ours_results: list[Result] = []
    tu_results: list[Result] = []
    for rnd in range(args.rounds):
        start = rnd * args.games
        order = ("tu", "ours") if rnd % 2 == 0 else ("ours", "tu")
        got: dict[str, Result] = {}
        for side in order:
            if side == "tu":
                got[side] = run_tu(binary, args.games, args.core)
            else:
                got[side] = run_ours(start, args.games, args.strength, args.core)
        ours_results.append(got["ours"])
        tu_results.append(got["tu"])
        label = f"{rnd}"
        print(row(label, "ours", got["ours"]) + ("  (first)" if order[0] == "ours" else ""))
        print(row(label, "Tu", got["tu"]) + ("  (first)" if order[0] == "tu" else ""))
        print(ratio(got["ours"], got["tu"]))
    ours_total, tu_total = total(ours_results), total(tu_results)
    print(row("total", "ours", ours_total))
    print(row("total", "Tu", tu_total))
    print(ratio(ours_total, tu_total))
    # Either side's round is slowed, never sped up, by what else the machine
    # does (Tu's rounds of 2,000 games took from 1.7 to 9.3 s on one quiet
    # core): the median of the rounds' ratios and the fastest rounds resist that.
    rounds = [speed(o) / speed(t) for o, t in zip(ours_results, tu_results, strict=True)]
    fastest = max(map(speed, ours_results)) / max(map(speed, tu_results))
    # A round's two sides play different games (Tu's are not seeded), and
    # Tu's rounds swing more than ours (a round of 3,000 from 105 to 1,281
    # games/s, stop 60): each side's median round is its typical speed.
    typical = statistics.median(map(speed, ours_results)) / statistics.median(
        map(speed, tu_results)
    )
    print(
        f"{'':>6}  median of the rounds' ratios {statistics.median(rounds):.3f}, "
        f"fastest round against fastest round {fastest:.3f}, "
        f"median round against median round {typical:.3f}"
    )
    print(f"Tu's published PSEQ expert win rate: {100 * TU_PUBLISHED:.2f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
