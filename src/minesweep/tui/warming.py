"""The solver's kernels loaded in a process of their own, so the game never waits on them.

The first hint after an install compiles the solver's kernels: tens of
seconds on a small machine. Compiled in the game's own process, that would
stop the clock and queue the keys. So the app starts this warmer when it
opens: a separate process that runs :func:`minesweep.warm.warm` on the
solver and exits; numba's cache then holds the kernels, and the game's own
first hint loads them in about a second. A hint asked for before the warmer
is done waits for it with a message, while the game goes on.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from typing import Final

__all__ = ["WARM_COMMAND", "SolverWarmer"]

#: The warmer's process: the solver's kernels, loaded or compiled into numba's cache.
WARM_COMMAND: Final = (
    sys.executable,
    "-c",
    "from minesweep.warm import warm; warm(['solver'])",
)


class SolverWarmer:
    """Runs ``command`` (None: nothing to run, always ready) in the background once."""

    def __init__(self, command: Sequence[str] | None = WARM_COMMAND) -> None:
        self.command = tuple(command) if command is not None else None
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process, unless there is none or it has started."""
        if self.command is None or self._process is not None:
            return
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            self.command = None  # nothing to wait for: the hint compiles in place

    @property
    def ready(self) -> bool:
        """Whether advice can be given now without compiling in the game's process."""
        return self._process is None or self._process.poll() is not None

    @property
    def returncode(self) -> int | None:
        """The process's exit status once it has ended (None before, or with no process)."""
        return None if self._process is None else self._process.poll()

    def stop(self) -> None:
        """End the process if it still runs (the game is quitting)."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self._process.kill()
