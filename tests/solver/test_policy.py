"""The policy: the safest guess, ties broken by the chance of opening, and the lookahead."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

from minesweep import Game, Glyph
from minesweep.formats import parse_view
from minesweep.solver import analyze
from minesweep.solver.fiftyfifty import FiftyFifties, fifty_fifty_or_safe
from minesweep.solver.policy import DEFAULT_POLICY, choose_guess, lookahead_guess
from minesweep.solver.whatif import Lookahead
from minesweep.squares import MAX_NUMBER

from .helpers import midgame, outcomes_by_analysis, stuck


def second_safety(view: np.ndarray, mines: int, row: int, col: int) -> float:
    return sum(
        chance * safest for chance, safest in outcomes_by_analysis(view, mines, row, col).values()
    )


# Many drawn games are won by certain moves alone, or end in an endgame
# search or a forced 50/50: those are set aside.
@settings(
    max_examples=max(10, settings().max_examples // 4),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(midgame())
@pytest.mark.parametrize("long_term", [False, True])
def test_the_lookahead_takes_the_best_frontier_candidate(long_term: bool, game: Game) -> None:
    """The safest frontier squares score no better, by whole analyses, than the choice.

    A score is the chance of surviving the guess and the next, by whole
    analyses; with the 50/50 weighing on, times each square's factor for the
    50/50s it may settle early (its parts are tested on their own below).
    """
    view, analysis = stuck(game)
    mines = game.mine_count
    plain = choose_guess(analysis, view, mines, lookahead=False)
    assume("exhaustive" not in plain.reason and "50/50" not in plain.reason)
    # A square that is a mine only in a 50/50 to come is taken before the lookahead.
    assume(fifty_fifty_or_safe(analysis, view) is None)
    config = replace(DEFAULT_POLICY, long_term=long_term)
    chosen = lookahead_guess(analysis, view, plain, config=config)
    assume(chosen is not None)
    assert choose_guess(analysis, view, mines, config=config) == chosen
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    risk[tuple(analysis.mines.T)] = np.inf
    assert 1.0 - chosen.probability >= DEFAULT_POLICY.lookahead_cut * (1.0 - risk.min()) - 1e-12
    revealed = view <= MAX_NUMBER
    frontier = [
        (r, c)
        for r, c in np.argwhere(np.isfinite(risk)).tolist()
        if revealed[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2].any()
        and 1.0 - risk[r, c] >= DEFAULT_POLICY.lookahead_cut * (1.0 - risk.min())
    ]
    # The safest of them are always candidates: the plain choice comes first,
    # then the safest of the rest, of which at most a few are interior.
    frontier = sorted(set(frontier) - {(plain.row, plain.col)}, key=lambda cell: (risk[cell], cell))
    frontier = frontier[
        : DEFAULT_POLICY.lookahead_candidates - DEFAULT_POLICY.lookahead_interior - 1
    ]
    ask = Lookahead(analysis)
    assume(all(ask.outcomes(r, c) is not None for r, c in frontier))
    mines_left = mines - len(analysis.mines)

    def score(r: int, c: int) -> float:
        factor = 1.0
        if long_term:
            factor = FiftyFifties(view, risk, mines_left).factor((r, c), ask)
        return factor * second_safety(view, mines, r, c)

    best = score(chosen.row, chosen.col)
    for r, c in frontier:
        assert best >= score(r, c) - 1e-9


def test_the_guess_is_among_the_safest_squares() -> None:
    view = parse_view("1####\n#####\n#####\n#####\n")
    analysis = analyze(view, 3)
    guess = choose_guess(analysis, view)
    lowest = np.nanmin(analysis.probability)
    assert guess.probability == pytest.approx(lowest, abs=0.0051)


def test_among_equally_safe_squares_the_likeliest_blank_wins() -> None:
    # Nothing revealed: every square is as likely a mine; a corner has the
    # fewest neighbours, so it is likelier to be a blank that opens.
    view = np.full((6, 6), Glyph.HIDDEN, np.uint8)
    analysis = analyze(view, 6)
    guess = choose_guess(analysis, view)
    assert (guess.row, guess.col) in ((0, 0), (0, 5), (5, 0), (5, 5))


def test_a_tie_that_only_rounding_breaks_goes_to_the_first_square_in_board_order() -> None:
    """Squares alike in every way but the last bit of a float sum are played in board order.

    An uncompiled analysis sums in another order than the compiled one: the
    game must not depend on which ran. With 3 mines and a 1 in the middle,
    every square is 1/8 a mine and the board's four corners open likeliest;
    a rounding-sized nudge to the last corner must not pick it.
    """
    view = parse_view("#####\n#####\n##1##\n#####\n#####")
    analysis = analyze(view, 3)
    nudged = analysis.probability.copy()
    nudged[4, 4] -= 1e-14  # far below any real difference, far above the last bit
    assert 1.0 - nudged[4, 4] > 1.0 - analysis.probability[4, 4]
    for probability in (analysis.probability, nudged):
        guess = choose_guess(replace(analysis, probability=probability), view, lookahead=False)
        assert (guess.row, guess.col) == (0, 0)
