"""Checks, not trust: what a replay's header claims, against what its board shows.

ms-toollib reports the header's 3BV as the game's: a file claiming 3BV 50 on
a board of 3BV 1 ranks as 3BV 50. Here each claim is compared with the value
computed from the board, and each disagreement is one sentence in the list
:func:`check` returns (empty: the file is consistent). The file's own flags
are kept as the file says (``Replay.claims``).
"""

from __future__ import annotations

from ..stats import board_stats
from .model import Replay

__all__ = ["LEVELS", "check"]

#: The competitive levels (minesweepergame.com's ranking rules): beginner is
#: 8x8 there, not the 9x9 of Windows XP and of minesweep's own preset.
LEVELS = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}


def check(replay: Replay) -> list[str]:
    """Each way the header disagrees with the board, as a sentence."""
    found: list[str] = []
    claims = replay.claims
    bbbv = board_stats(replay.field).bbbv
    if claims.bbbv is not None and claims.bbbv != bbbv:
        found.append(f"the header's 3BV is {claims.bbbv}, the board's is {bbbv}")
    level = dict(replay.extra).get("level")
    if level in LEVELS and LEVELS[level] != (replay.rows, replay.cols, replay.mines):
        found.append(
            f"the header says {level}, the board is {replay.rows}x{replay.cols} "
            f"with {replay.mines} mines"
        )
    if replay.events and claims.rtime is not None and replay.events[-1].time < claims.rtime - 1:
        found.append(
            f"the header's time is {claims.rtime:.3f} s, "
            f"the last event is at {replay.events[-1].time:.3f} s"
        )
    return found
