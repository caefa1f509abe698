"""The no-guess pool's worker processes end with the server that owns them, however it ends."""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pytest

from .helpers import Server, auth

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process tree from /proc"
)


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent pid; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The name (in parentheses) may hold spaces: the fields after it are fixed.
    state, ppid = text.rpartition(")")[2].split()[:2]
    return state, int(ppid)


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` in the process tree."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents[int(entry.name)] = stat[1]
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie has ended: it waits only to be reaped)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_no_worker_outlives_its_server(tmp_path: Path, sig: signal.Signals) -> None:
    server = Server(f"sqlite:///{tmp_path / 'workers.sqlite3'}", "--no-guess-workers", "1")
    try:
        created = server.http.post("/api/games", json={"preset": "beginner", "no_guess": True})
        token, version = created.json()["id"], created.json()["version"]
        # The first reveal lays the field: the pool starts its worker.
        body = {"action": "reveal", "row": 4, "col": 4, "version": version}
        response = server.http.post("/api/game/actions", json=body, headers=auth(token))
        assert response.status_code == 200, response.text
        workers = descendants(server.process.pid)
        assert workers, "the no-guess pool started no process"
    finally:
        # One signal only: a second SIGTERM makes uvicorn skip its shutdown.
        if sig is signal.SIGKILL:
            server.kill()
        else:
            server.stop()
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.05)
    assert [pid for pid in workers if alive(pid)] == []
