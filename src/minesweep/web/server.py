"""The HTTP server the web game runs on: uvicorn, set up for the open internet.

uvicorn's defaults suit a server behind a trusted proxy on the same host,
not one in public:

- it believes ``X-Forwarded-For`` from 127.0.0.1, so any local proxy or
  process can claim a fresh address on every request and step around every
  per-address limit. Here no address is trusted unless the operator names
  it (``minesweep serve --trust-proxy ADDR ...``);
- it waits for a request's headers as long as a client cares to send them
  (a thousand idle connections hold a thousand slots). Here a connection
  whose request headers are not complete within ``header_timeout`` seconds
  is closed; the keep-alive timeout between requests stays uvicorn's;
- it names itself in a ``server`` header. Here there is none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["DEFAULT_HEADER_TIMEOUT", "serve_app", "server_config"]

#: Seconds a client has to send a request's headers, from its first byte (or its connection).
DEFAULT_HEADER_TIMEOUT = 10.0


def server_config(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
    trust_proxy: Sequence[str] = (),
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
) -> uvicorn.Config:
    """The uvicorn configuration of the web game (see the module's docstring).

    ``trust_proxy`` lists the addresses (or networks, as uvicorn reads them)
    whose ``X-Forwarded-For`` is believed; empty, none is and the client's
    address is the connection's.
    """
    protocol = _with_header_timeout(header_timeout)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=protocol,
        proxy_headers=bool(trust_proxy),
        forwarded_allow_ips=list(trust_proxy) if trust_proxy else [],
        server_header=False,
    )


def serve_app(app: Any, **options: Any) -> None:
    """Serve ``app`` until stopped, with :func:`server_config`'s ``options``."""
    uvicorn.Server(server_config(app, **options)).run()


def _with_header_timeout(seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol, closing a connection whose request headers take over ``seconds``."""

    class HeaderTimeoutProtocol(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_header_timer()

        def data_received(self, data: bytes) -> None:
            # The bytes of a new request, after a response: its headers have
            # ``seconds`` to arrive, from now (uvicorn's keep-alive timer,
            # which this data cancels, only covers the silence before them).
            if self._header_timer is None and (self.cycle is None or self.cycle.response_complete):
                self._start_header_timer()
            super().data_received(data)
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop_header_timer()  # the headers are in: a request is being answered

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # Pipelined requests may already have started the next cycle.
            if self.cycle is not None and not self.cycle.response_complete:
                self._stop_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_header_timer()
            super().connection_lost(exc)

        def _start_header_timer(self) -> None:
            self._stop_header_timer()
            self._header_timer = self.loop.call_later(seconds, self._headers_too_slow)

        def _stop_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_too_slow(self) -> None:
            self._header_timer = None
            if self.cycle is not None and not self.cycle.response_complete:
                return  # a request is being answered: not ours to cut
            if not self.transport.is_closing():
                self.transport.close()

    return HeaderTimeoutProtocol
