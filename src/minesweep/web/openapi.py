"""The OpenAPI description of the web game's JSON API, served at ``/openapi.json``.

Generated: the routes from the one table the server serves
(:data:`minesweep.web.routes.ENDPOINTS`), the bodies' schemas from the
msgspec declarations the server decodes and encodes with
(:mod:`minesweep.web.models`); this module only words the errors.
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from minesweep import __version__
from minesweep.presets import PRESETS

from . import models
from .routes import ENDPOINTS

__all__ = ["openapi"]

_REF = "#/components/schemas/{name}"

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
        {route.request for route in ENDPOINTS if route.request is not None}
        | {route.answer for route in ENDPOINTS}
        | {models.Error},
        key=lambda kind: kind.__name__,
    )
    _, components = msgspec.json.schema_components(types, ref_template=_REF)
    components["NewGame"]["properties"]["preset"]["anyOf"][0]["enum"] = list(PRESETS)

    def body(kind: type[Any]) -> dict[str, Any]:
        return {"application/json": {"schema": {"$ref": _REF.format(name=kind.__name__)}}}

    paths: dict[str, Any] = {}
    for route in ENDPOINTS:
        operation: dict[str, Any] = {
            "summary": route.summary,
            "responses": {
                str(route.status): {"description": "OK", "content": body(route.answer)},
                **{
                    str(code): {"description": _ERRORS[code], "content": body(models.Error)}
                    for code in route.error_statuses
                },
            },
        }
        if route.request is not None:
            operation["requestBody"] = {"required": False, "content": body(route.request)}
        if route.token:
            operation["security"] = [{"gameToken": []}]
        if route.parameters:
            operation["parameters"] = [
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                for name in route.parameters
            ]
        paths.setdefault(route.described_path, {})[route.method.lower()] = operation
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
