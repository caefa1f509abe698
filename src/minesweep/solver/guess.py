"""What every guessing strategy shares: the guess, the policy's tuning, the risk map.

:class:`PolicyConfig` holds every number the policy (:mod:`minesweep.solver.policy`)
and its strategies (:mod:`.endgame`, :mod:`.fiftyfifty`, :mod:`.whatif`) are
tuned by, in one frozen object that is passed in: to play with another
tuning, pass another config (``dataclasses.replace(DEFAULT_POLICY, ...)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..errors import InvalidBoardError, SettingsError
from ..presets import STRENGTHS
from .probability import Analysis

__all__ = [
    "DEFAULT_POLICY",
    "SAME",
    "STRENGTHS",
    "Guess",
    "PolicyConfig",
    "check_shape",
    "risk_of",
]


@dataclass(frozen=True, slots=True)
class Guess:
    row: int
    col: int
    probability: float
    reason: str


@dataclass(frozen=True, slots=True)
class PolicyConfig:
    """The policy's tuning; the defaults are the tuning BENCHMARKS.md measures."""

    #: The exhaustive endgame search (:func:`.endgame.endgame_guess`) runs when
    #: at most this many squares are in doubt (hidden and not certainly mines)
    endgame_squares: int = 60
    #: and at most this many layouts remain,
    endgame_layouts: int = 2000
    #: and gives up (leaving the guess to the lookahead) past this many positions.
    endgame_nodes: int = 200_000
    #: A part of the board nothing else can inform is searched on its own
    #: (:func:`.endgame.isolated_guess`) when it has at most this many layouts.
    isolated_layouts: int = 200
    #: Squares within this much of the lowest probability count as equally safe.
    tolerance: float = 0.005
    #: How much a square's chance of opening (being a blank) weighs against its risk.
    opening_weight: float = 1.0
    #: Weigh the safest candidates by how safe the next guess would be after
    #: each number they could show (:func:`.policy.lookahead_guess`), and take
    #: a square that is a mine only as one side of a 50/50 to come first
    #: (:func:`.fiftyfifty.fifty_fifty_or_safe`).
    lookahead: bool = True
    #: Lookahead candidates: squares with at least this share of the best safety,
    lookahead_cut: float = 0.9
    #: at most this many interior squares next to the frontier among them,
    lookahead_interior: int = 3
    #: and at most this many in all (the choice without lookahead always first).
    lookahead_candidates: int = 10
    #: Never guess a dead square (one that can show only one number) while a
    #: living one can be found: opening it teaches nothing that assuming it
    #: safe would not, so postponing it never loses more games (David Hill's
    #: rule). Paired on seeds 0 to 99,999 (expert, safe, corner): 95 games
    #: won only with it, 65 only without, +2.4 standard errors (BENCHMARKS.md).
    dead_last: bool = True
    #: Looking past the candidates for a living square, when all of them are
    #: dead, asks at most this many squares (safest first).
    living_search: int = 30
    #: Weigh each candidate by the 50/50s it may settle early
    #: (:class:`.fiftyfifty.FiftyFifties`):
    long_term: bool = True
    #: by this much of its 50/50 influence over its safety,
    influence_weight: float = 0.9
    #: counting pairs with at most this many outside squares not known mines,
    pair_missing: int = 3
    #: 2x2 blocks with at most this many,
    block_missing: int = 3
    #: and only structures whose least likely square has at least this chance.
    structure_floor: float = 0.02
    #: Without the lookahead, weigh at most this many of the squares within
    #: ``tolerance`` of the lowest risk (the plain choice first) by the chance
    #: that each is safe and leaves some square certainly safe, then by the
    #: entropy of the number it shows (Tu et al.'s PSEQ tie-break,
    #: :mod:`._progress`); 0 keeps the plain choice.
    progress_candidates: int = 0
    #: Look further at guess points with a survival search (:mod:`._survival`)
    #: of this depth, 3 or 4 clicks (0: none, the lookahead's depth 2 alone):
    #: the candidate with the best chance of surviving that many clicks
    #: (times its 50/50 factor) replaces the lookahead's choice,
    survival_depth: int = 0
    #: unless the search needs more than this many nodes (analyses and
    #: questions about one square) at one guess;
    survival_nodes: int = 2000
    #: at most this many candidates are searched at each view.
    survival_candidates: int = 8

    def __post_init__(self) -> None:
        if self.survival_depth not in (0, 3, 4):
            raise SettingsError(
                f"survival_depth must be 0 (no search), 3 or 4, not {self.survival_depth!r}"
            )

    @classmethod
    def preset(cls, name: str) -> PolicyConfig:
        """A named tuning, a dial from speed to strength: ``fast``, ``default`` or ``strongest``.

        ``fast`` keeps the exact probabilities, the forced 50/50s and the
        small searches, and drops what costs most for least: the lookahead
        (each candidate's possible numbers and the analysis after each), the
        50/50 weighing that rides on it, and endgame searches of more than
        300 layouts; it breaks near ties of the plain choice as Tu et al.'s
        PSEQ does (``progress_candidates``). ``strongest`` plays the
        default's rules with larger budgets: exact endgame searches of up to
        80 squares, 5,000 layouts and a million positions, isolated searches
        of 1,000 layouts, twice the lookahead candidates (down to 80 % of
        the best safety) and a longer search for a living square, and at
        each guess the lookahead weighs, a survival search of depth 3
        (``survival_depth``).
        BENCHMARKS.md gives each setting's win rate and speed on the same
        seeds. An unknown name is a SettingsError.
        """
        if name not in STRENGTHS:
            raise SettingsError(f"unknown strength {name!r}: choose one of {', '.join(STRENGTHS)}")
        return _PRESETS[name]


#: Scores closer than this are the same score: rounding is all that parts them.
SAME: Final = 1e-12

#: The tuning the autoplayer plays with unless told otherwise.
DEFAULT_POLICY: Final = PolicyConfig()

_PRESETS: Final = {
    # endgame_layouts 500: half the time of 2,000 for a tenth of a point
    # (paired on 20,000 seeds, BENCHMARKS.md). progress_candidates 10 (Tu's
    # tie-break): +0.675 points on 100,000 seeds (39.14 % -> 39.82 %, above
    # Tu's 39.6 %) at about 0.73x the games a second. endgame_layouts 300
    # (stop 60): about 8 % more games a second for 0.027 points (27 games of
    # 100,000, 2.1 SE: 39.79 %), which brings fast to 1.5x Tu's C++.
    "fast": PolicyConfig(
        lookahead=False, long_term=False, endgame_layouts=300, progress_candidates=10
    ),
    "default": DEFAULT_POLICY,
    # strongest: the default's rules with larger budgets: exact endgame and
    # isolated searches of more squares, layouts and positions, and more
    # lookahead candidates. Paired with the default on seeds 5,000-24,999:
    # the candidates alone +0 games, the searches alone +8, both +15, at
    # about 10 ms a game; on fresh seeds 25,000-44,999, -2; on 0-99,999, +8
    # (BENCHMARKS.md). The survival search of depth 3 on top (stop 61):
    # +527 games of 300,000 against the default (+2.4 SE), at about a
    # third of the games a second.
    "strongest": PolicyConfig(
        endgame_squares=80,
        endgame_layouts=5000,
        endgame_nodes=1_000_000,
        isolated_layouts=1000,
        lookahead_cut=0.8,
        lookahead_interior=6,
        lookahead_candidates=20,
        living_search=60,
        survival_depth=3,
    ),
}


def risk_of(analysis: Analysis) -> npt.NDArray[np.float64]:
    """Each square's mine probability, infinite where revealed or certainly a mine."""
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    if len(analysis.mines):
        risk[tuple(analysis.mines.T)] = np.inf
    return risk


def check_shape(analysis: Analysis, glyphs: npt.NDArray[np.uint8]) -> None:
    """Refuse a view of another shape than the one analysed (InvalidBoardError)."""
    shape = np.shape(glyphs)
    if shape != analysis.probability.shape:
        rows, cols = analysis.probability.shape
        raise InvalidBoardError(
            f"the view is {'x'.join(map(str, shape))} but the analysis is of a {rows}x{cols} one"
        )
