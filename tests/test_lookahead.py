"""The policy's one-move lookahead, against whole analyses of every imagined view."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from minesweep import Game
from minesweep.formats import parse_view
from minesweep.solver import AnalysisBudgetError, ContradictionError, analyze
from minesweep.solver._whatif import Lookahead
from minesweep.solver.policy import LOOKAHEAD_CUT, Guess, choose_guess, lookahead_guess

from .test_solver import analyze_in_budget, midgame


def outcomes_by_analysis(view: np.ndarray, mines: int, row: int, col: int) -> dict[int, tuple]:
    """For each number the square could show: its chance and the best safety after.

    The definition, the slow way: a whole analysis of the view with the
    number written in, its chance the ratio of the two views' layout counts.
    """
    before = analyze(view, mines, max_states=None)
    found = {}
    for number in range(9):
        shown = view.copy()
        shown[row, col] = number
        try:
            after = analyze(shown, mines)
        except ContradictionError:
            continue
        except AnalysisBudgetError:
            reject()
        chance = math.exp(after.log_layouts - before.log_layouts)
        safest = 1.0 if len(after.safe) else 1.0 - float(np.nanmin(after.probability))
        found[number] = (chance, safest)
    return found


def doubtful_squares(analysis) -> list[tuple[int, int]]:
    return [
        (int(r), int(c)) for r, c in np.argwhere(analysis.probability < 1.0)
    ]  # NaN (revealed) compares False


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(midgame(), st.data())
def test_outcomes_equal_whole_analyses(game: Game, data: st.DataObject) -> None:
    assume(not game.is_over)
    view, mines = game.glyphs(), game.mine_count
    analysis = analyze_in_budget(view, mines)
    squares = doubtful_squares(analysis)
    assume(squares)
    row, col = data.draw(st.sampled_from(squares))
    outcomes = Lookahead(analysis).outcomes(row, col)
    assume(outcomes is not None)  # a component too tangled: no cheap answer
    expected = outcomes_by_analysis(view, mines, row, col)
    got = {o.number: (o.chance, o.safest) for o in outcomes if o.chance > 0}
    assert set(got) == set(expected)
    for number, (chance, safest) in expected.items():
        assert got[number][0] == pytest.approx(chance, rel=1e-9, abs=1e-12)
        assert got[number][1] == pytest.approx(safest, abs=1e-9)
    total = sum(o.chance for o in outcomes)
    assert total == pytest.approx(1.0 - analysis.probability[row, col], abs=1e-9)


def second_safety(view: np.ndarray, mines: int, guess: Guess) -> float:
    return sum(
        chance * safest
        for chance, safest in outcomes_by_analysis(view, mines, guess.row, guess.col).values()
    )


@settings(max_examples=max(10, settings.default.max_examples // 4), deadline=None)
@given(midgame())
def test_the_lookahead_does_at_least_as_well_as_the_plain_choice(game: Game) -> None:
    assume(not game.is_over)
    view, mines = game.glyphs(), game.mine_count
    analysis = analyze_in_budget(view, mines)
    plain = choose_guess(analysis, view, mines, lookahead=False)
    assume("exhaustive" not in plain.reason and "50/50" not in plain.reason)
    chosen = lookahead_guess(analysis, view, plain)
    assume(chosen is not None)
    safety = 1.0 - np.where(np.isnan(analysis.probability), 1.0, analysis.probability)
    safety[tuple(analysis.mines.T)] = 0.0
    assert 1.0 - chosen.probability >= LOOKAHEAD_CUT * safety.max() - 1e-12
    assert second_safety(view, mines, chosen) >= second_safety(view, mines, plain) - 1e-9
    assert choose_guess(analysis, view, mines) == chosen


def test_no_cheap_answer_without_float_counts_or_past_the_budget() -> None:
    view = parse_view("1####\n#####\n#####\n#####\n")
    exact = analyze(view, 3, exact=True)
    assert Lookahead(exact).outcomes(0, 1) is None
    guess = choose_guess(exact, view, 3)  # the plain choice, then
    assert guess == choose_guess(exact, view, 3, lookahead=False)
    floats = analyze(view, 3)
    assert Lookahead(floats, max_states=1).outcomes(0, 1) is None
    assert Lookahead(floats).outcomes(0, 1)
