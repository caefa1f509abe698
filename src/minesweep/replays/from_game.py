"""A game of minesweep as a replay: the mouse events a player's clicks would have made.

A :class:`~minesweep.Game` keeps what was played (actions at their times);
a replay keeps the mouse. :func:`replay_from_game` writes each action as the
presses and releases of the mouse at the middle of its square, so that any
replay tool (Metasweeper, ms-toollib, this package's own statistics) counts
the clicks the player made:

- a reveal is a left press and release (``lc``, ``lr``);
- a chord is a middle press and release (``mc``, ``mr``), which every tool
  counts as one double click;
- a flag placed or taken away is a right press and release (``rc``, ``rr``).

Question marks have no place in these formats' mouse model (ms-toollib's
right button only toggles a flag), so a mark action is written as the right
click that changes the flag state it changes, and one that changes none (a
question mark put on or taken off a square with no flag) as nothing. Event
times are the actions' times, in whole milliseconds as EVF stores them.

Going back is :func:`minesweep.replays.clicks.replay_game`: for a game whose
every action changed the board (no wasted clicks, no question marks) it
gives the same actions at the same times, to the millisecond.
"""

from __future__ import annotations

import numpy as np

from .. import __version__
from ..actions import ActionKind, GameStatus
from ..game import Game
from ..squares import STATE_HIDDEN
from ..stats import board_stats
from .model import Claims, EventKind, MouseEvent, Replay, ReplayError

__all__ = ["DEFAULT_CELL_PX", "replay_from_game"]

#: The square size replays are written with unless told (Metasweeper's default).
DEFAULT_CELL_PX = 16

_PRESS_RELEASE: dict[ActionKind, tuple[EventKind, EventKind]] = {
    ActionKind.REVEAL: ("lc", "lr"),
    ActionKind.CHORD: ("mc", "mr"),
}


def replay_from_game(
    game: Game,
    *,
    player: str = "",
    country: str = "",
    cell_px: int = DEFAULT_CELL_PX,
    start_us: int | None = None,
) -> Replay:
    """``game`` as an EVF v4 replay, ready for :func:`~minesweep.replays.write_evf`.

    The game must have its mines laid (at least one reveal) and have started
    from a blank board. ``start_us``, microseconds since 1970 when the game
    began, is written with the game's length added as its end. Raises
    :class:`ReplayError` for a game a replay cannot hold.
    """
    field = game.field
    if field is None:
        raise ReplayError("the game has no mines laid yet: a replay needs at least one reveal")
    initial = game.initial_state
    if initial is not None and (np.asarray(initial) != STATE_HIDDEN).any():
        raise ReplayError("the game started from a position, not a blank board: a replay cannot")
    if isinstance(cell_px, bool) or not isinstance(cell_px, int) or not 1 <= cell_px <= 255:
        raise ReplayError(f"cell_px must be an int from 1 to 255, got {cell_px!r}")
    flagged: set[tuple[int, int]] = set()
    events: list[MouseEvent] = []
    for action in game.history:
        square = (action.row, action.col)
        kinds: tuple[EventKind, EventKind]
        if action.kind in _PRESS_RELEASE:
            kinds = _PRESS_RELEASE[action.kind]
        else:
            # Flag, unflag or question mark: a right click where the flag state changes.
            now_flagged = action.kind is ActionKind.FLAG
            if now_flagged == (square in flagged):
                continue
            if now_flagged:
                flagged.add(square)
            else:
                flagged.discard(square)
            kinds = ("rc", "rr")
        x = action.col * cell_px + cell_px // 2
        y = action.row * cell_px + cell_px // 2
        moment = round(action.time, 3)
        events.extend(MouseEvent(moment, kind, x, y) for kind in kinds)
    won = game.status is GameStatus.WON
    elapsed = round(game.elapsed, 3)
    return Replay(
        format="evf",
        version=4,
        field=field,
        events=tuple(events),
        cell_px=cell_px,
        software=f"minesweep {__version__}",
        player=player,
        country=country,
        start_us=start_us,
        end_us=None if start_us is None else start_us + round(elapsed * 1_000_000),
        claims=Claims(
            bbbv=board_stats(field).bbbv,
            rtime=elapsed if game.is_over else None,
            completed=won,
            official=False,
            fair=False,
            no_flags=not any(event.kind == "rc" for event in events),
        ),
    )
