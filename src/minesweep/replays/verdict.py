"""The exact solver's verdict on every click of a replay: how safe it was, and was it a guess.

No replay tool gives this as data. For each click that opens squares (or
hits a mine) the view the player saw just before it is analysed exactly
(:func:`minesweep.solver.analyze`, which sees only what the player saw; the
player's flags are ignored, since a flag is a claim, not a fact) and the
click is judged:

- ``mine_chance``: the exact chance that the click hits a mine; for a chord,
  that any of the squares it opens does (their joint chance, counted over
  the layouts, not a product of single chances);
- ``certain``: every square it opens was certainly safe;
- ``by_counting``: certain, but not by the single-number rules (a number
  whose mines are all found frees its other neighbours; a number with as
  many hidden neighbours as mines left makes them all mines) applied over
  and over: only counting the layouts showed it (the players' "hard
  judgement"; ms-toollib's ``jump_judge`` also allows one subtraction of two
  numbers, see the table in ``docs/replays.md``);
- ``guess``: not certain; ``avoidable`` when a certainly safe square existed
  somewhere on the board; ``forced`` when none did; ``fifty_fifty`` when the
  chance was one half;
- ``luck``: ``-log10`` of the chance of surviving the click, in decimal
  digits: 0 for a certain click, 0.301 for a won 50/50, infinite for the
  click that hit a mine. Summed over the game, as :attr:`JudgedClick.pluck`
  does click by click, it is ms-toollib's ``pluck``; like ms-toollib, the
  first opening click is free (every one of these programs makes it safe),
  and a mine hit before it counts nothing (the game never started).

:func:`judge_clicks` judges every click of a replay into a :class:`ClickTable`
(``pandas.DataFrame(table.columns())`` is a table a person can load);
:func:`click_verdict` judges one click on one view.

Speed: views repeat (a flag changes no view the solver sees), so each
distinct one is analysed once, and the solver's component cache carries
counts from one view to the next. The single-number rules (the solver's
rule 1, compiled: :class:`minesweep.solver.certain.SingleNumberRules`) run
once over the whole game: what they prove stays proved as squares open (an
opened square was safe, as they said), so each view only resumes them around
the squares that changed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..squares import GLYPH_HIDDEN, MAX_NUMBER
from .clicks import ClickAnalysis, ClickEffect, ClickKind, analyse_clicks
from .model import Replay, event_columns

__all__ = [
    "CLICK_COLUMNS",
    "FIRST_CLICK",
    "NOT_JUDGED",
    "ClickTable",
    "ClickVerdict",
    "JudgedClick",
    "click_verdict",
    "guess_grade",
    "judge_clicks",
    "single_number_safe",
]

Square = tuple[int, int]

# A chance this close to one half is one half: the counts are floats within 1e-12.
_HALF_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class ClickVerdict:
    """The solver's verdict on one click (see the module's docstring)."""

    #: The exact chance the click hits a mine (a float within 1e-12 of the
    #: fraction); NaN where it could not be counted (a chord's joint chance
    #: past the solver's budget).
    mine_chance: float
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
    #: The board's highest mine chance among hidden squares not certainly mines.
    highest_chance: float = math.nan
    #: The mine chance of a hidden square next to no open square (NaN: none).
    off_frontier_chance: float = math.nan

    @property
    def grade(self) -> str:
        """The guess's grade (see :func:`guess_grade`); ``""`` when not a guess."""
        return guess_grade(self)

    @property
    def over_best(self) -> float:
        """How much riskier than the board's lowest chance the click was (0 for best and forced)."""
        if not self.guess:
            return 0.0
        return max(self.mine_chance - self.lowest_chance, 0.0)

    @property
    def luck(self) -> float:
        """``-log10`` of the chance of surviving the click (inf: a sure mine; NaN: uncounted)."""
        chance = self.mine_chance
        if math.isnan(chance):
            return math.nan
        if chance >= 1:
            return math.inf
        return -math.log10(1.0 - chance) if chance > 0 else 0.0


@dataclass(frozen=True, slots=True)
class JudgedClick:
    """One click of a replay, with the solver's verdict where it opened squares.

    The click's facts, the solver's :class:`ClickVerdict` on it (not
    repeated here: ``click.verdict.guess``), and its luck in the game. Clicks
    that open nothing (flags, clicks on open squares, chords that do nothing,
    clicks off the board) are not judged: their verdict is :data:`NOT_JUDGED`
    (chance NaN, flags False, ``safe_squares`` -1). A row of the table is
    :meth:`as_dict`, the verdict's columns spliced in (:data:`CLICK_COLUMNS`).
    """

    #: Position among the replay's clicks (:attr:`ClickAnalysis.clicks`).
    index: int
    #: Index of the mouse event that made it, in ``replay.events``.
    event: int
    #: Seconds from the game's start (the first opening click); negative before it.
    time: float
    #: ``"left"``, ``"right"`` or ``"double"``.
    kind: str
    #: The square, or -1, -1 off the board.
    row: int
    col: int
    #: ``"nothing"``, ``"flag"``, ``"unflag"``, ``"open"``, ``"chord"`` or ``"mine"``.
    effect: str
    #: Counted in ms-toollib's ``ce``.
    effective: bool
    #: The 3BV it solved.
    solved: int
    #: Index of the view before it in :attr:`ClickAnalysis.views`.
    view: int
    #: The squares it opened (or would have: a chord's hidden, unflagged neighbours).
    squares: int
    judged: bool
    #: The game's first opening click, safe by the program's rule: chance 0.
    first: bool
    #: The solver's verdict; for a click not judged (or past the solver's budget)
    #: :data:`NOT_JUDGED`, for the first opening click :data:`FIRST_CLICK`.
    verdict: ClickVerdict
    #: The click's luck in the game: the verdict's, except infinite for a click
    #: that hit a mine and 0 before the game started (ms-toollib's rule).
    luck: float
    #: The luck of the game so far, this click included (ms-toollib's ``pluck`` at this click).
    pluck: float
    #: Cursor travel since the click before, in ms-toollib's path units (:mod:`.operations`).
    travel: float = 0.0
    #: Seconds of game time since the click before.
    interval: float = 0.0
    #: Squares the click opened.
    opened: int = 0
    #: The click changed nothing that lasted (:mod:`.operations`).
    wasted: bool = False
    #: The double that completed a 1.5-click (:mod:`.operations`).
    click_15: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The click as a row of the table: a value for each of :data:`CLICK_COLUMNS`, in order."""
        return {
            name: getattr(self.verdict if name in _OF_VERDICT else self, name)
            for name in CLICK_COLUMNS
        }


#: A click table's columns, in order: a :class:`JudgedClick`'s fields, its
#: verdict's nine and grade in place of ``verdict`` (the verdict's
#: ``highest_chance`` and ``off_frontier_chance`` only serve the grade). The
#: order is the one the table has always had (``minesweep replay --clicks``
#: prints it), hence grade and over_best after the luck.
CLICK_COLUMNS: Final = (
    *("index", "event", "time", "kind", "row", "col", "effect", "effective", "solved"),
    *("view", "squares", "judged", "first"),
    *("mine_chance", "certain", "by_counting", "guess", "avoidable", "forced", "fifty_fifty"),
    *("lowest_chance", "safe_squares", "luck", "pluck", "grade", "over_best"),
    *("travel", "interval", "opened", "wasted", "click_15"),
)
_OF_VERDICT: Final = frozenset(CLICK_COLUMNS) - {field.name for field in fields(JudgedClick)}


@dataclass(frozen=True, slots=True)
class ClickTable:
    """Every click of a replay, judged (:func:`judge_clicks`)."""

    clicks: tuple[JudgedClick, ...]
    analysis: ClickAnalysis

    @property
    def pluck(self) -> float:
        """The luck of the whole game: ms-toollib's ``pluck`` (inf for a game lost on a mine)."""
        return self.clicks[-1].pluck if self.clicks else 0.0

    @property
    def guesses(self) -> int:
        return sum(click.verdict.guess for click in self.clicks)

    @property
    def avoidable_guesses(self) -> int:
        return sum(click.verdict.avoidable for click in self.clicks)

    @property
    def forced_guesses(self) -> int:
        return sum(click.verdict.forced for click in self.clicks)

    @property
    def by_counting(self) -> int:
        """Certain clicks that only counting showed (hard judgements)."""
        return sum(click.verdict.by_counting for click in self.clicks)

    def columns(self) -> dict[str, list[Any]]:
        """The table as columns, one list a field: ``pandas.DataFrame(table.columns())``."""
        columns: dict[str, list[Any]] = {name: [] for name in CLICK_COLUMNS}
        for click in self.clicks:
            for name, value in click.as_dict().items():
                columns[name].append(value)
        return columns

    def rows(self) -> list[dict[str, Any]]:
        """The table as one dict a click (:meth:`JudgedClick.as_dict`)."""
        return [click.as_dict() for click in self.clicks]


def guess_grade(verdict: ClickVerdict) -> str:
    """``"avoidable"``, ``"forced"``, ``"best"`` or ``"worse"`` for a guess; ``""`` otherwise.

    In this order: *avoidable* when a certainly safe square existed; *forced*
    when every hidden square was exactly as risky as the one clicked (no
    choice could help: a 50/50 with nothing else left, a coin flip);
    *best* when no hidden square had a lower chance, an off-frontier square
    included; else *worse* (:attr:`ClickVerdict.over_best` says by how much).
    A chord is graded by its joint chance against the board's single squares.
    """
    if not verdict.guess:
        return ""
    if verdict.avoidable:
        return "avoidable"
    chance = verdict.mine_chance
    if math.isnan(chance):
        return ""
    lowest, highest = verdict.lowest_chance, verdict.highest_chance
    if abs(chance - lowest) <= _HALF_TOLERANCE and abs(highest - lowest) <= _HALF_TOLERANCE:
        return "forced"
    off = verdict.off_frontier_chance
    if chance <= lowest + _HALF_TOLERANCE and (math.isnan(off) or chance <= off + _HALF_TOLERANCE):
        return "best"
    return "worse"


def single_number_safe(view: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    """The hidden squares of a glyph view the single-number rules prove safe, applied to a fixpoint.

    Flags are not trusted: a square is a known mine only when the rules make
    it one.
    """
    from ..solver.certain import SingleNumberRules

    view = np.ascontiguousarray(view, np.uint8)
    rules = SingleNumberRules(*view.shape)
    rules.advance(view.tobytes())
    return rules.safe_mask()


# --- verdicts ----------------------------------------------------------------------------------


def _verdict(
    plain: npt.NDArray[np.uint8],
    mines: int,
    targets: Sequence[Square],
    settled: bool,
    analysis: Any,
) -> ClickVerdict:
    """The verdict on opening ``targets`` of the glyph view ``plain`` (flags already hidden).

    ``settled``: the single-number rules prove every target safe.
    """
    from ..solver.whatif import Lookahead

    safe_count = len(analysis.safe)
    safe = np.zeros(plain.shape, np.bool_)
    if safe_count:
        safe[tuple(analysis.safe.T)] = True
    certain = all(safe[square] for square in targets)
    chance: float
    if certain:
        chance = 0.0
    elif len(targets) == 1:
        chance = float(analysis.probability[targets[0]])
    else:
        joint = Lookahead(analysis).joint([], list(targets))
        chance = math.nan if joint is None else min(max(1.0 - joint, 0.0), 1.0)
    by_counting = certain and not settled
    probability = analysis.probability
    finite = np.isfinite(probability).any()
    lowest = float(np.nanmin(probability)) if finite else math.nan
    # Known mines left out: a square no one would click is no choice.
    open_to_doubt = probability[np.isfinite(probability) & (probability < 1.0 - _HALF_TOLERANCE)]
    highest = float(open_to_doubt.max()) if open_to_doubt.size else math.nan
    guess = not certain
    return ClickVerdict(
        mine_chance=chance,
        certain=certain,
        by_counting=by_counting,
        guess=guess,
        avoidable=guess and safe_count > 0,
        forced=guess and safe_count == 0,
        fifty_fifty=abs(chance - 0.5) < _HALF_TOLERANCE,
        lowest_chance=lowest,
        safe_squares=safe_count,
        highest_chance=highest,
        off_frontier_chance=_off_frontier(plain, probability),
    )


def _off_frontier(plain: npt.NDArray[np.uint8], probability: npt.NDArray[np.float64]) -> float:
    """The chance of a hidden square with no open neighbour (all share it); NaN with none."""
    hidden = plain > MAX_NUMBER
    padded = np.pad(~hidden, 1)
    rows, cols = plain.shape
    near_open = np.zeros(plain.shape, np.bool_)
    for dr in (0, 1, 2):
        for dc in (0, 1, 2):
            near_open |= padded[dr : dr + rows, dc : dc + cols]
    off = hidden & ~near_open & np.isfinite(probability)
    return float(probability[off][0]) if off.any() else math.nan


def click_verdict(
    view: npt.NDArray[np.uint8], mines: int, squares: Sequence[Square]
) -> ClickVerdict:
    """The verdict on a click that opens ``squares`` (hidden squares of ``view``).

    ``view`` is what the player saw before the click (glyphs), ``mines`` the
    board's mine count.
    """
    from ..solver import analyze
    from ..solver.certain import SingleNumberRules

    view = np.ascontiguousarray(view, np.uint8)
    plain = np.where(view <= MAX_NUMBER, view, GLYPH_HIDDEN).astype(np.uint8)
    rules = SingleNumberRules(*view.shape)
    rules.advance(view.tobytes())
    cols = view.shape[1]
    settled = rules.safe([r * cols + c for r, c in squares])
    return _verdict(plain, mines, squares, settled, analyze(plain, mines))


_EFFECT_NAMES = {effect: effect.name.lower() for effect in ClickEffect}
_KIND_NAMES = {kind: kind.name.lower() for kind in ClickKind}
_JUDGED = (ClickEffect.OPEN, ClickEffect.CHORD, ClickEffect.MINE)
#: The glyphs the solver reads: numbers kept, every square not open hidden (flags untrusted).
_PLAIN = bytes(code if code <= MAX_NUMBER else GLYPH_HIDDEN for code in range(256))
#: The verdict on a click the single-number rules settled, without the solver.
_SETTLED = ClickVerdict(
    mine_chance=0.0,
    certain=True,
    by_counting=False,
    guess=False,
    avoidable=False,
    forced=False,
    fifty_fifty=False,
    lowest_chance=0.0,
    safe_squares=-1,
    highest_chance=math.nan,
)
#: The verdict on a click not judged (it opened nothing) or past the solver's budget.
NOT_JUDGED: Final = ClickVerdict(
    mine_chance=math.nan,
    certain=False,
    by_counting=False,
    guess=False,
    avoidable=False,
    forced=False,
    fifty_fifty=False,
    lowest_chance=math.nan,
    safe_squares=-1,
)
#: The verdict on the game's first opening click: certainly safe by the program's rule
#: (every program these files come from makes it so), the board not analysed.
FIRST_CLICK: Final = replace(NOT_JUDGED, mine_chance=0.0, certain=True)


def _solved(
    before: bytes,
    rows: int,
    cols: int,
    mines: int,
    targets: Sequence[Square],
    settled: bool,
    analysed: dict[bytes, Any],
) -> ClickVerdict | None:
    """The solver's verdict on a click on view ``before``; None past its budget."""
    from ..solver import AnalysisBudgetError, analyze

    plain_bytes = before.translate(_PLAIN)
    plain = np.frombuffer(plain_bytes, np.uint8).reshape(rows, cols)
    if plain_bytes not in analysed:
        try:
            analysed[plain_bytes] = analyze(plain, mines)
        except AnalysisBudgetError:
            # A huge custom board can need more partial layouts than the
            # solver's budget: that click is left uncounted.
            analysed[plain_bytes] = None
    solver = analysed[plain_bytes]
    if solver is None:
        return None
    return _verdict(plain, mines, targets, settled, solver)


def judge_clicks(
    replay: Replay, analysis: ClickAnalysis | None = None, *, every_view: bool = False
) -> ClickTable:
    """Every click of ``replay`` with the solver's verdict (see the module's docstring).

    ``analysis`` is :func:`~minesweep.replays.clicks.analyse_clicks` of the
    replay, if already made. Most clicks of a good player are settled by the
    single-number rules; by default the solver is not run for those (it
    would only confirm them: chance 0, certain, lowest chance 0), and their
    ``safe_squares`` is -1, not counted. ``every_view=True`` runs it on every
    judged click, to count ``safe_squares`` everywhere, at about twice the time.
    """
    from ..solver.certain import SingleNumberRules
    from .operations import click_operations

    if analysis is None:
        analysis = analyse_clicks(replay)
    operations = click_operations(replay, analysis)
    travels, intervals = operations.travel.tolist(), operations.interval.tolist()
    opened, wasted = operations.opened.tolist(), operations.wasted.tolist()
    clicks_15 = operations.click_15.tolist()
    rows, cols, mines = analysis.rows, analysis.cols, replay.mines
    # The events' times, not the events: building a MouseEvent each would cost more.
    times = event_columns(replay).times
    rules = SingleNumberRules(rows, cols)
    analysed: dict[bytes, Any] = {}
    table: list[JudgedClick] = []
    pluck = 0.0
    first_seen = False
    for index, click in enumerate(analysis.clicks):
        before = analysis.views[click.view]
        effect = click.effect
        judged = click.row >= 0 and effect in _JUDGED
        targets: list[Square] = []
        if judged:
            if click.kind is ClickKind.DOUBLE:
                # The chorded number's hidden neighbours (flags stay shut).
                r, c = click.row, click.col
                targets = [
                    (i, j)
                    for i in range(max(r - 1, 0), min(r + 2, rows))
                    for j in range(max(c - 1, 0), min(c + 2, cols))
                    if before[i * cols + j] == GLYPH_HIDDEN
                ]
            else:
                targets = [(click.row, click.col)]
        first = not first_seen and click.kind is ClickKind.LEFT and effect is ClickEffect.OPEN
        verdict: ClickVerdict | None = None
        luck = 0.0
        if first:
            first_seen = True
        elif judged:
            rules.advance(before)
            settled = rules.safe([r * cols + c for r, c in targets])
            if settled and not every_view:
                verdict = _SETTLED
            else:
                verdict = _solved(before, rows, cols, mines, targets, settled, analysed)
            if first_seen:
                luck = verdict.luck if verdict else math.nan
                if effect is ClickEffect.MINE:
                    luck = math.inf
                pluck += luck
            # else: a mine hit before any opening (a program without a safe
            # first click): the game never started, and like ms-toollib its
            # luck is not counted.
        table.append(
            JudgedClick(
                index=index,
                event=click.event,
                time=float(times[click.event]) - analysis.start,
                kind=_KIND_NAMES[click.kind],
                row=click.row,
                col=click.col,
                effect=_EFFECT_NAMES[effect],
                effective=click.effective,
                solved=click.solved,
                view=click.view,
                squares=len(targets),
                judged=judged,
                first=first,
                verdict=FIRST_CLICK if first else NOT_JUDGED if verdict is None else verdict,
                luck=luck,
                pluck=pluck,
                travel=travels[index],
                interval=intervals[index],
                opened=opened[index],
                wasted=wasted[index],
                click_15=clicks_15[index],
            )
        )
    return ClickTable(tuple(table), analysis)
