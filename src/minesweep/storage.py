"""Where the front ends keep their files, and a refused write said in one line.

The terminal game's store and the web game's default database live in one
folder: ``$MINESWEEP_DATA_DIR`` when set, else the platform's user data
directory. A folder that is a file, one not ours to write, a read-only
database and a full disk are the user's environment, not a bug: they are
:class:`~minesweep.errors.StorageError`, which the command line says in one
line with exit status 2. Public because two front ends (``tui.store`` and
``web.db``) share it, and a front end uses only public modules.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import StorageError

__all__ = ["data_directory", "made_data_directory", "unusable"]


def data_directory() -> Path:
    """``$MINESWEEP_DATA_DIR``, or the platform's user data directory for minesweep."""
    override = os.environ.get("MINESWEEP_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("minesweep", appauthor=False))


def made_data_directory() -> Path:
    """:func:`data_directory`, made if need be; a StorageError if it cannot be."""
    folder = data_directory()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise unusable(folder, error, folder=True) from error
    return folder


def unusable(path: Path, error: BaseException, *, folder: bool = False) -> StorageError:
    """``error``, met on ``path`` (the data directory if ``folder``), as one line naming it.

    ``error`` is an OSError, or a database's error (sqlite3's, or one that
    wraps it: its words are read).
    """
    what = f"data directory {str(path)!r}" if folder else f"database {str(path)!r}"
    said = str(error).lower()
    code = getattr(error, "errno", None)
    if "unable to open" in said and not os.access(path.parent, os.W_OK):
        # SQLite's words for a file it may not make in a folder not ours.
        return StorageError(f"the data directory {str(path.parent)!r} is not writable")
    if isinstance(error, (FileExistsError, NotADirectoryError)):
        problem = "is not a folder (set MINESWEEP_DATA_DIR to a folder)"
    elif isinstance(error, PermissionError) or "readonly" in said or "read-only" in said:
        problem = "is not writable" if folder else "is read-only"
    elif code == errno.ENOSPC or "disk is full" in said:
        problem = "cannot be written: the disk is full"
    elif isinstance(error, OSError) and error.strerror:
        problem = f"cannot be used: {error.strerror.lower()}"
    else:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        problem = f"cannot be used: {first}"
    return StorageError(f"the {what} {problem}")
