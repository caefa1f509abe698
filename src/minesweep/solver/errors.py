"""What can stop an analysis: a view no layout agrees with, or a count past its budget.

Every step of the solver (the frontier, the counters, the analysis) raises
these, so they sit below all of them; :mod:`minesweep.solver` re-exports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..errors import MinesweepError

__all__ = [
    "DEFAULT_MAX_STATES",
    "MAX_COEFFICIENTS",
    "AnalysisBudgetError",
    "ContradictionError",
    "StateBudget",
    "mines_between",
    "over_budget",
]

#: Default budget: partial layouts (dynamic-programming states) per analysis.
#: Typical expert positions need a few hundred; the budget stops pathological
#: views (huge boards with long, loosely constrained frontiers) after about a
#: second or two instead of running on.
DEFAULT_MAX_STATES: Final = 200_000

#: A count under a budget also keeps at most this many polynomial
#: coefficients (a state's polynomial has one per mine count of its
#: component): the compiled counter keeps two tables of them in float64,
#: one grown by doubling, so about 200 MB at most; the exact counter keeps
#: a sixteenth as many, each a Python integer in a dict. A wide component
#: of a huge board reaches this before the budget of states.
MAX_COEFFICIENTS: Final = 8_000_000


class ContradictionError(MinesweepError):
    """No mine layout agrees with the view; the message names a square at fault.

    Finding the square at fault means counting the component again once per
    number, which costs far more than finding the contradiction: searches
    that try views which may be impossible (a lookahead) would pay it on
    every try. So the message can be given as a function, run the first time
    the message is read (``str``, ``repr``, pickling); until then ``args``
    holds a short summary.
    """

    def __init__(self, message: str | Callable[[], str]) -> None:
        if callable(message):
            super().__init__("no mine layout agrees with the view")
            self._explain: Callable[[], str] | None = message
        else:
            super().__init__(message)
            self._explain = None

    def __str__(self) -> str:
        explain = self._explain  # read once: another thread may get here too
        if explain is not None:
            self.args = (explain(),)
            self._explain = None
        return str(self.args[0])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # The explanation holds the whole frontier: send the message instead,
        # with whatever else the exception carries (notes, say).
        state = {key: value for key, value in vars(self).items() if key != "_explain"}
        return (type(self), (str(self),), state)


class AnalysisBudgetError(MinesweepError):
    """The frontier is too tangled to count exactly within the budget."""


def mines_between(low: int, high: int) -> str:
    """ "between 2 and 5 mines", or "exactly 1 mine" when the two agree.

    >>> mines_between(1, 1), mines_between(0, 3)
    ('exactly 1 mine', 'between 0 and 3 mines')
    """
    if low == high:
        return f"exactly {low} mine{'' if low == 1 else 's'}"
    return f"between {low} and {high} mines"


def over_budget(squares: int) -> AnalysisBudgetError:
    """The error for a component of ``squares`` squares that needs more states than allowed."""
    return AnalysisBudgetError(
        f"counting this view needs more than the budget of partial layouts (a frontier of "
        f"{squares} squares in one component); raise max_states or pass None to count "
        "without limit"
    )


class StateBudget:
    """How many more partial layouts the counts of one analysis may make.

    Every count of the analysis spends from the same budget, so a view of many
    components is bounded as a whole. ``left`` negative means no limit.
    """

    __slots__ = ("left",)

    def __init__(self, max_states: int | None) -> None:
        self.left = -1 if max_states is None else max_states

    @property
    def limited(self) -> bool:
        """Whether there is a limit to spend against."""
        return self.left >= 0

    def spend(self, states: int) -> None:
        """Take ``states`` off what is left (nothing changes without a limit)."""
        if self.left >= 0:
            self.left -= states

    def __repr__(self) -> str:
        return f"StateBudget({self.left if self.left >= 0 else None})"
