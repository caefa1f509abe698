"""Sharing the mines out at the saddle point: large boards without underflow."""

from __future__ import annotations

import math

import ms_toollib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import Game
from minesweep.solver import analyze
from minesweep.solver.counting import CountingMethods
from minesweep.solver.tilted import saddle
from minesweep.squares import MAX_NUMBER

from .helpers import (
    analyze_in_budget,
    analyze_like_brute_force,
    clicked_view,
    midgame,
    small_positions,
)

#: Every view shared out at the saddle point, however few its components.
TILTED = CountingMethods(plain_components=-1)


@settings(max_examples=300)
@given(small_positions())
def test_the_saddle_point_gives_the_exact_probabilities(case: tuple[np.ndarray, int]) -> None:
    analyze_like_brute_force(*case, methods=TILTED)


@given(midgame())
def test_the_saddle_point_agrees_with_the_plain_products(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    plain = analyze_in_budget(glyphs, game.mine_count)
    tilted = analyze(glyphs, game.mine_count, methods=TILTED)
    np.testing.assert_array_equal(plain.safe, tilted.safe)
    np.testing.assert_array_equal(plain.mines, tilted.mines)
    np.testing.assert_allclose(plain.probability, tilted.probability, rtol=0, atol=1e-12)
    assert tilted.log_layouts == pytest.approx(plain.log_layouts, rel=1e-12)


@settings(max_examples=50)
@given(
    st.lists(st.lists(st.just(0.0) | st.floats(1e-3, 1e6), min_size=1, max_size=8), max_size=6),
    st.integers(0, 500),
    st.data(),
)
def test_the_saddle_point_expects_every_mine(
    polys: list[list[float]], interior: int, data: st.DataObject
) -> None:
    """At the tilt found, the components and the interior expect ``total`` mines between them."""
    layouts = [np.array(poly) for poly in polys if max(poly) > 0]
    low = sum(int(np.flatnonzero(poly)[0]) for poly in layouts)
    high = sum(int(np.flatnonzero(poly)[-1]) for poly in layouts) + interior
    total = data.draw(st.integers(low, high))
    with np.errstate(divide="ignore"):
        logs = [np.log(poly) for poly in layouts]
    tilt = saddle(logs, interior, total)
    expected = interior / (1 + math.exp(-tilt))
    for poly in layouts:
        weights = poly * np.exp(tilt * np.arange(len(poly)) - tilt * (len(poly) - 1) / 2)
        expected += float(np.dot(weights, np.arange(len(poly))) / weights.sum())
    if low < total < high:  # at the ends the tilt runs to its bound
        assert expected == pytest.approx(total, abs=1e-6)


@pytest.mark.parametrize("size", [60, 150, 300])
def test_large_boards_are_counted_in_floats(size: int) -> None:
    """Views of 150x150 and 300x300 once fell back to big integers for minutes."""
    mines = round(size * size * 0.15)
    view, field = clicked_view(size, size, mines, 200, size)
    analysis = analyze(view, mines)
    # Counted in floats: an analysis that fell back to Python integers keeps no frontier.
    assert analysis.workings.frontier is not None
    hidden = view > MAX_NUMBER
    assert np.nansum(analysis.probability) == pytest.approx(mines, rel=1e-9)
    assert not field.mines[tuple(analysis.safe.T)].any()
    assert field.mines[tuple(analysis.mines.T)].all()
    assert np.isfinite(analysis.probability[hidden]).all()
    if size == 60:  # ms_toollib answers in reasonable time at this size
        board = np.where(hidden, 10, view).astype(int).tolist()
        theirs = np.array(ms_toollib.cal_probability_onboard(board, mines)[0])
        assert np.abs(analysis.probability[hidden] - theirs[hidden]).max() < 1e-9
