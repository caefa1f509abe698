"""Counting in Python integers: exact counts, agreeing with the float path."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings

from minesweep import Game, InvalidBoardError
from minesweep.formats import parse_view
from minesweep.solver import analyze
from minesweep.squares import MAX_NUMBER

from .helpers import HIDDEN, analyze_in_budget, midgame


def test_layout_counts_use_exact_integers() -> None:
    view = np.full((16, 30), HIDDEN, np.uint8)
    view[8, 15] = 0
    for r in range(7, 10):
        for c in range(14, 17):
            view[r, c] = 0 if (r, c) == (8, 15) else 1
    view[7:10, 14:17] = parse_view("111\n1.1\n111\n")
    analysis = analyze(view, 99)
    assert analysis.layouts > 2**200  # far beyond any float's exact range
    assert math.isclose(analysis.log_layouts, math.log(analysis.layouts), rel_tol=1e-12)
    assert math.isclose(float(analysis.exact(0, 0)), analysis.probability[0, 0])


@settings(max_examples=300, deadline=None)
@given(midgame())
def test_float_and_exact_counting_agree(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    fast = analyze_in_budget(glyphs, game.mine_count)
    exact = analyze_in_budget(glyphs, game.mine_count, exact=True)
    hidden = glyphs > MAX_NUMBER
    assert np.allclose(fast.probability[hidden], exact.probability[hidden], rtol=1e-12, atol=0)
    assert np.array_equal(fast.safe, exact.safe)
    assert np.array_equal(fast.mines, exact.mines)
    assert fast.components == exact.components
    # A log's absolute error is the count's relative error; a single layout
    # has log 0, where a relative tolerance would demand an exact zero.
    assert math.isclose(fast.log_layouts, exact.log_layouts, rel_tol=1e-12, abs_tol=1e-12)


def test_exact_names_a_revealed_square_and_quotes_an_index_off_the_view() -> None:
    analysis = analyze(parse_view("1##\n###\n"), 2)
    with pytest.raises(InvalidBoardError, match=r"^row 1, column 1 is revealed$"):
        analysis.exact(0, 0)
    with pytest.raises(InvalidBoardError, match=r"^index \(2, 0\) is off the 2x3 view$"):
        analysis.exact(2, 0)
