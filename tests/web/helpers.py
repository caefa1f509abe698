"""Helpers of the web game's tests: requests, a server in a subprocess, the field behind a game."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import numpy as np

from minesweep import Game, Minefield

POSTGRES = os.environ.get("MINESWEEP_TEST_POSTGRES_URL")

#: The password the tests' accounts have.
PASSWORD = "correct horse battery"


def _cheap_accounts() -> Any:
    try:
        from argon2.profiles import CHEAPEST

        from minesweep.web.accounts import AccountSettings
    except ImportError:  # the web extra is not installed: no web test runs
        return None
    return AccountSettings(hashing=CHEAPEST)


#: Accounts as the tests keep them: argon2id's cheapest parameters.
CHEAP_ACCOUNTS = _cheap_accounts()


def new_game(client: Any, headers: dict[str, str] | None = None, **body: Any) -> dict[str, Any]:
    """Create a game (a beginner one by default) and return its state."""
    response = client.post("/api/games", json=body or {"preset": "beginner"}, headers=headers)
    assert response.status_code == 201, response.text
    state: dict[str, Any] = response.json()
    return state


def sign_up(client: Any, name: str, *, bot: bool = False, password: str = PASSWORD) -> Any:
    """Register ``name`` and stay signed in: the client keeps the session's cookie and
    sends its CSRF token with every request from then on. Returns the answer."""
    response = client.post("/api/accounts", json={"name": name, "password": password, "bot": bot})
    assert response.status_code == 201, response.text
    client.headers["X-CSRF-Token"] = response.json()["csrf_token"]
    return response


def account_token(
    client: Any, name: str, *, bot: bool = False, password: str = PASSWORD
) -> dict[str, str]:
    """Register ``name`` and return the headers of an API client's account token for it.

    From a client of its own on the same app, so that ``client``'s cookie (its
    own signed-in session, if any) stays as it was.
    """
    from starlette.testclient import TestClient

    # Not entered as a context: that would run the app's lifespan, whose end
    # stops the no-guess pool that ``client`` still uses.
    other = TestClient(client.app, base_url=str(client.base_url))
    try:
        body = {"name": name, "password": password, "bot": bot}
        response = other.post("/api/accounts", json=body)
        assert response.status_code == 201, response.text
        response = other.post("/api/tokens", json={"name": name, "password": password})
        assert response.status_code == 201, response.text
    finally:
        other.close()
    return auth(response.json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def get(client: Any, token: str) -> Any:
    """``GET /api/game`` for the game ``token`` names."""
    return client.get("/api/game", headers=auth(token))


def version_of(client: Any, token: str) -> int:
    response = get(client, token)
    assert response.status_code == 200, response.text
    version: int = response.json()["version"]
    return version


def post(client: Any, token: str, what: str, body: dict[str, Any] | None = None) -> Any:
    """POST to ``/api/game/<what>``; a body without a version gets the game's current one."""
    body = dict(body or {})
    if what in ("actions", "undo", "hint") and "version" not in body:
        body["version"] = version_of(client, token)
    return client.post(f"/api/game/{what}", json=body, headers=auth(token))


def act(client: Any, token: str, action: str, row: int, col: int) -> Any:
    return post(client, token, "actions", {"action": action, "row": row, "col": col})


def click(client: Any, token: str, button: str, row: int, col: int) -> Any:
    return post(client, token, "actions", {"click": button, "row": row, "col": col})


def server_game(client: Any, token: str) -> Game:
    """The game as the server has it, mines included (a test may look; no client can)."""
    game: Game = client.app.state.service.game(token)
    return game


def field_of(client: Any, token: str) -> Minefield:
    """The server's field (a test may look; no client can)."""
    field = server_game(client, token).field
    assert field is not None, "no field laid yet"
    return field


def win(client: Any, token: str) -> dict[str, Any]:
    """Win a game by opening every safe square (the test may know the field)."""
    state: dict[str, Any] = get(client, token).json()
    if state["status"] == "ready":
        state = act(client, token, "reveal", 4, 4).json()["state"]
    field = field_of(client, token)
    for r, c in np.argwhere(~field.mines).tolist():
        if state["status"] != "playing":
            break
        if state["view"][r][c] in "#?":
            state = act(client, token, "reveal", r, c).json()["state"]
    return state


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``minesweep serve`` in a subprocess."""

    def __init__(self, url: str, *options: str) -> None:
        self.port = free_port()
        self.url = url
        self.base = f"http://127.0.0.1:{self.port}"
        # Tests act faster than people: no rate limit unless a test asks for one.
        limits = ("--create-rate", "0", "--action-rate", "0", "--log-level", "warning")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "minesweep",
                "serve",
                "--port",
                str(self.port),
                "--db",
                url,
                *limits,
                *options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        import httpx2 as httpx

        self.http = httpx.Client(base_url=self.base, timeout=30)
        for _ in range(300):
            try:
                self.http.get("/openapi.json")
                return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("server did not start: " + self.process.stderr.read().decode())  # type: ignore[union-attr]

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self._close()

    def stop(self) -> None:
        self.process.terminate()
        self._close()

    def _close(self) -> None:
        self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()
        self.http.close()
