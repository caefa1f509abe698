"""A finished game of the terminal game, written as an EVF replay for Metasweeper and ms-toollib.

The file goes into ``replays/`` beside the game's SQLite file (the store's
directory: ``$MINESWEEP_DATA_DIR`` when set, else the platform's data
directory), named as the web game names its downloads:
``minesweep-<kind>-<won|lost>-<YYYYmmdd-HHMMSS>.evf``, the time the game
ended in UTC, ``-2``, ``-3`` ... added when a file of that name is there.
The replay is :func:`minesweep.replays.replay_from_game`'s: the game's
actions as mouse clicks, at their times.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Final

from minesweep import ActionError, Game
from minesweep.replays import replay_from_game, write_evf

from .store import Store

__all__ = ["REPLAY_FOLDER", "replay_folder", "replay_name", "write_replay"]

#: The folder under the store's directory that replays are written into.
REPLAY_FOLDER: Final = "replays"

#: What a kind may not carry into a file name ("20x40/150", "expert/no-guess").
_UNSAFE_IN_NAME: Final = re.compile(r"[^A-Za-z0-9_-]+")


def replay_folder(store: Store) -> Path:
    """Where ``store``'s game writes its replays: ``replays/`` beside its SQLite file."""
    return store.path.parent / REPLAY_FOLDER


def replay_name(kind: str, game: Game, ended: float, copy: int = 1) -> str:
    """The file name of ``game``'s replay; ``ended`` is when it ended, in seconds since 1970."""
    safe = _UNSAFE_IN_NAME.sub("-", kind).strip("-") or "game"
    when = time.strftime("%Y%m%d-%H%M%S", time.gmtime(ended))
    again = f"-{copy}" if copy > 1 else ""
    return f"minesweep-{safe}-{game.status.value}-{when}{again}.evf"


def write_replay(game: Game, folder: Path, *, kind: str, ended: float) -> Path:
    """Write finished ``game`` as EVF into ``folder`` (made if need be); the file's path.

    ``ended`` (seconds since 1970) names the file and, less the game's time,
    dates the replay's start. Raises :class:`~minesweep.ActionError` for a
    game in progress, :class:`~minesweep.replays.ReplayError` for one EVF
    cannot hold (a board over 255 squares a side) and ``OSError`` when the
    file cannot be written; a file already there is never overwritten.
    """
    if not game.is_over:
        raise ActionError(
            f"the game is {game.status.value}: a replay holds the mines, "
            "so only a finished game is written"
        )
    begun = round((ended - game.elapsed) * 1_000_000)
    # A wall clock before 1970 (a broken host's) is a date EVF cannot hold: none then.
    data = write_evf(replay_from_game(game, start_us=begun if begun >= 0 else None))
    folder.mkdir(parents=True, exist_ok=True)
    copy = 1
    while True:
        path = folder / replay_name(kind, game, ended, copy)
        try:
            # "x": a replay of another game that ended in the same second stays.
            with path.open("xb") as file:
                file.write(data)
        except FileExistsError:
            copy += 1
            continue
        return path
