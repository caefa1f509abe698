"""The what-if counted in one pass (:func:`._lookahead.outcomes`, ``once``) and per number.

:func:`._lookahead.outcomes` counts a square's merged component once for
each number the square could show; asked with ``once`` 1, as the lookahead
asks, it counts it once for all of them (:func:`._count_once.count_by_number`). Both answer
the same question, so on every view and square the numbers must be the
same and the chances and safeties equal up to rounding. The one pass is
charged its own states, and is refused exactly when they pass the budget.
Asked as the tie-break asks (``once`` 2), the best safeties may be lower
but are 1 exactly where the per-number ones are.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweep import Game
from minesweep.solver import analyze
from minesweep.solver._lookahead import outcomes
from minesweep.solver._whatif import ANSWERED, NO_ANSWER
from minesweep.solver.whatif import DEFAULT_STATES, Lookahead

from .helpers import analyze_in_budget, midgame, small_position, small_positions


def same_outcomes(view: np.ndarray, mines: int, squares: list[int], budget: int) -> int:
    """Check both what-ifs on ``squares`` of ``view``; how many were answered by both."""
    analysis = analyze_in_budget(view, mines)
    tables = Lookahead(analysis).tables()
    assume(tables is not None)
    assert tables is not None
    answered = 0
    for square in squares:
        status, numbers, chances, safest, _ = outcomes(tables, square, budget)
        status_once, numbers_once, chances_once, safest_once, left_once = outcomes(
            tables, square, budget, 1
        )
        if status != ANSWERED:
            continue  # too wide, or the counts one by one spent the budget
        # With the budget far from spent, a refusal is a count too wide, which
        # the one pass (on the same plan) meets alike.
        assert status_once == ANSWERED
        assert left_once > 0
        assert numbers_once.tolist() == numbers.tolist()
        np.testing.assert_allclose(chances_once, chances, rtol=1e-9, atol=1e-15)
        np.testing.assert_allclose(safest_once, safest, rtol=1e-9, atol=1e-15)
        # As the tie-break asks: the safeties exact where they are certain.
        status_sure, numbers_sure, chances_sure, safest_sure, _ = outcomes(
            tables, square, budget, 2
        )
        assert status_sure == ANSWERED
        assert numbers_sure.tolist() == numbers.tolist()
        np.testing.assert_array_equal(chances_sure, chances_once)
        assert ((safest_sure >= 1.0 - 1e-12) == (safest >= 1.0 - 1e-12)).all()
        assert (safest_sure <= safest_once).all()
        answered += 1
    return answered


def hidden_squares(view: np.ndarray) -> list[int]:
    return [int(i) for i in np.flatnonzero(view.ravel() > 8)]


@settings(max_examples=300, deadline=None)
@given(small_position())
def test_small_views(position: tuple[np.ndarray, int, list[frozenset[tuple[int, int]]]]) -> None:
    view, mines, _ = position
    same_outcomes(view, mines, hidden_squares(view), DEFAULT_STATES)


@settings(max_examples=300, deadline=None)
@given(small_positions())
def test_small_views_of_real_games(position: tuple[np.ndarray, int]) -> None:
    view, mines = position
    assume((view > 8).any())
    same_outcomes(view, mines, hidden_squares(view), DEFAULT_STATES)


@settings(max_examples=150, deadline=None)
@given(midgame(), st.data())
def test_mid_size_views(game: Game, data: st.DataObject) -> None:
    assume(not game.is_over)
    view = game.glyphs()
    squares = hidden_squares(view)
    assume(squares)
    chosen = data.draw(st.lists(st.sampled_from(squares), min_size=1, max_size=12, unique=True))
    same_outcomes(view, game.mine_count, chosen, DEFAULT_STATES)


@settings(max_examples=100, deadline=None)
@given(midgame(), st.data())
def test_a_spent_budget_is_no_answer_with_nothing_left(game: Game, data: st.DataObject) -> None:
    assume(not game.is_over)
    view = game.glyphs()
    squares = hidden_squares(view)
    assume(squares)
    square = data.draw(st.sampled_from(squares))
    tables = Lookahead(analyze_in_budget(view, game.mine_count)).tables()
    assume(tables is not None)
    assert tables is not None
    status, _, _, _, left = outcomes(tables, square, DEFAULT_STATES, 1)
    spent = DEFAULT_STATES - left
    # A pass that dies at its first group makes no state but the first, which
    # the budget (as count_component's) does not check: spent 1, never refused.
    assume(status == ANSWERED and spent > 1)
    # Exactly the states it spends are enough; one fewer is not.
    assert outcomes(tables, square, spent, 1)[0] == ANSWERED
    short = outcomes(tables, square, spent - 1, 1)
    assert short[0] == NO_ANSWER
    assert short[4] == 0


def test_a_square_with_no_safe_outcome_has_none() -> None:
    from minesweep.formats import parse_view

    analysis = analyze(parse_view("1##\n"), 1)
    tables = Lookahead(analysis).tables()
    assert tables is not None
    status, numbers, _, _, _ = outcomes(tables, 1, DEFAULT_STATES, 1)
    assert status == ANSWERED
    assert numbers.size == 0
