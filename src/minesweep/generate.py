"""Laying mines: presets, first-click rules and reproducible randomness.

>>> field = generate_field(9, 9, 10, first_click=(4, 4), rule="opening", seed=2026)
>>> field.mine_count, field.numbers[4, 4], field.is_mine(4, 4)
(10, np.uint8(0), False)
>>> generate_field(9, 9, 10, first_click=(4, 4), seed=2026) == field
True

**Reproducibility.** A seed is an int from 0 to 2**128 - 1. It seeds numpy's
``PCG64`` bit generator through ``SeedSequence``, whose output stream numpy
keeps stable across versions and platforms; minesweep draws raw 64-bit words
from it (never numpy's higher-level sampling methods, whose algorithms may
change) and turns them into a uniformly random set of squares by its own
rule: each word below the largest multiple of ``n`` names square ``word % n``
of the ``n`` allowed squares, repeats are skipped, until enough are chosen.
When more than half the allowed squares get a mine, the same draw picks the
squares left free instead. The same seed, size, mine count, first click and
rule therefore give the same field on every machine.
"""

from __future__ import annotations

import operator
import secrets
from typing import Final

import numpy as np
import numpy.typing as npt

from .errors import InvalidClickError, SettingsError
from .field import Minefield
from .grid import check_position
from .presets import FirstClickRule, first_click_rule
from .rules import plain
from .rules.codes import rule_code
from .rules.first_click import cleared_box
from .squares import square_name

__all__ = [
    "MAX_SQUARES",
    "check_fits",
    "check_seed",
    "generate_field",
    "new_seed",
]


_MAX_SEED: Final = 2**128 - 1

#: The most squares a generated board may have: a billion squares take 3 GB
#: (mines, numbers and the player's state, a byte each). Larger sizes are
#: refused up front with a clear error instead of failing on memory midway.
MAX_SQUARES: Final = 10**9


#: The box a first-click rule keeps clear, as plain Python: the rule the
#: vector engine's laying compiles (a plain game must not load numba for it).
_cleared_box: Final = plain(cleared_box)


def new_seed() -> int:
    """A fresh random seed (64 bits from the operating system)."""
    return secrets.randbits(64)


def generate_field(
    rows: int,
    cols: int,
    mines: int,
    *,
    first_click: tuple[int, int] | None = None,
    rule: FirstClickRule | str = FirstClickRule.OPENING,
    seed: int,
) -> Minefield:
    """A random minefield: ``mines`` mines uniformly over the allowed squares.

    ``rule`` says which squares around ``first_click`` stay clear (see
    :class:`FirstClickRule`); without a first click nothing is kept clear.
    Raises SettingsError when the mines do not fit.
    """
    rule = first_click_rule(rule)
    _check_size(rows, cols, mines)
    seed = check_seed(seed)
    cleared = _cleared_squares(rows, cols, first_click, rule)
    allowed = rows * cols - len(cleared)
    if mines > allowed:
        where = (
            f", {len(cleared)} kept clear by the {rule.value!r} rule at {square_name(*first_click)}"
            if len(cleared) and first_click is not None
            else ""
        )
        raise SettingsError(
            f"{mines} mines do not fit on a {rows}x{cols} board: at most {allowed}{where}"
        )
    mask = np.zeros(rows * cols, np.bool_)
    generator = np.random.PCG64(seed)
    if mines <= allowed // 2:
        chosen = _draw_distinct(generator, allowed, mines)
        mask[_allowed_to_square(chosen, cleared)] = True
    else:
        # Dense boards: choose the free squares, mine all the other allowed ones.
        free = _draw_distinct(generator, allowed, allowed - mines)
        keep = np.ones(allowed, np.bool_)
        keep[free] = False
        mask[_allowed_to_square(np.flatnonzero(keep), cleared)] = True
    return Minefield(mask.reshape(rows, cols))


def check_seed(seed: object) -> int:
    """``seed`` as an int from 0 to 2**128 - 1 (numpy integers too); SettingsError if not."""
    try:
        if isinstance(seed, bool):
            raise TypeError
        value = operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        value = -1
    if not 0 <= value <= _MAX_SEED:
        raise SettingsError(f"seed must be an int from 0 to 2**128 - 1, got {seed!r}")
    return value


def check_fits(rows: int, cols: int, mines: int, rule: FirstClickRule | str) -> None:
    """Raise SettingsError unless the mines fit wherever the first click lands."""
    rule = first_click_rule(rule)
    _check_size(rows, cols, mines)
    # The most the rule keeps clear: its box around a square inside the board.
    kept = _box_size(rows, cols, min(1, rows - 1), min(1, cols - 1), rule)
    if mines > rows * cols - kept:
        hint = "; rule 'safe' keeps only the clicked square clear" if kept > 1 else ""
        raise SettingsError(
            f"{mines} mines do not fit on a {rows}x{cols} board with the {rule.value!r} "
            f"first-click rule: at most {rows * cols - kept}{hint}"
        )


def _check_size(rows: int, cols: int, mines: int) -> None:
    for name, value in (("rows", rows), ("cols", cols), ("mines", mines)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{name} must be an int, got {value!r}")
    if rows < 1 or cols < 1:
        raise SettingsError(f"a board needs at least one row and column, got {rows}x{cols}")
    if rows * cols > MAX_SQUARES:
        raise SettingsError(
            f"a {rows}x{cols} board has {rows * cols:,} squares; at most {MAX_SQUARES:,} are "
            "supported"
        )
    if mines < 0:
        raise SettingsError(f"mines must be 0 or more, got {mines}")


def _cleared_squares(
    rows: int, cols: int, first_click: tuple[int, int] | None, rule: FirstClickRule
) -> npt.NDArray[np.int64]:
    """Sorted flat indices of the squares the rule keeps free of mines."""
    if first_click is None or rule is FirstClickRule.NONE:
        return np.zeros(0, np.int64)
    if not isinstance(first_click, (tuple, list)) or len(first_click) != 2:
        raise InvalidClickError(f"first click must be (row, col), got {first_click!r}")
    row, col = first_click
    check_position((rows, cols), row, col)
    top, bottom, left, right = _cleared_box(rows, cols, row, col, rule_code(rule))
    box_rows = np.arange(top, bottom + 1, dtype=np.int64)
    return (box_rows[:, None] * cols + np.arange(left, right + 1, dtype=np.int64)).reshape(-1)


def _box_size(rows: int, cols: int, row: int, col: int, rule: FirstClickRule) -> int:
    """How many squares the rule keeps clear around ``row, col``."""
    top, bottom, left, right = _cleared_box(rows, cols, row, col, rule_code(rule))
    return int((bottom - top + 1) * (right - left + 1))


#: Past this many draws in a batch, the compiled pass picks the mines. Below
#: it numpy's sort costs less than loading numba in a fresh process (about
#: 0.4 s): 40 ms for the 190,000 draws of a million squares at 15%, against
#: 2.6 s for the 19 million of 10^8 squares.
_COMPILED_DRAW = 2_000_000


def _draw_distinct(generator: np.random.PCG64, n: int, k: int) -> npt.NDArray[np.int64]:
    """``k`` distinct numbers below ``n``, uniformly, from the raw 64-bit stream."""
    taken = np.zeros(n, np.bool_)
    chosen: list[npt.NDArray[np.int64]] = []
    needed = k
    # Words at or above the largest multiple of n would favour small indices.
    limit = np.uint64((2**64 // n) * n - 1) if n else np.uint64(0)
    while needed:
        words = generator.random_raw(needed + needed // 4 + 16)
        words = words[words <= limit]
        candidates = (words % np.uint64(n)).astype(np.int64)
        if len(candidates) > _COMPILED_DRAW:
            # The same choice in one compiled pass: sorting 10^7 draws for
            # their first occurrences took seconds on a 10^8-square field.
            from .rules.distinct import first_untaken

            candidates = first_untaken(candidates, taken, needed)
        else:
            # First occurrence of each index, in the order drawn.
            _, first = np.unique(candidates, return_index=True)
            candidates = candidates[np.sort(first)]
            candidates = candidates[~taken[candidates]][:needed]
            taken[candidates] = True
        chosen.append(candidates)
        needed -= len(candidates)
    return np.concatenate(chosen) if chosen else np.zeros(0, np.int64)


def _allowed_to_square(
    allowed: npt.NDArray[np.int64], cleared: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """Map ranks among the allowed squares to flat square indices.

    The i-th allowed square is square i shifted right by the number of
    cleared squares before it; ``cleared - arange`` counts those per gap.
    """
    if not len(cleared):
        return allowed
    gaps = cleared - np.arange(len(cleared))
    return allowed + np.searchsorted(gaps, allowed, side="right")
