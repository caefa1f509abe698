"""Certain moves, then the analysis: one loop for the autoplayer and the no-guess check."""

from __future__ import annotations

import numpy as np

from minesweep import Glyph, Minefield, generate_field
from minesweep.solver.certain import play_until_stuck, view_of
from minesweep.squares import Knowledge


def test_a_field_cleared_by_certain_moves_ends_with_every_safe_square_open() -> None:
    field = Minefield.from_text("""
        *..
        ...
        ...
    """)
    state = np.zeros(field.shape, np.uint8)
    start = np.array([8], np.int64)  # the far corner: a blank
    assert play_until_stuck(field.numbers, 1, state, start, np.zeros(0, np.int64)) is None
    assert np.array_equal(state == Knowledge.OPEN, ~field.mines)


def test_a_position_that_needs_a_guess_comes_back_with_its_analysis() -> None:
    for seed in range(50):
        field = generate_field(16, 30, 99, first_click=(0, 0), rule="safe", seed=seed)
        state = np.zeros(field.shape, np.uint8)
        start = np.array([0], np.int64)
        stuck = play_until_stuck(field.numbers, 99, state, start, np.zeros(0, np.int64))
        if stuck is None:
            continue
        assert not len(stuck.analysis.safe)
        assert np.array_equal(stuck.view, view_of(field.numbers, state))
        opened = state == Knowledge.OPEN
        assert not (opened & field.mines).any()  # certain moves never open a mine
        assert (stuck.view[~opened] == Glyph.HIDDEN).all()
        assert np.array_equal(stuck.view[opened], field.numbers[opened])
        return
    raise AssertionError("no expert game of 50 needed a guess")
