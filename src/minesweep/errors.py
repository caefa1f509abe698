"""The exceptions minesweep raises.

Every error is a :class:`ValueError`, so code that already guards against bad
values keeps working; catch :class:`MinesweepError` to handle all of ours::

    MinesweepError(ValueError)
    ├── InvalidBoardError    the board is malformed: wrong type, shape or cell value
    ├── InvalidClickError    the click is malformed, out of range, or on a revealed cell
    ├── GameOverError        the game has already ended (a mine is shown exploded)
    ├── ActionError          an action that cannot apply to the game now (nothing to
    │                        undo, a time before the previous action's)
    ├── SettingsError        settings that describe no game: preset, size, seed, rule,
    │                        kind, or an optional extra that is not installed
    ├── ParseError           text or bytes in one of our formats could not be read
    │   ├── ReplayError      minesweep.replays: a replay file that cannot be read;
    │   │                    names the file and the byte
    │   └── TraceError       minesweep.web: the page's record of a game (its mouse)
    │                        that cannot be read
    ├── StorageError         the data directory or a database in it cannot be used:
    │                        not a folder, not writable, read-only, a full disk;
    │                        names the path
    │   (the solver, minesweep.solver.errors and minesweep.solver.noguess)
    ├── ContradictionError   no mine layout agrees with the view; names a square at fault
    ├── AnalysisBudgetError  the frontier is too tangled to count within the budget
    ├── NoGuessBudgetError   no no-guess field was found in the attempts or time allowed
    │   (the front ends)
    ├── InvalidActionError   minesweep.rl: an action the mask forbids (invalid_action="raise")
    ├── BadNameError         minesweep.web: a player name that is not a fair name
    ├── NameTakenError       minesweep.web: another account holds the name (or a look-alike)
    └── RequestError         minesweep.web: a request refused in the words of what it was
        │                    doing (minesweep.web.errors; the app gives each its status)
        ├── MalformedError   a request that cannot be read as one (400)
        ├── ConflictError    the game's state refuses it now (409)
        └── RefusedError     well formed, but the rules refuse it (422)

The front ends word their own options: no message here names a command-line
flag. (The web game's ``BusyError``, a server past its capacity, is no bad
value and is not in this tree.)

Messages are lowercase, say what was expected and where, and repeat the bad
value with ``repr`` so that ``'1'`` and ``1`` cannot be confused.
"""

from __future__ import annotations

__all__ = [
    "ActionError",
    "GameOverError",
    "InvalidBoardError",
    "InvalidClickError",
    "MinesweepError",
    "ParseError",
    "SettingsError",
    "StorageError",
]


class MinesweepError(ValueError):
    """Base class of every error raised by minesweep."""


class InvalidBoardError(MinesweepError):
    """The board is not a well-formed Minesweeper board."""


class InvalidClickError(MinesweepError):
    """The click cannot be applied: malformed, out of range, or on a revealed cell."""


class GameOverError(MinesweepError):
    """The game has already ended, so no further click is allowed."""


class ActionError(MinesweepError):
    """The action is well formed but cannot apply to the game now ("nothing to undo")."""


class SettingsError(MinesweepError):
    """Settings that describe no game: an unknown preset or rule, a bad size or seed,
    or an optional extra that the settings need and that is not installed."""


class ParseError(MinesweepError):
    """Text or bytes in one of minesweep's formats could not be parsed."""


class StorageError(MinesweepError):
    """The data directory, or a database in it, cannot be used: the message names the path.

    A bad environment, not a bug: the front ends say it in one line (the
    command line with exit status 2) instead of a traceback.
    """
