"""What the mouse machine (:mod:`.mouse`) answers: its counters, clicks, views and path."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["Clicks", "Counters"]


class Counters(NamedTuple):
    """The mouse machine's counters (:class:`..clicks.ClickAnalysis` names them the same)."""

    left: int
    right: int
    double: int
    lce: int
    rce: int
    dce: int
    flag: int
    solved: int
    #: The game's state at the end (READY, PRE, PLAYING, WON, LOST of :mod:`.codes`).
    state: int
    c15: int
    unflags: int
    misflags: int
    wasted: int
    #: The index of the event that started and that ended the game, -1 for none.
    start_at: int
    end_at: int


class Clicks(NamedTuple):
    """``clicks_kernel``'s answer."""

    counters: Counters
    #: One row of ``CLICK_FIELDS`` a click.
    clicks: npt.NDArray[np.int64]
    #: One row a view, ``rows * cols`` glyphs.
    views: npt.NDArray[np.uint8]
    #: In pixels.
    path: float
    #: The mouse state after each event (empty unless asked for; see ``clicks_kernel``).
    buttons: npt.NDArray[np.int8]
