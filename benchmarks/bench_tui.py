"""The terminal game on big boards: how long each action takes to answer, as a player meets it.

The app runs headless (Textual's test pilot) on a ROWSxCOLS board with 15%
mines and the safe first-click rule, at a terminal of 100x30; every figure
is the time of the app's handler of the key's action (what the key is bound
to) plus drawing every line on screen, median of the repeats: Textual's
pilot waits a fixed 80 ms or so after each key even on beginner, which is
not the game's. Starting the app again on the saved game (resume: the app
built from the save, then its screen drawn) and quitting are timed too. Run for
this tree and, with ``--baseline PATH``, another checkout, in child
processes, trees alternating:

    python benchmarks/bench_tui.py --sizes 1000x1000 3162x3162 --baseline /work/before25
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def measure(rows: int, cols: int, repeats: int) -> dict[str, float]:
    os.environ["MINESWEEP_DATA_DIR"] = tempfile.mkdtemp()
    from minesweep.frontend import Settings
    from minesweep.tui import MinesweeperApp, Store

    settings = Settings.of(size=(rows, cols), mines=rows * cols * 15 // 100, rule="safe", seed=1)
    folder = Path(os.environ["MINESWEEP_DATA_DIR"])
    times: dict[str, list[float]] = {}

    def timed(name: str, began: float) -> None:
        times.setdefault(name, []).append(time.perf_counter() - began)

    def draw(app: Any) -> None:
        board = app.board
        for y in range(board.size.height):
            board.render_line(y)

    async def play(app: Any) -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.board.move_cursor(rows // 2, cols // 2)
            for name, action in (
                [("first reveal", "reveal")]
                + [
                    (name, action)
                    for _ in range(repeats)
                    for name, action in [
                        ("move", "right"),
                        ("flag", "flag"),
                        ("unflag", "flag"),
                        ("reveal", "reveal"),
                        ("undo", "undo"),
                        ("chord", "chord"),
                    ]
                ]
                + [("hint", "hint")]
            ):  # once: it reads the whole board
                began = time.perf_counter()
                app.action_do(action)
                draw(app)
                timed(name, began)
                await pilot.pause()
            began = time.perf_counter()
            app.action_do("quit")
            timed("quit", began)

    async def resume() -> None:
        began = time.perf_counter()
        app = MinesweeperApp(settings, store=Store(folder / "minesweep.sqlite3"))
        async with app.run_test(size=(100, 30)) as pilot:
            draw(app)
            timed("resume", began)
            await pilot.pause()

    app = MinesweeperApp(settings, store=Store(folder / "minesweep.sqlite3"))
    asyncio.run(play(app))
    asyncio.run(resume())
    saved = sum(path.stat().st_size for path in folder.glob("*"))
    result = {name: statistics.median(values) for name, values in times.items()}
    result["save file MB"] = saved / 1e6
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1000x1000"])
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        rows, cols = (int(part) for part in arguments.child.split("x"))
        print(json.dumps(measure(rows, cols, arguments.repeats)))
        return
    trees = {"ours": HERE}
    if arguments.baseline is not None:
        trees["baseline"] = arguments.baseline.resolve()
    for size in arguments.sizes:
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
        for _ in range(arguments.rounds):
            for name, tree in trees.items():
                env = {**os.environ, "PYTHONPATH": str(tree / "src")}
                output = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--child",
                        size,
                        "--repeats",
                        str(arguments.repeats),
                    ],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                runs[name].append(json.loads(output.splitlines()[-1]))
        print(f"== {size}: median of {arguments.rounds} round(s), {arguments.repeats} repeats ==")
        for key in runs["ours"][0]:
            unit = "" if key.endswith("MB") else " ms"
            scale = 1.0 if key.endswith("MB") else 1e3
            line = f"{key:<14}"
            medians = {}
            for name in trees:
                medians[name] = statistics.median(run[key] for run in runs[name])
                line += f" {name} {medians[name] * scale:10.1f}{unit}"
            if "baseline" in trees and medians["baseline"]:
                line += f"   ours/baseline {medians['ours'] / medians['baseline']:.3f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
