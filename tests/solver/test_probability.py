"""The analysis: exact probabilities of every hidden square, and contradictions."""

from __future__ import annotations

import math
from fractions import Fraction

import ms_toollib
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweep import Game, Glyph, InvalidBoardError
from minesweep.formats import parse_view
from minesweep.solver import ContradictionError, analyze
from minesweep.squares import MAX_NUMBER

from .helpers import HIDDEN, analyze_in_budget, brute_force, midgame, small_positions


@settings(max_examples=400)
@given(small_positions())
def test_probabilities_equal_brute_force_exactly(case: tuple[np.ndarray, int]) -> None:
    view, mines = case
    expected, layouts = brute_force(view, mines)
    analysis = analyze(view, mines)
    assert {cell: analysis.exact(*cell) for cell in expected} == expected
    for (r, c), value in expected.items():
        assert analysis.probability[r, c] == pytest.approx(float(value), abs=1e-15)
        assert ([r, c] in analysis.safe.tolist()) == (value == 0)
        assert ([r, c] in analysis.mines.tolist()) == (value == 1)
    assert analysis.layouts == layouts
    assert analysis.log_layouts == pytest.approx(math.log(layouts), rel=1e-12, abs=1e-12)
    assert np.isnan(analysis.probability[view <= MAX_NUMBER]).all()


@settings(max_examples=200)
@given(small_positions(), st.data())
def test_layout_counts_give_the_chance_of_each_number(
    case: tuple[np.ndarray, int], data: st.DataObject
) -> None:
    """What a hidden square would show: its chance is a ratio of two views' counts."""
    view, mines = case
    _, layouts = brute_force(view, mines)
    hidden = np.argwhere(view > MAX_NUMBER).tolist()
    assume(hidden)
    r, c = data.draw(st.sampled_from(hidden))
    analysis = analyze(view, mines)
    safe_chance = 0.0
    for value in range(9):
        shown = view.copy()
        shown[r, c] = value
        _, agreeing = brute_force(shown, mines)
        if not agreeing:
            with pytest.raises(ContradictionError):
                analyze(shown, mines)
            continue
        chance = math.exp(analyze(shown, mines).log_layouts - analysis.log_layouts)
        assert chance == pytest.approx(agreeing / layouts, rel=1e-9)
        safe_chance += chance
    assert safe_chance == pytest.approx(1.0 - analysis.probability[r, c], abs=1e-9)


# ms_toollib's own codes for a view: 0-8 numbers, then these.
MS_TOOLLIB_HIDDEN, MS_TOOLLIB_FLAG = 10, 11


def ms_toollib_view(glyphs: np.ndarray) -> list[list[int]]:
    hidden = np.where(glyphs == Glyph.FLAG, MS_TOOLLIB_FLAG, MS_TOOLLIB_HIDDEN)
    view: list[list[int]] = np.where(glyphs <= MAX_NUMBER, glyphs, hidden).astype(int).tolist()
    return view


# Three times the profile's examples: 3,000 positions in CI.
@settings(max_examples=settings().max_examples * 3, deadline=None)
@given(midgame())
def test_probabilities_equal_ms_toollib(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    ours = analyze_in_budget(glyphs, game.mine_count).probability
    theirs = np.array(
        ms_toollib.cal_probability_onboard(ms_toollib_view(glyphs), game.mine_count)[0]
    )
    hidden = glyphs > MAX_NUMBER
    assert np.abs(ours[hidden] - theirs[hidden]).max() < 1e-9


@given(midgame())
def test_flags_are_claims_not_facts(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    unflagged = np.where(glyphs == Glyph.FLAG, HIDDEN, glyphs)
    a, b = analyze_in_budget(glyphs, game.mine_count), analyze_in_budget(unflagged, game.mine_count)
    assert np.array_equal(a.probability, b.probability, equal_nan=True)


@given(midgame())
def test_probabilities_add_up_to_the_mine_count(game: Game) -> None:
    if game.is_over:
        return
    analysis = analyze_in_budget(game.glyphs(), game.mine_count)
    assert np.nansum(analysis.probability) == pytest.approx(game.mine_count)
    mines = game.field.mines  # type: ignore[union-attr]
    # The solver never calls a mine safe, nor a safe square a mine.
    assert not mines[tuple(analysis.safe.T)].any()
    assert mines[tuple(analysis.mines.T)].all()


def test_the_interior_shares_what_the_frontier_leaves() -> None:
    view = parse_view("1###\n####\n####\n")
    analysis = analyze(view, 2)
    # (0, 0) shows 1: one mine among its 3 neighbours; the other 8 squares share the other.
    assert analysis.exact(0, 1) == Fraction(1, 3)
    assert analysis.exact(2, 3) == Fraction(1, 8) * Fraction(1)
    assert analysis.interior == 8
    assert analysis.components == (3,)
    assert analysis.layouts == 3 * 8


def test_the_mine_count_decides_the_interior() -> None:
    view = parse_view("1#\n##\n")
    analysis = analyze(view, 1)
    assert analysis.exact(0, 1) == Fraction(1, 3)
    analysis = analyze(parse_view("..1#\n..1#\n..11\n"), 1)
    assert analysis.mines.tolist() == [[1, 3]]
    assert analysis.safe.tolist() == [[0, 3]]


@pytest.mark.parametrize(
    ("view", "mines", "message"),
    [
        ("4#\n##\n", 3, "row 1, column 1 shows 4 but has only 3"),
        # The 1s at (0, 2) and (2, 2) each have one hidden neighbour: both
        # are mines, and the 1 between them sees two.
        (
            "##1.\n#21.\n##1.\n",
            2,
            "row 2, column 3 shows 1, but the numbers around it make 2 of its neighbours certain",
        ),
        # No number alone is broken: the 2 at (1, 0) and its neighbours are.
        ("1###\n22##\n##22\n", 4, "the 2 at row 2, column 1 contradicts"),
        ("1#\n##\n", 0, "needs exactly 1 mine, but the game has 0"),
        (".#\n", 1, "row 1, column 1 contradicts|needs exactly 0 mines"),
    ],
)
def test_contradictions_name_a_square(view: str, mines: int, message: str) -> None:
    with pytest.raises(ContradictionError, match=message):
        analyze(parse_view(view), mines)


@pytest.mark.parametrize(
    ("glyphs", "mines", "message"),
    [
        ([[HIDDEN, Glyph.MINE]], 1, r"square row 1, column 2 is '\*' \(a mine or a wrong flag"),
        ([[HIDDEN, 200]], 1, "square row 1, column 2 is glyph 200"),
        ([HIDDEN, HIDDEN], 1, "2-D array"),
        ([[float(HIDDEN)]], 1, "float"),
        ([[HIDDEN]], -1, "non-negative int"),
        ([[HIDDEN]], True, "non-negative int"),
    ],
)
def test_bad_views_are_refused(glyphs: object, mines: object, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        analyze(glyphs, mines)  # type: ignore[arg-type]


@settings(max_examples=200)
@given(
    st.integers(1, 4).flatmap(
        lambda rows: st.lists(
            st.lists(st.integers(0, 13) | st.integers(0, 255), min_size=3, max_size=3),
            min_size=rows,
            max_size=rows,
        )
    )
)
def test_a_uint8_view_is_checked_as_a_wider_one_is(glyphs: list[list[int]]) -> None:
    # uint8 views take a quicker check: the same answer, or the same error, as int64.
    def outcome(view: np.ndarray) -> object:
        try:
            return analyze(view, 1).probability.tobytes()
        except (InvalidBoardError, ContradictionError) as error:
            return f"{type(error).__name__}: {error}"

    assert outcome(np.array(glyphs, np.uint8)) == outcome(np.array(glyphs, np.int64))


def test_the_analysis_keeps_its_own_copy_of_the_view() -> None:
    view = parse_view("1#\n##\n").astype(np.uint8)
    analysis = analyze(view, 1)
    view[0, 0] = 2
    assert analysis.workings.view[0, 0] == 1
