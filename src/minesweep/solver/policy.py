"""How to guess when nothing is certain: choices that aim to win the game.

The lowest mine probability is where to start, not the whole answer. When
several squares are about as safe, the one more likely to open the board
(a blank square, which reveals its neighbours) gives more information for
the next moves; a forced 50/50 that no later information can resolve is
best taken at once, while the other risks may still disappear
(:mod:`.fiftyfifty`); and when few layouts remain, an exhaustive search over
them finds the guess with the best chance of winning outright
(:mod:`.endgame`).

Every function here sees only the view (glyphs) and the analysis of it, and
is tuned by one :class:`PolicyConfig` passed in.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .._jit import entry
from ..errors import InvalidBoardError
from ..squares import GLYPH_HIDDEN
from .endgame import endgame_guess, isolated_guess
from .fiftyfifty import FiftyFifties, fifty_fifty_or_safe, forced_fifty_fifty
from .frontier import around
from .guess import DEFAULT_POLICY, SAME, Guess, PolicyConfig, check_shape, risk_of
from .probability import Analysis

if TYPE_CHECKING:
    from .whatif import Lookahead

__all__ = [
    "DEFAULT_POLICY",
    "Guess",
    "PolicyConfig",
    "choose_guess",
    "endgame_guess",
    "fifty_fifty_or_safe",
    "forced_fifty_fifty",
    "isolated_guess",
    "lookahead_guess",
]

Cell = tuple[int, int]


def _settled(value: float) -> float:
    """``value`` with its last digits (rounding's noise) dropped, for sorting by it."""
    return round(value, 10)


def choose_guess(
    analysis: Analysis,
    glyphs: npt.NDArray[np.uint8],
    mines: int | None = None,
    *,
    lookahead: bool = True,
    config: PolicyConfig = DEFAULT_POLICY,
) -> Guess:
    """The square to open when none is certainly safe.

    In order: with the total ``mines`` given, a small endgame is searched
    exhaustively (:func:`endgame_guess`); a forced 50/50 is taken at once
    (:func:`forced_fifty_fifty`); a part of the board cut off from the rest
    is searched on its own (:func:`isolated_guess`); then, with ``mines``
    and the lookahead (``lookahead`` and ``config.lookahead`` both true), a
    square that can only be a mine as one side of a future 50/50 is taken
    (:func:`fifty_fifty_or_safe`), or else the safest candidates are
    weighed by how safe the next guess would be after each number they
    could show (:func:`lookahead_guess`); otherwise the lowest risk, ties
    broken by the chance of opening. ``glyphs`` must be the view
    ``analysis`` was made of (another shape raises InvalidBoardError).
    """
    check_shape(analysis, glyphs)
    # The analysis has counted the layouts: search only when few enough.
    if mines is not None and analysis.log_layouts <= math.log(config.endgame_layouts) + 1e-9:
        exhaustive = endgame_guess(glyphs, mines, analysis.mines, config=config)
        if exhaustive is not None:
            return exhaustive
    forced = forced_fifty_fifty(analysis, glyphs)
    if forced is not None:
        # A guess is unavoidable there; others may still be avoided. Take it first.
        row, col = forced
        return Guess(row, col, 0.5, "a forced 50/50 no later move can resolve: take it now")
    isolated = isolated_guess(analysis, glyphs, config=config)
    if isolated is not None:
        return isolated
    look = lookahead and config.lookahead and mines is not None
    if look:
        early = fifty_fifty_or_safe(analysis, glyphs, config=config)
        if early is not None:
            return early
    # Among the about-as-safe squares, the one most likely to be a blank,
    # which opens its neighbours: its own safety times its neighbours'.
    # Squares alike in every way but rounding tie: the first in board order is
    # played, so that the order of a float sum never decides the game.
    from ._guesses import plain_square

    square = int(entry(plain_square)(analysis.probability, config.tolerance, config.opening_weight))
    if square < 0:
        raise InvalidBoardError("there is no hidden square to guess")
    row, col = divmod(square, analysis.probability.shape[1])
    own = Guess(
        row,
        col,
        float(analysis.probability[row, col]),
        "the lowest risk, and among equally safe squares the likeliest to open",
    )
    if look:
        return lookahead_guess(analysis, glyphs, own, config=config) or own
    return own


def lookahead_guess(
    analysis: Analysis,
    glyphs: npt.NDArray[np.uint8],
    own: Guess,
    *,
    config: PolicyConfig = DEFAULT_POLICY,
) -> Guess | None:
    """The candidate whose outcomes leave the safest next guess (None: none could be weighed).

    Surviving this click is not the whole aim: after it, the number the
    square shows decides how safe the next guess can be. The candidates are
    the frontier squares within ``config.lookahead_cut`` of the best safety,
    a few interior squares next to the frontier (likeliest to open first),
    and ``own`` (the choice without lookahead). Each scores the sum, over
    the numbers it could show, of that number's chance times the best
    safety after it (1 when a square becomes certain), worked out by
    :class:`minesweep.solver.whatif.Lookahead`, times (with
    ``config.long_term``) its factor for the 50/50s it may settle early
    (:class:`.fiftyfifty.FiftyFifties`). ``own`` is weighed first (if it
    cannot be, it is kept: None), then the others safest first; a score is
    at most the candidate's safety times a bound on its factor that needs
    no counting, so one that cannot beat the best found is not weighed. A
    candidate without a cheap answer (a component too tangled for the
    compiled counter) is left out. This follows the "secondary safety" of
    David Hill's JSMinesweeper solver.

    With ``config.dead_last``, a dead candidate (one that can show only one
    number) is passed over, as Hill's solver does: opening it teaches
    nothing that assuming it safe would not, so it can wait until the end,
    when it may have become certain either way. When every candidate is
    dead, the safest living square elsewhere is taken, or ``own`` if none
    is found among ``config.living_search`` squares.
    """
    from .whatif import Lookahead

    check_shape(analysis, glyphs)
    view = np.asarray(glyphs)
    risk = risk_of(analysis)
    candidates = _lookahead_candidates(view, risk, own, config)
    if len(candidates) == 1 and not config.dead_last:
        return own
    # With dead_last a lone candidate is weighed too: it may be dead.
    ask = Lookahead(analysis)
    mines_left = analysis.workings.mine_count - len(analysis.mines)
    best = _weigh_candidates(
        ask, candidates, risk, FiftyFifties(view, risk, mines_left, config), config
    )
    if best is None:
        return None  # the plain choice could not be weighed: keep it
    cell, survival, weight = best
    if cell is None:
        return _safest_living(ask, risk, set(candidates), config) or own
    r, c = cell
    if (r, c) == (own.row, own.col):
        return own
    reason = f"the best chance of surviving this guess and the next: {survival:.1%}"
    if weight > 1.0:
        reason += f", weighed {weight:.2f}x for the 50/50s it may settle early"
    return Guess(r, c, float(risk[r, c]), reason)


def _lookahead_candidates(
    view: npt.NDArray[np.uint8], risk: npt.NDArray[np.float64], own: Guess, config: PolicyConfig
) -> list[Cell]:
    """``own`` first, then the frontier and near-interior squares worth weighing, safest first."""
    hidden = view >= GLYPH_HIDDEN
    doubtful = np.isfinite(risk)
    seen = ~hidden | (around(~hidden) > 0)  # revealed, or next to a revealed square
    frontier = doubtful & seen
    good = (1.0 - risk) >= (1.0 - risk.min()) * config.lookahead_cut
    blank = _chance_of_blank(np.where(np.isinf(risk), 1.0, risk))
    interior_near = doubtful & ~seen & (around(frontier) > 0) & good
    near = sorted(
        ((r, c) for r, c in np.argwhere(interior_near).tolist()),
        key=lambda cell: (-_settled(float(blank[cell])), cell),
    )
    cells = [(r, c) for r, c in np.argwhere(frontier & good).tolist()]
    mine = (own.row, own.col)
    others = sorted(
        {*cells, *near[: config.lookahead_interior]} - {mine},
        key=lambda cell: (_settled(float(risk[cell])), cell),
    )
    return [mine, *others[: config.lookahead_candidates - 1]]


def _weigh_candidates(
    ask: Lookahead,
    candidates: list[Cell],
    risk: npt.NDArray[np.float64],
    fifty_fifties: FiftyFifties,
    config: PolicyConfig,
) -> tuple[Cell | None, float, float] | None:
    """The best candidate, its chance of surviving two guesses, and its 50/50 factor.

    None when the first candidate cannot be weighed; no cell (None) when,
    with ``config.dead_last``, every candidate weighed was dead.
    """
    best: tuple[float, int, int] | None = None
    survival, weight = 0.0, 1.0  # the best's score without and with its 50/50 factor
    for index, (r, c) in enumerate(candidates):
        safe = 1.0 - float(risk[r, c])
        # A score is at most the square's safety times its 50/50 factor,
        # whose bound (from single squares' chances) costs no counting.
        bound = 1.0
        if config.long_term and safe > 0:
            bound = fifty_fifties.factor((r, c))
        if best is not None and safe * bound < best[0] - SAME:
            continue
        factor = 1.0
        if bound > 1.0:
            factor = fifty_fifties.factor((r, c), ask)
            if best is not None and safe * factor < best[0] - SAME:
                continue
        outcomes = ask.outcomes(r, c)
        if outcomes is None:
            if index == 0:
                return None
            continue  # no cheap answer: the candidate is left out
        if config.dead_last and len(outcomes) == 1:
            continue  # dead: it can wait
        plain = sum(outcome.chance * outcome.safest for outcome in outcomes)
        if best is None or factor * plain > best[0] + SAME:
            best = (factor * plain, r, c)
            survival, weight = plain, factor
    if best is None:
        return None, 0.0, 1.0
    return (best[1], best[2]), survival, weight


def _safest_living(
    ask: Lookahead, risk: npt.NDArray[np.float64], asked: set[Cell], config: PolicyConfig
) -> Guess | None:
    """The safest square not in ``asked`` that can show more than one number (None: none found).

    Ties go to the likelier blank, then board order, as in the plain choice;
    a square without a cheap answer is passed over (it may be dead too).
    """
    blank = _chance_of_blank(np.where(np.isinf(risk), 1.0, risk))
    doubtful = [(r, c) for r, c in np.argwhere(np.isfinite(risk)).tolist() if (r, c) not in asked]
    doubtful.sort(
        key=lambda cell: (_settled(float(risk[cell])), -_settled(float(blank[cell])), cell)
    )
    for r, c in doubtful[: config.living_search]:
        outcomes = ask.outcomes(r, c)
        if outcomes is not None and len(outcomes) > 1:
            return Guess(
                r,
                c,
                float(risk[r, c]),
                "every safer square can show only one number (it is dead, and can wait): "
                "the safest living one",
            )
    return None


def _chance_of_blank(probability: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For each square, the product of its hidden neighbours' chances of being safe.

    A rough estimate (it takes the neighbours as independent) of the chance
    that the square, if safe, shows a blank: the plain choice's own
    (:func:`minesweep.solver._guesses.blank_chance`), for the whole board.
    """
    from ._guesses import blank_chances

    chances: npt.NDArray[np.float64] = entry(blank_chances)(
        np.ascontiguousarray(probability, np.float64)
    )
    return chances
