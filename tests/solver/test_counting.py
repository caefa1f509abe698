"""Counting in floats: the state budget, remembered components, the exact fallback."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweep import Game, Minefield
from minesweep.formats import parse_view
from minesweep.solver import AnalysisBudgetError, analyze, counting
from minesweep.solver.counting import ComponentCache, CountingMethods
from minesweep.squares import MAX_NUMBER

from .helpers import HIDDEN, analyze_in_budget, midgame


def test_budget_stops_a_tangled_frontier_with_a_clear_error() -> None:
    # A real position: the top row of a 3x60 field revealed, a long frontier below.
    rng = np.random.default_rng(4)
    mines = np.zeros((3, 60), bool)
    mines[1:] = rng.random((2, 60)) < 0.3
    field = Minefield(mines)
    view = np.full((3, 60), HIDDEN, np.uint8)
    view[0] = field.numbers[0]
    with pytest.raises(AnalysisBudgetError, match="raise max_states"):
        analyze(view, field.mine_count, max_states=5)
    assert analyze(view, field.mine_count, max_states=None).layouts > 0
    # Counted once, the component is remembered; the budget still holds, so
    # whether a call raises does not depend on the calls before it.
    with pytest.raises(AnalysisBudgetError, match="a frontier of 60 squares"):
        analyze(view, field.mine_count, max_states=5)


@settings(max_examples=100, deadline=None)
@given(midgame(), st.data())
def test_remembered_components_change_nothing(game: Game, data: st.DataObject) -> None:

    if game.is_over:
        return
    before = game.glyphs()
    # The next position of the same game: most of its components are the
    # ones just counted, some are new.
    hidden_safe = np.argwhere((game.state == 0) & ~game.field.mines)  # type: ignore[union-attr]
    assume(len(hidden_safe))
    r, c = hidden_safe[data.draw(st.integers(0, len(hidden_safe) - 1))]
    game.reveal(int(r), int(c))
    assume(not game.is_over)
    after = game.glyphs()
    # Each its own cache: nothing remembered from other examples.
    cold = analyze_in_budget(after, game.mine_count, cache=ComponentCache())
    remembered = ComponentCache()
    analyze_in_budget(before, game.mine_count, cache=remembered)
    warm = analyze_in_budget(after, game.mine_count, cache=remembered)
    assert np.array_equal(cold.probability, warm.probability, equal_nan=True)
    assert np.array_equal(cold.safe, warm.safe)
    assert np.array_equal(cold.mines, warm.mines)
    assert cold.components == warm.components
    assert cold.log_layouts == warm.log_layouts
    # A remembered component is bound to this view's groups: each row of its
    # counts is about the same squares as when counted afresh.
    for fresh, kept in zip(cold.workings.counts, warm.workings.counts, strict=True):
        assert [group.cells for group in fresh.groups] == [group.cells for group in kept.groups]
        assert np.array_equal(fresh.mines, kept.mines)


def test_remembered_components_are_told_apart_by_their_numbers() -> None:
    # The same squares around the same square, a different number: a
    # different component, never the remembered one.
    assert analyze(parse_view("1#\n##\n"), 1).probability[0, 1] == pytest.approx(1 / 3)
    assert analyze(parse_view("2#\n##\n"), 2).probability[0, 1] == pytest.approx(2 / 3)
    assert analyze(parse_view("1#\n##\n"), 1).probability[0, 1] == pytest.approx(1 / 3)


@settings(max_examples=100, deadline=None)
@given(midgame())
def test_the_exact_fallback_of_the_fast_path_agrees(game: Game) -> None:
    if game.is_over:
        return

    glyphs = game.glyphs()
    fast = analyze_in_budget(glyphs, game.mine_count)
    # Every component counted in pieces, and every piece too wide for the
    # compiled counter: all counted exactly, none taken from the cache.
    exactly = CountingMethods(wide=0, compiled_width=-1)
    fallback = analyze_in_budget(glyphs, game.mine_count, cache=ComponentCache(), methods=exactly)
    hidden = glyphs > MAX_NUMBER
    assert np.allclose(fast.probability[hidden], fallback.probability[hidden], rtol=1e-12)
    assert np.array_equal(fast.safe, fallback.safe)
    assert math.isclose(fast.log_layouts, fallback.log_layouts, rel_tol=1e-12, abs_tol=1e-12)


def test_a_component_cache_forgets_the_oldest_past_its_limits() -> None:
    cache = ComponentCache(size=2)
    views = [parse_view(text) for text in ("1#\n##\n", "2#\n##\n", "1##\n###\n")]
    for view in views:
        analyze(view, 1 if view is not views[1] else 2, cache=cache)
    assert len(cache) == 2
    cache.clear()
    assert len(cache) == 0
    # An analysis with its own cache leaves the process-wide one alone.
    counting.clear_cache()
    analyze(views[0], 1, cache=ComponentCache())
    assert len(counting.COMPONENT_CACHE) == 0
