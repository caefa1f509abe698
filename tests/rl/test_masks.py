"""The action masks: what each environment allows is what the game's rules allow."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .helpers import BLOCKS, choose, engine_kind, new_game, picks, reference_masks, small_games

pytest.importorskip("gymnasium")

from minesweep import Action, ActionKind, Game
from minesweep.rl import MinesweeperEnv
from minesweep.squares import GLYPH_FLAG, GLYPH_HIDDEN


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
            kind = BLOCKS[block]
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
        kind = BLOCKS[block]
        if kind is ActionKind.FLAG and int(game.glyphs().reshape(-1)[square]) == GLYPH_FLAG:
            kind = ActionKind.UNFLAG
        reference = Game.replay(game, game.history)
        reference.push(Action(kind, *divmod(square, 6)))
        view, _, done, _, info = env.step(chosen)
        assert np.array_equal(view, reference.glyphs())  # the step does what the mask promised
        if done:
            assert not info["action_mask"].any()
            break


@settings(max_examples=80, deadline=None)
@given(
    options=small_games(max_side=8),
    actions=st.sampled_from(["reveal", "all"]),
    seed=st.integers(0, 2**64 - 1),
    steps=picks(),
)
def test_both_envs_mask_what_the_rules_allow_on_the_games_board(
    options: dict[str, Any], actions: str, seed: int, steps: list[tuple[str, int]]
) -> None:
    # A Game plays the same actions on the same field (the seed lays it at the
    # first reveal); at every step the masks of the single env, of the vector
    # env, and in each one's info, are the rules' reference read off that game.
    from minesweep.rl.vector import MinesweeperVectorEnv

    single = MinesweeperEnv(preset=None, actions=actions, **options)  # type: ignore[arg-type]
    # No time limit: the masks of every step are the point (a 1x1 board's limit is 2).
    vector = MinesweeperVectorEnv(
        1,
        actions=actions,  # type: ignore[arg-type]
        max_episode_steps=10**6,
        **options,
    )
    game = new_game(options, seed)
    _, info = single.reset(seed=seed)
    _, vector_info = vector.reset(seed=[seed])
    blocks = 3 if actions == "all" else 1
    squares = options["rows"] * options["cols"]
    for how, pick in [*steps, ("any", 0)]:  # one last look after the last step
        expected = reference_masks(game, blocks)
        assert np.array_equal(single.action_masks(), expected)
        assert np.array_equal(info["action_mask"], expected)
        assert np.array_equal(vector.action_masks()[0], expected)
        assert np.array_equal(vector_info["action_mask"][0], expected)
        if game.is_over:
            assert not expected.any()
            break
        action = choose(game, expected, how, pick)
        block, square = divmod(action, squares)
        row, col = divmod(square, options["cols"])
        if expected[action]:
            # What the mask allows, the game does: something changes.
            assert game.push(Action(engine_kind(game, block, row, col), row, col)).effective
        view, _, _, _, info = single.step(action)
        views, _, _, _, vector_info = vector.step(np.array([action]))
        # The masks are read off the views: those are the game's too.
        assert np.array_equal(view, game.glyphs())
        assert np.array_equal(views[0], game.glyphs())
