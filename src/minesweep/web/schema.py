"""The web game's tables, their indexes, and what an older database is given at start.

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
(:mod:`minesweep.web.review`). ``web_styles`` holds how each win whose
record passed was played (:mod:`minesweep.web.style`), by account, which
flags for review an account that plays like a program.

Tables are created when missing (that is the migration of a new table); a
database made before accounts gets the games' ``account_id`` column and its
index added when the server starts (:func:`migrate`), and one made before
review its index of the records held. :mod:`minesweep.web.db` reads and
writes them.
"""

from __future__ import annotations

import re
from typing import Any, Final

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
    inspect,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError, ProgrammingError

__all__ = [
    "PENDING_REVIEW",
    "TOKEN",
    "accounts",
    "actions",
    "games",
    "games_by_account",
    "games_pending",
    "metadata",
    "migrate",
    "reviews",
    "sessions",
    "sqlite_pragmas",
    "styles",
    "traces",
]

#: A game's token and its public id: what secrets.token_urlsafe makes. An id
#: of any other shape names no row (and is never sent to the database, which
#: may refuse its characters: PostgreSQL refuses NUL in text).
TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")

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

#: How each win whose record passed the trace check was played
#: (minesweep.web.style.GameStyle), one row a game, by its account: what an
#: account's flag for review is read from. A table of its own, so that an
#: older database gets it by create_all.
styles = Table(
    "web_styles",
    metadata,
    Column("token", String(64), primary_key=True),
    Column("account_id", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("guesses", Integer, nullable=False),
    Column("poor_guesses", Integer, nullable=False),
    Column("wasted", Integer, nullable=False),
    Column("misflags", Integer, nullable=False),
    Column("speed", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("web_styles_account", "account_id", "created_at"),
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


def migrate(engine: Engine) -> None:
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


def sqlite_pragmas(connection: Any, _: Any) -> None:
    """What every SQLite connection is set to when it opens."""
    # WAL lets readers and one writer work at once; FULL sync makes every
    # committed action survive a kill or a power cut.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
