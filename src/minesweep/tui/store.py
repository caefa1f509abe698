"""Where the terminal game keeps what outlives it: statistics, best times, games in progress.

One SQLite file under the platform's data directory (``platformdirs``), or
``$MINESWEEP_DATA_DIR`` when set. Every write is one transaction, so a game
killed mid-write leaves the last complete state behind.

A game in progress is kept per kind of game (one expert, one beginner, one
20x40/150...), as a game log (:mod:`minesweep.tui.saves` writes and reads
it): its base, then its records, appended one row each as they are played.
The base, as long as the board is large, has a table of its own, written only
when it changes: SQLite writes a row whole, and the game's row (its count of
actions, its time) changes at every action, so that saving an action costs
the same on a 10,000x10,000 board as on beginner.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Record", "Saved", "Store", "data_directory"]

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
CREATE TABLE IF NOT EXISTS saved_games (
    kind TEXT PRIMARY KEY,
    header TEXT NOT NULL,        -- '': the base is in saved_bases; else a save of before's header
    assisted INTEGER NOT NULL,
    actions INTEGER NOT NULL,    -- rows in saved_actions
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS saved_actions (
    kind TEXT NOT NULL,
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,        -- a history record: an action and its time, or an undo
    PRIMARY KEY (kind, seq)
);
CREATE TABLE IF NOT EXISTS saved_bases (
    kind TEXT PRIMARY KEY,
    base TEXT NOT NULL           -- the game log's base: game JSON before the first action
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
    streak: int  # current run of unassisted wins (assisted games neither extend nor break it)
    best_streak: int
    best_time: float | None  # unassisted wins only
    assisted_played: int
    assisted_won: int


@dataclass(frozen=True, slots=True)
class Saved:
    """A game in progress: its log's base, its records in order, and whether it was helped.

    A save written before the logs has its header for a base.
    """

    kind: str
    base: str
    records: list[str]
    assisted: bool


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

    def finish(self, kind: str, *, won: bool, seconds: float, bbbv: int, assisted: bool) -> None:
        """Record a finished game and forget the saved one, in one transaction.

        An ended game stands (:func:`minesweep.frontend.undo` refuses to take
        it back): it is recorded once.
        """
        with self._db:
            self._db.execute(
                "INSERT INTO games (kind, won, seconds, bbbv, assisted, finished) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (kind, int(won), seconds, bbbv, int(assisted), time.time()),
            )
            self._forget(kind)

    def record(self, kind: str) -> Record:
        rows = self._db.execute(
            "SELECT won, seconds, assisted FROM games WHERE kind = ? ORDER BY id", (kind,)
        ).fetchall()
        unassisted = [(won, seconds) for won, seconds, assisted in rows if not assisted]
        # Streaks, like the counts and times beside them, are of unassisted
        # games: an assisted win is counted apart and does not extend one.
        streak = best_streak = 0
        for won, _ in unassisted:
            streak = streak + 1 if won else 0
            best_streak = max(best_streak, streak)
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
            assisted_won=sum(won for won, _, assisted in rows if assisted),
        )

    def begin(self, kind: str, base: str, *, assisted: bool = False) -> None:
        """Start the saved game of ``kind`` afresh on ``base`` (replacing any of that kind)."""
        self.rewrite(kind, base, [], assisted=assisted)

    def rewrite(self, kind: str, base: str, records: list[str], *, assisted: bool) -> None:
        """Replace the saved game of ``kind`` by ``base`` and ``records``, in one transaction."""
        with self._db:
            self._db.execute("DELETE FROM saved_actions WHERE kind = ?", (kind,))
            self._db.execute(
                "INSERT OR REPLACE INTO saved_games (kind, header, assisted, actions, updated) "
                "VALUES (?, '', ?, ?, ?)",
                (kind, int(assisted), len(records), time.time()),
            )
            self._db.execute(
                "INSERT OR REPLACE INTO saved_bases (kind, base) VALUES (?, ?)", (kind, base)
            )
            self._db.executemany(
                "INSERT INTO saved_actions (kind, seq, record) VALUES (?, ?, ?)",
                [(kind, seq, record) for seq, record in enumerate(records)],
            )

    def append(self, kind: str, record: str, *, assisted: bool) -> None:
        """Add one action record to the saved game of ``kind`` (which :meth:`begin` started)."""
        with self._db:
            row = self._db.execute(
                "SELECT actions FROM saved_games WHERE kind = ?", (kind,)
            ).fetchone()
            if row is None:
                raise LookupError(f"no saved game of kind {kind!r} to add to")
            self._db.execute(
                "INSERT INTO saved_actions (kind, seq, record) VALUES (?, ?, ?)",
                (kind, row[0], record),
            )
            self._db.execute(
                "UPDATE saved_games SET actions = actions + 1, assisted = ?, updated = ? "
                "WHERE kind = ?",
                (int(assisted), time.time(), kind),
            )

    def mark_assisted(self, kind: str) -> None:
        """The saved game of ``kind`` had help (a hint, the overlay) without a new action."""
        with self._db:
            self._db.execute("UPDATE saved_games SET assisted = 1 WHERE kind = ?", (kind,))

    def saved(self, kind: str) -> Saved | None:
        """The game in progress of ``kind``, or None."""
        row = self._db.execute(
            "SELECT COALESCE(base, header), assisted FROM saved_games "
            "LEFT JOIN saved_bases USING (kind) WHERE kind = ?",
            (kind,),
        ).fetchone()
        if row is None:
            return None
        records = [
            text
            for (text,) in self._db.execute(
                "SELECT record FROM saved_actions WHERE kind = ? ORDER BY seq", (kind,)
            )
        ]
        return Saved(kind, row[0], records, bool(row[1]))

    def saved_kinds(self) -> list[tuple[str, int]]:
        """Every kind with a game in progress, and how many actions it holds, latest first."""
        return [
            (kind, actions)
            for kind, actions in self._db.execute(
                "SELECT kind, actions FROM saved_games ORDER BY updated DESC, kind"
            )
        ]

    def discard(self, kind: str) -> None:
        """Forget the saved game of ``kind``."""
        with self._db:
            self._forget(kind)

    def _forget(self, kind: str) -> None:
        for table in ("saved_actions", "saved_bases", "saved_games"):
            self._db.execute(f"DELETE FROM {table} WHERE kind = ?", (kind,))
