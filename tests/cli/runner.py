"""Running the command line in-process, and what a usage error looks like."""

from __future__ import annotations

import io
import pathlib
import sys

import pytest

from minesweep.cli import main

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent.parent / "examples"


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
    return status, out, err


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
    return status, out, err
