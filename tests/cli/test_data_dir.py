"""A data directory the commands cannot use is one line on standard error and exit status 2.

``play`` keeps its store there and ``serve`` its default database; ``replay``
reads only the files it is given, so a bad data directory does not stop it.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

REPLAY = pathlib.Path(__file__).resolve().parent.parent / "replays" / "data" / "test_subject.evf"

needs_tui = pytest.mark.skipif(
    subprocess.run([sys.executable, "-c", "import textual"], check=False).returncode != 0,
    reason="the terminal game's extra is not installed",
)


def _run(data: pathlib.Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "minesweep", *argv],
        env={**os.environ, "MINESWEEP_DATA_DIR": str(data), "MINESWEEP_JIT": "interpret"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _not_a_folder(tmp_path: pathlib.Path, below: bool) -> pathlib.Path:
    """A data directory that is a file (or, ``below``, a folder under a file)."""
    file = tmp_path / "a-file"
    file.write_text("not a folder\n")
    return file / "minesweep" if below else file


#: The data directory is read before serve listens: the port is never opened.
COMMANDS = [
    pytest.param(("play",), id="play", marks=needs_tui),
    pytest.param(("serve", "--port", "1"), id="serve"),
]


@pytest.mark.parametrize("below", [False, True], ids=["a-file", "under-a-file"])
@pytest.mark.parametrize("argv", COMMANDS)
def test_a_data_directory_that_is_no_folder_is_one_line_and_status_2(
    tmp_path: pathlib.Path, argv: tuple[str, ...], below: bool
) -> None:
    if argv[0] == "serve":
        pytest.importorskip("uvicorn")
    data = _not_a_folder(tmp_path, below)
    done = _run(data, *argv)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr == (
        f"minesweep {argv[0]}: the data directory {str(data)!r} is not a folder "
        "(set MINESWEEP_DATA_DIR to a folder)\n"
    )


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root can write anywhere"
)
@pytest.mark.parametrize("argv", COMMANDS)
def test_a_data_directory_not_writable_is_one_line_and_status_2(
    tmp_path: pathlib.Path, argv: tuple[str, ...]
) -> None:
    if argv[0] == "serve":
        pytest.importorskip("uvicorn")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        done = _run(locked / "minesweep", *argv)
    finally:
        locked.chmod(0o700)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"minesweep {argv[0]}: the data directory "), done.stderr
    assert str(locked / "minesweep") in done.stderr
    assert "not writable" in done.stderr


def test_replay_reads_its_files_whatever_the_data_directory(tmp_path: pathlib.Path) -> None:
    # replay keeps nothing: a bad data directory is none of its business.
    done = _run(_not_a_folder(tmp_path, below=False), "replay", str(REPLAY))
    assert done.returncode == 0, done.stderr
    assert done.stdout
