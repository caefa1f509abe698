"""A store the disk refuses is a StorageError naming it, and ends the game in one line.

Run as root, a folder's permissions stop nothing: a read-only database is
opened read-only on purpose here, and a full disk is a write that raises.
"""

from __future__ import annotations

import errno
import pathlib
import sqlite3
from typing import Any

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import StorageError
from minesweep.tui import MinesweeperApp, Store

from ..cli.runner import run
from .helpers import drive, make_app


def test_a_read_only_database_is_found_when_the_store_opens(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "minesweep.sqlite3"
    Store(path).close()  # the tables are there: opening it needs no write
    connect = sqlite3.connect

    def read_only(database: str, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened: sqlite3.Connection = connect(f"file:{database}?mode=ro", *args, uri=True, **kwargs)
        return opened

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(StorageError) as raised:
        Store(path)
    assert str(raised.value) == f"the database {str(path)!r} is read-only"


class _FullDisk:
    """A connection whose every write fails as ``error``; reads go through."""

    def __init__(self, db: sqlite3.Connection, error: Exception) -> None:
        self._db = db
        self._error = error

    def execute(self, sql: str, *args: Any) -> Any:
        if not sql.lstrip().upper().startswith(("SELECT", "PRAGMA")):
            raise self._error
        return self._db.execute(sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        raise self._error

    def __enter__(self) -> Any:
        return self._db.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._db.__exit__(*exc)


@pytest.mark.parametrize(
    "error",
    [
        sqlite3.OperationalError("database or disk is full"),
        OSError(errno.ENOSPC, "No space left on device"),
    ],
    ids=["sqlite", "oserror"],
)
def test_a_full_disk_mid_game_ends_the_app_with_the_error(
    tmp_path: pathlib.Path, error: Exception
) -> None:
    app = make_app(tmp_path)
    app.store._db = _FullDisk(app.store._db, error)  # type: ignore[assignment]

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")  # the first move's save fails
        await pilot.pause()

    drive(app, scenario, (80, 30))
    assert app.failure is not None
    path = tmp_path / "db.sqlite3"
    assert str(app.failure) == f"the database {str(path)!r} cannot be written: the disk is full"
    assert app.return_code == 2


def test_play_says_a_refused_write_in_one_line_with_status_2(
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))

    def refused(app: MinesweeperApp) -> None:
        app.failure = StorageError("the database 'x' cannot be written: the disk is full")

    monkeypatch.setattr(MinesweeperApp, "run", refused)
    status, out, err = run(capsys, monkeypatch, "play", "--preset", "beginner")
    assert (status, out) == (2, "")
    assert err == "minesweep play: the database 'x' cannot be written: the disk is full\n"


def test_ctrl_c_is_said_after_the_game_ends(
    tmp_path: pathlib.Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import signal

    monkeypatch.setenv("MINESWEEP_DATA_DIR", str(tmp_path))

    def interrupted(app: MinesweeperApp) -> None:
        app.interrupted = True

    monkeypatch.setattr(MinesweeperApp, "run", interrupted)
    handler = signal.getsignal(signal.SIGINT)
    try:
        status, out, err = run(capsys, monkeypatch, "play", "--preset", "beginner")
    finally:
        signal.signal(signal.SIGINT, handler)
    assert (status, out, err) == (130, "", "minesweep play: interrupted\n")
