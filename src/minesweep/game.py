"""Game: a whole game of Minesweeper, as python-chess's Board is a game of chess.

A :class:`Game` lays its mines at the first reveal (so the first click can be
kept safe), applies actions (reveal, flag, unflag, question, chord), knows
when the game is won or lost, keeps the full history with timestamps, and
undoes and redoes (:meth:`Game.pop`, :meth:`Game.redo`). It holds no UI code.

>>> game = Game.new("beginner", seed=7)
>>> game.reveal(4, 4).opened > 0
True
>>> game.status
<GameStatus.PLAYING: 'playing'>
>>> str(game.history[0])
'O4,4'

Every action is a tiny text command, as in Simon Tatham's Mines: ``O`` open,
``F`` flag, ``U`` unflag, ``Q`` question mark, ``C`` chord, then
``row,col``. A click that changes nothing (a reveal on a revealed square, a
chord on a number without the right flags...) is legal: it goes into the
history as a wasted click, which the competitive statistics count.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import final

import numpy as np
import numpy.typing as npt

from .actions import Action, ActionKind, Effect, GameStatus, Outcome, ReplayFrame, Step
from .board import Board
from .errors import (
    ActionError,
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    SettingsError,
)
from .field import Minefield
from .generate import check_fits, check_seed, generate_field, new_seed
from .grid import check_position, position_pair
from .leetcode import LeetCodeBoard
from .moves import lays_mines, toggled_mark, view_of
from .position import Position, read_only
from .presets import FirstClickRule, Preset, first_click_rule
from .squares import STATE_HIDDEN, CellState, Glyph
from .stopwatch import Stopwatch, still_clock

__all__ = [
    "Action",
    "ActionKind",
    "CellState",
    "Effect",
    "Game",
    "GameStatus",
    "Glyph",
    "Outcome",
    "ReplayFrame",
    "Step",
]


@final
class Game:
    """A game on a ``rows`` x ``cols`` board with ``mines`` mines.

    Build one with :meth:`new` (mines laid at the first reveal, following the
    first-click ``rule``, from ``seed``), :meth:`from_field` (mines given) or
    :meth:`from_leetcode`. ``clock`` is the monotonic time source (tests pass
    a fake one). ``question_marks`` lets :meth:`toggle_flag` cycle through a
    question mark.
    """

    __slots__ = (
        "_cols",
        "_first_click",
        "_initial",
        "_mines",
        "_position",
        "_redo",
        "_rows",
        "_rule",
        "_seed",
        "_status",
        "_steps",
        "_undos",
        "_watch",
        "question_marks",
    )

    def __init__(
        self,
        rows: int,
        cols: int,
        mines: int,
        *,
        rule: FirstClickRule | str = FirstClickRule.OPENING,
        seed: int | None = None,
        field: Minefield | None = None,
        first_click: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.monotonic,
        question_marks: bool = False,
    ) -> None:
        self._rows, self._cols, self._mines = rows, cols, mines
        self._rule = first_click_rule(rule)
        if seed is not None:
            seed = check_seed(seed)
        self._seed = new_seed() if seed is None and field is None else seed
        if field is not None and not isinstance(field, Minefield):
            raise InvalidBoardError(f"field must be a Minefield, got {type(field).__name__}")
        if first_click is not None:
            row, col = position_pair(first_click)
            check_position((rows, cols), row, col)
            first_click = (int(row), int(col))
        # The square the mines were laid around, when known.
        self._first_click = first_click
        if field is None:
            # Check now that the mines fit wherever the first click lands.
            check_fits(rows, cols, mines, self._rule)
        elif field.shape != (rows, cols) or field.mine_count != mines:
            raise InvalidBoardError(
                f"field is {field.rows}x{field.cols} with {field.mine_count} mines; "
                f"the game is {rows}x{cols} with {mines}"
            )
        self._position = Position(rows, cols, field)
        # The position before the first action, when it is not all hidden.
        self._initial: npt.NDArray[np.uint8] | None = None
        self._watch = Stopwatch(clock)
        self._status = GameStatus.READY
        self._steps: list[Step] = []
        self._redo: list[Action] = []
        self._undos = 0
        self.question_marks = question_marks

    # --- building games ---------------------------------------------------------

    @classmethod
    def new(
        cls,
        preset: str = "expert",
        *,
        rule: FirstClickRule | str = FirstClickRule.OPENING,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        question_marks: bool = False,
    ) -> Game:
        """A game of a preset.

        ``beginner`` 9x9 with 10 mines, ``intermediate`` 16x16 with 40,
        ``expert`` 16 rows x 30 columns with 99.
        """
        size = Preset.from_name(preset)
        return cls(
            size.rows,
            size.cols,
            size.mines,
            rule=rule,
            seed=seed,
            clock=clock,
            question_marks=question_marks,
        )

    @classmethod
    def from_field(
        cls,
        field: Minefield,
        *,
        clock: Callable[[], float] = time.monotonic,
        question_marks: bool = False,
    ) -> Game:
        """A game on a given minefield (no first-click protection)."""
        if not isinstance(field, Minefield):
            raise InvalidBoardError(f"field must be a Minefield, got {type(field).__name__}")
        return cls(
            field.rows,
            field.cols,
            field.mine_count,
            rule=FirstClickRule.NONE,
            field=field,
            clock=clock,
            question_marks=question_marks,
        )

    @classmethod
    def from_leetcode(
        cls, board: LeetCodeBoard, *, clock: Callable[[], float] = time.monotonic
    ) -> Game:
        """A game in the position of a LeetCode board (flags in lowercase, see Board).

        The position has no history: its status comes from the board (an ``X``
        is a lost game, no safe square hidden is a won one).
        """
        position = Board.from_leetcode(board)
        game = cls.from_field(position.field, clock=clock)
        game._start_from(position)
        return game

    def _start_from(self, position: Board) -> None:
        """Start from a position on the game's field instead of all hidden."""
        self._position.start_from(position)
        state = position.state
        if np.any(state != STATE_HIDDEN):
            self._initial = state.copy()
            self._initial.flags.writeable = False
        self._status = self._position_status()

    def _position_status(self) -> GameStatus:
        """The status a position shows by itself, with no history to say more."""
        board = self._position.board
        if board is None or self._initial is None:
            return GameStatus.READY
        if board.exploded_at is not None:
            return GameStatus.LOST
        if board.safe_remaining == 0 and board.revealed_count:
            return GameStatus.WON
        return GameStatus.PLAYING

    # --- what the game is -------------------------------------------------------

    @property
    def shape(self) -> tuple[int, int]:
        return self._rows, self._cols

    @property
    def mine_count(self) -> int:
        return self._mines

    @property
    def rule(self) -> FirstClickRule:
        return self._rule

    @property
    def seed(self) -> int | None:
        """The seed the mines are (or will be) laid from; None for a given field."""
        return self._seed

    @property
    def first_click(self) -> tuple[int, int] | None:
        """The square the mines were laid around (the first reveal), when known."""
        return self._first_click

    @property
    def field(self) -> Minefield | None:
        """The minefield, once laid (at the first reveal for a new game)."""
        return self._position.field

    @property
    def status(self) -> GameStatus:
        return self._status

    @property
    def is_over(self) -> bool:
        return self._status in (GameStatus.WON, GameStatus.LOST)

    @property
    def state(self) -> npt.NDArray[np.uint8]:
        """Every square's :class:`CellState`, read-only."""
        return self._current_state()

    def __getitem__(self, position: tuple[int, int]) -> CellState:
        row, col = position_pair(position)
        check_position(self.shape, row, col)
        return CellState(int(self._current_state()[row, col]))

    @property
    def flags(self) -> int:
        """How many squares are flagged now."""
        return self._position.flags

    @property
    def mines_left(self) -> int:
        """Mines minus flags, as the counter of every clone shows it (may go negative)."""
        return self._mines - self.flags

    @property
    def elapsed(self) -> float:
        """Seconds from the first action to now, or to the end of the game."""
        return self._watch.elapsed()

    @property
    def started_at(self) -> float | None:
        """The clock time of the first action (None before it)."""
        return self._watch.started_at

    def set_start(self, start: float) -> None:
        """Put the first action at clock time ``start``.

        For a game kept outside the process between actions (a server loads it
        for every request): with a wall clock, its time then runs between
        requests as it would in one process.
        """
        if not self._steps:
            raise ActionError("a game with no action has no start to set")
        self._watch.set_start(start, self._steps[-1].action.time if self.is_over else None)

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied and not undone, in order, with its time."""
        return tuple(step.action for step in self._steps)

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every action applied and not undone, with what it changed (see :class:`Step`)."""
        return tuple(self._steps)

    @property
    def initial_state(self) -> npt.NDArray[np.uint8] | None:
        """The position before the first action, read-only; None when it was all hidden.

        Only a game that started from a position (:meth:`from_leetcode`, or a
        replay given ``initial``) has one.
        """
        return self._initial

    @property
    def undos(self) -> int:
        """How many actions have been undone so far (a game with undos is assisted)."""
        return self._undos

    def outcome(self) -> Outcome:
        board = self._position.board
        return Outcome(
            status=self._status,
            exploded_at=board.exploded_at if board is not None else None,
            revealed=board.revealed_count if board is not None else 0,
            safe_remaining=(
                board.safe_remaining if board is not None else self._rows * self._cols - self._mines
            ),
            elapsed=self.elapsed,
        )

    def to_leetcode(self) -> LeetCodeBoard:
        """The position as a LeetCode board (flags in lowercase; see :meth:`Board.to_leetcode`).

        Before the first reveal of a new game the mines are not laid yet, and
        there is no LeetCode board to write.
        """
        board = self._position.board
        if board is None:
            raise InvalidBoardError("the mines are not laid until the first reveal")
        return board.to_leetcode()

    def glyphs(self, rows: slice | None = None) -> npt.NDArray[np.uint8]:
        """What the player sees on every square: a :class:`Glyph` value or a number 0-8.

        Once the game is lost, the mines are shown and wrong flags marked;
        once won, every mine shows a flag. ``rows`` (a slice) gives those rows
        only, in time proportional to them: a front end draws the rows on
        screen of a board of any size.
        """
        band = slice(None) if rows is None else rows
        if not isinstance(band, slice):
            raise SettingsError(f"rows must be a slice, got {rows!r}")
        state = self._current_state()[band]
        field = self._position.field
        if field is None:
            return view_of(state, None, None, self._status)
        return view_of(state, field.numbers[band], field.mines[band], self._status)

    # --- actions ----------------------------------------------------------------

    def reveal(self, row: int, col: int) -> Effect:
        """Open a square (left click)."""
        return self.push(Action(ActionKind.REVEAL, row, col))

    def flag(self, row: int, col: int) -> Effect:
        return self.push(Action(ActionKind.FLAG, row, col))

    def unflag(self, row: int, col: int) -> Effect:
        """Take a flag or question mark off."""
        return self.push(Action(ActionKind.UNFLAG, row, col))

    def question(self, row: int, col: int) -> Effect:
        return self.push(Action(ActionKind.QUESTION, row, col))

    def chord(self, row: int, col: int) -> Effect:
        """Open every unflagged neighbour of a number that has as many flags around it."""
        return self.push(Action(ActionKind.CHORD, row, col))

    def toggle_flag(self, row: int, col: int) -> Effect:
        """Right click: hidden to flag, flag to question mark (if enabled) or hidden."""
        check_position(self.shape, row, col)
        current = int(self._current_state()[row, col])
        kind = toggled_mark(current, question_marks=self.question_marks)
        # Its square checked here, the action goes past push's check of it.
        effect = self._apply_checked(Action(kind, row, col), at=None)
        self._redo.clear()
        return effect

    def lays_mines(self, action: Action) -> bool:
        """Whether applying ``action`` now lays the mines.

        Mines are laid at the first reveal that opens something: a reveal of
        a hidden or question-marked square while no field is laid (a reveal
        of a flag is a wasted click, and lays nothing).
        """
        if action.kind is not ActionKind.REVEAL or self._position.field is not None:
            return False
        check_position(self.shape, action.row, action.col)
        return self._lays_mines(action)

    def _lays_mines(self, action: Action) -> bool:
        """:meth:`lays_mines` for an action :meth:`_apply` has checked already."""
        if action.kind is not ActionKind.REVEAL or self._position.field is not None:
            return False
        state = self._position.mark_before_laying(action.row, action.col)
        return lays_mines(action.kind, laid=False, state=state)

    def push(self, action: Action) -> Effect:
        """Apply an action now (its ``time`` is set from the clock) and clear the redo stack."""
        effect = self._apply(action, at=None)
        self._redo.clear()
        return effect

    def pop(self) -> Action:
        """Undo the last action and return it; it can be redone with :meth:`redo`.

        Undoing the first reveal keeps the mines where they were laid.
        """
        if not self._steps:
            raise ActionError("there is nothing to undo")
        step = self._steps.pop()
        self._position.restore(step.squares, step.before)
        self._status = step.status_before
        self._watch.undone(to_start=not self._steps)
        self._redo.append(step.action)
        self._undos += 1
        return step.action

    def redo(self) -> Effect:
        """Apply again the last action undone."""
        if not self._redo:
            raise ActionError("there is nothing to redo")
        action = self._redo.pop()
        return self._apply(action, at=None)

    @classmethod
    def replay(
        cls,
        game: Game,
        actions: Iterable[Action],
        *,
        clock: Callable[[], float] = time.monotonic,
        initial: npt.ArrayLike | None = None,
        undos: int = 0,
    ) -> Game:
        """A game like ``game`` before its first action, then ``actions`` at their times.

        This is also how a saved game comes back (:func:`minesweep.formats.parse_game_json`):
        ``initial``, the :class:`CellState` of every square, starts it from that
        position instead of ``game``'s own (its :attr:`initial_state`), which
        needs ``game`` to have a field; ``undos`` is how many actions the game
        counts as undone, so that an assisted game stays assisted.
        """
        if isinstance(undos, bool) or not isinstance(undos, int) or undos < 0:
            raise SettingsError(f"undos must be a non-negative int, got {undos!r}")
        field = game._position.field
        fresh = cls(
            game._rows,
            game._cols,
            game._mines,
            rule=game._rule,
            seed=game._seed,
            field=field,
            first_click=game._first_click,
            clock=clock,
            question_marks=game.question_marks,
        )
        start = game._initial if initial is None else initial
        if start is not None:
            if field is None:
                raise InvalidBoardError("a game starts from a position only on a given field")
            fresh._start_from(Board(field, start))
        for action in actions:
            fresh._apply(action, at=action.time)
        fresh._undos = undos
        return fresh

    def replay_views(self) -> Iterator[ReplayFrame]:
        """The game stepped again from its start: what the player saw after each action.

        The first frame is the position before any action (its ``action`` is
        None), then one frame for each action of :attr:`history`, re-applied
        by the rules on a copy of the game, so a replay shows exactly what the
        game showed: every square a flood or chord opened, and once the game
        is over the mines, wrong flags or a win's flags. This game is not
        changed.

        >>> game = Game.from_field(Minefield.from_text("*..\\n...\\n"))
        >>> _ = game.reveal(1, 2)
        >>> [frame.view.tolist() for frame in game.replay_views()]
        [[[9, 9, 9], [9, 9, 9]], [[9, 1, 0], [9, 1, 0]]]
        """
        copy = Game.replay(self, (), clock=still_clock)
        yield ReplayFrame(None, copy._status, read_only(copy.glyphs()))
        for action in self.history:
            copy._apply(action, at=action.time)
            yield ReplayFrame(action, copy._status, read_only(copy.glyphs()))

    # --- the rules ----------------------------------------------------------------

    def _current_state(self) -> npt.NDArray[np.uint8]:
        """Every square's state, read-only: the board's once the mines are laid."""
        return self._position.state()

    def _apply(self, action: Action, *, at: float | None) -> Effect:
        """Apply ``action`` now (``at`` None) or at a recorded time (a replay).

        Everything is checked before anything changes: a refused action leaves
        the state, the history and the clock as they were.
        """
        if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
            raise InvalidClickError(f"expected an Action with an ActionKind, got {action!r}")
        # The one check of an action's square on its way in (push, redo and a
        # replay all come here): the position, the board and the field below
        # take the square as it is.
        check_position(self.shape, action.row, action.col)
        return self._apply_checked(action, at=at)

    def _apply_checked(self, action: Action, *, at: float | None) -> Effect:
        """:meth:`_apply` of an action whose kind and square are checked."""
        if self.is_over:
            raise GameOverError(
                f"the game is over ({self._status.value}); no more actions, but undo works"
            )
        previous = self._steps[-1].action.time if self._steps else None
        now, stamp = self._watch.stamp(at, previous, action)
        action = Action(action.kind, int(action.row), int(action.col), stamp)
        status_before = self._status
        if self._lays_mines(action):
            self._lay_mines(action.row, action.col)
        position = self._position
        squares, old, opened = position.perform(action)
        if self._status is GameStatus.READY:
            self._status = GameStatus.PLAYING
        if action.kind in (ActionKind.REVEAL, ActionKind.CHORD) and len(squares):
            self._status = position.settled(self._status)
        self._watch.run(now, stamp, over=self.is_over)
        if self._status is GameStatus.WON:
            squares, old = position.flag_every_mine(squares, old)
        position.recount(squares, old)
        squares.flags.writeable = False
        old.flags.writeable = False
        self._steps.append(Step(action, squares, old, opened, status_before))
        # Rows and columns straight into the pairs: np.stack cost a chord a tenth of its time.
        cells = np.empty((len(squares), 2), np.int64)
        np.divmod(squares, self._cols, out=(cells[:, 0], cells[:, 1]))
        return Effect(action, bool(len(squares)), opened, cells, self._status)

    def _lay_mines(self, row: int, col: int) -> None:
        """At the first reveal: lay the mines around it (the marks carry over)."""
        if self._position.field is not None:
            return
        assert self._seed is not None
        self._first_click = (row, col)
        field = generate_field(
            self._rows,
            self._cols,
            self._mines,
            first_click=(row, col),
            rule=self._rule,
            seed=self._seed,
        )
        self._position.lay(field)

    def __repr__(self) -> str:
        return (
            f"<Game {self._rows}x{self._cols}, {self._mines} mines, {self._status.value}, "
            f"{len(self._steps)} actions>"
        )

    def _repr_svg_(self) -> str:
        """The player's view as a picture, for Jupyter (:meth:`glyphs`, end marks included)."""
        from . import svg  # drawing is for notebooks, not for play

        title = (
            f"Game {self._rows} by {self._cols}, {self._mines} mines, {self._status.value}, "
            f"{len(self._steps)} actions"
        )
        return svg.board(self.glyphs(), title=title)
