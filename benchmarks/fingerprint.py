"""A fingerprint of minesweep's behaviour, to prove that a refactor changed nothing.

Three parts, each printed as a SHA-256 and written in full (as JSON lines)
under ``--out`` so that two runs can be compared line by line:

- **autoplay**: the six rows of BENCHMARKS.md (three presets; a safe first
  click in the corner, and an opening at (3, 3)), seeds ``0`` to
  ``--games - 1``: each game's result, guesses (square by square), squares
  opened and final view (which squares were open);
- **cli**: the output, error and exit status of ``minesweep reveal``, ``new``,
  ``solve`` and ``stats`` on the examples, and a few bad inputs;
- **web**: the API's responses to a scripted game (a fixed clock; tokens and
  public ids replaced by placeholders).

Run it before and after a change and compare the hashes::

    python benchmarks/fingerprint.py --games 20000 --out /tmp/before
    python benchmarks/fingerprint.py --games 20000 --out /tmp/after
    diff -r /tmp/before /tmp/after
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
ROWS = [
    (preset, rule, click)
    for preset in ("beginner", "intermediate", "expert")
    for rule, click in (("safe", "corner"), ("opening", "3,3"))
]


def _play_row(row: tuple[str, str, str], seeds: range) -> list[str]:
    from minesweep.autoplay import PlayConfig, play_game

    preset, rule, click = row
    config = PlayConfig.preset(preset, rule=rule, first_click=click)
    lines = []
    for seed in seeds:
        guesses: list[tuple[int, int]] = []
        views: list[bytes] = []
        record = play_game(
            config,
            seed,
            on_guess=lambda _, guess, seen=guesses: seen.append((int(guess.row), int(guess.col))),
            on_end=lambda state, seen=views: seen.append(np.packbits(state == 1).tobytes()),
        )
        final = hashlib.sha256(views[-1] if views else b"").hexdigest()[:16]
        lines.append(
            json.dumps(
                [seed, record.won, record.guesses, record.opened, guesses, final],
                separators=(",", ":"),
            )
        )
    return lines


def autoplay(games: int, workers: int) -> dict[str, list[str]]:
    chunk = 500
    out: dict[str, list[str]] = {}
    with ProcessPoolExecutor(workers) as pool:
        futures = {
            row: [
                pool.submit(_play_row, row, range(start, min(games, start + chunk)))
                for start in range(0, games, chunk)
            ]
            for row in ROWS
        }
        for row, parts in futures.items():
            out["autoplay-" + "-".join(row).replace(",", "_")] = [
                line for part in parts for line in part.result()
            ]
    return out


def _cli(*words: str, stdin: str | None = None) -> str:
    env = dict(os.environ, MINESWEEP_DATA_DIR=tempfile.mkdtemp(), COLUMNS="80")
    done = subprocess.run(
        [sys.executable, "-m", "minesweep", *words],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    # The line solve and bench play print while the kernels load (or compile,
    # on a fresh cache) says how warm the machine is, not what the command does.
    stderr = "".join(
        line
        for line in done.stderr.splitlines(keepends=True)
        if not line.startswith("minesweep: loading ")
    )
    return json.dumps([list(words), stdin, done.returncode, done.stdout, stderr])


def cli() -> dict[str, list[str]]:
    lines = []
    for example in sorted((ROOT / "examples").iterdir()):
        name = str(example.relative_to(ROOT))
        lines.append(_cli("reveal", name))
        lines.append(_cli("reveal", name, "--click", "0,0", "--format", "grid"))
        lines.append(_cli("stats", name))
        lines.append(_cli("solve", name))
    for preset in ("beginner", "intermediate", "expert"):
        lines.extend(
            _cli("new", "--preset", preset, "--seed", "7", "--format", fmt)
            for fmt in ("text", "leetcode", "json")
        )
        lines.append(_cli("new", "--preset", preset, "--seed", "3", "--rule", "safe"))
        lines.append(_cli("new", "--preset", preset, "--seed", "3", "--rule", "none"))
        lines.append(_cli("new", "--preset", preset, "--seed", "11", "--first-click", "0,0"))
    lines.append(_cli("new", "--size", "20x40", "--mines", "120", "--seed", "5"))
    lines.append(_cli("new", "--preset", "intermediate", "--seed", "2", "--no-guess"))
    with tempfile.TemporaryDirectory() as folder:
        for seed in (1, 2):
            path = Path(folder) / f"game{seed}.json"
            _cli(
                "new",
                "--preset",
                "beginner",
                "--seed",
                str(seed),
                "--format",
                "json",
                "-o",
                str(path),
            )
            lines.append(_cli("stats", "-", stdin=path.read_text()))
            lines.append(_cli("solve", "-", stdin=path.read_text()))
    view = "#########\n#1122211#\n#1.....1#\n#1.....1#\n#########\n"
    lines.append(_cli("solve", "-", "--mines", "12", stdin=view))
    bad_inputs = (
        ("reveal", "examples/example1.json", "--click", "9,9"),
        ("reveal", "examples/example1.json", "--click", "-1,0"),
        ("reveal", "-"),
        ("new", "--size", "3x3", "--mines", "20"),
        ("new", "--size", "3x3"),
        ("new", "--preset", "huge"),
        ("new", "--seed", "-4"),
        ("solve", "-", "--mines", "500"),
        ("stats", "missing.json"),
    )
    lines.extend(_cli(*bad, stdin="EEE\nEXE\n" if "-" in bad else None) for bad in bad_inputs)
    return {"cli": lines}


def _scrub(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {key: _scrub(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrub(item, names) for item in value]
    if isinstance(value, str) and value in names:
        return names[value]
    return value


def web() -> dict[str, list[str]]:
    from starlette.testclient import TestClient

    from minesweep.web import Limits, create_app

    ticks = iter(range(10**9))
    lines: list[str] = []
    names: dict[str, str] = {}
    versions: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            f"sqlite:///{folder}/web.sqlite3",
            clock=lambda: 1e9 + next(ticks),
            limits=Limits(create_rate=None, action_rate=None),
        )
        with TestClient(app) as client:

            def call(
                method: str, path: str, body: dict[str, Any] | None = None, token: str = ""
            ) -> Any:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                if token and path in ("/api/game/actions", "/api/game/undo", "/api/game/hint"):
                    body = {**(body or {}), "version": versions[token]}
                response = client.request(method, path, json=body, headers=headers)
                data = response.json() if response.content else None
                state = data.get("state", data) if isinstance(data, dict) else None
                if isinstance(state, dict) and isinstance(state.get("version"), int):
                    versions[state["id"]] = state["version"]
                for key in ("id", "public_id"):
                    if isinstance(data, dict) and isinstance(data.get(key), str):
                        names.setdefault(data[key], f"<{key}{len(names)}>")
                lines.append(
                    json.dumps(
                        [method, path_for(path), body, response.status_code, _scrub(data, names)]
                    )
                )
                return data

            def path_for(path: str) -> str:
                for real, fake in names.items():
                    path = path.replace(real, fake)
                return path

            for body in (
                {"preset": "beginner", "seed": 4, "name": "ann"},
                {"rows": 8, "cols": 8, "mines": 10, "rule": "safe", "seed": 9},
                {"preset": "beginner", "no_guess": True, "seed": 12, "name": "bo"},
                {"preset": "huge"},
                {"rows": 3, "cols": 3, "mines": 20},
            ):
                game = call("POST", "/api/games", body)
                if not isinstance(game, dict) or "id" not in game:
                    continue
                token = game["id"]
                actions = "/api/game/actions"
                call("POST", "/api/game/hint", {}, token)
                call("POST", actions, {"action": "reveal", "row": 4, "col": 4}, token)
                call("POST", actions, {"action": "flag", "row": 0, "col": 0}, token)
                call("POST", actions, {"action": "question", "row": 0, "col": 1}, token)
                call("POST", "/api/game/undo", {}, token)
                call("POST", actions, {"action": "chord", "row": 4, "col": 4}, token)
                call("POST", actions, {"action": "reveal", "row": 99, "col": 0}, token)
                # Play the hints to the end.
                for _ in range(100):
                    state = call("POST", "/api/game/hint", {}, token)
                    if not isinstance(state, dict) or "hint" not in state:
                        break
                    hint = state["hint"]
                    action = "flag" if hint.get("mine") else "reveal"
                    result = call(
                        "POST", actions, {"action": action, "row": hint["row"], "col": hint["col"]},
                        token,
                    )  # fmt: skip
                    if not isinstance(result, dict) or result.get("status") in ("won", "lost"):
                        break
                final = call("GET", "/api/game", None, token)
                if isinstance(final, dict) and final.get("public_id"):
                    call("GET", f"/api/replays/{final['public_id']}")
            for kind in ("beginner", "beginner/no-guess", "8x8/10/safe", "nothing"):
                call("GET", f"/api/leaderboards/{kind}")
        app.state.service.db.dispose()
    return {"web": lines}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, help="write every part's lines here")
    parser.add_argument("--skip", nargs="*", default=[], choices=["autoplay", "cli", "web"])
    arguments = parser.parse_args()
    parts: dict[str, list[str]] = {}
    if "cli" not in arguments.skip:
        parts.update(cli())
    if "web" not in arguments.skip:
        parts.update(web())
    if "autoplay" not in arguments.skip:
        parts.update(autoplay(arguments.games, arguments.workers))
    total = hashlib.sha256()
    for name, lines in parts.items():
        digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
        total.update(f"{name} {digest}\n".encode())
        print(f"{name:32} {len(lines):6} lines  {digest}")
        if arguments.out:
            arguments.out.mkdir(parents=True, exist_ok=True)
            (arguments.out / f"{name}.jsonl").write_text("\n".join(lines) + "\n")
    print(f"{'all':32} {'':12} {total.hexdigest()}")


if __name__ == "__main__":
    main()
