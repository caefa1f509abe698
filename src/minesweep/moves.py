"""The rules of a move on one board: what an action does to a position, on arrays.

:class:`~minesweep.game.Game` keeps the history, the clock and undo; the
rules it applies are here, as functions of the squares' states (and, once
the mines are laid, the field's numbers and mines), so that the RL
environments and the game ask the same questions of the same code:

- which squares a reveal may open and when a reveal lays the mines,
- which state a mark gives a square and what a right click toggles to
  (the toggle: :func:`minesweep.rules.marks.toggled`),
- which squares a chord opens, in which order
  (:mod:`minesweep.rules.chord`),
- whether an action ended the game, and what the end shows (a win flags
  every mine; a loss shows the mines and the wrong flags:
  :mod:`minesweep.rules.ends`),
- the glyphs of a position: what the player sees on every square.

Where the rule is one the vector engine compiles too, it is written once in
:mod:`minesweep.rules` and asked here as plain Python
(:func:`minesweep.rules.plain`), or through its table.

>>> import numpy as np
>>> state = np.array([[STATE_REVEALED, STATE_FLAGGED], [STATE_HIDDEN, STATE_HIDDEN]], np.uint8)
>>> numbers = np.array([[1, 0], [1, 1]], np.uint8)
>>> mines = np.array([[False, True], [False, False]])
>>> chord_targets(state, numbers, mines, 0, 0)
[(1, 0), (1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from .actions import ActionKind, GameStatus
from .board import Board, shown
from .rules import plain
from .rules.chord import chord_order
from .rules.chord import chord_targets as _chord_rule
from .rules.ends import WIN_GLYPHS, end_view, table_index
from .rules.marks import toggled
from .squares import STATE_FLAGGED, STATE_HIDDEN, STATE_QUESTIONED, STATE_REVEALED

__all__ = [
    "MARKS",
    "chord_targets",
    "is_openable",
    "lays_mines",
    "mark_target",
    "open_squares",
    "settled_status",
    "toggled_mark",
    "view_of",
    "win_flags",
]

#: The state each marking action gives a hidden square.
MARKS: Final = {
    ActionKind.FLAG: STATE_FLAGGED,
    ActionKind.UNFLAG: STATE_HIDDEN,
    ActionKind.QUESTION: STATE_QUESTIONED,
}
#: The marking action that gives a square each state.
_MARKING: Final = {state: kind for kind, state in MARKS.items()}

# The rules both engines share, as plain Python: each asks a few squares, in
# microseconds, and a plain game must not load numba for them.
_toggled: Final = plain(toggled)
_chord_targets: Final = plain(_chord_rule)
_chord_order: Final = plain(chord_order)


def is_openable(state: int) -> bool:
    """Whether a reveal opens a square in this state: hidden or question-marked.

    A flag protects its square: revealing it is a wasted click.
    """
    return state in (STATE_HIDDEN, STATE_QUESTIONED)


def lays_mines(kind: ActionKind, *, laid: bool, state: int) -> bool:
    """Whether an action lays the mines: the first reveal that opens something.

    Mines are laid around the first reveal of a hidden or question-marked
    square (so the first-click rule can keep it safe); a reveal of a flag
    opens nothing, and lays nothing.
    """
    return kind is ActionKind.REVEAL and not laid and is_openable(state)


def mark_target(kind: ActionKind, current: int) -> int | None:
    """The state a marking action gives a square in state ``current``; None if it changes nothing.

    A revealed (or exploded) square takes no mark, and marking a square
    with the mark it has is a wasted click.
    """
    target = MARKS[kind]
    if current >= STATE_REVEALED or current == target:
        return None
    return target


def toggled_mark(current: int, *, question_marks: bool) -> ActionKind:
    """What a right click does: hidden to flag, flag to question mark (if enabled) or hidden.

    The rule is :func:`minesweep.rules.marks.toggled`; on a revealed square
    it is an unflag, which changes nothing (a wasted click).
    """
    return _MARKING.get(_toggled(current, question_marks), ActionKind.UNFLAG)


def chord_targets(
    state: npt.NDArray[np.uint8],
    numbers: npt.NDArray[np.uint8],
    mines: npt.NDArray[np.bool_],
    row: int,
    col: int,
) -> list[tuple[int, int]]:
    """What a chord at ``(row, col)`` opens, in the order it opens them; nothing if not ready.

    A chord on a revealed number with exactly that many flags around it and
    a hidden (or question-marked) square beside it opens its safe hidden
    neighbours row by row, then the first mine among them
    (:mod:`minesweep.rules.chord`, as the vector engine plays it).
    """
    top, left = max(row - 1, 0), max(col - 1, 0)
    box = (slice(top, row + 2), slice(left, col + 2))
    # Memoryviews: the interpreter reads their squares as ints, five times
    # faster than numpy's scalars.
    view = shown(state[box], numbers[box]).data
    order = [0] * 9  # first where the rule names the box's hidden squares (unread), then the order
    if not _chord_targets(view, row - top, col - left, 1, True, order):
        return []
    safe, exploded = _chord_order(mines.data, state.data, row, col, order)
    cols = state.shape[1]
    return [divmod(square, cols) for square in order[: safe + exploded]]


def open_squares(
    board: Board, targets: Sequence[tuple[int, int]]
) -> tuple[npt.NDArray[np.int64], int]:
    """Reveal ``targets`` on ``board`` in order, each one still hidden (or question-marked).

    A square an earlier target's flood opened is skipped; a mine, last of a
    chord's targets, goes off. Returns the squares opened (flat indices,
    each once, in the order they opened) and how many of them were safe.
    """
    state = board.state  # a live view: it shows what each reveal opens
    cols = board.shape[1]
    changed: list[npt.NDArray[np.int64]] = []
    opened = 0
    for row, col in targets:
        if not is_openable(int(state[row, col])):
            continue
        # Squares Game.push checked, or their neighbours: past Board.reveal's check.
        result = board._reveal(row, col, True)
        assert result.cells is not None
        changed.append(result.cells[:, 0] * cols + result.cells[:, 1])
        opened += result.opened
    if not changed:
        return np.zeros(0, np.int64), 0
    return np.concatenate(changed), opened


def settled_status(status: GameStatus, *, exploded: bool, safe_remaining: int) -> GameStatus:
    """The status after a reveal or chord: lost on a mine, won when no safe square is hidden."""
    if exploded:
        return GameStatus.LOST
    if safe_remaining == 0:
        return GameStatus.WON
    return status


def win_flags(
    state: npt.NDArray[np.uint8],
    numbers: npt.NDArray[np.uint8],
    mines: npt.NDArray[np.bool_],
    changed: npt.NDArray[np.int64],
) -> npt.NDArray[np.int64]:
    """The squares (flat indices) a win flags: those it shows otherwise, every mine not flagged.

    What a win shows is :func:`minesweep.rules.ends.win_glyph`'s; the game
    writes it as flags, for undo. The arrays are flat; squares in
    ``changed`` (those the winning action already changed) are left out, so
    that each square appears once in the step that undo restores.
    """
    glyphs = shown(state, numbers)
    unflagged = np.flatnonzero(WIN_GLYPHS.take(table_index(glyphs, mines)) != glyphs)
    return np.setdiff1d(unflagged, changed, assume_unique=True)


def view_of(
    state: npt.NDArray[np.uint8],
    numbers: npt.NDArray[np.uint8] | None,
    mines: npt.NDArray[np.bool_] | None,
    status: GameStatus,
) -> npt.NDArray[np.uint8]:
    """What the player sees on every square: a :class:`~minesweep.squares.Glyph` or a number 0-8.

    ``numbers`` and ``mines`` are None before the mines are laid. Once the
    game is lost, the mines are shown and wrong flags marked; once won,
    every mine shows a flag (:mod:`minesweep.rules.ends`). The arrays may be
    any band of rows of a board, all of the same shape.
    """
    if numbers is None or mines is None:
        return shown(state, None)
    glyphs = shown(state, numbers)
    if status is GameStatus.WON or status is GameStatus.LOST:
        return end_view(glyphs, mines, won=status is GameStatus.WON)
    return glyphs
