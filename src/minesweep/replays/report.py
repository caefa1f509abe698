"""A replay as one flat record: what the file says, what its board asks, and the checks.

The command line prints these records (text, JSON Lines, CSV), and a batch
of them loads into pandas as one table (``pandas.DataFrame(records)``).
"""

from __future__ import annotations

from typing import Any

from ..stats import board_stats
from .checks import check
from .model import Replay

__all__ = ["summary"]


def summary(replay: Replay) -> dict[str, Any]:
    """The record of ``replay``: format, software, player, board, its 3BV, claims and checks."""
    board = board_stats(replay.field)
    claims = replay.claims
    events = replay.events
    return {
        "format": replay.format,
        "version": replay.version,
        "software": replay.software,
        "player": replay.player,
        "country": replay.country,
        "rows": replay.rows,
        "cols": replay.cols,
        "mines": replay.mines,
        "cell_px": replay.cell_px,
        "mode": replay.mode,
        "start_us": replay.start_us,
        "end_us": replay.end_us,
        "events": len(events),
        "last_event": events[-1].time if events else None,
        "bbbv": board.bbbv,
        "op": board.openings,
        "isl": board.islands,
        "claimed_bbbv": claims.bbbv,
        "claimed_rtime": claims.rtime,
        "completed": claims.completed,
        "official": claims.official,
        "fair": claims.fair,
        "checks": check(replay),
    }
