"""Exhaustive searches: when few layouts remain, the guess that wins most often.

:func:`endgame_guess` searches the whole board's remaining layouts;
:func:`isolated_guess` searches a part of the board nothing else can inform
on its own. Both enumerate the layouts of the squares in doubt (compiled:
:func:`minesweep.solver._search.layouts`) and search the game tree over them
(compiled: :func:`minesweep.solver._search.search`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..errors import InvalidBoardError
from ..squares import GLYPH_HIDDEN, MAX_NUMBER, OUTCOME_MINE
from .frontier import around
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
    view = np.asarray(glyphs)
    rows, cols = view.shape
    known = set()
    for r, c in np.asarray(known_mines, np.int64).reshape(-1, 2).tolist():
        if not (0 <= r < rows and 0 <= c < cols and view[r, c] >= GLYPH_HIDDEN):
            raise InvalidBoardError(
                f"known mine ({r}, {c}) is not a hidden square of the {rows}x{cols} view"
            )
        known.add(r * cols + c)
    hidden = [
        r * cols + c
        for r, c in np.argwhere(view >= GLYPH_HIDDEN).tolist()
        if r * cols + c not in known
    ]
    if not hidden or len(hidden) > config.endgame_squares or len(known) > mines:
        return None
    sure = np.zeros(rows * cols, np.bool_)
    sure[list(known)] = True
    sure = sure.reshape(rows, cols)
    settled = (view <= MAX_NUMBER) & (around((view >= GLYPH_HIDDEN) & ~sure) == 0)
    if np.any(view[settled] != around(sure)[settled]):
        return None  # the known mines do not add up to a number with no doubt around it
    return _search_part(
        view,
        hidden,
        known,
        mines - len(known),
        config.endgame_layouts,
        config.endgame_nodes,
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
    check_shape(analysis, glyphs)
    workings = analysis.workings
    frontier = workings.frontier
    if frontier is None or len(workings.counts) != len(frontier.components):
        return None
    view = np.asarray(glyphs)
    rows, cols = view.shape
    hidden = (view >= GLYPH_HIDDEN).ravel().tolist()
    known = {r * cols + c for r, c in analysis.mines.tolist()}
    safe = {r * cols + c for r, c in analysis.safe.tolist()}
    neighbours = _neighbour_table(rows, cols)
    most = math.log(config.isolated_layouts) + 1e-9
    for members, counts in zip(frontier.components, workings.counts, strict=True):
        possible = np.flatnonzero(counts.layouts > 0)
        if len(possible) != 1 or math.log(counts.layouts[possible[0]]) + counts.log_scale > most:
            continue
        cells = [r * cols + c for index in members for r, c in frontier.groups[index].cells]
        inside = set(cells)
        if safe.intersection(cells):
            continue  # nothing to guess there yet
        if any(
            hidden[n] and n not in inside and n not in known
            for cell in cells
            for n in neighbours[cell]
        ):
            continue  # a hidden square outside it could inform it
        squares = [cell for cell in cells if cell not in known]
        mines = int(possible[0]) - (len(cells) - len(squares))
        guess = _search_part(
            view,
            squares,
            known,
            mines,
            config.isolated_layouts,
            config.endgame_nodes,
            lambda count, chance: (
                f"an exhaustive search of the {count} layouts of a part of the board nothing "
                f"else can inform: this square clears it {chance:.1%} of the time"
            ),
        )
        if guess is not None:
            return guess
    return None


def _search_part(
    view: npt.NDArray[np.uint8],
    squares: list[int],
    known: set[int],
    mines: int,
    limit: int,
    nodes: int,
    reason: Callable[[int, float], str],
) -> Guess | None:
    """The best first square among ``squares`` (as ``row * cols + col``), by exhaustive search.

    ``squares`` hold ``mines`` mines between them, the ``known`` squares
    are mines, and nothing else hidden touches a number next to
    ``squares``. The guess's reason is ``reason(layouts, chance of clearing
    squares)``. None past ``limit`` layouts or ``nodes`` positions, or with
    nothing to guess.
    """
    rows, cols = view.shape
    neighbours = _neighbour_table(rows, cols)
    # Only the numbers next to a square in doubt constrain the layouts; each
    # needs its count, less the known mines it touches, among those squares.
    doubtful = set(squares)
    constraints = []
    for index in sorted({n for square in squares for n in neighbours[square]}):
        value = int(view[divmod(index, cols)])
        if value <= MAX_NUMBER:
            near = [n for n in neighbours[index] if n in doubtful]
            constraints.append((near, value - sum(n in known for n in neighbours[index])))
    chosen = _enumerate_layouts(squares, constraints, mines, limit)
    if chosen is None or not len(chosen):
        return None
    # Mines by layout over the whole board, plus one square that is never a
    # mine (the padding of squares with fewer than eight neighbours).
    layouts = np.zeros((len(chosen), rows * cols + 1), np.bool_)
    layouts[:, list(known)] = True
    layouts[:, squares] = chosen
    searched = _search_layouts(layouts, squares, neighbours, nodes)
    if searched is None or searched[1] < 0:
        return None
    chance, cell = searched
    row, col = divmod(cell, cols)
    risk = float(layouts[:, cell].mean())
    return Guess(row, col, risk, reason(len(chosen), chance))


def _enumerate_layouts(
    squares: list[int],
    constraints: list[tuple[list[int], int]],
    mines: int,
    limit: int,
) -> npt.NDArray[np.bool_] | None:
    """Every set of ``mines`` squares meeting the constraints, or None past ``limit``.

    One row per layout, one column per square of ``squares`` (True: a mine).
    A backtracking search (compiled: :func:`minesweep.solver._search.layouts`):
    squares next to numbers come first, so a wrong choice fails at the number
    it breaks rather than after every square is placed.
    """
    from ._search import layouts

    touching: dict[int, list[int]] = {square: [] for square in squares}
    for c, (near, _) in enumerate(constraints):
        for square in near:
            touching[square].append(c)
    order = sorted(range(len(squares)), key=lambda i: (not touching[squares[i]], squares[i]))
    touch = [c for i in order for c in touching[squares[i]]]
    touch_start = np.cumsum([0] + [len(touching[squares[i]]) for i in order])
    need = np.array([value for _, value in constraints], np.int64)
    free = np.array([len(near) for near, _ in constraints], np.int64)
    if np.any(need < 0) or np.any(need > free):
        return np.zeros((0, len(squares)), np.bool_)
    found = layouts(touch_start, np.array(touch, np.int64), need, free, mines, limit)
    if found is None:
        return None
    by_square = np.empty_like(found)
    by_square[:, order] = found
    return by_square


@functools.lru_cache(maxsize=8)
def _neighbour_table(rows: int, cols: int) -> dict[int, tuple[int, ...]]:
    """For every square (as ``row * cols + col``), its neighbours', built once per shape.

    Shared between calls (hence tuples, which no caller can change).
    """
    return {
        index: tuple(
            rr * cols + cc
            for rr in range(max(0, index // cols - 1), min(rows, index // cols + 2))
            for cc in range(max(0, index % cols - 1), min(cols, index % cols + 2))
            if rr * cols + cc != index
        )
        for index in range(rows * cols)
    }


def _search_layouts(
    mines: npt.NDArray[np.bool_],
    hidden: list[int],
    neighbours: dict[int, tuple[int, ...]],
    nodes: int,
) -> tuple[float, int] | None:
    """The best chance of winning and the square to open (-1: already won), or None.

    ``mines[layout, square]`` tells where the mines are in each layout still
    possible (all equally likely; no two alike), over the board's squares
    in board order plus a last one that is never a mine; ``hidden`` are the
    squares in doubt. Opening a square splits the layouts by the number it
    shows; the squares opened so far need no bookkeeping (each shows the
    same number in every layout left, so opening it again would tell
    nothing), and a square safe in every layout left is opened at no risk
    (which is how a blank's neighbours open). The search itself is compiled
    (:mod:`minesweep.solver._search`). None past ``nodes`` positions.
    """
    from ._search import TOO_LARGE, search

    hidden = sorted(hidden)  # of squares alike, the first in board order is played
    size = mines.shape[1] - 1
    next_to = np.full((len(hidden), 8), size, np.int64)
    for index, cell in enumerate(hidden):
        next_to[index, : len(neighbours[cell])] = neighbours[cell]
    shown = mines[:, next_to].sum(axis=2)
    shown[mines[:, hidden]] = OUTCOME_MINE
    chance, square = search(shown, nodes)
    if chance == TOO_LARGE:
        return None
    if square < 0:
        # One layout left: nothing to guess, but a safe square still to open.
        safe = [cell for cell in hidden if not mines[0, cell]]
        return chance, min(safe, default=-1)
    return chance, hidden[square]
