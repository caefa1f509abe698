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


def assert_usage_error(result: tuple[int, str, str], message: str) -> None:
    """Exit status 2, nothing on stdout, one line on stderr that says ``message``."""
    status, out, err = result
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert message in err
    assert "Traceback" not in err


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
        (["reveal", "--click", "0,0"], "EE\nE\n", "board row 1 has 1 cells"),
        (["reveal", "--click", "0,0"], "Eq\n", "board cell (0, 1) is 'q'"),
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


# --- minesweep new and minesweep stats ------------------------------------------------


def test_new_is_reproducible_and_keeps_the_middle_clear(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, first, _ = run(capsys, monkeypatch, "new", "--preset", "beginner", "--seed", "7")
    assert status == 0
    _, second, _ = run(capsys, monkeypatch, "new", "--preset", "beginner", "--seed", "7")
    assert first == second
    rows = first.splitlines()
    assert len(rows) == 9
    assert all(len(row) == 9 for row in rows)
    assert sum(row.count("*") for row in rows) == 10
    assert all(rows[r][c] == "." for r in (3, 4, 5) for c in (3, 4, 5))


@pytest.mark.parametrize("fmt", ["text", "leetcode", "json", "mbf"])
def test_new_writes_every_format_and_stats_reads_it_back(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    fmt: str,
) -> None:
    path = tmp_path / f"board.{fmt}"
    status, out, err = run(
        capsys,
        monkeypatch,
        "new",
        "--size",
        "12x20",
        "--mines",
        "40",
        "--seed",
        "3",
        "--first-click",
        "0,0",
        "--format",
        fmt,
        "-o",
        str(path),
    )
    assert (status, out, err) == (0, "", "")
    status, out, err = run(capsys, monkeypatch, "stats", str(path))
    assert status == 0, err
    assert "size        12x20" in out
    assert "mines       40 (16.7%)" in out
    from minesweep import board_stats, generate_field

    expected = board_stats(generate_field(12, 20, 40, first_click=(0, 0), seed=3))
    assert f"3BV         {expected.bbbv}\n" in out
    assert f"openings    {expected.openings}\n" in out


def test_stats_of_a_played_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    from minesweep import Game
    from minesweep.formats import to_game_json

    game = Game.new("beginner", seed=11)
    game.reveal(4, 4)
    game.reveal(4, 4)  # wasted
    path = tmp_path / "game.json"
    path.write_text(to_game_json(game))
    status, out, _ = run(capsys, monkeypatch, "stats", str(path))
    assert status == 0
    assert "status      playing" in out
    assert "clicks      2 (left 2, right 0, chord 0, wasted 1)" in out


def test_stats_reads_a_leetcode_grid_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"EEM\nEEE\n")))
    status, out, _ = run_raw(capsys, "stats", "-")
    assert status == 0
    assert "3BV         2\nopenings    1\nislands     1\n" in out


def run_raw(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "--size", "3x3", "--mines", "8"], "8 mines do not fit on a 3x3 board"),
        (["new", "--size", "3x3"], "--size needs --mines"),
        (["new", "--preset", "expert", "--mines", "3"], "--mines goes with --size"),
        (["new", "--size", "3by3", "--mines", "1"], "expected ROWSxCOLS"),
        (["new", "--seed", "-4"], "expected a non-negative whole number"),
        (["new", "--first-click", "20,0"], "row 20 is outside"),
        (["new", "--preset", "expert", "--size", "3x3"], "not allowed with argument"),
        (["stats", "no/such/file"], "cannot read 'no/such/file'"),
        (
            ["new", "--size", "100000x100000", "--mines", "1"],
            "10,000,000,000 squares; at most 1,000,000,000",
        ),
    ],
)
def test_new_and_stats_errors_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    assert_usage_error(run(capsys, monkeypatch, *argv), message)


@pytest.mark.parametrize("stdin", ['[["m","1"],["1","1"]]', "m1\n11\n", "M1\n11\n"])
def test_stats_reads_flags_as_the_game_writes_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    status, out, err = run_raw(capsys, "stats", "-")
    assert (status, err) == (0, "")
    assert "mines       1 (25.0%)" in out
    assert "3BV         3" in out


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("", "the input is empty"),
        ("garbage\n", "not a board minesweep reads"),
        ("#1\n11\n", "not a board minesweep reads"),
    ],
)
def test_stats_of_text_it_cannot_read_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, message: str
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    assert_usage_error(run_raw(capsys, "stats", "-"), message)


def test_stats_of_a_truncated_mbf_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    path = tmp_path / "bad.mbf"
    path.write_bytes(bytes([9, 9, 0, 10, 1, 1, 0xFF]))
    status, _, err = run(capsys, monkeypatch, "stats", str(path))
    assert status == 2
    assert "truncated" in err


# --- minesweep solve and new --no-guess ------------------------------------------------


def test_solve_a_view_prints_probabilities_and_a_hint(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(
        capsys, monkeypatch, "solve", "-", "--mines", "1", stdin="..1#\n..1#\n..11\n"
    )
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == [".", ".", "1", "S"]
    assert lines[1].split() == [".", ".", "1", "*"]
    assert lines[-1] == "hint: click (0, 3): (0, 3) is certainly safe"


def test_solve_a_leetcode_board_counts_its_mines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(capsys, monkeypatch, "solve", "-", stdin="B1E1B\nB1M1B\nB111B\nBBBBB\n")
    assert status == 0
    assert out.splitlines()[0].split() == [".", "1", "S", "1", "."]


def test_solve_a_game_before_its_first_click_follows_the_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep import Game
    from minesweep.formats import to_game_json

    game = Game.new("beginner", rule="opening", seed=3)
    status, out, err = run(capsys, monkeypatch, "solve", "-", stdin=to_game_json(game))
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == (
        "hint: click (4, 4): the first click is safe: the 'opening' rule keeps it clear of mines"
    )
    # The 12% in the table is the density; the rule's promise is said beside it.
    assert "  12" in out
    assert out.splitlines()[-2] == (
        "no square is revealed yet; the 'opening' rule promises whichever square you click "
        "first holds no mine, and nor do its neighbours (the mines are laid after that click); "
        "the percentages are for squares you do not click first"
    )


def test_stats_columns_line_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    from minesweep import Game
    from minesweep.formats import to_game_json

    game = Game.new("beginner", seed=11)
    game.reveal(4, 4)
    path = tmp_path / "game.json"
    path.write_text(to_game_json(game))
    status, out, _ = run(capsys, monkeypatch, "stats", str(path))
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 13
    # Every value starts in the same column, after the longest label.
    assert all(line[11] == " " and line[12] != " " for line in lines)
    assert "correctness " + lines[-2][12:] == lines[-2]


def test_new_names_itself_when_it_cannot_write(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    target = tmp_path / "no" / "such" / "folder" / "board.mbf"
    result = run(capsys, monkeypatch, "new", "--preset", "beginner", "-o", str(target))
    assert_usage_error(result, f"minesweep new: cannot write {str(target)!r}: ")


def test_serve_on_an_address_in_use_exits_2_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    import socket

    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
        result = run(capsys, monkeypatch, "serve", "--port", port, "--db", db)
    assert_usage_error(result, f"cannot listen on 127.0.0.1:{port}: ")
    assert result[2].startswith("minesweep serve: ")


@pytest.mark.parametrize(
    ("stdin", "argv", "message"),
    [
        ("##\n", [], "pass --mines N"),
        ("4#\n##\n", ["--mines", "3"], "shows 4 but has only 3"),
        ("EX\n", [], "the game is over"),
        ("#Z\n", ["--mines", "1"], "column 1 is 'Z'"),
    ],
)
def test_solve_errors_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str,
    argv: list[str],
    message: str,
) -> None:
    assert_usage_error(run(capsys, monkeypatch, "solve", "-", *argv, stdin=stdin), message)


def test_new_no_guess_gives_a_field_the_solver_clears(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep import Minefield
    from minesweep.solver import clears_without_guessing

    status, out, _ = run(
        capsys, monkeypatch, "new", "--preset", "expert", "--seed", "5", "--no-guess"
    )
    assert status == 0
    assert clears_without_guessing(Minefield.from_text(out), (8, 15))
    assert_usage_error(
        run(capsys, monkeypatch, "new", "--no-guess", "--rule", "safe"),
        "minesweep new: no-guess games always open at the first click (rule opening)",
    )


def test_new_no_guess_game_files_read_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    from minesweep.formats import parse_game_json
    from minesweep.solver import clears_without_guessing

    status, out, _ = run(
        capsys, monkeypatch, "new", "--preset", "beginner", "--seed", "2", "--no-guess",
        "--format", "json",
    )  # fmt: skip
    assert status == 0
    game = parse_game_json(out)
    assert game.field is not None
    assert game.first_click == (4, 4)
    assert clears_without_guessing(game.field, (4, 4))
    saved = tmp_path / "game.json"
    saved.write_text(out)
    status, out, _ = run(capsys, monkeypatch, "stats", str(saved))
    assert status == 0
    assert "3BV" in out


# --- minesweep bench play ---------------------------------------------------------------


def test_bench_play_prints_the_win_rate_with_its_interval(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(
        capsys,
        monkeypatch,
        "bench",
        "play",
        "--preset",
        "beginner",
        "--rule",
        "opening",
        "--first-click",
        "3,3",
        "--games",
        "50",
        "--seed",
        "7",
        "--workers",
        "1",
    )
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("beginner 9x9/10, rule opening, first click (3, 3), seeds 7...56")
    assert lines[1].startswith("wins       ")
    wins = int(lines[1].split()[1])
    assert lines[2].startswith(f"win rate   {wins / 50:.2%} (95% CI ")
    assert lines[3].endswith("games/s")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "play", "--first-click", "edge"], "'corner', 'center' or R,C"),
        (["bench", "play", "--preset", "master"], "invalid choice"),
        (["bench", "play", "--workers", "2", "--dask", "tcp://x:1"], "not allowed with argument"),
        (["bench"], "required"),
        (
            ["bench", "play", "--games", "0"],
            "argument --games: expected a whole number of at least 1",
        ),
        (["bench", "play", "--workers", "0"], "--workers: expected a whole number of at least 1"),
        (["bench", "play", "--dask-timeout", "0"], "expected a positive number of seconds"),
        (["bench", "play", "--dask-timeout", "nan"], "expected a positive number of seconds"),
        (
            ["bench", "play", "--games", "1", "--dask", "nonsense"],
            "cannot reach the Dask scheduler at 'nonsense'",
        ),
        (
            [
                "bench",
                "play",
                "--games",
                "1",
                "--dask",
                "tcp://127.0.0.1:9",
                "--dask-timeout",
                "0.5",
            ],
            "cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'",
        ),
    ],
)
def test_bench_errors_exit_2(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    assert_usage_error(run(capsys, monkeypatch, *argv), message)


def test_standard_input_that_is_not_utf8_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"EE\xff\n")))
    status, out, err = run_raw(capsys, "reveal", "-", "--click", "0,0")
    assert (status, out) == (2, "")
    assert (
        err == "minesweep reveal: cannot read standard input: not UTF-8 text (invalid start byte)\n"
    )


def test_a_byte_order_mark_is_not_part_of_the_board(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    path = tmp_path / "board.txt"
    path.write_bytes(b"\xef\xbb\xbfEEE\nEEM\n")
    status, out, err = run(capsys, monkeypatch, "reveal", str(path), "--click", "0,0")
    assert (status, out, err) == (0, "B1E\nB1M\n", "")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
    assert run_raw(capsys, "reveal", "-", "--click", "0,0") == (0, "B1E\nB1M\n", "")
