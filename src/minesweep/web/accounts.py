"""Accounts: registration, sign-in, sessions and API tokens, renames, deletion; no HTTP.

An account is what a name belongs to. Anyone may play without one, as a
guest, but only an account's games rank and count in a win rate, so no one
can lower another's win rate, or take their name, by playing under it. A
name is one account's: names are compared by their confusable skeleton
(:mod:`minesweep.web.names`), so a look-alike of a taken name is taken too.

Passwords are hashed with argon2id (argon2-cffi), by default with RFC 9106's
second recommended option (its "low memory" one: t=3, 64 MiB, p=4), which is
above OWASP's minimum (t=2, 19 MiB, p=1); a hash made with other parameters
is made again at the next sign-in. At most a few hashes run at once: each
takes 64 MiB and a core for a fifth of a second, and a flood of sign-ins
must not take the server's memory.

Two kinds of session, told apart by how they travel:

* the page's: a random secret in an HttpOnly, SameSite=Strict cookie (Secure,
  and named with the ``__Host-`` prefix, over HTTPS). Every state-changing
  request that the cookie signs in must carry the session's CSRF token in
  the ``X-CSRF-Token`` header: a keyed hash of the secret, so nothing more is
  stored, and the page reads it from the answer to its sign-in. Requests a
  browser marks ``Sec-Fetch-Site: cross-site`` are refused outright.
* an API client's: an account token, ``Authorization: Bearer msa_...``. A
  browser never sends it by itself, so it needs no CSRF token. The prefix
  keeps it apart from a game's token, which travels in the same header on a
  game's own routes: each kind of route refuses the other kind by name.

Only the SHA-256 of a session's secret is stored. Signing in is limited per
name (a few failures, then waits that double) and per address (a token
bucket), and an unknown name gets exactly the answer a wrong password gets,
after the same work: a dummy hash is checked.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Final, Literal

import msgspec
from argon2 import Parameters, PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.profiles import RFC_9106_LOW_MEMORY

from . import models
from .db import AccountRow, Database, NameTakenError
from .guards import TokenBuckets
from .limits import ApiError
from .names import BadNameError, check_name, name_keys

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "SECURE_COOKIE",
    "TOKEN_PREFIX",
    "AccountSettings",
    "Accounts",
    "Credentials",
    "Session",
    "SessionEndedError",
    "SignInThrottle",
    "WithCookie",
]

#: What an account token starts with, so that it is never taken for a game's.
TOKEN_PREFIX: Final = "msa_"
#: The session cookie's name over plain HTTP, and over HTTPS: browsers accept a
#: ``__Host-`` cookie only when it is Secure, for the whole site and no other
#: host, so a sibling subdomain or a plain-HTTP page cannot plant one.
COOKIE: Final = "minesweep_session"
SECURE_COOKIE: Final = "__Host-minesweep_session"
CSRF_HEADER: Final = "X-CSRF-Token"
#: The one answer to a failed sign-in, whether the name exists or not.
WRONG: Final = "wrong name or password"
_CSRF_KEY: Final = b"minesweep csrf token"


@dataclass(frozen=True)
class AccountSettings:
    """How accounts are kept: the hash's cost, passwords, sessions, sign-in limits."""

    #: argon2id's parameters (argon2-cffi's profiles; tests use a cheap one).
    hashing: Parameters = field(default_factory=lambda: RFC_9106_LOW_MEMORY)
    min_password: int = 8
    max_password: int = 1024
    #: How long the page's session and an API token last, in seconds.
    session_seconds: float = 30 * 24 * 3600.0
    token_seconds: float = 365 * 24 * 3600.0
    #: Sign-in attempts an address may make at once, then a second.
    address_burst: int = 20
    address_rate: float = 1 / 6
    #: Failed sign-ins a name takes before waits begin: ``first_wait`` seconds,
    #: doubling at each failure, at most ``max_wait``.
    free_failures: int = 5
    first_wait: float = 1.0
    max_wait: float = 900.0
    #: Hashes computed at once, and how long a request waits for its turn (then 503).
    hashing_at_once: int = 2
    hashing_wait: float = 10.0


@dataclass(frozen=True)
class Credentials:
    """What a request carries that may sign it in, as the HTTP layer read it."""

    #: The session cookie's value.
    cookie: str | None = None
    #: ``Authorization: Bearer``'s token, whatever it is.
    bearer: str | None = None
    #: The ``X-CSRF-Token`` header.
    csrf: str | None = None
    #: The browser said the request comes from another site (``Sec-Fetch-Site``).
    cross_site: bool = False
    #: The client's address, for the sign-in limit.
    address: str = "unknown"
    #: The request came over HTTPS (the cookie is Secure, and named ``__Host-``, then).
    secure: bool = False


@dataclass(frozen=True)
class Session:
    account: AccountRow
    digest: str
    kind: Literal["cookie", "bearer"]
    #: The page's CSRF token (None for an API token).
    csrf: str | None


@dataclass(frozen=True)
class WithCookie:
    """An answer that also sets the session cookie to ``token``, or clears it (None)."""

    answer: msgspec.Struct
    token: str | None = None
    max_age: int = 0


class SessionEndedError(ApiError):
    """A 401 for a session cookie that names no live session: the answer clears it."""


class SignInThrottle:
    """How often a name may be tried from anywhere, and an address may try any name.

    A name (by its key, so its look-alikes share it) takes ``free_failures``
    failures, then waits that double at each further failure, up to
    ``max_wait``; a success forgets its failures. An address has a token
    bucket of ``address_burst`` attempts. Both are kept in memory: a
    restarted server starts afresh, which costs an attacker a restart per
    few guesses.
    """

    def __init__(self, settings: AccountSettings, clock: Callable[[], float]) -> None:
        self.settings, self.clock = settings, clock
        self.addresses = TokenBuckets(settings.address_rate, settings.address_burst, clock=clock)
        self._failures: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, address: str, key: str) -> float:
        """Seconds before this attempt may be made (0.0: now, and it is counted)."""
        settings, now = self.settings, self.clock()
        with self._lock:
            count, at = self._failures.get(key, (0, now))
        beyond = count - settings.free_failures
        if beyond >= 0:
            left = at + min(settings.first_wait * 2.0**beyond, settings.max_wait) - now
            if left > 0:
                return left
        return self.addresses.take(address)

    def failed(self, key: str) -> None:
        now = self.clock()
        with self._lock:
            count, at = self._failures.pop(key, (0, now))
            # A name left alone for long enough starts again from nothing.
            if now - at > 4 * self.settings.max_wait:
                count = 0
            self._failures[key] = (count + 1, now)
            while len(self._failures) > 100_000:
                self._failures.popitem(last=False)

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


def _digest(secret: str) -> str:
    """What is stored of a session's secret."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _csrf(secret: str) -> str:
    """The session's CSRF token: a keyed hash of its secret, which the stored digest
    does not give."""
    mac = hmac.new(_CSRF_KEY, secret.encode("utf-8", "surrogatepass"), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def _same(sent: str, expected: str) -> bool:
    # Bytes: compare_digest refuses str holding anything past ASCII, and a
    # header may hold Latin-1.
    return hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("ascii"))


def public(account: AccountRow, operators: Collection[int] = ()) -> models.Account:
    """What an account's owner reads of it; ``operators`` are the operators' ids."""
    return models.Account(
        name=account.name,
        bot=account.bot,
        created_at=account.created_at,
        operator=account.id in operators,
    )


class Accounts:
    """The accounts behind the web game: every route's logic, and the guests' names."""

    def __init__(
        self,
        database: Database,
        settings: AccountSettings,
        *,
        max_name: int,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        deleted: Callable[[], None] = lambda: None,
    ) -> None:
        self.db, self.settings, self.max_name = database, settings, max_name
        self.clock, self.wall = clock, wall
        #: Called once an account is deleted: what the server keeps in memory
        #: with names in it (its replays, encoded) is dropped too.
        self.deleted = deleted
        self.hasher = PasswordHasher.from_parameters(settings.hashing)
        self.throttle = SignInThrottle(settings, clock)
        self._hashing = threading.BoundedSemaphore(settings.hashing_at_once)
        self._dummy: str | None = None
        self._lock = threading.Lock()
        self._swept = -math.inf
        #: The operators' account ids (minesweep.web.review fills it at the start).
        self.operators: set[int] = set()

    # --- who a request is -------------------------------------------------------------

    def session(
        self, credentials: Credentials | None, *, write: bool, required: bool
    ) -> Session | None:
        """The session a request is signed in by; None for a guest (unless ``required``: 401).

        An account token comes first; a bearer token without its prefix is a
        game's (a client that sends its game's token everywhere): ignored
        where an account is optional, refused by name where one is required.
        A cookie's session must be live (401 otherwise, and the answer
        clears the cookie); for a ``write``, the request must carry the
        session's CSRF token and not come from another site (403).
        """
        credentials = credentials or Credentials()
        bearer = credentials.bearer
        if bearer is not None and bearer.startswith(TOKEN_PREFIX):
            digest = _digest(bearer)
            found = self.db.session(digest, self.wall())
            if found is None or found[0].kind != "bearer":
                raise ApiError(
                    401, "the account token is unknown, revoked or expired: get another one"
                )
            return Session(found[1], digest, "bearer", None)
        if bearer is not None and required and credentials.cookie is None:
            raise ApiError(
                401,
                f"that is a game's token: an account's routes take an account token "
                f"('Authorization: Bearer {TOKEN_PREFIX}...') or the page's session",
            )
        cookie = credentials.cookie
        if cookie is not None:
            digest = _digest(cookie)
            found = self.db.session(digest, self.wall())
            if found is None or found[0].kind != "cookie":
                raise SessionEndedError(401, "the session has ended: sign in again")
            csrf = _csrf(cookie)
            if write:
                self._same_site(credentials)
                if credentials.csrf is None or not _same(credentials.csrf, csrf):
                    raise ApiError(
                        403,
                        f"a request signed in by the session cookie sends the session's CSRF "
                        f"token (from signing in, or GET /api/account) as the header "
                        f"{CSRF_HEADER}",
                    )
            return Session(found[1], digest, "cookie", csrf)
        if required:
            raise ApiError(
                401,
                f"sign in first: the page's session cookie, or 'Authorization: Bearer "
                f"{TOKEN_PREFIX}...' with an account token",
            )
        return None

    def _signed_in(self, credentials: Credentials | None) -> Session:
        session = self.session(credentials, write=True, required=True)
        assert session is not None
        return session

    @staticmethod
    def _same_site(credentials: Credentials) -> None:
        if credentials.cross_site:
            raise ApiError(403, "requests from other sites cannot sign in or change an account")

    # --- registration and signing in ---------------------------------------------------

    def register(self, body: models.Register, credentials: Credentials) -> WithCookie:
        """A new account (201), signed in by a session cookie; 409 when its name is taken."""
        self._same_site(credentials)
        name = self._name(body.name)
        password = self._new_password(body.password)
        folded, cased = name_keys(name)
        self._free(name, folded, cased)
        row = {
            "name": name,
            "folded_key": folded,
            "cased_key": cased,
            "password": self._hash(password),
            "bot": body.bot,
            "created_at": self.wall(),
        }
        try:
            account = self.db.add_account(row)
        except NameTakenError:
            # Another registration of a look-alike won the race.
            self._free(name, folded, cased)
            raise ApiError(409, "that name was just taken: pick another") from None
        return self._cookie_session(account, credentials)

    def sign_in(self, body: models.SignIn, credentials: Credentials) -> WithCookie:
        """The page's session: a cookie, and the CSRF token in the answer."""
        self._same_site(credentials)
        account = self._check(body.name, body.password, credentials)
        return self._cookie_session(account, credentials)

    def token(self, body: models.SignIn, credentials: Credentials) -> models.AccountToken:
        """An API client's account token (``msa_...``); no cookie."""
        self._same_site(credentials)
        account = self._check(body.name, body.password, credentials)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        expires = self._open(account, secret, "bearer", self.settings.token_seconds)
        return models.AccountToken(
            account=public(account, self.operators), token=secret, expires_at=expires
        )

    def _check(self, name: str, password: str, credentials: Credentials) -> AccountRow:
        """The account ``name`` and ``password`` sign in as; 401 (the same for an unknown
        name), or 429 while the name or the address must wait."""
        folded, _ = name_keys(name)
        self._throttle(credentials, folded)
        account = self.db.account_by_keys(folded)
        if not self._verify(None if account is None else account.password, password):
            self.throttle.failed(folded)
            raise ApiError(401, WRONG)
        assert account is not None
        self.throttle.succeeded(folded)
        if self.hasher.check_needs_rehash(account.password):
            # The parameters changed since this hash was made: the password is
            # at hand now, and only now.
            rehashed = self._hash(unicodedata.normalize("NFC", password))
            self.db.update_account(account.id, password=rehashed)
        return account

    def _throttle(self, credentials: Credentials, key: str) -> None:
        wait = self.throttle.wait(credentials.address, key)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ApiError(
                429,
                f"too many sign-in attempts for this name or from this address; retry in "
                f"{seconds} s",
                headers={"Retry-After": str(seconds)},
            )

    def _cookie_session(self, account: AccountRow, credentials: Credentials) -> WithCookie:
        if credentials.cookie is not None:
            # Signing in again (as anyone) ends the session the cookie held.
            self.db.end_session(_digest(credentials.cookie))
        secret = secrets.token_urlsafe(32)
        seconds = self.settings.session_seconds
        self._open(account, secret, "cookie", seconds)
        answer = models.SignedIn(account=public(account, self.operators), csrf_token=_csrf(secret))
        return WithCookie(answer, token=secret, max_age=int(seconds))

    def _open(self, account: AccountRow, secret: str, kind: str, seconds: float) -> float:
        now = self.wall()
        if now - self._swept > 3600.0:
            self._swept = now
            self.db.end_expired_sessions(now)
        expires = now + seconds
        self.db.add_session(
            {
                "digest": _digest(secret),
                "account_id": account.id,
                "kind": kind,
                "created_at": now,
                "expires_at": expires,
            }
        )
        return expires

    # --- the signed-in account ---------------------------------------------------------

    def whoami(self, credentials: Credentials) -> models.SignedIn:
        session = self.session(credentials, write=False, required=True)
        assert session is not None
        return models.SignedIn(
            account=public(session.account, self.operators), csrf_token=session.csrf
        )

    def sign_out(self, credentials: Credentials) -> WithCookie:
        """The session (or the API token) ended; the cookie cleared."""
        session = self._signed_in(credentials)
        self.db.end_session(session.digest)
        return WithCookie(models.SignedOut(message="signed out"))

    def change_password(
        self, body: models.PasswordChange, credentials: Credentials
    ) -> models.SignedIn:
        """A new password, given the current one; every other session of the account ends."""
        session = self._signed_in(credentials)
        account = self._confirm(session, body.password, credentials)
        password = self._new_password(body.new_password)
        self.db.change_password(account.id, self._hash(password), keep=session.digest)
        return models.SignedIn(account=public(account, self.operators), csrf_token=session.csrf)

    def rename(self, body: models.Rename, credentials: Credentials) -> models.SignedIn:
        """A new name, checked as at registration; the account's games and records follow it."""
        session = self._signed_in(credentials)
        account = session.account
        name = self._name(body.name)
        folded, cased = name_keys(name)
        self._free(name, folded, cased, mine=account.id)
        try:
            self.db.update_account(account.id, name=name, folded_key=folded, cased_key=cased)
        except NameTakenError:
            self._free(name, folded, cased, mine=account.id)
            raise ApiError(409, "that name was just taken: pick another") from None
        renamed = AccountRow(
            id=account.id,
            name=name,
            folded_key=folded,
            cased_key=cased,
            password=account.password,
            bot=account.bot,
            created_at=account.created_at,
        )
        return models.SignedIn(account=public(renamed, self.operators), csrf_token=session.csrf)

    def delete(self, body: models.AccountDeletion, credentials: Credentials) -> WithCookie:
        """The account gone, given its password: its sessions, its name, its unranked
        games. Its ranked games stay on the leaderboards, anonymised."""
        session = self._signed_in(credentials)
        account = self._confirm(session, body.password, credentials)
        self.db.delete_account(account.id)
        self.deleted()
        message = "account deleted; its ranked games stay on the leaderboards, anonymous"
        return WithCookie(models.SignedOut(message=message))

    def _confirm(self, session: Session, password: str, credentials: Credentials) -> AccountRow:
        """The session's account, once ``password`` is its password (limited as sign-ins are)."""
        account = session.account
        self._throttle(credentials, account.folded_key)
        if not self._verify(account.password, password):
            self.throttle.failed(account.folded_key)
            raise ApiError(401, "wrong password")
        self.throttle.succeeded(account.folded_key)
        return account

    # --- names ---------------------------------------------------------------------------

    def guest_name(self, name: str | None) -> str | None:
        """A guest's name as stored (None for none): checked as an account's, and no
        account's name nor a look-alike of one (409)."""
        if not name:
            return None
        name = self._name(name)
        folded, cased = name_keys(name)
        holder = self.db.account_by_keys(folded, cased)
        if holder is not None:
            raise ApiError(
                409,
                f"the name belongs to an account, or looks like {holder.name!r}, which does: "
                "sign in to play under it, or play under another",
            )
        return name

    def _name(self, name: str) -> str:
        try:
            return check_name(name, self.max_name)
        except BadNameError as error:
            raise ApiError(422, str(error)) from None

    def _free(self, name: str, folded: str, cased: str, *, mine: int | None = None) -> None:
        holder = self.db.account_by_keys(folded, cased)
        if holder is not None and holder.id != mine:
            same = holder.name == name
            raise ApiError(
                409,
                "that name belongs to another account"
                if same
                else f"that name looks like {holder.name!r}, another account's name",
            )

    # --- passwords -----------------------------------------------------------------------

    def _new_password(self, password: str) -> str:
        """A new password as it is hashed: NFC (so a password typed on another keyboard,
        composed otherwise, is the same), within the length limits (422)."""
        password = unicodedata.normalize("NFC", password)
        low, high = self.settings.min_password, self.settings.max_password
        if not low <= len(password) <= high:
            raise ApiError(
                422, f"a password has {low} to {high} characters, this one has {len(password)}"
            )
        return password

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """A turn at hashing, or 503 when the server is busy with others."""
        if not self._hashing.acquire(timeout=self.settings.hashing_wait):
            raise ApiError(
                503,
                "the server is busy checking passwords; try again shortly",
                headers={"Retry-After": "1"},
            )
        try:
            yield
        finally:
            self._hashing.release()

    def _hash(self, password: str) -> str:
        with self._turn():
            return self.hasher.hash(password)

    def _verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches the ``stored`` hash; for None (no such account),
        False after checking a dummy hash, so that an unknown name costs the same time."""
        password = unicodedata.normalize("NFC", password)
        with self._turn():
            target = stored if stored is not None else self._dummy_hash()
            try:
                self.hasher.verify(target, password)
            except (VerificationError, InvalidHashError):
                return False
            return stored is not None

    def _dummy_hash(self) -> str:
        with self._lock:
            if self._dummy is None:
                self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
            return self._dummy
