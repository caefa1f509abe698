"""Where the web game keeps its games: SQLite by default, PostgreSQL by URL.

The tables are :mod:`minesweep.web.schema`'s. An action costs the same
whatever the game's length: one small row inserted into ``web_actions`` and
one row's counters updated in ``web_games``, in one transaction, only if the
game's version is still the one read (optimistic concurrency: of two racing
requests, one wins and the other retries on the new state or is refused).
The row is written before the response is sent, so an acknowledged action
survives the server being killed. A game is read back by replaying its
actions on its base game; a per-game cap on actions
(:class:`minesweep.web.Limits`) bounds that replay.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import and_, case, create_engine, delete, event, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from minesweep.errors import MinesweepError

from .schema import (
    accounts,
    actions,
    games,
    metadata,
    migrate,
    reviews,
    sessions,
    sqlite_pragmas,
    styles,
    traces,
)

__all__ = [
    "AccountRow",
    "Database",
    "GameRow",
    "NameTakenError",
    "default_url",
]


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
    from ..storage import made_data_directory

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
            event.listen(self.engine, "connect", sqlite_pragmas)
        try:
            metadata.create_all(self.engine)
            migrate(self.engine)
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
            from ..storage import unusable

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

    def add_trace(
        self,
        row: GameRow,
        evf: bytes,
        changes: dict[str, Any],
        now: float,
        style: dict[str, Any] | None = None,
    ) -> bool:
        """Keep a game's trace and write ``changes`` (its ranking), and ``style`` (how it
        was played: :data:`minesweep.web.schema.styles`' columns but the token, account and
        time) for a game of an account, if the game is still at ``row.version`` and has no
        trace yet; False (nothing written) otherwise."""
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
                if style is not None and row.account_id is not None:
                    connection.execute(
                        styles.insert().values(
                            **style, token=row.token, account_id=row.account_id, created_at=now
                        )
                    )
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
            # How the account played is the account's: it goes with it.
            connection.execute(delete(styles).where(styles.c.account_id == account_id))
            connection.execute(update(games).where(mine).values(account_id=None, name=None))
            connection.execute(delete(accounts).where(accounts.c.id == account_id))

    def styles(self, account_ids: list[int], limit: int) -> dict[int, list[dict[str, Any]]]:
        """How each of ``account_ids``' latest ``limit`` wins (of each board, at least)
        were played, newest first: :data:`minesweep.web.schema.styles`' rows as dicts."""
        found: dict[int, list[dict[str, Any]]] = {key: [] for key in account_ids}
        if not account_ids:
            return found
        with self.engine.connect() as connection:
            for account_id in account_ids:
                kinds = connection.execute(
                    select(styles.c.kind).where(styles.c.account_id == account_id).distinct()
                ).all()
                for (kind,) in kinds:
                    rows = connection.execute(
                        select(styles)
                        .where(styles.c.account_id == account_id, styles.c.kind == kind)
                        .order_by(styles.c.created_at.desc(), styles.c.token)
                        .limit(limit)
                    ).all()
                    found[account_id] += [dict(row._mapping) for row in rows]
        return found

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


def wall_clock() -> float:
    """Wall time, for what people read (when a game was made or finished), never for scores."""
    return time.time()
