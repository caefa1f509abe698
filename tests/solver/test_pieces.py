"""Wide components: the groups a number alone decides, the pieces left, the narrowest order."""

from __future__ import annotations

from typing import Any

import ms_toollib
import numpy as np
import pytest
from hypothesis import given, settings

from minesweep.formats import parse_view
from minesweep.solver import AnalysisBudgetError, ContradictionError, analyze
from minesweep.solver._count import MAX_WIDTH, count_component
from minesweep.solver.counting import ComponentCache, CountingMethods
from minesweep.solver.frontier import Frontier, Plan, hidden_mask, plan_groups
from minesweep.solver.pieces import force, order_tries
from minesweep.squares import MAX_NUMBER

from .helpers import analyze_like_brute_force, brute_force, clicked_view, small_positions


def in_pieces() -> dict[str, Any]:
    """Count every component the wide way, with nothing remembered from the plain way."""
    return {"methods": CountingMethods(wide=0), "cache": ComponentCache()}


@settings(max_examples=300)
@given(small_positions())
def test_counting_in_pieces_gives_the_exact_probabilities(case: tuple[np.ndarray, int]) -> None:
    analyze_like_brute_force(*case, **in_pieces())


@settings(max_examples=300)
@given(small_positions())
def test_forced_groups_are_certain(case: tuple[np.ndarray, int]) -> None:
    """Every group ``force`` decides is certain in every layout, and the pieces cover the rest."""
    view, mines = case
    expected, layouts = brute_force(view, mines)
    frontier = Frontier(view, hidden_mask(view))
    for members in frontier.components:
        try:
            forced = force(frontier, members)
        except ContradictionError:
            assert not layouts
            continue
        for index, full in forced.mines_in.items():
            for cell in frontier.groups[index].cells:
                if layouts:
                    assert expected[cell] == (1 if full else 0)
        left = sorted(index for piece in forced.pieces for index in piece)
        assert left == sorted(set(members) - set(forced.mines_in))


def test_a_cleared_number_splits_its_component() -> None:
    # The zeros clear the bottom row's middle, which linked the left 1s to
    # the right ones: what is left is a piece on each side.
    view = parse_view("#1.1#\n#1.1#\n#####")
    frontier = Frontier(view, hidden_mask(view))
    (members,) = frontier.components
    forced = force(frontier, members)
    cleared = sorted(cell for i in forced.mines_in for cell in frontier.groups[i].cells)
    assert cleared == [(2, 1), (2, 2), (2, 3)]
    assert not any(forced.mines_in.values())
    sides = [
        sorted(cell for i in piece for cell in frontier.groups[i].cells) for piece in forced.pieces
    ]
    assert sorted(sides) == [[(0, 0), (1, 0), (2, 0)], [(0, 4), (1, 4), (2, 4)]]


def test_an_impossible_number_is_a_contradiction() -> None:
    view = parse_view("1#1\n###\n1#0")
    with pytest.raises(ContradictionError):
        analyze(view, 3, **in_pieces())


def count(plan: Plan) -> tuple[np.ndarray, int]:
    kernel: Any = count_component
    layouts, _, _, states = kernel(*plan.kernel_input, 10**9)
    return layouts, int(states)


def test_every_order_counts_the_same_layouts() -> None:
    for seed in range(30):
        view, _ = clicked_view(16, 30, 99, 40 + seed, seed)
        frontier = Frontier(view, hidden_mask(view))
        for members in frontier.components:
            plain = plan_groups(frontier.groups, frontier.targets, members)
            best = plan_groups(frontier.groups, frontier.targets, members, tries=16)
            assert sorted(map(id, best.groups)) == sorted(map(id, plain.groups))
            if max(plain.widths) <= MAX_WIDTH and max(best.widths) <= MAX_WIDTH:
                np.testing.assert_allclose(count(best)[0], count(plain)[0], rtol=1e-12)


def test_trying_other_starts_saves_states() -> None:
    # A view whose plain order made 113,090 states; other starts need 6,000.
    view, _ = clicked_view(16, 30, 99, 105, 30)
    frontier = Frontier(view, hidden_mask(view))
    members = max(frontier.components, key=len)
    forced = force(frontier, members)
    piece = max(forced.pieces, key=len)
    plain = plan_groups(frontier.groups, forced.targets, piece)
    best = plan_groups(frontier.groups, forced.targets, piece, tries=order_tries(piece))
    assert count(best)[1] * 10 < count(plain)[1]


# Views of random safe clicks, which once ran past the budget (seeds 30 and
# 32 of these went 0.4 and 1.2 seconds before raising AnalysisBudgetError).
@pytest.mark.parametrize("seed", range(0, 120, 3))
def test_views_of_random_clicks_are_counted_and_agree_with_ms_toollib(seed: int) -> None:
    clicks = int(np.random.default_rng(1000 + seed).integers(20, 250))
    view, field = clicked_view(16, 30, 99, clicks, seed)
    analysis = analyze(view, 99)
    hidden = view > MAX_NUMBER
    board = np.where(hidden, 10, view).astype(int).tolist()
    theirs = np.array(ms_toollib.cal_probability_onboard(board, 99)[0])
    assert np.abs(analysis.probability[hidden] - theirs[hidden]).max() < 1e-9
    assert not field.mines[tuple(analysis.safe.T)].any()
    assert field.mines[tuple(analysis.mines.T)].all()


def test_a_wide_view_still_stops_at_a_small_budget() -> None:
    view, _ = clicked_view(16, 30, 99, 105, 30)
    with pytest.raises(AnalysisBudgetError, match="budget"):
        analyze(view, 99, max_states=50)
