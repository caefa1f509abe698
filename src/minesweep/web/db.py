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

Accounts (:mod:`minesweep.web.accounts`) add two tables. ``web_accounts``
holds one row an account: its name as shown, the two keys its name is
unique by (:func:`minesweep.web.names.name_keys`), its password's argon2id
hash, and whether it is a declared bot. ``web_sessions`` holds the signed-in
sessions and API tokens, by the SHA-256 of their secret (the secret itself
is never stored: a copy of the database signs no one in). A game played
signed in holds its account's id (``web_games.account_id``), not its name:
a rename renames every game, and the leaderboard shows the current name.

``web_traces`` holds the page's own record of a finished game (its mouse
trace, as EVF bytes; :mod:`minesweep.web.trace`), which a win needs to rank.
``web_reviews`` holds operators' decisions on the wins held for review
(:mod:`minesweep.web.review`).

Tables are created when missing (that is the migration of a new table); a
database made before accounts gets the games' ``account_id`` column and its
index added when the server starts, and one made before review its index of
the records held.
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
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
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
    inspect,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

from minesweep.errors import MinesweepError

__all__ = [
    "PENDING_REVIEW",
    "AccountRow",
    "Database",
    "GameRow",
    "NameTakenError",
    "default_url",
]

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
    # The account that played it (None: a guest, or an account since deleted).
    # Last, and without a foreign key: a database made before accounts gets it
    # by ALTER TABLE ... ADD COLUMN, which SQLite allows only so.
    Column("account_id", Integer),
    Index("web_games_board", "kind", "ranked", "seconds"),
    Index("web_games_player", "kind", "bot", "name"),
    Index("web_games_age", "status", "updated_at"),
)

#: The index the win rates are counted by, made apart when an older database
#: gets the column.
games_by_account = Index("web_games_account", games.c.kind, games.c.bot, games.c.account_id)

accounts = Table(
    "web_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(160), nullable=False),
    # SHA-256 hex of the name's skeletons: see minesweep.web.names.name_keys.
    Column("folded_key", String(64), nullable=False, unique=True),
    Column("cased_key", String(64), nullable=False, unique=True),
    # argon2id's PHC string: its parameters, salt and hash.
    Column("password", String(256), nullable=False),
    Column("bot", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    # A deleted account's id is never given again (SQLite reuses the largest
    # rowid otherwise).
    sqlite_autoincrement=True,
)

sessions = Table(
    "web_sessions",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("web_accounts.id"), nullable=False, index=True),
    # "cookie" (the page's, with a CSRF token) or "bearer" (an API client's token).
    Column("kind", String(8), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

#: The page's record of a game (its mouse trace: minesweep.web.trace), as EVF
#: bytes, one row a game at most: sent once, after the end. A table of its
#: own, so that a database made before traces gets it by create_all.
traces = Table(
    "web_traces",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("evf", LargeBinary, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: Operators' decisions on the records held for review (minesweep.web.review):
#: one row a decided record. A record waiting is a game whose
#: ``unranked_because`` is :data:`PENDING_REVIEW` (found by ``games_pending``).
#: A table of its own, so that an older database gets it by create_all.
reviews = Table(
    "web_reviews",
    metadata,
    Column("token", String(64), primary_key=True),
    # "confirmed" or "voided".
    Column("state", String(16), nullable=False),
    Column("reason", String(200)),
    Column("operator_id", Integer),
    Column("decided_at", Float, nullable=False),
)

#: Why a win is not ranked yet: an operator has to confirm it.
PENDING_REVIEW = "pending review"

#: The records held for review, found without reading every game; made apart
#: (as ``games_by_account``) when an older database starts.
games_pending = Index("web_games_pending", games.c.unranked_because, games.c.kind)

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
    account_id: int | None = None


@dataclass(frozen=True)
class PlayerRecord:
    """An account's games of one kind: how many, and how many won without help."""

    name: str
    games: int
    wins: int
    account: int = 0


@dataclass(frozen=True)
class AccountRow:
    id: int
    name: str
    folded_key: str
    cased_key: str
    password: str
    bot: bool
    created_at: float


@dataclass(frozen=True)
class SessionRow:
    digest: str
    account_id: int
    kind: str
    created_at: float
    expires_at: float


class NameTakenError(MinesweepError):
    """Another account holds a name with the same key (its skeleton): the insert lost."""


def default_url() -> str:
    """A SQLite file under the platform's data directory (``$MINESWEEP_DATA_DIR``).

    A folder that cannot be made is a StorageError naming it.
    """
    from .._data import made_data_directory

    return f"sqlite:///{made_data_directory() / 'web.sqlite3'}"


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
        try:
            metadata.create_all(self.engine)
            _add_account_column(self.engine)
            if url.startswith("sqlite"):
                # A file with its tables takes the above without a write:
                # this one writes, so that a read-only file is found at the
                # start, not at the first player's move.
                with self.engine.begin() as connection:
                    version = connection.exec_driver_sql("PRAGMA user_version").scalar()
                    connection.exec_driver_sql(f"PRAGMA user_version = {int(version or 0)}")
        except OperationalError as error:
            # A SQLite file the disk refuses (read-only, a folder not ours,
            # a full disk) is the user's environment: one line naming it.
            file = self.engine.url.database if url.startswith("sqlite") else None
            if not file or file == ":memory:":
                raise
            from .._data import unusable

            raise unusable(Path(file), error.orig or error) from error

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

    def leaderboard(self, kind: str, limit: int, *, by: str = "time") -> list[GameRow]:
        """The best ranked wins of ``kind``: the fastest ("time"), or the highest 3BV/s
        ("bbbv_per_second"); ties go to the earlier finish."""
        order: list[Any]
        if by == "time":
            order = [games.c.seconds]
        else:
            # 1.0 * makes the division a float's in PostgreSQL as in SQLite.
            order = [(games.c.bbbv * 1.0 / games.c.seconds).desc(), games.c.seconds]
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(games)
                .where(games.c.kind == kind, games.c.ranked.is_(True), games.c.seconds > 0)
                .order_by(*order, games.c.finished_at)
                .limit(limit)
            ).all()
        return [GameRow(**row._mapping) for row in rows]

    def trace(self, token: str) -> bytes | None:
        """The page's record of game ``token``, as EVF bytes, if it sent one."""
        with self.engine.connect() as connection:
            found = connection.execute(select(traces.c.evf).where(traces.c.token == token)).first()
        return None if found is None else bytes(found[0])

    def add_trace(self, row: GameRow, evf: bytes, changes: dict[str, Any], now: float) -> bool:
        """Keep a game's trace and write ``changes`` (its ranking), if the game is still at
        ``row.version`` and has no trace yet; False (nothing written) otherwise."""
        try:
            with self.engine.begin() as connection:
                result = connection.execute(
                    update(games)
                    .where(games.c.token == row.token, games.c.version == row.version)
                    .values(**changes, version=row.version + 1)
                )
                if result.rowcount != 1:
                    return False
                connection.execute(traces.insert().values(token=row.token, evf=evf, created_at=now))
        except IntegrityError:
            return False
        return True

    def players(
        self, kind: str, *, bot: bool, accounts_in: Sequence[int] | None = None
    ) -> list[PlayerRecord]:
        """Every account's unseeded games of ``kind`` (people's or bots'), and wins.

        Only accounts' games count: a guest's game has no one to count for, so
        no one's win rate can be lowered by games played under their name. A
        game counts from its creation: one abandoned, or still unfinished,
        counts as a game not won, so leaving a losing game costs what losing it does.
        """
        won = func.sum(
            case((and_(games.c.status == "won", games.c.assisted.is_(False)), 1), else_=0)
        )
        query = (
            select(games.c.account_id, accounts.c.name, func.count(), won)
            .join(accounts, accounts.c.id == games.c.account_id)
            .where(
                games.c.kind == kind,
                games.c.bot.is_(bot),
                games.c.seeded.is_(False),
            )
            .group_by(games.c.account_id, accounts.c.name)
        )
        if accounts_in is not None:
            query = query.where(games.c.account_id.in_(list(accounts_in)))
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            PlayerRecord(name, int(count), int(wins or 0), account=int(account))
            for account, name, count, wins in rows
        ]

    # --- accounts ------------------------------------------------------------------------

    def add_account(self, row: dict[str, Any]) -> AccountRow:
        """A new account; NameTakenError if another holds either of its name's keys."""
        try:
            with self.engine.begin() as connection:
                result = connection.execute(accounts.insert().values(**row))
                key = result.inserted_primary_key
                assert key is not None
                account_id = key[0]
        except IntegrityError:
            raise NameTakenError(row["name"]) from None
        return AccountRow(id=int(account_id), **row)

    def account(self, account_id: int) -> AccountRow | None:
        with self.engine.connect() as connection:
            found = connection.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return AccountRow(**found._mapping) if found is not None else None

    def account_by_keys(self, folded: str, cased: str | None = None) -> AccountRow | None:
        """The account whose name has the key ``folded`` (or, when given, ``cased``)."""
        condition = accounts.c.folded_key == folded
        if cased is not None:
            condition = condition | (accounts.c.cased_key == cased)
        with self.engine.connect() as connection:
            found = connection.execute(select(accounts).where(condition).limit(1)).first()
        return AccountRow(**found._mapping) if found is not None else None

    def account_names(self, ids: Sequence[int]) -> dict[int, str]:
        """The current names of the accounts ``ids`` names (those that still exist)."""
        if not ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(list(ids)))
            ).all()
        return {int(account_id): name for account_id, name in rows}

    def update_account(self, account_id: int, **changes: Any) -> None:
        """Change an account's row; NameTakenError when a new name's key is another's."""
        try:
            with self.engine.begin() as connection:
                connection.execute(
                    update(accounts).where(accounts.c.id == account_id).values(**changes)
                )
        except IntegrityError:
            raise NameTakenError(changes.get("name", "")) from None

    def change_password(self, account_id: int, password: str, keep: str | None) -> None:
        """A new password hash, and every session of the account but ``keep`` ended."""
        with self.engine.begin() as connection:
            connection.execute(
                update(accounts).where(accounts.c.id == account_id).values(password=password)
            )
            ended = delete(sessions).where(sessions.c.account_id == account_id)
            if keep is not None:
                ended = ended.where(sessions.c.digest != keep)
            connection.execute(ended)

    def delete_account(self, account_id: int) -> None:
        """The account gone with its sessions and its unranked games; its ranked games
        stay, anonymised (no account, no name), so the leaderboards keep their ranks."""
        mine = games.c.account_id == account_id
        with self.engine.begin() as connection:
            connection.execute(delete(sessions).where(sessions.c.account_id == account_id))
            tokens = [
                row[0]
                for row in connection.execute(
                    select(games.c.token).where(mine, games.c.ranked.is_(False))
                )
            ]
            for start in range(0, len(tokens), 500):
                chunk = tokens[start : start + 500]
                connection.execute(delete(actions).where(actions.c.token.in_(chunk)))
                connection.execute(delete(traces).where(traces.c.token.in_(chunk)))
                connection.execute(delete(reviews).where(reviews.c.token.in_(chunk)))
                connection.execute(delete(games).where(games.c.token.in_(chunk)))
            connection.execute(update(games).where(mine).values(account_id=None, name=None))
            connection.execute(delete(accounts).where(accounts.c.id == account_id))

    def add_session(self, row: dict[str, Any]) -> None:
        with self.engine.begin() as connection:
            connection.execute(sessions.insert().values(**row))

    def session(self, digest: str, now: float) -> tuple[SessionRow, AccountRow] | None:
        """The unexpired session ``digest`` names, with its account."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(sessions, accounts)
                .join(accounts, accounts.c.id == sessions.c.account_id)
                .where(sessions.c.digest == digest, sessions.c.expires_at > now)
            ).first()
        if found is None:
            return None
        values = found._mapping
        session = SessionRow(**{column.name: values[column] for column in sessions.c})
        account = AccountRow(**{column.name: values[column] for column in accounts.c})
        return session, account

    def end_session(self, digest: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(sessions).where(sessions.c.digest == digest))

    def end_expired_sessions(self, now: float) -> int:
        with self.engine.begin() as connection:
            result = connection.execute(delete(sessions).where(sessions.c.expires_at <= now))
        return int(result.rowcount or 0)

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


def _add_account_column(engine: Engine) -> None:
    """Give a database made before accounts its games' ``account_id`` column and index.

    Servers starting at once on one database may race here: whichever adds
    the column second is refused, finds it there, and goes on.
    """

    def has_column() -> bool:
        columns = inspect(engine).get_columns("web_games")
        return "account_id" in {column["name"] for column in columns}

    if not has_column():
        try:
            with engine.begin() as connection:
                connection.exec_driver_sql("ALTER TABLE web_games ADD COLUMN account_id INTEGER")
        except (OperationalError, ProgrammingError):
            if not has_column():
                raise
    # Every start: a server stopped between the two steps left the column alone.
    # (And an older database gets the index of the records held for review.)
    for index in (games_by_account, games_pending):
        try:
            with engine.begin() as connection:
                index.create(connection, checkfirst=True)
        except (OperationalError, ProgrammingError):
            indexes = {found["name"] for found in inspect(engine).get_indexes("web_games")}
            if index.name not in indexes:
                raise


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
