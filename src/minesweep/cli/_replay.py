"""``minesweep replay``: read replay files (or folders of them) and print their statistics.

One file that cannot be read costs one line on standard error and exit
status 2 at the end; the other files are still printed. Many files are read
on ``--workers`` processes, or on a Dask cluster (``--dask``: the files' bytes
go to the workers, so they need no shared disk), and printed in the order
given. ``--clicks`` prints the solver's verdict on every click instead of one
summary a file.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ._args import EXIT_USAGE

__all__ = ["REPLAY_SUFFIXES", "replay", "replay_files"]

#: The extensions a folder's replays are found by.
REPLAY_SUFFIXES = frozenset({".avf", ".rmv", ".evf", ".mvf", ".rawvf"})

# Files a worker reads in one go: enough to hide the cost of sending them.
_CHUNK = 64


def replay_files(names: Sequence[str]) -> Iterator[tuple[str, str | None]]:
    """Each file named, and each replay in a folder named (recursively, sorted), with a problem.

    The problem is None for a file to read, else why it cannot be.
    """
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(
                str(child)
                for child in path.rglob("*")
                if child.suffix.lower() in REPLAY_SUFFIXES and child.is_file()
            )
            if not found:
                yield name, "no replay files (.avf .rmv .evf .mvf .rawvf) in this folder"
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


def _records(paths: list[str], clicks: bool = False) -> list[Outcome]:
    return [_record(path, clicks) for path in paths]


def _records_of_bytes(files: list[tuple[str, bytes]], clicks: bool = False) -> list[Outcome]:
    return [_record(path, clicks, data) for path, data in files]


def _text(record: dict[str, Any]) -> str:
    def number(value: Any) -> str:
        if isinstance(value, float):
            return "-" if not math.isfinite(value) else f"{value:.3f}"
        return str(value)

    won = "won" if record["won"] else "not won"
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
        f"HZiNi {record['hzini']}, STNB {number(record['stnb'])}, RQP {number(record['rqp'])}",
    ]
    lines += [f"  check: {line}" for line in record["checks"]]
    return "\n".join(lines)


def _clicks_text(path: str, rows: list[dict[str, Any]]) -> str:
    """The judged clicks of one file as a table a person reads (every click is in JSON and CSV)."""
    judged = [row for row in rows if row["judged"]]
    guesses = [row for row in judged if row["guess"]]
    avoidable = sum(row["avoidable"] for row in guesses)
    hard = sum(row["by_counting"] for row in judged)
    luck = rows[-1]["pluck"] if rows else 0.0
    lines = [
        f"{path}: {len(rows)} clicks, {len(judged)} opened squares; luck {luck:.3f} "
        f"(-log10 of the chance of surviving the guesses), {len(guesses)} guesses "
        f"({avoidable} avoidable, {len(guesses) - avoidable} forced), {hard} only by counting",
        "     time  click   square    chance  verdict",
    ]
    for row in judged:
        if row["first"]:
            verdict, chance = "first click (safe by the rules)", ""
        elif row["guess"]:
            kind = "avoidable" if row["avoidable"] else "forced"
            fifty = ", 50/50" if row["fifty_fifty"] else ""
            verdict = f"guess, {kind}{fifty}; luck {row['luck']:.3f}"
            if row["effect"] == "mine":
                verdict += "; hit a mine"
            chance = "-" if math.isnan(row["mine_chance"]) else f"{row['mine_chance']:.1%}"
        else:
            verdict = "certain, only by counting" if row["by_counting"] else "certain"
            chance = "0%"
        square = f"({row['row']},{row['col']})"
        lines.append(f"  {row['time']:7.3f}  {row['kind']:<6}  {square:<8}  {chance:>6}  {verdict}")
    return "\n".join(lines)


def _csv_row(record: dict[str, Any]) -> dict[str, Any]:
    if "checks" not in record:
        return record
    return {**record, "checks": "; ".join(record["checks"])}


def replay(arguments: argparse.Namespace) -> None:
    listed = list(replay_files(arguments.files))
    readable = [path for path, problem in listed if problem is None]
    clicks: bool = arguments.clicks
    results: dict[str, tuple[list[dict[str, Any]] | None, str | None]] = {}
    chunks = [readable[start : start + _CHUNK] for start in range(0, len(readable), _CHUNK)]
    show = arguments.progress and sys.stderr.isatty() and len(readable) > 1
    done = 0

    def collect(part: list[Outcome]) -> None:
        nonlocal done
        for path, records, error in part:
            results[path] = (records, error)
        done += len(part)
        if show:
            sys.stderr.write(f"\rread {done}/{len(readable)} replays")
            sys.stderr.flush()

    if arguments.dask:
        _run_on_dask(chunks, clicks, arguments.dask, arguments.dask_timeout, collect)
    else:
        for part in _run(chunks, arguments.workers, clicks):
            collect(part)
    if show:
        sys.stderr.write("\n")
    failures = 0
    writer: csv.DictWriter[str] | None = None
    out = sys.stdout
    for path, problem in listed:
        records, error = results.get(path, (None, f"{path}: {problem}"))
        if records is None:
            failures += 1
            sys.stderr.write(f"minesweep replay: {error}\n")
            continue
        if arguments.format == "text":
            text = _clicks_text(path, records) if clicks else _text({"file": path, **records[0]})
            out.write(text + "\n")
            continue
        for record in records:
            record = {"file": path, **record}
            if arguments.format == "json":
                out.write(json.dumps(_finite(record), ensure_ascii=False, allow_nan=False) + "\n")
            else:
                if writer is None:
                    writer = csv.DictWriter(out, fieldnames=list(record), lineterminator="\n")
                    writer.writeheader()
                writer.writerow(_csv_row(record))
    out.flush()
    if failures:
        raise SystemExit(EXIT_USAGE)


def _finite(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` for JSON, which has no NaN or infinity: those become null."""
    return {
        key: None if isinstance(value, float) and not math.isfinite(value) else value
        for key, value in record.items()
    }


def _run(chunks: list[list[str]], workers: int | None, clicks: bool) -> Iterator[list[Outcome]]:
    """The chunks' records, in order: here, or on ``workers`` processes."""
    count = workers if workers is not None else 1
    if count <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield _records(chunk, clicks)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(min(count, len(chunks), os.cpu_count() or 1)) as pool:
        yield from pool.map(functools.partial(_records, clicks=clicks), chunks)


def _run_on_dask(
    chunks: list[list[str]],
    clicks: bool,
    address: str,
    timeout: float,
    collect: Callable[[list[Outcome]], None],
) -> None:
    """The chunks' records from a Dask cluster, as they finish; the files are read here."""
    from .._dask import run_on_dask

    loaded: list[list[tuple[str, bytes]]] = []
    for chunk in chunks:
        part: list[tuple[str, bytes]] = []
        unreadable: list[Outcome] = []
        for path in chunk:
            try:
                part.append((path, Path(path).read_bytes()))
            except OSError as error:
                unreadable.append((path, None, _cannot_read(path, error)))
        if unreadable:
            collect(unreadable)
        if part:
            loaded.append(part)
    work = functools.partial(_records_of_bytes, clicks=clicks)
    run_on_dask(work, loaded, address, timeout, collect, doing="reading replays")
