"""What every strategy shares: the shape check and the policy's tuning."""

from __future__ import annotations

import pytest

from minesweep import InvalidBoardError, SettingsError
from minesweep.formats import parse_view
from minesweep.presets import STRENGTHS
from minesweep.solver import analyze
from minesweep.solver.endgame import isolated_guess
from minesweep.solver.fiftyfifty import forced_fifty_fifty
from minesweep.solver.guess import DEFAULT_POLICY, PolicyConfig
from minesweep.solver.policy import choose_guess


def test_a_view_of_another_shape_than_the_analysis_is_refused() -> None:
    analysis = analyze(parse_view("1#\n##\n"), 1)
    other = parse_view("1##\n###\n")
    for guess in (choose_guess, isolated_guess, forced_fifty_fifty):
        with pytest.raises(InvalidBoardError, match="the view is 2x3 but the analysis is of a 2x2"):
            guess(analysis, other)


def test_the_policy_tuning_is_one_frozen_object() -> None:
    import dataclasses

    assert PolicyConfig() == DEFAULT_POLICY
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_POLICY.long_term = False  # type: ignore[misc]
    tuned = dataclasses.replace(DEFAULT_POLICY, endgame_layouts=1)
    assert tuned.endgame_layouts == 1
    assert DEFAULT_POLICY.endgame_layouts == 2000


def test_every_named_strength_is_a_tuning_and_default_is_the_default() -> None:
    assert STRENGTHS == ("fast", "default", "strongest")
    assert PolicyConfig.preset("default") is DEFAULT_POLICY
    fast = PolicyConfig.preset("fast")
    # The exact probabilities and the searches stay; the lookahead goes.
    assert (fast.lookahead, fast.long_term) == (False, False)
    assert (fast.isolated_layouts, fast.tolerance) == (
        DEFAULT_POLICY.isolated_layouts,
        DEFAULT_POLICY.tolerance,
    )
    assert 0 < fast.endgame_layouts < DEFAULT_POLICY.endgame_layouts
    # Without the lookahead, Tu's tie-break weighs the plain choice's window.
    assert fast.progress_candidates > 0 == DEFAULT_POLICY.progress_candidates
    # strongest: the default's rules, every budget at least the default's.
    strongest = PolicyConfig.preset("strongest")
    assert (strongest.lookahead, strongest.long_term, strongest.dead_last) == (True, True, True)
    budgets = (
        "endgame_squares",
        "endgame_layouts",
        "endgame_nodes",
        "isolated_layouts",
        "lookahead_interior",
        "lookahead_candidates",
        "living_search",
        "pair_missing",
        "block_missing",
    )
    for name in budgets:
        assert getattr(strongest, name) >= getattr(DEFAULT_POLICY, name), name
    assert strongest.lookahead_cut <= DEFAULT_POLICY.lookahead_cut
    # ... and it looks further at guess points: a survival search the default leaves off.
    assert strongest.survival_depth == 3
    assert DEFAULT_POLICY.survival_depth == 0
    assert strongest != DEFAULT_POLICY


def test_an_unknown_strength_names_the_known_ones() -> None:
    message = "unknown strength 'strong': choose one of fast, default, strongest"
    with pytest.raises(SettingsError, match=message):
        PolicyConfig.preset("strong")
