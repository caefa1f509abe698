"""Advice for the player: a safe square when there is one, else the best guess."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..actions import GameStatus
from ..errors import GameOverError, InvalidBoardError
from ..game import Game
from ..grid import middle
from ..presets import FirstClickRule
from ..squares import GLYPH_FLAG
from .probability import DEFAULT_MAX_STATES, Analysis, analyze

__all__ = ["Hint", "before_first_reveal", "hint", "hint_from_analysis"]


@dataclass(frozen=True, slots=True)
class Hint:
    """Where to click next, and why.

    ``probability`` is the square's exact mine probability (0.0 when
    ``safe``); ``reason`` says in a sentence why this square.
    """

    row: int
    col: int
    probability: float
    safe: bool
    reason: str


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
            return Hint(row, col, 0.0, True, f"({row}, {col}) is certainly safe")
    if len(analysis.safe):
        row, col = analysis.safe[0].tolist()
        return Hint(
            row,
            col,
            0.0,
            True,
            f"the flag at ({row}, {col}) is wrong: that square is certainly safe",
        )
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
    return Hint(
        row,
        col,
        value,
        False,
        f"no square is certainly safe; ({row}, {col}) holds a mine with probability "
        f"{value:.3f}, the lowest on the board",
    )


def _first_click(game: Game) -> Hint:
    rows, cols = game.shape
    row, col = middle(game.shape)
    if game.rule is FirstClickRule.NONE:
        value = game.mine_count / (rows * cols)
        return Hint(
            row,
            col,
            value,
            False,
            f"nothing is revealed yet, and with no first-click rule every square is a "
            f"mine with probability {value:.3f}",
        )
    return Hint(
        row,
        col,
        0.0,
        True,
        f"the first click is safe: the {game.rule.value!r} rule keeps it clear of mines",
    )
