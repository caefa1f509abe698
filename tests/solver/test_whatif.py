"""What-if questions: the outcomes of opening a square, and joint chances."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweep import Game, Glyph, InvalidBoardError
from minesweep.formats import parse_view
from minesweep.solver import Analysis, analyze
from minesweep.solver.policy import choose_guess
from minesweep.solver.whatif import Lookahead

from .helpers import analyze_in_budget, midgame, outcomes_by_analysis, small_position


def doubtful_squares(analysis: Analysis) -> list[tuple[int, int]]:
    # Revealed squares are NaN, which compares False.
    return [(int(r), int(c)) for r, c in np.argwhere(analysis.probability < 1.0)]


@settings(max_examples=settings().max_examples, deadline=None)
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
    assert outcomes is not None
    expected = outcomes_by_analysis(view, mines, row, col)
    got = {o.number: (o.chance, o.safest) for o in outcomes}
    assert set(got) == set(expected)
    for number, (chance, safest) in expected.items():
        assert got[number][0] == pytest.approx(chance, rel=1e-9, abs=1e-12)
        assert got[number][1] == pytest.approx(safest, abs=1e-9)


def test_a_square_a_number_needs_as_a_mine_has_no_outcome() -> None:
    # The 1 at (0, 0) has one hidden neighbour: it is the mine.
    view = parse_view("1##\n")
    analysis = analyze(view, 1)
    assert analysis.exact(0, 1) == 1
    assert Lookahead(analysis).outcomes(0, 1) == []
    # (0, 1), (1, 0) and (1, 1) are each a full number's: set aside as mines.
    # (2, 2) is then safe, and the mine count leaves the last mine to (0, 0),
    # whose only hidden neighbours are those set aside.
    analysis = analyze(parse_view("##2\n##2\n22#\n"), 4)
    assert analysis.exact(0, 0) == 1
    assert Lookahead(analysis).outcomes(0, 0) == []


def test_outcomes_refuse_revealed_and_outside_squares() -> None:
    view = parse_view("1####\n#####\n")
    ask = Lookahead(analyze(view, 2))
    # A square on the board is named from 1; an index off it is quoted as given.
    for square, message in [
        ((0, 0), r"^row 1, column 1 is revealed$"),
        ((2, 0), r"^index \(2, 0\) is off the 2x5 view$"),
        ((-1, 0), r"^index \(-1, 0\) is off the 2x5 view$"),
    ]:
        with pytest.raises(InvalidBoardError, match=message):
            ask.outcomes(*square)


def test_no_cheap_answer_without_float_counts_or_past_the_budget() -> None:
    view = parse_view("1####\n#####\n#####\n#####\n")
    exact = analyze(view, 3, exact=True)
    assert Lookahead(exact).outcomes(0, 1) is None
    assert choose_guess(exact, view, 3) == choose_guess(exact, view, 3, lookahead=False)
    floats = analyze(view, 3)
    assert Lookahead(floats, max_states=1).outcomes(0, 1) is None
    assert Lookahead(floats).outcomes(0, 1)


# Every layout of the board is listed: a fifth of the usual examples.
@settings(max_examples=max(20, settings().max_examples // 5), deadline=None)
@given(small_position(), st.data())
def test_joint_chances_match_counting_every_layout(
    position: tuple[np.ndarray, int, list[frozenset[tuple[int, int]]]], data: st.DataObject
) -> None:
    view, mines, layouts = position
    hidden = [(int(r), int(c)) for r, c in np.argwhere(view == Glyph.HIDDEN)]
    squares = data.draw(st.lists(st.sampled_from(hidden), min_size=1, max_size=4, unique=True))
    split = data.draw(st.integers(0, len(squares)))
    are_mines, are_safe = squares[:split], squares[split:]
    want = sum(
        all(s in layout for s in are_mines) and not any(s in layout for s in are_safe)
        for layout in layouts
    ) / len(layouts)
    got = Lookahead(analyze(view, mines)).joint(are_mines, are_safe)
    assert got == pytest.approx(want, abs=1e-9)


def test_joint_refuses_revealed_outside_and_repeated_squares() -> None:
    view = parse_view("1##\n###\n")
    ask = Lookahead(analyze(view, 2))
    # A square on the board is named from 1; an index off it is quoted as given.
    for mines, safe, message in [
        ([(0, 0)], [], r"^row 1, column 1 is revealed, not a hidden square$"),
        ([(2, 0)], [], r"^index \(2, 0\) is off the 2x3 view$"),
        ([(0, 1)], [(0, 1)], r"^row 1, column 2 is given twice$"),
        ([], [(0, -1)], r"^index \(0, -1\) is off the 2x3 view$"),
    ]:
        with pytest.raises(InvalidBoardError, match=message):
            ask.joint(mines, safe)
    assert Lookahead(analyze(view, 2, exact=True)).joint([(0, 1)], []) is None


def test_joint_answers_are_remembered_and_charged_what_they_cost() -> None:
    """A second Lookahead of the same analysis answers from memory, within its own budget.

    The question costs some states to count (between 5 and 10 here): with
    a budget too small, counting gives no answer, and remembering must not
    give one either; with enough, the remembered answer is the counted one.
    """
    view = parse_view("1#1##\n#####\n#2###\n#####\n")
    question = ([(0, 1)], [(1, 0)])
    counted = Lookahead(analyze(view, 4)).joint(*question)
    assert counted is not None
    assert Lookahead(analyze(view, 4), max_states=5).joint(*question) is None
    analysis = analyze(view, 4)
    assert Lookahead(analysis).joint(*question) == counted
    tight = Lookahead(analysis, max_states=5)
    assert tight.joint(*question) is None
    assert tight.joint([(0, 1)], []) is None  # the budget is spent, as counting would leave it
    enough = Lookahead(analysis, max_states=10)
    assert enough.joint(*question) == counted
    assert enough.joint(*question) is None  # 10 states cannot pay for it twice
