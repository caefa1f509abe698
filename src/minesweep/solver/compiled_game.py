"""The policy's whole game in compiled calls: what the autoplayer's ``fast`` strength plays.

The kernels live in the private :mod:`._play` (and the searches they call
in :mod:`._search`, :mod:`._endgame` and :mod:`._count`). This module is
the few names the floors above need of them, so that they need not reach
into the solver's private modules: :mod:`minesweep.autoplay` plays a game
with :func:`play_seeded` and :func:`play_on`, and :mod:`minesweep.warm`
asks :func:`searches_compiled` whether its practice games have compiled
the searches yet. The kernels load (and numba with them) on first use, not
when this module is imported.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from .._jit import entry

if TYPE_CHECKING:
    from ..presets import FirstClickRule
    from ._play import Knobs
    from .guess import PolicyConfig

__all__ = ["Played", "play_on", "play_seeded", "searches_compiled", "tuning"]


class Played(NamedTuple):
    """Where a compiled call left a game."""

    #: Won or lost; when False, the next step is the Python policy's, on the
    #: position the call left (its certain moves played).
    ended: bool
    won: bool
    #: The guesses the call made (the first click counts as one when it is a mine).
    guesses: int


@functools.lru_cache(maxsize=16)
def tuning(policy: PolicyConfig, squares: int) -> Knobs:
    """The policy's tuning as the kernels take it, for a board of ``squares``.

    Remembered: making it (a table of log k! for the board) cost about 2 %
    of a ``fast`` game, and a run asks for the same one every game. The
    kernels only read it.
    """
    from ._play import knobs

    return knobs(policy, squares)


def play_seeded(
    knobs: Knobs,
    mines: npt.NDArray[np.bool_],
    numbers: npt.NDArray[np.uint8],
    state: npt.NDArray[np.uint8],
    first: int,
    rule: FirstClickRule,
    mine_count: int,
    seed: int,
) -> Played:
    """A game from its seed: the field laid, the first click, then the policy's moves.

    The field is ``generate_field``'s for ``seed``, ``rule`` and the first
    click at flat square ``first``, written into ``mines`` and ``numbers``;
    ``state`` (all unknown) is played on in place.
    """
    from ..rules.codes import rule_code
    from ..rules.draw import seed_words
    from ._play import TO_PYTHON, WON, play_seed

    outcome, guesses = entry(play_seed)(
        mines, numbers, state, first, rule_code(rule), mine_count, *seed_words(seed), *knobs
    )
    return Played(outcome != TO_PYTHON, outcome == WON, int(guesses))


def play_on(
    knobs: Knobs,
    numbers: npt.NDArray[np.uint8],
    mines: npt.NDArray[np.bool_],
    mine_count: int,
    state: npt.NDArray[np.uint8],
    opens: npt.NDArray[np.int64],
    sure: npt.NDArray[np.int64],
) -> Played:
    """The game played on from ``state`` once the flat squares ``opens`` open and ``sure`` are
    known mines: after a step :func:`play_seeded` (or this) left to the Python policy."""
    from ._play import TO_PYTHON, WON, play_plain

    outcome, guesses = entry(play_plain)(numbers, mines, mine_count, state, opens, sure, *knobs)
    return Played(outcome != TO_PYTHON, outcome == WON, int(guesses))


def searches_compiled() -> bool:
    """Whether the endgame's search and the lookahead's counter have compiled in this process.

    A game compiles them only when it first needs them; :mod:`minesweep.warm`
    plays practice games until this holds.
    """
    from . import _count, _endgame, _search

    needed = (_search._search, _endgame._layouts, _count.count_component)
    return all(kernel.signatures for kernel in needed)
