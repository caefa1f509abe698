"""A replay's timeline as an SVG chart: where the time went, and where the risk went.

:func:`timeline` draws the 3BV solved against the game's time, as a step
line (flat where the player thought, steep where an opening fell), each
guess (:mod:`.verdict`) as a dot on that line at its time, labelled with its
mine chance and coloured from safe to mine as the heat map colours it, and
the luck running total (ms-toollib's ``pluck``, ``-log10`` of the chance of
surviving the guesses so far) as a dashed step line on its own scale, at the
right. A game lost on a mine ends its luck line with an arrow upward: that
click's luck is infinite.

Hand-written SVG like :mod:`minesweep.svg`: no plotting library, and the
same replay gives the same bytes.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from .. import svg
from .model import Replay
from .stats import replay_stats

if TYPE_CHECKING:
    from .verdict import ClickTable

__all__ = ["timeline"]

#: The plot's margins, in pixels: room for the axes' numbers and names.
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 56, 28, 40


def timeline(
    replay: Replay, table: ClickTable | None = None, *, width: int = 640, height: int = 280
) -> str:
    """The SVG of ``replay``'s timeline (see the module's documentation).

    ``table`` is :func:`.verdict.judge_clicks` of the replay, if already made.
    """
    from .verdict import judge_clicks

    if table is None:
        table = judge_clicks(replay)
    clicks = table.clicks
    colours = svg.THEMES["classic"]
    inner_w, inner_h = width - _LEFT - _RIGHT, height - _TOP - _BOTTOM
    analysis = table.analysis
    end = max(analysis.end - analysis.start, 0.0)
    span = end if end > 0 else 1.0
    total = replay_stats(replay, clicks=analysis).bbbv
    top_bbbv = max(total, sum(click.solved for click in clicks), 1)
    finite = [click.pluck for click in clicks if math.isfinite(click.pluck)]
    top_luck = max([*finite, 0.3])  # at least one 50/50's worth of scale

    def x_of(time: float) -> float:
        return _LEFT + min(max(time, 0.0), span) / span * inner_w

    def y_of(solved: float) -> float:
        return _TOP + inner_h - solved / top_bbbv * inner_h

    def y_of_luck(luck: float) -> float:
        return _TOP + inner_h - min(luck, top_luck) / top_luck * inner_h

    # The steps: solved 3BV and luck, each changing at its click's time.
    solved_points = [(x_of(0.0), y_of(0))]
    luck_points = [(x_of(0.0), y_of_luck(0.0))]
    solved = 0
    luck = 0.0
    for click in clicks:
        x = x_of(click.time)
        if click.solved:
            solved_points += [(x, y_of(solved)), (x, y_of(solved + click.solved))]
            solved += click.solved
        if click.pluck != luck and math.isfinite(click.pluck):
            luck_points += [(x, y_of_luck(luck)), (x, y_of_luck(click.pluck))]
            luck = click.pluck
    solved_points.append((x_of(end), y_of(solved)))
    luck_points.append((x_of(end), y_of_luck(luck)))

    who = replay.player or "anonymous"
    guesses = [click for click in clicks if click.verdict.guess]
    title = (
        f"Timeline of {who}'s game: {solved} of {total} 3BV in {end:.2f} s, "
        f"{len(guesses)} guess{'es' if len(guesses) != 1 else ''}, "
        f"luck {_luck_text(table.pluck)}"
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
        f'<rect class="background" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<rect class="plot" x="{_LEFT}" y="{_TOP}" width="{inner_w}" height="{inner_h}" '
        f'fill="none" stroke="#808080"/>',
        _label(title, _LEFT, _TOP - 10, "start", "heading"),
    ]
    # The axes' ends: 0 and the whole, time at the bottom, 3BV left, luck right.
    out += [
        _label("0", _LEFT, height - _BOTTOM + 14, "middle", "axis"),
        _label(f"{end:.1f} s", _LEFT + inner_w, height - _BOTTOM + 14, "middle", "axis"),
        _label("time", _LEFT + inner_w / 2, height - 8, "middle", "axis-name"),
        _label("0", _LEFT - 6, _TOP + inner_h + 4, "end", "axis"),
        _label(str(top_bbbv), _LEFT - 6, _TOP + 4, "end", "axis"),
        _label("3BV", _LEFT - 6, _TOP + inner_h / 2, "end", "axis-name"),
        _label("0", _LEFT + inner_w + 6, _TOP + inner_h + 4, "start", "axis"),
        _label(f"{top_luck:.2f}", _LEFT + inner_w + 6, _TOP + 4, "start", "axis"),
        _label("luck", _LEFT + inner_w + 6, _TOP + inner_h / 2, "start", "axis-name"),
        f'<polyline class="solved" fill="none" stroke="#0000ff" stroke-width="2" '
        f'points="{_points(solved_points)}"/>',
        f'<polyline class="luck" fill="none" stroke="#800000" stroke-width="1.5" '
        f'stroke-dasharray="5 3" points="{_points(luck_points)}"/>',
    ]
    if table.pluck == math.inf:
        x, y = luck_points[-1]
        out.append(f'<path class="luck-infinite" fill="#800000" d="M{_n(x)} {_n(_TOP)}l-4 8h8z"/>')
    before = 0
    solved_by: dict[int, int] = {}
    for click in clicks:
        solved_by[click.index] = before
        before += click.solved
    for click in guesses:
        x, y = x_of(click.time), y_of(solved_by[click.index])
        chance = click.verdict.mine_chance
        fill = "#808080" if math.isnan(chance) else svg._heat_colour(chance, colours.heat)
        said = "uncounted" if math.isnan(chance) else svg.percent_label(chance)
        out.append(
            f'<circle class="guess" data-click="{click.index}" data-chance="{chance!r}" '
            f'cx="{_n(x)}" cy="{_n(y)}" r="5" fill="{fill}" stroke="#000000">'
            f"<title>click {click.index} at {click.time:.2f} s: {escape(said)} chance of a "
            f"mine, {escape(click.verdict.grade or 'guess')}; luck so far "
            f"{_luck_text(click.pluck)}</title></circle>"
        )
        # Above the dot, or below it where the plot's top edge would cross it.
        out.append(
            _label(said, x, y - 8 if y - 8 > _TOP + 12 else y + 17, "middle", "guess-chance")
        )
    out.append("</svg>")
    return "\n".join(out)


def _luck_text(luck: float) -> str:
    if math.isnan(luck):
        return "uncounted"
    return "infinite (a mine)" if luck == math.inf else f"{luck:.3f}"


def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _label(text: str, x: float, y: float, anchor: str, kind: str) -> str:
    return (
        f'<text class="{kind}" x="{_n(x)}" y="{_n(y)}" font-family="{svg.FONT}" '
        f'font-size="11" text-anchor="{anchor}" fill="#000000">{escape(text)}</text>'
    )
