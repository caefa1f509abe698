"""A game in progress as the terminal game saves it: a game log, the one the web game keeps.

A save is the log's base, :func:`minesweep.formats.log_base` (game JSON of the
game before its first action), then one history record a line
(:func:`minesweep.history.record_line`), appended as the game is played: an
action costs one short row on any board. A seeded game's base is written at
its first action from the game before it, without the field, which the seed
and the first click lay again; a no-guess first reveal lays a field no seed
lays again, and the save is written afresh on a base that holds it, as it is
when an undo takes the field back.

The game's elapsed seconds are written beside the log (at each action, at a
pause, every few seconds of play and at a quit), and the clock resumes from
them: the log's times end at the last action, and the game ran on after it.

Saves of the format before (a ``"minesweep-save"`` header of version 1, its
settings and seed, then the same action and undo records and, in a no-guess
game, one record of the field) are read as the log they amount to, and
written back as one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from minesweep import Action, Game, ParseError
from minesweep.formats import (
    GAME_FORMAT,
    GAME_FORMAT_VERSION,
    log_base,
    parse_game_json,
    parse_game_log,
)
from minesweep.history import action_record, record_line, undo_record
from minesweep.notation import load_json

from .store import Store

__all__ = ["OLD_SAVE_FORMAT", "Resumed", "Save", "action_line", "read_save", "undo_line"]

#: The header format of the saves written before they were game logs.
OLD_SAVE_FORMAT = "minesweep-save"

#: A game log: its base, then its records one a line.
Log = tuple[str, list[str]]


def action_line(action: Action) -> str:
    """The save's line of one action (at its time)."""
    return record_line(action_record(action))


def undo_line() -> str:
    """The save's line of one undo."""
    return record_line(undo_record())


def read_save(
    base: str, records: list[str], *, clock: Callable[[], float], where: str = "saved game"
) -> tuple[Game, Log | None]:
    """The game a save holds and, for a save of the old format, the log to keep instead.

    ``base`` is the log's base, or an old save's header. Raises ParseError
    (naming ``where``) when the save cannot be read.
    """
    try:
        return parse_game_log(base, records, clock=clock, where=where), None
    except ParseError:
        log = _migrated(base, records)
        if log is None:
            raise
    return parse_game_log(*log, clock=clock, where=where), log


def _migrated(header_text: str, records: list[str]) -> Log | None:
    """An old save as a game log: its base and its lines; None if ``header_text`` is not one.

    The header becomes the base's settings on a hidden board; a field record
    (a no-guess first reveal's) becomes the base from then on, as it was
    replayed; the other records are the log's own already. The log's reader
    checks what the header held.
    """
    try:
        header = load_json(header_text)
    except ParseError:
        return None
    if not isinstance(header, dict) or header.get("format") != OLD_SAVE_FORMAT:
        return None
    if header.get("version") != 1:
        raise ParseError(f"saved game version {header.get('version')!r} is not supported")
    rows, cols = header.get("rows"), header.get("cols")
    hidden = ["#" * cols] * rows if type(rows) is int and type(cols) is int else None
    base: dict[str, Any] = {
        "format": GAME_FORMAT,
        "version": GAME_FORMAT_VERSION,
        **{key: header.get(key) for key in ("rows", "cols", "mines", "rule", "seed")},
        "question_marks": header.get("question_marks", False),
        "field": None,
        "first_click": None,
        "history": [],
        "status": "ready",
        "view": hidden,
    }
    lines = []
    for line in records:
        record = load_json(line)
        if isinstance(record, dict) and "field" in record:
            field = {"field": record["field"], "first_click": record.get("first_click")}
            base |= {"rule": "opening", "seed": None, **field}
        else:
            lines.append(line)
    # Written as a log's base is written: the reader checks what the header held.
    return log_base(parse_game_json(json.dumps(base))), lines


@dataclass(frozen=True, slots=True)
class Resumed:
    """A saved game, its clock running on from the seconds it was saved at."""

    game: Game
    assisted: bool
    #: Whether the player chose its seed; None where the save does not say.
    seeded: bool | None


class Save:
    """The save of one kind of game in a store, written as the game is played."""

    def __init__(self, store: Store, kind: str) -> None:
        self.store = store
        self.kind = kind
        #: Whether the store holds this game's base yet (written with its first action).
        self.begun = False

    def load(self, clock: Callable[[], float]) -> Resumed | None:
        """The saved game of this kind, its clock resumed; None if there is none.

        The clock runs on from the elapsed seconds saved beside the log, or
        from the last action's time where the save holds none (an older
        one). Raises ParseError when the save cannot be read. A save of the
        old format is written again as a game log.
        """
        saved = self.store.saved(self.kind)
        if saved is None:
            return None
        game, log = read_save(
            saved.base, saved.records, clock=clock, where=f"saved {self.kind} game"
        )
        if log is not None:
            self.store.rewrite(self.kind, *log, assisted=saved.assisted, seeded=saved.seeded)
        if game.history and saved.elapsed is not None:
            # The log's times stop at the last action; the game ran on to the
            # last write (a quit, a pause, a tick), never less than that action.
            last = game.history[-1].time
            game.set_start(clock() - max(saved.elapsed, last))
        self.begun = True
        return Resumed(game, saved.assisted, saved.seeded)

    def add(
        self,
        line: str,
        *,
        assisted: bool,
        elapsed: float,
        base: str | None = None,
        seeded: bool | None = None,
    ) -> None:
        """Append one record's ``line`` at the game's ``elapsed`` seconds.

        The first needs the ``base`` (:func:`log_base`) too, and whether the
        player chose the game's seed.
        """
        if not self.begun:
            if base is None:
                raise LookupError(f"the saved {self.kind} game has no base to add to")
            self.store.begin(self.kind, base, assisted=assisted, seeded=seeded)
            self.begun = True
        self.store.append(self.kind, line, assisted=assisted, elapsed=elapsed)

    def set_elapsed(self, elapsed: float) -> None:
        """The game has run ``elapsed`` seconds (written at a quit, a pause, a tick)."""
        if self.begun:
            self.store.set_elapsed(self.kind, elapsed)

    def rewrite(self, game: Game, *, assisted: bool, seeded: bool | None = None) -> None:
        """The whole save again from ``game``: its base now, and the actions left standing.

        After a no-guess first reveal laid the field, or an undo took it back.
        One transaction: a kill midway leaves the old save or the new one.
        """
        lines = [action_line(action) for action in game.history]
        self.store.rewrite(
            self.kind,
            log_base(game),
            lines,
            assisted=assisted,
            elapsed=game.elapsed,
            seeded=seeded,
        )
        self.begun = True

    def mark_assisted(self) -> None:
        """The game had help (a hint, the overlay) without a new record."""
        if self.begun:
            self.store.mark_assisted(self.kind)

    def ended(self) -> None:
        """The game ended: the store dropped its save as it recorded it."""
        self.begun = False

    def discard(self) -> None:
        """No save of this kind any more (a new game starts)."""
        self.store.discard(self.kind)
        self.begun = False
