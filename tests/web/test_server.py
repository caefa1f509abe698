"""The HTTP server's settings for the open internet: no trusted proxy, a header timeout, no name.

A real uvicorn server runs in a thread with a tiny app that echoes the
client address it was given, so that what is tested is the server's setup.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import uvicorn

from minesweep.web.server import server_config

from .helpers import free_port


async def echo_client(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI app answering each request with the client's address as the server gives it."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    body = str(scope["client"][0]).encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(body)).encode())]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


@contextlib.contextmanager
def running(**options: Any) -> Iterator[int]:
    port = free_port()
    server = uvicorn.Server(server_config(echo_client, port=port, log_level="warning", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        for _ in range(400):
            if server.started:
                break
            time.sleep(0.01)
        assert server.started
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def request(port: int, headers: str = "") -> tuple[str, str]:
    """One GET on a fresh connection: the raw head of the answer and its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: x\r\n{headers}Connection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    head, _, body = answer.decode().partition("\r\n\r\n")
    return head, body


def test_x_forwarded_for_is_not_believed_from_anyone_by_default() -> None:
    with running() as port:
        head, body = request(port, "X-Forwarded-For: 203.0.113.7\r\n")
    assert head.startswith("HTTP/1.1 200")
    assert body == "127.0.0.1"


def test_x_forwarded_for_is_believed_from_a_proxy_the_operator_names() -> None:
    with running(trust_proxy=["127.0.0.1"]) as port:
        _, body = request(port, "X-Forwarded-For: 203.0.113.7\r\n")
    assert body == "203.0.113.7"


def test_the_answer_names_no_server() -> None:
    with running() as port:
        head, _ = request(port)
    assert "server:" not in head.lower()


def test_a_connection_that_never_finishes_its_headers_is_closed() -> None:
    with running(header_timeout=0.3) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
            started = time.monotonic()
            closed = sock.recv(4096) == b""  # blocks until the server closes (5 s at most)
            waited = time.monotonic() - started
        # A silent connection is closed too.
        with socket.create_connection(("127.0.0.1", port), timeout=5) as idle:
            idle_closed = idle.recv(4096) == b""
        # And a request that is complete in time is answered.
        head, body = request(port)
    assert closed
    assert waited < 4  # the timeout closed it, not the socket's own 5 s
    assert idle_closed
    assert (head.startswith("HTTP/1.1 200"), body) == (True, "127.0.0.1")


def test_a_kept_alive_connection_serves_requests_and_times_out_a_slow_next_one() -> None:
    with (
        running(header_timeout=0.3) as port,
        socket.create_connection(("127.0.0.1", port), timeout=5) as sock,
    ):
        for _ in range(3):
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            answer = b""
            while not answer.endswith(b"127.0.0.1"):  # the head, then the body
                chunk = sock.recv(4096)
                assert chunk
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # a next request, left unfinished
        time.sleep(0.5)
        assert sock.recv(4096) == b""
