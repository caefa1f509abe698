"""Where the web game keeps its games: SQLite by default, PostgreSQL by URL.

Two tables. ``web_games`` holds one row a game: its secret token (the only
way to act on it), a public id (for replays, once it is ranked), its
settings, the game *before its first action* as minesweep game JSON (with
the field once it is laid; it never leaves the server while the game runs),
the counters a leaderboard reads, and a version. ``web_actions`` holds the
game's actions, one row each, appended and never rewritten, so an action
costs the same whatever the game's length: one small row inserted and one
row's counters updated, in one transaction, only if the game's version is
still the one read (optimistic concurrency: of two racing requests, one
wins and the other retries on the new state or is refused). The row is
written before the response is sent, so an acknowledged action survives
the server being killed.

A game is read back by replaying its actions on its base game; a per-game
cap on actions (:class:`minesweep.web.Limits`) bounds that replay.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    case,
    create_engine,
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine

__all__ = ["Database", "GameRow", "default_url"]

metadata = MetaData()

games = Table(
    "web_games",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("public_id", String(32), nullable=False, unique=True),
    Column("kind", String(32), nullable=False),
    Column("name", String(160)),
    Column("bot", Boolean, nullable=False),
    Column("no_guess", Boolean, nullable=False),
    Column("seeded", Boolean, nullable=False),
    Column("assisted", Boolean, nullable=False),
    # ready, playing, won, lost, or expired (abandoned: no action for too long).
    Column("status", String(16), nullable=False),
    Column("base", Text, nullable=False),
    Column("actions", Integer, nullable=False),
    # The time charged so far, at the last write, and the server's monotonic
    # clock then (with the clock's epoch: which boot of which host).
    Column("elapsed", Float, nullable=False),
    Column("clock_at", Float, nullable=False),
    Column("clock_epoch", String(64), nullable=False),
    Column("seconds", Float),
    Column("bbbv", Integer),
    Column("ranked", Boolean, nullable=False),
    Column("unranked_because", String(200)),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("version", Integer, nullable=False),
    Index("web_games_board", "kind", "ranked", "seconds"),
    Index("web_games_player", "kind", "bot", "name"),
    Index("web_games_age", "status", "updated_at"),
)

actions = Table(
    "web_actions",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("record", Text, nullable=False),
)


@dataclass(frozen=True)
class GameRow:
    token: str
    public_id: str
    kind: str
    name: str | None
    bot: bool
    no_guess: bool
    seeded: bool
    assisted: bool
    status: str
    base: str
    actions: int
    elapsed: float
    clock_at: float
    clock_epoch: str
    seconds: float | None
    bbbv: int | None
    ranked: bool
    unranked_because: str | None
    created_at: float
    updated_at: float
    finished_at: float | None
    version: int


@dataclass(frozen=True)
class PlayerRecord:
    """A name's games of one kind: how many, and how many won without help."""

    name: str
    games: int
    wins: int


def default_url() -> str:
    """A SQLite file under the platform's data directory (``$MINESWEEP_DATA_DIR``)."""
    import os

    override = os.environ.get("MINESWEEP_DATA_DIR")
    if override:
        folder = Path(override)
    else:
        from platformdirs import user_data_dir

        folder = Path(user_data_dir("minesweep", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'web.sqlite3'}"


class Database:
    """The two tables behind one SQLAlchemy engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        options: dict[str, Any] = {}
        if url.startswith("postgresql") and "+" not in url.split(":", 1)[0]:
            url = url.replace("postgresql", "postgresql+psycopg", 1)
        if url.startswith("sqlite"):
            options["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(url, **options)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def insert(self, row: dict[str, Any], now: float) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                games.insert().values(**row, actions=0, version=0, created_at=now, updated_at=now)
            )

    def load(self, token: str) -> GameRow | None:
        with self.engine.connect() as connection:
            found = connection.execute(select(games).where(games.c.token == token)).first()
        return GameRow(**found._mapping) if found is not None else None

    def records(self, token: str, count: int) -> list[str]:
        """The first ``count`` actions of a game, in order."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(actions.c.record)
                .where(actions.c.token == token, actions.c.seq < count)
                .order_by(actions.c.seq)
            ).all()
        return [row[0] for row in rows]

    def store(
        self,
        row: GameRow,
        changes: dict[str, Any],
        *,
        record: str | None = None,
        rewrite: Sequence[str] | None = None,
    ) -> bool:
        """Write ``changes`` (and append ``record``) if the game is still at ``row.version``.

        ``rewrite`` replaces every action instead (after an undo that takes the
        field back). False if another write won the race; nothing is written then.
        """
        count = row.actions + (record is not None)
        if rewrite is not None:
            count = len(rewrite)
        with self.engine.begin() as connection:
            result = connection.execute(
                update(games)
                .where(games.c.token == row.token, games.c.version == row.version)
                .values(**changes, actions=count, version=row.version + 1)
            )
            if result.rowcount != 1:
                return False
            if rewrite is not None:
                connection.execute(delete(actions).where(actions.c.token == row.token))
                if rewrite:
                    connection.execute(
                        actions.insert(),
                        [
                            {"token": row.token, "seq": seq, "record": text}
                            for seq, text in enumerate(rewrite)
                        ],
                    )
            elif record is not None:
                connection.execute(
                    actions.insert().values(token=row.token, seq=row.actions, record=record)
                )
            return True

    def replay(self, public_id: str) -> GameRow | None:
        """A finished, ranked game by its public id."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(games).where(games.c.public_id == public_id, games.c.ranked.is_(True))
            ).first()
        return GameRow(**found._mapping) if found is not None else None

    def leaderboard(self, kind: str, limit: int) -> list[GameRow]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(games)
                .where(games.c.kind == kind, games.c.ranked.is_(True))
                .order_by(games.c.seconds, games.c.finished_at)
                .limit(limit)
            ).all()
        return [GameRow(**row._mapping) for row in rows]

    def players(
        self, kind: str, *, bot: bool, names: Sequence[str] | None = None
    ) -> list[PlayerRecord]:
        """Every named player's unseeded games of ``kind`` (people or bots), and wins.

        A game counts from its creation: one abandoned, or still unfinished,
        counts as a game not won, so leaving a losing game costs what losing it does.
        """
        won = func.sum(
            case((and_(games.c.status == "won", games.c.assisted.is_(False)), 1), else_=0)
        )
        query = (
            select(games.c.name, func.count(), won)
            .where(
                games.c.kind == kind,
                games.c.bot.is_(bot),
                games.c.seeded.is_(False),
                games.c.name.is_not(None),
            )
            .group_by(games.c.name)
        )
        if names is not None:
            query = query.where(games.c.name.in_(list(names)))
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [PlayerRecord(name, int(count), int(wins or 0)) for name, count, wins in rows]

    def expire(self, before: float) -> int:
        """Mark unfinished games untouched since ``before`` expired and drop their actions.

        The condition is checked again as each row is marked, in the same
        transaction as the actions' removal: a game that an action reached in
        the meantime is left alone.
        """
        stale = (games.c.status.in_(("ready", "playing")), games.c.updated_at < before)
        with self.engine.begin() as connection:
            tokens = [row[0] for row in connection.execute(select(games.c.token).where(*stale))]
            expired: list[str] = []
            for start in range(0, len(tokens), 500):
                chunk = tokens[start : start + 500]
                marked = connection.execute(
                    update(games)
                    .where(games.c.token.in_(chunk), *stale)
                    .values(status="expired", actions=0, version=games.c.version + 1)
                    .returning(games.c.token)
                )
                done = [row[0] for row in marked]
                if done:
                    connection.execute(delete(actions).where(actions.c.token.in_(done)))
                expired += done
            return len(expired)

    def dispose(self) -> None:
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _: Any) -> None:
    # WAL lets readers and one writer work at once; FULL sync makes every
    # committed action survive a kill or a power cut.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def wall_clock() -> float:
    """Wall time, for what people read (when a game was made or finished), never for scores."""
    return time.time()
