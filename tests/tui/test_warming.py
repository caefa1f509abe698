"""The solver's warmer: a process of its own that fills numba's cache and exits."""

from __future__ import annotations

import sys
import time

from minesweep.tui.warming import WARM_COMMAND, SolverWarmer


def test_the_warmer_runs_the_solver_warm_up_and_exits_cleanly() -> None:
    warmer = SolverWarmer(WARM_COMMAND)
    warmer.start()
    deadline = time.monotonic() + 300  # a cold cache compiles: minutes on a loaded machine
    while not warmer.ready and time.monotonic() < deadline:
        time.sleep(0.1)
    assert warmer.ready
    assert warmer.returncode == 0


def test_no_command_is_always_ready_and_a_quit_ends_a_running_warmer() -> None:
    assert SolverWarmer(None).ready
    warmer = SolverWarmer([sys.executable, "-c", "import time; time.sleep(30)"])
    warmer.start()
    assert not warmer.ready
    started = time.monotonic()
    warmer.stop()
    assert warmer.ready
    assert time.monotonic() - started < 5
