"""The ``minesweep`` command line: reveal, help, and errors of usage."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from .runner import EXAMPLES, assert_usage_error, run


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
        # A negative row reaches our check, as a separate word or after "=".
        (["reveal", "--click", "-1,0"], "EEE\n", "click row -1 is outside the board"),
        (["reveal", "--click=-1,0"], "EEE\n", "click row -1 is outside the board"),
        (["new", "--first-click", "-3,2"], "", "row -3 is outside the board"),
        (["reveal", "--click", "0,1"], "E3\n", "revealed square '3'"),
        (["reveal", "--click", "0,0"], "EE\nE\n", "board row 2 has 1 cell; expected 2 like row 1"),
        (["reveal", "--click", "0,0"], "Eq\n", "board cell at row 1, column 2 is 'q'"),
        (["reveal", "--click", "0,0"], "[[", "invalid JSON"),
        (["reveal", "--click", "0,0"], "\n", "text grid is empty"),
        (["reveal"], "EEE\n", "no click given"),
        (["reveal", "--click", "a,b"], "EEE\n", "expected ROW,COL"),
        (["reveal", "--click", "1"], "EEE\n", "expected ROW,COL"),
        (["reveal", "--format", "svg"], "EEE\n", "invalid choice"),
        (["reveal", "does/not/exist.json"], "", "reveal: cannot read 'does/not/exist.json'"),
        (["solve", "does/not/exist.json"], "", "solve: cannot read 'does/not/exist.json'"),
        (["stats", "does/not/exist.mbf"], "", "stats: cannot read 'does/not/exist.mbf'"),
        (["solve", "-", "--mines", "-1"], "##\n", "non-negative whole number, got '-1'"),
        (["serve", "--port", "70000"], "", "a port from 1 to 65535, got '70000'"),
        (["serve", "--port", "0"], "", "a port from 1 to 65535, got '0'"),
        (["serve", "--action-rate", "-1"], "", "requests a second (0 for no limit), got '-1'"),
        (["serve", "--create-rate", "inf"], "", "requests a second (0 for no limit), got 'inf'"),
        (["serve", "--expire-after", "0"], "", "positive number of seconds, got '0'"),
        (["serve", "--no-guess-workers", "two"], "", "non-negative whole number, got 'two'"),
        (["serve", "--log-level", "loud"], "", "invalid choice"),
        (["reveal", "--click", "0,0", "--bogus"], "EEE\n", "minesweep reveal: unrecognized"),
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
    assert_usage_error(run(capsys, monkeypatch, *argv, stdin=stdin), message)


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


#: Every command and subcommand, as typed.
COMMANDS = [
    [],
    ["reveal"],
    ["new"],
    ["stats"],
    ["solve"],
    ["play"],
    ["serve"],
    ["bench"],
    ["bench", "play"],
    ["warm"],
    ["replay"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda words: " ".join(words) or "minesweep")
def test_every_help_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    status, out, err = run(capsys, monkeypatch, *command, "--help")
    assert (status, err) == (0, "")
    assert out.startswith("usage: minesweep")


def test_bench_help_shows_every_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run(capsys, monkeypatch, "bench", "play", "--help")
    flat = " ".join(out.split())
    for default in ("expert", "safe", "corner", "1000", "5"):
        assert f"(default: {default})" in flat or f"(default {default})" in flat, default


@pytest.mark.parametrize(
    ("command", "rule"),
    [(["play"], "opening"), (["new"], "opening"), (["bench", "play"], "safe")],
    ids=["play", "new", "bench play"],
)
def test_a_game_command_says_its_default_board_and_rule_up_front(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    rule: str,
) -> None:
    # Said in the description, not only in --preset's and --rule's help: what
    # the command plays when given nothing is the first thing a user asks.
    from minesweep.cli._parser import build_parser

    parser = build_parser()
    namespace = parser.parse_args([*command] + (["--games", "1"] if command[0] == "bench" else []))
    assert (namespace.preset or "expert", namespace.rule) == ("expert", rule)
    _, out, _ = run(capsys, monkeypatch, *command, "--help")
    flat = " ".join(out.split())
    assert f"Without options: an expert board (16x30, 99 mines), first-click rule {rule} (" in flat


def test_reveal_help_says_spaces_in_a_grid_are_ignored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out, _ = run(capsys, monkeypatch, "reveal", "--help")
    assert "spaces and tabs in a row are ignored" in " ".join(out.split())
    # And so they are: a spaced grid is the same board.
    spaced = run(capsys, monkeypatch, "reveal", "-", "--click", "0,0", stdin="E E E\nE M E\n")
    plain = run(capsys, monkeypatch, "reveal", "-", "--click", "0,0", stdin="EEE\nEME\n")
    assert spaced == plain
    assert spaced[0] == 0


@pytest.mark.parametrize("command", [[], ["bench"]])
def test_the_list_of_commands_is_complete(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    # argparse lists the subcommands under the "COMMAND"/"WHAT" heading, four spaces in.
    _, out, _ = run(capsys, monkeypatch, *command, "--help")
    listed = {line.split()[0] for line in out.splitlines() if line[:4] == "    " and line[4] != " "}
    below = {tuple(words) for words in COMMANDS if len(words) == len(command) + 1}
    assert {words for words in below if list(words[:-1]) == command} == {
        (*command, name) for name in listed
    }


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--first-click", "opening"],
        ["play", "--first-click=safe"],
        ["play", "--first-click", "3,3"],
    ],
)
def test_play_refuses_the_old_first_click_rule_and_points_to_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    assert_usage_error(
        run(capsys, monkeypatch, *argv), "the first-click rule is --rule (opening, safe or none)"
    )


def test_play_takes_the_rule_as_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("textual")
    # Checked before the game starts: the rule reaches the settings and says why it fails.
    result = run(capsys, monkeypatch, "play", "--size", "3x3", "--mines", "9", "--rule", "safe")
    assert_usage_error(result, "minesweep play: 9 mines do not fit on a 3x3 board with the 'safe'")


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


# --- the rough edges a new user meets ------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "--size", "-3x5", "--mines", "2"],
        ["new", "--size=-3x5", "--mines", "2"],
        ["new", "--size", "3x-5", "--mines", "2"],
    ],
)
def test_a_negative_size_is_refused_saying_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str]
) -> None:
    # "-3x5" as a word of its own reaches the size's check, as "-1,0" reaches the click's.
    value = next(word for word in argv if "x" in word).removeprefix("--size=")
    assert_usage_error(
        run(capsys, monkeypatch, *argv),
        f"minesweep new: argument --size: expected ROWSxCOLS such as 16x30, got {value!r}: "
        "a board has no negative number of rows or columns",
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "--size", "５x５", "--mines", "2"], "--size: expected ROWSxCOLS"),
        (["new", "--size", "5x5", "--mines", "２"], "--mines: expected a non-negative whole"),
        (["new", "--seed", "７"], "--seed: expected a non-negative whole number"),
        (["new", "--first-click", "３,3"], "--first-click: expected ROW,COL"),
        (["reveal", "--click", "0,٠"], "--click: expected ROW,COL"),
        (["bench", "play", "--games", "５"], "--games: expected a whole number of at least 1"),
        (["bench", "play", "--workers", "²"], "--workers: expected a whole number of at least 1"),
        (["bench", "play", "--dask-timeout", "１"], "--dask-timeout: expected a positive number"),
        (["serve", "--port", "８０８０"], "--port: expected a port from 1 to 65535"),
    ],
)
def test_numbers_are_written_in_ascii_digits(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    # int() and str.isdigit() take any script's digits: the command line does not.
    result = run(capsys, monkeypatch, *argv, stdin="EEE\n")
    assert_usage_error(result, message)
    assert "(numbers are written in the digits 0-9)" in result[2]


def test_bench_first_click_is_written_in_ascii_digits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run(capsys, monkeypatch, "bench", "play", "--first-click", "３,3", "--games", "1")
    assert_usage_error(result, "first click must be 'corner', 'center' or R,C, got '３,3'")


def test_squares_with_spaces_or_a_sign_still_read(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spaced = run(capsys, monkeypatch, "reveal", "--click", " 3, +0", stdin="EEEEE\nEEMEE\n" * 2)
    assert spaced == run(
        capsys, monkeypatch, "reveal", "--click", "3,0", stdin="EEEEE\nEEMEE\n" * 2
    )
    assert spaced[0] == 0


@pytest.mark.parametrize(
    ("argv", "stdin", "where"),
    [
        (["reveal", str(EXAMPLES / "example1.txt")], "", "(a text grid holds no click)"),
        (["reveal"], "EEE\n", "(a text grid holds no click)"),
        (["reveal"], '[["E", "E"]]', 'or in the JSON, as {"board": [...], "click": [3, 0]}'),
    ],
    ids=["grid-file", "grid-stdin", "json"],
)
def test_reveal_without_a_click_says_how_to_give_one(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str,
    where: str,
) -> None:
    assert_usage_error(
        run(capsys, monkeypatch, *argv, stdin=stdin),
        "minesweep reveal: no click given; pass one as --click R,C, row then column from 0, "
        f"such as --click 3,0 {where}",
    )


def test_reveal_without_a_click_of_a_file_that_is_no_board_says_what_is_wrong(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Not "no click given": no click would make a board of it.
    result = run(capsys, monkeypatch, "reveal", str(EXAMPLES / "train_agent.py"))
    assert_usage_error(
        result, "minesweep reveal: board cell at row 1, column 1 is '\"'; expected one of"
    )
