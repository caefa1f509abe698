"""``minesweep serve`` as a process: where it listens, and its request log."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from .helpers import free_port


@pytest.mark.slow
@pytest.mark.parametrize(("level", "logged"), [("info", True), ("warning", False)])
def test_serve_says_where_it_listens_and_logs_requests_at_its_level(
    tmp_path: Path, level: str, logged: bool
) -> None:
    import httpx2 as httpx

    port = free_port()
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "minesweep", "serve", "--port", str(port),
                "--db", f"sqlite:///{tmp_path / 'log.sqlite3'}", "--log-level", level,
            ],
            stdout=stdout,
            stderr=stderr,
        )  # fmt: skip
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
                for _ in range(300):
                    try:
                        assert http.get("/api/leaderboards/expert").status_code == 200
                        break
                    except httpx.TransportError:
                        time.sleep(0.05)
            time.sleep(0.3)  # let the log reach the file
        finally:
            process.terminate()
            process.wait(10)
    first = err.read_text().splitlines()[0]
    assert first.startswith(f"minesweep serve: listening on http://127.0.0.1:{port} (database ")
    logs = out.read_text() + err.read_text()
    assert ('"GET /api/leaderboards/expert HTTP/1.1" 200' in logs) is logged
