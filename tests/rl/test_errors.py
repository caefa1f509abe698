"""What both environments refuse, each refusal of its own class, its message naming what."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")


import minesweep.rl  # noqa: E402
from minesweep.errors import ActionError, MinesweepError, SettingsError  # noqa: E402
from minesweep.frontend import Settings  # noqa: E402
from minesweep.rl import InvalidActionError, MinesweeperEnv, Rewards  # noqa: E402


def test_bad_settings_are_refused_in_one_line() -> None:
    with pytest.raises(SettingsError, match="not both"):
        MinesweeperEnv("beginner", rows=3, cols=3, mines=1)
    with pytest.raises(SettingsError, match="actions must be"):
        MinesweeperEnv("beginner", actions="everything")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="render_mode"):
        MinesweeperEnv("beginner", render_mode="human")


def test_the_vector_env_refuses_bad_input() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(SettingsError, match="num_envs"):
        MinesweeperVectorEnv(0, "beginner")
    vector = MinesweeperVectorEnv(2, "beginner")
    vector.reset(seed=0)
    with pytest.raises(InvalidActionError, match=r"actions must lie in 0\.\.80"):
        vector.step(np.array([0, 81]))
    with pytest.raises(SettingsError, match="give 2 seeds"):
        vector.reset(seed=[1, 2, 3])
    with pytest.raises(InvalidActionError, match="actions must be whole numbers"):
        vector.step(np.array([0.5, 1.0]))
    before = (vector.game_seeds, vector.action_masks())
    with pytest.raises(SettingsError, match="seed must be an int from 0 to 2\\*\\*128 - 1"):
        vector.reset(seed=[1, -2])
    with pytest.raises(SettingsError, match="seed must be an int from 0 to 2\\*\\*128 - 1"):
        vector.reset(seed=2**128 - 1)  # the second board's would be 2**128
    assert vector.game_seeds == before[0]  # nothing changed
    assert np.array_equal(vector.action_masks(), before[1])
    with pytest.raises(SettingsError, match="actions must be 'reveal' or 'all'"):
        MinesweeperVectorEnv(2, "beginner", actions="flags")  # type: ignore[arg-type]
    all_actions = MinesweeperVectorEnv(2, "beginner", actions="all")
    all_actions.reset(seed=0)
    with pytest.raises(InvalidActionError, match=r"actions must lie in 0\.\.242"):
        all_actions.step(np.array([0, 243]))


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda cls: cls(2, "beginner", rows=5, cols=5, mines=3), "not both"),
        (lambda cls: cls(2, "beginner", rewards=Rewards(avoidable_guess=-0.5)), "avoidable"),
        (lambda cls: cls(2, "beginner", rewards="x"), "rewards must be a Rewards"),
        (lambda cls: cls(2, "beginner", invalid_action="raise"), "does not take invalid_action"),
    ],
)
def test_the_vector_env_refuses_what_it_would_not_play_as_asked(make: Any, message: str) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(SettingsError, match=message):
        make(MinesweeperVectorEnv)


@pytest.mark.parametrize("seed", [3.0, True, "7", [1, 2.5]])
def test_the_vector_env_refuses_seeds_that_are_not_whole_numbers(seed: Any) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    vector = MinesweeperVectorEnv(2, "beginner")
    with pytest.raises(SettingsError, match="seed must be"):
        vector.reset(seed=seed)
    vector.reset(seed=0)
    with pytest.raises(InvalidActionError, match="give one action a board: 2, got 3"):
        vector.step(np.array([0, 1, 2]))


#: Settings problems both environments refuse, and what the message must name.
#: The RL's own: which keywords go together.
KEYWORD_PROBLEMS = [
    (
        {"preset": "beginner", "rows": 3, "cols": 3, "mines": 1},
        "not both: got preset 'beginner' and rows, cols, mines",
    ),
    ({"preset": "expert", "mines": 3}, "not both: got preset 'expert' and mines"),
    ({"rows": 5, "cols": 5}, "together: got rows, cols, without mines"),
    ({"mines": 4}, "together: got mines, without rows, cols"),
    ({"actions": "everything"}, "actions must be 'reveal' or 'all', got 'everything'"),
    ({"rewards": "x"}, "rewards must be a Rewards, got 'x'"),
]  # fmt: skip
#: The game's, which Settings decides: a size, a mine count and a rule.
GAME_PROBLEMS = [
    {"preset": "bogus"},
    {"preset": ""},
    {"preset": 5},
    {"rows": 0, "cols": 5, "mines": 1},
    {"rows": "5", "cols": 5, "mines": 3},
    {"rows": True, "cols": 5, "mines": 1},
    {"rows": 5, "cols": 5, "mines": -1},
    {"rows": 5, "cols": 5, "mines": 17},
    {"rows": 3, "cols": 3, "mines": 1, "rule": "safe-ish"},
    {"rows": 10**6, "cols": 10**6, "mines": 1},
]


def _settings_of(options: dict[str, Any]) -> Settings:
    """What the settings themselves say of the same game, in their own keywords."""
    rule = options.get("rule", "opening")
    if "preset" in options:
        return Settings.of(preset=options["preset"], rule=rule)
    size = (options["rows"], options["cols"])
    return Settings.of(size=size, mines=options["mines"], rule=rule)


@pytest.mark.parametrize(("options", "message"), KEYWORD_PROBLEMS)
def test_both_envs_refuse_keywords_that_do_not_go_together(
    options: dict[str, Any], message: str
) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    for make in (MinesweeperEnv, lambda **given: MinesweeperVectorEnv(2, **given)):
        with pytest.raises(SettingsError, match=re.escape(message)) as refused:
            make(**options)
        assert "--" not in str(refused.value)  # the RL's keywords, not the command line's


@pytest.mark.parametrize("options", GAME_PROBLEMS)
def test_both_envs_refuse_a_game_with_the_settings_own_error(options: dict[str, Any]) -> None:
    # The rules of a game are decided once, by Settings: an environment adds
    # no check of its own, and its message is the settings' message.
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(SettingsError) as expected:
        _settings_of(options)
    for make in (MinesweeperEnv, lambda **given: MinesweeperVectorEnv(2, **given)):
        with pytest.raises(SettingsError) as refused:
            make(**options)
        assert str(refused.value) == str(expected.value)
        assert "--" not in str(refused.value)


def test_the_single_envs_own_options_are_refused_by_name() -> None:
    with pytest.raises(SettingsError, match="invalid_action must be 'penalize' or 'raise'"):
        MinesweeperEnv(invalid_action="sometimes")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match=r"render_mode must be one of .*got 'human'"):
        MinesweeperEnv(render_mode="human")
    with pytest.raises(SettingsError, match=r"no-guess games always open .*rule opening"):
        MinesweeperEnv(rule="safe", no_guess=True)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, Settings.of(preset="beginner")),
        ({"preset": "expert", "rule": "safe"}, Settings.of(preset="expert", rule="safe")),
        ({"rows": 4, "cols": 7, "mines": 5, "rule": "none"},
         Settings.of(size=(4, 7), mines=5, rule="none")),
        ({"no_guess": True}, Settings.of(preset="beginner", no_guess=True)),
    ],
)  # fmt: skip
def test_an_env_plays_the_settings_it_was_given(
    options: dict[str, Any], expected: Settings
) -> None:
    # The settings are decided when the environment is built (the default
    # preset is the environment's own); each game adds only its seed to them.
    env = MinesweeperEnv(**options)
    assert env.settings == expected
    env.reset(seed=12)
    game = env.game
    assert (game.shape, game.mine_count) == ((expected.rows, expected.cols), expected.mines)
    assert (game.rule, game.seed) == (expected.rule, 12)


def test_a_bad_action_is_an_invalid_action_error_naming_it() -> None:
    assert issubclass(InvalidActionError, MinesweepError)
    assert "InvalidActionError" in minesweep.rl.__all__
    assert minesweep.rl.InvalidActionError is InvalidActionError
    env = MinesweeperEnv("beginner", actions="all", invalid_action="raise")
    env.reset(seed=1)
    with pytest.raises(InvalidActionError, match=r"outside Discrete\(243\)"):
        env.step(243)
    with pytest.raises(InvalidActionError, match=r"outside Discrete\(243\)"):
        env.step(-1)
    env.step(40)
    with pytest.raises(InvalidActionError, match="masked: flag of row 5, column 5"):
        env.step(81 + 40)
    with pytest.raises(InvalidActionError, match="masked: chord of row 5, column 5"):
        env.step(2 * 81 + 40)


def test_a_step_before_reset_is_an_action_error() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(ActionError, match=r"call reset\(\) before step\(\)"):
        MinesweeperVectorEnv(1, "beginner").step(np.array([0]))
