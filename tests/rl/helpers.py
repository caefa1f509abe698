"""What the RL tests share: random play, and the rules the environments must follow.

The references here are written from the rules as the environments document
them (``minesweep.rl.env``'s docstring, :class:`~minesweep.rl.Rewards`), read
off a :class:`~minesweep.Game`'s cell states and field: never from the views
or the compiled mask kernel they check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from hypothesis import strategies as st

from minesweep import ActionKind, Game
from minesweep.squares import STATE_FLAGGED, STATE_HIDDEN, STATE_QUESTIONED, STATE_REVEALED

if TYPE_CHECKING:
    from minesweep.rl import MinesweeperEnv

#: The kinds of action, by block of ``actions="all"``: reveals, flag toggles, chords.
BLOCKS = (ActionKind.REVEAL, ActionKind.FLAG, ActionKind.CHORD)


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


def most_mines(rows: int, cols: int, rule: str) -> int:
    """The most mines that fit wherever the first click lands, from the first-click rules.

    ``none`` keeps nothing clear, ``safe`` the clicked square, ``opening`` the
    clicked square and its neighbours: at worst a full 3x3 box.
    """
    kept = {"none": 0, "safe": 1, "opening": min(rows, 3) * min(cols, 3)}[rule]
    return max(rows * cols - kept, 0)


@st.composite
def small_games(draw: st.DrawFn, *, max_side: int = 6) -> dict[str, Any]:
    """The options of a small game: a size, a mine count that fits its rule, and the rule."""
    # Most boards big enough for a game to last a few moves; a few thin ones.
    side = st.integers(1, max_side) | st.integers(min(4, max_side), max_side)
    rows = draw(side)
    cols = draw(side)
    rule = draw(st.sampled_from(["none", "safe", "opening"]))
    mines = draw(st.integers(0, most_mines(rows, cols, rule)))
    return {"rows": rows, "cols": cols, "mines": mines, "rule": rule}


def new_game(options: dict[str, Any], seed: int) -> Game:
    """The engine's game that an environment's ``reset(seed=seed)`` promises to play."""
    return Game(options["rows"], options["cols"], options["mines"], rule=options["rule"], seed=seed)


def reference_masks(game: Game, blocks: int) -> np.ndarray:
    """Which actions do something, from the rules, shape ``(blocks * rows * cols,)``.

    Once the game is over, none. A reveal, on a square neither open nor
    flagged. A flag toggle, on a square not open (it flags a hidden square and
    unflags a flagged one). A chord, on an open number with exactly that many
    flags around it and a hidden unflagged neighbour for it to open.
    """
    rows, cols = game.shape
    squares = rows * cols
    mask = np.zeros(blocks * squares, np.bool_)
    if game.is_over:
        return mask
    state = np.asarray(game.state)
    # The environments never make question marks: a square is hidden or flagged.
    assert not (state == STATE_QUESTIONED).any()
    hidden = state == STATE_HIDDEN
    flagged = state == STATE_FLAGGED
    mask[:squares] = hidden.reshape(-1)
    if blocks == 1:
        return mask
    mask[squares : 2 * squares] = (hidden | flagged).reshape(-1)
    field = game.field
    for row in range(rows):
        for col in range(cols):
            if state[row, col] != STATE_REVEALED or field is None:
                continue
            number = int(field.numbers[row, col])
            around = (slice(max(row - 1, 0), row + 2), slice(max(col - 1, 0), col + 2))
            ready = number > 0 and int(flagged[around].sum()) == number
            mask[2 * squares + row * cols + col] = ready and bool(hidden[around].any())
    return mask


def engine_kind(game: Game, block: int, row: int, col: int) -> ActionKind:
    """The engine's action for block ``block`` of a square: the flag block toggles."""
    kind = BLOCKS[block]
    if kind is ActionKind.FLAG and int(game.state[row, col]) == STATE_FLAGGED:
        return ActionKind.UNFLAG
    return kind


#: How a step chooses its action. Chords are rare among random actions, and
#: ready ones need the right flags: these ask for them.
HOW = ("any", "allowed", "chord", "flag a mine", "flag near a number")


@st.composite
def picks(draw: st.DrawFn, *, max_size: int = 60) -> list[tuple[str, int]]:
    """How each step of a game chooses its action (see :func:`choose`), and a number to pick."""
    how = st.sampled_from(HOW)
    return draw(
        st.lists(
            st.tuples(how, st.integers(0, 2**16)), min_size=min(10, max_size), max_size=max_size
        )
    )


def choose(game: Game, mask: np.ndarray, how: str, pick: int) -> int:
    """The action index a pick asks for, given the mask.

    ``any``: any index, allowed or not; ``allowed``: one the mask allows;
    ``chord``: an allowed chord; ``flag a mine``: the flag toggle of a
    hidden mine beside an open square (the test may know the field), so that
    chords become ready; ``flag near a number``: of any hidden square beside
    an open one, so that wrong flags (and chords that lose) happen too. A pick
    that finds nothing of its kind falls back to ``allowed``, then ``any``.
    """
    rows, cols = game.shape
    squares = rows * cols
    allowed = np.flatnonzero(mask)
    candidates = allowed
    if how == "any":
        candidates = np.arange(len(mask))
    elif how == "chord":
        candidates = allowed[allowed >= 2 * squares]
    elif how.startswith("flag") and len(mask) > squares:
        state = np.asarray(game.state)
        opened = state == STATE_REVEALED
        near = np.zeros_like(opened)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                near[max(dy, 0) : rows + min(dy, 0), max(dx, 0) : cols + min(dx, 0)] |= opened[
                    max(-dy, 0) : rows + min(-dy, 0), max(-dx, 0) : cols + min(-dx, 0)
                ]
        target = near & (state == STATE_HIDDEN)
        if how == "flag a mine" and game.field is not None:
            target &= game.field.mines
        candidates = np.flatnonzero(target.reshape(-1)) + squares
    if not len(candidates):
        candidates = allowed if len(allowed) else np.arange(len(mask))
    return int(candidates[pick % len(candidates)])
