"""No-guess fields: cleared by certain moves alone, found within a budget."""

from __future__ import annotations

import pytest

from minesweep import generate_field
from minesweep.solver import (
    AnalysisBudgetError,
    NoGuessBudgetError,
    clears_without_guessing,
    generate_no_guess,
)

from .helpers import clears_by_exact_analysis


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "click"),
    [(9, 9, 10, (4, 4)), (16, 16, 40, (0, 0)), (16, 30, 99, (8, 15)), (5, 30, 25, (2, 2))],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_guess_fields_are_cleared_without_guessing(
    rows: int, cols: int, mines: int, click: tuple[int, int], seed: int
) -> None:
    result = generate_no_guess(rows, cols, mines, first_click=click, seed=seed)
    assert result.field.mine_count == mines
    assert result.field.numbers[click] == 0
    assert clears_by_exact_analysis(result.field, click)
    again = generate_no_guess(rows, cols, mines, first_click=click, seed=seed)
    assert again.field == result.field


def test_no_guess_refuses_to_return_a_board_that_needs_a_guess() -> None:
    # Find a seed whose first attempt needs a guess: with one attempt allowed,
    # the generator must say so rather than return it.
    for seed in range(50):
        first = generate_field(16, 30, 99, first_click=(8, 15), seed=_first_attempt_seed(seed))
        if not clears_by_exact_analysis(first, (8, 15)):
            break
    with pytest.raises(NoGuessBudgetError, match="in 1 attempts"):
        generate_no_guess(16, 30, 99, first_click=(8, 15), seed=seed, max_attempts=1)


def _first_attempt_seed(seed: int) -> int:
    return _attempt_seed_of(seed, 0)


def _attempt_seed_of(seed: int, attempt: int) -> int:
    from minesweep.solver.noguess import _attempt_seed

    return _attempt_seed(seed, attempt)


def test_no_guess_skips_fields_beyond_the_state_budget() -> None:
    # With a budget of one state, a field that needs the exact analysis is
    # over budget. Seed 12's first two attempts are such fields: the
    # generator must skip them rather than raise, and what it returns must
    # still clear.
    result = generate_no_guess(9, 9, 10, first_click=(4, 4), seed=12, max_states=1)
    assert result.attempt == 2
    assert clears_by_exact_analysis(result.field, (4, 4))
    for attempt in range(result.attempt):
        skipped = generate_field(
            9, 9, 10, first_click=(4, 4), rule="opening", seed=_attempt_seed_of(12, attempt)
        )
        with pytest.raises(AnalysisBudgetError, match="budget of partial layouts"):
            clears_without_guessing(skipped, (4, 4), max_states=1)


def test_no_guess_impossible_density_runs_out_of_time() -> None:
    with pytest.raises(NoGuessBudgetError, match=r"found in 0\.2 s"):
        generate_no_guess(10, 10, 85, first_click=(5, 5), seed=1, max_seconds=0.2)
