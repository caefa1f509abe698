"""The exceptions minesweep raises.

Every error is a :class:`ValueError`, so code that already guards against bad
values keeps working; catch :class:`MinesweepError` to handle all of ours::

    MinesweepError(ValueError)
    ├── InvalidBoardError    the board is malformed: wrong type, shape or cell value
    ├── InvalidClickError    the click is malformed, out of range, or on a revealed cell
    ├── GameOverError        the game has already ended (a mine is shown exploded)
    └── ParseError           text or bytes in one of our formats could not be read

Messages are lowercase, say what was expected and where, and repeat the bad
value with ``repr`` so that ``'1'`` and ``1`` cannot be confused.
"""

from __future__ import annotations

__all__ = [
    "GameOverError",
    "InvalidBoardError",
    "InvalidClickError",
    "MinesweepError",
    "ParseError",
]


class MinesweepError(ValueError):
    """Base class of every error raised by minesweep."""


class InvalidBoardError(MinesweepError):
    """The board is not a well-formed Minesweeper board."""


class InvalidClickError(MinesweepError):
    """The click cannot be applied: malformed, out of range, or on a revealed cell."""


class GameOverError(MinesweepError):
    """The game has already ended, so no further click is allowed."""


class ParseError(MinesweepError):
    """Text or bytes in one of minesweep's formats could not be parsed."""
