"""Uploaded replay files: read in any format, every click judged, every view drawn."""

from __future__ import annotations

import math
from typing import Final, cast

import numpy as np

from minesweep import MinesweepError
from minesweep.replays import read, summary
from minesweep.replays.clicks import analyse_clicks
from minesweep.replays.verdict import JudgedClick, judge_clicks
from minesweep.squares import VIEW_SYMBOLS

from . import models
from .errors import RefusedError
from .limits import ApiError, Limits

__all__ = ["replay_file"]

#: The name an uploaded replay goes by in messages when it was sent without one.
_UPLOAD: Final = "the uploaded file"


#: The one view alphabet (:data:`~minesweep.squares.VIEW_SYMBOLS`) as bytes, indexed by glyph.
_SYMBOLS: Final = np.frombuffer(VIEW_SYMBOLS.encode("ascii"), np.uint8)


def replay_file(limits: Limits, data: bytes, name: str | None = None) -> models.ReplayFile:
    """An uploaded replay file of any format, read, with every click judged and every view.

    ``name`` is the file's name (its extension picks the reader when the
    bytes do not tell; messages name it). A file that cannot be read is a
    400 with the reader's message, naming the byte; a board or a game
    larger than the viewer takes, a 422.
    """
    where = _upload_name(name)
    # A file that cannot be read is a ReplayError (400), naming the byte.
    replay = read(data, name=where)
    rows, cols = replay.rows, replay.cols
    if rows * cols > limits.max_replay_squares:
        raise ApiError(
            422,
            f"{where}: the replay viewer takes boards of up to {limits.max_replay_squares} "
            f"squares, and this one is {rows}x{cols}",
        )
    try:
        analysis = analyse_clicks(replay)
        if len(analysis.clicks) > limits.max_replay_clicks:
            raise ApiError(
                422,
                f"{where}: the replay viewer takes games of up to {limits.max_replay_clicks} "
                f"clicks, and this one has {len(analysis.clicks)}",
            )
        table = judge_clicks(replay, analysis)
        record = summary(replay)
    except MinesweepError as error:
        # The file reads, but what it holds breaks the rules somewhere past
        # the reader's checks.
        raise RefusedError(f"{where}: {error}") from None
    views = []
    for view in analysis.views:
        # A replay's views are glyphs (Glyph), written as the API writes any view.
        text = _SYMBOLS[np.frombuffer(view, np.uint8)].tobytes().decode("ascii")
        views.append([text[r * cols : (r + 1) * cols] for r in range(rows)])
    return models.ReplayFile(
        format=cast(models.ReplayFormat, replay.format),
        player=replay.player,
        rows=rows,
        cols=cols,
        mines=replay.mines,
        summary={key: _summary_value(value) for key, value in record.items()},
        views=views,
        clicks=[_note(click) for click in table.clicks],
    )


def _upload_name(name: str | None) -> str:
    """The name an uploaded file goes by: its last part, if it is printable text."""
    if not name:
        return _UPLOAD
    name = name.replace("\\", "/").rsplit("/", 1)[-1][:120]
    # A name is echoed in messages: no control or bidirectional character.
    return name if name.strip() and name.isprintable() else _UPLOAD


def _finite(value: float) -> float | None:
    """A float JSON can hold: None for NaN and the infinities."""
    return float(value) if math.isfinite(value) else None


def _summary_value(value: object) -> models.SummaryValue:
    """A value of :func:`minesweep.replays.summary` as JSON holds it (no NaN, no numpy)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        return _finite(float(value))
    if isinstance(value, list | tuple):
        return [str(item) for item in value]
    return str(value)


def _note(click: JudgedClick) -> models.ClickNote:
    """One judged click as the API sends it: its row of the table, NaN and infinity as null."""
    return models.from_record(
        models.ClickNote,
        click.as_dict(),
        # Microseconds: the files keep milliseconds, the subtraction adds noise.
        time=round(click.time, 6),
        # -1 where the solver did not count them.
        safe_squares=None if click.verdict.safe_squares < 0 else click.verdict.safe_squares,
    )
