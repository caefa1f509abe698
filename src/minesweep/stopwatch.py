"""A game's time: when its first action came, how long it has run, and each action's time.

A :class:`~minesweep.game.Game` keeps its squares in a
:class:`~minesweep.position.Position` and its time here. Actions carry their
times as seconds from the first action; the clock is a monotonic one the game
is given (tests pass a fake one), and a replayed game's actions bring their
recorded times, which the watch checks and then runs as if played live.

>>> ticks = iter([10.0, 12.5])
>>> watch = Stopwatch(lambda: next(ticks))
>>> watch.stamp(None, None, "O1,1")
(10.0, 0.0)
>>> watch.run(10.0, 0.0, over=False)
>>> watch.elapsed()
2.5
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import final

from .errors import ActionError

__all__ = ["Stopwatch", "still_clock"]


def still_clock() -> float:
    """The clock of a replay's copy: its actions carry their recorded times."""
    return 0.0


@final
class Stopwatch:
    """The time of one game on ``clock``: stopped until the first action, again at the end."""

    __slots__ = ("_clock", "_end", "_start")

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._start: float | None = None
        self._end: float | None = None

    @property
    def started_at(self) -> float | None:
        """The clock time of the first action (None before it)."""
        return self._start

    def elapsed(self) -> float:
        """Seconds from the first action to now, or to the end of the game."""
        if self._start is None:
            return 0.0
        end = self._end if self._end is not None else self._clock()
        return end - self._start

    def stamp(
        self, at: float | None, previous: float | None, action: object
    ) -> tuple[float, float]:
        """The clock now, and the time of ``action``: ``at``, or now's since the first action.

        Raises ActionError (naming ``action``) unless that time is finite
        seconds, not before ``previous`` (the time of the action before it).
        Nothing changes: the game applies the action first, then :meth:`run`.
        """
        now = self._clock()
        start = self._start if self._start is not None else now
        stamp = now - start if at is None else float(at)
        if not math.isfinite(stamp) or stamp < 0:
            raise ActionError(f"action time must be finite seconds, got {stamp}")
        if previous is not None and stamp < previous:
            raise ActionError(
                f"action {action} at {stamp} s comes before the previous action's {previous} s"
            )
        return now, stamp

    def run(self, now: float, stamp: float, *, over: bool) -> None:
        """An action at ``stamp`` applied at clock time ``now``; ``over`` if it ended the game.

        A replayed game's clock reads as if it had been played live.
        """
        self._start = now - stamp
        if over:
            self._end = self._start + stamp

    def undone(self, *, to_start: bool) -> None:
        """An action undone: the game runs again, or has not started (``to_start``)."""
        self._end = None
        if to_start:
            self._start = None

    def set_start(self, start: float, end: float | None) -> None:
        """Put the first action at clock time ``start``; ``end``, the last one's time if over."""
        self._start = start
        if end is not None:
            self._end = start + end
