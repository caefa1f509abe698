"""A whole game played by the policy in one compiled call (numba).

A game is certain moves, an analysis when they stall, and a guess when
nothing is certain. Run from Python, each of those steps crosses into numba
several times and builds Python objects around the kernels' arrays;
measured, four fifths of a fast game was that glue. Here the whole loop
runs inside one kernel, made of the solver's own kernels, none copied:

- certain moves: :func:`._deduce.play_certain_moves`, then, from the position
  it left stuck, :func:`._deduce.resume_certain_moves`;
- the analysis: :func:`._frontier.frontier_arrays`, then
  :func:`._batch.count_components` for every component, then
  :func:`._combine.combine`, the calls :func:`minesweep.solver.analyze`
  makes on its plain path, on the same arrays, so the probabilities are the
  same to the bit;
- the guess, as :func:`.policy.choose_guess` makes it: an exhaustive
  search of the endgame (:func:`.endgame.endgame_guess`), a forced 50/50
  (:func:`.fiftyfifty.forced_fifty_fifty`'s test), a search of a part of
  the board nothing else can inform (:func:`.endgame.isolated_guess`; the
  searches enumerate layouts with :func:`._endgame._layouts` and search them
  with :func:`._search._search`), then with the lookahead "50/50 or safe"
  and the weighed candidates (:mod:`._lookahead`, on what-if tables made
  from this analysis's counts), else the lowest risk, ties going to the
  likeliest blank and then to board order.

What the kernel does not do, it hands back: it returns :data:`TO_PYTHON`
with the position it reached (certain moves played), and the caller takes
the next step in Python as before, then calls back in with the guess
played. It hands back only when the analysis leaves its plain path (a
count that overflows, a component counted in pieces, too many components,
a sum that underflows, a view no layout fits), which is rare; the rest of
a game is one call.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from .._jit import kernel
from ..rules.lay import lay_field
from ..squares import GLYPH_HIDDEN, KNOWN_OPEN
from ._deduce import play_certain_moves, resume_certain_moves
from ._endgame import endgame_square, isolated_square
from ._guesses import forced_square, plain_square
from ._lookahead import WEIGHED, fifty_or_safe, plain_what_if, weighed_square
from ._plain import plain_analysis
from ._progress import progress_square, window
from ._survival import survival_square
from .counting import COUNTING_METHODS, CountingMethods, plain_width
from .errors import MAX_COEFFICIENTS
from .guess import PolicyConfig
from .tilted import TINY
from .whatif import DEFAULT_STATES, log_factorials

__all__ = ["LOST", "TO_PYTHON", "WON", "Knobs", "knobs", "play_plain", "play_seed"]

#: How :func:`play_plain` ended: every safe square open,
WON = 0
#: a guess hit a mine,
LOST = 1
#: or the next step is the Python policy's (the position is as the kernel left it).
TO_PYTHON = 2


class Knobs(NamedTuple):
    """The tuning :func:`play_plain` takes after its position: the policy's and the analysis's.

    The searches' bounds are the policy's own tests (:func:`.policy.choose_guess`,
    :func:`.endgame.isolated_guess`): a log of layouts, with the same 1e-9.
    """

    tolerance: float
    opening_weight: float
    endgame_log: float
    endgame_squares: int
    endgame_layouts: int
    isolated_log: float
    isolated_layouts: int
    nodes: int
    wide: int
    max_coefficients: int
    tiny: float
    plain_components: int
    lookahead: bool
    cut: float
    interior_count: int
    most: int
    dead_last: bool
    living_search: int
    long_term: bool
    influence_weight: float
    pair_missing: int
    block_missing: int
    structure_floor: float
    states: int
    progress: int
    #: The survival search (:mod:`._survival`): its depth (0: none), nodes and candidates.
    survival_depth: int
    survival_nodes: int
    survival_candidates: int
    #: log(k!) for k up to the board's squares (:func:`.whatif.log_factorials`).
    log_factorial: npt.NDArray[np.float64]


def knobs(policy: PolicyConfig, squares: int, methods: CountingMethods = COUNTING_METHODS) -> Knobs:
    """:class:`Knobs` of a policy on a board of ``squares`` and the analysis's counting methods."""
    return Knobs(
        policy.tolerance,
        policy.opening_weight,
        math.log(policy.endgame_layouts) + 1e-9,
        policy.endgame_squares,
        policy.endgame_layouts,
        math.log(policy.isolated_layouts) + 1e-9,
        policy.isolated_layouts,
        policy.endgame_nodes,
        plain_width(methods),
        MAX_COEFFICIENTS,
        TINY,
        methods.plain_components,
        policy.lookahead,
        policy.lookahead_cut,
        policy.lookahead_interior,
        policy.lookahead_candidates,
        policy.dead_last,
        policy.living_search,
        policy.long_term,
        policy.influence_weight,
        policy.pair_missing,
        policy.block_missing,
        policy.structure_floor,
        DEFAULT_STATES,
        policy.progress_candidates,
        policy.survival_depth,
        policy.survival_nodes,
        policy.survival_candidates,
        log_factorials(squares),
    )


@kernel(cache=True, part="autoplay", nogil=True)
def play_plain(  # pragma: no cover - compiled
    numbers, mines, total, state, opens, sure, tolerance, opening_weight, endgame_log,
    endgame_squares, endgame_layouts, isolated_log, isolated_layouts, nodes, wide,
    max_coefficients, tiny, plain_components, lookahead, cut, interior_count, most, dead_last,
    living_search, long_term, influence_weight, pair_missing, block_missing, structure_floor,
    states, progress, survival_depth, survival_nodes, survival_candidates, log_factorial,
):  # fmt: skip
    """Play on from ``state`` with the policy: ``(outcome, guesses made)``.

    ``opens`` and ``sure`` are squares (flat indices) known safe and known
    mines, as :func:`.certain.play_until_stuck` takes them; ``mines`` (the
    field) is read only to tell whether a guess hit one. The knobs are
    :class:`.guess.PolicyConfig`'s (:class:`Knobs`): ``endgame_log`` and
    ``isolated_log`` are the logs of its layout bounds (plus the policy's
    1e-9), past which the searches cannot run; with ``lookahead``, the
    lookahead's choices (:mod:`._lookahead`) follow the plain one, as in
    :func:`.policy.choose_guess`. ``state`` is updated in place; the outcome is
    :data:`WON`, :data:`LOST` or :data:`TO_PYTHON`.
    """
    rows, cols = numbers.shape
    guesses = 0
    # The first call looks at every number (the caller's position may be any);
    # after that the position is one the rules left stuck, and only what the
    # analysis or the guess changed needs looking at.
    left = play_certain_moves(numbers, total, state, opens, sure)
    while True:
        if left == 0:
            return WON, guesses
        view = np.full((rows, cols), GLYPH_HIDDEN, np.uint8)
        for r in range(rows):
            for c in range(cols):
                if state[r, c] == KNOWN_OPEN:
                    view[r, c] = numbers[r, c]
        (
            ok, probability, safe, mine, log_layouts, w_start, layouts, component_start,
            component_groups, group_start, group_cells, interior, rest,
        ) = plain_analysis(
            view, total, wide, -1, max_coefficients, tiny, plain_components
        )  # fmt: skip
        if not ok:
            return TO_PYTHON, guesses
        # Board order, as Analysis.safe and Analysis.mines list them.
        sure = np.flatnonzero(mine.ravel())
        safe_now = np.flatnonzero(safe.ravel())
        if safe_now.shape[0]:
            left = resume_certain_moves(numbers, total, state, safe_now, sure)
            continue
        # choose_guess's order: the endgame search, a forced 50/50, an
        # isolated part's search, the lowest risk.
        guess = -1
        if log_layouts <= endgame_log:
            guess = endgame_square(view, mine, total, endgame_squares, endgame_layouts, nodes)[0]
        if guess < 0:
            guess = forced_square(view, probability, mine)
        if guess < 0:
            guess = isolated_square(
                view, mine, safe, w_start, layouts, np.zeros(w_start.shape[0] - 1),
                component_start, component_groups, group_start, group_cells, isolated_log,
                isolated_layouts, nodes,
            )[0]  # fmt: skip
        if guess < 0 and lookahead:
            guess = _looked_ahead(
                view, probability, mine, w_start, layouts, component_start, component_groups,
                group_start, group_cells, rest, interior, total, tolerance, opening_weight, cut,
                interior_count, most, dead_last, living_search, long_term, influence_weight,
                pair_missing, block_missing, structure_floor, states, log_factorial,
                (wide, max_coefficients, tiny, plain_components, survival_depth, survival_nodes,
                 survival_candidates),
            )  # fmt: skip
        if guess < 0:
            guess = plain_square(probability, tolerance, opening_weight)
            if not lookahead and progress > 0 and guess >= 0:
                found = window(probability, tolerance, opening_weight, guess, progress)
                if found.shape[0] > 1:
                    guess = _progressed(
                        view, probability, mine, w_start, layouts, component_start,
                        component_groups, group_start, group_cells, rest, interior, total,
                        found, dead_last, states, log_factorial,
                    )  # fmt: skip
        guesses += 1
        if mines[guess // cols, guess % cols]:
            return LOST, guesses
        left = resume_certain_moves(numbers, total, state, np.full(1, guess, np.int64), sure)


@kernel(cache=True, part="autoplay", nogil=True)
def _looked_ahead(  # pragma: no cover - compiled
    view, probability, mine, w_start, layouts, component_start, component_groups, group_start,
    group_cells, rest, interior, total, tolerance, opening_weight, cut, interior_count, most,
    dead_last, living_search, long_term, influence_weight, pair_missing, block_missing,
    structure_floor, states, log_factorial, deeper,
):  # fmt: skip
    """The lookahead's guess, as :func:`.policy.choose_guess` makes it after the searches.

    "50/50 or safe" first, else the plain choice weighed against the other
    candidates; the what-if tables are made from the analysis's own arrays
    (``rest`` as :func:`._plain.plain_analysis` hands it).
    """
    tables = plain_what_if(
        view, probability, mine, w_start, layouts, component_start, component_groups, group_start,
        group_cells, rest, interior, total, log_factorial,
    )  # fmt: skip
    early = fifty_or_safe(tables, pair_missing, block_missing, states)
    if early >= 0:
        return early
    own = plain_square(probability, tolerance, opening_weight)
    if own < 0:
        return own
    how, square, _, _ = weighed_square(
        tables, own, cut, interior_count, most, dead_last, living_search, long_term,
        influence_weight, pair_missing, block_missing, structure_floor, states,
    )  # fmt: skip
    wide, max_coefficients, tiny, plain_components, depth, nodes, candidates = deeper
    if depth >= 3 and how == WEIGHED:
        # The survival search (off unless asked for) may look further; when
        # its budget runs out, the lookahead's choice stands.
        knobs = (
            total, wide, max_coefficients, tiny, plain_components, log_factorial, tolerance,
            opening_weight, cut, candidates, states,
        )  # fmt: skip
        found = survival_square(
            view, own, depth, knobs, nodes, dead_last, long_term, influence_weight,
            pair_missing, block_missing, structure_floor,
        )  # fmt: skip
        if found >= 0:
            return found
    return square


@kernel(cache=True, part="autoplay", nogil=True)
def _progressed(  # pragma: no cover - compiled
    view, probability, mine, w_start, layouts, component_start, component_groups, group_start,
    group_cells, rest, interior, total, found, dead_last, states, log_factorial,
):  # fmt: skip
    """The plain choice's window ``found`` ordered by progress (:func:`._progress.progress_square`),
    on what-if tables made from the analysis's own arrays, as :func:`_looked_ahead` makes them."""
    tables = plain_what_if(
        view, probability, mine, w_start, layouts, component_start, component_groups, group_start,
        group_cells, rest, interior, total, log_factorial,
    )  # fmt: skip
    return progress_square(tables, found, dead_last, states)


@kernel(cache=True, part="autoplay", nogil=True)
def play_seed(  # pragma: no cover - compiled
    mines, numbers, state, first, rule, count, seed_lo, seed_hi, tolerance, opening_weight,
    endgame_log, endgame_squares, endgame_layouts, isolated_log, isolated_layouts, nodes, wide,
    max_coefficients, tiny, plain_components, lookahead, cut, interior_count, most, dead_last,
    living_search, long_term, influence_weight, pair_missing, block_missing, structure_floor,
    states, progress, survival_depth, survival_nodes, survival_candidates, log_factorial,
):  # fmt: skip
    """A whole game of one seed: the field laid, the first click, :func:`play_plain`.

    The field is the engine's (``generate_field(..., first_click=first, seed=seed)``,
    by the vector environment's compiled draw, :func:`minesweep.rules.lay.lay_field`),
    written into ``mines`` and ``numbers``; ``state`` (all unknown) is played
    on in place. Returns :func:`play_plain`'s ``(outcome, guesses)``, the
    first click counting as a guess when it hits a mine.
    """
    rows, cols = mines.shape
    squares = rows * cols
    lay_field(
        mines, numbers, first, rule, count, seed_lo, seed_hi, np.empty(4, np.uint64),
        np.empty(squares, np.bool_), np.empty(squares, np.int64),
        np.arange(squares) // cols,
    )  # fmt: skip
    if mines[first // cols, first % cols]:
        return LOST, 1
    return play_plain(
        numbers, mines, count, state, np.full(1, first, np.int64), np.zeros(0, np.int64),
        tolerance, opening_weight, endgame_log, endgame_squares, endgame_layouts, isolated_log,
        isolated_layouts, nodes, wide, max_coefficients, tiny, plain_components, lookahead, cut,
        interior_count, most, dead_last, living_search, long_term, influence_weight, pair_missing,
        block_missing, structure_floor, states, progress, survival_depth, survival_nodes,
        survival_candidates, log_factorial,
    )  # fmt: skip
