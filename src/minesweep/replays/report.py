"""A replay as one flat record: what the file says, every statistic, and the checks.

The command line prints these records (text, JSON Lines, CSV), and a batch
of them loads into pandas as one table (``pandas.DataFrame(records)``).
"""

from __future__ import annotations

from typing import Any

from .checks import check_values
from .model import Replay, event_time
from .stats import stat_fields

__all__ = ["summary"]


def summary(replay: Replay) -> dict[str, Any]:
    """The record of ``replay``: format, software, player, board, claims, statistics, checks.

    The statistics are :func:`~.stats.replay_stats`'s, under ms-toollib's names
    (taken by name, :func:`~.stats.stat_fields`: the record needs no ReplayStats).
    """
    stats = stat_fields(replay)
    claims = replay.claims
    events = len(replay.events)  # a reader's EventColumns: the MouseEvents are not built
    field = replay.field  # its numbers are not counted: the statistics' kernel counts
    rows, cols = field.shape
    record: dict[str, Any] = {
        "format": replay.format,
        "version": replay.version,
        "software": replay.software,
        "player": replay.player,
        "country": replay.country,
        "rows": rows,
        "cols": cols,
        "mines": field.mine_count,
        "cell_px": replay.cell_px,
        "mode": replay.mode,
        "start_us": replay.start_us,
        "end_us": replay.end_us,
        "events": events,
        "last_event": event_time(replay, -1) if events else None,
        "claimed_bbbv": claims.bbbv,
        "claimed_rtime": claims.rtime,
        "completed": claims.completed,
        "official": claims.official,
        "fair": claims.fair,
    }
    record.update(stats)
    record["checks"] = check_values(
        replay, bbbv=stats["bbbv"], won=stats["won"], rtime=stats["rtime"]
    )
    return record
