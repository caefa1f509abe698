"""Advice for the player: a safe square when there is one, else the best guess."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from ..actions import GameStatus
from ..errors import GameOverError, InvalidBoardError
from ..game import Game
from ..grid import middle
from ..presets import FirstClickRule
from ..squares import GLYPH_FLAG, square_name
from .probability import DEFAULT_MAX_STATES, Analysis, analyze

__all__ = ["Hint", "HintReason", "before_first_reveal", "hint", "hint_from_analysis"]


class HintReason(StrEnum):
    """Why a hint names its square."""

    #: The square is certainly safe.
    SAFE = "safe"
    #: A flag is on a square that is certainly safe.
    WRONG_FLAG = "wrong-flag"
    #: No square is certainly safe; this one is the likeliest to be.
    LOWEST_PROBABILITY = "lowest-probability"
    #: Before the first reveal, the first-click rule keeps this square clear.
    FIRST_CLICK_SAFE = "first-click-safe"
    #: Before the first reveal, with no first-click rule: every square alike.
    FIRST_CLICK_UNIFORM = "first-click-uniform"


@dataclass(frozen=True, slots=True)
class Hint:
    """Where to click next, and why, as values a front end words in its own numbering.

    ``probability`` is the square's exact mine probability (0.0 when
    ``safe``); ``why`` says why this square; ``rule`` is the first-click
    rule's name for the first-click reasons. :meth:`words` (and ``reason``,
    its default wording) says it in a sentence.
    """

    row: int
    col: int
    probability: float
    safe: bool
    why: HintReason
    rule: str | None = None

    def words(self, square: Callable[[int, int], str] = square_name) -> str:
        """The hint in a sentence, naming squares as ``square(row, col)`` does.

        By default from 1, as every front end names a square for a person
        (:func:`~minesweep.squares.square_name`); ``row`` and ``col`` stay 0-based.

        >>> advice = Hint(2, 5, 0.0, True, HintReason.SAFE)
        >>> advice.words()
        'row 3, column 6 is certainly safe'
        >>> advice.words(lambda row, col: f"({row}, {col})")
        '(2, 5) is certainly safe'
        """
        here = square(self.row, self.col)
        match self.why:
            case HintReason.SAFE:
                return f"{here} is certainly safe"
            case HintReason.WRONG_FLAG:
                return f"the flag at {here} is wrong: that square is certainly safe"
            case HintReason.LOWEST_PROBABILITY:
                return (
                    f"no square is certainly safe; {here} holds a mine with probability "
                    f"{_percent(self.probability)}, the lowest on the board"
                )
            case HintReason.FIRST_CLICK_UNIFORM:
                return (
                    "nothing is revealed yet, and with no first-click rule every square is a "
                    f"mine with probability {_percent(self.probability)}"
                )
            case HintReason.FIRST_CLICK_SAFE:
                return f"the first click is safe: the {self.rule!r} rule keeps it clear of mines"

    @property
    def reason(self) -> str:
        """:meth:`words`: the hint in a sentence, squares named from 1 ("row 3, column 6")."""
        return self.words()


def _percent(probability: float) -> str:
    """A probability as a person reads it, in percent, as ``solve``'s table gives it:
    three significant figures, so that a small one does not read as 0.

    >>> _percent(0.05), _percent(0.12345), _percent(0.00012), _percent(1e-9)
    ('5%', '12.3%', '0.012%', 'under 0.001%')
    """
    value = 100 * probability
    if 0 < value < 0.001:
        return "under 0.001%"  # not "1e-07%"
    return f"{value:.3g}%"


def hint(
    source: Game | npt.ArrayLike,
    mines: int | None = None,
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
) -> Hint:
    """A hint for a game, or for a view (glyphs) with ``mines`` mines in all."""
    if isinstance(source, Game):
        if source.is_over:
            raise GameOverError(f"the game is over ({source.status.value}): no hint to give")
        if before_first_reveal(source):
            return _first_click(source)
        glyphs = source.glyphs()
        total = source.mine_count
    else:
        if mines is None:
            raise InvalidBoardError("a hint for a view needs the total number of mines")
        glyphs = np.asarray(source)
        total = mines
    return hint_from_analysis(analyze(glyphs, total, max_states=max_states), glyphs)


#: Up to this many hidden squares, a hint's probability is computed exactly.
EXACT_HINT_SQUARES = 20_000


def before_first_reveal(game: Game) -> bool:
    """Whether the first-click rule, not the view, says what is safe in ``game``.

    So it is until the first action, or while no mine is laid (flags alone
    lay none): :func:`hint` then advises the first click.
    """
    return game.status is GameStatus.READY or game.field is None


def hint_from_analysis(analysis: Analysis, glyphs: npt.ArrayLike) -> Hint:
    """The hint an analysis of the view ``glyphs`` gives."""
    view = np.asarray(glyphs)
    flagged = view == GLYPH_FLAG
    for row, col in analysis.safe.tolist():
        if not flagged[row, col]:
            return Hint(row, col, 0.0, True, HintReason.SAFE)
    if len(analysis.safe):
        row, col = analysis.safe[0].tolist()
        return Hint(row, col, 0.0, True, HintReason.WRONG_FLAG)
    probability = np.where(flagged, np.nan, analysis.probability)
    if np.all(np.isnan(probability)):
        raise InvalidBoardError("every hidden square is flagged: unflag one to get a hint")
    lowest = np.nanmin(probability)
    # Ties go to the first square in reading order, so hints are reproducible.
    row, col = (int(v) for v in np.argwhere(probability == lowest)[0])
    # The exact value (big integers) where it is cheap; on a huge board the
    # float, accurate to about 1e-12, instead of seconds of big-integer sums.
    hidden = int(np.count_nonzero(~np.isnan(analysis.probability)))
    value = float(analysis.exact(row, col)) if hidden <= EXACT_HINT_SQUARES else float(lowest)
    return Hint(row, col, value, False, HintReason.LOWEST_PROBABILITY)


def _first_click(game: Game) -> Hint:
    rows, cols = game.shape
    row, col = middle(game.shape)
    if game.rule is FirstClickRule.NONE:
        value = game.mine_count / (rows * cols)
        return Hint(row, col, value, False, HintReason.FIRST_CLICK_UNIFORM)
    return Hint(row, col, 0.0, True, HintReason.FIRST_CLICK_SAFE, game.rule.value)
