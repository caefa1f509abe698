"""The plain policy's game in one compiled call (``solver/_play.py``).

Every piece is checked against the Python code it stands in for, on random
positions, and whole games against the same games played step by step in
Python (``play_game(..., compiled=False)``), with the searches' bounds moved
so that the kernel hands back to Python often, seldom, or never.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

from minesweep import Game
from minesweep.autoplay import PlayConfig, play_game
from minesweep.solver import analyze
from minesweep.solver._play import (
    _analysis,
    _endgame,
    _forced_fifty_fifty,
    _isolated,
    _plain_guess,
    knobs,
)
from minesweep.solver.endgame import endgame_guess, isolated_guess
from minesweep.solver.fiftyfifty import forced_fifty_fifty
from minesweep.solver.guess import PolicyConfig
from minesweep.solver.policy import choose_guess

from .helpers import midgame, stuck

FAST = PolicyConfig.preset("fast")


def _kernel_analysis(view: np.ndarray, mines: int) -> tuple[Any, ...]:
    k = knobs(FAST)
    return tuple(_analysis(view, mines, k.wide, k.max_coefficients, k.tiny, k.plain_components))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(midgame())
def test_the_compiled_analysis_is_the_analysis_to_the_bit(game: Game) -> None:
    view = np.ascontiguousarray(game.glyphs(), np.uint8)
    try:
        expected = analyze(view, game.mine_count, max_states=None)
    except ValueError:
        assume(False)
    found = _kernel_analysis(view, game.mine_count)
    assume(found[0])  # off the plain path (pieces, overflow): handed back, tested by games
    probability, safe, mine, log_layouts = found[1:5]
    np.testing.assert_array_equal(probability, expected.probability)
    assert np.argwhere(safe).tolist() == expected.safe.tolist()
    assert np.argwhere(mine).tolist() == expected.mines.tolist()
    assert log_layouts == expected.log_layouts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(midgame())
def test_the_compiled_guesses_are_the_policy_s(game: Game) -> None:
    view, analysis = stuck(game)
    view = np.ascontiguousarray(view, np.uint8)
    found = _kernel_analysis(view, game.mine_count)
    assume(found[0])
    _, probability, _, mine, _, w_start, layouts, c_start, c_groups, g_start, g_cells = found
    forced = forced_fifty_fifty(analysis, view)
    square = _forced_fifty_fifty(view, probability, mine)
    assert (square // view.shape[1], square % view.shape[1]) == forced if forced else square == -1
    cols = view.shape[1]
    k = knobs(FAST)
    parts = (c_start, c_groups, g_start, g_cells)
    isolated = isolated_guess(analysis, view, config=FAST)
    square = _isolated(
        view, mine, w_start, layouts, *parts, k.isolated_log, k.isolated_layouts, k.nodes
    )
    assert (
        (square // cols, square % cols) == (isolated.row, isolated.col) if isolated else square < 0
    )
    endgame = endgame_guess(view, game.mine_count, analysis.mines, config=FAST)
    square = _endgame(view, mine, game.mine_count, k.endgame_squares, k.endgame_layouts, k.nodes)
    assert (square // cols, square % cols) == (endgame.row, endgame.col) if endgame else square < 0
    plain = choose_guess(analysis, view, lookahead=False, config=FAST)
    if "lowest risk" in plain.reason:
        guess = _plain_guess(probability, FAST.tolerance, FAST.opening_weight)
        assert (guess // view.shape[1], guess % view.shape[1]) == (plain.row, plain.col)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("preset", "rule", "click"),
    [
        ("beginner", "safe", "corner"),
        ("intermediate", "opening", "3,3"),
        ("expert", "safe", "corner"),
        ("expert", "opening", "3,3"),
    ],
)
@pytest.mark.parametrize(
    "tuning",
    [
        {},  # fast: the endgame searches hand back
        {"endgame_layouts": 1, "isolated_layouts": 1},  # nearly never hands back
        {"endgame_squares": 0, "tolerance": 0.03},  # the isolated search, wider ties
    ],
)
def test_a_compiled_game_is_the_python_game(
    preset: str, rule: str, click: str, tuning: dict[str, Any]
) -> None:
    config = replace(
        PlayConfig.preset(preset, rule=rule, first_click=click), policy=replace(FAST, **tuning)
    )
    ends: list[np.ndarray] = []
    for seed in range(40):
        ends.clear()
        compiled = play_game(config, seed, on_end=lambda state: ends.append(state.copy()))
        python = play_game(
            config, seed, on_end=lambda state: ends.append(state.copy()), compiled=False
        )
        assert (compiled.won, compiled.guesses, compiled.opened) == (
            python.won,
            python.guesses,
            python.opened,
        ), seed
        assert len(ends) in (0, 2)
        if ends:
            np.testing.assert_array_equal(ends[0], ends[1])
