"""``minesweep replay``: read replay files (or folders of them) and print their statistics.

One file that cannot be read costs one line on standard error and exit
status 2 at the end; the other files are still printed. Many files are read
on ``--workers`` processes, or on a Dask cluster (``--dask``: the files' bytes
go to the workers, so they need no shared disk), and printed in the order
given. ``--clicks`` prints the solver's verdict on every click instead of one
summary a file; with ``--svg DIR`` (one file) it also draws every guess.

The output streams: each file's rows are written, and flushed, as soon as
the file is read and every file before it is printed, so that a batch of any
size is read in memory that does not grow with it (only the list of paths is
held). Ctrl-C keeps every row written, and says on one line how many files
were done.
"""

from __future__ import annotations

import argparse
import csv
import functools
import io
import json
import math
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import SettingsError
from ..squares import square_tag
from ._args import EXIT_USAGE, interrupted

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ..replays.animation import AnimationFormat

__all__ = ["replay", "replay_files"]

# The most files a worker reads in one go: enough to hide the cost of
# sending them, few enough that the first rows come soon (a chunk's rows are
# printed only once all of it is read).
_CHUNK = 16
#: The options that write the game as an animation, each named by its format
#: (animation.FORMATS, which the CLI does not import until one is given).
_ANIMATIONS: tuple[AnimationFormat, ...] = ("gif", "apng", "webp")

#: A file named on the command line or found in a folder, and why it cannot
#: be read (None for a file to read).
Entry = tuple[str, str | None]
Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def replay_files(names: Sequence[str]) -> Iterator[tuple[str, str | None]]:
    """Each file named, and each replay in a folder named (recursively, sorted), with a problem.

    The problem is None for a file to read, else why it cannot be. A folder's
    replays are told by their bytes (or their names: ``reading.replay_paths``).
    """
    from ..replays.reading import replay_paths

    for name in names:
        path = Path(name)
        if path.is_dir():
            found = replay_paths(path)
            if not found:
                yield name, "no replay files in this folder"
            for child in found:
                yield child, None
        elif not path.exists():
            yield name, "no such file"
        else:
            yield name, None


Outcome = tuple[str, list[dict[str, Any]] | None, str | None]


def _record(path: str, clicks: bool = False, data: bytes | None = None) -> Outcome:
    """Read one file: its summary (or its clicks, one record each), or why it could not be read.

    ``data`` is the file's bytes when they were read elsewhere (for Dask).
    """
    from ..errors import MinesweepError
    from ..replays import read, summary

    try:
        replay = read(path if data is None else data, name=path)
        if not clicks:
            return path, [summary(replay)], None
        from ..replays.verdict import judge_clicks

        return path, judge_clicks(replay).rows(), None
    except MinesweepError as error:
        return path, None, str(error)
    except OSError as error:
        return path, None, _cannot_read(path, error)


def _cannot_read(path: str, error: OSError) -> str:
    return f"{path}: cannot read it: {error.strerror or error}"


def _outcome(entry: Entry, clicks: bool) -> Outcome:
    path, problem = entry
    return (path, None, f"{path}: {problem}") if problem else _record(path, clicks)


def _records(entries: list[Entry], clicks: bool = False) -> list[Outcome]:
    return [_outcome(entry, clicks) for entry in entries]


def _records_of_bytes(
    files: list[tuple[str, bytes | None, str | None]], clicks: bool = False
) -> list[Outcome]:
    """The outcomes of files whose bytes were read here (None and why, where they were not)."""
    return [
        _record(path, clicks, data) if data is not None else (path, None, problem)
        for path, data, problem in files
    ]


def _loaded(entries: list[Entry]) -> list[tuple[str, bytes | None, str | None]]:
    """``entries`` with their bytes, for a cluster that may not share this disk."""
    loaded: list[tuple[str, bytes | None, str | None]] = []
    for path, problem in entries:
        if problem:
            loaded.append((path, None, f"{path}: {problem}"))
            continue
        try:
            loaded.append((path, Path(path).read_bytes(), None))
        except OSError as error:
            loaded.append((path, None, _cannot_read(path, error)))
    return loaded


def _text(record: dict[str, Any]) -> str:
    def number(value: Any) -> str:
        if isinstance(value, float):
            return "-" if not math.isfinite(value) else f"{value:.3f}"
        return str(value)

    from ..replays.stats import stnb_constant

    won = "won" if record["won"] else "not won"
    # STNB exists for the three standard boards alone; elsewhere the record
    # keeps ms-toollib's 0, which a person would read as a score.
    stnb = number(record["stnb"])
    if stnb_constant(record["rows"], record["cols"], record["mines"]) is None:
        stnb = "- (defined on 8x8/10, 16x16/40 and 16x30/99 only)"
    lines = [
        f"{record['file']}: {record['format'].upper()} v{record['version']}, "
        f"{record['software'] or 'unknown software'}, player {record['player'] or '-'}",
        f"  {record['rows']}x{record['cols']}, {record['mines']} mines, {won} in "
        f"{number(record['rtime'])} s; 3BV {record['bbbv_solved']}/{record['bbbv']}, "
        f"3BV/s {number(record['bbbv_s'])}",
        f"  clicks {record['cl']} (left {record['left']}, right {record['right']}, "
        f"double {record['double']}), effective {record['ce']}; IOE {number(record['ioe'])}, "
        f"throughput {number(record['thrp'])}, correctness {number(record['corr'])}",
        f"  openings {record['op']}, islands {record['isl']}, ZiNi {record['zini']}, "
        f"HZiNi {record['hzini']}, STNB {stnb}, RQP {number(record['rqp'])}",
    ]
    lines += [f"  check: {line}" for line in record["checks"]]
    return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    """``1 click``, ``2 clicks``; ``1 guess``, ``0 guesses``."""
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}{'es' if noun.endswith('s') else 's'}"


#: The guess grades, in the header's order, and as a line of the table says them.
_GRADES = ("avoidable", "best", "forced", "worse")
_GRADE_TEXT = {
    "avoidable": "avoidable (a certainly safe square was left)",
    "best": "best (no square was less risky)",
    "forced": "forced (every square was as risky)",
    "worse": "worse ({:.1%} riskier than the best)",
}


def _clicks_text(path: str, rows: list[dict[str, Any]]) -> str:
    """The judged clicks of one file as a table a person reads (every click is in JSON and CSV)."""
    judged = [row for row in rows if row["judged"]]
    guesses = [row for row in judged if row["guess"]]
    grades = [row.get("grade", "") for row in guesses]
    graded = ", ".join(f"{grades.count(grade)} {grade}" for grade in _GRADES)
    hard = sum(row["by_counting"] for row in judged)
    luck = rows[-1]["pluck"] if rows else 0.0
    # Clicks and squares are counted apart: a judged click is one that opened
    # squares (however many: a chord or an opening opens dozens) or hit a
    # mine; the others flagged, or opened nothing. The squares are the sum of
    # what the judged clicks opened, a won game's every safe square.
    opened = sum(row["opened"] for row in judged)
    hit = sum(row["effect"] == "mine" for row in judged)
    mines = f": {hit}" if hit else ""
    lines = [
        f"{path}: {_count(len(rows), 'click')}, {len(judged)} of them judged (the clicks that "
        f"opened squares, {_count(opened, 'square')} in all, or hit a mine{mines}); "
        f"luck {luck:.3f} (-log10 of the chance of surviving the guesses), "
        f"{_count(len(guesses), 'guess')} ({graded}), {hard} certain only by counting",
        "     time  click   square    chance  verdict",
    ]
    for row in judged:
        if row["first"]:
            verdict, chance = "first click (safe by the rules)", ""
        elif row["guess"]:
            fifty = ", 50/50" if row["fifty_fifty"] else ""
            grade = _GRADE_TEXT.get(row.get("grade", ""), "")
            if not grade:  # its chance uncounted: only whether a safe square was left
                grade = "avoidable" if row["avoidable"] else "no safe square"
            elif row["grade"] == "worse":
                grade = grade.format(row["over_best"])
            verdict = f"guess, {grade}{fifty}; luck {row['luck']:.3f}"
            if row["effect"] == "mine":
                verdict += "; hit a mine"
            chance = "-" if math.isnan(row["mine_chance"]) else f"{row['mine_chance']:.1%}"
        else:
            verdict = "certain, only by counting" if row["by_counting"] else "certain"
            chance = "0%"
        square = square_tag(row["row"], row["col"])
        lines.append(f"  {row['time']:7.3f}  {row['kind']:<6}  {square:<8}  {chance:>6}  {verdict}")
    return "\n".join(lines)


def _csv_row(record: dict[str, Any]) -> dict[str, Any]:
    if "checks" not in record:
        return record
    return {**record, "checks": "; ".join(record["checks"])}


class _Output:
    """Each file's rows, written whole and flushed: text, JSON Lines or CSV (one header)."""

    def __init__(self, form: str, clicks: bool, progress: bool) -> None:
        self.form = form
        self.clicks = clicks
        self.progress = progress
        self.files = 0  # the files printed or reported, counted as the line is written
        self.failures = 0
        self.buffer = io.StringIO()
        self.writer: csv.DictWriter[str] | None = None

    def file(self, outcome: Outcome, total: int) -> None:
        from ..interrupts import sigint_blocked

        path, records, error = outcome
        rows = self._rows(path, records) if records is not None else []
        # Ctrl-C waits for the end of the file's rows, so that what was written
        # is whole lines, and the count said at the end is the files written.
        with sigint_blocked():
            if records is None:
                self.failures += 1
                clear = "\r\x1b[K" if self.progress and self.files else ""
                sys.stderr.write(f"{clear}minesweep replay: {error}\n")
            else:
                # Row by row, not as one string: a write larger than the pipe
                # that a reader closes part way is not always told as a broken
                # pipe by Python's buffered writer, and the rest is dropped.
                sys.stdout.writelines(rows)
                sys.stdout.flush()
            self.files += 1
            if self.progress:
                sys.stderr.write(f"\rread {self.files}/{total} replays")
            sys.stderr.flush()

    def _rows(self, path: str, records: list[dict[str, Any]]) -> list[str]:
        """The lines of a file's output, each with its newline."""
        if self.form == "text":
            record = {"file": path, **records[0]}
            text = _clicks_text(path, records) if self.clicks else _text(record)
            return (text + "\n").splitlines(keepends=True)
        if self.form == "json":
            return [
                json.dumps(_finite({"file": path, **record}), ensure_ascii=False, allow_nan=False)
                + "\n"
                for record in records
            ]
        self.buffer.seek(0)
        self.buffer.truncate()
        for record in records:
            row = {"file": path, **record}
            if self.writer is None:
                self.writer = csv.DictWriter(self.buffer, fieldnames=list(row), lineterminator="\n")
                self.writer.writeheader()
            self.writer.writerow(_csv_row(row))
        return self.buffer.getvalue().splitlines(keepends=True)


def replay(arguments: argparse.Namespace) -> None:
    """Print each file's rows as it is read; Ctrl-C ends it with one line and status 130."""
    from ..interrupts import sigint_caught

    animations = [flag for flag in _ANIMATIONS if getattr(arguments, flag) is not None]
    if arguments.timeline is not None and (animations or arguments.svg is not None):
        # Each of them writes its own picture: which one was meant is not ours to guess.
        raise SettingsError(
            "--timeline writes one picture: give it without --gif, --apng, --webp or --svg"
        )
    if len(animations) > 1:
        raise SettingsError("--gif, --apng and --webp write one animation: give one of them")
    if not animations and arguments.speed != 1.0:
        # Nothing else plays in time: a pace given to nothing is a slip to say.
        raise SettingsError(
            "--speed sets an animation's pace: give it with --gif, --apng or --webp"
        )
    if animations:
        _animation(arguments, animations[0])
        return
    if arguments.svg is not None:
        _guess_pictures(arguments)
        return
    if arguments.timeline is not None:
        _timeline(arguments)
        return
    # Only the paths are listed ahead: the count of files is said on Ctrl-C.
    listed = list(replay_files(arguments.files))
    total = len(listed)
    show = arguments.progress and sys.stderr.isatty() and total > 1
    output = _Output(arguments.format, arguments.clicks, show)
    stopped = False
    with sigint_caught() as caught:
        try:
            for outcome in _outcomes(listed, arguments):
                output.file(outcome, total)
        except BaseException as error:
            # Native code that Python calls back (numba loading its cache) can
            # turn the interrupt into another exception on its way up.
            if not (caught() or isinstance(error, KeyboardInterrupt)):
                raise
            stopped = True
    if stopped:
        # Said once the handler that ignores a second Ctrl-C meanwhile is
        # gone: interrupted() ignores it from here on.
        interrupted(
            f"minesweep replay: interrupted after {output.files:,} of {total:,} "
            f"file{'s' if total != 1 else ''}",
            after_progress=show and output.files > 0,
        )
    if show:
        sys.stderr.write("\n")
    if output.failures:
        raise SystemExit(EXIT_USAGE)


def _animation(arguments: argparse.Namespace, form: AnimationFormat) -> None:
    """``--gif``/``--apng``/``--webp OUT``: one replay's game animated; Pillow is the one extra."""
    from ..replays import read

    flag = f"--{form}"
    if (
        len(arguments.files) != 1
        or arguments.clicks
        or arguments.format != "text"
        or arguments.svg is not None
    ):
        raise SettingsError(f"{flag} takes one replay file, without --clicks, --format or --svg")
    try:
        import PIL  # noqa: F401  (the pictures extra: said on one line when it is missing)
    except ImportError:
        sys.stderr.write(
            f"minesweep replay: {flag} needs Pillow: pip install 'minesweep[pictures]'\n"
        )
        raise SystemExit(EXIT_USAGE) from None
    from ..replays.animation import DEFAULT_CAP, frames, save_animation

    path, out = arguments.files[0], getattr(arguments, form)
    try:
        replay = read(path, name=path)
        written = save_animation(replay, out, form, speed=arguments.speed)
    except OSError as error:
        raise SettingsError(f"{error.filename or path}: {error.strerror or error}") from None
    sys.stderr.write(f"wrote {out} ({written:,} bytes)\n")
    # Where a pause was cut the animation is not timed like the game, and the issue asks
    # that it say so. Planning again costs a twentieth of drawing (0.13 s of 2.7 s, expert EVF).
    cuts = [frame.cut for frame in frames(replay, speed=arguments.speed) if frame.cut > 0]
    if cuts:
        at_speed = f", shown as {DEFAULT_CAP / arguments.speed:g} s at --speed {arguments.speed:g}"
        sys.stderr.write(
            f"capped {_count(len(cuts), 'pause')} of more than {DEFAULT_CAP:g} s"
            f" (the longest {DEFAULT_CAP + max(cuts):.2f} s) to {DEFAULT_CAP:g} s each"
            f"{'' if arguments.speed == 1 else at_speed}\n"
        )


def _guess_pictures(arguments: argparse.Namespace) -> None:
    """``--clicks --svg DIR``: the verdicts printed, and a picture of every guess in ``DIR``."""
    from ..replays import read
    from ..replays.drawing import guess_pictures
    from ..replays.verdict import judge_clicks

    one_file = len(arguments.files) == 1 and not Path(arguments.files[0]).is_dir()
    if not one_file or not arguments.clicks:
        raise SettingsError("--svg takes one replay file, with --clicks")
    path = arguments.files[0]
    folder = Path(arguments.svg)
    try:
        replay = read(path, name=path)
        table = judge_clicks(replay)
        pictures = guess_pictures(replay, table)
        folder.mkdir(parents=True, exist_ok=True)
        # Zero-padded to the widest index, so that the names sort in the
        # order played.
        width = max(4, len(str(len(table.clicks))))
        for click, picture in pictures:
            (folder / f"click-{click.index:0{width}d}.svg").write_text(picture, encoding="utf-8")
    except OSError as error:
        raise SettingsError(f"{error.filename or path}: {error.strerror or error}") from None
    _Output(arguments.format, True, False).file((path, table.rows(), None), 1)
    count = len(pictures)
    sys.stderr.write(f"wrote {_count(count, 'picture')} ({_count(count, 'guess')}) to {folder}\n")


def _timeline(arguments: argparse.Namespace) -> None:
    """``--timeline OUT.svg``: one replay's 3BV against time, with its guesses and luck."""
    from ..replays import read
    from ..replays.timeline import timeline

    one_file = len(arguments.files) == 1 and not Path(arguments.files[0]).is_dir()
    if not one_file or arguments.clicks or arguments.format != "text":
        raise SettingsError("--timeline takes one replay file, without --clicks or --format")
    path = arguments.files[0]
    try:
        picture = timeline(read(path, name=path)).encode()
        Path(arguments.timeline).write_bytes(picture)
    except OSError as error:
        raise SettingsError(f"{error.filename or path}: {error.strerror or error}") from None
    sys.stderr.write(f"wrote {arguments.timeline} ({len(picture):,} bytes)\n")


def _outcomes(listed: list[Entry], arguments: argparse.Namespace) -> Iterator[Outcome]:
    """Each file's outcome, in the order listed: here, on processes or on a Dask cluster."""
    clicks: bool = arguments.clicks
    if arguments.dask:
        from ..cluster import in_order_on_dask

        size = max(1, min(_CHUNK, len(listed) // 8))
        parts = in_order_on_dask(
            functools.partial(_records_of_bytes, clicks=clicks),
            (_loaded(chunk) for chunk in _chunks(listed, size)),
            arguments.dask,
            arguments.dask_timeout,
            doing="reading replays",
        )
        for part in parts:
            yield from part
        return
    count = min(arguments.workers or 1, os.cpu_count() or 1)
    if count <= 1 or len(listed) <= 1:
        from ..interrupts import sigint_polled

        # Ctrl-C is raised between two files, never inside a compiled kernel's
        # return (see sigint_polled): at most one file later.
        with sigint_polled() as check:
            for entry in listed:
                outcome = _outcome(entry, clicks)
                check()
                yield outcome
        return
    yield from _on_processes(listed, count, clicks)


def _chunks(entries: list[Entry], size: int) -> Iterator[list[Entry]]:
    for start in range(0, len(entries), size):
        yield entries[start : start + size]


def _on_processes(listed: list[Entry], workers: int, clicks: bool) -> Iterator[Outcome]:
    """The outcomes from ``workers`` processes, in order, at most 2 chunks a worker out at once."""
    from concurrent.futures import ProcessPoolExecutor

    from ..interrupts import ignore_sigint, sigint_blocked, stop_workers

    # Every worker gets a chunk of its own even in a small batch.
    size = max(1, min(_CHUNK, -(-len(listed) // (2 * workers))))
    chunks = _chunks(listed, size)
    work = functools.partial(_records, clicks=clicks)
    pool: ProcessPoolExecutor | None = None
    try:
        # The first submit starts the workers: SIGINT is held back until their
        # initializer ignores it (Ctrl-C is the parent's, which ends them).
        with sigint_blocked():
            pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_sigint)
            first = pool.submit(work, next(chunks))
        submit = functools.partial(pool.submit, work)
        for part in _in_order(submit, chunks, 2 * workers, [first]):
            yield from part
    except BaseException:
        # Ctrl-C, or the reader of the output gone: the workers end now.
        if pool is not None:
            stop_workers(pool)
        raise
    pool.shutdown()


def _in_order(
    submit: Callable[[Chunk], Future[Result]],
    chunks: Iterable[Chunk],
    window: int,
    pending: list[Future[Result]],
) -> Iterator[Result]:
    """The results of ``submit(chunk)`` in the chunks' order, with at most ``window`` out at once.

    ``pending`` are the futures already submitted, first in order.
    """
    out: deque[Future[Result]] = deque(pending)
    for chunk in chunks:
        while len(out) >= window:
            yield out.popleft().result()
        out.append(submit(chunk))
    while out:
        yield out.popleft().result()


def _finite(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` for JSON, which has no NaN or infinity: those become null."""
    return {
        key: None if isinstance(value, float) and not math.isfinite(value) else value
        for key, value in record.items()
    }
