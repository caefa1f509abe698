"""The web game's service: games, their cache, ranking, leaderboards, replays, files; no HTTP.

The server holds the mines and the rules (:class:`minesweep.Game`, the
solver and the front-end layer :mod:`minesweep.frontend`, which this module
only calls); a client only ever receives what the player may see: the view
(numbers, hidden squares, flags), the counters, and after the end the mines.
Every action names the version of the game it was made against, so a
retried or duplicated request is applied once. The server keeps the time
with its own monotonic clock and computes every score itself; seeded games,
assisted ones (undo, hints after the first reveal), declared bots and wins
faster than any person plays never rank among people, and a person's win
ranks only with the page's record of the mouse, checked against its actions
(:meth:`Service.trace`, :mod:`minesweep.web.trace`). A finished game
downloads as an EVF replay (:mod:`minesweep.replays`), and an uploaded
replay file of any format comes back read, with every view and the exact
solver's verdict on every click. The HTTP layer is :mod:`minesweep.web.app`.
"""

from __future__ import annotations

import datetime
import json
import math
import random
import re
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, cast

import msgspec
import numpy as np

from minesweep import Action, ActionKind, Game, GameOverError, MinesweepError, frontend
from minesweep.errors import SettingsError
from minesweep.formats import log_base, parse_game_log, to_game_json, to_view
from minesweep.frontend import Button, Settings
from minesweep.history import action_record, record_line, undo_record
from minesweep.presets import PRESETS
from minesweep.records import Kind, unranked_because
from minesweep.replays import ReplayError, read, replay_from_game, summary, write_evf
from minesweep.replays.clicks import (
    VIEW_EXPLODED,
    VIEW_FLAG,
    VIEW_HIDDEN,
    VIEW_WRONG_FLAG,
    analyse_clicks,
)
from minesweep.replays.verdict import JudgedClick, judge_clicks
from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError
from minesweep.solver.hints import Hint
from minesweep.squares import square_name

from . import leaderboards, models
from .accounts import Accounts, AccountSettings, Credentials
from .db import PENDING_REVIEW, Database, GameRow, wall_clock
from .guards import BusyError, ByteCache, NoGuessPool
from .limits import ApiError, Limits
from .review import VOIDED, Reviews
from .trace import TraceError, TraceRules, judge, parse_trace, trace_replay

__all__ = ["AWAITING_TRACE", "Service", "page_numbering"]

#: Why a person's win is not ranked yet: the page's record of it has not come.
AWAITING_TRACE: Final = (
    "waiting for the page's record of the game (POST /api/game/trace): "
    "a win ranks with a record of the mouse that matches its actions"
)

#: The actions of the API, by name: the engine's, in lowercase.
_ACTIONS: Final = {kind.name.lower(): kind for kind in ActionKind}
#: A game token and a public id: what secrets.token_urlsafe makes.
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: What a file name a replay is downloaded under may hold besides letters and digits.
_UNSAFE_IN_NAME: Final = re.compile(r"[^A-Za-z0-9_-]+")
#: The name an uploaded replay goes by in messages when it was sent without one.
_UPLOAD: Final = "the uploaded file"


def _glyph_table() -> bytes:
    """A replay's view codes (ms-toollib's: 0-8 a number, 10 hidden, 11 a flag, 14 a
    wrong flag, 15 the exploded mine) as the glyphs of the API's views, for bytes.translate."""
    table = bytearray(b"#" * 256)
    table[0] = ord(".")
    for number in range(1, 9):
        table[number] = ord(str(number))
    table[VIEW_HIDDEN], table[VIEW_FLAG] = ord("#"), ord("F")
    table[VIEW_WRONG_FLAG], table[VIEW_EXPLODED] = ord("!"), ord("X")
    return bytes(table)


_GLYPHS: Final = _glyph_table()


def _epoch() -> str:
    """Which run of the monotonic clock this is: the host's boot (shared by its processes)."""
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return f"process-{uuid.uuid4()}"


@dataclass(frozen=True)
class _Write:
    """What an action writes: the game after it, its log record, and the answer's extras."""

    game: Game
    record: str | None = None
    rewrite: list[str] | None = None
    base: str | None = None
    #: Whether the change marks the game assisted for good (hints, undo).
    assisted: bool = False


class Service:
    """The web game between the HTTP layer and the database; the rules it calls are elsewhere.

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
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = wall_clock,
        epoch: str | None = None,
        pool: NoGuessPool | None = None,
        accounts: AccountSettings | None = None,
    ) -> None:
        self.db = database
        self.limits = limits
        self.clock = clock
        self.wall = wall
        self.epoch = epoch or _epoch()
        self.started = clock()
        self.pool = pool or NoGuessPool(limits.no_guess_workers, limits.no_guess_queue)
        self.accounts: Accounts = Accounts(
            database,
            accounts or AccountSettings(),
            max_name=limits.max_name,
            clock=clock,
            wall=wall,
            deleted=self._forget_replays,
        )
        # Recently used games, by token: (version, game). A version check on
        # every write keeps several processes honest; this only saves replays.
        self._cache: OrderedDict[str, tuple[int, Game]] = OrderedDict()
        self._lock = threading.Lock()
        self._swept = -math.inf
        # Ranked games' replays, encoded (JSON and EVF): a finished game never
        # changes, and stepping a long one's every view costs a third of a
        # second, so each is made once. Keyed by the name it shows too: see
        # replay_json.
        self.replays: ByteCache[tuple[str, str, str]] = ByteCache(limits.replay_cache_bytes)
        #: What the page's record of a game is judged by (minesweep.web.trace).
        self.trace_rules = TraceRules()
        #: The wins held for an operator's review, and the operators (minesweep.web.review).
        self.reviews = Reviews(database, limits, self.accounts)

    # --- games ----------------------------------------------------------------------

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
            raise ApiError(400 if malformed else 422, str(error)) from None
        except MinesweepError as error:
            raise ApiError(422, str(error)) from None
        squares = settings.rows * settings.cols
        if settings.no_guess and squares > limits.max_no_guess_squares:
            raise ApiError(
                422,
                f"no-guess boards go up to {limits.max_no_guess_squares} squares "
                f"(their generation is costly), asked for {squares}",
            )
        return settings

    def state(self, token: str) -> models.GameState:
        row, game = self._load(token)
        # The answer is made before the game goes back in the cache, where
        # another request may take it and change it.
        public = self._public(row, game)
        self._keep(token, row.version, game)
        return public

    def act(self, token: str, move: models.Move) -> models.MoveAnswer:
        """Apply an action, or a click (a mouse button on a square, mapped by the rules)."""
        if (move.action is None) == (move.click is None):
            raise ApiError(400, "give an action or a click, not both and not neither")
        effects: list[Any] = []

        def apply(row: GameRow, game: Game) -> _Write:
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
            except BusyError as error:
                raise ApiError(
                    503, str(error), headers={"Retry-After": str(error.retry_after)}
                ) from None
            except BrokenExecutor:
                # A worker died (out of memory, killed): the pool starts afresh
                # on the next request; this one is told to retry.
                raise ApiError(
                    503,
                    "the process making no-guess boards stopped; try again",
                    headers={"Retry-After": "1"},
                ) from None
            except (NoGuessBudgetError, AnalysisBudgetError) as error:
                raise ApiError(503, f"no no-guess board found in time: {error}") from None
            except GameOverError as error:
                raise ApiError(409, str(error)) from None
            except MinesweepError as error:
                raise ApiError(422, str(error)) from None
            effects.append(effect)
            # Every action is in the history, one that changed nothing too (it
            # counts as a click); the log holds it with the time the game gave it.
            record = record_line(action_record(game.history[-1]))
            base = log_base(game) if (not had_field and game.field is not None) else None
            return _Write(game, record=record, base=base)

        state = self._update(token, move.version, apply)
        effect = effects[-1]
        return models.MoveAnswer(
            state=state,
            effective=effect.effective,
            opened=effect.opened,
            changed=[(int(r), int(c)) for r, c in effect.cells.tolist()],
        )

    def undo(self, token: str, request: models.UndoRequest) -> models.GameState:
        def apply(row: GameRow, game: Game) -> _Write:
            had_field = game.field is not None
            try:
                game, _ = frontend.undo(game, clock=self.clock)
            except MinesweepError as error:
                raise ApiError(409, str(error)) from None
            if had_field and game.field is None:
                # The field was taken back (nothing is open): the log is
                # rewritten as the actions left, on a base without a field.
                rewrite = [record_line(action_record(action)) for action in game.history]
                return _Write(game, rewrite=rewrite, base=log_base(game))
            return _Write(game, record=record_line(undo_record()))

        return self._update(token, request.version, apply, assisted=True)

    def hint(self, token: str, request: models.HintRequest) -> models.HintAnswer:
        """The solver's hint, and the probabilities behind it once a square is open.

        Before the first reveal (:func:`minesweep.solver.before_first_reveal`)
        the hint is only the first-click rule's promise: no field is laid, so
        it tells nothing about one, and the game stays unassisted (it may
        rank). Any hint after that marks the game assisted for good.
        """
        answers: list[frontend.Advice] = []

        def apply(row: GameRow, game: Game) -> _Write:
            advises = frontend.advice_assists(game)
            try:
                answers.append(frontend.advise(game))
            except AnalysisBudgetError as error:
                raise ApiError(503, str(error)) from None
            except MinesweepError as error:
                raise ApiError(409, str(error)) from None
            return _Write(game, assisted=advises)

        state = self._update(token, request.version, apply)
        advice = answers[-1]
        hint = advice.hint
        probabilities = (
            None
            if advice.probability is None
            else [
                [None if value != value else round(float(value), 6) for value in line]
                for line in advice.probability.tolist()
            ]
        )
        return models.HintAnswer(
            state=state,
            hint=models.HintSquare(
                row=hint.row,
                col=hint.col,
                safe=hint.safe,
                probability=hint.probability,
                reason=page_numbering(hint),
            ),
            probabilities=probabilities,
        )

    def leaderboard(self, kind: str, by: str | None = None) -> models.Leaderboard:
        return leaderboards.leaderboard(self.db, self.limits, kind, by)

    # --- the page's record of a game -----------------------------------------------------

    def trace(self, token: str, data: bytes) -> models.GameState:
        """Keep the page's record of a finished game (its mouse trace) and judge a win by it.

        Sent once, after the end: the record is checked against every action
        the server applied, which are known only then, and one request costs
        less than a stream of them. (Streaming would make a program synthesise
        its trace as it plays rather than after; it can do either.) A win
        waiting for its record (:data:`AWAITING_TRACE`) ranks if the record
        matches its actions and looks like a hand's
        (:func:`minesweep.web.trace.judge`), and is kept unranked with the
        reason otherwise. Any other game's record is kept as its replay and
        changes nothing. A body that cannot be read is a 400; a second record
        of a game, or one of a game not over, a 409.
        """
        for _ in range(self.limits.retries):
            row, game = self._load(token)
            self._keep(token, row.version, game)
            rows, cols = game.shape
            # A body that cannot be read is refused first (400), whatever the game.
            try:
                px, events = parse_trace(
                    data, rows=rows, cols=cols, max_events=self.trace_rules.max_events
                )
            except TraceError as error:
                raise ApiError(400, str(error)) from None
            if not game.is_over or game.field is None:
                raise ApiError(
                    409,
                    f"the game is not over ({game.status.value}): send its record once it ends",
                )
            if self.db.trace(token) is not None:
                raise ApiError(409, "this game's record was sent already")
            try:
                replay = trace_replay(game.field, px, events)
                evf = write_evf(replay)
                changes: dict[str, Any] = {}
                if row.unranked_because == AWAITING_TRACE:
                    because = judge(replay, game.history, self.trace_rules, analyse_clicks(replay))
                    if because is None:
                        because = self.reviews.hold(row.kind, row.seconds, row.bbbv)
                    # The column holds 200 characters; the reasons are shorter.
                    changes = {
                        "ranked": because is None,
                        "unranked_because": None if because is None else because[:200],
                    }
            except (ValueError, MinesweepError) as error:
                # Read, but not a record EVF holds or the rules take.
                raise ApiError(422, f"the trace cannot be kept: {error}") from None
            if self.db.add_trace(row, evf, changes, self.wall()):
                merged = replace(row, **changes, version=row.version + 1)
                self._keep(token, merged.version, game)
                return self._public(merged, game)
        raise ApiError(409, "the game changed while its record was read; retry")

    def bots(self, kind: str) -> models.BotLeaderboard:
        """Declared bots ranked by the low end of their win rate's 95% interval."""
        return leaderboards.bots(self.db, self.limits, kind)

    def replay(self, public_id: str) -> models.Replay:
        """A ranked game's replay, made afresh (the route sends :meth:`replay_json`'s)."""
        row = self._ranked(public_id)
        return self._replay(row, self._player(row) or "anonymous")

    def replay_json(self, public_id: str) -> msgspec.Raw:
        """A ranked game's replay as JSON, made once and then sent from the cache.

        The cache is never invalidated: a ranked game is finished for good.
        The one thing in it that could change is the player's name, so the
        name is part of the key (read from the row on every request, which
        is one indexed lookup): a renamed player's replay is made again, and
        the old one ages out.
        """
        row = self._ranked(public_id)
        name = self._player(row) or "anonymous"
        data = self.replays.get(
            ("json", row.public_id, name),
            lambda: msgspec.json.encode(self._replay(row, name)),
        )
        return msgspec.Raw(data)

    def _replay(self, row: GameRow, name: str) -> models.Replay:
        game = self._rebuild(row)
        document = json.loads(to_game_json(game))
        return models.Replay(
            public_id=row.public_id,
            kind=row.kind,
            name=name,
            rows=document["rows"],
            cols=document["cols"],
            mines=document["mines"],
            field=document["field"],
            history=document["history"],
            # The view before the first action, then after each: stepped by the game
            # itself, so the page only draws them.
            views=[to_view(frame.view).splitlines() for frame in game.replay_views()],
            seconds=row.seconds,
            bbbv=row.bbbv,
        )

    def _ranked(self, public_id: str) -> GameRow:
        """The ranked game ``public_id`` names (only those are public)."""
        if not _TOKEN.fullmatch(public_id):
            raise ApiError(404, "no ranked game with that id")
        row = self.db.replay(public_id)
        if row is None:
            raise ApiError(404, "no ranked game with that id")
        return row

    def review_replay(self, public_id: str, credentials: Credentials) -> models.ReplayFile:
        """A record held for review, for its player or an operator: its replay (the page's
        own record of the mouse when it sent one) with the exact solver's verdict on
        every click, as an uploaded file's."""
        row = self.reviews.record(public_id, credentials)
        download = self._evf(row, self._rebuild(row))
        return self.replay_file(download.data, download.filename)

    # --- replay files ----------------------------------------------------------------------

    def game_evf(self, token: str) -> models.Download:
        """The player's own game as an EVF replay, once it is over.

        Refused (409) while it is played: a replay holds every mine.
        """
        row, game = self._load(token)
        self._keep(token, row.version, game)
        if not game.is_over:
            raise ApiError(
                409,
                f"the game is not over ({game.status.value}): its replay holds the mines, so "
                "it is sent only once the game is over",
            )
        return self._evf(row, game)

    def replay_evf(self, public_id: str) -> models.Download:
        """A ranked game's public replay as an EVF file, made once (see :meth:`replay_json`)."""
        row = self._ranked(public_id)
        data = self.replays.get(
            ("evf", row.public_id, self._player(row) or ""),
            lambda: self._evf(row, self._rebuild(row)).data,
        )
        return models.Download(filename=_evf_name(row, row.status), data=data)

    def _evf(self, row: GameRow, game: Game) -> models.Download:
        """A finished game as EVF (:func:`minesweep.replays.replay_from_game`), named for saving."""
        finished = row.finished_at
        # When the game began, on the wall clock: when it ended less its time.
        # (A test's or a broken host's wall clock may put it before 1970, which
        # EVF cannot say: then the file has no date.)
        begun = None if finished is None else round((finished - game.elapsed) * 1_000_000)
        start_us = begun if begun is not None and begun >= 0 else None
        player = self._player(row) or ""
        try:
            trace = self.db.trace(row.token)
            if trace is not None:
                # The page's own record of the mouse is the game's replay: it
                # holds what the hand did, not only the actions it made.
                replay = replace(read(trace, name="the stored trace"), player=player)
                replay = replace(replay, start_us=start_us)
            else:
                replay = replay_from_game(game, player=player, start_us=start_us)
            data = write_evf(replay)
        except ValueError as error:
            # ReplayError and write_evf's refusals (a board past 255 squares a
            # side): a game this server played that EVF cannot hold.
            raise ApiError(409, f"this game cannot be written as an EVF replay: {error}") from None
        return models.Download(filename=_evf_name(row, game.status.value), data=data)

    def replay_file(self, data: bytes, name: str | None = None) -> models.ReplayFile:
        """An uploaded replay file of any format, read, with every click judged and every view.

        ``name`` is the file's name (its extension picks the reader when the
        bytes do not tell; messages name it). A file that cannot be read is a
        400 with the reader's message, naming the byte; a board or a game
        larger than the viewer takes, a 422.
        """
        where = _upload_name(name)
        limits = self.limits
        try:
            replay = read(data, name=where)
        except ReplayError as error:
            raise ApiError(400, str(error)) from None
        rows, cols = replay.rows, replay.cols
        if rows * cols > limits.max_replay_squares:
            raise ApiError(
                422,
                f"{where}: the replay viewer takes boards of up to {limits.max_replay_squares} "
                f"squares, and this one is {rows}x{cols}",
            )
        try:
            analysis = analyse_clicks(replay)
            if len(analysis.clicks) > limits.max_replay_clicks:
                raise ApiError(
                    422,
                    f"{where}: the replay viewer takes games of up to {limits.max_replay_clicks} "
                    f"clicks, and this one has {len(analysis.clicks)}",
                )
            table = judge_clicks(replay, analysis)
            record = summary(replay)
        except MinesweepError as error:
            # The file reads, but what it holds breaks the rules somewhere past
            # the reader's checks.
            raise ApiError(422, f"{where}: {error}") from None
        views = []
        for view in analysis.views:
            text = view.translate(_GLYPHS).decode("ascii")
            views.append([text[r * cols : (r + 1) * cols] for r in range(rows)])
        return models.ReplayFile(
            format=cast(models.ReplayFormat, replay.format),
            player=replay.player,
            rows=rows,
            cols=cols,
            mines=replay.mines,
            summary={key: _summary_value(value) for key, value in record.items()},
            views=views,
            clicks=[_note(click) for click in table.clicks],
        )

    # --- for tests and operators: never answered to a client --------------------------------

    def game(self, token: str) -> Game:
        """The game ``token`` names, rebuilt from the database as a restarted server would.

        Mines included: a test or an operator may look; no route returns it.
        """
        row = self.db.load(token)
        if row is None:
            raise ApiError(404, "no game with that id")
        return self._rebuild(row)

    def forget(self, token: str | None = None) -> None:
        """Drop a game (every game, with None) from the cache: its next read replays its log."""
        with self._lock:
            if token is None:
                self._cache.clear()
            else:
                self._cache.pop(token, None)

    # --- storage ---------------------------------------------------------------------------

    def _load(self, token: str) -> tuple[GameRow, Game]:
        if not _TOKEN.fullmatch(token):
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
        return row, self._rebuild(row)

    def _rebuild(self, row: GameRow) -> Game:
        """A game from its base and its action log, its clock resumed."""
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

    def _update(
        self,
        token: str,
        version: int | None,
        apply: Callable[[GameRow, Game], _Write],
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
            row, game = self._load(token)
            if version is not None and version != row.version:
                current = self._public(row, game)
                self._keep(token, row.version, game)
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
                    seconds=final.seconds,
                    bbbv=final.bbbv,
                    ranked=ranked,
                    unranked_because=because,
                )
            if self.db.store(row, changes, record=write.record, rewrite=write.rewrite):
                count = row.actions + (write.record is not None)
                if write.rewrite is not None:
                    count = len(write.rewrite)
                merged = replace(row, **changes, actions=count, version=row.version + 1)
                self._keep(token, merged.version, game)
                return self._public(merged, game)
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
            seconds=final.seconds,
            human_limits=self.limits.human_limits,
        )
        if row.account_id is None and because is None:
            because = "played as a guest: sign in to rank"
        if because is None and self.limits.require_trace:
            # Ranked once the page's record of it comes and matches (trace()),
            # and then reviewed if it is held (minesweep.web.review).
            because = AWAITING_TRACE
        if because is None:
            because = self.reviews.hold(row.kind, final.seconds, final.bbbv)
        return because is None, because

    def _forget_replays(self) -> None:
        """Drop every encoded replay: a deleted account's name may be in some (they are
        made again, anonymous, when next asked for)."""
        self.replays = ByteCache(self.limits.replay_cache_bytes)

    def _player(self, row: GameRow) -> str | None:
        """The name a game is shown under now: its account's current one, or a guest's.

        None for a ranked game with no account: one ranked before accounts
        (its name was never anyone's) or one whose account was deleted.
        """
        if row.account_id is not None:
            return self.db.account_names([row.account_id]).get(row.account_id)
        return None if row.ranked else row.name

    def _keep(self, token: str, version: int, game: Game) -> None:
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

    def _public(self, row: GameRow, game: Game) -> models.GameState:
        """What the player may see. Until the end: the view, counters and time; no mine."""
        state = models.GameState(
            id=row.token,
            version=row.version,
            kind=row.kind,
            rows=game.shape[0],
            cols=game.shape[1],
            mines=game.mine_count,
            rule=game.rule.value,
            no_guess=row.no_guess,
            bot=row.bot,
            status=game.status.value,
            mines_left=game.mines_left,
            elapsed=round(game.elapsed, 3),
            assisted=row.assisted,
            seeded=row.seeded,
            actions=row.actions,
            view=to_view(game.glyphs()).splitlines(),
        )
        if game.is_over:
            final = frontend.score(game)
            state.stats = models.Stats(
                bbbv=final.bbbv,
                solved_bbbv=final.solved_bbbv,
                bbbv_per_second=round(final.bbbv_per_second, 4),
                efficiency=round(final.efficiency, 4),
                clicks=final.clicks,
            )
            state.ranked = row.ranked
            state.unranked_because = row.unranked_because
            if (
                row.ranked
                or row.unranked_because == PENDING_REVIEW
                or ((row.unranked_because or "").startswith(VOIDED))
            ):
                # A record held for review: its player opens it (GET /api/reviews/ID).
                state.public_id = row.public_id
        return state


def _evf_name(row: GameRow, status: str) -> str:
    """The name a finished game's EVF file is saved under: its kind, how and when it ended."""
    when = "game"
    if row.finished_at is not None:
        moment = datetime.datetime.fromtimestamp(row.finished_at, datetime.UTC)
        when = moment.strftime("%Y%m%d-%H%M%S")
    kind = _UNSAFE_IN_NAME.sub("-", row.kind).strip("-")
    return f"minesweep-{kind}-{status}-{when}.evf"


def _upload_name(name: str | None) -> str:
    """The name an uploaded file goes by: its last part, if it is printable text."""
    if not name:
        return _UPLOAD
    name = name.replace("\\", "/").rsplit("/", 1)[-1][:120]
    # A name is echoed in messages: no control or bidirectional character.
    return name if name.strip() and name.isprintable() else _UPLOAD


def _finite(value: float) -> float | None:
    """A float JSON can hold: None for NaN and the infinities."""
    return float(value) if math.isfinite(value) else None


def _summary_value(value: object) -> models.SummaryValue:
    """A value of :func:`minesweep.replays.summary` as JSON holds it (no NaN, no numpy)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return _finite(float(value))
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    return str(value)


def _note(click: JudgedClick) -> models.ClickNote:
    """One judged click as the API sends it: NaN and infinity as null."""
    return models.ClickNote(
        index=click.index,
        # Microseconds: the files keep milliseconds, the subtraction adds noise.
        time=round(click.time, 6),
        kind=cast(models.ClickKindName, click.kind),
        row=click.row,
        col=click.col,
        effect=cast(models.ClickEffectName, click.effect),
        effective=click.effective,
        solved=click.solved,
        view=click.view,
        squares=click.squares,
        judged=click.judged,
        first=click.first,
        mine_chance=_finite(click.mine_chance),
        certain=click.certain,
        by_counting=click.by_counting,
        guess=click.guess,
        avoidable=click.avoidable,
        forced=click.forced,
        fifty_fifty=click.fifty_fifty,
        lowest_chance=_finite(click.lowest_chance),
        safe_squares=None if click.safe_squares < 0 else click.safe_squares,
        luck=_finite(click.luck),
        pluck=_finite(click.pluck),
        grade=cast(models.GuessGrade, click.grade),
        over_best=_finite(click.over_best),
    )


def page_numbering(hint: Hint) -> str:
    """A hint in the page's numbering: "row 2, column 6", counted from 1.

    Squares are named by :func:`~minesweep.squares.square_name`, as by every front end.

    The solver's values name squares as (row, col) from 0, as the API's
    fields do; the page's labels, and so its messages, count from 1.
    """
    return hint.words(square_name)
