"""One replay file is read in a blink: no numba, no solver, unless the job grows (issue 48)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from minesweep import _jit

DATA = Path(__file__).parent / "data"

_PROGRAM = """
import sys
{body}
heavy = sorted(m for m in ("numba", "llvmlite", "minesweep.solver", "minesweep.autoplay")
               if m in sys.modules)
print("heavy:", heavy, file=sys.stderr)
"""


def _run(body: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _PROGRAM.format(body=body), *args],
        env={**os.environ, "MINESWEEP_JIT": "auto"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_importing_the_replays_loads_no_numba() -> None:
    done = _run("import minesweep.replays")
    assert done.returncode == 0, done.stderr
    assert "heavy: []" in done.stderr


@pytest.mark.parametrize("name", ["test_subject.avf", "test_subject.evf"])
def test_the_replay_of_one_file_loads_no_numba_and_says_the_same(name: str) -> None:
    # MINESWEEP_JIT=auto: interpreted within the replays part's first half
    # second, whether or not numba's cache holds the kernels.
    body = (
        "from minesweep.cli import main\n"
        "code = main(['replay', sys.argv[1]])\n"
        "assert code == 0, code"
    )
    done = _run(body, str(DATA / name))
    assert done.returncode == 0, done.stderr
    assert "heavy: []" in done.stderr
    assert "compiling" not in done.stderr  # no warmer started for a small job
    compiled = subprocess.run(
        [sys.executable, "-m", "minesweep", "replay", str(DATA / name)],
        env={**os.environ, "MINESWEEP_JIT": "compile"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert done.stdout == compiled.stdout


def test_the_replays_part_is_interpreted_only_within_its_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    part = _jit._part("replays")
    monkeypatch.setenv("MINESWEEP_JIT", "auto")
    monkeypatch.setattr(part, "ready", False)
    monkeypatch.setattr(part, "interpreted_for", 0.0)
    assert _jit._interpret_first(part)
    monkeypatch.setattr(part, "interpreted_for", _jit.INTERPRET_FIRST["replays"])
    assert not _jit._interpret_first(part)  # a large job goes on compiled
    monkeypatch.setattr(part, "interpreted_for", 0.0)
    with _jit.compiling():
        assert not _jit._interpret_first(part)  # minesweep warm compiles
    monkeypatch.setenv("MINESWEEP_JIT", "compile")
    assert not _jit._interpret_first(part)
    assert not _jit._interpret_first(_jit._part("solver"))  # the solver's parts: as before
