"""The OpenAPI description of the web game's JSON API, served at ``/openapi.json``."""

from __future__ import annotations

from typing import Any

from minesweep.actions import GameStatus
from minesweep.frontend import Button
from minesweep.presets import PRESETS, FirstClickRule

__all__ = ["OPENAPI"]

# The enumerations come from the tables the server itself checks against.
_RULES = [rule.value for rule in FirstClickRule]
_STATUSES = [status.value for status in GameStatus]
_PRESETS = list(PRESETS)
_BUTTONS = [button.value for button in Button]

_ERROR = {
    "description": "A client error",
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "properties": {"error": {"type": "string"}},
                "required": ["error"],
            }
        }
    },
}

_STATE: dict[str, Any] = {
    "type": "object",
    "description": (
        "What the player may see. Until the game ends it holds no mine, no seed and no "
        "number of an unopened square."
    ),
    "properties": {
        "id": {"type": "string", "description": "The game's secret token"},
        "kind": {"type": "string"},
        "rows": {"type": "integer"},
        "cols": {"type": "integer"},
        "mines": {"type": "integer"},
        "rule": {"type": "string", "enum": _RULES},
        "no_guess": {"type": "boolean"},
        "status": {"type": "string", "enum": _STATUSES},
        "mines_left": {"type": "integer"},
        "elapsed": {"type": "number", "description": "Seconds, by the server's clock"},
        "assisted": {"type": "boolean"},
        "seeded": {"type": "boolean"},
        "view": {
            "type": "array",
            "items": {"type": "string"},
            "description": (
                "One string a row: '#' hidden, 'F' flag, '?' question mark, '.' blank, "
                "'1'-'8'; after a loss '*' mine, 'X' the exploded one, '!' a wrong flag"
            ),
        },
        "stats": {"type": "object", "description": "Once the game is over"},
        "ranked": {"type": "boolean"},
        "public_id": {"type": "string", "description": "For the replay of a ranked game"},
    },
    "required": ["id", "rows", "cols", "mines", "status", "mines_left", "elapsed", "view"],
}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


_TOKEN = {"name": "token", "in": "path", "required": True, "schema": {"type": "string"}}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "minesweep web game",
        "version": "1",
        "description": "A server-authoritative Minesweeper: the server holds the mines.",
    },
    "paths": {
        "/api/games": {
            "post": {
                "summary": "Create a game",
                "requestBody": _json(
                    {
                        "type": "object",
                        "properties": {
                            "preset": {
                                "type": "string",
                                "enum": _PRESETS,
                            },
                            "rows": {"type": "integer", "minimum": 1, "maximum": 64},
                            "cols": {"type": "integer", "minimum": 1, "maximum": 128},
                            "mines": {"type": "integer", "minimum": 0},
                            "rule": {"type": "string", "enum": _RULES},
                            "no_guess": {"type": "boolean"},
                            "seed": {
                                "type": "integer",
                                "description": "Makes the game reproducible, and unranked",
                            },
                            "name": {"type": "string", "maxLength": 40},
                        },
                    }
                ),
                "responses": {
                    "201": {"description": "The new game", **_json(_STATE)},
                    "400": _ERROR,
                    "413": _ERROR,
                    "422": _ERROR,
                },
            }
        },
        "/api/games/{token}": {
            "get": {
                "summary": "Read a game",
                "parameters": [_TOKEN],
                "responses": {"200": {"description": "The game", **_json(_STATE)}, "404": _ERROR},
            }
        },
        "/api/games/{token}/actions": {
            "post": {
                "summary": "Act on a game: reveal, flag, unflag, question or chord a square",
                "description": (
                    "Name the action, or name the mouse button with 'click': the server's "
                    "rules say what it does on that square (right flags or unflags, middle "
                    "chords, left chords on a number and reveals anything else)."
                ),
                "parameters": [_TOKEN],
                "requestBody": _json(
                    {
                        "type": "object",
                        "properties": {
                            "action": {
                                "type": "string",
                                "enum": ["reveal", "flag", "unflag", "question", "chord"],
                            },
                            "click": {"type": "string", "enum": _BUTTONS},
                            "row": {"type": "integer"},
                            "col": {"type": "integer"},
                        },
                        "oneOf": [{"required": ["action"]}, {"required": ["click"]}],
                        "required": ["row", "col"],
                    }
                ),
                "responses": {
                    "200": {
                        "description": "The game after the action, and what changed",
                        **_json(
                            {
                                "type": "object",
                                "properties": {
                                    "state": _STATE,
                                    "effective": {"type": "boolean"},
                                    "opened": {"type": "integer"},
                                    "changed": {
                                        "type": "array",
                                        "items": {"type": "array", "items": {"type": "integer"}},
                                    },
                                },
                            }
                        ),
                    },
                    "400": _ERROR,
                    "404": _ERROR,
                    "409": _ERROR,
                    "413": _ERROR,
                    "422": _ERROR,
                },
            }
        },
        "/api/games/{token}/undo": {
            "post": {
                "summary": "Undo the last action (the game no longer ranks)",
                "parameters": [_TOKEN],
                "responses": {"200": {"description": "The game"}, "404": _ERROR, "409": _ERROR},
            }
        },
        "/api/games/{token}/hint": {
            "post": {
                "summary": "A hint and the mine probabilities (the game no longer ranks)",
                "parameters": [_TOKEN],
                "responses": {"200": {"description": "The hint"}, "404": _ERROR, "409": _ERROR},
            }
        },
        "/api/leaderboards/{kind}": {
            "get": {
                "summary": "The best times of a preset (kind: expert, or expert/no-guess...)",
                "parameters": [
                    {"name": "kind", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {"200": {"description": "The leaderboard"}, "404": _ERROR},
            }
        },
        "/api/replays/{public_id}": {
            "get": {
                "summary": "The replay of a ranked game",
                "parameters": [
                    {
                        "name": "public_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {
                    "200": {
                        "description": (
                            "The field, the actions with their times, and 'views': the view "
                            "before the first action, then after each (the rows of a view as "
                            "in a game's state)"
                        )
                    },
                    "404": _ERROR,
                },
            }
        },
    },
}
