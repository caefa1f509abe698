"""The web game under floods: an unrelated player's reads while others try to deny service.

``minesweep serve`` runs in a child process with its default limits (SQLite,
one no-guess worker), on a database holding one long ranked game (an expert
win of about 3,000 actions, played beforehand through the service on a
stepped clock; its replay is 1.7 MB of JSON). A player, in a process of its
own on an address of its own, reads its game (``GET /api/game`` with its
token) about 50 times a second: the p50 and p99 of those reads are measured
with no flood, then under each flood, each from a process of its own:

- ``replays``: 4 clients on one address loop ``GET /api/replays/{id}`` of
  the long game;
- ``no-guess``: 4 clients on one address loop a new no-guess expert game and
  its first reveal (which lays the board);
- ``hints``: 4 clients on one address, each on a board of the largest size
  allowed (64x128, 1,600 mines), loop a hint and the move it names;
- ``40 addresses``: the replay flood from 40 addresses, one client each;
- ``spoofer``: one client creating games as fast as it can, each request
  with a fresh ``X-Forwarded-For``, against the server's default (no proxy
  trusted): it must be held to its address's 30 new games (and one a second
  after them).

Every address is its own loopback address (127.0.0.0/8 is all the machine's):
each client binds its socket to one (``httpx.HTTPTransport(local_address=...)``),
so the server sees distinct addresses without trusting any proxy. Flooding
clients ignore Retry-After, as an attacker would. For each flood: the
player's p50 and p99, their ratio to the no-flood figures (the target is
within 2x), the server's CPU (its process and its no-guess worker, a share of
one core) and the flood's answers by status, medians over ``--rounds``
rounds. The no-flood figures are measured again at the end of each round, to
show the machine's own noise. The flooding processes run at niceness 10
(``--nice``): on a small machine their own CPU would otherwise be taken
from the server and the player, which a remote attacker's is not.

    python benchmarks/bench_web_floods.py --seconds 10 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent

#: The largest board the server's default limits allow, dense enough that the
#: solver has work to do.
BIG = {"rows": 64, "cols": 128, "mines": 1600}
#: Reads a second the player makes: under the reads' limit (120 a second).
PLAYER_RATE = 50.0


# --- the long ranked game -----------------------------------------------------------------------


def long_ranked_game(url: str, actions: int = 3000) -> str:
    """An expert win of about ``actions`` actions in the database at ``url``; its public id.

    Played through the service on a stepped clock (a second an action, so it
    is as slow as a person's). If the rules of the tree rank it elsewise (a
    guest's game, say), the row is marked ranked: the benchmark measures its
    replay, not the ranking.
    """
    import numpy as np
    from sqlalchemy import update

    from minesweep.web import Limits, create_app
    from minesweep.web.models import Move, NewGame
    from minesweep.web.schema import games

    now = [0.0]
    app = create_app(url, limits=Limits(create_rate=None, action_rate=None), clock=lambda: now[0])
    service = app.state.service
    token = service.create(NewGame(preset="expert", name="ada")).id
    state = service.act(token, Move(action="reveal", row=8, col=15, version=0)).state
    field = service.game(token).field
    mine = tuple(np.argwhere(field.mines)[0].tolist())
    hidden = [(r, c) for r, c in np.argwhere(~field.mines).tolist() if state.view[r][c] in "#?"]
    version = state.version
    # Flag and unflag one mine until only the reveals that win are left.
    while state.actions < actions - len(hidden) - 2:
        for action in ("flag", "unflag"):
            now[0] += 1.0
            state = service.act(
                token, Move(action=action, row=mine[0], col=mine[1], version=version)
            ).state
            version = state.version
    for r, c in hidden:
        if state.status != "playing":
            break
        now[0] += 1.0
        state = service.act(token, Move(action="reveal", row=r, col=c, version=version)).state
        version = state.version
    assert state.status == "won", state.status
    with service.db.engine.begin() as connection:
        connection.execute(update(games).where(games.c.token == token).values(ranked=True))
    public_id = service.db.load(token).public_id
    service.db.dispose()
    assert isinstance(public_id, str)
    return public_id


# --- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(url: str, port: int) -> subprocess.Popen[bytes]:
    """``minesweep serve`` with its default limits; returns once it answers."""
    import httpx2 as httpx

    env = {**os.environ, "PYTHONPATH": str(HERE / "src")}
    command = [sys.executable, "-m", "minesweep", "serve", "--port", str(port), "--db", url,
               "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
        for _ in range(1200):
            try:
                http.get("/openapi.json")
                return server
            except httpx.TransportError:
                if server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.05)
    raise RuntimeError("the server did not answer")


# --- the clients (each kind in a child process) -------------------------------------------------


def client(base: str, address: str) -> Any:
    """An HTTP client whose connections come from ``address``."""
    import httpx2 as httpx

    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=base, transport=transport, timeout=60)


def auth(state: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {state['id']}"}


def player(base: str, address: str, seconds: float) -> dict[str, Any]:
    """Read one's own game about PLAYER_RATE times a second; the latencies."""
    with client(base, address) as http:
        state = http.post("/api/games", json={"preset": "expert"}).json()
        http.post(
            "/api/game/actions",
            json={"action": "reveal", "row": 8, "col": 15, "version": 0},
            headers=auth(state),
        )
        latencies: list[float] = []
        statuses: Counter[int] = Counter()
        stop = time.monotonic() + seconds
        while time.monotonic() < stop:
            began = time.perf_counter()
            response = http.get("/api/game", headers=auth(state))
            took = time.perf_counter() - began
            latencies.append(took)
            statuses[response.status_code] += 1
            time.sleep(max(0.0, 1.0 / PLAYER_RATE - took))
    latencies.sort()
    return {
        "p50_ms": latencies[len(latencies) // 2] * 1e3,
        "p99_ms": latencies[int(len(latencies) * 0.99)] * 1e3,
        "reads": len(latencies),
        "statuses": dict(statuses),
    }


def flood(base: str, kind: str, seconds: float, public_id: str, round_: int) -> dict[str, Any]:
    """Run the flood ``kind`` for ``seconds``; its answers by status (and games, for spoofs).

    Its addresses are those of its ``round_``: 127.(10 + round).0-1.*.
    """
    stop = time.monotonic() + seconds
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def count(response: Any) -> int:
        status: int = response.status_code
        with lock:
            statuses[status] += 1
        return status

    def replays(address: str) -> None:
        with client(base, address) as http:
            while time.monotonic() < stop:
                count(http.get(f"/api/replays/{public_id}"))

    def no_guess(address: str) -> None:
        with client(base, address) as http:
            while time.monotonic() < stop:
                created = http.post("/api/games", json={"preset": "expert", "no_guess": True})
                if count(created) != 201:
                    continue
                body = {"action": "reveal", "row": 8, "col": 15, "version": 0}
                count(http.post("/api/game/actions", json=body, headers=auth(created.json())))

    def hints(address: str) -> None:
        with client(base, address) as http:
            state: dict[str, Any] | None = None
            while time.monotonic() < stop:
                if state is None or state["status"] not in ("ready", "playing"):
                    created = http.post("/api/games", json=BIG)
                    if count(created) != 201:
                        continue
                    state = created.json()
                    body = {"action": "reveal", "row": 32, "col": 64, "version": 0}
                    opened = http.post("/api/game/actions", json=body, headers=auth(state))
                    if count(opened) == 200:
                        state = opened.json()["state"]
                    continue
                hinted = http.post(
                    "/api/game/hint", json={"version": state["version"]}, headers=auth(state)
                )
                if count(hinted) != 200:
                    if hinted.status_code == 409 and "state" in hinted.json():
                        state = hinted.json()["state"]
                    continue
                answer = hinted.json()
                state = answer["state"]
                hint = answer["hint"]
                move = "reveal" if hint["safe"] or hint["probability"] < 0.5 else "flag"
                body = {"action": move, "row": hint["row"], "col": hint["col"],
                        "version": state["version"]}  # fmt: skip
                acted = http.post("/api/game/actions", json=body, headers=auth(state))
                if count(acted) == 200:
                    state = acted.json()["state"]

    created = [0]

    def spoofer(address: str) -> None:
        with client(base, address) as http:
            index = 0
            while time.monotonic() < stop:
                index += 1
                claimed = f"10.{index >> 16 & 255}.{index >> 8 & 255}.{index & 255}"
                response = http.post(
                    "/api/games", json={"preset": "beginner"}, headers={"X-Forwarded-For": claimed}
                )
                if count(response) == 201:
                    with lock:
                        created[0] += 1

    net = f"127.{10 + round_}"
    plans = {
        "replays": (replays, [f"{net}.0.2"] * 4),
        "no-guess": (no_guess, [f"{net}.0.3"] * 4),
        "hints": (hints, [f"{net}.0.4"] * 4),
        "40 addresses": (replays, [f"{net}.1.{n}" for n in range(1, 41)]),
        "spoofer": (spoofer, [f"{net}.0.5"]),
    }
    run, addresses = plans[kind]
    began = time.monotonic()
    threads = [threading.Thread(target=run, args=(address,)) for address in addresses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "statuses": dict(statuses),
        "games_created": created[0],
        "seconds": time.monotonic() - began,
    }


def child(arguments: list[str]) -> dict[str, Any]:
    """This file in a child process; its answer (the last line it prints)."""
    output = subprocess.run(
        [sys.executable, __file__, *arguments], capture_output=True, text=True, check=True
    ).stdout
    answer: dict[str, Any] = json.loads(output.splitlines()[-1])
    return answer


# --- the driver -------------------------------------------------------------------------------


FLOODS = ("replays", "no-guess", "hints", "40 addresses", "spoofer")


def cpu_seconds(pid: int) -> float | None:
    """The CPU seconds process ``pid`` and its children (the no-guess worker) have used.

    From /proc (Linux); None elsewhere.
    """
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # After the name: state, ppid, ... utime and stime are the 12th and 13th.
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def measure(
    base: str, seconds: float, public_id: str, kind: str | None, where: tuple[int, int], nice: int,
    pid: int,
) -> dict[str, Any]:  # fmt: skip
    """The player's figures under the flood ``kind`` (None: no flood), and the flood's.

    ``where`` is (round, run): every run's player and flood have addresses of
    their own, so that no run inherits another's debts.
    """
    env = {**os.environ, "PYTHONPATH": str(HERE / "src")}
    round_, run = where
    flooding = None
    if kind is not None:
        # The flood starts first and ends after the player: the player only
        # ever reads beside a flood in full swing.
        flooding = subprocess.Popen(
            [sys.executable, __file__, "--child", "flood", "--base", base, "--kind", kind,
             "--seconds", str(seconds + 3.0), "--public-id", public_id, "--nice", str(nice),
             "--round", str(round_)],
            env=env, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        time.sleep(1.5)
    used, began = cpu_seconds(pid), time.monotonic()
    address = f"127.{10 + round_}.2.{run}"
    figures = child(["--child", "player", "--base", base, "--address", address,
                     "--seconds", str(seconds)])  # fmt: skip
    now = cpu_seconds(pid)
    if used is not None and now is not None:
        figures["server_cpu"] = (now - used) / (time.monotonic() - began)
    if flooding is not None:
        output, _ = flooding.communicate()
        figures["flood"] = json.loads(output.splitlines()[-1])
    return figures


def report(runs: dict[str, list[dict[str, Any]]], seconds: float, nice: int) -> None:
    """The medians over the rounds, against the no-flood run's."""

    def median(name: str, key: str) -> float:
        return statistics.median(float(figures[key]) for figures in runs[name])

    quiet_p50, quiet_p99 = median("no flood", "p50_ms"), median("no flood", "p99_ms")
    rounds = len(runs["no flood"])
    print(
        f"\nthe player's reads ({PLAYER_RATE:g} a second), {seconds:g} s a run, medians of "
        f"{rounds} round(s); the floods ignore Retry-After, at niceness {nice}"
    )
    print(
        f"{'flood':<16} {'p50 ms':>7} {'p99 ms':>7} {'p50 x':>6} {'p99 x':>6} {'server':>7}"
        "  flood's answers, a round"
    )
    ratios = []
    for name, figures in runs.items():
        p50, p99 = median(name, "p50_ms"), median(name, "p99_ms")
        cpu = [run["server_cpu"] for run in figures if "server_cpu" in run]
        line = (
            f"{name:<16} {p50:7.1f} {p99:7.1f} {p50 / quiet_p50:6.2f} {p99 / quiet_p99:6.2f} "
            + (f"{statistics.median(cpu):7.0%} " if cpu else "      - ")
        )
        own: Counter[str] = Counter()
        for run in figures:
            own.update(run["statuses"])
        if set(own) != {"200"}:
            line += f"  (the player's own: {dict(own)})"
        floods = [run["flood"] for run in figures if "flood" in run]
        if floods:
            ratios.append(p50 / quiet_p50)
            statuses: Counter[str] = Counter()
            for answers in floods:
                statuses.update(answers["statuses"])
            line += "  " + ", ".join(
                f"{status}: {statuses[status] / len(floods):.0f}" for status in sorted(statuses)
            )
            if name == "spoofer":
                created = [answers["games_created"] for answers in floods]
                bounds = [30 + math.ceil(answers["seconds"]) for answers in floods]
                line += f"; games created {created} (at most {bounds}: 30, then 1 a second)"
        print(line)
    if ratios:
        print(f"median p50 ratio under the floods: {statistics.median(ratios):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per run (default 10)")
    parser.add_argument("--rounds", type=int, default=1, help="of every run (default 1)")
    parser.add_argument("--floods", nargs="*", choices=FLOODS, default=list(FLOODS))
    parser.add_argument(
        "--nice",
        type=int,
        default=10,
        help="the flooding processes' niceness (default 10; 0: the player's and the server's): "
        "an attacker's own CPU is not the server's, and on a small machine it would be",
    )
    parser.add_argument("--child", choices=["player", "flood"], help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    parser.add_argument("--kind", choices=FLOODS, help=argparse.SUPPRESS)
    parser.add_argument("--public-id", help=argparse.SUPPRESS)
    parser.add_argument("--round", type=int, default=0, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child == "player":
        print(json.dumps(player(arguments.base, arguments.address, arguments.seconds)))
        return
    if arguments.child == "flood":
        if arguments.nice:
            os.nice(arguments.nice)
        print(json.dumps(flood(arguments.base, arguments.kind, arguments.seconds,
                               arguments.public_id, arguments.round)))  # fmt: skip
        return
    seconds, nice = arguments.seconds, arguments.nice
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/floods.sqlite3"
        began = time.monotonic()
        public_id = long_ranked_game(url)
        print(f"a ranked expert win of 3,000 actions, made in {time.monotonic() - began:.1f} s",
              flush=True)  # fmt: skip
        port = free_port()
        server = serve(url, port)
        base = f"http://127.0.0.1:{port}"
        kinds: list[tuple[str, str | None]] = [("no flood", None)]
        kinds += [(kind, kind) for kind in arguments.floods]
        kinds.append(("no flood, again", None))
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in kinds}
        try:
            for round_ in range(arguments.rounds):
                for run, (name, kind) in enumerate(kinds, start=1):
                    where = (round_, run)
                    runs[name].append(
                        measure(base, seconds, public_id, kind, where, nice, server.pid)
                    )
        finally:
            server.terminate()
            server.wait()
    report(runs, seconds, nice)


if __name__ == "__main__":
    main()
