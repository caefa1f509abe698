"""A replay as a picture: its final board, with its key statistics as the title.

A :class:`~.model.Replay` cannot draw itself through ``_repr_svg_``: the
final board comes from the click analysis, which imports the model, and the
layers allow no import cycle, not even a lazy one. A notebook shows
``IPython.display.SVG(minesweep.replays.picture(replay))`` instead.
"""

from __future__ import annotations

from .. import svg
from .clicks import analyse_clicks, replay_game
from .model import Replay, mine_mask
from .stats import replay_stats

__all__ = ["picture"]


def picture(replay: Replay, *, size: int = 24, theme: str = "classic") -> str:
    """The SVG of ``replay``'s final board, titled with the player, time, 3BV and 3BV/s.

    The board is the game's as the engine replays it (:func:`.clicks.replay_game`):
    mines shown and wrong flags marked after a loss, every mine flagged after
    a win. ``size`` and ``theme`` are :func:`minesweep.svg.board`'s.
    """
    clicks = analyse_clicks(replay)
    stats = replay_stats(replay, clicks=clicks)
    view = replay_game(replay, clicks).glyphs()
    rows, cols = mine_mask(replay).shape
    who = replay.player or "anonymous"
    result = "won" if stats.won else "not won"
    title = (
        f"Replay of {who} ({replay.format.upper()}, {rows} by {cols}, {replay.mines} mines), "
        f"{result}: time {stats.rtime:.2f} s, 3BV {stats.bbbv_solved}/{stats.bbbv}, "
        f"3BV/s {stats.bbbv_s:.2f}"
    )
    return svg.board(view, size=size, theme=theme, title=title)
