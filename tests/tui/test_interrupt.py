"""Ctrl-C ends the terminal game as it ends every command: saved, one line, status 130.

Textual puts the terminal in raw mode, so a Ctrl-C there reaches the game as
a key, not as SIGINT: the first tests press it in a real terminal (a pty) and
send SIGINT from outside; the last checks what is saved, with Textual's pilot.
"""

from __future__ import annotations

import os
import pathlib
import re
import select
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep.tui import Store

from .helpers import Clock, drive, make_app

pty = pytest.importorskip("pty")

#: What a terminal app sends as it leaves the alternate screen (the game's).
LEAVE_SCREEN = b"\x1b[?1049l"


def _read_until(controller: int, wanted: bytes, process: subprocess.Popen[bytes]) -> bytes:
    """What the terminal showed until ``wanted`` (at most 60 s)."""
    shown = b""
    deadline = time.monotonic() + 60
    while wanted not in shown:
        assert process.poll() is None, f"the game ended before showing {wanted!r}"
        assert time.monotonic() < deadline, f"{wanted!r} not shown in 60 s: {shown[-400:]!r}"
        ready, _, _ = select.select([controller], [], [], 0.1)
        if ready:
            try:
                shown += os.read(controller, 65536)
            except OSError:  # the game has closed its end
                break
    return shown


def _drain(controller: int) -> bytes:
    """What the terminal shows until the game closes it (at most 30 s)."""
    shown = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.1)
        if ready:
            try:
                data = os.read(controller, 65536)
            except OSError:  # the game has closed its end
                break
            if not data:
                break
            shown += data
    return shown


@pytest.mark.parametrize("how", ["key", "sigint"])
def test_ctrl_c_saves_the_game_and_ends_play_with_one_line_and_status_130(
    tmp_path: pathlib.Path, how: str
) -> None:
    controller, terminal = pty.openpty()
    environment = {
        **os.environ,
        "MINESWEEP_DATA_DIR": str(tmp_path),
        "MINESWEEP_JIT": "interpret",
        "TERM": "xterm-256color",
        "COLUMNS": "80",
        "LINES": "30",
    }
    # A child starts with SIGINT ignored where this process ignores it (a
    # runner started in the background): handled here, it is reset at exec.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "minesweep", "play", "--preset", "beginner", "--seed", "3"],
            # Textual draws on standard error: the line is read from the
            # terminal, after the game has left its screen.
            stdin=terminal,
            stdout=terminal,
            stderr=terminal,
            env=environment,
            start_new_session=True,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    os.close(terminal)
    try:
        _read_until(controller, b"Press", process)
        os.write(controller, b" ")  # a reveal: a game in progress, saved
        time.sleep(1.0)
        if how == "key":
            os.write(controller, b"\x03")
        else:
            process.send_signal(signal.SIGINT)
        shown = _drain(controller)
        process.wait(timeout=30)
    finally:
        os.close(controller)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    after = shown.rsplit(LEAVE_SCREEN, 1)[-1].decode()
    assert process.returncode == 130, after
    assert re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", after).strip("\r\n") == (
        "minesweep play: interrupted"
    ), after
    store = Store(tmp_path / "minesweep.sqlite3")
    try:
        saved = store.saved("beginner")
    finally:
        store.close()
    assert saved is not None
    assert saved.elapsed is not None


def test_ctrl_c_in_the_app_saves_the_time_as_the_quit_key_does(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 4.0
        await pilot.press("ctrl+c")

    drive(app, scenario, (80, 30))
    assert app.interrupted
    saved = app.store.saved("beginner")
    assert saved is not None
    assert saved.elapsed is not None
    assert saved.elapsed >= 4.0
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
