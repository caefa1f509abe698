"""The frontier: squares set aside before counting, groups, and the counting plan."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep import Glyph
from minesweep._jit import entry
from minesweep.formats import parse_view
from minesweep.solver import ContradictionError, analyze
from minesweep.solver._frontier import _sort_small, _unique
from minesweep.solver.frontier import Frontier, plan_groups
from minesweep.squares import MAX_NUMBER


def test_squares_a_number_alone_makes_mines_are_set_aside_before_counting() -> None:
    # The 1 at (0, 1) has one hidden neighbour: (0, 0) is a mine, in no component.
    view = parse_view("#1.1###\n11.1###\n...1###\n")
    fast = analyze(view, 4)
    exact = analyze(view, 4, exact=True)  # counts every square, none set aside
    assert fast.components == exact.components == (3,)
    assert fast.mines.tolist() == exact.mines.tolist() == [[0, 0], [1, 4]]
    assert fast.probability[0, 0] == 1.0
    assert fast.exact(0, 5) == Fraction(1, 3)
    np.testing.assert_allclose(fast.probability, exact.probability, rtol=1e-12)
    assert fast.log_layouts == pytest.approx(math.log(exact.layouts))
    with pytest.raises(ContradictionError, match="needs at least 1 mine, but the game has 0"):
        analyze(parse_view("#1\n11\n"), 0)


def test_a_long_frontier_is_planned_narrow() -> None:
    """The counting order keeps few numbers open: a corridor's state stays small.

    A 3x200 strip with its middle row revealed: any order that walked the
    numbers out of sequence would hold dozens open at once (and fall back
    to the slow exact counter).
    """
    rng = np.random.default_rng(5)
    mines = rng.random((3, 200)) < 0.3
    mines[1] = False
    padded = np.pad(mines, 1).astype(int)
    numbers = sum(
        padded[1 + dr : 4 + dr, 1 + dc : 201 + dc]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if dr or dc
    )
    view = np.full((3, 200), Glyph.HIDDEN, np.uint8)
    view[1] = numbers[1]  # type: ignore[index]
    frontier = Frontier(view, view > MAX_NUMBER)
    assert len(frontier.components) == 1
    plan = plan_groups(frontier.groups, frontier.targets, frontier.components[0])
    assert max(plan.widths) <= 4
    assert sorted(map(id, plan.groups)) == sorted(map(id, frontier.groups))


@given(st.lists(st.integers(-1, 40), max_size=40))
def test_the_kernels_short_sort_and_unique_agree_with_numpy(values: list[int]) -> None:
    # Short arrays sort by insertion, longer ones by numba's sort (the border is 16).
    array = np.array(values, np.int64)
    sorted_here = array.copy()
    entry(_sort_small)(sorted_here)
    assert sorted_here.tolist() == sorted(values)
    assert entry(_unique)(array).tolist() == np.unique(array).tolist()
