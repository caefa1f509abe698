"""The competitive statistics of a board and of a game.

Definitions as the competitive community uses them (Minesweeper Arbiter,
minesweepergame.com):

- **openings**: connected groups (eight neighbours) of safe squares with no
  adjacent mine. One click on any of them opens the group and its border.
- **3BV** (Bechtel's Board Benchmark Value): the fewest left clicks that clear
  the board without flags: one per opening, plus one per safe numbered square
  that borders no opening.
- **islands**: connected groups of those numbered squares that border no
  opening.
- **clicks**: left (reveal), right (flag, unflag, question mark), chord; a
  click that changes nothing is **wasted**, every other one **effective**.
- **IOE** (index of efficiency) = 3BV / clicks; **throughput** = 3BV /
  effective clicks; **correctness** = effective clicks / clicks; **3BV/s**.
  For a game not won, "3BV" here is the solved part of it: the openings
  opened and the lone numbers revealed.

>>> from minesweep import Minefield
>>> stats = board_stats(Minefield.from_text("*...\\n....\\n...*\\n"))
>>> stats.bbbv, stats.openings, stats.islands
(2, 2, 0)
>>> board_stats(Minefield.from_text(".*.\\n*.*\\n")).bbbv  # three lone numbers, one island
3
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

import numpy as np
import numpy.typing as npt

from .actions import ActionKind, GameStatus
from .field import Minefield
from .game import Game
from .squares import STATE_REVEALED

if TYPE_CHECKING:
    from .rules.openings import Openings

__all__ = [
    "BoardStats",
    "GameStats",
    "board_stats",
    "game_stats",
    "lone_numbers",
    "opening_labels",
    "wilson_interval",
]


@dataclass(frozen=True, slots=True)
class BoardStats:
    """What a minefield asks of a player."""

    rows: int
    cols: int
    mines: int
    bbbv: int
    openings: int
    islands: int

    @property
    def density(self) -> float:
        return self.mines / (self.rows * self.cols)


@dataclass(frozen=True, slots=True)
class GameStats:
    """How a game was played."""

    status: GameStatus
    time: float
    bbbv: int
    solved_bbbv: int
    left_clicks: int
    right_clicks: int
    chord_clicks: int
    wasted_clicks: int

    @property
    def won(self) -> bool:
        return self.status is GameStatus.WON

    @property
    def clicks(self) -> int:
        return self.left_clicks + self.right_clicks + self.chord_clicks

    @property
    def effective_clicks(self) -> int:
        return self.clicks - self.wasted_clicks

    @property
    def ioe(self) -> float:
        """Index of efficiency: solved 3BV per click."""
        return self.solved_bbbv / self.clicks if self.clicks else 0.0

    @property
    def throughput(self) -> float:
        """Solved 3BV per effective click."""
        return self.solved_bbbv / self.effective_clicks if self.effective_clicks else 0.0

    @property
    def correctness(self) -> float:
        """The share of clicks that did something."""
        return self.effective_clicks / self.clicks if self.clicks else 0.0

    @property
    def bbbv_per_second(self) -> float:
        return self.solved_bbbv / self.time if self.time > 0 else 0.0


def board_stats(field: Minefield) -> BoardStats:
    """3BV, openings and islands of a minefield."""
    found = _openings(field)
    return BoardStats(
        rows=field.rows,
        cols=field.cols,
        mines=field.mine_count,
        bbbv=found.openings + found.lone_count,
        openings=found.openings,
        islands=found.islands,
    )


def game_stats(game: Game) -> GameStats:
    """Clicks, efficiency and speed of a game (also of one in progress or lost)."""
    left = right = chord = wasted = 0
    for step in game.steps:
        kind = step.action.kind
        if kind is ActionKind.REVEAL:
            left += 1
        elif kind is ActionKind.CHORD:
            chord += 1
        else:
            right += 1
        if not step.effective:
            wasted += 1
    field = game.field
    if field is None:
        bbbv = solved = 0
    else:
        found = _openings(field)
        bbbv = found.openings + found.lone_count
        revealed = game.state == STATE_REVEALED
        opened = np.unique(found.opening[revealed & _blanks(field)])
        solved = len(opened) + int(np.count_nonzero(found.lone & revealed))
    return GameStats(
        status=game.status,
        time=game.elapsed,
        bbbv=bbbv,
        solved_bbbv=solved,
        left_clicks=left,
        right_clicks=right,
        chord_clicks=chord,
        wasted_clicks=wasted,
    )


def opening_labels(field: Minefield) -> tuple[npt.NDArray[np.int32], int]:
    """Label every square of an opening 1, 2, ...; 0 elsewhere. Returns labels and count.

    Numbered in row-major order of each opening's first square.
    """
    found = _openings(field)
    return np.where(_blanks(field), found.opening, np.int32(0)), found.openings


def lone_numbers(
    field: Minefield, labels: npt.NDArray[np.int32] | None = None
) -> npt.NDArray[np.bool_]:
    """Safe numbered squares that border no opening: each is one 3BV on its own.

    ``labels`` (:func:`opening_labels`') is not needed: the rule finds the openings itself.
    """
    return _openings(field).lone


def _blanks(field: Minefield) -> npt.NDArray[np.bool_]:
    blank: npt.NDArray[np.bool_] = (field.numbers == 0) & ~field.mines
    return blank


#: Past this many squares a board's openings are worth compiling the rule for
#: at once (a second or so, once an install) rather than running it uncompiled
#: until the background warmer is done: an expert board takes about a
#: millisecond interpreted, a board of a million squares seconds.
_COMPILE_ABOVE: Final = 100_000


def _openings(field: Minefield) -> Openings:
    """The openings, lone numbers and islands (:func:`minesweep.rules.openings.openings_of`)."""
    from ._jit import Kernel, entry, mode
    from .rules.openings import openings_of

    run: Callable[..., Openings] = entry(openings_of)
    if field.rows * field.cols > _COMPILE_ABOVE and mode() != "interpret":
        run = cast(Kernel, run).compiled()
    return run(field.numbers, field.mines, False)


def wilson_interval(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default; 0 to 1 for no games).

    The autoplayer's summaries and the web game's bot leaderboard use it.
    """
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    # At no win or all wins the interval ends exactly at 0 or 1; floats may
    # miss it by an ulp.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high
