"""What a client may see of a game: its public state, and the name it is shown under.

Until the end, the view (numbers, hidden squares, flags), the counters and
the time; no mine. After the end, its score, whether it ranks, and the id
its replay and its review go by.
"""

from __future__ import annotations

from minesweep import Game, frontend
from minesweep.formats import to_view

from . import models
from .db import Database, GameRow
from .review import VOIDED
from .schema import PENDING_REVIEW

__all__ = ["public_state", "shown_name"]


def public_state(row: GameRow, game: Game) -> models.GameState:
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
        state.stats = models.from_record(
            models.Stats,
            final,
            bbbv_per_second=round(final.bbbv_per_second, 4),
            efficiency=round(final.ioe, 4),
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


def shown_name(db: Database, row: GameRow) -> str | None:
    """The name a game is shown under now: its account's current one, or a guest's.

    None for a ranked game with no account: one ranked before accounts
    (its name was never anyone's) or one whose account was deleted.
    """
    if row.account_id is not None:
        return db.account_names([row.account_id]).get(row.account_id)
    return None if row.ranked else row.name
