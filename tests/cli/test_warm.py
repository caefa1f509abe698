"""``minesweep warm``: the kernels compiled ahead of first use, with a line a part."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .runner import assert_usage_error, run


def test_warm_compiles_each_part_with_a_line_for_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, "warm", "engine", "solver")
    assert status == 0
    assert out.startswith("warm: engine, solver ready in ")
    lines = err.splitlines()
    assert [line.split(" ... ")[0] for line in lines] == ["engine", "solver"]
    assert all(line.endswith(" s") for line in lines)


def test_an_unknown_part_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_usage_error(
        run(capsys, monkeypatch, "warm", "engine", "gpu"),
        "minesweep warm: no part 'gpu'; expected one of engine, solver, autoplay, vector, replays",
    )


@pytest.mark.slow
def test_a_first_solve_after_an_install_says_it_is_compiling(tmp_path: os.PathLike[str]) -> None:
    # An empty numba cache, as after pip install: the first solve compiles.
    view = f"{tmp_path}/view.txt"
    with open(view, "w") as file:
        file.write("#########\n#1122211#\n#1.....1#\n#1.....1#\n#########\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "minesweep", "solve", view, "--mines", "6"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("minesweep: loading the solver's kernels (compiled the first")
    assert "`minesweep warm` does it ahead" in done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stdout.splitlines()[-1].startswith("hint: ")  # the answer follows, on stdout


def test_warm_waits_for_the_background_compile_instead_of_compiling_beside_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep import _jit
    from minesweep.cli import _commands

    # A warmer that a first use started, seen twice more, then done.
    seen = iter([4242, 4242, 4242, None])
    monkeypatch.setattr(_jit, "warmer_running", lambda: next(seen))
    monkeypatch.setattr(_commands, "_WAIT_STEP", 0.0)
    status, out, err = run(capsys, monkeypatch, "warm", "engine")
    assert status == 0
    assert out.startswith("warm: engine ready in ")
    first, *rest = err.splitlines()
    assert first.startswith("waiting for the background compile (process 4242) ... ")
    assert first.endswith(" s")
    assert [line.split(" ... ")[0] for line in rest] == ["engine"]
    assert next(seen, "spent") == "spent"  # asked until it was done, and no more
