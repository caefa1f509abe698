"""The web game's games: their creation, actions, cache and the versioned write loop.

The server holds the mines and the rules (:class:`minesweep.Game`, the
solver and the front-end layer :mod:`minesweep.frontend`, which this module
only calls); a client only ever receives what the player may see
(:mod:`minesweep.web.views`). Every action names the version of the game it
was made against, so a retried or duplicated request is applied once. The
server keeps the time with its own monotonic clock and computes every score
itself; seeded games, assisted ones (undo, hints after the first reveal),
declared bots and wins faster than any person plays never rank among people,
and a person's win ranks only with the page's record of the mouse
(:data:`AWAITING_TRACE`, :mod:`minesweep.web.replaying`).
"""

from __future__ import annotations

import math
import random
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from minesweep import Action, ActionKind, Game, GameOverError, MinesweepError, frontend
from minesweep.errors import SettingsError
from minesweep.formats import log_base, parse_game_log, to_game_json
from minesweep.frontend import Button, Settings
from minesweep.history import action_record, record_line, undo_record
from minesweep.presets import PRESETS
from minesweep.records import Kind, unranked_because
from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError

from . import models
from .accounts import Accounts, Credentials
from .db import Database, GameRow
from .errors import ConflictError, MalformedError, RefusedError
from .guards import BusyError, NoGuessPool
from .limits import ApiError, Limits
from .review import Reviews
from .schema import TOKEN
from .views import public_state

__all__ = ["AWAITING_TRACE", "Games", "Write"]

#: Why a person's win is not ranked yet: the page's record of it has not come.
AWAITING_TRACE: Final = (
    "waiting for the page's record of the game (POST /api/game/trace): "
    "a win ranks with a record of the mouse that matches its actions"
)

#: The actions of the API, by name: the engine's, in lowercase.
_ACTIONS: Final = {kind.name.lower(): kind for kind in ActionKind}


def _epoch() -> str:
    """Which run of the monotonic clock this is: the host's boot (shared by its processes)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return f"process-{uuid.uuid4()}"


@dataclass(frozen=True)
class Write:
    """What an action writes: the game after it, its log record, and the answer's extras."""

    game: Game
    record: str | None = None
    rewrite: list[str] | None = None
    base: str | None = None
    #: Whether the change marks the game assisted for good (hints, undo).
    assisted: bool = False


class Games:
    """Games between the HTTP layer and the database: made, played, cached, written.

    ``clock`` is monotonic: wall-clock jumps never change a time. A game's
    time charged so far is stored at every write; a process that reads a game
    last written before it started (the server was down, or restarted)
    charges nothing for the gap.
    """

    def __init__(
        self,
        database: Database,
        limits: Limits,
        *,
        accounts: Accounts,
        reviews: Reviews,
        pool: NoGuessPool,
        clock: Callable[[], float],
        wall: Callable[[], float],
        epoch: str | None = None,
        on_rebuild: Callable[[GameRow], None] | None = None,
    ) -> None:
        self.db = database
        self.limits = limits
        self.accounts = accounts
        self.reviews = reviews
        self.pool = pool
        self.clock = clock
        self.wall = wall
        self.epoch = epoch or _epoch()
        self.started = clock()
        #: Called with a game's row each time the game is rebuilt from its log
        #: (a cache miss): a test counts them, an operator may log them.
        self.on_rebuild = on_rebuild
        # Recently used games, by token: (version, game). A version check on
        # every write keeps several processes honest; this only saves replays.
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()
        self._swept = -math.inf

    def create(
        self, request: models.NewGame, credentials: Credentials | None = None
    ) -> models.GameState:
        """A new game, the signed-in account's or a guest's; checked before anything is stored.

        An account's game holds the account's id, not its name (a rename
        renames it); a bot account's games are bots' games. A guest's name
        is checked as an account's, and may be no account's (409).
        """
        settings = self._settings(request)
        session = self.accounts.session(credentials, write=True, required=False)
        account_id: int | None = None
        if session is None:
            name, bot = self.accounts.guest_name(request.name), request.bot
        else:
            account = session.account
            if request.name is not None:
                raise ApiError(
                    422, f"signed in as {account.name!r}, a game is the account's: leave out name"
                )
            if request.bot and not account.bot:
                raise ApiError(
                    422,
                    "this account is a person's: a program's games need a bot account "
                    "(register one with bot: true), so that they rank on the bots' board",
                )
            name, bot, account_id = None, account.bot, account.id
        self._sweep()
        game = settings.new_game(clock=self.clock)
        token = secrets.token_urlsafe(24)
        self.db.insert(
            {
                "token": token,
                "public_id": secrets.token_urlsafe(12),
                "kind": settings.kind,
                "name": name,
                "bot": bot,
                "account_id": account_id,
                "no_guess": settings.no_guess,
                "seeded": settings.seed is not None,
                "assisted": False,
                "status": game.status.value,
                "base": to_game_json(game),
                "elapsed": 0.0,
                "clock_at": self.clock(),
                "clock_epoch": self.epoch,
                "ranked": False,
            },
            self.wall(),
        )
        return self.state(token)

    def _settings(self, request: models.NewGame) -> Settings:
        """The settings a request for a new game asks for, checked against the limits.

        The rules are the engine's (:meth:`Settings.from_dimensions`); the
        status is the web's: a body that names no preset it knows, or the wrong
        set of fields, is malformed (400); settings that break the rules, 422.
        """
        limits = self.limits
        preset, rows, cols, mines = request.preset, request.rows, request.cols, request.mines
        if request.seed is not None and request.seed >= 2**64:
            raise ApiError(400, f"seed must be below 2**64, got {request.seed}")
        sized = [value is not None for value in (rows, cols, mines)]
        if preset is None and not any(sized):
            # The API has no default game: a client says which it wants.
            raise ApiError(400, "give a preset, or rows, cols and mines")
        malformed = (preset is not None and (any(sized) or preset not in PRESETS)) or (
            preset is None and not all(sized)
        )
        # The server's own limit on sizes, before the rules are asked.
        if (
            not malformed
            and rows is not None
            and cols is not None
            and (rows > limits.max_rows or cols > limits.max_cols)
        ):
            raise ApiError(
                422,
                f"boards go up to {limits.max_rows} rows and {limits.max_cols} "
                f"columns, asked for {rows}x{cols}",
            )
        try:
            settings = Settings.from_dimensions(
                preset=preset,
                rows=rows,
                cols=cols,
                mines=mines,
                rule=request.rule,
                seed=request.seed,
                no_guess=request.no_guess,
            )
        except SettingsError as error:
            if malformed:
                raise MalformedError(str(error)) from None
            raise RefusedError(str(error)) from None
        except MinesweepError as error:
            raise RefusedError(str(error)) from None
        squares = settings.rows * settings.cols
        if settings.no_guess and squares > limits.max_no_guess_squares:
            raise ApiError(
                422,
                f"no-guess boards go up to {limits.max_no_guess_squares} squares "
                f"(their generation is costly), asked for {squares}",
            )
        return settings

    def state(self, token: str) -> models.GameState:
        row, game = self.load(token)
        # The answer is made before the game goes back in the cache, where
        # another request may take it and change it.
        public = public_state(row, game)
        self.keep(token, row.version, game)
        return public

    def act(self, token: str, move: models.Move) -> models.MoveAnswer:
        """Apply an action, or a click (a mouse button on a square, mapped by the rules)."""
        if (move.action is None) == (move.click is None):
            raise ApiError(400, "give an action or a click, not both and not neither")
        effects: list[Any] = []

        def apply(row: GameRow, game: Game) -> Write:
            had_field = game.field is not None
            try:
                if move.click is not None:
                    action = frontend.click(game, move.row, move.col, Button(move.click))
                else:
                    action = Action(_ACTIONS[move.action or ""], move.row, move.col)
                game, effect = frontend.act(
                    game,
                    action,
                    no_guess=row.no_guess,
                    clock=self.clock,
                    no_guess_seconds=self.limits.no_guess_seconds,
                    lay=self.pool.field,
                )
            except BrokenExecutor:
                # A worker died (out of memory, killed): the pool starts afresh
                # on the next request; this one is told to retry.
                raise BusyError(
                    "the process making no-guess boards stopped; try again", retry_after=1
                ) from None
            except (NoGuessBudgetError, AnalysisBudgetError) as error:
                raise NoGuessBudgetError(f"no no-guess board found in time: {error}") from None
            except GameOverError:
                raise
            except MinesweepError as error:
                # A click the rules refuse (outside the board, on an open square).
                raise RefusedError(str(error)) from None
            effects.append(effect)
            # Every action is in the history, one that changed nothing too (it
            # counts as a click); the log holds it with the time the game gave it.
            record = record_line(action_record(game.history[-1]))
            base = log_base(game) if (not had_field and game.field is not None) else None
            return Write(game, record=record, base=base)

        state = self.update(token, move.version, apply)
        effect = effects[-1]
        return models.MoveAnswer(
            state=state,
            effective=effect.effective,
            opened=effect.opened,
            changed=[(int(r), int(c)) for r, c in effect.cells.tolist()],
        )

    def undo(self, token: str, request: models.UndoRequest) -> models.GameState:
        def apply(row: GameRow, game: Game) -> Write:
            had_field = game.field is not None
            try:
                game, _ = frontend.undo(game, clock=self.clock)
            except MinesweepError as error:
                # Nothing to undo: the game's state, not the request, is in the way.
                raise ConflictError(str(error)) from None
            if had_field and game.field is None:
                # The field was taken back (nothing is open): the log is
                # rewritten as the actions left, on a base without a field.
                rewrite = [record_line(action_record(action)) for action in game.history]
                return Write(game, rewrite=rewrite, base=log_base(game))
            return Write(game, record=record_line(undo_record()))

        return self.update(token, request.version, apply, assisted=True)

    def game(self, token: str) -> Game:
        """The game ``token`` names, rebuilt from the database as a restarted server would.

        Mines included: a test or an operator may look; no route returns it.
        """
        row = self.db.load(token)
        if row is None:
            raise ApiError(404, "no game with that id")
        return self.rebuild(row)

    def forget(self, token: str | None = None) -> None:
        """Drop a game (every game, with None) from the cache: its next read replays its log."""
        with self._lock:
            if token is None:
                self._cache.clear()
            else:
                self._cache.pop(token, None)

    # --- storage ---------------------------------------------------------------------------

    def load(self, token: str) -> tuple[GameRow, Game]:
        if not TOKEN.fullmatch(token):
            raise ApiError(404, "no game with that id")
        row = self.db.load(token)
        if row is None:
            raise ApiError(404, "no game with that id")
        if row.status == "expired" or (
            row.status in ("ready", "playing")
            and row.updated_at < self.wall() - self.limits.expire_after
        ):
            raise ApiError(
                410,
                f"the game expired: unfinished games end {self.limits.expire_after:g} s "
                "after their last action",
            )
        # A cached game is taken out while in use, so no two requests ever hold
        # the same object; it goes back (or its successor does) afterwards.
        with self._lock:
            cached = self._cache.pop(token, None)
        if cached is not None and cached[0] == row.version:
            return row, cached[1]
        return row, self.rebuild(row)

    def rebuild(self, row: GameRow) -> Game:
        """A game from its base and its action log, its clock resumed."""
        if self.on_rebuild is not None:
            self.on_rebuild(row)
        game = parse_game_log(
            row.base,
            self.db.records(row.token, row.actions),
            clock=self.clock,
            where=f"the log of game {row.public_id}",
        )
        if game.history:
            # The time charged at the last write, running on from then; from
            # this process's start if the game was written before it (the
            # server was down); from now if another clock wrote it (another
            # host, or a boot since): its readings mean nothing here.
            if row.clock_epoch == self.epoch:
                resumed = max(row.clock_at, self.started)
            else:
                resumed = self.clock()
            game.set_start(resumed - row.elapsed)
        return game

    def update(
        self,
        token: str,
        version: int | None,
        apply: Callable[[GameRow, Game], Write],
        *,
        assisted: bool = False,
    ) -> models.GameState:
        """Apply a change in one transaction with a version check; retry if another won.

        With ``version`` the change applies only to that version of the game:
        a request repeated after it succeeded finds a newer one and is refused.
        """
        limits = self.limits
        for attempt in range(limits.retries):
            if attempt:
                # Another request wrote first: back off a little, at random, so
                # that racing requests spread out instead of colliding again.
                time.sleep(random.uniform(0, 0.002 * min(attempt, 10)))
            row, game = self.load(token)
            if version is not None and version != row.version:
                current = public_state(row, game)
                self.keep(token, row.version, game)
                raise ApiError(
                    409,
                    f"the game is at version {row.version}, and this request was made at "
                    f"version {version}: it was applied already or the game changed since; "
                    "the body holds the game as it is now",
                    state=current,
                )
            if game.is_over:
                raise ApiError(409, f"the game is over ({game.status.value})")
            write = apply(row, game)
            if (write.record is not None or write.rewrite is not None) and (
                row.actions >= limits.max_actions
            ):
                raise ApiError(
                    409, f"a game holds at most {limits.max_actions} actions; start a new one"
                )
            game = write.game
            changes: dict[str, Any] = {
                "status": game.status.value,
                "elapsed": game.elapsed,
                "clock_at": self.clock(),
                "clock_epoch": self.epoch,
                "updated_at": self.wall(),
                "assisted": row.assisted or assisted or write.assisted,
            }
            if write.base is not None:
                changes["base"] = write.base
            if game.is_over and row.finished_at is None:
                final = frontend.score(game)
                ranked, because = self._ranking(row, final, changes["assisted"])
                changes.update(
                    finished_at=self.wall(),
                    seconds=final.time,
                    bbbv=final.bbbv,
                    ranked=ranked,
                    unranked_because=because,
                )
            if self.db.store(row, changes, record=write.record, rewrite=write.rewrite):
                count = row.actions + (write.record is not None)
                if write.rewrite is not None:
                    count = len(write.rewrite)
                merged = replace(row, **changes, actions=count, version=row.version + 1)
                self.keep(token, merged.version, game)
                return public_state(merged, game)
        raise ApiError(409, "the game changed too often while this action was applied; retry")

    def _ranking(
        self, row: GameRow, final: frontend.Score, assisted: bool
    ) -> tuple[bool, str | None]:
        """Whether a finished game ranks among people, and if not, why (None for a loss).

        The rule is the engine's (:func:`minesweep.records.unranked_because`);
        only its speed limits are the server's. A loss answers no reason: that
        it lost is in its status.
        """
        if not final.won:
            return False, None
        because = unranked_because(
            Kind.parse(row.kind),
            won=True,
            seeded=row.seeded,
            assisted=assisted,
            bot=row.bot,
            bbbv=final.bbbv,
            seconds=final.time,
            human_limits=self.limits.human_limits,
        )
        if row.account_id is None and because is None:
            because = "played as a guest: sign in to rank"
        if because is None and self.limits.require_trace:
            # Ranked once the page's record of it comes and matches (trace()),
            # and then reviewed if it is held (minesweep.web.review).
            because = AWAITING_TRACE
        if because is None:
            because = self.reviews.hold(row.kind, final.time, final.bbbv)
        return because is None, because

    def keep(self, token: str, version: int, game: Game) -> None:
        """Put a game (at ``version``) back in the cache, unless a newer one is there."""
        with self._lock:
            cached = self._cache.get(token)
            if cached is None or cached[0] < version:
                self._cache[token] = (version, game)
                self._cache.move_to_end(token)
            while len(self._cache) > 256:
                self._cache.popitem(last=False)

    def _sweep(self) -> None:
        """Expire abandoned games, at most once a minute."""
        now = self.wall()
        if now - self._swept < 60.0:
            return
        self._swept = now
        self.db.expire(now - self.limits.expire_after)
