"""The terminal game's clock: monotonic time that stands still while the game is paused."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["PausableClock"]


class PausableClock:
    """A monotonic clock that stands still while the game is paused."""

    def __init__(self, base: Callable[[], float] = time.monotonic) -> None:
        self._base = base
        self._paused_at: float | None = None
        self._lost = 0.0

    def __call__(self) -> float:
        now = self._paused_at if self._paused_at is not None else self._base()
        return now - self._lost

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self._base()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._lost += self._base() - self._paused_at
            self._paused_at = None
