"""A replay as a picture: its final board, with its key statistics under it and as its title.

A :class:`~.model.Replay` shows itself in Jupyter (``_repr_svg_``) as this
picture. It cannot import this module, even inside the method: the final
board comes from the click analysis, which imports the model, and the
layers allow no import cycle, not even a lazy one. So this module hands
:func:`picture` to the model when it is imported (:func:`.model.draw_with`),
and the package imports this module.
"""

from __future__ import annotations

from .. import svg
from .clicks import analyse_clicks, replay_game
from .model import Replay, draw_with, mine_mask
from .stats import replay_stats

__all__ = ["picture"]


def picture(replay: Replay, *, size: int = 24, theme: str = "classic") -> str:
    """The SVG of ``replay``'s final board, with the player, time, 3BV and 3BV/s.

    The statistics are the picture's title and, where people see them, a
    caption under the board.

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
    game = f"{replay.format.upper()}, {rows} by {cols}, {replay.mines} mines"
    numbers = (
        f"time {stats.rtime:.2f} s, 3BV {stats.bbbv_solved}/{stats.bbbv}, 3BV/s {stats.bbbv_s:.2f}"
    )
    title = f"Replay of {who} ({game}), {result}: {numbers}"
    caption = f"{who}, {result}: {numbers}\n{game}"
    return svg.board(view, size=size, theme=theme, title=title, caption=caption)


draw_with(picture)
