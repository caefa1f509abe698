"""The vector environment (MinesweeperVectorEnv): the games of single envs and the engine."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import Action, GameStatus

from .helpers import HOW, choose, engine_kind, new_game, reference_masks, small_games

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils import seeding  # noqa: E402
from gymnasium.wrappers import TimeLimit  # noqa: E402

from minesweep.errors import ActionError, SettingsError  # noqa: E402
from minesweep.rl import MinesweeperEnv, Rewards  # noqa: E402
from minesweep.squares import GLYPH_HIDDEN  # noqa: E402


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
        # A time limit that games reach: truncations, and autoresets after them.
        ({"preset": "beginner", "actions": "all", "max_episode_steps": 6}, 6, 200, 8),
    ],
)
def test_the_vector_env_plays_the_games_of_single_envs(
    options: dict[str, Any], boards: int, steps: int, seed: int
) -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    vector = MinesweeperVectorEnv(boards, **options)
    vector_options = options
    options = {key: value for key, value in options.items() if key != "max_episode_steps"}
    if "rows" in options:
        options = {"preset": None, **options}
    # Each single env under the time limit gymnasium.make gives it: the vector
    # env truncates where they do (small boards of flag toggles reach it).
    limit = vector.max_episode_steps
    assert limit == vector_options.get("max_episode_steps", 2 * vector.rows * vector.cols)
    wrapped = [TimeLimit(MinesweeperEnv(**options), limit) for _ in range(boards)]
    singles = [cast(MinesweeperEnv, env.unwrapped) for env in wrapped]
    observations, info = vector.reset(seed=seed)
    assert vector.game_seeds == [seed + board for board in range(boards)]
    for board, env in enumerate(wrapped):
        alone, _ = env.reset(seed=seed + board)  # SyncVectorEnv seeds its copies so
        assert np.array_equal(observations[board], alone)
    rng = np.random.default_rng(1)
    resetting = [False] * boards
    ends = 0
    squares = vector.rows * vector.cols
    chords = 0
    cut = 0
    for _ in range(steps):
        masks = info["action_mask"]
        assert masks.shape == (boards, singles[0].action_count)
        for board, single in enumerate(singles):
            assert np.array_equal(masks[board], single.action_masks())
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
        for board, env in enumerate(wrapped):
            if resetting[board]:  # Gymnasium's NEXT_STEP autoreset
                alone, alone_info = env.reset()
                reward, done, over = 0.0, False, False
            else:
                alone, stepped, done, over, alone_info = env.step(int(actions[board]))
                reward = float(stepped)
            assert info["status"][board] == alone_info["status"]
            assert np.array_equal(observations[board], alone)
            assert rewards[board] == pytest.approx(float(reward), abs=1e-12)
            assert bool(terminated[board]) == done
            assert bool(truncated[board]) == over
            assert vector.game_seeds[board] == singles[board].game_seed
            resetting[board] = done or over
            ends += done
            cut += over
    assert ends > boards  # the run went through autoresets
    if "max_episode_steps" in vector_options:
        assert cut > boards  # and through truncations
    if "actions" in options:
        assert chords > boards  # and through chords


def test_make_vec_builds_the_compiled_vector_env_where_it_plays_the_game() -> None:
    import minesweep.rl

    vector = gymnasium.make_vec("minesweep/IntermediateSafe-v0", num_envs=3)
    assert isinstance(vector, minesweep.rl.MinesweeperVectorEnv)
    assert (vector.num_envs, vector.rows, vector.settings.rule.value) == (3, 16, "safe")
    # No-guess fields are the single environment's: Gymnasium's SyncVectorEnv.
    synced = gymnasium.make_vec("minesweep/BeginnerNoGuess-v0", num_envs=2)
    assert isinstance(synced, gymnasium.vector.SyncVectorEnv)
    # So are solver features (tests/rl/test_registration.py: every option).
    featured = gymnasium.make_vec("minesweep/Beginner-v0", num_envs=2, solver_features=True)
    assert isinstance(featured, gymnasium.vector.SyncVectorEnv)
    sync = gymnasium.make_vec(
        "minesweep/Beginner-v0", num_envs=2, vectorization_mode="sync", solver_features=True
    )
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)


def test_the_vector_env_resets_as_sync_vector_env_does() -> None:
    from minesweep.rl.vector import MinesweeperVectorEnv

    with pytest.raises(ActionError, match=r"call reset\(\) before step\(\)"):
        MinesweeperVectorEnv(2, "beginner").step(np.array([0, 0]))
    vector = MinesweeperVectorEnv(3, "beginner")
    singles = [MinesweeperEnv("beginner") for _ in range(3)]
    vector.reset(seed=np.int64(5))  # type: ignore[arg-type]
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


@settings(max_examples=60, deadline=None)
@given(
    options=small_games(max_side=7),
    actions=st.sampled_from(["reveal", "all"]),
    boards=st.integers(1, 3),
    seed=st.integers(0, 2**64 - 1),
    steps=st.lists(
        st.lists(st.tuples(st.sampled_from(HOW), st.integers(0, 2**16)), min_size=3, max_size=3),
        min_size=10,
        max_size=60,
    ),
)
def test_the_batched_step_is_the_games_step(
    options: dict[str, Any],
    actions: str,
    boards: int,
    seed: int,
    steps: list[list[tuple[str, int]]],
) -> None:
    # Each board against a Game playing the same actions on the same field:
    # the views, the rewards (their sign, and their value as Rewards defines
    # it from what the move did) and the terminations; after a game ends, the
    # next step starts the game whose seed the board's own generator draws,
    # as Gymnasium's NEXT_STEP autoreset of a single env would.
    from minesweep.rl.vector import MinesweeperVectorEnv

    # No time limit here (the games' steps are the point): none that 60 steps reach.
    vector = MinesweeperVectorEnv(
        boards,
        actions=actions,  # type: ignore[arg-type]
        max_episode_steps=10**6,
        **options,
    )
    _, info = vector.reset(seed=seed)
    games = [new_game(options, seed + board) for board in range(boards)]
    generators = [seeding.np_random(seed + board)[0] for board in range(boards)]
    rewards = Rewards()
    blocks = 3 if actions == "all" else 1
    squares = options["rows"] * options["cols"]
    safe = squares - options["mines"]
    ended = [False] * boards
    assert list(info["status"]) == [GameStatus.READY.value] * boards
    for step in steps:
        masks = [reference_masks(game, blocks) for game in games]
        chosen = [choose(games[board], masks[board], *step[board]) for board in range(boards)]
        views, paid, terminated, truncated, info = vector.step(np.array(chosen))
        assert not truncated.any()
        for board, action in enumerate(chosen):
            if ended[board]:
                # The autoreset: a new game from the board's generator; the action is not taken.
                game_seed = int(generators[board].integers(2**63))
                games[board] = new_game(options, game_seed)
                assert vector.game_seeds[board] == game_seed
                expected, ended[board] = 0.0, False
            else:
                expected = _played(games[board], masks[board], action, rewards, safe)
                ended[board] = games[board].is_over
            game = games[board]
            assert np.array_equal(views[board], game.glyphs())
            assert np.sign(paid[board]) == np.sign(expected)
            assert paid[board] == pytest.approx(expected, abs=1e-12)
            assert bool(terminated[board]) == game.is_over
            assert info["status"][board] == game.status.value


def _played(game: Any, mask: np.ndarray, action: int, rewards: Rewards, safe: int) -> float:
    """Play ``action`` on ``game`` if the mask allows it; the reward Rewards' rules pay for it."""
    if not mask[action]:
        return rewards.invalid  # and the game is left as it was
    rows, cols = game.shape
    block, square = divmod(action, rows * cols)
    row, col = divmod(square, cols)
    effect = game.push(Action(engine_kind(game, block, row, col), row, col))
    if block == 1:
        return 0.0  # a flag toggle opens nothing
    if game.status is GameStatus.LOST:
        return rewards.loss  # what a losing chord opened on the way earns nothing
    earned = rewards.progress * effect.opened / safe if safe else 0.0
    return earned + (rewards.win if game.status is GameStatus.WON else 0.0)
