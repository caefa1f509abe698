"""``minesweep serve``'s HTTP layer: routes, bodies and files, security headers, errors as JSON.

The game itself (rules called, cache, ranking, leaderboards, replays) is
:class:`minesweep.web.service.Service`, which has no HTTP in it. A game's
token travels in the ``Authorization`` header, never in a URL, so proxy logs
hold no credential. So does an account token (``msa_...``); the page's
session is a cookie (:mod:`minesweep.web.accounts` says how each is guarded).
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
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

from minesweep import GameOverError, frontend
from minesweep.replays import ReplayError
from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError

from . import models
from .accounts import (
    COOKIE,
    CSRF_HEADER,
    SECURE_COOKIE,
    TOKEN_PREFIX,
    AccountSettings,
    Credentials,
    SessionEndedError,
    WithCookie,
)
from .db import Database, default_url, wall_clock
from .errors import ConflictError, MalformedError, RefusedError
from .guards import BusyError, InFlight, Meter, NoGuessPool, TokenBuckets
from .limits import ApiError, Limits
from .routes import ENDPOINTS, Call, Endpoint
from .service import Service, page_numbering
from .style import StyleRules
from .trace import TraceError

__all__ = [
    "STATUSES",
    "ApiError",
    "Guards",
    "Limits",
    "Service",
    "create_app",
    "page_numbering",
    "status_of",
]

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
    cpu: Callable[[], float] = time.thread_time,
    accounts: AccountSettings | None = None,
    operators: Sequence[str] = (),
    style_rules: StyleRules | None = None,
) -> Starlette:
    """The ASGI app; ``db_url`` is an SQLAlchemy URL (default: a SQLite file).

    ``accounts`` says how accounts are kept (the password hash's cost, the
    sign-in limits); a test makes hashing cheap. ``operators`` name the
    accounts that review records (:mod:`minesweep.web.review`): each must
    exist (:class:`minesweep.web.review.UnknownOperatorError` otherwise).
    ``style_rules`` say when an account's wins are flagged for them as a
    program's play (:mod:`minesweep.web.style`).

    ``cpu`` is the clock a request's CPU time is read on, in its own thread
    (see :class:`Guards`); a test freezes it, as it does ``clock``.
    """
    limits = limits or Limits()
    service = Service(
        Database(db_url or default_url()),
        limits,
        clock=clock,
        wall=wall,
        epoch=epoch,
        pool=pool,
        accounts=accounts,
        style_rules=style_rules,
    )
    try:
        service.reviews.add_operators(operators)
    except ValueError:
        service.db.dispose()
        service.pool.close(wait=True)
        raise
    # Load the compiled kernels now rather than in the first player's request.
    frontend.warm_up()
    guards = Guards.of(limits, clock=clock, cpu=cpu)
    app = Starlette(
        routes=_routes(service, guards),
        exception_handlers={
            ApiError: _api_error,
            HTTPException: _http_error,
            **dict.fromkeys(STATUSES, _refused),
        },
        lifespan=_lifespan(service),
    )
    app.state.service = service
    app.state.guards = guards
    app.add_middleware(SecurityHeaders)
    return app


def _lifespan(service: Service) -> Callable[[Starlette], Any]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        # Waits for the workers to exit: see NoGuessPool.close.
        service.pool.close(wait=True)

    return lifespan


@dataclass(frozen=True)
class Guards:
    """What every API request passes, per client address, and what it is charged.

    The cost model: a request takes its route's :attr:`Endpoint.cost` (1,
    an uploaded replay 120) from its route's bucket before it runs. Once it
    has run, it is charged its work, into debt if need be, so that the
    address's next requests wait (429 with Retry-After) until the refill has
    paid for it:

    - its CPU time, in milliseconds, to the ``cpu`` bucket: the request's own
      thread's (:class:`Meter`; the solver of a hint, a replay stepped and
      encoded, a big board's views) and a no-guess field's in its worker.
      Measured, not estimated: a hint costs a millisecond on one board and a
      second on another of the same size;
    - one more token of its route's bucket per ``answer_bytes_per_token``
      bytes of its answer past the first (a long game's replay, 1.7 MB:
      about a hundred reads; the bytes are the cost of a replay served from
      the cache).

    And at most ``in_flight``'s cap of an address's requests run at once
    (429 past it), so that one address cannot hold every thread. ``buckets``
    are the routes' buckets by :attr:`Endpoint.bucket`; None is no limit.
    """

    buckets: dict[str, TokenBuckets | None]
    cpu: TokenBuckets | None
    in_flight: InFlight | None
    cpu_clock: Callable[[], float]
    answer_bytes_per_token: int

    @classmethod
    def of(cls, limits: Limits, *, clock: Callable[[], float], cpu: Callable[[], float]) -> Guards:
        def bucket(rate: float | None, burst: int) -> TokenBuckets | None:
            return None if rate is None else TokenBuckets(rate, burst, clock=clock)

        limited = limits.action_rate is not None
        return cls(
            buckets={
                "creations": bucket(limits.create_rate, limits.create_burst),
                "actions": bucket(limits.action_rate, limits.action_burst),
                # Reads cost too (a game out of the cache is replayed; a replay steps
                # every view): a bucket of their own, four times the actions'.
                "reads": (
                    bucket(4 * limits.action_rate, 4 * limits.action_burst)
                    if limits.action_rate is not None
                    else None
                ),
            },
            # Off with the actions' limit, as the reads' is: "no rate limit"
            # (--action-rate 0, the tests' default) means none at all.
            cpu=bucket(limits.cpu_rate, limits.cpu_burst) if limited else None,
            in_flight=None if limits.max_in_flight is None else InFlight(limits.max_in_flight),
            cpu_clock=cpu,
            answer_bytes_per_token=limits.answer_bytes_per_token,
        )


def _routes(service: Service, guards: Guards) -> list[Route | Mount]:
    """The routes: the page, the API description, and the API (:data:`ENDPOINTS`) on ``service``."""
    return [
        Route("/", _index),
        Route("/favicon.ico", _favicon),
        Route("/openapi.json", _openapi),
        *(_route(service, endpoint, guards) for endpoint in ENDPOINTS),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def _too_many(wait: float, why: str) -> ApiError:
    """The 429 of a request refused for ``wait`` seconds more."""
    seconds = max(1, math.ceil(wait))
    return ApiError(429, f"{why}; retry in {seconds} s", headers={"Retry-After": str(seconds)})


def _route(service: Service, endpoint: Endpoint, guards: Guards) -> Route:
    """The Starlette route of one endpoint: its limits, its body, its call, its answer."""
    limits = service.limits
    buckets = guards.buckets[endpoint.bucket]
    per_token = guards.answer_bytes_per_token

    def work(call: Call, client: str) -> Response:
        """The call and its answer's encoding (both blocking, in a thread), then their cost."""
        meter = Meter(guards.cpu_clock)
        sent = 0
        try:
            with meter:
                result = endpoint.handler(service, call)
                if isinstance(result, WithCookie):
                    response = _json(result.answer, endpoint.status)
                    _session_cookie(response, result, call.credentials)
                elif isinstance(result, models.Download):
                    response = _file(result, endpoint.status)
                else:
                    response = _json(result, endpoint.status)
            sent = len(response.body)
            return response
        finally:
            # Charged whether the call answered or failed: a no-guess board
            # that ran out of its budget cost the whole budget.
            if guards.cpu is not None:
                guards.cpu.charge(client, meter.seconds * 1000.0)
            if buckets is not None and sent > per_token:
                buckets.charge(client, math.ceil(sent / per_token) - 1)

    async def respond(request: Request) -> Response:
        # The client to every limit is its network: an IPv4 address, an IPv6
        # /64 (Limits.ipv6_prefix). The address is the proxy's X-Forwarded-For
        # only when the proxy is trusted (minesweep.web.server).
        client = limits.client(request.client.host if request.client else "unknown")
        in_flight = guards.in_flight
        if in_flight is not None and not in_flight.enter(client):
            raise _too_many(1.0, f"at most {in_flight.limit} requests at once from this address")
        try:
            return await answer(request, client)
        finally:
            if in_flight is not None:
                in_flight.leave(client)

    async def answer(request: Request, client: str) -> Response:
        # The CPU's bucket first: a request refused for its debt takes no
        # token of its route's.
        if guards.cpu is not None:
            wait = guards.cpu.take(client, 0.0)
            if wait > 0:
                raise _too_many(wait, "this address has used its share of the server's time")
        if buckets is not None:
            wait = buckets.take(client, endpoint.cost)
            if wait > 0:
                raise _too_many(wait, "too many requests from this address")
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
        credentials = Credentials() if endpoint.account == "none" else _credentials(request, client)
        call = Call(
            token=token,
            params=dict(request.path_params),
            body=body,
            query=query,
            credentials=credentials,
        )
        # The rules, the solver, the database and the encoding (a replay's
        # megabytes) are blocking work: a thread, not the event loop, which
        # keeps answering everyone else meanwhile.
        return await run_in_threadpool(work, call, client)

    return Route(endpoint.path, respond, methods=[endpoint.method])


def _token(request: Request) -> str:
    """The game's token, from ``Authorization: Bearer TOKEN``."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "send the game's token as the header 'Authorization: Bearer TOKEN'")
    if token.strip().startswith(TOKEN_PREFIX):
        raise ApiError(
            401,
            "that is an account token: a game's routes take the game's own token (its "
            "state's id), as 'Authorization: Bearer TOKEN'",
        )
    return token.strip()


def _secure(request: Request) -> bool:
    # Behind a proxy that ends TLS, the scheme is the client's once the proxy
    # is trusted (minesweep serve --trust-proxy).
    return request.url.scheme == "https"


def _credentials(request: Request, client: str) -> Credentials:
    """What may sign a request in to an account: an account token, the session cookie
    (with the CSRF header), and whether a browser says it comes from another site."""
    secure = _secure(request)
    scheme, _, bearer = request.headers.get("authorization", "").partition(" ")
    return Credentials(
        cookie=request.cookies.get(SECURE_COOKIE if secure else COOKIE) or None,
        bearer=(bearer.strip() or None) if scheme.lower() == "bearer" else None,
        csrf=request.headers.get(CSRF_HEADER),
        cross_site=request.headers.get("sec-fetch-site", "").lower() == "cross-site",
        address=client,
        secure=secure,
    )


def _session_cookie(response: Response, result: WithCookie, credentials: Credentials) -> None:
    """Set the session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS), or clear it.

    Strict rather than Lax: the page is one static file that asks for the
    account once loaded, and a same-site fetch carries a Strict cookie, so
    nothing is lost; and a link from another site, which Lax would let carry
    the cookie, then reaches nothing signed in.
    """
    secure = credentials.secure
    name = SECURE_COOKIE if secure else COOKIE
    if result.token is None:
        response.delete_cookie(name, path="/", secure=secure, httponly=True, samesite="strict")
        return
    response.set_cookie(
        name,
        result.token,
        max_age=result.max_age,
        path="/",
        secure=secure,
        httponly=True,
        samesite="strict",
    )


def _json(value: msgspec.Struct | msgspec.Raw, status: int) -> Response:
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
    response = JSONResponse(body, status_code=error.status, headers=error.headers)
    if isinstance(error, SessionEndedError):
        # The cookie names no live session: the browser forgets it.
        ended = WithCookie(models.SignedOut(message=error.message))
        _session_cookie(response, ended, Credentials(secure=_secure(request)))
    return response


#: The status of every error the service raises that is not an ApiError (which
#: carries its own): the web's refusals, and the engine's errors that mean the
#: same in every request. Looked up along the error's classes, the nearest
#: first; the body is {"error": message}. A bad value is a 4xx, never a 5xx.
STATUSES: Final[Mapping[type[Exception], int]] = {
    MalformedError: 400,
    TraceError: 400,
    ReplayError: 400,
    ConflictError: 409,
    GameOverError: 409,
    RefusedError: 422,
    # The server's limits, not the request's fault: retry later.
    BusyError: 503,
    NoGuessBudgetError: 503,
    AnalysisBudgetError: 503,
}


def status_of(error: Exception) -> int:
    """The status :data:`STATUSES` gives ``error``: its nearest class's there."""
    return next(STATUSES[kind] for kind in type(error).__mro__ if kind in STATUSES)


async def _refused(request: Request, error: Exception) -> Response:
    headers = None
    if isinstance(error, BusyError):
        headers = {"Retry-After": str(error.retry_after)}
    return JSONResponse({"error": str(error)}, status_code=status_of(error), headers=headers)


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


#: What every answer of the API says about caching: nothing of it may be kept.
NO_STORE: Final = (b"cache-control", b"no-store")


class SecurityHeaders:
    """ASGI middleware: the security headers on every response, errors included.

    And ``Cache-Control: no-store`` on every answer under ``/api/`` that does
    not say otherwise, whoever made it (the routes, the error handlers, the
    router's own 404 and 405): a 409 carries the game's state with its token,
    and no cache on the way may keep it.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *SECURITY_HEADERS]
                if api and not any(name.lower() == NO_STORE[0] for name, _ in headers):
                    headers.append(NO_STORE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
