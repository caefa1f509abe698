"""The squares of a game: what each one shows, and how an action changes them.

A :class:`Position` is the half of a :class:`~minesweep.game.Game` that knows
squares and nothing of time: the marks a player puts down before the mines are
laid, then the :class:`~minesweep.board.Board` once they are, the squares a
flood opened out of question marks (undo must put those marks back), and the
count of flags. It applies the rule of each action (:mod:`minesweep.moves`
holds the rules themselves) and hands back what changed, so that the game can
keep it as a step of its history and undo it. The game owns the clock, the
status, the history and undo.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, final

import numpy as np
import numpy.typing as npt

from .actions import Action, ActionKind, GameStatus
from .board import Board
from .field import Minefield
from .moves import (
    chord_targets,
    is_openable,
    mark_target,
    open_squares,
    settled_status,
    win_flags,
)
from .squares import STATE_FLAGGED, STATE_HIDDEN, STATE_QUESTIONED

__all__ = ["Change", "Position"]

#: Squares an action changed (flat indices), their states before, and how many it opened.
Change = tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8], int]

_NO_SQUARES: Final = np.zeros(0, np.int64)
_NO_STATES: Final = np.zeros(0, np.uint8)
_NO_SQUARES.flags.writeable = False
_NO_STATES.flags.writeable = False
_NOTHING: Final[Change] = (_NO_SQUARES, _NO_STATES, 0)


def read_only(array: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``array``, no longer writable (a view handed out must not change the game)."""
    array.flags.writeable = False
    return array


def count_flags(states: npt.NDArray[np.uint8]) -> int:
    """How many of ``states`` are flags."""
    return int(np.count_nonzero(states == STATE_FLAGGED))


@final
class Position:
    """The squares of a ``rows`` x ``cols`` game, on ``field`` once it is laid."""

    __slots__ = ("_board", "_cols", "_field", "_flags", "_marks", "_questions")

    def __init__(self, rows: int, cols: int, field: Minefield | None) -> None:
        self._cols = cols
        self._field = field
        self._board = Board(field) if field is not None else None
        # Before the mines are laid, flags and question marks live here.
        self._marks = np.zeros((rows, cols), np.uint8)
        # Flat indices of question-marked squares: a flood may open them, and
        # undo must then know they were question marks, not plain hidden.
        self._questions: set[int] = set()
        # How many squares are flagged, kept as actions change squares: the
        # counter a front end shows after every action costs nothing on a
        # board of 10^8 squares.
        self._flags = 0

    @property
    def field(self) -> Minefield | None:
        """The minefield, once laid."""
        return self._field

    @property
    def board(self) -> Board | None:
        """The board, once the mines are laid."""
        return self._board

    @property
    def flags(self) -> int:
        """How many squares are flagged now."""
        return self._flags

    def state(self) -> npt.NDArray[np.uint8]:
        """Every square's state, read-only: the board's once the mines are laid."""
        if self._board is not None:
            return self._board.state
        return read_only(self._marks.view())

    def mark_before_laying(self, row: int, col: int) -> int:
        """The state of a square while no mine is laid (a mark or hidden)."""
        return int(self._marks[row, col])

    def lay(self, field: Minefield) -> None:
        """Lay the mines, and carry the marks put down so far over to the board."""
        self._field = field
        self._board = Board(field, self._marks)

    def start_from(self, board: Board) -> None:
        """Take ``board``'s position (on this position's field) instead of all hidden."""
        self._board = board
        state = board.state
        self._questions = set(np.flatnonzero(state == STATE_QUESTIONED).tolist())
        self._flags = count_flags(state)

    # --- actions -------------------------------------------------------------------

    def perform(self, action: Action) -> Change:
        """Apply the action's rule; what changed (nothing for a wasted click)."""
        kind = action.kind
        if kind in (ActionKind.FLAG, ActionKind.UNFLAG, ActionKind.QUESTION):
            return self._mark(action)
        if self._board is None or self._field is None:
            return _NOTHING  # a chord before any square is revealed
        if kind is ActionKind.REVEAL:
            if not is_openable(int(self._board.state[action.row, action.col])):
                return _NOTHING
            return self._open([(action.row, action.col)])
        field = self._field
        targets = chord_targets(
            self._board.state, field.numbers, field.mines, action.row, action.col
        )
        if not targets:
            return _NOTHING
        return self._open(targets)

    def flag_every_mine(
        self, squares: npt.NDArray[np.int64], old: npt.NDArray[np.uint8]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.uint8]]:
        """At a win, flag every mine still unflagged: part of the winning step for undo."""
        assert self._field is not None
        state = self.state().reshape(-1)
        field = self._field
        unflagged = win_flags(state, field.numbers.reshape(-1), field.mines.reshape(-1), squares)
        if not len(unflagged):
            return squares, old
        previous = state[unflagged]
        self._write(unflagged, np.full(len(unflagged), STATE_FLAGGED, np.uint8))
        return np.concatenate([squares, unflagged]), np.concatenate([old, previous])

    def recount(self, squares: npt.NDArray[np.int64], old: npt.NDArray[np.uint8]) -> None:
        """Keep the flag count after ``squares`` changed from ``old``."""
        self._flags += count_flags(self.state().reshape(-1)[squares]) - count_flags(old)

    def restore(self, squares: npt.NDArray[np.int64], before: npt.NDArray[np.uint8]) -> None:
        """Put ``squares`` back to the states ``before`` (undo), question marks included."""
        if not len(squares):
            return
        now = self.state().reshape(-1)[squares]
        self._flags += count_flags(before) - count_flags(now)
        self._write(squares, before)
        was_question = before == STATE_QUESTIONED
        self._questions.update(squares[was_question].tolist())
        if self._questions:
            self._questions.difference_update(squares[~was_question].tolist())

    def settled(self, status: GameStatus) -> GameStatus:
        """``status`` after a reveal or chord changed squares: won, lost or still playing."""
        board = self._board
        if board is None:
            return status
        return settled_status(
            status, exploded=board.exploded_at is not None, safe_remaining=board.safe_remaining
        )

    # --- how ---------------------------------------------------------------------------

    def _write(self, squares: npt.NDArray[np.int64], states: npt.NDArray[np.uint8]) -> None:
        """Write the states of squares (flat indices): to the board once the mines are laid."""
        if self._board is not None:
            self._board.restore(squares, states)
        else:
            self._marks.reshape(-1)[squares] = states

    def _mark(self, action: Action) -> Change:
        """Flag, unflag or question-mark a hidden square; a revealed one takes no mark."""
        current = int(self.state()[action.row, action.col])
        target = mark_target(action.kind, current)
        if target is None:
            return _NOTHING
        index = action.row * self._cols + action.col
        if self._board is None:
            self._marks[action.row, action.col] = target
        else:
            # The square was checked as the action came in (Game.push).
            self._board._mark(action.row, action.col, target)
        if target == STATE_QUESTIONED:
            self._questions.add(index)
        else:
            self._questions.discard(index)
        return np.array([index], np.int64), np.array([current], np.uint8), 0

    def _open(self, targets: Sequence[tuple[int, int]]) -> Change:
        """Reveal squares by the rule of :func:`~minesweep.moves.open_squares`."""
        assert self._board is not None
        assert self._field is not None
        changed, opened = open_squares(self._board, targets)
        if not len(changed):
            return _NOTHING
        return changed, self._states_before_opening(changed), opened

    def _states_before_opening(self, flat: npt.NDArray[np.int64]) -> npt.NDArray[np.uint8]:
        """The states squares had before a reveal opened them: hidden or question-marked."""
        before = np.full(len(flat), STATE_HIDDEN, np.uint8)
        if self._questions:
            marked = np.isin(flat, np.fromiter(self._questions, np.int64))
            before[marked] = STATE_QUESTIONED
            self._questions.difference_update(flat[marked].tolist())
        return before
