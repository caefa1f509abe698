"""``minesweep serve``: a server-authoritative web game (Starlette).

The server holds the mines and the rules (:class:`minesweep.Game`, the
solver and the front-end layer :mod:`minesweep.frontend`, which this module
only calls); a client only ever receives what the player may see: the view
(numbers, hidden squares, flags), the counters, and after the end the mines.
Game ids are unguessable tokens, and the token is the only way to read or act
on a game. The server keeps the time with its own clock and computes every
score itself; seeded games and assisted ones (hints, undo) never rank.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from minesweep import Action, ActionKind, Game, GameOverError, MinesweepError, Preset, frontend
from minesweep.formats import parse_game_json, to_view
from minesweep.frontend import Button, Settings
from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError

from .db import Database, GameRow, default_url
from .openapi import OPENAPI

__all__ = ["Limits", "create_app"]

STATIC = Path(__file__).parent / "static"

#: The fields of a request for a new game.
_NEW_GAME_FIELDS = frozenset(
    {"preset", "rows", "cols", "mines", "rule", "no_guess", "seed", "name"}
)
#: The actions of the API, by name.
_ACTIONS = {
    "reveal": ActionKind.REVEAL,
    "flag": ActionKind.FLAG,
    "unflag": ActionKind.UNFLAG,
    "chord": ActionKind.CHORD,
    "question": ActionKind.QUESTION,
}


@dataclass(frozen=True)
class Limits:
    """What a request may ask for."""

    max_rows: int = 64
    max_cols: int = 128
    max_body: int = 4096
    max_name: int = 40
    max_no_guess_squares: int = 1024
    no_guess_seconds: float = 3.0
    retries: int = 50


class ApiError(Exception):
    """A client error: status code and a message for the JSON body."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Service:
    """The web game between the HTTP layer and the database; the rules it calls are elsewhere."""

    def __init__(
        self, database: Database, limits: Limits, clock: Callable[[], float] = time.time
    ) -> None:
        self.db = database
        self.limits = limits
        self.clock = clock
        # Recently used games, by token: (version, game). A version check on
        # every write keeps several processes honest; this only saves replays.
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()

    # --- games ----------------------------------------------------------------------

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new game; its settings are checked before anything is stored."""
        settings = self._settings(body)
        name = body.get("name")
        game = settings.new_game(clock=self.clock)
        token = secrets.token_urlsafe(24)
        self.db.insert(
            {
                "token": token,
                "public_id": secrets.token_urlsafe(12),
                "kind": settings.kind,
                "name": name,
                "no_guess": settings.no_guess,
                "seeded": settings.seed is not None,
                "assisted": False,
                "status": game.status.value,
                "game": _game_json(game),
                "started_at": None,
                "ranked": False,
            }
        )
        return self.state(token)

    def _settings(self, body: dict[str, Any]) -> Settings:
        """The settings a request for a new game asks for: its fields read, then checked."""
        size = self._size(body)
        rule = body.get("rule", "opening")
        no_guess = body.get("no_guess", False)
        seed = body.get("seed")
        _check_options(body, self.limits)
        try:
            settings = Settings.of(**size, rule=rule, seed=seed, no_guess=no_guess)
        except MinesweepError as error:
            raise ApiError(422, str(error)) from None
        squares = settings.rows * settings.cols
        if settings.no_guess and squares > self.limits.max_no_guess_squares:
            raise ApiError(
                422,
                f"no-guess boards go up to {self.limits.max_no_guess_squares} squares "
                f"(their generation is costly), asked for {squares}",
            )
        unknown = set(body) - _NEW_GAME_FIELDS
        if unknown:
            raise ApiError(400, f"unknown field {sorted(unknown)[0]!r}")
        return settings

    def _size(self, body: dict[str, Any]) -> dict[str, Any]:
        """A preset, or rows, cols and mines within the limits: keywords of Settings.of."""
        limits = self.limits
        preset = body.get("preset")
        if preset is not None:
            try:
                Preset.from_name(preset)
            except MinesweepError as error:
                raise ApiError(400, str(error)) from None
            if any(key in body for key in ("rows", "cols", "mines")):
                raise ApiError(400, "give a preset or rows, cols and mines, not both")
            return {"preset": preset}
        rows, cols, mines = (_integer(body, key) for key in ("rows", "cols", "mines"))
        if not 1 <= rows <= limits.max_rows or not 1 <= cols <= limits.max_cols:
            raise ApiError(
                422,
                f"boards go up to {limits.max_rows} rows and {limits.max_cols} columns, "
                f"asked for {rows}x{cols}",
            )
        return {"size": (rows, cols), "mines": mines}

    def state(self, token: str) -> dict[str, Any]:
        row, game = self._load(token)
        public = self._public(row, game)
        self._keep(token, row.version, game)
        return public

    def act(self, token: str, body: dict[str, Any]) -> dict[str, Any]:
        """Apply an action, or a click (a mouse button on a square, mapped by the rules)."""
        make = _action_of(body)

        def apply(row: GameRow, game: Game) -> tuple[Game, dict[str, Any]]:
            if game.is_over:
                raise ApiError(409, f"the game is over ({game.status.value})")
            try:
                game, effect = frontend.act(
                    game,
                    make(game),
                    no_guess=row.no_guess,
                    clock=self.clock,
                    no_guess_seconds=self.limits.no_guess_seconds,
                )
            except (NoGuessBudgetError, AnalysisBudgetError) as error:
                raise ApiError(503, f"no no-guess board found in time: {error}") from None
            except GameOverError as error:
                raise ApiError(409, str(error)) from None
            except MinesweepError as error:
                raise ApiError(422, str(error)) from None
            return game, {
                "effective": effect.effective,
                "opened": effect.opened,
                "changed": effect.cells.tolist(),
            }

        return self._update(token, apply)

    def undo(self, token: str) -> dict[str, Any]:
        def apply(row: GameRow, game: Game) -> tuple[Game, dict[str, Any]]:
            # A finished game stays finished here: its mines have been shown,
            # and a ranked one has its score and replay.
            if game.is_over:
                raise ApiError(409, f"the game is over ({game.status.value})")
            try:
                game.pop()
            except MinesweepError as error:
                raise ApiError(409, str(error)) from None
            return game, {"assisted": True}

        return self._update(token, apply, assisted=True)

    def hint(self, token: str) -> dict[str, Any]:
        def apply(row: GameRow, game: Game) -> tuple[Game, dict[str, Any]]:
            if game.is_over:
                raise ApiError(409, f"the game is over ({game.status.value})")
            try:
                advice = frontend.advise(game)
            except AnalysisBudgetError as error:
                raise ApiError(503, str(error)) from None
            except MinesweepError as error:
                raise ApiError(409, str(error)) from None
            hint = advice.hint
            probabilities = (
                None
                if advice.probability is None
                else [
                    [None if value != value else round(float(value), 6) for value in line]
                    for line in advice.probability.tolist()
                ]
            )
            return game, {
                "hint": {
                    "row": hint.row,
                    "col": hint.col,
                    "safe": hint.safe,
                    "probability": hint.probability,
                    "reason": hint.reason,
                },
                "probabilities": probabilities,
            }

        return self._update(token, apply, assisted=True)

    def leaderboard(self, kind: str) -> dict[str, Any]:
        if not frontend.is_kind(kind):
            raise ApiError(
                404,
                f"no kind of game {kind!r}: expected a preset or ROWSxCOLS/MINES, then /safe "
                "or /none for those rules and /no-guess, e.g. 'expert' or '20x30/100/no-guess'",
            )
        rows = self.db.leaderboard(kind, 20)
        return {
            "kind": kind,
            "scores": [
                {
                    "rank": index + 1,
                    "name": row.name or "anonymous",
                    "seconds": row.seconds,
                    "bbbv": row.bbbv,
                    "bbbv_per_second": (row.bbbv or 0) / row.seconds if row.seconds else None,
                    "replay": row.public_id,
                    "finished_at": row.finished_at,
                }
                for index, row in enumerate(rows)
            ],
        }

    def replay(self, public_id: str) -> dict[str, Any]:
        row = self.db.replay(public_id)
        if row is None:
            raise ApiError(404, "no ranked game with that id")
        document = json.loads(row.game)
        game = parse_game_json(row.game, clock=self.clock)
        return {
            "public_id": row.public_id,
            "kind": row.kind,
            "name": row.name or "anonymous",
            "rows": document["rows"],
            "cols": document["cols"],
            "mines": document["mines"],
            "field": document["field"],
            "history": document["history"],
            # The view before the first action, then after each: stepped by the game
            # itself, so the page only draws them.
            "views": [to_view(frame.view).splitlines() for frame in game.replay_views()],
            "seconds": row.seconds,
            "bbbv": row.bbbv,
        }

    # --- storage ---------------------------------------------------------------------------

    def _load(self, token: str) -> tuple[GameRow, Game]:
        if not isinstance(token, str) or not 16 <= len(token) <= 64:
            raise ApiError(404, "no game with that id")
        row = self.db.load(token)
        if row is None:
            raise ApiError(404, "no game with that id")
        # A cached game is taken out while in use, so no two requests ever hold
        # the same object; it goes back (or its successor does) afterwards.
        with self._lock:
            cached = self._cache.pop(token, None)
        if cached is not None and cached[0] == row.version:
            return row, cached[1]
        game = parse_game_json(row.game, clock=self.clock)
        if row.started_at is not None and game.history:
            game.set_start(row.started_at)
        return row, game

    def _update(
        self,
        token: str,
        apply: Callable[[GameRow, Game], tuple[Game, dict[str, Any]]],
        *,
        assisted: bool = False,
    ) -> dict[str, Any]:
        """Apply a change in one transaction with a version check; retry if another won."""
        for attempt in range(self.limits.retries):
            if attempt:
                # Another request wrote first: back off a little, at random, so
                # that racing requests spread out instead of colliding again.
                time.sleep(random.uniform(0, 0.002 * min(attempt, 10)))
            row, game = self._load(token)
            game, extra = apply(row, game)
            changes: dict[str, Any] = {
                "game": _game_json(game),
                "status": game.status.value,
                "started_at": game.started_at,
                "assisted": row.assisted or assisted,
            }
            if game.is_over and row.finished_at is None:
                final = frontend.score(game)
                changes.update(
                    finished_at=self.clock(),
                    seconds=final.seconds,
                    bbbv=final.bbbv,
                    ranked=frontend.ranks(
                        row.kind, won=final.won, seeded=row.seeded, assisted=changes["assisted"]
                    ),
                )
            if self.db.store(token, row.version, changes):
                self._keep(token, row.version + 1, game)
                merged = GameRow(**{**row.__dict__, **changes, "version": row.version + 1})
                return {"state": self._public(merged, game), **extra}
        raise ApiError(409, "the game changed too often while this action was applied; retry")

    def _keep(self, token: str, version: int, game: Game) -> None:
        """Put a game (at ``version``) back in the cache, unless a newer one is there."""
        with self._lock:
            cached = self._cache.get(token)
            if cached is None or cached[0] < version:
                self._cache[token] = (version, game)
                self._cache.move_to_end(token)
            while len(self._cache) > 256:
                self._cache.popitem(last=False)

    def _public(self, row: GameRow, game: Game) -> dict[str, Any]:
        """What the player may see. Until the end: the view, counters and time; no mine."""
        over = game.is_over
        state: dict[str, Any] = {
            "id": row.token,
            "kind": row.kind,
            "rows": game.shape[0],
            "cols": game.shape[1],
            "mines": game.mine_count,
            "rule": game.rule.value,
            "no_guess": row.no_guess,
            "status": game.status.value,
            "mines_left": game.mines_left,
            "elapsed": round(game.elapsed, 3),
            "assisted": row.assisted,
            "seeded": row.seeded,
            "view": to_view(game.glyphs()).splitlines(),
        }
        if over:
            final = frontend.score(game)
            state["stats"] = {
                "bbbv": final.bbbv,
                "solved_bbbv": final.solved_bbbv,
                "bbbv_per_second": round(final.bbbv_per_second, 4),
                "efficiency": round(final.efficiency, 4),
                "clicks": final.clicks,
            }
            state["ranked"] = row.ranked
            if row.ranked:
                state["public_id"] = row.public_id
        return state


def _game_json(game: Game) -> str:
    from minesweep.formats import to_game_json

    return to_game_json(game)


def _check_options(body: dict[str, Any], limits: Limits) -> None:
    """The types of a new game's options, and the server's own bounds on them."""
    no_guess = body.get("no_guess", False)
    seed = body.get("seed")
    name = body.get("name")
    if not isinstance(no_guess, bool):
        raise ApiError(400, f"no_guess must be true or false, got {no_guess!r}")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**64):
        raise ApiError(400, f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
    if name is not None and (not isinstance(name, str) or len(name) > limits.max_name):
        raise ApiError(400, f"name must be text of at most {limits.max_name} characters")


def _action_of(body: dict[str, Any]) -> Callable[[Game], Action]:
    """What an action request asks for, checked: the action it means on a game.

    ``{"action": "flag", ...}`` names the action; ``{"click": "left", ...}``
    names a mouse button, and the front-end layer says what it does there.
    """
    clicked = "click" in body
    if clicked:
        value = body.get("click")
        buttons = [str(button) for button in Button]
        if not isinstance(value, str) or value not in buttons:
            raise ApiError(400, f"click must be one of {', '.join(buttons)}, got {value!r}")
        fields = {"click", "row", "col"}
    else:
        value = body.get("action")
        if not isinstance(value, str) or value not in _ACTIONS:
            raise ApiError(400, f"action must be one of {', '.join(_ACTIONS)}, got {value!r}")
        fields = {"action", "row", "col"}
    row, col = _integer(body, "row"), _integer(body, "col")
    if set(body) - fields:
        raise ApiError(400, f"unknown field {sorted(set(body) - fields)[0]!r}")
    if clicked:
        button = Button(value)
        return lambda game: frontend.click(game, row, col, button)
    kind = _ACTIONS[value]
    return lambda game: Action(kind, row, col)


def _integer(body: dict[str, Any], key: str) -> int:
    value = body.get(key)
    if type(value) is not int:
        raise ApiError(400, f"{key} must be an integer, got {value!r}")
    return value


def create_app(
    db_url: str | None = None,
    *,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.time,
) -> Starlette:
    """The ASGI app; ``db_url`` is an SQLAlchemy URL (default: a SQLite file)."""
    limits = limits or Limits()
    service = Service(Database(db_url or default_url()), limits, clock)
    # Load the compiled kernels now rather than in the first player's request.
    frontend.warm_up()
    app = Starlette(
        routes=_routes(service),
        exception_handlers={ApiError: _api_error, HTTPException: _http_error},
    )
    app.state.service = service
    return app


#: A service call: the path's parameters and the request's body in, the JSON answer out.
_Call = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


def _routes(service: Service) -> list[Route | Mount]:
    """The routes: the page, the API description, and the API on ``service``."""

    def api(path: str, method: str, call: _Call, *, status: int = 200) -> Route:
        async def endpoint(request: Request) -> Response:
            # Every POST reads its body, even one it ignores: limits and JSON are checked.
            body = await _body_of(request, service.limits) if method == "POST" else {}
            # The rules and the database are blocking work: a thread, not the event loop.
            result = await run_in_threadpool(call, request.path_params, body)
            return JSONResponse(result, status_code=status, headers={"Cache-Control": "no-store"})

        return Route(path, endpoint, methods=[method])

    return [
        Route("/", _index),
        Route("/openapi.json", _openapi),
        api("/api/games", "POST", lambda _, body: service.create(body), status=201),
        api("/api/games/{token}", "GET", lambda path, _: service.state(path["token"])),
        api(
            "/api/games/{token}/actions",
            "POST",
            lambda path, body: service.act(path["token"], body),
        ),
        api("/api/games/{token}/undo", "POST", lambda path, _: service.undo(path["token"])),
        api("/api/games/{token}/hint", "POST", lambda path, _: service.hint(path["token"])),
        api(
            "/api/leaderboards/{kind:path}",
            "GET",
            lambda path, _: service.leaderboard(path["kind"]),
        ),
        api(
            "/api/replays/{public_id}",
            "GET",
            lambda path, _: service.replay(path["public_id"]),
        ),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def _openapi(request: Request) -> Response:
    return JSONResponse(OPENAPI)


async def _body_of(request: Request, limits: Limits) -> dict[str, Any]:
    """A request's JSON object ({} for no body), within the size limit."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limits.max_body):
        raise ApiError(413, f"request bodies are at most {limits.max_body} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limits.max_body:
            raise ApiError(413, f"request bodies are at most {limits.max_body} bytes")
    if not raw:
        return {}
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        raise ApiError(415, "send the body as application/json")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return JSONResponse({"error": error.message}, status_code=error.status)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, status_code=error.status_code)
