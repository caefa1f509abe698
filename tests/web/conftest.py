"""Fixtures of the web game's tests: an app on an empty database, through a test client."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import POSTGRES

try:
    import starlette  # noqa: F401
except ImportError:  # the web extra is not installed: nothing here can run
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database: a SQLite file, and PostgreSQL when one is configured."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite3'}"
    if not POSTGRES:
        pytest.skip("set MINESWEEP_TEST_POSTGRES_URL to test against PostgreSQL")
    # One shared test database: every test starts from empty tables.
    from minesweep.web.db import Database
    from minesweep.web.schema import accounts, actions, games, reviews, sessions, styles, traces

    database = Database(POSTGRES)
    with database.engine.begin() as connection:
        connection.execute(traces.delete())
        connection.execute(styles.delete())
        connection.execute(reviews.delete())
        connection.execute(games.delete())
        connection.execute(actions.delete())
        connection.execute(sessions.delete())
        connection.execute(accounts.delete())
    database.dispose()
    return POSTGRES


@pytest.fixture
def make_client(database_url: str) -> Iterator[Callable[..., Any]]:
    """Test clients of apps on the database; keywords go to the app (``limits=``...).

    Passwords are hashed with argon2's cheapest parameters unless a test says
    otherwise (``accounts=``): the real ones take a fifth of a second a hash.
    """
    from starlette.testclient import TestClient

    from minesweep.web import create_app

    from .helpers import CHEAP_ACCOUNTS

    opened: list[Any] = []

    def make(**options: Any) -> Any:
        options.setdefault("accounts", CHEAP_ACCOUNTS)
        app = create_app(database_url, **options)
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)
        client.app.state.service.db.dispose()


@pytest.fixture
def client(make_client: Callable[..., Any]) -> Any:
    """A test client with no rate limit, no human speed limit and no need of the page's
    record of a game to rank: tests act faster than people, with no mouse; tests
    of their own check those limits (test_trace.py the record)."""
    from minesweep.web import Limits

    return make_client(
        limits=Limits(
            max_rows=40,
            max_cols=60,
            create_rate=None,
            action_rate=None,
            human_limits=None,
            require_trace=False,
            require_review=False,
        )
    )
