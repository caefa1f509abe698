"""Where the web game keeps its games (minesweep.web.db): racing requests and killed servers.

Real server processes, on one database, through HTTP.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from .helpers import POSTGRES, Server


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_racing_requests_on_one_game_lose_no_update(tmp_path: Path, backend: str) -> None:
    url = f"sqlite:///{tmp_path / 'race.sqlite3'}"
    if backend == "postgresql":
        if not POSTGRES:
            pytest.skip("set MINESWEEP_TEST_POSTGRES_URL to test against PostgreSQL")
        url = POSTGRES
    # Two server processes on one database, requests from many threads.
    servers = [Server(url), Server(url)]
    try:
        token = (
            servers[0]
            .http.post("/api/games", json={"rows": 30, "cols": 30, "mines": 0})
            .json()["id"]
        )
        header = {"Authorization": f"Bearer {token}"}
        servers[0].http.post(
            "/api/game/actions",
            json={"action": "flag", "row": 0, "col": 0, "version": 0},
            headers=header,
        )
        squares = [(r, c) for r in range(1, 30) for c in range(0, 30, 2)][:120]
        acknowledged: list[tuple[int, int]] = []
        lock = threading.Lock()

        refused = [0]

        def worker(index: int) -> None:
            # Each request names the version it read; one refused as stale is
            # retried on the version the refusal reports.
            server = servers[index % 2]
            version = server.http.get("/api/game", headers=header).json()["version"]
            for r, c in squares[index::8]:
                while True:
                    response = server.http.post(
                        "/api/game/actions",
                        json={"action": "flag", "row": r, "col": c, "version": version},
                        headers=header,
                    )
                    if response.status_code == 200:
                        version = response.json()["state"]["version"]
                        with lock:
                            acknowledged.append((r, c))
                        break
                    assert response.status_code == 409, response.text
                    version = response.json()["state"]["version"]
                    with lock:
                        refused[0] += 1

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        state = servers[1].http.get("/api/game", headers=header).json()
        flagged = {
            (r, c) for r, line in enumerate(state["view"]) for c, s in enumerate(line) if s == "F"
        }
        assert set(acknowledged) <= flagged
        assert len(acknowledged) == len(squares)
        assert state["mines_left"] == -(len(squares) + 1)
        # Every flag applied once: the game holds exactly the acknowledged actions.
        assert state["actions"] == len(squares) + 1
        assert refused[0] > 0  # the requests did race
    finally:
        for server in servers:
            server.stop()


@pytest.mark.slow
def test_a_killed_server_keeps_every_acknowledged_action(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'durable.sqlite3'}"
    server = Server(url)
    token = server.http.post("/api/games", json={"preset": "expert", "seed": 11}).json()["id"]
    header = {"Authorization": f"Bearer {token}"}
    server.http.post(
        "/api/game/actions",
        json={"action": "reveal", "row": 8, "col": 15, "version": 0},
        headers=header,
    )
    views = []
    for version, col in enumerate(range(0, 30, 3), start=1):
        response = server.http.post(
            "/api/game/actions",
            json={"action": "flag", "row": 0, "col": col, "version": version},
            headers=header,
        )
        views.append(response.json()["state"]["view"])
    server.kill()  # SIGKILL: no shutdown, no flush
    again = Server(url)
    try:
        state = again.http.get("/api/game", headers=header).json()
        assert state["view"] == views[-1]
        assert state["status"] == "playing"
    finally:
        again.stop()


def test_a_read_only_sqlite_file_is_a_storage_error_naming_it(tmp_path: Path) -> None:
    # Run as root a file's permissions stop nothing: it is opened read-only on purpose.
    import sqlite3

    from minesweep import StorageError
    from minesweep.web import Database

    path = tmp_path / "web.sqlite3"
    sqlite3.connect(path).close()
    Database(f"sqlite:///{path}").engine.dispose()  # the tables are there
    with pytest.raises(StorageError, match="is read-only"):
        Database(f"sqlite:///file:{path}?mode=ro&uri=true")


def test_a_data_directory_that_is_a_file_is_a_storage_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep import StorageError
    from minesweep.web import default_url

    file = tmp_path / "a-file"
    file.write_text("")
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(file))
    with pytest.raises(StorageError, match="is not a folder") as raised:
        default_url()
    assert repr(str(file)) in str(raised.value)
