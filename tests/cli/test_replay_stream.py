"""``minesweep replay`` on a batch streams: rows as the files are read, in order; Ctrl-C keeps them.

The Ctrl-C tests run the command as a user does, in a process of its own
with its output in a file, and send it SIGINT once some rows are there.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from minesweep.replays import read, summary

from .runner import FIRST_USE_NOTICE, run

DATA = pathlib.Path(__file__).resolve().parent.parent / "replays" / "data"
#: Enough files that the command is still reading when it is interrupted.
MANY = 3000


def folder_of(tmp_path: pathlib.Path, count: int, names: tuple[str, ...]) -> pathlib.Path:
    """A folder of ``count`` replays, the ``names`` of the test data in turn, in sorted order."""
    folder = tmp_path / "replays"
    folder.mkdir()
    for index in range(count):
        source = DATA / names[index % len(names)]
        # Links, not copies: the same bytes, thousands of times, cost no disk.
        os.link(source, folder / f"{index:05d}{source.suffix}")
    return folder


def start(*argv: str, stdout: io.BufferedWriter) -> subprocess.Popen[str]:
    """``minesweep replay *argv`` in a session of its own, SIGINT handled as in a terminal."""
    # A child starts with SIGINT ignored where this process ignores it (a
    # runner started in the background): handled here, it is reset at exec.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "minesweep", "replay", "--no-progress", *argv],
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupt_after_rows(
    argv: list[str], out: pathlib.Path, rows: int
) -> tuple[int, str, list[str]]:
    """Start the command, wait for ``rows`` lines of output, send SIGINT: status, stderr, lines."""
    with out.open("wb") as sink:
        process = start(*argv, stdout=sink)
        try:
            deadline = time.monotonic() + 120
            while out.read_bytes().count(b"\n") < rows:
                assert process.poll() is None, "the command ended before it was interrupted"
                assert time.monotonic() < deadline, "no rows in 120 s"
                time.sleep(0.02)
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=10)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.communicate()
    err = "".join(
        line for line in err.splitlines(keepends=True) if not line.startswith(FIRST_USE_NOTICE)
    )
    return process.returncode, err, out.read_text().splitlines(keepends=True)


def interrupted_count(err: str) -> int:
    """The files done that the one line on standard error says, checking the line's form."""
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    prefix = "minesweep replay: interrupted after "
    assert err.startswith(prefix), err
    assert err.endswith(f" of {MANY:,} files\n"), err
    return int(err[len(prefix) :].split()[0].replace(",", ""))


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_the_csv_rows_written_in_order_and_counts_them(
    tmp_path: pathlib.Path, workers: str
) -> None:
    folder = folder_of(tmp_path, MANY, ("test_subject.avf",))
    argv = ["--format", "csv", "--workers", workers, str(folder)]
    status, err, lines = interrupt_after_rows(argv, tmp_path / "out.csv", 20)
    assert status == 130, err
    done = interrupted_count(err)
    assert all(line.endswith("\n") for line in lines)
    rows = list(csv.DictReader(io.StringIO("".join(lines))))
    assert 20 <= len(rows) == done < MANY
    assert [row["file"] for row in rows] == [str(folder / f"{i:05d}.avf") for i in range(done)]
    assert {row["bbbv"] for row in rows} == {"28"}


@pytest.mark.slow
def test_ctrl_c_keeps_whole_json_lines(tmp_path: pathlib.Path) -> None:
    folder = folder_of(tmp_path, MANY, ("test_subject.avf", "test_subject.rmv"))
    argv = ["--format", "json", str(folder)]
    status, err, lines = interrupt_after_rows(argv, tmp_path / "out.jsonl", 10)
    assert status == 130, err
    records = [json.loads(line) for line in lines]  # every line whole
    assert 10 <= len(records) == interrupted_count(err)
    assert [pathlib.Path(r["file"]).name for r in records] == [
        f"{i:05d}{('.avf', '.rmv')[i % 2]}" for i in range(len(records))
    ]


def test_the_rows_come_while_the_rest_is_still_read(tmp_path: pathlib.Path) -> None:
    folder = folder_of(tmp_path, MANY, ("test_subject.avf",))
    process = subprocess.Popen(
        [sys.executable, "-m", "minesweep", "replay", "--format", "json", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = json.loads(process.stdout.readline())
        # The first row is there, flushed, long before the last file is read.
        assert process.poll() is None
        assert first["file"] == str(folder / "00000.avf")
    finally:
        process.kill()
        process.communicate()


@pytest.mark.parametrize("form", ["json", "csv", "text"])
@pytest.mark.parametrize("clicks", [False, True], ids=["summary", "clicks"])
def test_workers_print_what_one_process_prints_in_input_order(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    form: str,
    clicks: bool,
) -> None:
    names = ("test_subject.avf", "test_subject.rmv", "test_subject_2.rmv")
    folder = folder_of(tmp_path, 9, names)
    bad = tmp_path / "missing.evf"
    argv = ["replay", "--format", form, *(["--clicks"] if clicks else []), str(folder), str(bad)]
    one = run(capsys, monkeypatch, *argv)
    two = run(capsys, monkeypatch, *argv, "--workers", "2")
    assert one == two
    assert one[0] == 2
    assert one[2] == f"minesweep replay: {bad}: no such file\n"


def test_streamed_json_is_each_files_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    folder = folder_of(tmp_path, 6, ("test_subject.avf", "test_subject_2.rmv"))
    status, out, err = run(capsys, monkeypatch, "replay", "--format", "json", str(folder))
    assert (status, err) == (0, "")
    paths = sorted(str(path) for path in folder.iterdir())
    expected = [
        {
            key: None if isinstance(value, float) and not math.isfinite(value) else value
            for key, value in {"file": path, **summary(read(path))}.items()
        }
        for path in paths
    ]
    assert [json.loads(line) for line in out.splitlines()] == expected


@pytest.mark.slow
def test_ctrl_c_keeps_the_clicks_of_every_file_done_whole(tmp_path: pathlib.Path) -> None:
    folder = folder_of(tmp_path, MANY, ("test_subject.avf",))
    argv = ["--clicks", "--format", "csv", "--workers", "2", str(folder)]
    status, err, lines = interrupt_after_rows(argv, tmp_path / "clicks.csv", 100)
    assert status == 130, err
    done = interrupted_count(err)
    rows = list(csv.DictReader(io.StringIO("".join(lines))))
    # The avf has 36 clicks: every file printed has all of them, none a part.
    assert len(rows) == 36 * done
    files = [row["file"] for row in rows[::36]]
    assert files == [str(folder / f"{i:05d}.avf") for i in range(done)]


def test_no_more_chunks_are_out_than_the_window() -> None:
    from concurrent.futures import Future

    from minesweep.cli._replay import _in_order

    submitted: list[int] = []

    def submit(chunk: int) -> Future[int]:
        submitted.append(chunk)
        future: Future[int] = Future()
        future.set_result(chunk * 10)
        return future

    results = _in_order(submit, iter(range(100)), 4, [])
    assert next(results) == 0
    # The first result is taken once the window is full, not after all 100.
    assert submitted == [0, 1, 2, 3]
    assert [next(results) for _ in range(3)] == [10, 20, 30]
    assert len(submitted) <= 4 + 3
    assert list(results) == [10 * i for i in range(4, 100)]


@pytest.mark.slow
def test_memory_does_not_hold_the_records_of_a_batch(
    monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    import tracemalloc

    from minesweep.cli import main

    count = 1500
    folder = folder_of(tmp_path, count, ("test_subject.avf",))
    with open(os.devnull, "w") as sink:  # the output held nowhere, not even by capsys
        monkeypatch.setattr(sys, "stdout", sink)
        main(["replay", "--format", "json", str(folder / "00000.avf")])  # imports, caches
        tracemalloc.start()
        try:
            assert main(["replay", "--format", "json", str(folder)]) == 0
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    # The folder's listing costs about 1 kB a file; a summary held to the end
    # (as a batch once was) cost 3.5 kB more.
    assert peak < 2_000 * count
