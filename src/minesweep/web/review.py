"""The rankings' way: the wins that matter are ranked only after an operator has looked.

No check of a game's record can tell a person from a program that forges
a person's record (:mod:`minesweep.web.trace` raises the cost of forging;
it proves nothing). So, as the competitive rankings do, a win that would
change the top of a board is held: a person's win that passes every
automatic check is held as "pending review" (:data:`PENDING_REVIEW`), off
the leaderboards, when

- it would enter the top :attr:`Limits.review_top` (10) of its board, by
  time or by 3BV/s; or
- it is faster than its board's review threshold
  (:data:`REVIEW_SPEEDS`, 3BV/s), wherever it would place.

Its owner sees it pending (and, once decided, the decision and a voided
record's reason: ``GET /api/account/reviews``); an operator sees every
pending record (``GET /api/reviews``), opens its replay, the page's own
record of the mouse with the exact solver's verdict on every click
(``GET /api/reviews/{public_id}``), and confirms it, which ranks it, or
voids it with a reason (``POST /api/reviews/{public_id}``).

Beside each pending record, the operators see its account's flag, when
its wins look like a program's play (:mod:`minesweep.web.style`): a
reason to look closer at the replay, which decides nothing by itself.
Only operators see it.

Operators are accounts named at the server's start, ``minesweep serve
--operator NAME`` (repeatable): each name is looked up then, by its key,
and the role is the account's id for as long as the server runs. An
account that is renamed stays an operator; a name that names no account
stops the server from starting (so no one can register a free name and
become the operator), and a name deleted and registered again by someone
else is a new account, which is no operator until the server is restarted
naming it. Nothing about the role is stored in the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sqlalchemy import func, insert, select, update

from minesweep.records import Kind

from . import models
from .db import Database, GameRow
from .limits import REVIEW_SPEEDS, ApiError, Limits
from .names import name_keys
from .schema import PENDING_REVIEW, TOKEN, accounts, games, reviews
from .style import GameStyle, StyleRules, flag

if TYPE_CHECKING:
    from .accounts import Accounts, Credentials

__all__ = ["PENDING_REVIEW", "REVIEW_SPEEDS", "VOIDED", "Reviews", "UnknownOperatorError"]

#: How a voided record's reason begins (its game's ``unranked_because``).
VOIDED = "voided by review: "

#: The longest list of records one answer holds.
_LIST = 200


class UnknownOperatorError(ValueError):
    """``--operator NAME`` names no account: it is registered first, then named."""


class Reviews:
    """Which wins are held, the operators, and their decisions."""

    def __init__(
        self,
        database: Database,
        limits: Limits,
        accounts: Accounts,
        style_rules: StyleRules | None = None,
    ) -> None:
        self.db, self.limits, self.accounts = database, limits, accounts
        #: What an account's wins are flagged by (minesweep.web.style).
        self.style_rules = StyleRules() if style_rules is None else style_rules
        #: The operators' account ids (see the module's docstring): the accounts' own
        #: set, so that what an account's owner reads of it says it is an operator.
        self.operators: set[int] = accounts.operators

    def add_operators(self, names: Sequence[str]) -> None:
        """Make the accounts ``names`` name operators; UnknownOperatorError for a name of none."""
        for name in names:
            folded, _ = name_keys(name)
            account = self.db.account_by_keys(folded)
            if account is None:
                raise UnknownOperatorError(
                    f"--operator {name!r}: no account has that name; register it, then "
                    "start the server naming it"
                )
            self.operators.add(account.id)

    # --- which wins are held ----------------------------------------------------------

    def hold(self, kind: str, seconds: float | None, bbbv: int | None) -> str | None:
        """:data:`PENDING_REVIEW` for a win that passed every other check and is held;
        None when it ranks at once."""
        why = self.why(kind, seconds, bbbv)
        return None if why is None else PENDING_REVIEW

    def why(self, kind: str, seconds: float | None, bbbv: int | None) -> str | None:
        """Why a ranked-worthy win of ``kind`` is reviewed, or None when it is not."""
        limits = self.limits
        if not limits.require_review or not seconds or seconds <= 0:
            return None
        speed = (bbbv or 0) / seconds
        preset = Kind.parse(kind).preset
        speeds = limits.review_speeds
        threshold = None if speeds is None or preset is None else speeds.get(preset)
        if threshold is not None and speed > threshold:
            return f"{speed:.2f} 3BV/s is past {preset}'s review threshold ({threshold:g})"
        top = limits.review_top
        if top > 0:
            ranked = (games.c.kind == kind, games.c.ranked.is_(True), games.c.seconds > 0)
            faster = select(func.count()).where(*ranked, games.c.seconds <= seconds)
            quicker = select(func.count()).where(
                *ranked, games.c.bbbv * 1.0 / games.c.seconds >= speed
            )
            with self.db.engine.connect() as connection:
                by_time = int(connection.execute(faster).scalar() or 0)
                by_speed = int(connection.execute(quicker).scalar() or 0)
            place = min(by_time, by_speed) + 1
            if place <= top:
                return f"it would be #{place} of {kind}'s leaderboard (the top {top} are reviewed)"
        return None

    # --- the routes -------------------------------------------------------------------

    def _operator(self, credentials: Credentials, *, write: bool) -> int:
        session = self.accounts.session(credentials, write=write, required=True)
        assert session is not None
        if session.account.id not in self.operators:
            raise ApiError(403, "only an operator reviews records")
        return session.account.id

    def pending(self, credentials: Credentials) -> models.ReviewList:
        """Every record waiting for review, oldest first (operators only: 403)."""
        self._operator(credentials, write=False)
        query = (
            select(games, reviews.c.state, reviews.c.reason, reviews.c.decided_at)
            .outerjoin(reviews, reviews.c.token == games.c.token)
            .where(games.c.unranked_because == PENDING_REVIEW)
            .order_by(games.c.finished_at)
            .limit(_LIST)
        )
        return models.ReviewList(records=self._entries(query, flags=True))

    def flags(self, account_ids: list[int]) -> dict[int, str]:
        """Why each of ``account_ids`` plays like a program, for those that do
        (:func:`minesweep.web.style.flag`)."""
        rules = self.style_rules
        found = {}
        for account_id, rows in self.db.styles(account_ids, rules.games).items():
            rows.sort(key=lambda row: row["created_at"], reverse=True)
            fields = GameStyle.__dataclass_fields__
            why = flag([GameStyle(**{k: row[k] for k in fields}) for row in rows], rules)
            if why is not None:
                found[account_id] = why
        return found

    def mine(self, credentials: Credentials) -> models.ReviewList:
        """The signed-in account's records held for review: pending, confirmed or voided
        (a voided one with its reason), newest first."""
        session = self.accounts.session(credentials, write=False, required=True)
        assert session is not None
        query = (
            select(games, reviews.c.state, reviews.c.reason, reviews.c.decided_at)
            .outerjoin(reviews, reviews.c.token == games.c.token)
            .where(
                games.c.account_id == session.account.id,
                (games.c.unranked_because == PENDING_REVIEW) | reviews.c.state.is_not(None),
            )
            .order_by(games.c.finished_at.desc())
            .limit(_LIST)
        )
        return models.ReviewList(records=self._entries(query))

    def record(self, public_id: str, credentials: Credentials) -> GameRow:
        """The game of a reviewed record, for its owner or an operator (403 for anyone
        else; 404 for an id of no record held for review)."""
        session = self.accounts.session(credentials, write=False, required=True)
        assert session is not None
        row = self._held(public_id)
        if session.account.id not in self.operators and row.account_id != session.account.id:
            raise ApiError(403, "only its player and the operators see a record under review")
        return row

    def decide(
        self, public_id: str, decision: models.ReviewDecision, credentials: Credentials
    ) -> models.ReviewEntry:
        """Confirm a pending record (it ranks) or void it with a reason (it stays off the
        leaderboards, and its owner reads why). 409 when it was decided already."""
        operator = self._operator(credentials, write=True)
        reason = decision.reason.strip()
        if decision.verdict == "void" and not reason:
            raise ApiError(422, "a voided record says why: give a reason")
        row = self._held(public_id)
        if row.account_id == operator:
            raise ApiError(403, "an operator does not review their own records")
        if row.unranked_because != PENDING_REVIEW:
            raise ApiError(409, "this record was decided already")
        state = "confirmed" if decision.verdict == "confirm" else "voided"
        changes = (
            {"ranked": True, "unranked_because": None}
            if state == "confirmed"
            else {"unranked_because": f"{VOIDED}{reason}"[:200]}
        )
        now = self.accounts.wall()
        with self.db.engine.begin() as connection:
            result = connection.execute(
                update(games)
                .where(games.c.token == row.token, games.c.unranked_because == PENDING_REVIEW)
                .values(**changes, version=games.c.version + 1)
            )
            if result.rowcount != 1:
                raise ApiError(409, "this record was decided already")
            connection.execute(
                insert(reviews).values(
                    token=row.token,
                    state=state,
                    reason=reason or None,
                    operator_id=operator,
                    decided_at=now,
                )
            )
        query = (
            select(games, reviews.c.state, reviews.c.reason, reviews.c.decided_at)
            .outerjoin(reviews, reviews.c.token == games.c.token)
            .where(games.c.token == row.token)
        )
        return self._entries(query)[0]

    # --- reading --------------------------------------------------------------------

    def _held(self, public_id: str) -> GameRow:
        """A game held for review now or once (404 otherwise)."""
        if not TOKEN.fullmatch(public_id):
            raise ApiError(404, "no record under review with that id")
        query = (
            select(games)
            .outerjoin(reviews, reviews.c.token == games.c.token)
            .where(
                games.c.public_id == public_id,
                (games.c.unranked_because == PENDING_REVIEW) | reviews.c.state.is_not(None),
            )
        )
        with self.db.engine.connect() as connection:
            found = connection.execute(query).first()
        if found is None:
            raise ApiError(404, "no record under review with that id")
        return GameRow(**found._mapping)

    def _entries(self, query: object, *, flags: bool = False) -> list[models.ReviewEntry]:
        """The records ``query`` finds, as the API sends them; with their accounts' flags
        (operators only) when ``flags``."""
        with self.db.engine.connect() as connection:
            rows = connection.execute(query).all()  # type: ignore[call-overload]
        ids = sorted({row.account_id for row in rows if row.account_id is not None})
        flagged = self.flags(ids) if flags else {}
        names: dict[int, str] = {}
        if ids:
            with self.db.engine.connect() as connection:
                names = {
                    int(key): name
                    for key, name in connection.execute(
                        select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(ids))
                    )
                }
        entries = []
        for row in rows:
            seconds, bbbv = row.seconds or 0.0, row.bbbv or 0
            entries.append(
                models.ReviewEntry(
                    public_id=row.public_id,
                    kind=row.kind,
                    name=names.get(row.account_id, "anonymous"),
                    seconds=seconds,
                    bbbv=bbbv,
                    bbbv_per_second=bbbv / seconds if seconds > 0 else 0.0,
                    finished_at=row.finished_at or 0.0,
                    state=row.state or "pending",
                    why=self._why_now(row.kind, seconds, bbbv) if row.state is None else "reviewed",
                    reason=row.reason,
                    decided_at=row.decided_at,
                    flag=flagged.get(row.account_id),
                )
            )
        return entries

    def _why_now(self, kind: str, seconds: float, bbbv: int) -> str:
        """Why a record is reviewed, as it stands now (the leaderboard may have moved)."""
        return self.why(kind, seconds, bbbv) or "held when it was won (the board has moved since)"
