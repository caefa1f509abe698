"""The web game's service: the rooms of the game composed, behind one object; no HTTP.

Each job is a module of its own: games made, played, cached and written
(:mod:`minesweep.web.games`), what a client may see (:mod:`minesweep.web.views`),
hints (:mod:`minesweep.web.hints`), traces and replays
(:mod:`minesweep.web.replaying`), uploaded files (:mod:`minesweep.web.uploads`),
leaderboards, accounts and reviews. :class:`Service` builds them on one
database, clock and set of limits, and is what the routes
(:mod:`minesweep.web.routes`) call. It raises the web's refusals
(:mod:`minesweep.web.errors`) and the engine's errors; the HTTP layer
(:mod:`minesweep.web.app`) gives each its status in one table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from minesweep import Game

from . import leaderboards, models
from .accounts import Accounts, AccountSettings, Credentials
from .db import Database, GameRow, wall_clock
from .games import AWAITING_TRACE, Games
from .guards import ByteCache, NoGuessPool
from .hints import hint, page_numbering
from .limits import Limits
from .replaying import Replays
from .review import Reviews
from .style import StyleRules
from .trace import TraceRules
from .uploads import replay_file

__all__ = ["AWAITING_TRACE", "Service", "page_numbering"]


class Service:
    """The web game between the HTTP layer and the database; the rules it calls are elsewhere.

    ``on_rebuild`` is called with a game's row each time the game is rebuilt
    from its log rather than taken from the cache (:attr:`Games.on_rebuild`).
    """

    def __init__(
        self,
        database: Database,
        limits: Limits,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = wall_clock,
        epoch: str | None = None,
        pool: NoGuessPool | None = None,
        accounts: AccountSettings | None = None,
        on_rebuild: Callable[[GameRow], None] | None = None,
        style_rules: StyleRules | None = None,
    ) -> None:
        self.db = database
        self.limits = limits
        self.pool = pool or NoGuessPool(limits.no_guess_workers, limits.no_guess_queue)
        self.accounts: Accounts = Accounts(
            database,
            accounts or AccountSettings(),
            max_name=limits.max_name,
            clock=clock,
            wall=wall,
            # A deleted account's name may be in an encoded replay: they are made
            # again, anonymous, when next asked for.
            deleted=lambda: self.played.forget(),
        )
        #: The wins held for an operator's review, and the operators (minesweep.web.review).
        self.reviews: Reviews = Reviews(database, limits, self.accounts, style_rules)
        self.games: Games = Games(
            database,
            limits,
            accounts=self.accounts,
            reviews=self.reviews,
            pool=self.pool,
            clock=clock,
            wall=wall,
            epoch=epoch,
            on_rebuild=on_rebuild,
        )
        self.played: Replays = Replays(self.games)

    @property
    def replays(self) -> ByteCache[tuple[str, str, str]]:
        """Ranked games' replays, encoded once (JSON and EVF)."""
        return self.played.cache

    @property
    def trace_rules(self) -> TraceRules:
        """What the page's record of a game is judged by (minesweep.web.trace)."""
        return self.played.trace_rules

    # --- games --------------------------------------------------------------------------

    def create(
        self, request: models.NewGame, credentials: Credentials | None = None
    ) -> models.GameState:
        return self.games.create(request, credentials)

    def state(self, token: str) -> models.GameState:
        return self.games.state(token)

    def act(self, token: str, move: models.Move) -> models.MoveAnswer:
        return self.games.act(token, move)

    def undo(self, token: str, request: models.UndoRequest) -> models.GameState:
        return self.games.undo(token, request)

    def hint(self, token: str, request: models.HintRequest) -> models.HintAnswer:
        return hint(self.games, token, request)

    # --- public views ---------------------------------------------------------------------

    def leaderboard(self, kind: str, by: str | None = None) -> models.Leaderboard:
        return leaderboards.leaderboard(self.db, self.limits, kind, by)

    def bots(self, kind: str) -> models.BotLeaderboard:
        """Declared bots ranked by the low end of their win rate's 95% interval."""
        return leaderboards.bots(self.db, self.limits, kind)

    # --- traces and replays ---------------------------------------------------------------

    def trace(self, token: str, data: bytes) -> models.GameState:
        return self.played.trace(token, data)

    def replay(self, public_id: str) -> models.Replay:
        return self.played.replay(public_id)

    def replay_json(self, public_id: str) -> msgspec.Raw:
        return self.played.replay_json(public_id)

    def review_replay(self, public_id: str, credentials: Credentials) -> models.ReplayFile:
        return self.played.review_replay(public_id, credentials)

    def game_evf(self, token: str) -> models.Download:
        return self.played.game_evf(token)

    def replay_evf(self, public_id: str) -> models.Download:
        return self.played.replay_evf(public_id)

    # --- uploaded files -------------------------------------------------------------------

    def replay_file(self, data: bytes, name: str | None = None) -> models.ReplayFile:
        return replay_file(self.limits, data, name)

    # --- for tests and operators: never answered to a client ------------------------------

    def game(self, token: str) -> Game:
        return self.games.game(token)

    def forget(self, token: str | None = None) -> None:
        self.games.forget(token)
