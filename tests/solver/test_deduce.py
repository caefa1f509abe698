"""The compiled rules of certain moves: they never make a wrong move."""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from minesweep import generate_field
from minesweep.solver import clears_without_guessing
from minesweep.solver._deduce import play_certain_moves, resume_certain_moves

from .helpers import clears_by_exact_analysis


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(9, 9, 10), (16, 16, 40), (16, 30, 99)]))
# Found by CI: the reference player meets a 91-square frontier in one piece,
# beyond the default state budget, so both players here count without limit.
@example(6155, (16, 30, 99))
def test_the_fast_rules_only_make_certain_moves(seed: int, size: tuple[int, int, int]) -> None:
    rows, cols, mines = size
    click = (rows // 2, cols // 2)
    field = generate_field(rows, cols, mines, first_click=click, seed=seed)
    state = np.zeros(field.shape, np.uint8)
    left = play_certain_moves(
        field.numbers,
        mines,
        state,
        np.array([click[0] * cols + click[1]], np.int64),
        np.zeros(0, np.int64),
    )
    assert not (field.mines & (state == 1)).any()  # nothing opened is a mine
    assert (field.mines[state == 2]).all()  # everything marked is a mine
    opened = int((state == 1).sum())
    assert left == field.size - mines - opened
    # Whatever the rules clear, the exact player clears too; and the rules
    # with the exact analysis behind them clear exactly what it clears.
    exact = clears_by_exact_analysis(field, click)
    if left == 0:
        assert exact
    assert clears_without_guessing(field, click, max_states=None) == exact


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from([(9, 9, 10), (16, 16, 40), (16, 30, 99)]),
    st.integers(0, 2**32),
    st.integers(1, 4),
)
def test_resuming_a_stuck_position_reaches_the_full_replay(
    seed: int, size: tuple[int, int, int], pick: int, steps: int
) -> None:
    # Positions as the compiled game meets them: the rules left stuck, then
    # squares known safe and mines known (from the field, as an analysis or
    # a lucky guess would know them) played on, a few times over. Resuming
    # must reach the position the full replay of every number reaches, even
    # the mines marked when the last safe square opens (the rules stop there,
    # wherever their queue was: seed 182 on beginner showed it).
    rows, cols, mines = size
    field = generate_field(rows, cols, mines, first_click=(0, 0), seed=seed)
    state = np.zeros(field.shape, np.uint8)
    first = np.zeros(1, np.int64)
    left = play_certain_moves(field.numbers, mines, state, first, np.zeros(0, np.int64))
    random = np.random.default_rng(pick)
    for _ in range(steps):
        if left == 0:
            break
        unknown = state.ravel() == 0
        safe = np.flatnonzero(unknown & ~field.mines.ravel())
        known = np.flatnonzero(unknown & field.mines.ravel())
        opens = random.choice(
            safe, size=int(random.integers(1, min(3, safe.size) + 1)), replace=False
        )
        sure = random.choice(known, size=int(random.integers(0, known.size + 1)), replace=False)
        opens = np.sort(opens).astype(np.int64)
        sure = np.sort(sure).astype(np.int64)
        replayed = state.copy()
        expected = play_certain_moves(field.numbers, mines, replayed, opens, sure)
        left = resume_certain_moves(field.numbers, mines, state, opens, sure)
        assert left == expected
        np.testing.assert_array_equal(state, replayed)
