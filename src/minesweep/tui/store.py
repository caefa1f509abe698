"""Where the terminal game keeps what outlives it: statistics, best times, the game in progress.

One SQLite file under the platform's data directory (``platformdirs``), or
``$MINESWEEP_DATA_DIR`` when set. Every write is one transaction, so a game
killed mid-write leaves the last complete state behind, and the game in
progress is saved after every action.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Record", "Store", "data_directory"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,          -- Settings.kind: 'expert', '20x40/150', 'expert/safe'...
    won INTEGER NOT NULL,
    seconds REAL NOT NULL,
    bbbv INTEGER NOT NULL,
    assisted INTEGER NOT NULL,   -- hints or undo were used: never a best time
    finished REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS saved (
    slot INTEGER PRIMARY KEY CHECK (slot = 1),
    kind TEXT NOT NULL,
    assisted INTEGER NOT NULL,
    game TEXT NOT NULL           -- minesweep.formats game JSON
);
"""


def data_directory() -> Path:
    """``$MINESWEEP_DATA_DIR``, or the platform's user data directory for minesweep."""
    override = os.environ.get("MINESWEEP_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("minesweep", appauthor=False))


@dataclass(frozen=True, slots=True)
class Record:
    """Statistics of one kind of game; assisted games are counted apart."""

    kind: str
    played: int
    won: int
    lost: int
    streak: int  # current run of wins (unassisted and assisted alike)
    best_streak: int
    best_time: float | None  # unassisted wins only
    assisted_played: int


class Store:
    """The SQLite file of the terminal game."""

    def __init__(self, path: Path | None = None) -> None:
        path = path if path is not None else data_directory() / "minesweep.sqlite3"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(str(path))
        with self._db:
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def finish(self, kind: str, *, won: bool, seconds: float, bbbv: int, assisted: bool) -> int:
        """Record a finished game and forget the saved one, in one transaction.

        Returns the record's id, for :meth:`withdraw`.
        """
        with self._db:
            cursor = self._db.execute(
                "INSERT INTO games (kind, won, seconds, bbbv, assisted, finished) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (kind, int(won), seconds, bbbv, int(assisted), time.time()),
            )
            self._db.execute("DELETE FROM saved")
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def withdraw(self, record_id: int) -> None:
        """Forget a finished game's record: the player took its end back with undo.

        The game goes on and is recorded once more, as assisted, when it ends:
        one game, one record.
        """
        with self._db:
            self._db.execute("DELETE FROM games WHERE id = ?", (record_id,))

    def record(self, kind: str) -> Record:
        rows = self._db.execute(
            "SELECT won, seconds, assisted FROM games WHERE kind = ? ORDER BY id", (kind,)
        ).fetchall()
        streak = best_streak = 0
        for won, _, _ in rows:
            streak = streak + 1 if won else 0
            best_streak = max(best_streak, streak)
        unassisted = [(won, seconds) for won, seconds, assisted in rows if not assisted]
        times = [seconds for won, seconds in unassisted if won]
        return Record(
            kind=kind,
            played=len(unassisted),
            won=sum(won for won, _ in unassisted),
            lost=sum(not won for won, _ in unassisted),
            streak=streak,
            best_streak=best_streak,
            best_time=min(times) if times else None,
            assisted_played=len(rows) - len(unassisted),
        )

    def save(self, kind: str, game_json: str, *, assisted: bool) -> None:
        """Save the game in progress (replacing any earlier one)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO saved (slot, kind, assisted, game) VALUES (1, ?, ?, ?)",
                (kind, int(assisted), game_json),
            )

    def saved(self) -> tuple[str, str, bool] | None:
        """The game in progress: (kind, game JSON, assisted), or None."""
        row = self._db.execute("SELECT kind, game, assisted FROM saved WHERE slot = 1").fetchone()
        return (row[0], row[1], bool(row[2])) if row else None

    def discard(self) -> None:
        with self._db:
            self._db.execute("DELETE FROM saved")
