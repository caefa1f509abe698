"""A short load test of the web game on loopback: concurrent games, request latency.

Run from the project root (the web extra and httpx2 installed):

    python benchmarks/bench_web.py [--clients 16] [--games 10] [--db URL]

It starts ``minesweep serve`` on 127.0.0.1 (a SQLite file in a temporary
directory unless --db is given), then each client thread creates games and
plays them with random reveals and flags, at most 40 actions a game. Every
request's latency is recorded; the run is bounded in requests and time, and
stops by itself.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

import httpx2 as httpx
import numpy as np


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games", type=int, default=10, help="games per client")
    parser.add_argument("--db", help="database URL (default: a fresh SQLite file)")
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp()
    url = arguments.db or f"sqlite:///{os.path.join(folder, 'load.sqlite3')}"
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "minesweep", "serve", "--port", str(port), "--db", url],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/openapi.json")
                break
            except httpx.TransportError:
                time.sleep(0.05)
        latencies: dict[str, list[float]] = {"create": [], "action": [], "read": []}
        errors: list[int] = []
        lock = threading.Lock()
        deadline = time.perf_counter() + arguments.seconds

        def client(index: int) -> None:
            rng = random.Random(index)
            with httpx.Client(base_url=base, timeout=30) as http:

                def timed(kind: str, method: str, path: str, body: object = None) -> dict:
                    start = time.perf_counter()
                    response = http.request(method, path, json=body)
                    elapsed = time.perf_counter() - start
                    with lock:
                        latencies[kind].append(elapsed)
                        if response.status_code >= 500:
                            errors.append(response.status_code)
                    return response.json() if response.status_code < 300 else {}

                for _ in range(arguments.games):
                    if time.perf_counter() > deadline:
                        return
                    preset = rng.choice(["beginner", "intermediate", "expert"])
                    state = timed("create", "POST", "/api/games", {"preset": preset})
                    token = state["id"]
                    for _ in range(40):
                        action = rng.choice(["reveal", "reveal", "reveal", "flag"])
                        body = {
                            "action": action,
                            "row": rng.randrange(state["rows"]),
                            "col": rng.randrange(state["cols"]),
                        }
                        result = timed("action", "POST", f"/api/games/{token}/actions", body)
                        if not result or result["state"]["status"] in ("won", "lost"):
                            break
                    timed("read", "GET", f"/api/games/{token}")

        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(arguments.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
        total = sum(len(values) for values in latencies.values())
        print(
            f"{arguments.clients} clients x {arguments.games} games on {url.split(':')[0]}, "
            f"{total} requests in {seconds:.1f} s ({total / seconds:.0f} requests/s), "
            f"{len(errors)} server errors"
        )
        for kind, values in latencies.items():
            ms = np.array(values) * 1e3
            print(
                f"  {kind:7} n={len(ms):5}  p50 {np.percentile(ms, 50):7.2f} ms  "
                f"p99 {np.percentile(ms, 99):7.2f} ms  max {ms.max():7.2f} ms"
            )
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
