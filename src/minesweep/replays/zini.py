"""What a board asks of a player who flags: Greedy and Human ZiNi, and the board's number counts.

ZiNi (Elmar Zimmermann and Christoph Nikolaus) estimates the fewest clicks,
left, right and chord together, that clear a board when flags are used; 3BV
is the same for a player who never flags. Both versions here are the original
greedy algorithm, as ms-toollib 1.5.20 (``zini.rs``) and RawVF
(``parser_raw.c``) compute it, and give exactly their numbers:

- Every square gets a *premium*: what one chord there would save, i.e. its
  ``adj3bv`` minus its number minus 2. ``adj3bv`` is 1 for a 0; for any other
  square it is the count of safe squares in its 3x3 block (itself included)
  that belong to no opening, plus one for each opening it borders (two at
  most are kept: a border square remembers the first two openings that reach
  it).
- **Greedy ZiNi** repeats: take the square with the highest premium that is
  at least 0, the *first* such in column-major order (index ``col * rows +
  row``: ties are frequent and the order decides which is taken, so any other
  order gives other totals); click it if closed, flag its unflagged mines,
  chord it; each click, flag and chord counts one. With no premium at least
  0, click the first closed safe square that is a 0 or lies on no opening's
  edge. Stop when every safe square is open.
- **Human ZiNi** first clicks every opening (column-major order), then runs
  the same loop over open squares only.

ms-toollib's third variant, random ZiNi (``cal_rzini``), breaks ties with
the operating system's randomness and cannot be reproduced; it is not here.

:func:`board_profile` adds the counts of safe squares showing each number
(ms-toollib's ``cell0`` ... ``cell8``) to :func:`minesweep.stats.board_stats`'s
3BV, openings and islands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..field import Minefield
from ..stats import board_stats

__all__ = ["BoardProfile", "board_profile", "human_zini", "zini", "zini_pair"]

# Added to the premium of squares that may not be chosen (mines; in Human
# ZiNi, closed squares): far below any real premium (which stays within
# -10..+18), so that the largest stored value is the largest eligible premium.
_BARRED = -(1 << 20)


@dataclass(frozen=True, slots=True)
class BoardProfile:
    """A board's statistics, with ms-toollib's names: 3BV, openings, islands, ZiNi, numbers."""

    bbbv: int
    op: int
    isl: int
    zini: int
    hzini: int
    #: ``cells[n]``: safe squares showing the number ``n`` (ms-toollib's ``celln``).
    cells: tuple[int, int, int, int, int, int, int, int, int]


def board_profile(field: Minefield) -> BoardProfile:
    """3BV, openings, islands (:func:`minesweep.stats.board_stats`), ZiNi and number counts."""
    stats = board_stats(field)
    greedy, human = zini_pair(field)
    safe_numbers = field.numbers[~field.mines]
    counts = np.bincount(safe_numbers, minlength=9).tolist()
    return BoardProfile(
        bbbv=stats.bbbv,
        op=stats.openings,
        isl=stats.islands,
        zini=greedy,
        hzini=human,
        cells=(
            counts[0], counts[1], counts[2], counts[3], counts[4],
            counts[5], counts[6], counts[7], counts[8],
        ),
    )  # fmt: skip


def zini(field: Minefield) -> int:
    """Greedy ZiNi of ``field``, equal to ms-toollib's ``cal_zini`` / ``Board(b).zini``."""
    return _run(_Layout.of(field), human=False)


def human_zini(field: Minefield) -> int:
    """Human ZiNi of ``field``, equal to ms-toollib's ``cal_hzini`` / ``Board(b).hzini``."""
    return _run(_Layout.of(field), human=True)


def zini_pair(field: Minefield) -> tuple[int, int]:
    """``(zini, hzini)``, sharing the board's preparation."""
    layout = _Layout.of(field)
    return _run(layout, human=False), _run(layout, human=True)


@dataclass(frozen=True, slots=True)
class _Layout:
    """A board prepared for the ZiNi loop; every list is in column-major order."""

    size: int
    safe: int
    mine: tuple[bool, ...]
    #: Mines in the 3x3 block, the square itself included (so a mine's is at least 1).
    number: tuple[int, ...]
    #: The first and second opening a square belongs to or borders (0 for none).
    opening: tuple[int, ...]
    opening2: tuple[int, ...]
    #: Premium at the start, before any click.
    premium: tuple[int, ...]
    #: The 3x3 block of each square (itself included), clipped to the board.
    block: tuple[tuple[int, ...], ...]
    #: ``members[k]``: the squares whose ``opening`` or ``opening2`` is ``k`` (index 0 unused).
    members: tuple[tuple[int, ...], ...]

    @staticmethod
    def of(field: Minefield) -> _Layout:
        rows, cols = field.shape
        # Column-major: the order zini.rs scans in.
        mine = tuple(field.mines.T.reshape(-1).tolist())
        return _layout(rows, cols, mine)


@lru_cache(maxsize=64)
def _blocks(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """Every square's 3x3 block as column-major indices (the loops zini.rs runs)."""
    return tuple(
        tuple(
            cc * rows + rr
            for rr in range(max(r - 1, 0), min(r + 2, rows))
            for cc in range(max(c - 1, 0), min(c + 2, cols))
        )
        for c in range(cols)
        for r in range(rows)
    )


def _layout(rows: int, cols: int, mine: tuple[bool, ...]) -> _Layout:
    size = rows * cols
    block = _blocks(rows, cols)
    number = [sum(mine[j] for j in block[i]) for i in range(size)]
    opening = [0] * size
    opening2 = [0] * size
    # Openings numbered 1, 2, ... in column-major order of their first square;
    # a border square keeps the first two that reach it, as zini.rs's
    # recursive fill does (it fills one opening completely before the next).
    count = 0
    for start in range(size):
        if mine[start] or number[start] or opening[start]:
            continue
        count += 1
        opening[start] = count
        stack = [start]
        while stack:
            here = stack.pop()
            for j in block[here]:
                if number[j]:
                    if opening[j] == 0:
                        opening[j] = count
                    elif opening[j] != count and opening2[j] == 0:
                        opening2[j] = count
                elif opening[j] == 0:
                    opening[j] = count
                    stack.append(j)
    premium = []
    for i in range(size):
        if number[i] == 0:
            adj = 1
        else:
            adj = sum(1 for j in block[i] if not mine[j] and opening[j] == 0)
            adj += (opening[i] != 0) + (opening2[i] != 0)
        premium.append(adj - number[i] - 2)
    members: list[list[int]] = [[] for _ in range(count + 1)]
    for i in range(size):
        if opening[i]:
            members[opening[i]].append(i)
        if opening2[i]:
            members[opening2[i]].append(i)
    return _Layout(
        size=size,
        safe=size - sum(mine),
        mine=mine,
        number=tuple(number),
        opening=tuple(opening),
        opening2=tuple(opening2),
        premium=tuple(premium),
        block=block,
        members=tuple(tuple(m) for m in members),
    )


def _run(layout: _Layout, *, human: bool) -> int:
    """One ZiNi run; ``human`` clicks every opening first and then chooses open squares only."""
    mine, number, opening, block, members = (
        layout.mine,
        layout.number,
        layout.opening,
        layout.block,
        layout.members,
    )
    size = layout.size
    # ``key`` is the premium, plus _BARRED where the square may not be chosen:
    # then max() and index() find zini.rs's choice at C speed. The premium
    # itself is read nowhere else.
    key = list(layout.premium)
    for i in range(size):
        if mine[i] or human:
            key[i] += _BARRED
    opened = [False] * size
    flagged = [False] * size
    closed_safe = layout.safe
    clicks = 0

    def open_square(i: int) -> None:
        nonlocal closed_safe
        opened[i] = True
        key[i] += 1
        if human and not mine[i]:
            key[i] -= _BARRED
        if opening[i] == 0:
            for j in block[i]:
                key[j] -= 1
        closed_safe -= 1

    def reveal(i: int) -> None:
        if opened[i] or flagged[i]:
            return
        if number[i]:
            open_square(i)
        else:
            # A 0 opens its whole opening, border included; every square of
            # the opening loses one premium, open before or not.
            for j in members[opening[i]]:
                if not opened[j]:
                    open_square(j)
                key[j] -= 1

    if human:
        for i in range(size):
            if not mine[i] and number[i] == 0 and not opened[i]:
                reveal(i)
                clicks += 1
    while closed_safe > 0:
        best = max(key)
        if best >= 0:
            chosen = key.index(best)
            if not opened[chosen]:
                reveal(chosen)
                clicks += 1
            for j in block[chosen]:
                if mine[j] and not flagged[j]:
                    flagged[j] = True
                    clicks += 1
                    for m in block[j]:
                        key[m] += 1
            clicks += 1
            for j in block[chosen]:
                reveal(j)
        else:
            for i in range(size):
                if not opened[i] and not mine[i] and (number[i] == 0 or opening[i] == 0):
                    reveal(i)
                    clicks += 1
                    break
            else:
                break
    return clicks
