"""The OpenAPI description the web game serves (minesweep.web.openapi), against what it serves."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.routing import Mount, Route

#: What the app serves besides the JSON API, which the description leaves out.
PAGE = {("get", "/"), ("get", "/favicon.ico"), ("get", "/openapi.json")}

#: A body each route with one would accept, so that what a request lacks is its token.
BODIES: dict[str, Any] = {
    "/api/games": {"preset": "beginner"},
    "/api/game/actions": {"action": "reveal", "row": 0, "col": 0, "version": 0},
    "/api/game/undo": {"version": 0},
    "/api/game/hint": {},
}


@pytest.fixture
def spec(client: Any) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


def served(client: Any) -> set[tuple[str, str]]:
    """(method, path) of every route the app serves, the path as OpenAPI writes it."""
    operations = set()
    mounts = []
    for route in client.app.routes:
        if isinstance(route, Mount):
            mounts.append(route.path)
            continue
        assert isinstance(route, Route)
        path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
        # Starlette answers HEAD wherever it answers GET.
        operations |= {(method.lower(), path) for method in route.methods or ()} - {("head", path)}
    assert mounts == ["/static"]
    return operations


def test_every_route_served_is_described_and_every_route_described_is_served(
    client: Any, spec: dict[str, Any]
) -> None:
    described = {(method, path) for path, item in spec["paths"].items() for method in item}
    api = served(client) - PAGE
    assert served(client) & PAGE == PAGE
    assert api == described
    assert len(described) == 8


def test_exactly_the_routes_described_as_needing_the_token_refuse_a_request_without_it(
    client: Any, spec: dict[str, Any]
) -> None:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            url = path.replace("{kind}", "beginner").replace("{public_id}", "x" * 16)
            response = client.request(method, url, json=BODIES.get(path))
            secured = "security" in operation
            assert (response.status_code == 401) == secured, (method, path, response.text)
            assert ("401" in operation["responses"]) == secured, (method, path)


def test_the_description_is_plain_json_of_the_models(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    assert schemas["Move"]["required"] == ["row", "col", "version"]
    assert set(schemas["GameState"]["properties"]) >= {"id", "version", "view", "actions"}
    assert schemas["NewGame"]["properties"]["preset"]["anyOf"][0]["enum"] == [
        "beginner",
        "intermediate",
        "expert",
    ]
    json.dumps(spec)  # plain JSON all through
    assert spec["openapi"].startswith("3.")


def test_a_states_version_is_described_as_its_own(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    state = schemas["GameState"]["properties"]["version"]["description"]
    asked = schemas["Move"]["properties"]["version"]["description"]
    assert "made against" in asked
    assert "made against" not in state
    assert "one more after every action" in state
