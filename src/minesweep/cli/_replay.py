"""``minesweep replay``: read replay files (or folders of them) and print their statistics.

One file that cannot be read costs one line on standard error and exit
status 2 at the end; the other files are still printed. Many files are read
on ``--workers`` processes (or a Dask cluster), in the order given.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
from collections.abc import Iterator, Sequence
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


def _record(path: str) -> tuple[str, dict[str, Any] | None, str | None]:
    """Read and sum up one file: its record, or why it could not be read."""
    from ..errors import MinesweepError
    from ..replays import read, summary

    try:
        return path, summary(read(path)), None
    except MinesweepError as error:
        return path, None, str(error)
    except OSError as error:
        return path, None, f"{path}: cannot read it: {error.strerror or error}"


def _records(paths: list[str]) -> list[tuple[str, dict[str, Any] | None, str | None]]:
    return [_record(path) for path in paths]


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


def _csv_row(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "checks": "; ".join(record["checks"])}


def replay(arguments: argparse.Namespace) -> None:
    listed = list(replay_files(arguments.files))
    readable = [path for path, problem in listed if problem is None]
    results: dict[str, tuple[dict[str, Any] | None, str | None]] = {}
    chunks = [readable[start : start + _CHUNK] for start in range(0, len(readable), _CHUNK)]
    show = arguments.progress and sys.stderr.isatty() and len(readable) > 1
    done = 0
    for part in _run(chunks, arguments.workers):
        for path, record, error in part:
            results[path] = (record, error)
        done += len(part)
        if show:
            sys.stderr.write(f"\rread {done}/{len(readable)} replays")
            sys.stderr.flush()
    if show:
        sys.stderr.write("\n")
    failures = 0
    writer: csv.DictWriter[str] | None = None
    out = sys.stdout
    for path, problem in listed:
        record, error = results.get(path, (None, f"{path}: {problem}"))
        if record is None:
            failures += 1
            sys.stderr.write(f"minesweep replay: {error}\n")
            continue
        record = {"file": path, **record}
        if arguments.format == "json":
            out.write(json.dumps(_finite(record), ensure_ascii=False, allow_nan=False) + "\n")
        elif arguments.format == "csv":
            if writer is None:
                writer = csv.DictWriter(out, fieldnames=list(record), lineterminator="\n")
                writer.writeheader()
            writer.writerow(_csv_row(record))
        else:
            out.write(_text(record) + "\n")
    out.flush()
    if failures:
        raise SystemExit(EXIT_USAGE)


def _finite(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` for JSON, which has no NaN or infinity: those become null."""
    return {
        key: None if isinstance(value, float) and not math.isfinite(value) else value
        for key, value in record.items()
    }


def _run(
    chunks: list[list[str]], workers: int | None
) -> Iterator[list[tuple[str, dict[str, Any] | None, str | None]]]:
    """The chunks' records, in order: here, or on ``workers`` processes."""
    count = workers if workers is not None else 1
    if count <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield _records(chunk)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(min(count, len(chunks), os.cpu_count() or 1)) as pool:
        yield from pool.map(_records, chunks)
