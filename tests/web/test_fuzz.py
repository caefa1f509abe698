"""Thousands of random requests against the web game on SQLite and PostgreSQL, the review
routes included: never a 5xx."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import PASSWORD, account_token, auth, new_game, sign_up

FIELDS = [
    "preset", "rows", "cols", "mines", "rule", "no_guess", "seed", "name", "bot",
    "action", "click", "row", "col", "version",
]  # fmt: skip
PATHS = ["/api/games", "/api/game", "/api/game/actions", "/api/game/undo", "/api/game/hint",
         "/api/game.evf", "/api/replay-files"]  # fmt: skip

# Text with everything a JSON string can carry: lone surrogates, NUL, bidi controls.
SPECIAL = "\ud800\udfff\x00\x07\u202e\u2066\u2028\ufeff\u0301e"
odd_text = st.text(
    st.characters(codec=None, exclude_categories=()) | st.sampled_from(SPECIAL), max_size=50
) | st.sampled_from(["beginner", "expert", "reveal", "flag", "left", *SPECIAL])
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | odd_text
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(odd_text, inner, max_size=4),
    max_leaves=10,
)
# Bodies close to valid ones, so odd values reach the service and the database
# rather than stopping at the first unknown field, and bodies of anything.
new_games = st.fixed_dictionaries(
    {"preset": st.sampled_from(["beginner", "expert"]), "name": odd_text},
    optional={"rule": st.sampled_from(["safe", "none"]), "seed": st.integers(0, 2**64),
              "bot": st.booleans()},
)  # fmt: skip
custom_games = st.fixed_dictionaries(
    {"rows": st.integers(-3, 200), "cols": st.integers(-3, 200), "mines": st.integers(-3, 9999)},
    optional={"name": odd_text, "no_guess": st.booleans(), "rule": odd_text},
)
moves = st.fixed_dictionaries(
    {"row": st.integers(-3, 12), "col": st.integers(-3, 12), "version": st.integers(-2, 5)},
    optional={"action": odd_text | st.sampled_from(["reveal", "flag", "chord", "question"]),
              "click": odd_text | st.sampled_from(["left", "right", "middle"])},
)  # fmt: skip
bodies = (
    new_games
    | custom_games
    | moves
    | st.dictionaries(st.sampled_from(FIELDS) | odd_text, values, max_size=8)
)


def _encode(body: Any) -> bytes:
    # ensure_ascii writes a lone surrogate as its \\u escape, as a client could.
    return json.dumps(body).encode()


SETTINGS = settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _send(client: Any, path: str, body: Any, headers: dict[str, str]) -> None:
    headers = {"content-type": "application/json", **headers}
    if path in ("/api/game", "/api/game.evf"):
        response = client.get(path, headers=headers)
    else:
        response = client.post(path, content=_encode(body), headers=headers)
    assert response.status_code < 500, (path, body, response.text)
    if response.headers["content-type"] == "application/octet-stream":
        assert response.status_code == 200  # a finished game's replay file
        return
    assert "error" in response.json() or response.status_code in (200, 201)


@SETTINGS
@given(body=new_games | custom_games)
def test_random_new_games_never_get_a_5xx(client: Any, body: Any) -> None:
    _send(client, "/api/games", body, {})


@SETTINGS
@given(body=moves, path=st.sampled_from(PATHS[2:]))
def test_random_moves_never_get_a_5xx(client: Any, body: Any, path: str) -> None:
    _send(client, path, body, auth(_game(client)))


@SETTINGS
@given(
    path=st.sampled_from(PATHS),
    body=bodies | values,
    token=st.sampled_from(["game", "none", "junk"]),
    junk=st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=80),
)
def test_random_requests_never_get_a_5xx(
    client: Any, path: str, body: Any, token: str, junk: str
) -> None:
    headers = {}
    if token == "game":
        headers = auth(_game(client))
    elif token == "junk":
        headers = {"Authorization": f"Bearer {junk}"}
    _send(client, path, body, headers)


@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    prefix=st.sampled_from(["/api/leaderboards/", "/api/bots/", "/api/replays/", "/api/"]),
    rest=st.text(st.characters(codec=None), max_size=60),
    suffix=st.sampled_from(["", ".evf"]),
)
def test_random_paths_never_get_a_5xx(client: Any, prefix: str, rest: str, suffix: str) -> None:
    path = prefix + quote(rest.encode("utf-8", "surrogatepass"), safe="") + suffix
    response = client.get(path)
    assert response.status_code < 500, (path, response.text)


# --- review (minesweep.web.review) -------------------------------------------------------

#: Bodies close to a decision, so odd reasons reach the service and the database.
decisions = st.fixed_dictionaries(
    {"verdict": st.sampled_from(["confirm", "void"]) | odd_text},
    optional={"reason": odd_text | st.text(max_size=300)},
)


@pytest.fixture
def reviewing(make_client: Callable[..., Any]) -> dict[str, Any]:
    """A player (``ada``) with three wins held for review, and an operator (``olga``, named
    at its app's start), each signed in by the cookie; their CSRF tokens apart, so that
    a request may send it, a wrong one, or none; and a guest."""
    from minesweep.web import Limits

    from .test_review import OPEN, _won

    now = [0.0]
    limits = Limits(**OPEN)
    player = make_client(limits=limits, clock=lambda: now[0])
    player_csrf = sign_up(player, "ada").json()["csrf_token"]
    account_token(player, "olga")
    records = [_won(player, now, seconds)["public_id"] for seconds in (120.0, 130.0, 140.0)]
    player.headers.pop("X-CSRF-Token")
    operator = make_client(limits=limits, clock=lambda: now[0], operators=["olga"])
    signed = operator.post("/api/session", json={"name": "olga", "password": PASSWORD})
    return {
        "clients": {"operator": operator, "player": player, "guest": make_client(limits=limits)},
        "csrf": {"operator": signed.json()["csrf_token"], "player": player_csrf},
        "records": records,
    }


@SETTINGS
@given(
    method=st.sampled_from(["GET", "POST"]),
    path=st.sampled_from(["/api/reviews", "/api/account/reviews", "record", "junk"]),
    who=st.sampled_from(["operator", "player", "guest"]),
    csrf=st.sampled_from(["own", "none", "junk"]),
    record=st.integers(0, 2),
    junk=st.text(st.characters(codec=None), max_size=70),
    body=decisions | values,
    raw=st.booleans(),
)
def test_random_review_requests_never_get_a_5xx(
    reviewing: dict[str, Any],
    method: str,
    path: str,
    who: str,
    csrf: str,
    record: int,
    junk: str,
    body: Any,
    raw: bool,
) -> None:
    client = reviewing["clients"][who]
    headers = {"content-type": "application/json"}
    if csrf == "own" and who in reviewing["csrf"]:
        headers["X-CSRF-Token"] = reviewing["csrf"][who]
    elif csrf == "junk":
        headers["X-CSRF-Token"] = quote(junk[:40].encode("utf-8", "surrogatepass"), safe="") or "x"
    if path == "record":
        path = f"/api/reviews/{reviewing['records'][record]}"
    elif path == "junk":
        path = "/api/reviews/" + quote(junk.encode("utf-8", "surrogatepass"), safe="")
    if method == "GET":
        response = client.get(path, headers=headers)
    else:
        content = junk.encode("utf-8", "surrogatepass") if raw else _encode(body)
        response = client.post(path, content=content, headers=headers)
    assert response.status_code < 500, (method, path, body, response.text)
    assert "error" in response.json() or response.status_code == 200


#: Each client's game, made at its first use. Keyed by the client itself, held
#: weakly: a client's id() is reused once it is gone, and a later test's client
#: must get a game of its own database, not a token its database never knew.
_GAMES: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _game(client: Any) -> str:
    """The client's own game: made at its first use, and again once it is over."""
    token = _GAMES.get(client)
    if token is None or client.get("/api/game", headers=auth(token)).json().get("status") not in (
        "ready",
        "playing",
    ):
        token = _GAMES[client] = new_game(client, preset="beginner")["id"]
    return token
