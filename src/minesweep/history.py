"""A game's timed history: the one writer and the one reader of its records.

A history is what a player did, in order: actions with the seconds at which
they were played, and undos, each of which takes back the last action still
standing. Game JSON, the web game's log and the terminal game's saves all hold
it as the same records, one JSON object each::

    {"action": "O3,4", "time": 1.25}    an action at a time
    {"undo": true}                       the last action still standing, undone

:func:`action_record` / :func:`undo_record` (or :func:`record_line` for one line
of JSON) write them; :func:`read_history` reads any sequence of them back into a
:class:`History`, the only place where "an undo pops the last action" is
decided; :meth:`History.replay` plays it on a base game (the position before
the first action).

>>> from minesweep.actions import Action, ActionKind
>>> records = [action_record(Action(ActionKind.REVEAL, 3, 4, 0.5)), undo_record()]
>>> records
[{'action': 'O3,4', 'time': 0.5}, {'undo': True}]
>>> read_history(records)
History(actions=(), undos=1)
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .errors import ParseError
from .game import Game

__all__ = [
    "History",
    "action_record",
    "read_history",
    "read_history_lines",
    "record_line",
    "undo_record",
]


@dataclass(frozen=True, slots=True)
class History:
    """The actions left standing, with their times, and how many were undone."""

    actions: tuple[Action, ...] = ()
    undos: int = 0

    def replay(self, base: Game, *, clock: Callable[[], float] = time.monotonic) -> Game:
        """``base`` (a game before its first action) with these actions played at their times.

        The undos add to those the base already counts.
        """
        return Game.replay(base, self.actions, clock=clock, undos=base.undos + self.undos)


def action_record(action: Action) -> dict[str, Any]:
    """The record of one action: its text and its time."""
    return {"action": str(action), "time": action.time}


def undo_record() -> dict[str, Any]:
    """The record of one undo."""
    return {"undo": True}


def record_line(record: dict[str, Any]) -> str:
    """One record as one line of JSON, as logs and saves store it."""
    return json.dumps(record)


def read_history(records: object, *, where: str = "game history", undos: bool = True) -> History:
    """The history that ``records`` write; ParseError naming ``where`` and the entry if not.

    ``undos`` False refuses undo records (game JSON keeps only the actions left
    and a count of undos).
    """
    if not isinstance(records, (list, tuple)):
        raise ParseError(f'{where} must be a list of {{"action": ..., "time": ...}}')
    played: list[Action] = []
    undone = 0
    for index, record in enumerate(records):
        if undos and isinstance(record, dict) and "undo" in record:
            if record["undo"] is not True:
                raise ParseError(
                    f"{where} entry {index} has undo {record['undo']!r}; expected true"
                )
            if not played:
                raise ParseError(f"{where} entry {index} undoes an action, but none is left")
            played.pop()
            undone += 1
            continue
        if not isinstance(record, dict) or not isinstance(record.get("action"), str):
            raise ParseError(f'{where} entry {index} must be {{"action": "O3,4", ...}}')
        moment = record.get("time", 0.0)
        if (
            isinstance(moment, bool)
            or not isinstance(moment, (int, float))
            or not math.isfinite(moment)
            or moment < 0
        ):
            raise ParseError(f"{where} entry {index} has time {moment!r}; expected seconds")
        played.append(Action.parse(record["action"], float(moment)))
    return History(tuple(played), undone)


def read_history_lines(lines: Iterable[str], *, where: str = "game log") -> History:
    """:func:`read_history` of records stored one JSON object a line."""
    records: list[object] = []
    for index, line in enumerate(lines):
        try:
            records.append(json.loads(line))
        except (json.JSONDecodeError, TypeError):
            raise ParseError(f"{where} entry {index} is not JSON: {line!r}") from None
    return read_history(records, where=where)
