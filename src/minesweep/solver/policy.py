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
from .endgame import endgame_guess, isolated_guess
from .fiftyfifty import _fifty_fifty_or_safe, fifty_fifty_or_safe, forced_fifty_fifty
from .guess import DEFAULT_POLICY, Guess, PolicyConfig, check_shape
from .probability import Analysis

if TYPE_CHECKING:
    from ._lookahead import WhatIf
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
    ask = None
    if look:
        from .whatif import Lookahead

        ask = Lookahead(analysis)
        early = _fifty_fifty_or_safe(ask, analysis, config)
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
    if ask is not None:
        return _lookahead_guess(ask, analysis, own, config) or own
    if config.progress_candidates > 0 and mines is not None:
        return _progress_guess(analysis, own, square, config)
    return own


def _progress_guess(analysis: Analysis, own: Guess, square: int, config: PolicyConfig) -> Guess:
    """The plain choice's window weighed by progress (:func:`._progress.progress_square`)."""
    from ._progress import progress_square, window
    from .whatif import DEFAULT_STATES, Lookahead

    found = entry(window)(
        analysis.probability,
        config.tolerance,
        config.opening_weight,
        square,
        config.progress_candidates,
    )
    if len(found) < 2:
        return own
    tables = Lookahead(analysis).tables()
    if tables is None:
        return own  # an exact analysis: nothing cheap to weigh with
    best = int(entry(progress_square)(tables, found, config.dead_last, DEFAULT_STATES))
    if best == square:
        return own
    row, col = divmod(best, analysis.probability.shape[1])
    return Guess(
        row,
        col,
        float(analysis.probability[row, col]),
        "about as safe as the safest, and likelier to leave a square certainly safe",
    )


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

    The rule runs compiled, in one call (:func:`._lookahead.weighed_square`),
    as the compiled game plays it.
    """
    from .whatif import Lookahead

    check_shape(analysis, glyphs)
    return _lookahead_guess(Lookahead(analysis), analysis, own, config)


def _lookahead_guess(
    ask: Lookahead, analysis: Analysis, own: Guess, config: PolicyConfig
) -> Guess | None:
    """:func:`lookahead_guess` with the what-if tables of ``ask``."""
    from ._lookahead import DEAD, KEEP, LIVING, UNWEIGHED, WEIGHED, weighed_square
    from .whatif import DEFAULT_STATES

    tables = ask.tables()
    if tables is None:
        return None  # an exact analysis: nothing cheap to weigh with
    cols = analysis.probability.shape[1]
    how, square, survival, weight = entry(weighed_square)(
        tables,
        own.row * cols + own.col,
        config.lookahead_cut,
        config.lookahead_interior,
        config.lookahead_candidates,
        config.dead_last,
        config.living_search,
        config.long_term,
        config.influence_weight,
        config.pair_missing,
        config.block_missing,
        config.structure_floor,
        DEFAULT_STATES,
    )
    if how == UNWEIGHED:
        return None  # the plain choice could not be weighed: keep it
    deeper = _survival_guess(tables, own.row * cols + own.col, config) if how == WEIGHED else -1
    if deeper >= 0:
        # Named for the search even when it picks the plain choice: that is
        # why the square was played, and a hint's reason says why.
        r, c = divmod(deeper, cols)
        return Guess(
            r,
            c,
            float(analysis.probability[r, c]),
            f"the best chance of surviving the next {config.survival_depth} guesses",
        )
    r, c = divmod(int(square), cols)
    if how in (KEEP, DEAD) or (r, c) == (own.row, own.col):
        return own
    chance = float(analysis.probability[r, c])
    if how == LIVING:
        return Guess(
            r,
            c,
            chance,
            "every safer square can show only one number (it is dead, and can wait): "
            "the safest living one",
        )
    reason = f"the best chance of surviving this guess and the next: {survival:.1%}"
    if weight > 1.0:
        reason += f", weighed {weight:.2f}x for the 50/50s it may settle early"
    return Guess(r, c, chance, reason)


def _survival_guess(tables: WhatIf, own: int, config: PolicyConfig) -> int:
    """:func:`._survival.survival_square` on the lookahead's tables, as the compiled game asks it.

    -1 when the search is off (``config.survival_depth`` 0), out of nodes or
    without a living candidate: the lookahead's choice stands.
    """
    if not config.survival_depth:
        return -1
    from ._survival import survival_square
    from .counting import COUNTING_METHODS, plain_width
    from .errors import MAX_COEFFICIENTS
    from .tilted import TINY
    from .whatif import DEFAULT_STATES

    knobs = (
        tables.mine_count,
        plain_width(COUNTING_METHODS),
        MAX_COEFFICIENTS,
        TINY,
        COUNTING_METHODS.plain_components,
        tables.log_factorial,
        config.tolerance,
        config.opening_weight,
        config.lookahead_cut,
        config.survival_candidates,
        DEFAULT_STATES,
    )
    return int(
        entry(survival_square)(
            tables.glyphs,
            own,
            config.survival_depth,
            knobs,
            config.survival_nodes,
            config.dead_last,
            config.long_term,
            config.influence_weight,
            config.pair_missing,
            config.block_missing,
            config.structure_floor,
        )
    )
