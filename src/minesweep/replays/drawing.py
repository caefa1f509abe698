"""A replay as a picture: its final board, with its key statistics under it and as its title.

A :class:`~.model.Replay` shows itself in Jupyter (``_repr_svg_``) as this
picture. It cannot import this module, even inside the method: the final
board comes from the click analysis, which imports the model, and the
layers allow no import cycle, not even a lazy one. So this module hands
:func:`picture` to the model when it is imported (:func:`.model.draw_with`),
and the package imports this module.

:func:`guess_pictures` draws the guesses a player should review: for each
click the solver grades as a guess (:mod:`.verdict`), the view before it
with the heat map of mine chances, the click and the best alternative
marked, and the verdict under it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..squares import GLYPH_HIDDEN, square_tag
from .clicks import analyse_clicks, replay_game
from .model import Replay, draw_with
from .stats import replay_stats

if TYPE_CHECKING:
    from .verdict import ClickTable, JudgedClick

__all__ = ["guess_pictures", "picture"]


def picture(replay: Replay, *, size: int = 24, theme: str = "classic") -> str:
    """The SVG of ``replay``'s final board, with the player, time, 3BV and 3BV/s.

    The statistics are the picture's title and, where people see them, a
    caption under the board.

    The board is the game's as the engine replays it (:func:`.clicks.replay_game`):
    mines shown and wrong flags marked after a loss, every mine flagged after
    a win. ``size`` and ``theme`` are :func:`minesweep.svg.board`'s.
    """
    # Here, not at the top: every replay command imports this module, and
    # the drawing (with its XML escaping) is 20-30 ms a process would pay
    # for nothing unless it draws.
    from .. import svg

    clicks = analyse_clicks(replay)
    stats = replay_stats(replay, clicks=clicks)
    view = replay_game(replay, clicks).glyphs()
    rows, cols = replay.field.shape
    who = replay.player or "anonymous"
    result = "won" if stats.won else "not won"
    game = f"{replay.format.upper()}, {rows} by {cols}, {replay.mines} mines"
    numbers = (
        f"time {stats.rtime:.2f} s, 3BV {stats.bbbv_solved}/{stats.bbbv}, 3BV/s {stats.bbbv_s:.2f}"
    )
    title = f"Replay of {who} ({game}), {result}: {numbers}"
    caption = f"{who}, {result}: {numbers}\n{game}"
    return svg.board(view, size=size, theme=theme, title=title, caption=caption)


draw_with(picture)


#: A guess's grade (:func:`.verdict.guess_grade`) as the caption says it.
_GRADE_WORDS = {
    "avoidable": "avoidable: a certainly safe square was left",
    "best": "best: no square was less risky",
    "forced": "forced: every square was as risky",
    "worse": "worse: {:.1%} riskier than the best",
}


def guess_pictures(
    replay: Replay, table: ClickTable | None = None, *, size: int = 24, theme: str = "classic"
) -> list[tuple[JudgedClick, str]]:
    """Each guess of ``replay``, with the SVG of the view before it, in the order played.

    A guess is a click the solver found not certainly safe (its verdict's
    :attr:`.verdict.ClickVerdict.guess`). Its picture is the view the player
    saw (flags included), the heat map of the exact mine chances (flags not
    trusted, as the verdict does not trust them), the click marked, and the
    best alternative, the least risky square other than the click (a
    certainly safe one where there was one), marked as a hint. The caption
    and title say the click, its chance, the verdict, the luck and the
    alternative. ``table`` is :func:`.verdict.judge_clicks` of the replay, if
    already made.
    """
    from .. import svg
    from ..solver import AnalysisBudgetError, analyze
    from .verdict import judge_clicks

    if table is None:
        table = judge_clicks(replay)
    analysis = table.analysis
    rows, cols = analysis.rows, analysis.cols
    pictures: list[tuple[JudgedClick, str]] = []
    for click in table.clicks:
        if not click.verdict.guess:
            continue
        view = analysis.views[click.view]
        glyphs = np.frombuffer(view, np.uint8).reshape(rows, cols)
        # The solver reads numbers and hidden squares: a flag is a claim, not a fact.
        plain = np.where(glyphs <= 8, glyphs, GLYPH_HIDDEN).astype(np.uint8)
        try:
            chances = analyze(plain, replay.mines).probability
        except AnalysisBudgetError:  # pragma: no cover - only huge custom boards
            chances = None
        marks = [svg.Mark(click.row, click.col, "click")]
        alternative = None if chances is None else _best_alternative(chances, click)
        if alternative is not None:
            marks.append(svg.Mark(alternative[0], alternative[1], "hint"))
        caption = _guess_caption(click, alternative, chances)
        title = f"Replay of {replay.player or 'anonymous'}, " + caption.replace("\n", "; ")
        pictures.append(
            (
                click,
                svg.board(
                    glyphs,
                    probabilities=chances,
                    marks=marks,
                    size=size,
                    theme=theme,
                    title=title,
                    caption=caption,
                ),
            )
        )
    return pictures


def _best_alternative(
    chances: npt.NDArray[np.float64], click: JudgedClick
) -> tuple[int, int] | None:
    """The hidden square with the lowest mine chance, the clicked square left out.

    A chord's squares are not left out: opening its one safe square alone
    was the alternative to chording onto the others. Ties go to the first
    in reading order, as the hint's do. None when no other square is hidden.
    """
    others = np.array(chances, np.float64, copy=True)
    if click.kind != "double":
        others[click.row, click.col] = np.nan
    if np.isnan(others).all():
        return None
    # Chances are floats within 1e-12 of the fractions, and the compiled and
    # interpreted solvers round differently: equal chances are ties.
    row, col = np.argwhere(others <= np.nanmin(others) + 1e-9)[0].tolist()
    return int(row), int(col)


def _guess_caption(
    click: JudgedClick, alternative: tuple[int, int] | None, chances: npt.NDArray[np.float64] | None
) -> str:
    """What a guess's picture says under it: the click, its chance, verdict and alternative."""
    found = click.verdict
    chance = "uncounted" if math.isnan(found.mine_chance) else f"{found.mine_chance:.1%}"
    what = "chord" if click.kind == "double" else f"{click.kind} click"
    first = (
        f"Click {click.index} at {click.time:.2f} s, {what} on {square_tag(click.row, click.col)}: "
        f"{chance} chance of a mine"
    )
    grade = _GRADE_WORDS.get(found.grade, "not graded")
    if found.grade == "worse":
        grade = grade.format(found.over_best)
    verdict = f"Guess, {grade}"
    if found.fifty_fifty:
        verdict += " (a 50/50)"
    luck = "a mine: the game was lost" if click.effect == "mine" else f"luck {click.luck:.3f}"
    if alternative is None or chances is None:
        best = "no other square was hidden"
    else:
        other = float(chances[alternative])
        said = "certainly safe" if other == 0 else f"{other:.1%}"
        best = f"best alternative {square_tag(*alternative)}, {said}"
    return f"{first}\n{verdict}; {luck}\n{best}"
