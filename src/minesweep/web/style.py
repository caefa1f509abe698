"""How an account plays across its wins: a flag, for operators, on play that looks like a program.

A forged mouse record can pass every check of :mod:`minesweep.web.trace`;
what a program finds hard to forge is a person's *play*. People guess
worse than the solver now and then, click a square that does nothing,
put a flag where no mine is, and are faster on one board than on the
next. A solver bot does none of that: every guess is the solver's best
(it *is* the solver), no click is wasted, no flag is wrong, and its pace
is set by a sleep, so its 3BV/s barely moves from game to game.

So when a win's record passes the trace check, the server keeps the
game's style (:class:`GameStyle`, from the exact solver's verdict on
every click: :func:`minesweep.replays.verdict.judge_clicks`), and an
account's last :attr:`StyleRules.games` wins of a board are looked at
together (:func:`flag`). An account is flagged when, over at least
:attr:`StyleRules.min_games` of them, its play is flawless (no guess
worse than the best, no wasted click, no misflag), or its pace is steady
(a spread of 3BV/s, standard deviation over mean, under
:attr:`StyleRules.max_speed_spread`), or both. Either is enough: a bot
that sleeps a fixed time a click has a flawless record but a 3BV/s that
follows each board's clicks per 3BV; one that aims at a 3BV/s has a
steady pace.

The flag is shown to the operators beside the account's records under
review (:mod:`minesweep.web.review`); it bans nothing and unranks
nothing. A strong, steady player may be flagged, and a bot that adds
noise to its play is not: it is a reason to look closer, never a proof.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from minesweep.replays.clicks import ClickAnalysis
from minesweep.replays.model import Replay
from minesweep.replays.verdict import judge_clicks

__all__ = ["GameStyle", "StyleRules", "flag", "style_of"]


@dataclass(frozen=True, slots=True)
class GameStyle:
    """What one win's clicks say about the way it was played."""

    #: The board it was played on (a leaderboard's kind: ``beginner``...).
    kind: str
    #: Guesses the solver graded (best, worse or avoidable; forced ones are left out:
    #: with every square as risky, no choice tells anything).
    guesses: int
    #: Of those, the ones worse than the solver's best or avoidable.
    poor_guesses: int
    #: Clicks that changed nothing that lasted (ms-toollib's ineffective clicks).
    wasted: int
    #: Flags put on a safe square.
    misflags: int
    #: The win's 3BV/s.
    speed: float


@dataclass(frozen=True, slots=True)
class StyleRules:
    """What an account's wins are judged by; each says why it is where it is."""

    #: Wins of a board looked at: the account's latest, so that a player who has
    #: improved is judged by how they play now.
    games: int = 20
    #: Wins needed before a board is judged. Over a few games a person may well
    #: play cleanly, or at one pace; over ten, a person's wins hold a wasted
    #: click or a misflag somewhere, and some faster and some slower ones.
    min_games: int = 10
    #: The largest spread of 3BV/s (standard deviation over mean) that is flagged.
    #: People's 3BV/s on one board varies by a fifth to a third from game to game
    #: (a board's 3BV and openings change how fast it can be cleared); a paced
    #: program's by the jitter of its sleep, a few hundredths.
    max_speed_spread: float = 0.1


def style_of(kind: str, replay: Replay, analysis: ClickAnalysis, speed: float) -> GameStyle:
    """The style of a win: its record ``replay`` (read as ``analysis``) on board ``kind``."""
    table = judge_clicks(replay, analysis)
    grades = [click.verdict.grade for click in table.clicks if click.verdict.guess]
    return GameStyle(
        kind=kind,
        guesses=sum(grade in ("best", "worse", "avoidable") for grade in grades),
        poor_guesses=sum(grade in ("worse", "avoidable") for grade in grades),
        wasted=sum(bool(click.wasted) for click in table.clicks),
        misflags=analysis.misflags,
        speed=speed,
    )


def flag(styles: Sequence[GameStyle], rules: StyleRules) -> str | None:
    """Why an account's wins ``styles`` (newest first) look like a program's, or None."""
    by_kind: dict[str, list[GameStyle]] = {}
    for style in styles:
        kept = by_kind.setdefault(style.kind, [])
        if len(kept) < rules.games:
            kept.append(style)
    found = []
    for kind, kept in sorted(by_kind.items()):
        if len(kept) < rules.min_games:
            continue
        signs = []
        if not any(style.poor_guesses or style.wasted or style.misflags for style in kept):
            guesses = sum(style.guesses for style in kept)
            signs.append(
                f"no guess worse than the solver's best ({guesses} guesses), no wasted click, "
                "no misflag"
            )
        speeds = [style.speed for style in kept]
        mean = statistics.fmean(speeds)
        spread = statistics.pstdev(speeds) / mean if mean > 0 else math.inf
        if spread < rules.max_speed_spread:
            signs.append(f"3BV/s {mean:.2f} varying by {spread:.1%}")
        if signs:
            found.append(f"{len(kept)} wins of {kind}: {'; '.join(signs)}")
    return " / ".join(found) or None
