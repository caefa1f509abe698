"""The web game's replays: the page's record of a game, and a finished game's replay.

A finished game downloads as an EVF replay (:mod:`minesweep.replays`); a
ranked one's replay is public, as JSON for the page's viewer and as EVF, each
encoded once and then sent from a byte cache. The page's record of the mouse
(its trace, :mod:`minesweep.web.trace`) is judged against the game's actions
and then is the game's replay.
"""

from __future__ import annotations

import datetime
import json
import re
from dataclasses import asdict, replace
from typing import Any, Final

import msgspec

from minesweep import Game, MinesweepError
from minesweep.formats import to_game_json, to_view
from minesweep.replays import read, replay_from_game, write_evf
from minesweep.replays.clicks import analyse_clicks

from . import models
from .accounts import Credentials
from .db import GameRow
from .errors import ConflictError, RefusedError
from .games import AWAITING_TRACE, Games
from .guards import ByteCache
from .limits import ApiError
from .schema import TOKEN
from .style import style_of
from .trace import TraceRules, judge, parse_trace, trace_replay
from .uploads import replay_file
from .views import public_state, shown_name

__all__ = ["Replays"]

#: What a file name a replay is downloaded under may hold besides letters and digits.
_UNSAFE_IN_NAME: Final = re.compile(r"[^A-Za-z0-9_-]+")


class Replays:
    """Traces kept and judged, games written as EVF, ranked games' public replays."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.db = games.db
        self.limits = games.limits
        # Ranked games' replays, encoded (JSON and EVF): a finished game never
        # changes, and stepping a long one's every view costs a third of a
        # second, so each is made once. Keyed by the name it shows too: see
        # replay_json.
        self.cache: ByteCache[tuple[str, str, str]] = ByteCache(self.limits.replay_cache_bytes)
        #: What the page's record of a game is judged by (minesweep.web.trace).
        self.trace_rules = TraceRules()

    def forget(self) -> None:
        """Drop every encoded replay: a deleted account's name may be in some (they are
        made again, anonymous, when next asked for)."""
        self.cache = ByteCache(self.limits.replay_cache_bytes)

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
            row, game = self.games.load(token)
            self.games.keep(token, row.version, game)
            rows, cols = game.shape
            # A body that cannot be read is refused first (a TraceError, 400), whatever
            # the game.
            px, events = parse_trace(
                data, rows=rows, cols=cols, max_events=self.trace_rules.max_events
            )
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
                style: dict[str, Any] | None = None
                if row.unranked_because == AWAITING_TRACE:
                    analysis = analyse_clicks(replay)
                    because = judge(replay, game.history, self.trace_rules, analysis)
                    if because is None and row.account_id is not None and row.seconds:
                        # A record that passed: how it was played joins the account's
                        # style (minesweep.web.style), which may flag it for review.
                        speed = (row.bbbv or 0) / row.seconds
                        style = asdict(style_of(row.kind, replay, analysis, speed))
                    if because is None:
                        because = self.games.reviews.hold(row.kind, row.seconds, row.bbbv)
                    # The column holds 200 characters; the reasons are shorter.
                    changes = {
                        "ranked": because is None,
                        "unranked_because": None if because is None else because[:200],
                    }
            except (ValueError, MinesweepError) as error:
                # Read, but not a record EVF holds or the rules take.
                raise RefusedError(f"the trace cannot be kept: {error}") from None
            if self.db.add_trace(row, evf, changes, self.games.wall(), style):
                merged = replace(row, **changes, version=row.version + 1)
                self.games.keep(token, merged.version, game)
                return public_state(merged, game)
        raise ApiError(409, "the game changed while its record was read; retry")

    def replay(self, public_id: str) -> models.Replay:
        """A ranked game's replay, made afresh (the route sends :meth:`replay_json`'s)."""
        row = self._ranked(public_id)
        return self._replay(row, shown_name(self.db, row) or "anonymous")

    def replay_json(self, public_id: str) -> msgspec.Raw:
        """A ranked game's replay as JSON, made once and then sent from the cache.

        The cache is never invalidated: a ranked game is finished for good.
        The one thing in it that could change is the player's name, so the
        name is part of the key (read from the row on every request, which
        is one indexed lookup): a renamed player's replay is made again, and
        the old one ages out.
        """
        row = self._ranked(public_id)
        name = shown_name(self.db, row) or "anonymous"
        data = self.cache.get(
            ("json", row.public_id, name),
            lambda: msgspec.json.encode(self._replay(row, name)),
        )
        return msgspec.Raw(data)

    def _replay(self, row: GameRow, name: str) -> models.Replay:
        game = self.games.rebuild(row)
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
        if not TOKEN.fullmatch(public_id):
            raise ApiError(404, "no ranked game with that id")
        row = self.db.replay(public_id)
        if row is None:
            raise ApiError(404, "no ranked game with that id")
        return row

    def review_replay(self, public_id: str, credentials: Credentials) -> models.ReplayFile:
        """A record held for review, for its player or an operator: its replay (the page's
        own record of the mouse when it sent one) with the exact solver's verdict on
        every click, as an uploaded file's."""
        row = self.games.reviews.record(public_id, credentials)
        download = self._evf(row, self.games.rebuild(row))
        return replay_file(self.limits, download.data, download.filename)

    def game_evf(self, token: str) -> models.Download:
        """The player's own game as an EVF replay, once it is over.

        Refused (409) while it is played: a replay holds every mine.
        """
        row, game = self.games.load(token)
        self.games.keep(token, row.version, game)
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
        data = self.cache.get(
            ("evf", row.public_id, shown_name(self.db, row) or ""),
            lambda: self._evf(row, self.games.rebuild(row)).data,
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
        player = shown_name(self.db, row) or ""
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
            raise ConflictError(f"this game cannot be written as an EVF replay: {error}") from None
        return models.Download(filename=_evf_name(row, game.status.value), data=data)


def _evf_name(row: GameRow, status: str) -> str:
    """The name a finished game's EVF file is saved under: its kind, how and when it ended."""
    when = "game"
    if row.finished_at is not None:
        moment = datetime.datetime.fromtimestamp(row.finished_at, datetime.UTC)
        when = moment.strftime("%Y%m%d-%H%M%S")
    kind = _UNSAFE_IN_NAME.sub("-", row.kind).strip("-")
    return f"minesweep-{kind}-{status}-{when}.evf"
