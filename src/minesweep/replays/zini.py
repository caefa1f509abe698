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
(ms-toollib's ``cell0`` ... ``cell8``) to the 3BV, openings and islands of
:func:`minesweep.stats.board_stats` (the same counts). All of it is one
compiled call, ``board_kernel`` in :mod:`._kernels`; the replay statistics
make it together with the mouse machine's (:func:`.clicks.analyse_with_board`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..field import Minefield

if TYPE_CHECKING:
    from ._kernels import Profile, Replayed

__all__ = ["BoardProfile", "board_profile", "human_zini", "profile_of", "zini", "zini_pair"]


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
    """3BV, openings, islands (as :func:`minesweep.stats.board_stats`), ZiNi and number counts."""
    from .clicks import kernel

    rows, cols = field.shape
    # A field's mask is C-contiguous bools (Minefield makes it so): one compiled signature.
    return profile_of(kernel("profile_kernel")(field.mines, rows, cols, True))


def profile_of(profile: Profile | Replayed) -> BoardProfile:
    """The :class:`BoardProfile` of the kernels' :class:`._kernels.Profile` (or ``Replayed``)."""
    cells = profile.cells.tolist()
    return BoardProfile(
        bbbv=profile.bbbv,
        op=profile.op,
        isl=profile.isl,
        zini=profile.zini,
        hzini=profile.hzini,
        cells=(
            cells[0], cells[1], cells[2], cells[3], cells[4],
            cells[5], cells[6], cells[7], cells[8],
        ),
    )  # fmt: skip


def zini(field: Minefield) -> int:
    """Greedy ZiNi of ``field``, equal to ms-toollib's ``cal_zini`` / ``Board(b).zini``."""
    return board_profile(field).zini


def human_zini(field: Minefield) -> int:
    """Human ZiNi of ``field``, equal to ms-toollib's ``cal_hzini`` / ``Board(b).hzini``."""
    return board_profile(field).hzini


def zini_pair(field: Minefield) -> tuple[int, int]:
    """``(zini, hzini)``, sharing the board's preparation."""
    profile = board_profile(field)
    return profile.zini, profile.hzini
