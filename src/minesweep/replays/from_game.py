"""A game of minesweep as a replay: the mouse events a player's clicks would have made.

A :class:`~minesweep.Game` keeps what was played (actions at their times);
a replay keeps the mouse. :func:`replay_from_game` writes each action as the
presses and releases of the mouse at the middle of its square, so that any
replay tool (Metasweeper, ms-toollib, this package's own statistics) counts
the clicks the player made (the button of each action, and the events of
each button, are :mod:`minesweep.mouse`'s):

- a reveal is a left press and release (``lc``, ``lr``);
- a chord is a middle press and release (``mc``, ``mr``), which every tool
  counts as one double click;
- a flag placed or taken away is a right press and release (``rc``, ``rr``),
  and so is any mark action on an open square (a wasted right click, in
  the game as in every tool).

Question marks have no place in these formats' mouse model (ms-toollib's
right button only toggles a flag), so a mark action is written as the right
click that changes the flag state it changes, and one that changes no flag
on a closed square (a question mark put on or taken off, a flag put on a
flag, an unflag of a bare square) as nothing. The game's question-mark
setting is kept in the header.

Times are the actions' times, in whole milliseconds as EVF stores them, on
the game's clock: the file starts with the cursor on the first action's
square at 0 ms, where the game's clock starts (EVF v4 needs its first event
within 255 ms, and of a kind a chord is not). The header's time is the
replay tools' time: from the first reveal that opened a square, where they
start their clock, to the end (a flag placed before it does not count). A
reveal on a flag before that first reveal is left out (the replay tools'
mouse machine would misread the clicks after it).

Going back is :func:`minesweep.replays.clicks.replay_game`: for a game whose
every action changed the board (no wasted clicks, no question marks) it
gives the same actions at the same times, to the millisecond, but for one
rule of the replay tools (ms-toollib's, which this package's statistics
follow) that the game does not have: flags placed before the first reveal
and all taken off again before it restart the game there, and those clicks
are neither counted nor replayed.
"""

from __future__ import annotations

import numpy as np

from .. import __version__
from ..actions import ActionKind, GameStatus
from ..game import Game
from ..mouse import BUTTON_OF, PRESS_RELEASE
from ..squares import STATE_FLAGGED, STATE_HIDDEN
from ..stats import board_stats
from .model import Claims, MouseEvent, Replay, ReplayError

__all__ = ["DEFAULT_CELL_PX", "replay_from_game"]

#: The square size replays are written with unless told (Metasweeper's default).
DEFAULT_CELL_PX = 16

#: EVF stores rows and columns in a byte each, and positions in 16 bits.
_MAX_SIDE = 255
_MAX_PIXELS = 32767


def replay_from_game(
    game: Game,
    *,
    player: str = "",
    country: str = "",
    cell_px: int = DEFAULT_CELL_PX,
    start_us: int | None = None,
) -> Replay:
    """``game`` as an EVF v4 replay, ready for :func:`~minesweep.replays.write_evf`.

    The game must have started from a blank board and have a reveal that
    opened a square (where the replay tools start a game), on a board EVF
    holds (255 rows and columns at most, and at most 32,767 pixels across
    at ``cell_px`` pixels a square). ``start_us``, microseconds since 1970
    when the game's clock started, is written with the game's length added
    as its end. Raises :class:`ReplayError` for a game a replay cannot hold
    or a bad argument.
    """
    if isinstance(cell_px, bool) or not isinstance(cell_px, int) or not 1 <= cell_px <= 255:
        raise ReplayError(f"cell_px must be an int from 1 to 255, got {cell_px!r}")
    if "\0" in player:
        raise ReplayError(f"the player's name {player!r} holds a NUL character, which EVF cannot")
    if start_us is not None and (
        isinstance(start_us, bool) or not isinstance(start_us, int) or start_us < 0
    ):
        raise ReplayError(f"start_us must be a non-negative int or None, got {start_us!r}")
    rows, cols = game.shape
    if rows > _MAX_SIDE or cols > _MAX_SIDE or max(rows, cols) * cell_px > _MAX_PIXELS:
        raise ReplayError(
            f"a {rows}x{cols} board of {cell_px}-pixel squares does not fit EVF "
            f"(at most {_MAX_SIDE} rows and columns, {_MAX_PIXELS} pixels across)"
        )
    initial = game.initial_state
    if initial is not None and (np.asarray(initial) != STATE_HIDDEN).any():
        raise ReplayError("the game started from a position, not a blank board: a replay cannot")
    steps = game.steps
    first_open = next(
        (s.action.time for s in steps if s.action.kind is ActionKind.REVEAL and s.effective),
        None,
    )
    field = game.field
    if field is None or first_open is None:
        raise ReplayError(
            "the game has no reveal that opened a square: a replay starts at the first one"
        )
    is_open = np.zeros(rows * cols, np.bool_)
    # The cursor is on the first action's square when the game's clock starts.
    first = steps[0].action
    events: list[MouseEvent] = [MouseEvent(0.0, "mv", *_middle(first.row, first.col, cell_px))]
    started = False
    for step in steps:
        action = step.action
        kind = action.kind
        if kind is ActionKind.REVEAL and not started and not step.effective:
            # A reveal that changed nothing before the game began was on a
            # flag. Written, it would be worse than lost: the replay tools'
            # mouse machine counts it and leaves the left button "held", so
            # the next right click reads as a chord and the reveal after it
            # as nothing. It is left out, like the clicks that change nothing.
            continue
        if kind is ActionKind.REVEAL and step.effective:
            started = True
        if kind is ActionKind.REVEAL or kind is ActionKind.CHORD:
            # What a reveal or chord changed it opened (and, at a win, flagged:
            # no action comes after that).
            is_open[step.squares] = True
        elif step.effective:
            # A mark that changed the square: a right click where a flag came or went.
            was_flagged = int(step.before[0]) == STATE_FLAGGED
            if (kind is ActionKind.FLAG) == was_flagged:
                continue  # a question mark on or off a square with no flag
        elif not is_open[action.row * cols + action.col]:
            # A mark on an open square is written (a wasted right click); on a
            # closed one it is the mark the square has already, and no mouse
            # click leaves a closed square so.
            continue
        # The action's button, pressed and released: a mark is a right click.
        press_release = PRESS_RELEASE[BUTTON_OF[kind]]
        moment = round(action.time, 3)
        x, y = _middle(action.row, action.col, cell_px)
        events.extend(MouseEvent(moment, event, x, y) for event in press_release)
    won = game.status is GameStatus.WON
    elapsed = round(game.elapsed, 3)
    # The replay tools' time runs from the first opening reveal, to the ms as stored.
    rtime = (round(elapsed * 1000) - round(first_open * 1000)) / 1000
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
            rtime=rtime if game.is_over else None,
            completed=won,
            official=False,
            fair=False,
            # Metasweeper's "NF": no flag was ever placed.
            no_flags=not any(s.action.kind is ActionKind.FLAG and s.effective for s in steps),
        ),
        extra=(("question_marks", "on" if game.question_marks else "off"),),
    )


def _middle(row: int, col: int, cell_px: int) -> tuple[int, int]:
    """The pixel at the middle of square ``(row, col)``, as ``(x, y)``."""
    return col * cell_px + cell_px // 2, row * cell_px + cell_px // 2
