"""Exhaustive searches: when few layouts remain, the guess that wins most often.

:func:`endgame_guess` searches the whole board's remaining layouts;
:func:`isolated_guess` searches a part of the board nothing else can inform
on its own. Both are compiled from end to end
(:func:`minesweep.solver._endgame.endgame_square` and
:func:`~minesweep.solver._endgame.isolated_square`): the constraints of the
numbers, every layout meeting them (:func:`~minesweep.solver._endgame.layouts`)
and the game tree over them (:func:`~minesweep.solver._search.search`). The
compiled game of :mod:`minesweep.solver._play` calls the same kernels.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..errors import InvalidBoardError
from ..squares import GLYPH_HIDDEN, square_name
from .guess import DEFAULT_POLICY, Guess, PolicyConfig, check_shape
from .probability import Analysis

__all__ = ["endgame_guess", "isolated_guess"]


def endgame_guess(
    glyphs: npt.NDArray[np.uint8],
    mines: int,
    known_mines: npt.ArrayLike = (),
    *,
    config: PolicyConfig = DEFAULT_POLICY,
) -> Guess | None:
    """The guess with the best chance of winning, by searching every remaining layout.

    ``known_mines`` lists squares (row, col) certainly holding mines (a square
    that is not hidden in the view raises InvalidBoardError): they are set
    aside, so that the search sees only the squares still in doubt (in an
    expert endgame the 99 mines alone are more hidden squares than any search
    could take). Runs only in small endgames (at most
    ``config.endgame_squares`` squares in doubt and ``config.endgame_layouts``
    layouts); returns None otherwise. A move opens a square (and, as the game
    does, the blank region around it); what it shows splits the layouts, and
    the search takes, at every step, the move whose outcomes win most often.
    """
    from ._endgame import endgame_square

    view = np.ascontiguousarray(glyphs, np.uint8)
    rows, cols = view.shape
    sure = np.zeros((rows, cols), np.bool_)
    for r, c in np.asarray(known_mines, np.int64).reshape(-1, 2).tolist():
        if not (0 <= r < rows and 0 <= c < cols):
            raise InvalidBoardError(f"known mine index ({r}, {c}) is off the {rows}x{cols} view")
        if view[r, c] < GLYPH_HIDDEN:
            raise InvalidBoardError(f"known mine {square_name(r, c)} is not a hidden square")
        sure[r, c] = True
    found = entry(endgame_square)(
        view, sure, mines, config.endgame_squares, config.endgame_layouts, config.endgame_nodes
    )
    return _guess(
        found,
        cols,
        lambda count, chance: (
            f"an exhaustive search of the {count} layouts left: "
            f"this square wins {chance:.1%} of them"
        ),
    )


def isolated_guess(
    analysis: Analysis, glyphs: npt.NDArray[np.uint8], *, config: PolicyConfig = DEFAULT_POLICY
) -> Guess | None:
    """The best guess in a part of the board nothing else can inform, by exhaustive search.

    A frontier component is isolated when every hidden neighbour of its
    squares is one of them or a certain mine, and all its layouts hold the
    same number of mines. Then no square elsewhere can ever tell anything
    about it, nor it about them (not even through the mine total): clearing
    it is a game of its own, whose guesses no move elsewhere can spare, and
    the game is won only if both are. So when one has at most
    ``config.isolated_layouts`` layouts, the search of :func:`endgame_guess`
    finds the square that clears it most often, and that square is played
    now (a part with a square certainly safe is left until it is opened).
    None when there is no such part (or the analysis is exact, with no
    counts by component). David Hill's JSMinesweeper searches an "isolated
    edge" the same way.
    """
    from ._endgame import isolated_square

    check_shape(analysis, glyphs)
    workings = analysis.workings
    frontier = workings.frontier
    if frontier is None or len(workings.counts) != len(frontier.components):
        return None
    view = np.ascontiguousarray(glyphs, np.uint8)
    rows, cols = view.shape
    sure = np.zeros((rows, cols), np.bool_)
    safe = np.zeros((rows, cols), np.bool_)
    if len(analysis.mines):
        sure[tuple(analysis.mines.T)] = True
    if len(analysis.safe):
        safe[tuple(analysis.safe.T)] = True
    counts = workings.counts
    w_start = np.zeros(len(counts) + 1, np.int64)
    np.cumsum([len(c.layouts) for c in counts], out=w_start[1:])
    found = entry(isolated_square)(
        view,
        sure,
        safe,
        w_start,
        np.concatenate([c.layouts for c in counts]) if counts else np.zeros(0),
        np.array([c.log_scale for c in counts], np.float64),
        frontier.component_start,
        frontier.component_groups,
        frontier.group_start,
        frontier.group_cells,
        math.log(config.isolated_layouts) + 1e-9,
        config.isolated_layouts,
        config.endgame_nodes,
    )
    return _guess(
        found,
        cols,
        lambda count, chance: (
            f"an exhaustive search of the {count} layouts of a part of the board nothing "
            f"else can inform: this square clears it {chance:.1%} of the time"
        ),
    )


def _guess(
    found: tuple[int, int, float, int], cols: int, reason: Callable[[int, float], str]
) -> Guess | None:
    """The guess a search kernel found: ``(square, layouts, chance, mines there)``."""
    square, count, chance, hits = (int(found[0]), int(found[1]), float(found[2]), int(found[3]))
    if square < 0:
        return None
    row, col = divmod(square, cols)
    return Guess(row, col, hits / count, reason(count, chance))
