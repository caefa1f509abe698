"""Running the command line in-process, and what a usage error looks like."""

from __future__ import annotations

import io
import pathlib
import sys

import pytest

from minesweep.cli import main

#: How the line begins that solve and bench play print while they wait on the kernels.
FIRST_USE_NOTICE = "minesweep: loading "

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent.parent / "examples"


def without_first_use_notice(err: str) -> str:
    """``err`` without the lines of a slow kernel load ("minesweep: loading ...").

    They depend on numba's cache and the machine's load (a fresh clone
    compiles; a busy one loads slowly), not on the command:
    tests/cli/test_warm.py and tests/cli/test_bench.py test them.
    """
    return "".join(
        line for line in err.splitlines(keepends=True) if not line.startswith(FIRST_USE_NOTICE)
    )


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    """Run ``minesweep *argv`` with ``stdin``: (exit status, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, without_first_use_notice(err)


def assert_usage_error(result: tuple[int, str, str], message: str) -> None:
    """Exit status 2, nothing on stdout, one line on stderr that says ``message``."""
    status, out, err = result
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert message in err
    assert "Traceback" not in err


def run_raw(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``minesweep *argv`` on whatever ``sys.stdin`` the test has set."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, without_first_use_notice(err)
