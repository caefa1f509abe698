"""The OpenAPI description of the web game's JSON API, served at ``/openapi.json``.

Generated: the bodies' schemas come from the msgspec declarations the
server decodes and encodes with (:mod:`minesweep.web.models`); this module
only lists the routes, what each takes and returns, and its errors.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from minesweep import __version__
from minesweep.presets import PRESETS

from . import models

__all__ = ["openapi"]

_REF = "#/components/schemas/{name}"

#: Method, path, summary, request body, answer, status and errors of every route.
_ROUTES: list[tuple[str, str, str, type[Any] | None, type[Any], int, tuple[int, ...]]] = [
    ("post", "/api/games", "Create a game", models.NewGame, models.GameState, 201,
     (400, 413, 415, 422, 429)),
    ("get", "/api/game", "Read the game the token names", None, models.GameState, 200,
     (401, 404, 410)),
    ("post", "/api/game/actions",
     "Act on a square: name the action, or the mouse button ('click') and the server's rules "
     "say what it does there (right flags or unflags, middle chords, left chords on a number "
     "and reveals anything else)",
     models.Move, models.MoveAnswer, 200, (400, 401, 404, 409, 410, 413, 415, 422, 429, 503)),
    ("post", "/api/game/undo", "Undo the last action (the game becomes assisted)",
     models.UndoRequest, models.GameState, 200, (400, 401, 404, 409, 410, 429)),
    ("post", "/api/game/hint",
     "A hint and every square's mine probability (the game becomes assisted)",
     models.HintRequest, models.HintAnswer, 200, (400, 401, 404, 409, 410, 429, 503)),
    ("get", "/api/leaderboards/{kind}",
     "The fastest ranked wins of a kind of game, with each name's win rate",
     None, models.Leaderboard, 200, (404,)),
    ("get", "/api/bots/{kind}", "Declared bots by win rate (the low end of its 95% interval)",
     None, models.BotLeaderboard, 200, (404,)),
    ("get", "/api/replays/{public_id}", "A ranked game, with every view it showed",
     None, models.Replay, 200, (404,)),
]  # fmt: skip

_ERRORS = {
    400: "The body or a field is malformed",
    401: "No 'Authorization: Bearer TOKEN' header",
    404: "No such game, kind or replay",
    409: "The game is over, at another version than the request's, or full",
    410: "The game expired",
    413: "The body is too large",
    415: "The body is not application/json",
    422: "The settings or the square break the rules",
    429: "Too many requests from this address: see Retry-After",
    503: "No no-guess board in time, or the pool making them is busy: see Retry-After",
}


@functools.cache
def openapi() -> dict[str, Any]:
    """The description, built once."""
    types = sorted(
        {route[3] for route in _ROUTES if route[3] is not None}
        | {route[4] for route in _ROUTES}
        | {models.Error},
        key=lambda kind: kind.__name__,
    )
    _, components = msgspec.json.schema_components(types, ref_template=_REF)
    components["NewGame"]["properties"]["preset"]["anyOf"][0]["enum"] = list(PRESETS)

    def body(kind: type[Any]) -> dict[str, Any]:
        return {"application/json": {"schema": {"$ref": _REF.format(name=kind.__name__)}}}

    paths: dict[str, Any] = {}
    for method, path, summary, request, answer, status, errors in _ROUTES:
        operation: dict[str, Any] = {
            "summary": summary,
            "responses": {
                str(status): {"description": "OK", "content": body(answer)},
                **{
                    str(code): {"description": _ERRORS[code], "content": body(models.Error)}
                    for code in errors
                },
            },
        }
        if request is not None:
            operation["requestBody"] = {"required": False, "content": body(request)}
        if path.startswith("/api/game/") or path == "/api/game":
            operation["security"] = [{"gameToken": []}]
        parameters = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in ("kind", "public_id")
            if "{" + name + "}" in path
        ]
        if parameters:
            operation["parameters"] = parameters
        paths.setdefault(path, {})[method] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "minesweep web game",
            "version": __version__,
            "description": (
                "A server-authoritative Minesweeper: the server holds the mines. A game's "
                "token goes in the Authorization header, never in a URL."
            ),
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {
                "gameToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The `id` of the game's state, as returned at its creation",
                }
            },
        },
    }
