"""The Gymnasium environment (minesweep.rl): checker, seeds, masks, rewards, features, pictures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from minesweep import Action, ActionKind, Game, GameStatus  # noqa: E402
from minesweep.errors import ActionError, SettingsError  # noqa: E402
from minesweep.formats import to_view  # noqa: E402
from minesweep.rl import InvalidActionError, MinesweeperEnv, Rewards  # noqa: E402
from minesweep.solver import analyze  # noqa: E402
from minesweep.squares import GLYPH_FLAG, GLYPH_HIDDEN  # noqa: E402


def play_randomly(env: MinesweeperEnv, seed: int, rng: np.random.Generator) -> list[Any]:
    """A game of random masked actions; every (observation, reward, done) on the way."""
    observation, info = env.reset(seed=seed)
    trace: list[Any] = [np.array(observation, copy=True)]
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated
        trace.append((action, np.array(observation, copy=True), reward, done))
    return trace


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


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.integers(0, 3 * 36 - 1), max_size=25))
def test_masks_say_exactly_which_actions_change_the_game(seed: int, picks: list[int]) -> None:
    # The reference: apply each action to a copy of the game and see whether
    # anything changed (the engine's own effect), for every action index.
    env = MinesweeperEnv(rows=6, cols=6, mines=7, actions="all")
    _, info = env.reset(seed=seed)
    for pick in picks:
        mask = info["action_mask"]
        game = env.game
        for index in range(env.action_count):
            block, square = divmod(index, 36)
            row, col = divmod(square, 6)
            kind = (ActionKind.REVEAL, ActionKind.FLAG, ActionKind.CHORD)[block]
            glyph = int(game.glyphs()[row, col])
            if kind is ActionKind.FLAG and glyph == GLYPH_FLAG:
                kind = ActionKind.UNFLAG
            copy = Game.replay(game, game.history)
            effect = copy.push(Action(kind, row, col))
            changes = effect.effective and (kind is not ActionKind.REVEAL or glyph == GLYPH_HIDDEN)
            assert bool(mask[index]) == changes, (index, kind, row, col)
        allowed = np.flatnonzero(mask)
        if env.game.is_over or not len(allowed):
            break
        chosen = int(allowed[pick % len(allowed)])
        block, square = divmod(chosen, 36)
        kind = (ActionKind.REVEAL, ActionKind.FLAG, ActionKind.CHORD)[block]
        if kind is ActionKind.FLAG and int(game.glyphs().reshape(-1)[square]) == GLYPH_FLAG:
            kind = ActionKind.UNFLAG
        reference = Game.replay(game, game.history)
        reference.push(Action(kind, *divmod(square, 6)))
        view, _, done, _, info = env.step(chosen)
        assert np.array_equal(view, reference.glyphs())  # the step does what the mask promised
        if done:
            assert not info["action_mask"].any()
            break


def test_rewards_add_up_for_a_win_and_a_loss() -> None:
    env = MinesweeperEnv("beginner")
    # A win: reveal every safe square (the test may know the field).
    _, info = env.reset(seed=3)
    _, total, done, _, info = env.step(40)
    field = env.game.field
    assert field is not None
    for square in np.flatnonzero(~field.mines.reshape(-1)):
        if done:
            break
        if info["action_mask"][square]:
            _, reward, done, _, info = env.step(int(square))
            total += float(reward)
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
    assert env.game.status is GameStatus.LOST
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
    with pytest.raises(InvalidActionError, match="masked: reveal of \\(4, 4\\)"):
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


def test_bad_settings_are_refused_in_one_line() -> None:
    with pytest.raises(SettingsError, match="not both"):
        MinesweeperEnv("beginner", rows=3, cols=3, mines=1)
    with pytest.raises(SettingsError, match="actions must be"):
        MinesweeperEnv("beginner", actions="everything")  # type: ignore[arg-type]
    with pytest.raises(SettingsError, match="render_mode"):
        MinesweeperEnv("beginner", render_mode="human")


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


@pytest.mark.parametrize(
    ("options", "boards", "steps", "seed"),
    [
        ({"preset": "beginner"}, 6, 300, 50),
        ({"preset": "intermediate", "rule": "safe"}, 3, 150, 2**64 + 7),
        ({"rows": 6, "cols": 5, "mines": 5, "rule": "none"}, 4, 200, 3),
        # Past half the allowed squares: the draw picks the free ones.
        ({"rows": 4, "cols": 5, "mines": 9, "rule": "opening"}, 4, 200, 9),
        ({"rows": 1, "cols": 7, "mines": 4, "rule": "safe"}, 3, 100, 2**127),
        # Flags and chords: wrong flags, chords that open and chords that lose.
        ({"preset": "beginner", "actions": "all"}, 6, 400, 21),
        ({"rows": 5, "cols": 5, "mines": 6, "rule": "none", "actions": "all"}, 6, 400, 5),
    ],
)
def test_the_vector_env_plays_the_games_of_single_envs(
    options: dict[str, Any], boards: int, steps: int, seed: int
) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    vector = MinesweeperVectorEnv(boards, **options)
    if "rows" in options:
        options = {"preset": None, **options}
    singles = [MinesweeperEnv(**options) for _ in range(boards)]
    observations, info = vector.reset(seed=seed)
    assert vector.game_seeds == [seed + board for board in range(boards)]
    for board, env in enumerate(singles):
        alone, _ = env.reset(seed=seed + board)  # SyncVectorEnv seeds its copies so
        assert np.array_equal(observations[board], alone)
    rng = np.random.default_rng(1)
    resetting = [False] * boards
    ends = 0
    squares = vector.rows * vector.cols
    chords = 0
    for _ in range(steps):
        masks = info["action_mask"]
        assert masks.shape == (boards, singles[0].action_count)
        for board, env in enumerate(singles):
            assert np.array_equal(masks[board], env.action_masks())
        # A finished board's action is not taken (it resets): any will do.
        # Chords are rare among random actions: take one when there is one.
        actions = np.array(
            [
                int(rng.choice(np.flatnonzero(mask[2 * squares :]))) + 2 * squares
                if mask[2 * squares :].any()
                else int(rng.choice(np.flatnonzero(mask)))
                if mask.any()
                else 0
                for mask in masks
            ]
        )
        chords += int((actions >= 2 * squares).sum()) if masks.shape[1] > squares else 0
        observations, rewards, terminated, truncated, info = vector.step(actions)
        assert not truncated.any()
        for board, env in enumerate(singles):
            if resetting[board]:  # Gymnasium's NEXT_STEP autoreset
                alone, alone_info = env.reset()
                reward, done = 0.0, False
            else:
                alone, reward, done, _, alone_info = env.step(int(actions[board]))
            assert info["status"][board] == alone_info["status"]
            assert np.array_equal(observations[board], alone)
            assert rewards[board] == pytest.approx(float(reward), abs=1e-12)
            assert bool(terminated[board]) == done
            assert vector.game_seeds[board] == env.game_seed
            resetting[board] = done
            ends += done
    assert ends > boards  # the run went through autoresets
    if "actions" in options:
        assert chords > boards  # and through chords


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
    with pytest.raises(ValueError, match="seed must be an int from 0 to 2\\*\\*128 - 1"):
        vector.reset(seed=[1, -2])
    with pytest.raises(ValueError, match="seed must be an int from 0 to 2\\*\\*128 - 1"):
        vector.reset(seed=2**128 - 1)  # the second board's would be 2**128
    assert vector.game_seeds == before[0]  # nothing changed
    assert np.array_equal(vector.action_masks(), before[1])
    with pytest.raises(SettingsError, match="actions must be 'reveal' or 'all'"):
        MinesweeperVectorEnv(2, "beginner", actions="flags")  # type: ignore[arg-type]
    all_actions = MinesweeperVectorEnv(2, "beginner", actions="all")
    all_actions.reset(seed=0)
    with pytest.raises(InvalidActionError, match=r"actions must lie in 0\.\.242"):
        all_actions.step(np.array([0, 243]))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**128 - 1))
def test_the_compiled_pcg64_is_numpys(seed: int) -> None:
    from minesweep._vector_kernels import next_word, seed_pcg64

    generator = np.empty(4, np.uint64)
    seed_pcg64(np.uint64(seed & (2**64 - 1)), np.uint64(seed >> 64), generator)
    reference = np.random.PCG64(seed)  # through SeedSequence, as the engine seeds it
    words = reference.state["state"]
    assert [int(word) for word in generator] == [
        words["state"] >> 64,
        words["state"] & (2**64 - 1),
        words["inc"] >> 64,
        words["inc"] & (2**64 - 1),
    ]
    assert [int(next_word(generator)) for _ in range(4)] == reference.random_raw(4).tolist()


@settings(max_examples=300, deadline=None)
@given(
    # Up to 30x30, so that some draws run past the engine's first batch of words.
    rows=st.integers(1, 30),
    cols=st.integers(1, 30),
    density=st.floats(0, 1),
    rule=st.sampled_from(["none", "safe", "opening"]),
    seed=st.integers(0, 2**128 - 1),
    data=st.data(),
)
def test_the_compiled_field_is_the_engines(
    rows: int, cols: int, density: float, rule: str, seed: int, data: st.DataObject
) -> None:
    from minesweep._vector_kernels import RULE_NONE, RULE_OPENING, RULE_SAFE, lay_field
    from minesweep.generate import generate_field

    first = data.draw(st.integers(0, rows * cols - 1))
    row, col = divmod(first, cols)
    box = (min(row + 1, rows - 1) - max(row - 1, 0) + 1) * (
        min(col + 1, cols - 1) - max(col - 1, 0) + 1
    )
    kept = {"none": 0, "safe": 1, "opening": box}[rule]
    room = rows * cols - kept
    # Every count from none to every allowed square (a board full of mines too).
    count = min(int(density * (room + 1)), room)
    field = generate_field(rows, cols, count, first_click=divmod(first, cols), rule=rule, seed=seed)
    mines = np.ones((rows, cols), np.bool_)
    numbers = np.full((rows, cols), 99, np.uint8)
    code = {"none": RULE_NONE, "safe": RULE_SAFE, "opening": RULE_OPENING}[rule]
    lay_field(
        mines, numbers, first, code, count, np.uint64(seed & (2**64 - 1)), np.uint64(seed >> 64),
        np.empty(4, np.uint64), np.empty(rows * cols, np.bool_), np.empty(rows * cols, np.int64),
        np.arange(rows * cols) // cols,
    )  # fmt: skip
    assert np.array_equal(mines, field.mines)
    assert np.array_equal(numbers[~mines], field.numbers[~mines])


def test_make_vec_builds_the_compiled_vector_env_where_it_plays_the_game() -> None:
    import minesweep.rl

    vector = gymnasium.make_vec("minesweep/IntermediateSafe-v0", num_envs=3)
    assert isinstance(vector, minesweep.rl.MinesweeperVectorEnv)
    assert (vector.num_envs, vector.rows, vector.settings.rule.value) == (3, 16, "safe")
    # No-guess fields are the single environment's: Gymnasium's SyncVectorEnv.
    synced = gymnasium.make_vec("minesweep/BeginnerNoGuess-v0", num_envs=2)
    assert isinstance(synced, gymnasium.vector.SyncVectorEnv)
    with pytest.raises(SettingsError, match=r"does not take solver_features; .*'sync'"):
        gymnasium.make_vec("minesweep/Beginner-v0", num_envs=2, solver_features=True)
    sync = gymnasium.make_vec(
        "minesweep/Beginner-v0", num_envs=2, vectorization_mode="sync", solver_features=True
    )
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


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


def test_the_vector_env_resets_as_sync_vector_env_does() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(ActionError, match=r"call reset\(\) before step\(\)"):
        MinesweeperVectorEnv(2, "beginner").step(np.array([0, 0]))
    vector = MinesweeperVectorEnv(3, "beginner")
    singles = [MinesweeperEnv("beginner") for _ in range(3)]
    vector.reset(seed=np.int64(5))
    for board, env in enumerate(singles):
        env.reset(seed=5 + board)
    # reset() without a seed draws on from each board's generator.
    _, info = vector.reset()
    assert vector.game_seeds == [env.reset()[1]["game_seed"] for env in singles]
    assert list(info["status"]) == ["ready"] * 3
    # A partial reset (Gymnasium's reset_mask) starts only the chosen boards again.
    views, _, _, _, info = vector.step(np.array([40, 40, 40]))
    opened = (views != GLYPH_HIDDEN).sum(axis=(1, 2))
    assert (opened > 0).all()
    assert list(info["status"]) != ["ready"] * 3
    views, info = vector.reset(
        seed=[None, 77, None], options={"reset_mask": np.array([False, True, False])}
    )
    assert ((views != GLYPH_HIDDEN).sum(axis=(1, 2)) == [opened[0], 0, opened[2]]).all()
    assert vector.game_seeds[1] == 77
    assert info["status"][1] == "ready"
    with pytest.raises(SettingsError, match="reset_mask"):
        vector.reset(options={"reset_mask": [True]})


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


def test_a_board_full_of_mines_takes_flags_without_dividing_by_zero() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    options: dict[str, Any] = {"rows": 2, "cols": 2, "mines": 4, "rule": "none", "actions": "all"}
    env = MinesweeperEnv(preset=None, **options)
    env.reset(seed=0)
    _, reward, done, _, _ = env.step(4)  # flag square 0
    assert (reward, done) == (0.0, False)
    vector = MinesweeperVectorEnv(1, **options)
    vector.reset(seed=0)
    _, rewards, terminated, _, _ = vector.step(np.array([4]))
    assert (float(rewards[0]), bool(terminated[0])) == (0.0, False)


@settings(max_examples=500, deadline=None)
@given(
    word=st.one_of(st.integers(0, 2**64 - 1), st.integers(2**64 - 2**20, 2**64 - 1)),
    n=st.one_of(st.integers(1, 200), st.integers(1, 2**40), st.sampled_from([2**32, 2**32 + 1])),
)
def test_the_division_free_remainder_is_the_remainder(word: int, n: int) -> None:
    from minesweep._vector_kernels import remainder_of

    reciprocal = np.uint64((2**64 - 1) // n)
    assert int(remainder_of(np.uint64(word), np.uint64(n), reciprocal)) == word % n
