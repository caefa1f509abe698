"""The solver: it sees only what the player sees.

:func:`analyze` gives the exact mine probability of every hidden square of a
view (numbers, hidden squares, flags treated as claims to check, not facts)
given the total mine count; :func:`hint` turns it into advice, and
:func:`generate_no_guess` lays fields that need no guess.

The package follows the solver's own steps, each module below the next:
``errors`` (what stops an analysis); ``frontier`` (the view's numbers,
groups, components and counting plans); ``exact`` and ``counting`` (layouts
counted in integers, and compiled in floats by ``_count``); ``probability``
(:func:`analyze` and :class:`Analysis`); ``whatif`` (what opening a square
would show); ``guess`` (the :class:`~.guess.Guess` and the policy's tuning,
:class:`~.guess.PolicyConfig`), ``fiftyfifty`` and ``endgame`` (strategies,
the searches compiled in ``_search``) and ``policy`` (:func:`~.policy.choose_guess`,
which weighs them); ``certain`` (certain moves, compiled in ``_deduce``, then
the analysis), ``hints`` and ``noguess``. Only the names below are public.

>>> from minesweep import Game
>>> game = Game.new("beginner", seed=7)
>>> _ = game.reveal(4, 4)
>>> advice = hint(game)
>>> advice.safe, advice.reason
(True, 'row 5, column 9 is certainly safe')
"""

from __future__ import annotations

from .hints import Hint, HintReason, before_first_reveal, hint, hint_from_analysis
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
    "HintReason",
    "NoGuessBudgetError",
    "NoGuessField",
    "analyze",
    "before_first_reveal",
    "clears_without_guessing",
    "generate_no_guess",
    "hint",
    "hint_from_analysis",
    "no_guess_game",
]
