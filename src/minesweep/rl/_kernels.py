"""The vector environment's step (numba): autoreset and rewards around the engine's moves.

Each board's whole step is compiled: an autoreset draws the next game's seed
from the board's own generator (as Gymnasium's ``np_random`` would), and the
reward follows what the move did. The moves themselves (the field laid at
the first reveal, the flood, flags, chords, the end views) are the engine's
rules of :mod:`minesweep.rules`, inlined here.
"""

from __future__ import annotations

import numpy as np

from minesweep.rules import kernel
from minesweep.rules.chord import chord_targets, open_chord
from minesweep.rules.codes import LOST, PLAYING, WON
from minesweep.rules.draw import next_word
from minesweep.rules.ends import show_loss, show_win
from minesweep.rules.lay import lay_field
from minesweep.rules.marks import toggle_flag
from minesweep.rules.small_flood import open_square
from minesweep.squares import GLYPH_HIDDEN, STATE_HIDDEN

__all__ = ["step_boards"]

_U64_ONE = np.uint64(1)
_U64_ZERO = np.uint64(0)


@kernel(cache=True, part="vector", nogil=True, error_model="numpy")
def step_boards(  # pragma: no cover - compiled
    actions,
    generators,
    seeds,
    laid,
    started,
    autoreset,
    numbers,
    mines,
    state,
    view,
    status,
    opened,
    count,
    rule,
    rewards_out,
    terminated,
    win,
    loss,
    progress,
    invalid,
):
    """One step of every board: autoreset, or the action (laying the field at a first reveal).

    ``actions[i]`` is block ``b`` (0 reveal, 1 flag toggle, 2 chord) of square
    ``s`` as ``b * squares + s``, as the single environment numbers them. A
    board whose game ended last step resets instead (Gymnasium's
    ``NEXT_STEP``): its next game's seed is ``integers(2**63)`` of its
    generator, the top 63 bits of the next word, and its reward is 0. The
    engine's rules throughout: a chord opens its safe squares first, then the
    first mine among them (row by row) goes off; a loss earns no progress.
    """
    boards, rows, cols = view.shape
    squares = rows * cols
    safe = squares - count
    stack = np.empty(squares, np.int64)
    taken = np.empty(squares, np.bool_)
    picks = np.empty(squares, np.int64)
    game_generator = np.empty(4, np.uint64)
    row_of = np.empty(squares, np.int64)
    chord_squares = np.empty(9, np.int64)  # where chord_targets names them, unread
    for square in range(squares):
        row_of[square] = square // cols
    for i in range(boards):
        terminated[i] = False
        if autoreset[i]:
            seeds[i, 0] = next_word(generators[i]) >> _U64_ONE
            seeds[i, 1] = _U64_ZERO
            view[i, :, :] = GLYPH_HIDDEN
            state[i, :, :] = STATE_HIDDEN
            status[i] = PLAYING
            opened[i] = 0
            laid[i] = False
            started[i] = False
            autoreset[i] = False
            rewards_out[i] = 0.0
            continue
        square = actions[i]
        block = 0
        if square >= squares:  # a flag or a chord (reveals need no division)
            block = square // squares
            square -= block * squares
        r = row_of[square]
        c = square - r * cols
        glyph = view[i, r, c]
        if status[i] != PLAYING:
            rewards_out[i] = invalid
            continue
        if block == 1:
            if not toggle_flag(state[i], view[i], r, c):
                rewards_out[i] = invalid
                continue
            started[i] = True
            rewards_out[i] = 0.0
            continue
        spread = 0
        exploded = False
        if block == 0:
            if glyph != GLYPH_HIDDEN:
                rewards_out[i] = invalid
                continue
            if not laid[i]:
                lay_field(
                    mines[i], numbers[i], square, rule, count, seeds[i, 0], seeds[i, 1],
                    game_generator, taken, picks, row_of,
                )  # fmt: skip
                laid[i] = True
            if mines[i, r, c]:
                show_loss(mines[i], state[i], view[i], r, c)
                exploded = True
            else:
                spread = open_square(numbers[i], state[i], view[i], r, c, stack, row_of)
        else:
            if not chord_targets(view[i], r, c, 1, False, chord_squares):
                rewards_out[i] = invalid
                continue
            spread, exploded = open_chord(
                numbers[i], mines[i], state[i], view[i], r, c, stack, row_of
            )
        started[i] = True
        opened[i] += spread
        if exploded:
            status[i] = LOST
            rewards_out[i] = loss
        else:
            rewards_out[i] = progress * spread / safe if safe else 0.0
            if opened[i] == safe:
                status[i] = WON
                show_win(mines[i], view[i])
                rewards_out[i] += win
        done = status[i] != PLAYING
        terminated[i] = done
        autoreset[i] = done
