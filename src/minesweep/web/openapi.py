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
from .accounts import COOKIE, CSRF_HEADER, SECURE_COOKIE
from .routes import ENDPOINTS

__all__ = ["openapi"]

_REF = "#/components/schemas/{name}"

_ERRORS = {
    400: "The body or a field is malformed, or the file is not a replay this server reads",
    401: (
        "No 'Authorization: Bearer TOKEN' header; not signed in, or the session or account "
        "token has ended; a wrong name or password (the same answer for an unknown name)"
    ),
    403: (
        "Signed in by the session cookie without the session's X-CSRF-Token header, or a "
        "request from another site"
    ),
    404: "No such game, kind or replay",
    409: (
        "The game is over, at another version than the request's, or full; for its replay "
        "file, not over yet; the name is an account's, or looks like one"
    ),
    410: "The game expired",
    413: "The body is too large",
    415: "The body is not application/json",
    422: (
        "The settings or the square break the rules, a replay is larger than the viewer "
        "takes, a name holds an invisible or blank-looking character, or a password is too "
        "short or too long"
    ),
    429: (
        "Too many requests from this address, or too many at once, or past its share of the "
        "server's CPU time (a request is charged what it cost once it ran): see Retry-After"
    ),
    503: (
        "No no-guess board in time, or the pool making them (or checking passwords) is busy: "
        "see Retry-After"
    ),
}


@functools.cache
def openapi() -> dict[str, Any]:
    """The description, built once."""
    types = sorted(
        {route.request for route in ENDPOINTS if route.request not in (None, bytes)}
        | {route.answer for route in ENDPOINTS if not route.sends_file}
        | {models.Error},
        key=lambda kind: kind.__name__,
    )
    _, components = msgspec.json.schema_components(types, ref_template=_REF)
    components["NewGame"]["properties"]["preset"]["anyOf"][0]["enum"] = list(PRESETS)

    def body(kind: type[Any]) -> dict[str, Any]:
        if kind is bytes or kind is models.Download:
            # A file's bytes: OpenAPI 3.1 describes them by their media type alone.
            return {"application/octet-stream": {}}
        return {"application/json": {"schema": {"$ref": _REF.format(name=kind.__name__)}}}

    paths: dict[str, Any] = {}
    for route in ENDPOINTS:
        answer: dict[str, Any] = {"description": "OK", "content": body(route.answer)}
        if route.sends_file:
            answer["headers"] = {
                "Content-Disposition": {
                    "description": "attachment, with the file's name",
                    "schema": {"type": "string"},
                }
            }
        operation: dict[str, Any] = {
            "summary": route.summary,
            "responses": {
                str(route.status): answer,
                **{
                    str(code): {"description": _ERRORS[code], "content": body(models.Error)}
                    for code in route.error_statuses
                },
            },
        }
        if route.request is not None:
            # A JSON body may be left out (it reads as {}); a file may not.
            operation["requestBody"] = {
                "required": route.request is bytes,
                "content": body(route.request),
            }
        if route.token:
            operation["security"] = [{"gameToken": []}]
        if route.account != "none":
            # Either credential; {} where a guest may call the route too.
            signed_in: list[dict[str, list[str]]] = [{"accountToken": []}, {"accountSession": []}]
            operation["security"] = signed_in + ([{}] if route.account == "optional" else [])
        parameters = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
            for name in route.parameters
        ] + [
            {
                "name": name,
                "in": "query",
                "required": False,
                "description": description,
                "schema": {"type": "string"},
            }
            for name, description in route.query
        ]
        if parameters:
            operation["parameters"] = parameters
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
                },
                "accountToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "An API client's account token, `msa_...` (POST /api/tokens): never "
                        "a game's token, which a game's own routes take"
                    ),
                },
                "accountSession": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": COOKIE,
                    "description": (
                        f"The page's session (POST /api/session), HttpOnly and SameSite=Strict; "
                        f"`{SECURE_COOKIE}` over HTTPS. A state-changing request signed in by "
                        f"it sends the session's CSRF token as the header `{CSRF_HEADER}`"
                    ),
                },
            },
        },
    }
