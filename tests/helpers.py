"""Helpers the tests of several modules share."""

from __future__ import annotations


class Clock:
    """A fake clock for a game: it reads ``now``, which a test may move by hand.

    With ``step`` it also moves ``step`` seconds on its own before each
    reading, so that every action of a game comes at its own time. Games only
    use differences between readings, so the start is 0.

    >>> clock = Clock(step=0.5)
    >>> clock(), clock()
    (0.5, 1.0)
    >>> clock.now += 10
    >>> clock()
    11.5
    """

    def __init__(self, *, step: float = 0.0) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now
