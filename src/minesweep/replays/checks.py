"""Checks, not trust: what a replay's header claims, against what its board and events show.

ms-toollib reports the header's 3BV as the game's: a file claiming 3BV 50 on
a board of 3BV 1 ranks as 3BV 50. Here each claim is compared with the value
computed from the board, and each disagreement is one sentence in the list
:func:`check` returns (empty: the file is consistent). The file's own flags
are kept as the file says (``Replay.claims``).
"""

from __future__ import annotations

from .model import Replay
from .stats import ReplayStats

__all__ = ["LEVELS", "check", "check_values"]

#: How far a claimed time may be from the events' time: Arbiter's clock
#: ticks in hundredths, and the header and events round apart.
TIME_TOLERANCE = 0.02

#: The competitive levels (minesweepergame.com's ranking rules): beginner is
#: 8x8 there, not the 9x9 of Windows XP and of minesweep's own preset.
LEVELS = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}


def check(replay: Replay, stats: ReplayStats) -> list[str]:
    """Each way the header disagrees with the board and events, as a sentence."""
    return check_values(replay, bbbv=stats.bbbv, won=stats.won, rtime=stats.rtime)


def check_values(replay: Replay, *, bbbv: int, won: bool, rtime: float) -> list[str]:
    """:func:`check` given the three statistics it compares (``ReplayStats``' fields)."""
    found: list[str] = []
    claims = replay.claims
    if claims.bbbv is not None and claims.bbbv != bbbv:
        found.append(f"the header's 3BV is {claims.bbbv}, the board's is {bbbv}")
    level = dict(replay.extra).get("level")
    field = replay.field
    if level in LEVELS and LEVELS[level] != (*field.shape, field.mine_count):
        found.append(
            f"the header says {level}, the board is {field.rows}x{field.cols} "
            f"with {field.mine_count} mines"
        )
    if claims.completed is not None and claims.completed != won:
        said, shown = (
            ("won" if claims.completed else "not won"),
            ("won" if won else "not won"),
        )
        found.append(f"the header says the game was {said}; the events show it {shown}")
    if claims.rtime is not None and won and abs(claims.rtime - rtime) > TIME_TOLERANCE:
        found.append(f"the header's time is {claims.rtime:.3f} s, the events take {rtime:.3f} s")
    return found
