"""The batched step of many boards (numba): the engine's fields, floods, chords and end views.

The vector environment (:mod:`minesweep.rl.vector`) keeps each board as
arrays (mines, numbers, states, the view) and steps them all in compiled
code; the rules it plays are these, written once for arrays of boards as
:mod:`minesweep.moves` writes them for one :class:`~minesweep.game.Game`:

- the field a board's first reveal lays, bit-identical to
  :func:`minesweep.generate.generate_field` for that seed (numpy's
  ``SeedSequence`` and ``PCG64`` are specified algorithms on 32- and 128-bit
  integers, written here with 64-bit halves),
- the flood of a reveal, a chord's targets and the first mine among them,
- which actions change a board (:func:`fill_masks`, the one mask rule that
  the single and the vector environment share),
- the views of a loss and a win.

A board's status and first-click rule are stored as small ints; the codes
are positions in :data:`BOARD_STATUSES` and :data:`FIRST_CLICK_RULES`, so the
engine's enums name them (:func:`rule_code`, :func:`status_of`).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ._jit import kernel
from .actions import GameStatus
from .presets import FirstClickRule
from .squares import (
    GLYPH_EXPLODED,
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_MINE,
    GLYPH_WRONG_FLAG,
    MAX_NUMBER,
    STATE_EXPLODED,
    STATE_FLAGGED,
    STATE_HIDDEN,
    STATE_REVEALED,
)

__all__ = [
    "BOARD_STATUSES",
    "FIRST_CLICK_RULES",
    "LOST",
    "PLAYING",
    "RULE_NONE",
    "RULE_OPENING",
    "RULE_SAFE",
    "WON",
    "chord_ready",
    "fill_masks",
    "lay_field",
    "next_word",
    "open_chord",
    "open_square",
    "remainder_of",
    "rule_code",
    "seed_pcg64",
    "seed_words",
    "show_loss",
    "show_win",
    "status_of",
    "toggle_flag",
]

#: The statuses a board in play can have; a board's code is its status's index.
BOARD_STATUSES: Final = (GameStatus.PLAYING, GameStatus.WON, GameStatus.LOST)
PLAYING: Final = BOARD_STATUSES.index(GameStatus.PLAYING)
WON: Final = BOARD_STATUSES.index(GameStatus.WON)
LOST: Final = BOARD_STATUSES.index(GameStatus.LOST)
#: The first-click rules; a rule's code is its index.
FIRST_CLICK_RULES: Final = (FirstClickRule.NONE, FirstClickRule.SAFE, FirstClickRule.OPENING)
RULE_NONE: Final = FIRST_CLICK_RULES.index(FirstClickRule.NONE)
RULE_SAFE: Final = FIRST_CLICK_RULES.index(FirstClickRule.SAFE)
RULE_OPENING: Final = FIRST_CLICK_RULES.index(FirstClickRule.OPENING)


def seed_words(seed: int) -> tuple[np.uint64, np.uint64]:
    """A seed below 2**128 as the low and high 64-bit words :func:`lay_field` takes."""
    return np.uint64(seed & _LOW64), np.uint64(seed >> 64)


def rule_code(rule: FirstClickRule) -> int:
    """The code the kernels know a first-click rule by."""
    return FIRST_CLICK_RULES.index(rule)


def status_of(codes: npt.NDArray[np.int8]) -> npt.NDArray[np.str_]:
    """The :class:`GameStatus` values of status codes, as strings."""
    return np.array([status.value for status in BOARD_STATUSES])[codes]


_MASK32 = np.uint64(0xFFFFFFFF)
_LOW64 = 2**64 - 1
_ALL64 = np.uint64(0xFFFFFFFFFFFFFFFF)
# numpy's SeedSequence (bit_generator.pyx): hash and mix constants, 32-bit.
_INIT_A = np.uint64(0x43B0D7E5)
_MULT_A = np.uint64(0x931E8875)
_INIT_B = np.uint64(0x8B51F9DD)
_MULT_B = np.uint64(0x58F38DED)
_MIX_MULT_L = np.uint64(0xCA01F9DD)
_MIX_MULT_R = np.uint64(0x4973F715)
# PCG64's 128-bit multiplier (PCG_DEFAULT_MULTIPLIER_128), high and low halves.
_MULT_HI = np.uint64(2549297995355413924)
_MULT_LO = np.uint64(4865540595714422341)
_U16 = np.uint64(16)
_U32 = np.uint64(32)
_U58 = np.uint64(58)
_U63 = np.uint64(63)
_U64_ONE = np.uint64(1)
_U64_ZERO = np.uint64(0)


@kernel(cache=True, part="vector", inline="always")
def _hashmix(value, hash_const):  # pragma: no cover - compiled
    value = (value ^ hash_const) & _MASK32
    hash_const = (hash_const * _MULT_A) & _MASK32
    value = (value * hash_const) & _MASK32
    value ^= value >> _U16
    return value, hash_const


@kernel(cache=True, part="vector", inline="always")
def _mix(x, y):  # pragma: no cover - compiled
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK32
    return result ^ (result >> _U16)


@kernel(cache=True, part="vector", inline="always")
def _output(value, hash_const):  # pragma: no cover - compiled
    """One 32-bit word of ``SeedSequence.generate_state``."""
    value = (value ^ hash_const) & _MASK32
    hash_const = (hash_const * _MULT_B) & _MASK32
    value = (value * hash_const) & _MASK32
    return value ^ (value >> _U16), hash_const


@kernel(cache=True, part="vector", inline="always")
def _mul_hi(a, b):  # pragma: no cover - compiled
    """The high 64 bits of the 128-bit product ``a * b``."""
    a_lo, a_hi = a & _MASK32, a >> _U32
    b_lo, b_hi = b & _MASK32, b >> _U32
    low = a_lo * b_lo
    cross_1 = a_lo * b_hi
    cross_2 = a_hi * b_lo
    middle = (low >> _U32) + (cross_1 & _MASK32) + (cross_2 & _MASK32)
    return a_hi * b_hi + (cross_1 >> _U32) + (cross_2 >> _U32) + (middle >> _U32)


@kernel(cache=True, part="vector", inline="always")
def remainder_of(word, n, reciprocal):  # pragma: no cover - compiled
    """``word % n`` without a 64-bit division, given ``reciprocal = (2**64 - 1) // n``.

    The quotient ``mul_hi(word, reciprocal)`` falls short of ``word // n`` by
    at most two, never over; the loop makes up the difference.
    """
    rest = word - _mul_hi(word, reciprocal) * n
    while rest >= n:
        rest -= n
    return rest


@kernel(cache=True, part="vector", inline="always")
def _pcg_step(state_hi, state_lo, inc_hi, inc_lo):  # pragma: no cover - compiled
    """``state * multiplier + inc`` modulo 2**128."""
    hi = _mul_hi(state_lo, _MULT_LO) + state_lo * _MULT_HI + state_hi * _MULT_LO
    lo = state_lo * _MULT_LO
    new_lo = lo + inc_lo
    carry = _U64_ONE if new_lo < lo else _U64_ZERO
    return hi + inc_hi + carry, new_lo


@kernel(cache=True, part="vector", inline="always")
def next_word(generator):  # pragma: no cover - compiled
    """PCG64's next raw 64-bit word (XSL-RR); ``generator`` is [state hi, lo, inc hi, lo]."""
    state_hi, state_lo = _pcg_step(generator[0], generator[1], generator[2], generator[3])
    generator[0] = state_hi
    generator[1] = state_lo
    word = state_hi ^ state_lo
    turn = state_hi >> _U58
    if turn == _U64_ZERO:
        return word
    return (word >> turn) | (word << (np.uint64(64) - turn))


@kernel(cache=True, part="vector")
def seed_pcg64(seed_lo, seed_hi, generator):  # pragma: no cover - compiled
    """``generator`` set as ``PCG64(seed)`` is, through ``SeedSequence(seed)``.

    A seed below 2**128 is four 32-bit words of entropy, and the pool holds
    four, so shorter seeds pad with zeros exactly as numpy's do.
    """
    # Scalars, not arrays, unrolled: 20 ns a seed, against 74 for the same loops
    # over three small arrays (their allocation costs more than the hashing).
    hash_const = _INIT_A
    pool_0, hash_const = _hashmix(seed_lo & _MASK32, hash_const)
    pool_1, hash_const = _hashmix(seed_lo >> _U32, hash_const)
    pool_2, hash_const = _hashmix(seed_hi & _MASK32, hash_const)
    pool_3, hash_const = _hashmix(seed_hi >> _U32, hash_const)
    # Every pool word mixes into every other, sources in order.
    hashed, hash_const = _hashmix(pool_0, hash_const)
    pool_1 = _mix(pool_1, hashed)
    hashed, hash_const = _hashmix(pool_0, hash_const)
    pool_2 = _mix(pool_2, hashed)
    hashed, hash_const = _hashmix(pool_0, hash_const)
    pool_3 = _mix(pool_3, hashed)
    hashed, hash_const = _hashmix(pool_1, hash_const)
    pool_0 = _mix(pool_0, hashed)
    hashed, hash_const = _hashmix(pool_1, hash_const)
    pool_2 = _mix(pool_2, hashed)
    hashed, hash_const = _hashmix(pool_1, hash_const)
    pool_3 = _mix(pool_3, hashed)
    hashed, hash_const = _hashmix(pool_2, hash_const)
    pool_0 = _mix(pool_0, hashed)
    hashed, hash_const = _hashmix(pool_2, hash_const)
    pool_1 = _mix(pool_1, hashed)
    hashed, hash_const = _hashmix(pool_2, hash_const)
    pool_3 = _mix(pool_3, hashed)
    hashed, hash_const = _hashmix(pool_3, hash_const)
    pool_0 = _mix(pool_0, hashed)
    hashed, hash_const = _hashmix(pool_3, hash_const)
    pool_1 = _mix(pool_1, hashed)
    hashed, hash_const = _hashmix(pool_3, hash_const)
    pool_2 = _mix(pool_2, hashed)
    # generate_state(4, uint64): eight 32-bit words over the pool, paired low first.
    hash_const = _INIT_B
    low, hash_const = _output(pool_0, hash_const)
    high, hash_const = _output(pool_1, hash_const)
    word_0 = low | high << _U32
    low, hash_const = _output(pool_2, hash_const)
    high, hash_const = _output(pool_3, hash_const)
    word_1 = low | high << _U32
    low, hash_const = _output(pool_0, hash_const)
    high, hash_const = _output(pool_1, hash_const)
    word_2 = low | high << _U32
    low, hash_const = _output(pool_2, hash_const)
    high, hash_const = _output(pool_3, hash_const)
    word_3 = low | high << _U32
    # pcg64_set_seed: state = seed (words 0, 1), inc = (words 2, 3) << 1 | 1.
    inc_hi = (word_2 << _U64_ONE) | (word_3 >> _U63)
    inc_lo = (word_3 << _U64_ONE) | _U64_ONE
    state_hi, state_lo = _pcg_step(_U64_ZERO, _U64_ZERO, inc_hi, inc_lo)
    state_lo_sum = state_lo + word_1
    carry = _U64_ONE if state_lo_sum < state_lo else _U64_ZERO
    state_hi, state_lo = _pcg_step(state_hi + word_0 + carry, state_lo_sum, inc_hi, inc_lo)
    generator[0] = state_hi
    generator[1] = state_lo
    generator[2] = inc_hi
    generator[3] = inc_lo


# numpy's error model: no division here can be by zero, and Python's checks
# for it cost a branch per division.
@kernel(cache=True, part="vector", error_model="numpy")
def lay_field(
    mines, numbers, first, rule, count, seed_lo, seed_hi, generator, taken, picks, row_of
):  # pragma: no cover - compiled
    """``mines`` and ``numbers`` of ``generate_field(..., first_click=first, seed=...)``.

    The engine's draw, word for word: a raw word below the largest multiple of
    ``n`` names allowed square ``word % n``; repeats are skipped. Past half the
    allowed squares the draw picks the free ones instead. ``row_of[s]`` is
    square ``s``'s row (``s // cols``, looked up: divisions cost).
    """
    rows, cols = mines.shape
    first_row, first_col = first // cols, first % cols
    squares = rows * cols
    cleared = 0
    if rule == RULE_SAFE:
        cleared = 1
    elif rule == RULE_OPENING:
        cleared = (min(first_row + 1, rows - 1) - max(first_row - 1, 0) + 1) * (
            min(first_col + 1, cols - 1) - max(first_col - 1, 0) + 1
        )
    allowed = squares - cleared
    dense = count > allowed // 2
    wanted = allowed - count if dense else count
    seed_pcg64(seed_lo, seed_hi, generator)
    n = np.uint64(allowed)
    limit = _ALL64
    reciprocal = _U64_ZERO
    if allowed > 0:
        reciprocal = _ALL64 // n
        remainder = _ALL64 - reciprocal * n
        if remainder != n - _U64_ONE:
            limit = _ALL64 - (remainder + _U64_ONE)
    taken[:allowed] = False
    needed = wanted
    # The engine draws words in batches, but keeps every word of a batch until
    # it has enough and then stops: one word at a time is the same draw.
    while needed > 0:
        word = next_word(generator)
        if word <= limit:
            pick = np.int64(remainder_of(word, n, reciprocal))
            if not taken[pick]:
                taken[pick] = True
                picks[wanted - needed] = pick
                needed -= 1
    # The squares the rule keeps clear form a box (empty for rule none);
    # rank r among the allowed squares is square r moved one on past each
    # kept square at or before it, in order.
    if rule == RULE_NONE:
        top, bottom, left, right = 0, -1, 0, -1
    elif rule == RULE_SAFE:
        top, bottom, left, right = first_row, first_row, first_col, first_col
    else:
        top, bottom = max(first_row - 1, 0), min(first_row + 1, rows - 1)
        left, right = max(first_col - 1, 0), min(first_col + 1, cols - 1)
    numbers[:, :] = 0
    mines[:, :] = dense
    if dense:
        for y in range(top, bottom + 1):
            for x in range(left, right + 1):
                mines[y, x] = False
    for k in range(wanted):
        square = picks[k]
        for y in range(top, bottom + 1):
            for x in range(left, right + 1):
                if y * cols + x <= square:
                    square += 1
        row = row_of[square]
        col = square - row * cols
        mines[row, col] = not dense
        if not dense:
            _count_around(numbers, row, col)
    if dense:
        for row in range(rows):
            for col in range(cols):
                if mines[row, col]:
                    _count_around(numbers, row, col)


@kernel(cache=True, part="vector", error_model="numpy")
def _open_around(numbers, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """Open everything the blank at ``row, col`` opens; how many squares.

    The engine's scanline :func:`minesweep._kernels.flood` allocates its run
    stack per call and writes states only; on boards this small a plain
    depth-first fill over a stack kept for the whole step, writing the view as
    it goes, took a fifth of its time (251 ns against 1,280 for a 45-square
    beginner opening). Which squares open is the rule's, not
    the order's: the blank's region and its border, flags left shut, as the
    engine's flood leaves them.
    """
    rows, cols = numbers.shape
    stack[0] = row * cols + col
    pending = 1
    opened = 0
    while pending:
        pending -= 1
        square = stack[pending]
        y0 = row_of[square]
        x0 = square - y0 * cols
        for y in range(max(y0 - 1, 0), min(y0 + 2, rows)):
            for x in range(max(x0 - 1, 0), min(x0 + 2, cols)):
                if state[y, x] == STATE_HIDDEN:
                    state[y, x] = STATE_REVEALED
                    view[y, x] = numbers[y, x]
                    opened += 1
                    if numbers[y, x] == 0:
                        stack[pending] = y * cols + x
                        pending += 1
    return opened


@kernel(cache=True, part="vector", inline="always")
def _count_around(numbers, row, col):  # pragma: no cover - compiled
    rows, cols = numbers.shape
    for y in range(max(row - 1, 0), min(row + 2, rows)):
        for x in range(max(col - 1, 0), min(col + 2, cols)):
            numbers[y, x] += 1


@kernel(cache=True, part="vector", inline="always")
def chord_ready(view, row, col):  # pragma: no cover - compiled
    """A number with as many flags around it as it says, and a hidden square beside it."""
    rows, cols = view.shape
    number = view[row, col]
    if number < 1 or number > MAX_NUMBER:
        return False
    flags = 0
    hidden = 0
    for y in range(max(row - 1, 0), min(row + 2, rows)):
        for x in range(max(col - 1, 0), min(col + 2, cols)):
            flags += view[y, x] == GLYPH_FLAG
            hidden += view[y, x] == GLYPH_HIDDEN
    return flags == number and hidden > 0


@kernel(cache=True, part="vector", nogil=True, error_model="numpy")
def fill_masks(view, status, blocks, masks):  # pragma: no cover - compiled
    """Which actions change each board: reveals, then flag toggles and chords (``blocks`` 3)."""
    boards, rows, cols = view.shape
    squares = rows * cols
    flat = view.reshape(boards, squares)
    for i in range(boards):
        if status[i] != PLAYING:
            masks[i, :] = False
            continue
        for square in range(squares):
            masks[i, square] = flat[i, square] == GLYPH_HIDDEN
        if blocks == 3:
            for row in range(rows):
                for col in range(cols):
                    square = row * cols + col
                    glyph = view[i, row, col]
                    masks[i, squares + square] = glyph in (GLYPH_HIDDEN, GLYPH_FLAG)
                    masks[i, 2 * squares + square] = chord_ready(view[i], row, col)


@kernel(cache=True, part="vector", error_model="numpy")
def open_square(numbers, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """Reveal a safe hidden square (and what a blank opens); how many squares opened."""
    state[row, col] = STATE_REVEALED
    view[row, col] = numbers[row, col]
    if numbers[row, col] == 0:
        return 1 + _open_around(numbers, state, view, row, col, stack, row_of)
    return 1


@kernel(cache=True, part="vector", error_model="numpy")
def show_loss(mines, state, view, row, col):  # pragma: no cover - compiled
    """The board after a loss: every hidden mine, every wrong flag, the mine that went off."""
    rows, cols = view.shape
    state[row, col] = STATE_EXPLODED
    for y in range(rows):
        for x in range(cols):
            if mines[y, x]:
                if view[y, x] == GLYPH_HIDDEN:
                    view[y, x] = GLYPH_MINE
            elif view[y, x] == GLYPH_FLAG:
                view[y, x] = GLYPH_WRONG_FLAG
    view[row, col] = GLYPH_EXPLODED


@kernel(cache=True, part="vector", inline="always")
def toggle_flag(state, view, row, col):  # pragma: no cover - compiled
    """The flag toggle: hidden to flagged, flagged to hidden; False if the square is neither."""
    glyph = view[row, col]
    if glyph == GLYPH_HIDDEN:
        state[row, col] = STATE_FLAGGED
        view[row, col] = GLYPH_FLAG
    elif glyph == GLYPH_FLAG:
        state[row, col] = STATE_HIDDEN
        view[row, col] = GLYPH_HIDDEN
    else:
        return False
    return True


@kernel(cache=True, part="vector", inline="always")
def open_chord(numbers, mines, state, view, row, col, stack, row_of):  # pragma: no cover - compiled
    """A ready chord: its safe squares open first, then the first mine among them (row by row).

    Returns how many squares opened and whether a mine went off.
    """
    rows, cols = view.shape
    spread = 0
    exploded = False
    top, bottom = max(row - 1, 0), min(row + 1, rows - 1)
    left, right = max(col - 1, 0), min(col + 1, cols - 1)
    for y in range(top, bottom + 1):
        for x in range(left, right + 1):
            if state[y, x] == STATE_HIDDEN and not mines[y, x]:
                spread += open_square(numbers, state, view, y, x, stack, row_of)
    for y in range(top, bottom + 1):
        for x in range(left, right + 1):
            if not exploded and state[y, x] == STATE_HIDDEN and mines[y, x]:
                show_loss(mines, state, view, y, x)
                exploded = True
    return spread, exploded


@kernel(cache=True, part="vector", inline="always")
def show_win(mines, view):  # pragma: no cover - compiled
    """The board after a win: every mine shows a flag."""
    rows, cols = view.shape
    for y in range(rows):
        for x in range(cols):
            if mines[y, x]:
                view[y, x] = GLYPH_FLAG
