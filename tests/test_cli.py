"""The ``minesweep`` command line."""

from __future__ import annotations

import io
import json
import pathlib
import subprocess
import sys

import pytest

from minesweep.cli import main

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    *argv: str,
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_reveal_seed_example_1_prints_the_expected_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, "reveal", str(EXAMPLES / "example1.json"))
    assert (status, err) == (0, "")
    assert json.loads(out) == [list(row) for row in ("B1E1B", "B1M1B", "B111B", "BBBBB")]


def test_reveal_seed_example_2_explodes_the_mine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys, monkeypatch, "reveal", str(EXAMPLES / "example2.json"), "--format", "grid"
    )
    assert status == 0
    assert out == "B1E1B\nB1X1B\nB111B\nBBBBB\n"


def test_reveal_text_grid_from_stdin_prints_a_grid(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys, monkeypatch, "reveal", "--click", "3,0", stdin="EEEEE\nEEMEE\nEEEEE\nEEEEE\n"
    )
    assert status == 0
    assert out == "B1E1B\nB1M1B\nB111B\nBBBBB\n"


def test_reveal_click_option_overrides_the_json_click(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys, monkeypatch, "reveal", str(EXAMPLES / "example1.json"), "--click", "1,2"
    )
    assert status == 0
    assert json.loads(out)[1][2] == "X"


def test_reveal_grid_file_as_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys,
        monkeypatch,
        "reveal",
        str(EXAMPLES / "example1.txt"),
        "--click",
        "3,0",
        "--format",
        "json",
    )
    assert status == 0
    assert json.loads(out)[3] == ["B"] * 5


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["reveal", "--click", "0,0"], "EEX\n", "the game is over"),
        (["reveal", "--click", "5,0"], "EEE\n", "click row 5 is outside the board"),
        (["reveal", "--click", "0,1"], "E3\n", "revealed square '3'"),
        (["reveal", "--click", "0,0"], "EE\nE\n", "board row 1 has 1 cells"),
        (["reveal", "--click", "0,0"], "Eq\n", "board cell (0, 1) is 'q'"),
        (["reveal", "--click", "0,0"], "[[", "invalid JSON"),
        (["reveal", "--click", "0,0"], "\n", "text grid is empty"),
        (["reveal"], "EEE\n", "no click given"),
        (["reveal", "--click", "a,b"], "EEE\n", "expected ROW,COL"),
        (["reveal", "--click", "1"], "EEE\n", "expected ROW,COL"),
        (["reveal", "--format", "svg"], "EEE\n", "invalid choice"),
        (["reveal", "does/not/exist.json"], "", "cannot read 'does/not/exist.json'"),
        (["bogus"], "", "invalid choice"),
        ([], "", "required"),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str,
    message: str,
) -> None:
    status, out, err = run(capsys, monkeypatch, *argv, stdin=stdin)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert message in err
    assert "Traceback" not in err


def test_non_utf8_file_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"\xff\xfe\n")
    status, _, err = run(capsys, monkeypatch, "reveal", str(path), "--click", "0,0")
    assert status == 2
    assert "not UTF-8" in err


def test_help_shows_an_example(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(capsys, monkeypatch, "reveal", "--help")
    assert status == 0
    assert "minesweep reveal examples/example1.json" in out


def test_python_dash_m_runs_the_command_line() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "minesweep",
            "reveal",
            str(EXAMPLES / "example1.txt"),
            "--click",
            "3,0",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "B1E1B"
