"""A replay as one flat record: what the file says, every statistic, and the checks.

The command line prints these records (text, JSON Lines, CSV), and a batch
of them loads into pandas as one table (``pandas.DataFrame(records)``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .checks import check
from .model import Replay
from .stats import replay_stats

__all__ = ["summary"]


def summary(replay: Replay) -> dict[str, Any]:
    """The record of ``replay``: format, software, player, board, claims, statistics, checks.

    The statistics are :func:`~.stats.replay_stats`'s, under ms-toollib's names.
    """
    stats = replay_stats(replay)
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
        "claimed_bbbv": claims.bbbv,
        "claimed_rtime": claims.rtime,
        "completed": claims.completed,
        "official": claims.official,
        "fair": claims.fair,
        **dataclasses.asdict(stats),
        "checks": check(replay, stats),
    }
