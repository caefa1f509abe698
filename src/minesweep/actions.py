"""What a game is made of: its status, actions, their effects and its history.

Small frozen value objects, with no rule in them: :class:`~minesweep.game.Game`
applies actions and makes these; formats, statistics and front ends read them.

>>> Action.parse("O3,4")
Action(kind=<ActionKind.REVEAL: 'O'>, row=3, col=4, time=0.0)
>>> str(Action(ActionKind.CHORD, 2, 7))
'C2,7'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

import numpy as np
import numpy.typing as npt

from .errors import ParseError

__all__ = [
    "Action",
    "ActionKind",
    "Effect",
    "GameStatus",
    "Outcome",
    "ReplayFrame",
    "Step",
]


class GameStatus(StrEnum):
    READY = "ready"  # no action yet
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class ActionKind(Enum):
    """The five actions, with their one-letter codes."""

    REVEAL = "O"
    FLAG = "F"
    UNFLAG = "U"
    QUESTION = "Q"
    CHORD = "C"


@dataclass(frozen=True, slots=True)
class Action:
    """One action at a square; ``time`` is seconds since the game's first action."""

    kind: ActionKind
    row: int
    col: int
    time: float = 0.0

    def __str__(self) -> str:
        return f"{self.kind.value}{self.row},{self.col}"

    @classmethod
    def parse(cls, text: str, time: float = 0.0) -> Action:
        """Read ``O3,4`` and the like (see the module's documentation)."""
        if not isinstance(text, str) or len(text) < 4:
            raise ParseError(f"action must look like 'O3,4', got {text!r}")
        try:
            kind = ActionKind(text[0])
        except ValueError:
            raise ParseError(
                f"action {text!r} starts with {text[0]!r}; expected one of O, F, U, Q, C"
            ) from None
        parts = text[1:].split(",")
        if len(parts) != 2 or not all(part.isdigit() and part.isascii() for part in parts):
            raise ParseError(f"action {text!r} must give row,col as two numbers, such as 'O3,4'")
        return cls(kind, int(parts[0]), int(parts[1]), time)


@dataclass(frozen=True, slots=True)
class Effect:
    """What one action did.

    ``cells`` lists every square whose state changed, as ``(n, 2)`` rows and
    columns, for a front end to redraw; ``opened`` counts newly revealed safe
    squares. A wasted action has ``effective`` false and no cells. When an
    action ends the game (``status`` won or lost), :meth:`Game.glyphs` changes
    for squares whose state did not (mines shown, wrong flags marked): redraw
    the whole board then.
    """

    action: Action
    effective: bool
    opened: int
    cells: npt.NDArray[np.int64]
    status: GameStatus


@dataclass(frozen=True, slots=True)
class Outcome:
    """Where the game stands, as data."""

    status: GameStatus
    #: The mine that went off, when lost.
    exploded_at: tuple[int, int] | None
    revealed: int
    safe_remaining: int
    elapsed: float

    @property
    def is_over(self) -> bool:
        return self.status in (GameStatus.WON, GameStatus.LOST)


@dataclass(frozen=True, slots=True)
class Step:
    """An action as the game applied it, and what undoing it needs.

    ``squares`` are the flat indices (row by row) of the squares whose state
    it changed and ``before`` their states before it, both read-only;
    ``opened`` counts the safe squares it revealed and ``status_before`` is
    the game's status before it. :attr:`Game.steps` lists them.
    """

    action: Action
    squares: npt.NDArray[np.int64]
    before: npt.NDArray[np.uint8]
    opened: int
    status_before: GameStatus

    @property
    def effective(self) -> bool:
        """Whether the action changed anything (a wasted click did not)."""
        return bool(len(self.squares))


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One frame of a replay (:meth:`Game.replay_views`): the view after an action.

    ``action`` is None for the first frame, the position before any action.
    ``view`` is what :meth:`Game.glyphs` showed then, read-only.
    """

    action: Action | None
    status: GameStatus
    view: npt.NDArray[np.uint8]

    @property
    def time(self) -> float:
        """Seconds since the game's first action (0 for the first frame)."""
        return self.action.time if self.action is not None else 0.0
