"""The plain policy's game in one compiled call (``solver/_play.py``).

Its analysis is checked against :func:`minesweep.solver.analyze` on random
positions, and whole games against the same games played step by step in
Python (``play_game(..., compiled=False)``: the Python analysis, certain
moves and policy, which calls the same guessing kernels), with the
searches' bounds moved so that they run often, seldom, or never. The
guessing kernels themselves are tested through the policy's functions
(``test_endgame.py``, ``test_fiftyfifty.py``, ``test_policy.py``) against
references written from the rules.
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
from minesweep.solver._plain import plain_analysis
from minesweep.solver._play import knobs
from minesweep.solver.counting import ComponentCache
from minesweep.solver.guess import PolicyConfig

from .helpers import midgame

FAST = PolicyConfig.preset("fast")


def _kernel_analysis(view: np.ndarray, mines: int) -> tuple[Any, ...]:
    k = knobs(FAST, view.size)
    found = plain_analysis(view, mines, k.wide, -1, k.max_coefficients, k.tiny, k.plain_components)
    return tuple(found)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(midgame())
def test_the_compiled_analysis_is_the_analysis_to_the_bit(game: Game) -> None:
    view = np.ascontiguousarray(game.glyphs(), np.uint8)
    try:
        # The Python path: a cache of its own keeps analyze off the compiled one.
        expected = analyze(view, game.mine_count, max_states=None, cache=ComponentCache())
    except ValueError:
        assume(False)
    found = _kernel_analysis(view, game.mine_count)
    assume(found[0])  # off the plain path (pieces, overflow): handed back, tested by games
    probability, safe, mine, log_layouts = found[1:5]
    np.testing.assert_array_equal(probability, expected.probability)
    assert np.argwhere(safe).tolist() == expected.safe.tolist()
    assert np.argwhere(mine).tolist() == expected.mines.tolist()
    assert log_layouts == expected.log_layouts


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
        {},  # fast: the endgame searches hand back, the window weighed by progress
        {"endgame_layouts": 1, "isolated_layouts": 1},  # nearly never hands back
        {"endgame_squares": 0, "tolerance": 0.03},  # the isolated search, wider ties
        # The lookahead ("50/50 or safe", the weighed candidates) as the default plays it,
        {"lookahead": True, "long_term": True, "endgame_layouts": 2000},
        # without the 50/50 weighing, dead squares allowed, a wide cut,
        {"lookahead": True, "dead_last": False, "lookahead_cut": 0.5},
        # and with few candidates and a short search for a living square.
        {"lookahead": True, "long_term": True, "lookahead_candidates": 3, "living_search": 2},
        # The plain choice alone (fast weighs its window by progress, Tu's
        # PSEQ tie-break),
        {"progress_candidates": 0},
        # on exact ties only, few of them, dead squares allowed.
        {"progress_candidates": 3, "tolerance": 1e-9, "dead_last": False},
        # The survival search after the lookahead, on a small budget (so that
        # it both answers and runs out).
        {"lookahead": True, "long_term": True, "survival_depth": 3, "survival_nodes": 300},
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


@pytest.mark.parametrize(
    ("preset", "rule", "click"), [("expert", "safe", "corner"), ("expert", "opening", "3,3")]
)
def test_a_compiled_game_is_the_python_game_at_the_strongest_setting(
    preset: str, rule: str, click: str
) -> None:
    config = PlayConfig.preset(preset, rule=rule, first_click=click, strength="strongest")
    for seed in range(8):
        compiled = play_game(config, seed)
        python = play_game(config, seed, compiled=False)
        assert (compiled.won, compiled.guesses, compiled.opened) == (
            python.won,
            python.guesses,
            python.opened,
        ), seed


def test_a_runs_tuning_is_made_once_and_is_the_policys() -> None:
    from minesweep.solver.compiled_game import tuning

    policy = replace(FAST, endgame_layouts=321)
    made = tuning(policy, 480)
    assert tuning(replace(FAST, endgame_layouts=321), 480) is made  # an equal policy: the same
    fresh = knobs(policy, 480)
    for name, value in fresh._asdict().items():
        np.testing.assert_array_equal(getattr(made, name), value, err_msg=name)
    assert tuning(policy, 481) is not made
    assert tuning(policy, 481).log_factorial.shape == (482,)
