"""Where the web game keeps its games: SQLite by default, PostgreSQL by URL.

One table holds every game: its secret token (the only way to act on it), a
public id (for replays and leaderboards, once it is over), the whole game as
minesweep game JSON (mines included: it never leaves the server while the
game runs), and a version. Every action is one transaction that updates the
row only if its version is still the one read (optimistic concurrency): two
requests racing on a game cannot both win, and the loser retries on the new
state. A row is written before the response is sent, so an acknowledged
action survives the server being killed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine

__all__ = ["Database", "GameRow", "default_url"]

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("public_id", String(32), nullable=False, unique=True),
    Column("kind", String(32), nullable=False),
    Column("name", String(40)),
    Column("no_guess", Boolean, nullable=False),
    Column("seeded", Boolean, nullable=False),
    Column("assisted", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("game", Text, nullable=False),
    Column("started_at", Float),
    Column("seconds", Float),
    Column("bbbv", Integer),
    Column("ranked", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("version", Integer, nullable=False),
)


@dataclass(frozen=True)
class GameRow:
    token: str
    public_id: str
    kind: str
    name: str | None
    no_guess: bool
    seeded: bool
    assisted: bool
    status: str
    game: str
    started_at: float | None
    seconds: float | None
    bbbv: int | None
    ranked: bool
    created_at: float
    finished_at: float | None
    version: int


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
    """The games table behind one SQLAlchemy engine."""

    def __init__(self, url: str) -> None:
        self.url = url
        options: dict[str, Any] = {"future": True}
        if url.startswith("postgresql") and "+" not in url.split(":", 1)[0]:
            url = url.replace("postgresql", "postgresql+psycopg", 1)
        if url.startswith("sqlite"):
            options["connect_args"] = {"timeout": 30, "check_same_thread": False}
        self.engine: Engine = create_engine(url, **options)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)

    def insert(self, row: dict[str, Any]) -> None:
        with self.engine.begin() as connection:
            connection.execute(games.insert().values(**row, version=0, created_at=time.time()))

    def load(self, token: str) -> GameRow | None:
        with self.engine.connect() as connection:
            found = connection.execute(select(games).where(games.c.token == token)).first()
        return GameRow(**found._mapping) if found is not None else None

    def store(self, token: str, version: int, changes: dict[str, Any]) -> bool:
        """Write ``changes`` if the row is still at ``version``; False if another write won."""
        with self.engine.begin() as connection:
            result = connection.execute(
                update(games)
                .where(games.c.token == token, games.c.version == version)
                .values(**changes, version=version + 1)
            )
            return result.rowcount == 1

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
