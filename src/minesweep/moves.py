"""The pure rules of a move: what an action does to a position, on arrays.

:class:`~minesweep.game.Game` keeps the history, the clock and undo; the
rules it applies live here, as functions of the squares' states (and, once
the mines are laid, the field's numbers and mines), so that the solver, the
RL environments and the game ask the same questions of the same code:

- which squares a reveal may open and when a reveal lays the mines,
- which state a mark gives a square and what a right click toggles to,
- which squares a chord opens,
- whether an action ended the game, and what the end shows (a win flags
  every mine; a loss shows the mines and the wrong flags),
- the glyphs of a position: what the player sees on every square.

>>> import numpy as np
>>> state = np.array([[STATE_REVEALED, STATE_FLAGGED], [STATE_HIDDEN, STATE_HIDDEN]], np.uint8)
>>> numbers = np.array([[1, 0], [1, 1]], np.uint8)
>>> chord_targets(state, numbers, 0, 0)
[(1, 0), (1, 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from .actions import ActionKind, GameStatus
from .board import Board
from .grid import neighbours
from .squares import (
    GLYPH_EXPLODED,
    GLYPH_FLAG,
    GLYPH_HIDDEN,
    GLYPH_MINE,
    GLYPH_QUESTION,
    GLYPH_WRONG_FLAG,
    STATE_EXPLODED,
    STATE_FLAGGED,
    STATE_HIDDEN,
    STATE_QUESTIONED,
    STATE_REVEALED,
)

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
    """What a right click does: hidden to flag, flag to question mark (if enabled) or hidden."""
    if current == STATE_HIDDEN:
        return ActionKind.FLAG
    if current == STATE_FLAGGED and question_marks:
        return ActionKind.QUESTION
    return ActionKind.UNFLAG


def chord_targets(
    state: npt.NDArray[np.uint8], numbers: npt.NDArray[np.uint8], row: int, col: int
) -> list[tuple[int, int]]:
    """What a chord at ``(row, col)`` opens: every hidden neighbour of a satisfied number.

    A chord on a revealed number with exactly that many flags around it
    opens every other hidden (or question-marked) neighbour; anything else
    opens nothing.
    """
    number = int(numbers[row, col])
    if int(state[row, col]) != STATE_REVEALED or number == 0:
        return []
    around = state[max(0, row - 1) : row + 2, max(0, col - 1) : col + 2]
    if int(np.count_nonzero(around == STATE_FLAGGED)) != number:
        return []
    return [
        (r, c)
        for r, c in neighbours(state.shape, row, col)
        if state[r, c] in (STATE_HIDDEN, STATE_QUESTIONED)
    ]


def open_squares(
    board: Board, mines: npt.NDArray[np.bool_], targets: Sequence[tuple[int, int]]
) -> tuple[npt.NDArray[np.int64], int]:
    """Reveal ``targets`` on ``board``: the safe ones first, then the first mine among them.

    Opening the safe squares first means a chord that hits a wrong flag
    still shows what it opened, and a loss is never mistaken for a win.
    Returns the squares opened (flat indices, each once, in the order they
    opened) and how many of them were safe.
    """
    state = board.state  # a live view: it shows what each reveal opens
    cols = board.shape[1]
    changed: list[npt.NDArray[np.int64]] = []
    opened = 0
    for row, col in targets:
        if mines[row, col] or not is_openable(int(state[row, col])):
            continue  # a mine waits; a square an earlier flood opened is done
        result = board.reveal(row, col, cells=True)
        assert result.cells is not None
        changed.append(result.cells[:, 0] * cols + result.cells[:, 1])
        opened += result.opened
    for row, col in targets:
        if mines[row, col] and is_openable(int(state[row, col])):
            board.reveal(row, col)
            changed.append(np.array([row * cols + col], np.int64))
            break
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
    state: npt.NDArray[np.uint8], mines: npt.NDArray[np.bool_], changed: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The squares (flat indices) a win flags: every mine not flagged yet.

    ``state`` and ``mines`` are flat; squares in ``changed`` (those the
    winning action already changed) are left out, so that each square
    appears once in the step that undo restores.
    """
    unflagged = np.flatnonzero(mines & (state != STATE_FLAGGED))
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
    every mine shows a flag. The arrays may be any band of rows of a board,
    all of the same shape.
    """
    glyphs = np.full(state.shape, GLYPH_HIDDEN, np.uint8)
    glyphs[state == STATE_FLAGGED] = GLYPH_FLAG
    glyphs[state == STATE_QUESTIONED] = GLYPH_QUESTION
    if numbers is None or mines is None:
        return glyphs
    revealed = state == STATE_REVEALED
    glyphs[revealed] = numbers[revealed]
    glyphs[state == STATE_EXPLODED] = GLYPH_EXPLODED
    if status is GameStatus.WON:
        glyphs[mines] = GLYPH_FLAG
    if status is GameStatus.LOST:
        glyphs[mines & ((state == STATE_HIDDEN) | (state == STATE_QUESTIONED))] = GLYPH_MINE
        glyphs[(state == STATE_FLAGGED) & ~mines] = GLYPH_WRONG_FLAG
    return glyphs
