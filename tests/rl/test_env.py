"""The single environment (MinesweeperEnv): checker, ids, seeds, rewards, features, agents."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from minesweep import Game, GameStatus  # noqa: E402
from minesweep.formats import to_view  # noqa: E402
from minesweep.rl import InvalidActionError, MinesweeperEnv, Rewards  # noqa: E402
from minesweep.solver import analyze  # noqa: E402
from minesweep.squares import GLYPH_FLAG, GLYPH_HIDDEN  # noqa: E402

from .helpers import play_randomly  # noqa: E402


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"actions": "all"},
        {"solver_features": True},
        {"no_guess": True},
        {"rows": 5, "cols": 7, "mines": 6, "rule": "none"},
    ],
)
@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_gymnasiums_checker_passes(options: dict[str, Any], render_mode: str) -> None:
    if "rows" in options:
        options = {"preset": None, **options}
    # Through gymnasium.make, so the checker can try the other render modes too.
    check_env(gymnasium.make("minesweep/Beginner-v0", render_mode=render_mode, **options).unwrapped)


@pytest.mark.parametrize(
    ("name", "shape", "rule", "no_guess"),
    [
        ("minesweep/Beginner-v0", (9, 9), "opening", False),
        ("minesweep/IntermediateSafe-v0", (16, 16), "safe", False),
        ("minesweep/ExpertNoGuess-v0", (16, 30), "opening", True),
    ],
)
def test_registered_ids(name: str, shape: tuple[int, int], rule: str, no_guess: bool) -> None:
    env = gymnasium.make(name).unwrapped
    assert isinstance(env, MinesweeperEnv)
    assert (env.rows, env.cols) == shape
    assert (env.settings.rule.value, env.settings.no_guess) == (rule, no_guess)


def test_a_seed_replays_the_same_game_and_the_engines_field() -> None:
    first = play_randomly(MinesweeperEnv("beginner"), 11, np.random.default_rng(5))
    again = play_randomly(MinesweeperEnv("beginner"), 11, np.random.default_rng(5))
    assert len(first) == len(again)
    assert np.array_equal(first[0], again[0])
    for one, other in zip(first[1:], again[1:], strict=True):
        assert one[0] == other[0]
        assert np.array_equal(one[1], other[1])
        assert one[2:] == other[2:]
    # Seed s is the engine's game s: the same field as Game(..., seed=s).
    env = MinesweeperEnv("expert", rule="safe")
    env.reset(seed=42)
    env.step(0)
    game = Game.new("expert", rule="safe", seed=42)
    game.reveal(0, 0)
    assert env.game.field is not None
    assert game.field is not None
    assert np.array_equal(env.game.field.mines, game.field.mines)


def test_rewards_add_up_for_a_win_and_a_loss() -> None:
    env = MinesweeperEnv("beginner")
    # A win: reveal every safe square (the test may know the field).
    _, info = env.reset(seed=3)
    _, first, done, _, info = env.step(40)
    total = float(first)
    field = env.game.field
    assert field is not None
    for square in np.flatnonzero(~field.mines.reshape(-1)):
        if done:
            break
        if info["action_mask"][square]:
            _, stepped, done, _, info = env.step(int(square))
            total += float(stepped)
    assert env.game.status is GameStatus.WON
    assert total == pytest.approx(Rewards().win + Rewards().progress)
    # A loss after some progress: the progress so far, then the loss.
    _, info = env.reset(seed=3)
    view, progress, _, _, info = env.step(40)
    opened = int(np.count_nonzero(view <= 8))
    assert float(progress) == pytest.approx(Rewards().progress * opened / 71)
    mine = int(np.flatnonzero(field.mines.reshape(-1))[0])
    _, reward, done, _, info = env.step(mine)
    assert done
    assert env.game.status is GameStatus.LOST  # type: ignore[comparison-overlap]
    assert reward == Rewards().loss


def test_an_invalid_action_changes_nothing_and_costs_or_raises() -> None:
    env = MinesweeperEnv("beginner", rewards=Rewards(invalid=-0.5))
    env.reset(seed=1)
    env.step(40)
    before = env.game.glyphs().copy()
    history = len(env.game.history)
    _, reward, done, _, _ = env.step(40)  # open already
    assert (reward, done) == (-0.5, False)
    assert np.array_equal(env.game.glyphs(), before)
    assert len(env.game.history) == history
    strict = MinesweeperEnv("beginner", invalid_action="raise")
    strict.reset(seed=1)
    strict.step(40)
    with pytest.raises(InvalidActionError, match="masked: reveal of row 5, column 5"):
        strict.step(40)
    assert issubclass(InvalidActionError, ValueError)
    with pytest.raises(InvalidActionError, match="outside Discrete\\(81\\)"):
        strict.step(81)


def test_an_avoidable_guess_costs_what_it_is_set_to() -> None:
    env = MinesweeperEnv("beginner", rewards=Rewards(avoidable_guess=-0.3, progress=0.0))
    for seed in range(50):
        env.reset(seed=seed)
        env.step(40)
        if env.game.is_over:
            continue
        view = env.game.glyphs()
        analysis = analyze(view, 10)
        if not len(analysis.safe):
            continue
        risky = [
            int(r) * 9 + int(c)
            for r, c in np.argwhere(analysis.probability > 0)
            if analysis.probability[r, c] < 1
        ]
        if not risky:
            continue
        safe_row, safe_col = (int(v) for v in analysis.safe[0])
        # The safe square costs nothing; a risky one, played from the same position, costs.
        _, reward, _, _, _ = env.step(safe_row * 9 + safe_col)
        assert reward == 0.0
        env.reset(seed=seed)
        env.step(40)
        _, reward, _, _, _ = env.step(risky[0])
        assert float(reward) in (-0.3, -0.3 + Rewards().loss)
        return
    pytest.fail("no position with a safe square and a risky one in 50 seeds")


def test_solver_features_are_the_solvers_probabilities() -> None:
    env = MinesweeperEnv("intermediate", solver_features=True)
    observation, _ = env.reset(seed=8)
    density = 40 / 256
    assert np.allclose(observation["probability"], density)
    observation, *_ = env.step(8 * 16 + 8)
    view = observation["view"]
    expected = analyze(view, 40).probability
    served = observation["probability"]
    assert np.array_equal(served == -1.0, np.isnan(expected))
    assert np.allclose(served[~np.isnan(expected)], expected[~np.isnan(expected)], atol=1e-6)


def test_renders_are_the_view_and_a_picture() -> None:
    env = MinesweeperEnv("beginner", render_mode="ansi")
    env.reset(seed=2)
    env.step(40)
    assert env.render() == to_view(env.game.glyphs()) + "\n"
    pictured = MinesweeperEnv("expert", render_mode="rgb_array")
    pictured.reset(seed=2)
    pictured.step(8 * 30 + 15)
    image = pictured.render()
    assert image.shape == (16 * 16, 30 * 16, 3)
    assert image.dtype == np.uint8
    # An open square and a hidden one are drawn in different colours.
    glyphs = pictured.game.glyphs()
    open_at = np.argwhere(glyphs == 0)[0]
    hidden_at = np.argwhere(glyphs == GLYPH_HIDDEN)[0]
    assert not np.array_equal(image[open_at[0] * 16 + 1, open_at[1] * 16 + 1],
                              image[hidden_at[0] * 16 + 1, hidden_at[1] * 16 + 1])  # fmt: skip


def test_a_finished_game_must_be_reset() -> None:
    env = MinesweeperEnv(rows=2, cols=2, mines=1, rule="safe")
    env.reset(seed=0)
    _, _, done, _, info = env.step(0)
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(InvalidActionError, match="call reset"):
        env.step(0)


def test_the_flag_block_toggles_a_flag_on_and_off() -> None:
    env = MinesweeperEnv("beginner", actions="all")
    env.reset(seed=1)
    flag_corner = env.squares + 80
    view, reward, _, _, info = env.step(flag_corner)
    assert view[8, 8] == GLYPH_FLAG
    assert env.game.flags == 1
    assert reward == 0.0
    assert info["action_mask"][flag_corner]
    assert not info["action_mask"][80]
    view, reward, _, _, info = env.step(flag_corner)
    assert view[8, 8] == GLYPH_HIDDEN
    assert env.game.flags == 0
    assert reward == 0.0
    assert info["action_mask"][80]


@pytest.mark.parametrize(
    ("preset", "rule", "first_click", "games"),
    [("beginner", "safe", "corner", 150), ("intermediate", "opening", "3,3", 40)],
)
def test_the_solver_agent_wins_what_bench_play_wins_on_the_same_seeds(
    preset: str,
    rule: str,
    first_click: str,
    games: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from minesweep.cli import main
    from minesweep.rl.agents import SolverAgent

    env = MinesweeperEnv(preset, rule=rule)
    click = (0, 0) if first_click == "corner" else (3, 3)
    agent = SolverAgent(env, first_click=click)
    won = []
    for seed in range(games):
        observation, info = env.reset(seed=seed)
        done = False
        while not done:
            observation, _, done, _, info = env.step(agent.act(observation, info))
        won.append(env.game.status is GameStatus.WON)
    status = main(
        ["bench", "play", "--preset", preset, "--rule", rule, "--first-click", first_click,
         "--games", str(games), "--seed", "0", "--workers", "1", "--quiet"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert status in (0, None)
    assert f"wins       {sum(won)} of {games}\n" in out
    # Game by game, too.
    from minesweep.autoplay import PlayConfig, play_game

    config = PlayConfig.preset(preset, rule=rule, first_click=first_click)
    assert won == [play_game(config, seed).won for seed in range(games)]


def test_a_random_agent_plays_to_the_end() -> None:
    from minesweep.rl.agents import RandomAgent

    env = MinesweeperEnv("beginner", actions="all")
    agent = RandomAgent(seed=4)
    observation, info = env.reset(seed=4)
    done, steps = False, 0
    while not done and steps < 1000:
        observation, _, done, _, info = env.step(agent.act(observation, info))
        steps += 1
    assert done


def test_nothing_in_the_core_imports_gymnasium() -> None:
    import subprocess
    import sys

    code = "import sys, minesweep, minesweep.frontend; print('gymnasium' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
