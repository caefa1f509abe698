"""A batch of replays as one pandas table: a row a file, a column a statistic.

pandas is an optional extra (``pip install 'minesweep[analysis]'``), imported
only inside :func:`table`: the rest of minesweep never imports it, so that
``import minesweep`` stays fast and works without it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import SettingsError
from .reading import read, replay_paths
from .report import summary

if TYPE_CHECKING:
    import pandas

__all__ = ["table"]

# Files a worker reads in one go: enough to hide the cost of sending them.
_CHUNK = 16


def table(paths: Iterable[str | os.PathLike[str]], *, workers: int = 1) -> pandas.DataFrame:
    """One row a replay: a ``file`` column, then every field of :func:`~.report.summary`.

    ``paths`` are files, or folders whose replays (told by their bytes, as
    :func:`~.reading.replay_paths` finds them) are read recursively in
    sorted order.
    The rows are in that order, also on ``workers`` processes. A file that
    cannot be read raises :class:`~.model.ReplayError`, which names it; a
    missing pandas is a :class:`~minesweep.errors.SettingsError` that says
    what to install.
    """
    try:
        import pandas
    except ImportError:
        raise SettingsError(
            "minesweep.replays.table needs pandas: pip install 'minesweep[analysis]'"
        ) from None
    if workers < 1:
        raise SettingsError(f"workers must be at least 1, not {workers}")
    files = list(_files(paths))
    if workers == 1 or len(files) <= 1:
        rows = [_row(path) for path in files]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(min(workers, len(files))) as pool:
            rows = list(pool.map(_row, files, chunksize=_CHUNK))
    return pandas.DataFrame(rows) if rows else pandas.DataFrame(columns=["file"])


def _files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[str]:
    for name in paths:
        if Path(name).is_dir():
            yield from replay_paths(name)
        else:
            yield os.fspath(name)


def _row(path: str) -> dict[str, Any]:
    return {"file": path, **summary(read(path))}
