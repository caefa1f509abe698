"""``minesweep serve``: a server-authoritative web game (Starlette).

The server holds the mines and the rules (:class:`minesweep.Game` and the
solver); a client only ever receives what the player may see: the view
(numbers, hidden squares, flags), the counters, and after the end the mines.
Game ids are unguessable tokens, and the token is the only way to read or act
on a game. The server keeps the time with its own clock and computes every
score itself; seeded games and assisted ones (hints, undo) never rank.
"""

from __future__ import annotations

import json
import random
import re
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

from minesweep import (
    PRESETS,
    Action,
    ActionKind,
    Game,
    GameOverError,
    GameStatus,
    MinesweepError,
    board_stats,
    game_stats,
)
from minesweep.formats import parse_game_json, to_view

from .db import Database, GameRow, default_url
from .openapi import OPENAPI

__all__ = ["Limits", "create_app"]

STATIC = Path(__file__).parent / "static"
# A leaderboard's kind, as games are filed under it (see Service.create).
_KIND = re.compile(
    r"(beginner|intermediate|expert|[1-9]\d*x[1-9]\d*/\d+)(/safe|/none)?(/no-guess)?"
)


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
    """The rules of the web game: everything between the HTTP layer and the database."""

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
        limits = self.limits
        preset = body.get("preset")
        if preset is not None:
            if not isinstance(preset, str) or preset not in PRESETS:
                raise ApiError(400, f"preset must be one of {', '.join(PRESETS)}, got {preset!r}")
            size = PRESETS[preset]
            rows, cols, mines = size.rows, size.cols, size.mines
            if any(key in body for key in ("rows", "cols", "mines")):
                raise ApiError(400, "give a preset or rows, cols and mines, not both")
        else:
            rows, cols, mines = (_integer(body, key) for key in ("rows", "cols", "mines"))
            if not 1 <= rows <= limits.max_rows or not 1 <= cols <= limits.max_cols:
                raise ApiError(
                    422,
                    f"boards go up to {limits.max_rows} rows and {limits.max_cols} columns, "
                    f"asked for {rows}x{cols}",
                )
        rule = body.get("rule", "opening")
        no_guess = body.get("no_guess", False)
        seed = body.get("seed")
        name = body.get("name")
        if not isinstance(no_guess, bool):
            raise ApiError(400, f"no_guess must be true or false, got {no_guess!r}")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**64):
            raise ApiError(400, f"seed must be an integer from 0 to 2**64 - 1, got {seed!r}")
        if name is not None and (not isinstance(name, str) or len(name) > limits.max_name):
            raise ApiError(400, f"name must be text of at most {limits.max_name} characters")
        if no_guess and rule != "opening":
            raise ApiError(422, "no-guess games always open at the first click (rule opening)")
        if no_guess and rows * cols > limits.max_no_guess_squares:
            raise ApiError(
                422,
                f"no-guess boards go up to {limits.max_no_guess_squares} squares "
                f"(their generation is costly), asked for {rows * cols}",
            )
        unknown = set(body) - {
            "preset",
            "rows",
            "cols",
            "mines",
            "rule",
            "no_guess",
            "seed",
            "name",
        }
        if unknown:
            raise ApiError(400, f"unknown field {sorted(unknown)[0]!r}")
        try:
            game = Game(rows, cols, mines, rule=rule, seed=seed, clock=self.clock)
        except MinesweepError as error:
            raise ApiError(422, str(error)) from None
        token = secrets.token_urlsafe(24)
        # Leaderboards compare like with like: the first-click rule and no-guess
        # boards make games easier or harder, so they rank apart.
        kind = (
            (preset or f"{rows}x{cols}/{mines}")
            + ("" if rule == "opening" else f"/{rule}")
            + ("/no-guess" if no_guess else "")
        )
        self.db.insert(
            {
                "token": token,
                "public_id": secrets.token_urlsafe(12),
                "kind": kind,
                "name": name,
                "no_guess": no_guess,
                "seeded": seed is not None,
                "assisted": False,
                "status": game.status.value,
                "game": _game_json(game),
                "started_at": None,
                "ranked": False,
            }
        )
        return self.state(token)

    def state(self, token: str) -> dict[str, Any]:
        row, game = self._load(token)
        public = self._public(row, game)
        self._keep(token, row.version, game)
        return public

    def act(self, token: str, body: dict[str, Any]) -> dict[str, Any]:
        kinds = {
            "reveal": ActionKind.REVEAL,
            "flag": ActionKind.FLAG,
            "unflag": ActionKind.UNFLAG,
            "chord": ActionKind.CHORD,
            "question": ActionKind.QUESTION,
        }
        action = body.get("action")
        if not isinstance(action, str) or action not in kinds:
            raise ApiError(400, f"action must be one of {', '.join(kinds)}, got {action!r}")
        row_index, col_index = _integer(body, "row"), _integer(body, "col")
        if set(body) - {"action", "row", "col"}:
            raise ApiError(
                400, f"unknown field {sorted(set(body) - {'action', 'row', 'col'})[0]!r}"
            )

        def apply(row: GameRow, game: Game) -> tuple[Game, dict[str, Any]]:
            if game.is_over:
                raise ApiError(409, f"the game is over ({game.status.value})")
            if row.no_guess and game.field is None and kinds[action] is ActionKind.REVEAL:
                game = self._no_guess(game, row_index, col_index)
            try:
                effect = game.push(Action(kinds[action], row_index, col_index))
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
        from minesweep.solver import AnalysisBudgetError, analyze, hint_from_analysis

        def apply(row: GameRow, game: Game) -> tuple[Game, dict[str, Any]]:
            if game.is_over:
                raise ApiError(409, f"the game is over ({game.status.value})")
            if game.field is None:
                middle = (game.shape[0] // 2, game.shape[1] // 2)
                return game, {
                    "hint": {
                        "row": middle[0],
                        "col": middle[1],
                        "safe": game.rule.value != "none",
                        "probability": 0.0 if game.rule.value != "none" else None,
                        "reason": "nothing is revealed yet; the first click is "
                        + ("safe" if game.rule.value != "none" else "a gamble"),
                    },
                    "probabilities": None,
                }
            glyphs = game.glyphs()
            try:
                analysis = analyze(glyphs, game.mine_count)
                advice = hint_from_analysis(analysis, glyphs)
            except AnalysisBudgetError as error:
                raise ApiError(503, str(error)) from None
            except MinesweepError as error:
                raise ApiError(409, str(error)) from None
            probabilities = [
                [None if value != value else round(float(value), 6) for value in line]
                for line in analysis.probability.tolist()
            ]
            return game, {
                "hint": {
                    "row": advice.row,
                    "col": advice.col,
                    "safe": advice.safe,
                    "probability": advice.probability,
                    "reason": advice.reason,
                },
                "probabilities": probabilities,
            }

        return self._update(token, apply, assisted=True)

    def leaderboard(self, kind: str) -> dict[str, Any]:
        if not _KIND.fullmatch(kind):
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
        return {
            "public_id": row.public_id,
            "kind": row.kind,
            "name": row.name or "anonymous",
            "rows": document["rows"],
            "cols": document["cols"],
            "mines": document["mines"],
            "field": document["field"],
            "history": document["history"],
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
                field = game.field
                won = game.status is GameStatus.WON
                changes.update(
                    finished_at=self.clock(),
                    seconds=game.elapsed,
                    bbbv=board_stats(field).bbbv if field is not None else 0,
                    ranked=won
                    and not row.seeded
                    and not changes["assisted"]
                    and row.kind.split("/")[0] in PRESETS,
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

    def _no_guess(self, game: Game, row: int, col: int) -> Game:
        """At the first reveal of a no-guess game: its field, laid around that square."""
        from minesweep.field import check_position
        from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError, generate_no_guess

        rows, cols = game.shape
        try:
            check_position((rows, cols), row, col)
        except MinesweepError as error:
            raise ApiError(422, str(error)) from None
        try:
            result = generate_no_guess(
                rows,
                cols,
                game.mine_count,
                first_click=(row, col),
                seed=game.seed if game.seed is not None else secrets.randbits(64),
                max_seconds=self.limits.no_guess_seconds,
            )
        except (NoGuessBudgetError, AnalysisBudgetError) as error:
            raise ApiError(503, f"no no-guess board found in time: {error}") from None
        fresh = Game(
            rows,
            cols,
            game.mine_count,
            rule="opening",
            field=result.field,
            first_click=(row, col),
            clock=self.clock,
        )
        # Keep what happened before the first reveal (flags), at its own times,
        # and the clock that started with it.
        replayed = Game.replay(fresh, game.history, clock=self.clock)
        if game.started_at is not None:
            replayed.set_start(game.started_at)
        return replayed

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
            stats = game_stats(game)
            state["stats"] = {
                "bbbv": stats.bbbv,
                "solved_bbbv": stats.solved_bbbv,
                "bbbv_per_second": round(stats.bbbv_per_second, 4),
                "efficiency": round(stats.ioe, 4),
                "clicks": stats.clicks,
            }
            state["ranked"] = row.ranked
            if row.ranked:
                state["public_id"] = row.public_id
        return state


def _game_json(game: Game) -> str:
    from minesweep.formats import to_game_json

    return to_game_json(game)


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
    from minesweep import _kernels  # noqa: F401

    async def body_of(request: Request) -> dict[str, Any]:
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

    async def respond(call: Callable[[], dict[str, Any]], status: int = 200) -> JSONResponse:
        # The rules and the database are blocking work: a thread, not the event loop.
        result = await run_in_threadpool(call)
        return JSONResponse(result, status_code=status, headers={"Cache-Control": "no-store"})

    async def create(request: Request) -> Response:
        body = await body_of(request)
        return await respond(lambda: service.create(body), 201)

    async def read(request: Request) -> Response:
        return await respond(lambda: service.state(request.path_params["token"]))

    async def act(request: Request) -> Response:
        body = await body_of(request)
        return await respond(lambda: service.act(request.path_params["token"], body))

    async def undo(request: Request) -> Response:
        await body_of(request)
        return await respond(lambda: service.undo(request.path_params["token"]))

    async def hint(request: Request) -> Response:
        await body_of(request)
        return await respond(lambda: service.hint(request.path_params["token"]))

    async def leaderboard(request: Request) -> Response:
        return await respond(lambda: service.leaderboard(request.path_params["kind"]))

    async def replay(request: Request) -> Response:
        return await respond(lambda: service.replay(request.path_params["public_id"]))

    async def openapi(request: Request) -> Response:
        return JSONResponse(OPENAPI)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def api_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, ApiError)
        return JSONResponse({"error": error.message}, status_code=error.status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return JSONResponse({"error": error.detail}, status_code=error.status_code)

    routes = [
        Route("/", index),
        Route("/openapi.json", openapi),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{token}", read, methods=["GET"]),
        Route("/api/games/{token}/actions", act, methods=["POST"]),
        Route("/api/games/{token}/undo", undo, methods=["POST"]),
        Route("/api/games/{token}/hint", hint, methods=["POST"]),
        Route("/api/leaderboards/{kind:path}", leaderboard, methods=["GET"]),
        Route("/api/replays/{public_id}", replay, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: api_error, HTTPException: http_error},
    )
    app.state.service = service
    return app
