"""The OpenAPI description the web game serves (minesweep.web.openapi)."""

from __future__ import annotations

from starlette.testclient import TestClient


def test_openapi_describes_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    assert {"/api/games", "/api/game/actions", "/api/leaderboards/{kind}"} <= set(spec["paths"])
