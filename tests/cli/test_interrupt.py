"""Ctrl-C stops ``minesweep bench play`` at once: one line, status 130, no process left.

The first tests run the command as a user does, in a process of its own, and
send it SIGINT while it plays the README's 100,000 games; the processes are
read from /proc (Linux). The others check the same ending in-process.
"""

from __future__ import annotations

import os
import pathlib
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from minesweep.autoplay import GameRecord, PlayInterrupted

from .runner import run, without_first_use_notice

PROC = pathlib.Path("/proc")
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: The README's example.
COMMAND = (sys.executable, "-m", "minesweep", "bench", "play", "--games", "100000")
#: How long the command may take to stop once interrupted (the issue's figure).
STOP_SECONDS = 2.0

needs_proc = pytest.mark.skipif(
    not (PROC / "self" / "stat").exists(), reason="reads processes from /proc (Linux)"
)


def stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat from the third (the state) on, or None once it is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # The second field, the command's name in parentheses, may hold spaces.
    return text[text.rindex(")") + 2 :].split()


# Indexes into stat()'s fields (the field numbers of proc(5), less 3).
STATE, PPID, SESSION, UTIME, STIME, START = 0, 1, 3, 11, 12, 19


def processes() -> dict[int, list[str]]:
    found = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (fields := stat(int(entry.name))) is not None:
            found[int(entry.name)] = fields
    return found


def descendants(pid: int) -> dict[int, str]:
    """The processes below ``pid`` that still run, each with its start time (a PID is reused)."""
    table = processes()
    found: dict[int, str] = {}
    parents = {pid}
    while parents:
        children = {
            child
            for child, fields in table.items()
            if int(fields[PPID]) in parents and fields[STATE] != "Z" and child not in found
        }
        found.update({child: table[child][START] for child in children})
        parents = children
    return found


def running(pid: int, start: str) -> bool:
    fields = stat(pid)
    return fields is not None and fields[START] == start and fields[STATE] != "Z"


def cpu_seconds(pids: Iterator[int] | list[int]) -> float:
    total = 0
    for pid in pids:
        fields = stat(pid)
        if fields is not None:
            total += int(fields[UTIME]) + int(fields[STIME])
    return total / TICK


def wait_for(condition: Callable[[], bool], process: subprocess.Popen[str], what: str) -> None:
    deadline = time.monotonic() + 120
    while not condition():
        assert process.poll() is None, f"the command ended before {what}"
        assert time.monotonic() < deadline, f"the command did not reach {what} in 120 s"
        time.sleep(0.05)


def start_up_seconds() -> float:
    """The CPU time a process spends on importing what ``bench play`` imports before it plays."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", "import minesweep.cli, minesweep.autoplay"],
        check=True,
        capture_output=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def start(workers: int, stderr: int = subprocess.PIPE) -> subprocess.Popen[str]:
    """The README's example, in a session of its own: nothing it starts outlives the test."""
    # A child starts with SIGINT ignored where this process ignores it (a
    # runner started in the background): handled here, it is reset at exec.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            [*COMMAND, "--workers", str(workers)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            start_new_session=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)


def check_ended(process: subprocess.Popen[str], children: dict[int, str], sent: float) -> None:
    """Within the time allowed from ``sent``, no process the command started still runs:
    neither its workers nor any in its session."""

    def left() -> list[int]:
        return [pid for pid, begun in children.items() if running(pid, begun)] + [
            pid
            for pid, fields in processes().items()
            if int(fields[SESSION]) == process.pid and fields[STATE] != "Z"
        ]

    while left() and time.monotonic() < sent + STOP_SECONDS:
        time.sleep(0.02)
    assert left() == []


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize(
    ("workers", "to_group"),
    [(2, False), (1, False), (2, True)],
    ids=["workers-2", "workers-1", "workers-2-terminal"],
)
def test_one_ctrl_c_stops_bench_play_with_one_line_and_status_130(
    workers: int, to_group: bool
) -> None:
    # to_group: SIGINT to every process of the command, as a terminal's Ctrl-C
    # sends it; the workers ignore it and are ended by the parent.
    baseline = start_up_seconds()
    process = start(workers)
    try:
        if workers > 1:
            # Playing: the workers are started and have spent time on games.
            wait_for(
                lambda: (
                    len(descendants(process.pid)) >= workers
                    and cpu_seconds(list(descendants(process.pid))) > 0.5
                ),
                process,
                "its workers' games",
            )
        else:
            # Playing: past the start-up, the process spends its time on games.
            wait_for(lambda: cpu_seconds([process.pid]) > baseline + 0.5, process, "its games")
        children = descendants(process.pid)
        if workers > 1:
            assert len(children) >= workers
        else:
            assert children == {}
        if to_group:
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=STOP_SECONDS)
        assert time.monotonic() - sent < STOP_SECONDS
        err = without_first_use_notice(err)
        assert process.returncode == 130, err
        assert out == ""
        assert "Traceback" not in err
        assert err.count("\n") == 1, err
        assert err.startswith("minesweep bench play: interrupted after ")
        assert err.endswith(" of 100,000 games\n")  # thousands parted, as replay's count
        assert int(err.split()[5].replace(",", "")) >= 0
        check_ended(process, children, sent)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 1], ids=["workers-2", "workers-1"])
def test_ctrl_c_on_a_terminal_ends_the_progress_bar_with_one_line(workers: int) -> None:
    # On a terminal the progress bar is drawn: once it shows games played,
    # Ctrl-C ends its line and adds one line saying how many.
    import pty
    import select

    controller, terminal = pty.openpty()
    process = start(workers, stderr=terminal)
    os.close(terminal)
    shown = b""

    def read(seconds: float) -> bool:
        """Whether the terminal had more to show within ``seconds``; what it showed is kept."""
        nonlocal shown
        ready, _, _ = select.select([controller], [], [], seconds)
        if not ready:
            return True
        try:
            data = os.read(controller, 4096)
        except OSError:  # the command has closed its end
            data = b""
        shown += data
        return bool(data)

    try:
        deadline = time.monotonic() + 120
        while b"games/s" not in shown:
            assert read(0.1) or process.poll() is None, "the command ended before playing"
            assert time.monotonic() < deadline, "no progress shown in 120 s"
        children = descendants(process.pid)
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, _ = process.communicate(timeout=STOP_SECONDS)
        assert time.monotonic() - sent < STOP_SECONDS
        while read(0.5):
            pass
        assert (process.returncode, out) == (130, "")
        text = shown.decode().replace("\r\n", "\n")
        bar, said = text.rsplit("\r", 1)[-1].split("\n", 1)
        assert bar.endswith("games/s")  # the bar's last state is kept, its line ended
        assert "Traceback" not in text
        assert said.count("\n") == 1, said
        assert said.endswith(" of 100,000 games\n")
        assert said.startswith("minesweep bench play: interrupted after ")
        assert int(said.split()[5].replace(",", "")) >= 50  # a chunk of games at least
        check_ended(process, children, sent)
    finally:
        os.close(controller)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()


@pytest.fixture
def sigint_kept() -> Iterator[None]:
    """The test process's SIGINT handler as it was: an interrupted command ignores SIGINT."""
    handler = signal.getsignal(signal.SIGINT)
    yield
    signal.signal(signal.SIGINT, handler)


@pytest.mark.usefixtures("sigint_kept")
def test_an_interrupted_run_says_how_many_games_were_played(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesweep.autoplay

    def interrupted(*_args: object, **_kwargs: object) -> list[GameRecord]:
        played = [GameRecord(seed, True, 0.01, 0, 71) for seed in (3, 4, 5)]
        raise PlayInterrupted(played, 10)

    monkeypatch.setattr(minesweep.autoplay, "play_games", interrupted)
    status, out, err = run(
        capsys, monkeypatch, "bench", "play", "--games", "10", "--seed", "3", "--workers", "2"
    )
    assert (status, out) == (130, "")
    assert err == "minesweep bench play: interrupted after 3 of 10 games\n"
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # a second Ctrl-C prints nothing


@pytest.mark.usefixtures("sigint_kept")
def test_an_interrupt_before_the_games_begin_says_none_were_played(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesweep.autoplay

    def interrupted(*_args: object, **_kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(minesweep.autoplay.PlayConfig, "preset", interrupted)
    status, out, err = run(capsys, monkeypatch, "bench", "play", "--games", "1")
    assert (status, out) == (130, "")
    assert err == "minesweep bench play: interrupted after 0 of 1 game\n"


@pytest.mark.usefixtures("sigint_kept")
def test_ctrl_c_in_any_command_ends_it_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A no-guess search takes seconds: Ctrl-C there ends the command as in bench.
    import minesweep.solver

    def searching(*_args: object, **_kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(minesweep.solver, "generate_no_guess", searching)
    status, out, err = run(capsys, monkeypatch, "new", "--no-guess")
    assert (status, out, err) == (130, "", "minesweep new: interrupted\n")


def test_sigint_stops_serve_with_its_line_and_status_130(tmp_path: pathlib.Path) -> None:
    # The web server runs until stopped: SIGINT is how a terminal stops it.
    pytest.importorskip("uvicorn")
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "minesweep", "serve", "--port", str(port)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MINESWEEP_DATA_DIR": str(tmp_path)},
            start_new_session=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        assert process.stderr is not None
        said = ""
        while "startup complete" not in said:
            line = process.stderr.readline()
            assert line, f"serve ended before it listened: {said}"
            said += line
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert (process.returncode, out) == (130, "")
    assert "Traceback" not in err
    # uvicorn logs its shutdown; the command's own last word is one line.
    assert err.endswith("\nminesweep serve: interrupted\n"), err


@pytest.mark.parametrize(
    "argv",
    [
        # A no-guess search on a board too dense to find one soon.
        ("new", "--size", "60x60", "--mines", "1400", "--no-guess", "--no-guess-seconds", "120"),
        # Solving a large position, uncompiled: seconds of work.
        ("bench", "play", "--games", "100000", "--workers", "1"),
    ],
    ids=["new-no-guess", "bench-play-uncompiled"],
)
def test_sigint_stops_a_long_command_with_one_line_and_status_130(
    tmp_path: pathlib.Path, argv: tuple[str, ...]
) -> None:
    # Uncompiled: a SIGINT while numba compiles is another matter (it can be
    # raised inside llvmlite's ctypes callback, where Python only prints it).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "minesweep", *argv],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "MINESWEEP_JIT": "interpret"},
            start_new_session=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        time.sleep(3.0)  # past the imports: at work
        assert process.poll() is None, process.communicate()
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    command = " ".join(argv[:2] if argv[0] == "bench" else argv[:1])
    err = without_first_use_notice(err)
    assert (process.returncode, out) == (130, ""), err
    assert "Traceback" not in err
    assert err.count("\n") == 1, err
    assert err.startswith(f"minesweep {command}: interrupted"), err
