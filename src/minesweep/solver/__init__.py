"""The solver: it sees only what the player sees.

:func:`analyze` gives the exact mine probability of every hidden square of a
view (numbers, hidden squares, flags treated as claims to check, not facts)
given the total mine count; :func:`hint` turns it into advice, and
:func:`generate_no_guess` lays fields that need no guess.

>>> from minesweep import Game
>>> game = Game.new("beginner", seed=7)
>>> _ = game.reveal(4, 4)
>>> advice = hint(game)
>>> advice.safe, advice.reason
(True, '(4, 8) is certainly safe')
"""

from __future__ import annotations

from .hints import Hint, hint, hint_from_analysis
from .noguess import (
    NoGuessBudgetError,
    NoGuessField,
    clears_without_guessing,
    generate_no_guess,
    no_guess_game,
)
from .probability import (
    DEFAULT_MAX_STATES,
    Analysis,
    AnalysisBudgetError,
    ContradictionError,
    analyze,
)

__all__ = [
    "DEFAULT_MAX_STATES",
    "Analysis",
    "AnalysisBudgetError",
    "ContradictionError",
    "Hint",
    "NoGuessBudgetError",
    "NoGuessField",
    "analyze",
    "clears_without_guessing",
    "generate_no_guess",
    "hint",
    "hint_from_analysis",
    "no_guess_game",
]
