"""``minesweep serve``'s HTTP layer: routes, bodies and files, security headers, errors as JSON.

The game itself (rules called, cache, ranking, leaderboards, replays) is
:class:`minesweep.web.service.Service`, which has no HTTP in it. A game's
token travels in the ``Authorization`` header, never in a URL, so proxy logs
hold no credential.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Final, TypeVar

import msgspec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from minesweep import frontend

from . import models
from .db import Database, default_url, wall_clock
from .guards import NoGuessPool, TokenBuckets
from .limits import ApiError, Limits
from .routes import ENDPOINTS, Call, Endpoint
from .service import Service, page_numbering

__all__ = ["ApiError", "Limits", "Service", "create_app", "page_numbering"]

STATIC = Path(__file__).parent / "static"

T = TypeVar("T")


# --- HTTP ---------------------------------------------------------------------------------------


def create_app(
    db_url: str | None = None,
    *,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
    wall: Callable[[], float] = wall_clock,
    epoch: str | None = None,
    pool: NoGuessPool | None = None,
) -> Starlette:
    """The ASGI app; ``db_url`` is an SQLAlchemy URL (default: a SQLite file)."""
    limits = limits or Limits()
    service = Service(
        Database(db_url or default_url()), limits, clock=clock, wall=wall, epoch=epoch, pool=pool
    )
    # Load the compiled kernels now rather than in the first player's request.
    frontend.warm_up()
    app = Starlette(
        routes=_routes(service),
        exception_handlers={ApiError: _api_error, HTTPException: _http_error},
        lifespan=_lifespan(service),
    )
    app.state.service = service
    app.add_middleware(SecurityHeaders)
    return app


def _lifespan(service: Service) -> Callable[[Starlette], Any]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        # Waits for the workers to exit: see NoGuessPool.close.
        service.pool.close(wait=True)

    return lifespan


def _routes(service: Service) -> list[Route | Mount]:
    """The routes: the page, the API description, and the API (:data:`ENDPOINTS`) on ``service``."""
    limits = service.limits

    def bucket(rate: float | None, burst: int) -> TokenBuckets | None:
        return None if rate is None else TokenBuckets(rate, burst, clock=service.clock)

    buckets = {
        "creations": bucket(limits.create_rate, limits.create_burst),
        "actions": bucket(limits.action_rate, limits.action_burst),
        # Reads cost too (a game out of the cache is replayed; a replay steps
        # every view): a bucket of their own, four times the actions'.
        "reads": (
            None
            if limits.action_rate is None
            else bucket(4 * limits.action_rate, 4 * limits.action_burst)
        ),
    }
    return [
        Route("/", _index),
        Route("/favicon.ico", _favicon),
        Route("/openapi.json", _openapi),
        *(_route(service, endpoint, buckets[endpoint.bucket]) for endpoint in ENDPOINTS),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def _route(service: Service, endpoint: Endpoint, buckets: TokenBuckets | None) -> Route:
    """The Starlette route of one endpoint: its rate limit, its body, its call, its answer."""
    limits = service.limits

    async def respond(request: Request) -> Response:
        if buckets is not None:
            wait = buckets.take(request.client.host if request.client else "unknown", endpoint.cost)
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                raise ApiError(
                    429,
                    f"too many requests from this address; retry in {seconds} s",
                    headers={"Retry-After": str(seconds)},
                )
        kind = endpoint.request
        body: Any = None
        if kind is bytes:
            body = await _file_of(request, limits)
        elif kind is not None:
            body = await _body_of(request, limits, kind)
        # The body is read before the token is looked at: a bad body is a 400,
        # with or without a token, as it always was.
        token = _token(request) if endpoint.token else ""
        sent = request.query_params
        query = {name: sent[name] for name, _ in endpoint.query if name in sent}
        call = Call(token=token, params=dict(request.path_params), body=body, query=query)
        # The rules, the solver and the database are blocking work: a thread,
        # not the event loop.
        result = await run_in_threadpool(endpoint.handler, service, call)
        if isinstance(result, models.Download):
            return _file(result, endpoint.status)
        return _json(result, endpoint.status)

    return Route(endpoint.path, respond, methods=[endpoint.method])


def _token(request: Request) -> str:
    """The game's token, from ``Authorization: Bearer TOKEN``."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "send the game's token as the header 'Authorization: Bearer TOKEN'")
    return token.strip()


def _json(value: msgspec.Struct, status: int) -> Response:
    return Response(
        msgspec.json.encode(value),
        status_code=status,
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


def _file(download: models.Download, status: int) -> Response:
    # The service makes the name of letters, digits, '-' and '.': no quoting needed.
    return Response(
        download.data,
        status_code=status,
        media_type="application/octet-stream",
        headers={
            "Cache-Control": "no-store",
            "Content-Disposition": f'attachment; filename="{download.filename}"',
        },
    )


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def _favicon(request: Request) -> Response:
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


async def _openapi(request: Request) -> Response:
    from .openapi import openapi

    return JSONResponse(openapi())


async def _body_of(request: Request, limits: Limits, kind: type[T]) -> T:
    """A request's body (``{}`` when empty) as ``kind``, within the size limit."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limits.max_body):
        raise ApiError(413, f"request bodies are at most {limits.max_body} bytes")
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limits.max_body:
            raise ApiError(413, f"request bodies are at most {limits.max_body} bytes")
    if raw:
        content_type = request.headers.get("content-type", "")
        if content_type.split(";")[0].strip().lower() != "application/json":
            raise ApiError(415, "send the body as application/json")
    try:
        return models.decode(raw, kind)
    except msgspec.ValidationError as error:
        raise ApiError(400, f"bad request body: {error}") from None
    except msgspec.DecodeError as error:
        try:
            json.loads(raw)
        except (ValueError, RecursionError):
            raise ApiError(400, f"the body is not valid JSON: {error}") from None
        # Python's parser takes it, so msgspec refused a lone surrogate escape.
        raise ApiError(
            400,
            "the body holds a lone surrogate escape (\\uD800-\\uDFFF without its pair): "
            "text must be valid Unicode",
        ) from None


async def _file_of(request: Request, limits: Limits) -> bytes:
    """An uploaded file: the body's raw bytes, within the upload limit, not empty.

    Whatever its Content-Type: the replay readers tell the formats apart by
    their bytes, and browsers send most of these files' types as
    application/octet-stream or nothing.
    """
    too_large = f"replay files are at most {limits.max_upload} bytes"
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limits.max_upload):
        raise ApiError(413, too_large)
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limits.max_upload:
            raise ApiError(413, too_large)
    if not raw:
        raise ApiError(400, "the body is empty: send the replay file's bytes")
    return bytes(raw)


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    body: dict[str, Any] = {"error": error.message}
    if error.state is not None:
        body["state"] = msgspec.to_builtins(error.state)
    return JSONResponse(body, status_code=error.status, headers=error.headers)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": error.detail}, status_code=error.status_code)


#: Every response's security headers. The page has no inline script or style
#: attribute, so the policy allows only the server's own files.
SECURITY_HEADERS: Final = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware: the security headers on every response, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)
