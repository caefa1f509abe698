"""The seeded draw of the vector engine: numpy's ``SeedSequence`` and ``PCG64`` (numba).

numpy's ``SeedSequence`` and ``PCG64`` are specified algorithms on 32- and
128-bit integers, written here with 64-bit halves, so that a field laid in
compiled code (:func:`minesweep.rules.lay.lay_field`) is bit-identical to
:func:`minesweep.generate.generate_field`'s for the same seed.

The engine's ``generate_field`` keeps numpy's own generator rather than
calling these: it draws its words in vectorised batches (``random_raw``),
which a 10^8-square board needs, and it must not load numba for a small
field (importing numba and loading these kernels costs about 0.4 s, against
well under a millisecond for numpy to lay an expert field; see
``benchmarks/bench_first_use.py``). The two draws are one algorithm,
kept equal by ``tests/rl/test_kernels.py``.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel

__all__ = ["next_word", "remainder_of", "seed_pcg64", "seed_words"]


def seed_words(seed: int) -> tuple[np.uint64, np.uint64]:
    """A seed below 2**128 as the low and high 64-bit words :func:`lay_field` takes."""
    return np.uint64(seed & _LOW64), np.uint64(seed >> 64)


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
