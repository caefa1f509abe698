"""The compiled kernels of the replay machine, one room a job.

:mod:`..zini`, :mod:`..clicks`, :mod:`..operations` and :mod:`..rmv` document
what these compute; these modules are how. They run compiled (numba) through
:mod:`minesweep._jit`, part ``replays``, and interpreted until that part is
compiled: the same source, so the same answers (the tests hold the two to
each other on random games). Everything is on flat arrays, and every kernel
answers with a named tuple, read by name.

- :mod:`.board`: the board's numbers, openings, lone numbers, islands, 3BV
  (the rules': :mod:`minesweep.rules.counts`, :mod:`minesweep.rules.openings`), ZiNi;
- :mod:`.mouse`: the mouse machine (ms-toollib's ``step``); :mod:`.mouse_results` its answer;
- :mod:`.literal`: ms-toollib's order-dependent opening count around a chord;
- :mod:`.operations`: each click's operations and the game's sums;
- :mod:`.rmv`: the RMV reader's event records;
- :mod:`.replay`: board, mouse and sums in one call;
- :mod:`.codes`: the codes they share (the views are the core's glyphs).
"""

from __future__ import annotations

from .board import Board, Profile, Squares, board_kernel, profile_kernel
from .mouse import CLICK_FIELDS, Clicks, Counters, clicks_kernel
from .operations import OPERATION_FIELDS, Operations, operations_kernel, pairwise_sum
from .replay import Replayed, replay_kernel
from .rmv import RMV_OK, RMV_UNKNOWN, RmvEvents, rmv_events_kernel

__all__ = [
    "CLICK_FIELDS",
    "OPERATION_FIELDS",
    "RMV_OK",
    "RMV_UNKNOWN",
    "Board",
    "Clicks",
    "Counters",
    "Operations",
    "Profile",
    "Replayed",
    "RmvEvents",
    "Squares",
    "board_kernel",
    "clicks_kernel",
    "operations_kernel",
    "pairwise_sum",
    "profile_kernel",
    "replay_kernel",
    "rmv_events_kernel",
]
