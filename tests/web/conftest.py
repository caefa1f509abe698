"""Fixtures of the web game's tests: an app on an empty database, through a test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import POSTGRES

try:
    import starlette  # noqa: F401
except ImportError:  # the web extra is not installed: nothing here can run
    collect_ignore_glob = ["test_*.py"]


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A test client of the app on SQLite, and on PostgreSQL when one is configured."""
    from starlette.testclient import TestClient

    from minesweep.web import Limits, create_app

    if request.param == "postgresql":
        if not POSTGRES:
            pytest.skip("set MINESWEEP_TEST_POSTGRES_URL to test against PostgreSQL")
        url = POSTGRES
    else:
        url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    app = create_app(url, limits=Limits(max_rows=40, max_cols=60))
    if request.param == "postgresql":
        # One shared test database: every test starts from an empty table.
        from minesweep.web.db import games

        with app.state.service.db.engine.begin() as connection:
            connection.execute(games.delete())
    with TestClient(app) as test_client:
        yield test_client
    app.state.service.db.dispose()
