"""Where the terminal game keeps what outlives it: statistics, best times, games in progress.

One SQLite file under the platform's data directory (``platformdirs``), or
``$MINESWEEP_DATA_DIR`` when set. Every write is one transaction, so a game
killed mid-write leaves the last complete state behind.

A game in progress is kept per kind of game (one expert, one beginner, one
20x40/150...), as a game log (:mod:`minesweep.tui.saves` writes and reads
it): its base, then its records, appended one row each as they are played.
The base, as long as the board is large, has a table of its own, written only
when it changes: SQLite writes a row whole, and the game's row (its count of
actions, its elapsed seconds) changes at every action, so that saving an
action costs the same on a 10,000x10,000 board as on beginner.

The game's elapsed seconds are kept beside its log, as the web game keeps
them: the log's times end at the last action, and the clock ran on after it
(to a quit, or to a kill after the last write).

Columns added since the first version of the file (``games.seeded``,
``saved_games.elapsed`` and ``saved_games.seeded``) are added to a file
that lacks them when it is opened; NULL in them means "not known".
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..storage import data_directory, unusable

__all__ = ["Record", "Saved", "Store", "data_directory"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,          -- Settings.kind: 'expert', '20x40/150', 'expert/safe'...
    won INTEGER NOT NULL,
    seconds REAL NOT NULL,
    bbbv INTEGER NOT NULL,
    assisted INTEGER NOT NULL,   -- hints or undo were used: never a best time
    finished REAL NOT NULL,
    seeded INTEGER NOT NULL DEFAULT 0  -- a seed the player chose: a known field, apart
);
CREATE TABLE IF NOT EXISTS saved_games (
    kind TEXT PRIMARY KEY,
    header TEXT NOT NULL,        -- '': the base is in saved_bases; else a save of before's header
    assisted INTEGER NOT NULL,
    actions INTEGER NOT NULL,    -- rows in saved_actions
    updated REAL NOT NULL,
    elapsed REAL,                -- the game's seconds at the last write (NULL: not known)
    seeded INTEGER               -- a seed the player chose (NULL: not known)
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

#: Columns a file written by an earlier version lacks: (table, column, declaration).
_ADDED_COLUMNS = [
    ("games", "seeded", "INTEGER NOT NULL DEFAULT 0"),
    ("saved_games", "elapsed", "REAL"),
    ("saved_games", "seeded", "INTEGER"),
]


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
    # Games on a seed the player chose (a known field): apart, assisted or not.
    seeded_played: int = 0
    seeded_won: int = 0


@dataclass(frozen=True, slots=True)
class Saved:
    """A game in progress: its log's base, its records in order, and whether it was helped.

    A save written before the logs has its header for a base. ``elapsed``
    is the game's seconds at the last write and ``seeded`` whether the
    player chose its seed; None where the save does not say (an older one).
    """

    kind: str
    base: str
    records: list[str]
    assisted: bool
    elapsed: float | None = None
    seeded: bool | None = None


class Store:
    """The SQLite file of the terminal game."""

    def __init__(self, path: Path | None = None) -> None:
        path = path if path is not None else data_directory() / "minesweep.sqlite3"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise unusable(path.parent, error, folder=True) from error
        self.path = path
        try:
            self._db = sqlite3.connect(str(path))
        except sqlite3.Error as error:
            raise unusable(path, error) from error
        with self._writing():
            self._db.executescript(_SCHEMA)
            for table, column, declaration in _ADDED_COLUMNS:
                present = {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in present:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
            # A file that exists already takes the statements above without a
            # write: this one writes, so that a read-only database is found
            # now, not at the first move of a game.
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            self._db.execute(f"PRAGMA user_version = {int(version)}")

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One transaction; a write the file or the disk refuses is a StorageError naming it."""
        try:
            with self._db:
                yield
        except sqlite3.IntegrityError:
            raise  # a bug of ours, not the user's file
        except (sqlite3.DatabaseError, OSError) as error:
            # Read-only, a full disk, or no database at all (another program's file).
            raise unusable(self.path, error) from error

    def close(self) -> None:
        self._db.close()

    def finish(
        self,
        kind: str,
        *,
        won: bool,
        seconds: float,
        bbbv: int,
        assisted: bool,
        seeded: bool = False,
    ) -> None:
        """Record a finished game and forget the saved one, in one transaction.

        An ended game stands (:func:`minesweep.frontend.undo` refuses to take
        it back): it is recorded once. An abandoned game is recorded as a loss.
        """
        with self._writing():
            self._db.execute(
                "INSERT INTO games (kind, won, seconds, bbbv, assisted, finished, seeded) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (kind, int(won), seconds, bbbv, int(assisted), time.time(), int(seeded)),
            )
            self._forget(kind)

    def record(self, kind: str) -> Record:
        everything = self._db.execute(
            "SELECT won, seconds, assisted, seeded FROM games WHERE kind = ? ORDER BY id", (kind,)
        ).fetchall()
        # A seeded game's field is known beforehand (the player chose it): its
        # games are counted apart from the rest, as the web game keeps them
        # off its leaderboards.
        seeded = [won for won, _, _, is_seeded in everything if is_seeded]
        rows = [(won, seconds, assisted) for won, seconds, assisted, s in everything if not s]
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
            seeded_played=len(seeded),
            seeded_won=sum(seeded),
        )

    def begin(
        self, kind: str, base: str, *, assisted: bool = False, seeded: bool | None = None
    ) -> None:
        """Start the saved game of ``kind`` afresh on ``base`` (replacing any of that kind)."""
        self.rewrite(kind, base, [], assisted=assisted, seeded=seeded)

    def rewrite(
        self,
        kind: str,
        base: str,
        records: list[str],
        *,
        assisted: bool,
        elapsed: float | None = None,
        seeded: bool | None = None,
    ) -> None:
        """Replace the saved game of ``kind`` by ``base`` and ``records``, in one transaction."""
        with self._writing():
            self._db.execute("DELETE FROM saved_actions WHERE kind = ?", (kind,))
            self._db.execute(
                "INSERT OR REPLACE INTO saved_games "
                "(kind, header, assisted, actions, updated, elapsed, seeded) "
                "VALUES (?, '', ?, ?, ?, ?, ?)",
                (
                    kind,
                    int(assisted),
                    len(records),
                    time.time(),
                    elapsed,
                    None if seeded is None else int(seeded),
                ),
            )
            self._db.execute(
                "INSERT OR REPLACE INTO saved_bases (kind, base) VALUES (?, ?)", (kind, base)
            )
            self._db.executemany(
                "INSERT INTO saved_actions (kind, seq, record) VALUES (?, ?, ?)",
                [(kind, seq, record) for seq, record in enumerate(records)],
            )

    def append(
        self, kind: str, record: str, *, assisted: bool, elapsed: float | None = None
    ) -> None:
        """Add one action record to the saved game of ``kind`` (which :meth:`begin` started).

        ``elapsed``, the game's seconds now, is kept with it (None keeps the one there).
        """
        with self._writing():
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
                "UPDATE saved_games SET actions = actions + 1, assisted = ?, updated = ?, "
                "elapsed = COALESCE(?, elapsed) WHERE kind = ?",
                (int(assisted), time.time(), elapsed, kind),
            )

    def set_elapsed(self, kind: str, elapsed: float) -> None:
        """The saved game of ``kind`` has run ``elapsed`` seconds (at a quit, a pause, a tick)."""
        with self._writing():
            self._db.execute("UPDATE saved_games SET elapsed = ? WHERE kind = ?", (elapsed, kind))

    def mark_assisted(self, kind: str) -> None:
        """The saved game of ``kind`` had help (a hint, the overlay) without a new action."""
        with self._writing():
            self._db.execute("UPDATE saved_games SET assisted = 1 WHERE kind = ?", (kind,))

    def saved(self, kind: str) -> Saved | None:
        """The game in progress of ``kind``, or None."""
        row = self._db.execute(
            "SELECT COALESCE(base, header), assisted, elapsed, seeded FROM saved_games "
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
        seeded = None if row[3] is None else bool(row[3])
        return Saved(kind, row[0], records, bool(row[1]), row[2], seeded)

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
        with self._writing():
            self._forget(kind)

    def _forget(self, kind: str) -> None:
        for table in ("saved_actions", "saved_bases", "saved_games"):
            self._db.execute(f"DELETE FROM {table} WHERE kind = ?", (kind,))
