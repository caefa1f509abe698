"""The solver's hints in a web game, and what asking for one does to the game.

Before the first reveal the hint is only the first-click rule's promise and
the game stays unassisted; any hint after that marks it assisted for good.
"""

from __future__ import annotations

from minesweep import Game, MinesweepError, frontend
from minesweep.solver import AnalysisBudgetError
from minesweep.solver.hints import Hint
from minesweep.squares import square_name

from . import models
from .db import GameRow
from .errors import ConflictError
from .games import Games, Write

__all__ = ["hint", "page_numbering"]


def hint(games: Games, token: str, request: models.HintRequest) -> models.HintAnswer:
    """The solver's hint, and the probabilities behind it once a square is open.

    Before the first reveal (:func:`minesweep.solver.before_first_reveal`)
    the hint is only the first-click rule's promise: no field is laid, so
    it tells nothing about one, and the game stays unassisted (it may
    rank). Any hint after that marks the game assisted for good.
    """
    answers: list[frontend.Advice] = []

    def apply(row: GameRow, game: Game) -> Write:
        advises = frontend.advice_assists(game)
        try:
            answers.append(frontend.advise(game))
        except AnalysisBudgetError:
            # Too tangled to count in time: the server's limit (503), not the game's.
            raise
        except MinesweepError as error:
            # No hint for this game now (one over, or nothing left to tell).
            raise ConflictError(str(error)) from None
        return Write(game, assisted=advises)

    state = games.update(token, request.version, apply)
    advice = answers[-1]
    best = advice.hint
    probabilities = (
        None
        if advice.probability is None
        else [
            [None if value != value else round(float(value), 6) for value in line]
            for line in advice.probability.tolist()
        ]
    )
    return models.HintAnswer(
        state=state,
        hint=models.HintSquare(
            row=best.row,
            col=best.col,
            safe=best.safe,
            probability=best.probability,
            reason=page_numbering(best),
        ),
        probabilities=probabilities,
    )


def page_numbering(hint: Hint) -> str:
    """A hint in the page's numbering: "row 2, column 6", counted from 1.

    Squares are named by :func:`~minesweep.squares.square_name`, as by every front end.

    The solver's values name squares as (row, col) from 0, as the API's
    fields do; the page's labels, and so its messages, count from 1.
    """
    return hint.words(square_name)
