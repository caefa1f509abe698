"""The web game under load: what an action costs as a game grows, and reads beside no-guess floods.

Two parts, each run for this tree and, with ``--baseline PATH``, for another
checkout of minesweep (the same measurement in a child process per tree,
trees alternating round by round; the figures are medians over rounds):

- ``cost``: one expert game in a SQLite file, in process (Starlette's test
  client: the service and the database, no network). Its first reveal, then
  flag and unflag on one square, again and again; the median time of an
  action near 10, 1,000 and 2,990 actions of history, and a cold read (the
  server's cache emptied) at the end.
- ``load``: ``minesweep serve`` in a child process (uvicorn, SQLite, rate
  limits off so that the pool is what is measured). 8 client threads read
  their game and flag or unflag a square in turn for ``--seconds``: requests
  a second, p50 and p99 of their latency, errors. Then the same with 16 more
  threads each asking for no-guess expert boards (a new game and its first
  reveal), again and again.

    python benchmarks/bench_web.py --baseline /work/before25 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


class Api:
    """The game's API, old (token in the URL, no version) or new (header, versions)."""

    def __init__(self, http: Any) -> None:
        self.http = http
        paths = http.get("/openapi.json").json()["paths"]
        self.new = "/api/game/actions" in paths

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        response = self.http.post("/api/games", json=body)
        data: dict[str, Any] = response.json()
        return data if response.status_code == 201 else {"error": response.status_code}

    def read(self, state: dict[str, Any]) -> Any:
        if self.new:
            return self.http.get("/api/game", headers=self._auth(state))
        return self.http.get(f"/api/games/{state['id']}")

    def act(self, state: dict[str, Any], action: str, row: int, col: int) -> Any:
        body: dict[str, Any] = {"action": action, "row": row, "col": col}
        if self.new:
            body["version"] = state["version"]
            return self.http.post("/api/game/actions", json=body, headers=self._auth(state))
        return self.http.post(f"/api/games/{state['id']}/actions", json=body)

    @staticmethod
    def _auth(state: dict[str, Any]) -> dict[str, str]:
        return {"Authorization": f"Bearer {state['id']}"}


# --- cost -----------------------------------------------------------------------------------


def cost_worker() -> dict[str, float]:
    from starlette.testclient import TestClient

    from minesweep.web import Limits, create_app

    fields = Limits.__dataclass_fields__
    options: dict[str, Any] = {"max_rows": 64}
    if "action_rate" in fields:
        options |= {"create_rate": None, "action_rate": None, "human_limits": None}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/cost.sqlite3", limits=Limits(**options))
        with TestClient(app) as client:
            api = Api(client)
            state = api.create({"preset": "expert", "seed": 5})
            state = api.act(state, "reveal", 8, 15).json()["state"]
            square = next(
                (r, c) for r, line in enumerate(state["view"]) for c, s in enumerate(line)
                if s == "#"
            )  # fmt: skip
            times: list[float] = []
            for index in range(2990):
                action = "flag" if index % 2 == 0 else "unflag"
                began = time.perf_counter()
                response = api.act(state, action, *square)
                times.append(time.perf_counter() - began)
                state = response.json()["state"]
            service = app.state.service
            # Service.forget (trees before it emptied the private cache by hand).
            forget = getattr(service, "forget", None)
            forget() if forget is not None else service._cache.clear()
            began = time.perf_counter()
            assert api.read(state).status_code == 200
            cold = time.perf_counter() - began
        app.state.service.db.dispose()
    return {
        "action_at_10": statistics.median(times[0:50]),
        "action_at_1000": statistics.median(times[975:1025]),
        "action_at_2990": statistics.median(times[-50:]),
        "cold_read_at_2990": cold,
    }


# --- load -----------------------------------------------------------------------------------


def _serve(tree: Path, port: int, folder: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    command = [
        sys.executable, "-m", "minesweep", "serve", "--port", str(port),
        "--db", f"sqlite:///{folder}/load.sqlite3",
    ]  # fmt: skip
    help_text = subprocess.run(
        [*command[:4], "--help"], env=env, capture_output=True, text=True, check=True
    ).stdout
    if "--action-rate" in help_text:
        command += ["--create-rate", "0", "--action-rate", "0", "--log-level", "warning"]
    return subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def load_worker(tree: Path, seconds: float) -> dict[str, Any]:
    import socket

    import httpx2 as httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        server = _serve(tree, port, folder)
        try:
            with httpx.Client(base_url=base, timeout=60) as http:
                for _ in range(600):
                    try:
                        http.get("/openapi.json")
                        break
                    except httpx.TransportError:
                        time.sleep(0.05)
            for flood in (0, 16):
                results[f"flood_{flood}"] = _load(base, seconds, flood)
        finally:
            server.terminate()
            server.wait()
    return results


def _load(base: str, seconds: float, flood: int) -> dict[str, float]:
    import httpx2 as httpx

    stop = time.monotonic() + seconds
    latencies: list[float] = []
    errors = [0, 0]  # players' errors, no-guess refusals (503)
    boards = [0]
    lock = threading.Lock()

    def player(index: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as http:
            api = Api(http)
            state = api.create({"rows": 16, "cols": 30, "mines": 99, "seed": index})
            state = api.act(state, "reveal", 8, 15).json()["state"]
            square = next(
                (r, c) for r, line in enumerate(state["view"]) for c, s in enumerate(line)
                if s == "#"
            )  # fmt: skip
            flagged = False
            own: list[float] = []
            while time.monotonic() < stop:
                began = time.perf_counter()
                read = api.read(state)
                own.append(time.perf_counter() - began)
                began = time.perf_counter()
                response = api.act(state, "unflag" if flagged else "flag", *square)
                own.append(time.perf_counter() - began)
                if read.status_code != 200 or response.status_code != 200:
                    with lock:
                        errors[0] += 1
                    continue
                state = response.json()["state"]
                flagged = not flagged
            with lock:
                latencies.extend(own)

    def hard_boards(index: int) -> None:
        with httpx.Client(base_url=base, timeout=60) as http:
            api = Api(http)
            while time.monotonic() < stop:
                state = api.create({"preset": "expert", "no_guess": True})
                response = api.act(state, "reveal", 8, 15)
                with lock:
                    if response.status_code == 200:
                        boards[0] += 1
                    else:
                        errors[1] += 1
                if response.status_code == 503:
                    time.sleep(float(response.headers.get("Retry-After", "1")))

    threads = [threading.Thread(target=player, args=(i,)) for i in range(8)]
    threads += [threading.Thread(target=hard_boards, args=(i,)) for i in range(flood)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    latencies.sort()
    return {
        "requests_per_second": len(latencies) / elapsed,
        "p50_ms": latencies[len(latencies) // 2] * 1e3,
        "p90_ms": latencies[int(len(latencies) * 0.9)] * 1e3,
        "p99_ms": latencies[int(len(latencies) * 0.99)] * 1e3,
        "errors": errors[0],
        "no_guess_boards": boards[0],
        "no_guess_refused": errors[1],
    }


# --- the driver -----------------------------------------------------------------------------


def _child(tree: Path, part: str, seconds: float) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    output = subprocess.run(
        [sys.executable, __file__, "--child", part, "--tree", str(tree), "--seconds", str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, Any] = json.loads(output.splitlines()[-1])
    return result


def _median(runs: list[dict[str, Any]], *keys: str) -> float:
    values = []
    for run in runs:
        value: Any = run
        for key in keys:
            value = value[key]
        values.append(float(value))
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="another checkout of minesweep")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--part", choices=["cost", "load", "all"], default="all")
    parser.add_argument("--child", choices=["cost", "load"], help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, default=HERE, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child == "cost":
        print(json.dumps(cost_worker()))
        return
    if arguments.child == "load":
        print(json.dumps(load_worker(arguments.tree, arguments.seconds)))
        return
    trees = {"ours": HERE}
    if arguments.baseline is not None:
        trees["baseline"] = arguments.baseline.resolve()
    parts = ["cost", "load"] if arguments.part == "all" else [arguments.part]
    for part in parts:
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
        for _ in range(arguments.rounds):
            for name, tree in trees.items():  # alternating, round by round
                runs[name].append(_child(tree, part, arguments.seconds))
        print(f"== {part}: median of {arguments.rounds} rounds ==")
        keys: list[tuple[str, ...]]
        if part == "cost":
            keys = [(key,) for key in runs["ours"][0]]
        else:
            keys = [
                (flood, key)
                for flood in ("flood_0", "flood_16")
                for key in runs["ours"][0]["flood_0"]
            ]
        for key in keys:
            scale = 1e3 if part == "cost" else 1.0
            unit = " ms" if part == "cost" else ""
            line = f"{'/'.join(key):<36}"
            for name in trees:
                line += f" {name} {_median(runs[name], *key) * scale:10.2f}{unit}"
            if "baseline" in trees:
                ours, base = _median(runs["ours"], *key), _median(runs["baseline"], *key)
                line += f"   ours/baseline {ours / base:.3f}" if base else ""
            print(line, flush=True)


if __name__ == "__main__":
    main()
