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


def is_living(view: np.ndarray, mines: int, row: int, col: int) -> bool:
    """Whether the square can show more than one number, by whole analyses."""
    return sum(chance > 0 for chance, _ in outcomes_by_analysis(view, mines, row, col).values()) > 1


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
@pytest.mark.parametrize("dead_last", [False, True])
def test_the_lookahead_takes_the_best_frontier_candidate(
    dead_last: bool, long_term: bool, game: Game
) -> None:
    """The safest living frontier squares score no better, by whole analyses, than the choice.

    A score is the chance of surviving the guess and the next, by whole
    analyses; with the 50/50 weighing on, times each square's factor for the
    50/50s it may settle early (its parts are tested on their own below).
    With ``dead_last``, a dead square (one number possible, by whole
    analyses) is never chosen while a living candidate is there, however
    well it scores.
    """
    view, analysis = stuck(game)
    mines = game.mine_count
    plain = choose_guess(analysis, view, mines, lookahead=False)
    assume("exhaustive" not in plain.reason and "50/50" not in plain.reason)
    # A square that is a mine only in a 50/50 to come is taken before the lookahead.
    assume(fifty_fifty_or_safe(analysis, view) is None)
    config = replace(DEFAULT_POLICY, long_term=long_term, dead_last=dead_last)
    chosen = lookahead_guess(analysis, view, plain, config=config)
    assume(chosen is not None)
    assert choose_guess(analysis, view, mines, config=config) == chosen
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    risk[tuple(analysis.mines.T)] = np.inf
    # Every candidate dead: the choice is the safest living square, wherever it is.
    assume("dead" not in chosen.reason)
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
    if dead_last:
        frontier = [(r, c) for r, c in frontier if is_living(view, mines, r, c)]
        # A dead choice only when no living square was found to take instead.
        assert is_living(view, mines, chosen.row, chosen.col) or not frontier
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


#: An intermediate game (seed 47 of the autoplayer) at a guess: the square at
#: (6, 2) is hidden among revealed numbers only, so if safe it can only show 0.
_DEAD_AMONG_THE_SAFEST = """\
..1#############
..1#############
..12############
111#############
##1#############
#212############
#1#12###########
232112##########
###1.1##########
###322##########
################
################
################
################
################
################"""


def test_a_dead_square_waits_while_a_living_one_is_as_safe() -> None:
    """Hill's rule: with ``dead_last`` (the default) the choice is a living square; without,
    the dead one."""
    view = parse_view(_DEAD_AMONG_THE_SAFEST)
    analysis = analyze(view, 40)
    before = choose_guess(analysis, view, 40, config=replace(DEFAULT_POLICY, dead_last=False))
    assert not is_living(view, 40, before.row, before.col)
    after = choose_guess(analysis, view, 40, config=replace(DEFAULT_POLICY, dead_last=True))
    assert is_living(view, 40, after.row, after.col)
    # Nothing is given up for it now: the living square is as safe.
    assert after.probability <= before.probability + DEFAULT_POLICY.tolerance
