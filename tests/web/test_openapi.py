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
    "/api/game/hint": {"version": 0},
    "/api/account/password": {"password": "correct horse", "new_password": "battery staple"},
    "/api/account/name": {"name": "ada"},
    "/api/account": {"password": "correct horse"},
    "/api/game/trace": {"cell_px": 16, "events": [[0, "mv", 1, 1]]},
    "/api/reviews/{public_id}": {"verdict": "confirm"},
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
    assert len(described) == 24


def test_exactly_the_routes_described_as_needing_the_token_refuse_a_request_without_it(
    client: Any, spec: dict[str, Any]
) -> None:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            url = path.replace("{kind}", "beginner").replace("{public_id}", "x" * 16)
            response = client.request(method, url, json=BODIES.get(path))
            # {} among the alternatives: a guest may call the route too.
            security = operation.get("security", [])
            secured = bool(security) and {} not in security
            assert (response.status_code == 401) == secured, (method, path, response.text)
            # A route that may be signed in answers 401 for a session that has ended,
            # and signing in for a wrong password.
            assert ("401" in operation["responses"]) == bool(security), (method, path)


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


def _url(path: str) -> str:
    return path.replace("{kind}", "beginner").replace("{public_id}", "x" * 16)


def test_every_body_route_refuses_a_body_too_large_or_not_json_as_described(
    client: Any, spec: dict[str, Any]
) -> None:
    from minesweep.web import Limits

    token = client.post("/api/games", json={"preset": "beginner"}).json()["id"]
    headers = {"Authorization": f"Bearer {token}"}
    routes = [(p, m, o) for p, item in spec["paths"].items() for m, o in item.items()]
    files = 0
    for path, method, operation in routes:
        if "requestBody" not in operation:
            assert not {"400", "413", "415"} & set(operation["responses"]), path
            continue
        typed = {**headers, "Content-Type": "text/plain"}
        if list(operation["requestBody"]["content"]) == ["application/octet-stream"]:
            # A file: its own size limit, and any Content-Type (its bytes tell the format).
            files += 1
            big = client.request(method, _url(path), content=b"\0" * (Limits().max_upload + 1))
            assert big.status_code == 413, (path, big.text)
            text = client.request(method, _url(path), headers=typed, content=b"{}")
            assert text.status_code == 400, (path, text.text)
            assert {"400", "413"} <= set(operation["responses"]), path
            assert "415" not in operation["responses"], path
            continue
        big = client.request(method, _url(path), headers=headers, content=b"{" + b" " * 5000 + b"}")
        assert big.status_code == 413, (path, big.text)
        text = client.request(method, _url(path), headers=typed, content=b"{}")
        assert text.status_code == 415, (path, text.text)
        assert {"400", "413", "415"} <= set(operation["responses"]), path
    assert files == 2  # replay files, and the page's record of a game


def test_file_answers_are_described_as_attachments(client: Any, spec: dict[str, Any]) -> None:
    downloads = {
        path
        for path, item in spec["paths"].items()
        for operation in item.values()
        for code, answer in operation["responses"].items()
        if code.startswith("2") and "application/octet-stream" in answer["content"]
    }
    assert downloads == {"/api/game.evf", "/api/replays/{public_id}.evf"}
    for path in downloads:
        answer = spec["paths"][path]["get"]["responses"]["200"]
        assert "Content-Disposition" in answer["headers"]
    # The file is no schema of its own.
    assert "Download" not in spec["components"]["schemas"]
    upload = spec["paths"]["/api/replay-files"]["post"]
    assert upload["requestBody"]["required"] is True
    assert [(p["name"], p["in"], p["required"]) for p in upload["parameters"]] == [
        ("name", "query", False)
    ]
    assert set(spec["components"]["schemas"]) >= {"ReplayFile", "ClickNote"}


def test_every_route_draws_on_a_rate_limit_as_described(make_client: Any) -> None:
    from minesweep.web.limits import Limits

    slow = Limits(create_rate=1e-3, create_burst=1, action_rate=1e-3, action_burst=1)
    client = make_client(limits=slow)
    token = client.post("/api/games", json={"preset": "beginner"}).json()["id"]
    headers = {"Authorization": f"Bearer {token}"}
    spec = client.get("/openapi.json").json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            answers = [
                client.request(method, _url(path), headers=headers, json=BODIES.get(path))
                for _ in range(6)  # reads get four times the actions' burst
            ]
            assert 429 in [answer.status_code for answer in answers], (method, path)
            assert "429" in operation["responses"], (method, path)
