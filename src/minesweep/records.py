"""What a game is filed under, and whether its win ranks: one rule for every front end.

A **kind** is the key a game's records and leaderboards are filed under: the
preset or ``ROWSxCOLS/MINES``, then ``/safe`` or ``/none`` for those
first-click rules, then ``/no-guess``. Games that are easier or harder rank
apart. Stored databases hold these keys as text, so :class:`Kind` reads and
writes exactly that text, and front ends ask it for the parts instead of
splitting strings.

A win **ranks** among people when nothing made it easier than the game
itself: :func:`unranked_because` gives the reason it does not (None when it
ranks), in the words every front end shows.

>>> kind = Kind.parse("expert/no-guess")
>>> kind.preset, kind.no_guess, str(kind)
('expert', True, 'expert/no-guess')
>>> unranked_because(kind, won=True, seeded=True, assisted=False)
'a seeded game can be rehearsed'
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .errors import SettingsError
from .presets import PRESETS, FirstClickRule

__all__ = ["HUMAN_LIMITS", "HumanLimit", "Kind", "is_kind", "unranked_because"]

#: The grammar of a kind's text.
_KIND: Final = re.compile(
    rf"(?:(?P<preset>{'|'.join(PRESETS)})|(?P<rows>[1-9]\d*)x(?P<cols>[1-9]\d*)/(?P<mines>\d+))"
    r"(?:/(?P<rule>safe|none))?(?P<no_guess>/no-guess)?"
)


@dataclass(frozen=True, slots=True)
class Kind:
    """The key of a kind of game, in its parts; ``str()`` is the stored text."""

    rows: int
    cols: int
    mines: int
    preset: str | None = None
    rule: FirstClickRule = FirstClickRule.OPENING
    no_guess: bool = False

    @classmethod
    def parse(cls, text: object) -> Kind:
        """The kind ``text`` names; SettingsError if it names none.

        >>> kind = Kind.parse("20x30/100/safe")
        >>> kind.rows, kind.cols, kind.mines, kind.rule.value, kind.board
        (20, 30, 100, 'safe', '20x30/100')
        """
        match = _KIND.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise SettingsError(
                f"no kind of game {text!r}: expected a preset or ROWSxCOLS/MINES, then /safe "
                "or /none for those rules and /no-guess, e.g. 'expert' or '20x30/100/no-guess'"
            )
        rule = FirstClickRule(match["rule"] or FirstClickRule.OPENING)
        no_guess = match["no_guess"] is not None
        if (name := match["preset"]) is not None:
            preset = PRESETS[name]
            return cls(preset.rows, preset.cols, preset.mines, name, rule, no_guess)
        return cls(
            int(match["rows"]), int(match["cols"]), int(match["mines"]), None, rule, no_guess
        )

    @property
    def board(self) -> str:
        """The preset's name, or ``ROWSxCOLS/MINES``: the kind without its rules."""
        return self.preset or f"{self.rows}x{self.cols}/{self.mines}"

    def __str__(self) -> str:
        rule = "" if self.rule is FirstClickRule.OPENING else f"/{self.rule.value}"
        return self.board + rule + ("/no-guess" if self.no_guess else "")


def is_kind(text: str) -> bool:
    """Whether ``text`` is the text of a :class:`Kind` (``20x30/100/safe``...)."""
    return _KIND.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class HumanLimit:
    """The 3BV/s above which a win is not ranked among people, and where it comes from."""

    bbbv_per_second: float
    why: str


#: 3BV/s above which a win is not ranked among people. People's record
#: speeds, as far as published figures go: "the world record 3BV/s for
#: intermediate and expert are 7.89 and 6.11" (the help of Michael
#: Kolesidis's Emoji Minesweeper, undated and unsourced), and "the world's
#: fastest players exceed 10 3BV/s on Expert boards" (minesweeper.org,
#: "What is 3BV?"). No figure for beginner was found; its short boards allow
#: bursts, so its limit is twice expert's. Each limit is set above the
#: highest figure found for its level, so no human record is ever refused;
#: our own solver plays beginner at about 70 3BV/s.
HUMAN_LIMITS: Final[Mapping[str, HumanLimit]] = {
    "beginner": HumanLimit(20.0, "no published figure found; twice expert's limit"),
    "intermediate": HumanLimit(12.0, "above the 7.89 record quoted by Emoji Minesweeper's help"),
    "expert": HumanLimit(10.0, "at minesweeper.org's 'exceed 10 3BV/s on Expert'"),
}


def unranked_because(
    kind: Kind,
    *,
    won: bool,
    seeded: bool,
    assisted: bool,
    bot: bool = False,
    bbbv: int = 0,
    seconds: float = math.inf,
    human_limits: Mapping[str, float] | None = None,
) -> str | None:
    """Why a finished game does not rank among people; None when it does.

    Only wins rank ("not a win" otherwise). A seed makes a game reproducible,
    so it could be rehearsed; hints and undo help; custom sizes have no
    leaderboard; a declared bot ranks on the bots' board; and a win faster
    than ``human_limits`` allows for its preset (3BV/s; None: no limit) is no
    person's.

    >>> unranked_because(Kind.parse("expert"), won=True, seeded=False, assisted=False,
    ...                  bbbv=200, seconds=10.0, human_limits={"expert": 10.0})
    '20.0 3BV/s is faster than any person plays expert (limit 10)'
    """
    if not won:
        return "not a win"
    if seeded:
        return "a seeded game can be rehearsed"
    if assisted:
        return "hints or undo helped"
    if kind.preset is None:
        return "only the presets have leaderboards"
    if bot:
        return "declared a bot: see the bot leaderboard"
    limit = None if human_limits is None else human_limits.get(kind.preset)
    speed = bbbv / seconds if seconds > 0 else math.inf
    if limit is not None and speed > limit:
        return f"{speed:.1f} 3BV/s is faster than any person plays {kind.preset} (limit {limit:g})"
    return None
