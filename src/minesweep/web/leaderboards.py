"""The web game's leaderboards: people's fastest ranked wins, and declared bots by win rate.

Read-only views of the database; no HTTP here.
"""

from __future__ import annotations

from minesweep.errors import SettingsError
from minesweep.records import Kind
from minesweep.stats import wilson_interval

from . import models
from .db import Database
from .limits import ApiError, Limits

__all__ = ["bots", "check_kind", "human_limit", "leaderboard"]


#: The orders a leaderboard takes (the ``by`` query parameter).
ORDERS: tuple[models.LeaderboardOrder, ...] = ("time", "bbbv_per_second")


def leaderboard(
    db: Database, limits: Limits, kind: str, by: str | None = None
) -> models.Leaderboard:
    """The 20 best ranked wins of ``kind``, with each account's current name and win rate.

    ``by`` is the order: "time" (the default: fastest first, as competitive
    sites rank a board size) or "bbbv_per_second" (highest 3BV/s first: fair
    across boards of different 3BV); every entry has its board's 3BV, since a
    time means little without it. Any other order is refused (422).

    A ranked game with no account (one whose account was deleted, or one
    ranked before accounts, whose name was never anyone's) is "anonymous",
    counted as one game won: there is no one else's record to count it in.
    """
    check_kind(kind)
    order: models.LeaderboardOrder = "time"
    if by == "bbbv_per_second":
        order = "bbbv_per_second"
    elif by not in (None, "time"):
        # 422, not 400: the request is well formed (no body), its order is unknown.
        raise ApiError(422, f"by must be one of {', '.join(ORDERS)}, got {by!r}")
    rows = db.leaderboard(kind, 20, by=order)
    ids = sorted({row.account_id for row in rows if row.account_id is not None})
    records = {record.account: record for record in db.players(kind, bot=False, accounts_in=ids)}
    scores = []
    for index, row in enumerate(rows):
        record = None if row.account_id is None else records.get(row.account_id)
        games, wins = (record.games, record.wins) if record is not None else (1, 1)
        scores.append(
            models.LeaderboardEntry(
                rank=index + 1,
                name=record.name if record is not None else "anonymous",
                seconds=row.seconds or 0.0,
                bbbv=row.bbbv or 0,
                bbbv_per_second=(row.bbbv or 0) / row.seconds if row.seconds else 0.0,
                replay=row.public_id,
                finished_at=row.finished_at or 0.0,
                games=games,
                win_rate=wins / games,
            )
        )
    return models.Leaderboard(
        kind=kind,
        human_limit=human_limit(limits, kind),
        by=order,
        scores=scores,
    )


def bots(db: Database, limits: Limits, kind: str) -> models.BotLeaderboard:
    """Bot accounts ranked by the low end of their win rate's 95% interval (a guest's
    games declared a bot's count for no one)."""
    check_kind(kind)
    minimum = limits.bot_min_games
    entries = []
    for record in db.players(kind, bot=True):
        if record.games < minimum:
            continue
        low, high = wilson_interval(record.wins, record.games)
        entries.append((low, record, high))
    entries.sort(key=lambda entry: (-entry[0], -entry[1].games, entry[1].name))
    return models.BotLeaderboard(
        kind=kind,
        min_games=minimum,
        bots=[
            models.BotEntry(
                rank=index + 1,
                name=record.name,
                games=record.games,
                wins=record.wins,
                win_rate=record.wins / record.games,
                low=round(low, 6),
                high=round(high, 6),
            )
            for index, (low, record, high) in enumerate(entries[:50])
        ],
    )


def check_kind(kind: str) -> Kind:
    """The kind ``kind`` names; refused (404) when it names none."""
    try:
        return Kind.parse(kind)
    except SettingsError as error:
        # A kind is part of the path: one that names no kind is no page.
        raise ApiError(404, str(error)) from None


def human_limit(limits: Limits, kind: str) -> float | None:
    """The 3BV/s above which a win of ``kind`` is not a person's (None: no limit)."""
    table = limits.human_limits
    preset = check_kind(kind).preset
    return None if table is None or preset is None else table.get(preset)
