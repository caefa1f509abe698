"""The exact solver's verdict on one click: how safe it was, and whether it had to be a guess.

No replay tool says this as data. For each click that opens squares, the
view the player saw just before it is analysed exactly (:func:`minesweep.solver.analyze`,
which sees only what the player saw; the player's flags are ignored, since a
flag is a claim, not a fact) and the click is judged:

- ``mine_chance``: the exact chance that the click hits a mine (for a chord,
  that any of the squares it opens does; see :func:`click_verdict`);
- ``certain``: every square it opens was certainly safe;
- ``by_counting``: certain, but not by the single-number rules (a number
  whose mines are all found frees its other neighbours; a number with as
  many hidden neighbours as mines left marks them all) applied over and
  over: only counting the layouts showed it (ms-toollib's "jump judge",
  the players' "hard judgement");
- ``guess``: not certain; ``avoidable`` when a certainly safe square existed
  somewhere on the board; ``forced`` when none did; ``fifty_fifty`` when the
  chance was exactly one half;
- ``luck``: ``-log10`` of the chance of surviving the click, in decimal
  digits: 0 for a certain click, 0.301 for a won 50/50. The sum over a game
  is ms-toollib's ``pluck``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from ..squares import GLYPH_FLAG, GLYPH_HIDDEN, GLYPH_QUESTION, MAX_NUMBER

__all__ = ["ClickVerdict", "click_verdict", "single_number_safe"]

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ClickVerdict:
    """The solver's verdict on one click (see the module's docstring)."""

    #: The exact chance the click hits a mine; None where it was not counted
    #: (a chord whose squares are not all certain: their joint chance is not
    #: counted yet).
    mine_chance: Fraction | None
    certain: bool
    by_counting: bool
    guess: bool
    avoidable: bool
    forced: bool
    fifty_fifty: bool
    #: The board's lowest mine chance among hidden squares at that moment.
    lowest_chance: float
    #: Certainly safe squares anywhere on the board at that moment.
    safe_squares: int

    @property
    def luck(self) -> float:
        """``-log10`` of the chance of surviving the click (inf for a mine; NaN if not counted)."""
        if self.mine_chance is None:
            return math.nan
        if self.mine_chance >= 1:
            return math.inf
        return -math.log10(1.0 - float(self.mine_chance))


def _neighbour_sum(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    padded = np.zeros((mask.shape[0] + 2, mask.shape[1] + 2), np.int64)
    padded[1:-1, 1:-1] = mask
    rows, cols = mask.shape
    total = np.zeros(mask.shape, np.int64)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                total += padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return total


def single_number_safe(view: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """The hidden squares the single-number rules, applied until nothing changes, prove safe.

    Flags are not trusted: a square is a known mine only when the rules make
    it one.
    """
    hidden = view >= GLYPH_HIDDEN
    number = np.where(view <= MAX_NUMBER, view, 0).astype(np.int64)
    numbered = (view <= MAX_NUMBER) & (_neighbour_sum(hidden) > 0)
    mine = np.zeros(view.shape, np.bool_)
    safe = np.zeros(view.shape, np.bool_)
    while True:
        unknown = hidden & ~mine & ~safe
        known_mines = _neighbour_sum(mine)
        open_unknown = _neighbour_sum(unknown)
        full = numbered & (known_mines == number) & (open_unknown > 0)
        needs_all = numbered & (number - known_mines == open_unknown) & (open_unknown > 0)
        new_safe = unknown & (_neighbour_sum(full) > 0)
        new_mine = unknown & (_neighbour_sum(needs_all) > 0) & ~new_safe
        if not new_safe.any() and not new_mine.any():
            return safe
        safe |= new_safe
        mine |= new_mine


def click_verdict(
    view: npt.NDArray[np.uint8], mines: int, squares: Sequence[Square]
) -> ClickVerdict:
    """The verdict on a click that opens ``squares`` (hidden squares of ``view``).

    ``view`` is what the player saw before the click (glyphs), ``mines`` the
    board's mine count. A chord's chance is counted when every square it opens
    is certain (then 0); otherwise it is left uncounted (None).
    """
    from ..solver import analyze

    plain = view.copy()
    plain[(plain == GLYPH_FLAG) | (plain == GLYPH_QUESTION)] = GLYPH_HIDDEN
    analysis = analyze(plain, mines)
    safe = np.zeros(view.shape, np.bool_)
    if len(analysis.safe):
        safe[tuple(analysis.safe.T)] = True
    certain = all(safe[square] for square in squares)
    chance: Fraction | None
    if certain:
        chance = Fraction(0)
    elif len(squares) == 1:
        chance = analysis.exact(*squares[0])
    else:
        chance = None
    by_counting = certain and not all(single_number_safe(plain)[square] for square in squares)
    probability = analysis.probability
    lowest = float(np.nanmin(probability)) if np.isfinite(probability).any() else math.nan
    guess = not certain
    return ClickVerdict(
        mine_chance=chance,
        certain=certain,
        by_counting=by_counting,
        guess=guess,
        avoidable=guess and bool(len(analysis.safe)),
        forced=guess and not len(analysis.safe),
        fifty_fifty=chance == Fraction(1, 2),
        lowest_chance=lowest,
        safe_squares=len(analysis.safe),
    )
