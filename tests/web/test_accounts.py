"""Accounts through the API (minesweep.web.accounts): registering, signing in and out, the
cookie and its CSRF token, API tokens, passwords and the sign-in limits. On SQLite and
PostgreSQL. Names, renames, guests, deletion and the page: test_account_lifecycle.py."""

from __future__ import annotations

from typing import Any

import pytest
from argon2 import Parameters, Type
from argon2.profiles import CHEAPEST

from minesweep.web import Limits
from minesweep.web.accounts import AccountSettings
from minesweep.web.schema import accounts, games, sessions

from .account_helpers import OPEN, MakeClient, account_token_for, another, count, rows, sign_in
from .helpers import PASSWORD, account_token, auth, get, new_game, sign_up

# --- registering, the cookie, signing in and out ---------------------------------------------


def test_registering_signs_in_with_an_httponly_strict_cookie(client: Any) -> None:
    answer = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["account"]["name"] == "Alice"
    assert body["account"]["bot"] is False
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("minesweep_session=")
    attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")}
    assert {"httponly", "path", "max-age", "samesite"} <= attributes
    assert "samesite=strict" in cookie.lower()
    # Plain HTTP: not Secure (the browser would drop it), not __Host-.
    assert "secure" not in attributes
    # The secret is in the cookie only; the body has the CSRF token, which differs.
    secret = cookie.split(";")[0].split("=", 1)[1]
    assert secret not in answer.text
    assert body["csrf_token"]
    assert body["csrf_token"] != secret
    # Only its hash is stored.
    (session,) = rows(client, sessions)
    assert session.digest != secret
    assert secret not in session.digest
    assert session.kind == "cookie"
    (account,) = rows(client, accounts)
    assert account.password.startswith("$argon2id$")
    assert PASSWORD not in account.password
    me = client.get("/api/account")
    assert me.status_code == 200
    assert me.json() == body


def test_over_https_the_cookie_is_secure_and_host_only(client: Any) -> None:
    browser = another(client, base_url="https://testserver")
    answer = browser.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert answer.status_code == 201
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("__Host-minesweep_session=")
    parts = [part.strip().lower() for part in cookie.split(";")]
    assert "secure" in parts
    assert "httponly" in parts
    assert "path=/" in parts
    assert not any(part.startswith("domain") for part in parts)
    assert browser.get("/api/account").json()["account"]["name"] == "Alice"
    browser.close()


def test_signing_out_ends_the_session_and_clears_the_cookie(client: Any) -> None:
    sign_up(client, "Alice")
    cookie = client.cookies.get("minesweep_session")
    assert cookie
    out = client.delete("/api/session")
    assert out.status_code == 200, out.text
    assert "max-age=0" in out.headers["set-cookie"].lower()
    assert count(client, sessions) == 0
    assert client.get("/api/account").status_code == 401
    # A cookie kept from before names no session: refused, and cleared again.
    client.cookies.set("minesweep_session", cookie)
    stale = client.get("/api/account")
    assert stale.status_code == 401
    assert "sign in again" in stale.json()["error"]
    assert "max-age=0" in stale.headers["set-cookie"].lower()
    # Signing in again works, with a new secret.
    again = sign_in(client, "Alice")
    assert again.status_code == 200
    assert again.headers["set-cookie"].split(";")[0] != f"minesweep_session={cookie}"


def test_a_session_ends_when_it_expires(make_client: MakeClient) -> None:
    wall = [1_000_000.0]
    client = make_client(limits=Limits(**OPEN), wall=lambda: wall[0])
    sign_up(client, "Alice")
    assert client.get("/api/account").status_code == 200
    wall[0] += 31 * 24 * 3600.0  # past the 30 days
    assert client.get("/api/account").status_code == 401


# --- CSRF -------------------------------------------------------------------------------------


def test_a_cookie_signed_write_without_the_csrf_token_is_refused(client: Any) -> None:
    sign_up(client, "Alice")
    csrf = client.headers.pop("X-CSRF-Token")
    refused = [
        client.post("/api/games", json={"preset": "beginner"}),
        client.post("/api/games", json={"preset": "beginner"}, headers={"X-CSRF-Token": "x"}),
        client.post("/api/account/name", json={"name": "Alicia"}),
        client.delete("/api/session"),
        client.request("DELETE", "/api/account", json={"password": PASSWORD}),
        client.post("/api/account/password", json={"password": PASSWORD, "new_password": "x" * 12}),
    ]
    assert [answer.status_code for answer in refused] == [403] * len(refused)
    assert "X-CSRF-Token" in refused[0].json()["error"]
    assert count(client, games) == 0
    assert rows(client, accounts)[0].name == "Alice"
    assert count(client, sessions) == 1
    # A browser's word that the request comes from another site: refused, token or not.
    cross = client.post(
        "/api/games",
        json={"preset": "beginner"},
        headers={"X-CSRF-Token": csrf, "Sec-Fetch-Site": "cross-site"},
    )
    assert cross.status_code == 403
    # Reads need no token; with it, a write goes through.
    assert client.get("/api/account").json()["csrf_token"] == csrf
    made = client.post("/api/games", json={"preset": "beginner"}, headers={"X-CSRF-Token": csrf})
    assert made.status_code == 201
    (game,) = rows(client, games)
    assert game.account_id == rows(client, accounts)[0].id


def test_signing_in_from_another_site_is_refused(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    client.cookies.clear()
    cross = {"Sec-Fetch-Site": "cross-site"}
    for path in ("/api/session", "/api/tokens"):
        answer = client.post(path, json={"name": "Alice", "password": PASSWORD}, headers=cross)
        assert answer.status_code == 403, path
    answer = client.post("/api/accounts", json={"name": "Bob", "password": PASSWORD}, headers=cross)
    assert answer.status_code == 403
    assert count(client, sessions) == 1  # the registration's, cleared from the jar


# --- account tokens -------------------------------------------------------------------------


def test_an_account_token_signs_api_clients_in_and_is_never_a_games(client: Any) -> None:
    headers = account_token(client, "Alice")
    token = headers["Authorization"].removeprefix("Bearer ")
    assert token.startswith("msa_")
    assert (
        "set-cookie"
        not in client.post("/api/tokens", json={"name": "Alice", "password": PASSWORD}).headers
    )
    me = client.get("/api/account", headers=headers)
    assert me.status_code == 200
    assert me.json() == {"account": me.json()["account"], "csrf_token": None}
    # No CSRF token needed: a browser never sends this header by itself.
    game = new_game(client, headers=headers, preset="beginner")
    assert rows(client, games)[0].account_id is not None
    # An account token on a game's route, and a game's token on an account's: refused by name.
    mixed = get(client, token)
    assert mixed.status_code == 401
    assert "account token" in mixed.json()["error"]
    wrong = client.get("/api/account", headers=auth(game["id"]))
    assert wrong.status_code == 401
    assert "game's token" in wrong.json()["error"]
    # A game's token sent to POST /api/games (a client that sends it everywhere) is ignored:
    # the game is a guest's.
    guest = new_game(client, headers=auth(game["id"]), preset="beginner")
    assert client.app.state.service.db.load(guest["id"]).account_id is None
    # Signing out with the token revokes it.
    assert client.delete("/api/session", headers=headers).status_code == 200
    gone = client.post("/api/games", json={"preset": "beginner"}, headers=headers)
    assert gone.status_code == 401
    assert "revoked or expired" in gone.json()["error"]


# --- the same answer for an unknown name and a wrong password -------------------------------


def test_an_unknown_name_gets_the_answer_a_wrong_password_gets(client: Any) -> None:
    sign_up(client, "Alice")
    client.cookies.clear()
    wrong = sign_in(client, "Alice", "not her password")
    unknown = sign_in(client, "Nobody", "not her password")
    assert (wrong.status_code, wrong.json()) == (unknown.status_code, unknown.json())
    assert wrong.status_code == 401
    assert wrong.json() == {"error": "wrong name or password"}
    assert "set-cookie" not in wrong.headers
    assert "set-cookie" not in unknown.headers
    for path in ("/api/tokens",):
        a = client.post(path, json={"name": "Alice", "password": "nope nope"})
        b = client.post(path, json={"name": "Nobody", "password": "nope nope"})
        assert (a.status_code, a.json()) == (b.status_code, b.json()) == (401, wrong.json())


def test_an_unknown_name_costs_a_hash_check_too(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same work, as far as it can be seen: both answers verify one argon2 hash.
    checked: list[str] = []
    service_accounts = client.app.state.service.accounts
    hasher = service_accounts.hasher

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(hasher, name)

        def verify(self, hash: str, password: str) -> Any:
            checked.append(hash)
            return hasher.verify(hash, password)

    monkeypatch.setattr(service_accounts, "hasher", Counting())
    sign_up(client, "Alice")
    sign_in(client, "Alice", "wrong password")
    sign_in(client, "Nobody", "wrong password")
    assert len(checked) == 2
    assert all(hash.startswith("$argon2id$") for hash in checked)


# --- the sign-in limits ---------------------------------------------------------------------


def test_signing_in_is_limited_per_name_with_waits_that_double(make_client: MakeClient) -> None:
    now = [0.0]
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0])
    sign_up(client, "Alice")
    client.cookies.clear()
    answers = [sign_in(client, "Alice", f"guess {n}").status_code for n in range(5)]
    assert answers == [401] * 5
    # The sixth waits a second, even with the right password; look-alikes share the limit.
    for name in ("Alice", "ALICE", "\u0410lice"):
        blocked = sign_in(client, name)
        assert blocked.status_code == 429, name
        assert blocked.headers["Retry-After"] == "1"
    now[0] += 1.0
    assert sign_in(client, "Alice", "guess 5").status_code == 401
    second = sign_in(client, "Alice")
    assert (second.status_code, second.headers["Retry-After"]) == (429, "2")
    now[0] += 2.0
    assert sign_in(client, "Alice", "guess 6").status_code == 401
    assert sign_in(client, "Alice").headers["Retry-After"] == "4"
    now[0] += 4.0
    # The right password, once the wait is over: signed in, and the failures forgotten.
    assert sign_in(client, "Alice").status_code == 200
    assert sign_in(client, "Alice", "guess 7").status_code == 401


def test_an_unknown_name_is_limited_exactly_as_a_known_one(make_client: MakeClient) -> None:
    now = [0.0]
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0])
    sign_up(client, "Alice")
    client.cookies.clear()

    def attempts(name: str) -> list[tuple[int, Any]]:
        answers = [sign_in(client, name, "wrong password") for _ in range(7)]
        return [(answer.status_code, answer.json()) for answer in answers]

    assert attempts("Alice") == attempts("Nobody")


def test_signing_in_is_limited_per_address(make_client: MakeClient) -> None:
    now = [0.0]
    settings = AccountSettings(hashing=CHEAPEST, address_burst=3, address_rate=0.5)
    client = make_client(limits=Limits(**OPEN), clock=lambda: now[0], accounts=settings)
    sign_up(client, "Alice")
    client.cookies.clear()
    # A different name each time, so no name's own limit is reached.
    answers = [sign_in(client, f"name {n}").status_code for n in range(4)]
    assert answers == [401, 401, 401, 429]
    # Another address has its own bucket: the right password signs in from there.
    elsewhere = another(client, client=("198.51.100.7", 4000))
    assert sign_in(elsewhere, "Alice").status_code == 200
    elsewhere.close()
    now[0] += 2.0  # half an attempt a second: one more after 2 s
    assert sign_in(client, "Alice").status_code == 200
    assert sign_in(client, "Alice").status_code == 429


def test_signing_in_is_limited_per_ipv6_64_not_per_address(make_client: MakeClient) -> None:
    # Issue 53: the holder of a /64 has 2**64 addresses; they share one bucket.
    settings = AccountSettings(hashing=CHEAPEST, address_burst=3, address_rate=0.5)
    client = make_client(limits=Limits(**OPEN), clock=lambda: 0.0, accounts=settings)
    sign_up(client, "Alice")
    client.close()
    guesses = [another(client, client=(f"2001:db8:1:2:{n:x}::{n + 1:x}", 4000)) for n in range(4)]
    answers = [sign_in(guesser, f"name {n}").status_code for n, guesser in enumerate(guesses)]
    assert answers == [401, 401, 401, 429]
    # The IPv4-mapped form of an IPv4 address is that address: one bucket.
    mapped = [
        another(client, client=(address, 4000)) for address in ("::ffff:192.0.2.9", "192.0.2.9")
    ]
    assert [sign_in(one, f"other {n}").status_code for n, one in enumerate(mapped * 2)] == [
        401,
        401,
        401,
        429,
    ]
    # Another /64 has its own.
    elsewhere = another(client, client=("2001:db8:1:3::1", 4000))
    assert sign_in(elsewhere, "Alice").status_code == 200
    for one in [*guesses, *mapped, elsewhere]:
        one.close()


# --- passwords ------------------------------------------------------------------------------


def test_changing_the_password_ends_every_other_session(client: Any) -> None:
    sign_up(client, "Alice")
    token = account_token_for(client, "Alice")
    other = another(client)
    assert sign_in(other, "Alice").status_code == 200
    wrong = client.post(
        "/api/account/password", json={"password": "not it at all", "new_password": "x" * 12}
    )
    assert wrong.status_code == 401
    short = client.post("/api/account/password", json={"password": PASSWORD, "new_password": "x"})
    assert short.status_code == 422
    assert "8 to 1024 characters" in short.json()["error"]
    changed = client.post(
        "/api/account/password", json={"password": PASSWORD, "new_password": "a new passphrase"}
    )
    assert changed.status_code == 200, changed.text
    # This session goes on; the other browser's and the API token are over.
    assert client.get("/api/account").status_code == 200
    assert other.get("/api/account").status_code == 401
    assert client.get("/api/account", headers=token).status_code == 401
    other.close()
    client.cookies.clear()
    assert sign_in(client, "Alice").status_code == 401
    assert sign_in(client, "Alice", "a new passphrase").status_code == 200


def test_a_hash_made_with_old_parameters_is_made_again_at_sign_in(
    make_client: MakeClient,
) -> None:
    old = make_client(limits=Limits(**OPEN))  # the tests' cheapest parameters
    sign_up(old, "Alice")
    before = rows(old, accounts)[0].password
    assert "m=8,t=1,p=1" in before
    stronger = Parameters(
        type=Type.ID, version=19, salt_len=16, hash_len=32, time_cost=2, memory_cost=1024,
        parallelism=1,
    )  # fmt: skip
    settings = AccountSettings(hashing=stronger)
    new = make_client(limits=Limits(**OPEN), accounts=settings)
    assert sign_in(new, "Alice").status_code == 200
    after = rows(new, accounts)[0].password
    assert "m=1024,t=2" in after
    assert after != before
    # The new hash still checks the same password.
    new.cookies.clear()
    assert sign_in(new, "Alice").status_code == 200


def test_registration_checks_the_name_and_the_password(client: Any) -> None:
    short = client.post("/api/accounts", json={"name": "Alice", "password": "short"})
    assert short.status_code == 422
    sign_up(client, "Alice")
    taken = client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert taken.status_code == 409
    assert "belongs to another account" in taken.json()["error"]
    assert count(client, accounts) == 1
