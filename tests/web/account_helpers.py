"""What the accounts' tests share: clients, the database's rows, signing in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from starlette.testclient import TestClient

from .helpers import PASSWORD, auth

__all__ = ["OPEN", "MakeClient", "account_token_for", "another", "count", "rows", "sign_in"]


MakeClient = Callable[..., Any]
OPEN: dict[str, Any] = {
    "create_rate": None,
    "action_rate": None,
    "human_limits": None,
    "require_review": False,
}


def rows(client: Any, table: Any, *where: Any) -> list[Any]:
    """The rows of ``table`` (where ``where`` holds), straight from the database."""
    with client.app.state.service.db.engine.connect() as connection:
        return list(connection.execute(select(table).where(*where)).all())


def count(client: Any, table: Any) -> int:
    with client.app.state.service.db.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar() or 0)


def sign_in(client: Any, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def another(browser: Any, **options: Any) -> TestClient:
    """A second browser on the same app as ``browser`` (its own cookies). Not entered as a
    context: that would run the app's lifespan, whose end stops the no-guess pool."""
    return TestClient(browser.app, **options)


def account_token_for(client: Any, name: str, password: str = PASSWORD) -> dict[str, str]:
    """An account token's Authorization header, made by signing in as ``name``."""
    answer = client.post("/api/tokens", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return auth(answer.json()["token"])
