"""``minesweep new`` and ``minesweep stats``."""

from __future__ import annotations

import io
import json
import pathlib
import sys
from typing import Any

import pytest

from .runner import assert_usage_error, run, run_raw


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


@pytest.mark.parametrize("command", ["new", "play"])
@pytest.mark.parametrize(
    ("options", "line"),
    [
        (["--size", "9x9"], "--size needs --mines"),
        (["--mines", "3"], "--mines goes with --size; a preset has its own"),
        (["--preset", "expert", "--mines", "3"], "--mines goes with --size; a preset has its own"),
    ],
)
def test_game_options_are_refused_in_the_command_lines_own_words(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    command: str,
    options: list[str],
    line: str,
) -> None:
    # The settings word these in no front end's options; the CLI names its own.
    keys = tmp_path / "keys.toml"
    keys.write_text("")  # play: no key file of the machine's own
    extra = ["--keys", str(keys)] if command == "play" else []
    result = run(capsys, monkeypatch, command, *options, *extra)
    assert result == (2, "", f"minesweep {command}: {line}\n")


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (
            ["--size", "9x12", "--mines", "20", "--seed", "4", "--rule", "safe"],
            {"size": (9, 12), "mines": 20, "seed": 4, "rule": "safe"},
        ),
        (["--preset", "intermediate", "--no-guess"], {"preset": "intermediate", "no_guess": True}),
        ([], {}),
    ],
)
def test_new_and_play_read_the_game_options_alike(
    options: list[str], expected: dict[str, object]
) -> None:
    from minesweep.cli._args import settings_from
    from minesweep.cli._parser import build_parser
    from minesweep.frontend import Settings

    parser = build_parser()
    played = settings_from(parser.parse_args(["play", *options]), "play")
    assert played == Settings.of(**expected)  # type: ignore[arg-type]
    # new lays the field itself: around the middle square, from a seed it records.
    made = settings_from(
        parser.parse_args(["new", *options]), "new", draw_seed=True, first_click="center"
    )
    assert made.seed is not None
    assert made.first_click == (made.rows // 2, made.cols // 2)
    assert made == Settings.of(
        **expected | {"seed": made.seed, "first_click": "center"}  # type: ignore[arg-type]
    )


# --- MBF on a terminal, and the no-guess search ------------------------------------------


def test_new_does_not_write_mbf_to_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert_usage_error(
        run(capsys, monkeypatch, "new", "--preset", "beginner", "--format", "mbf"),
        "minesweep new: MBF is binary, not for a terminal; write it to a file with -o FILE "
        "(or -o - to send it to standard output anyway)",
    )
    # To a file it is written as ever; the other formats are text, for a terminal too.
    path = tmp_path / "board.mbf"
    made = run(
        capsys, monkeypatch, "new", "--preset", "beginner", "--format", "mbf", "-o", str(path)
    )
    assert made == (0, "", "")
    assert path.read_bytes()[:4] == bytes([9, 9, 0, 10])
    assert run(capsys, monkeypatch, "new", "--preset", "beginner", "--seed", "1")[0] == 0


@pytest.mark.parametrize(
    ("name", "given", "written"),
    [
        ("board.mbf", [], "mbf"),
        ("BOARD.MBF", [], "mbf"),
        ("game.json", [], "json"),
        ("board.txt", [], "text"),
        ("board", [], "text"),
        ("board.mbf", ["--format", "text"], "text"),  # said outright, it wins
    ],
)
def test_new_writes_the_format_the_file_name_says(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    name: str,
    given: list[str],
    written: str,
) -> None:
    from minesweep.formats import parse_mbf

    path = tmp_path / name
    argv = ["new", "--preset", "beginner", "--seed", "3", "-o", str(path), *given]
    assert run(capsys, monkeypatch, *argv) == (0, "", "")
    data = path.read_bytes()
    text = run(capsys, monkeypatch, "new", "--preset", "beginner", "--seed", "3")[1]
    if written == "mbf":
        assert parse_mbf(data).to_text() == text
    elif written == "json":
        game = json.loads(data)
        assert game["format"] == "minesweep-game"
        assert "\n".join(game["field"]) + "\n" == text
    else:
        assert data.decode() == text


def test_new_writes_mbf_to_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "minesweep", "new", "--preset", "beginner", "--format", "mbf"],
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout[:4] == bytes([9, 9, 0, 10])


def test_the_no_guess_budget_is_an_option(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesweep.solver

    given: list[float | None] = []
    real = minesweep.solver.generate_no_guess

    def spy(*args: Any, **kwargs: Any) -> Any:
        given.append(kwargs.get("max_seconds"))
        return real(*args, **kwargs)

    monkeypatch.setattr(minesweep.solver, "generate_no_guess", spy)
    words = ["new", "--preset", "beginner", "--seed", "2", "--no-guess"]
    status, out, err = run(capsys, monkeypatch, *words, "--no-guess-seconds", "2.5")
    assert (status, err) == (0, "")
    assert given == [2.5]
    # The budget does not change which field the seed gives; without it, the default.
    assert run(capsys, monkeypatch, *words) == (0, out, "")
    from minesweep.frontend import NO_GUESS_SECONDS

    assert given == [2.5, NO_GUESS_SECONDS]


def test_the_no_guess_budget_is_in_the_help_with_its_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep.cli._args import NO_GUESS_SECONDS
    from minesweep.frontend import NO_GUESS_SECONDS as LAYER_SECONDS

    assert NO_GUESS_SECONDS == LAYER_SECONDS
    for command in ("new", "play"):
        _, out, _ = run(capsys, monkeypatch, command, "--help")
        flat = " ".join(out.split())
        assert "--no-guess-seconds SECONDS with --no-guess: how long to search" in flat
        assert "(default 10)" in flat
    _, out, _ = run(capsys, monkeypatch, "new", "--help")
    assert 'the file\'s "seed" is null' in " ".join(out.split())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--no-guess", "--no-guess-seconds", "0"], "positive number of seconds, got '0'"),
        (["--no-guess", "--no-guess-seconds", "-1"], "positive number of seconds, got '-1'"),
        (["--no-guess", "--no-guess-seconds", "nan"], "positive number of seconds, got 'nan'"),
        (["--no-guess-seconds", "5"], "minesweep new: --no-guess-seconds goes with --no-guess"),
    ],
)
def test_the_no_guess_budget_is_checked(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    assert_usage_error(run(capsys, monkeypatch, "new", *argv), message)


def test_a_no_guess_search_out_of_time_says_how_to_give_it_more(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import minesweep.solver
    from minesweep.solver import NoGuessBudgetError

    def out_of_time(*_args: object, **_kwargs: object) -> object:
        raise NoGuessBudgetError("no no-guess 9x9 field with 35 mines found in 0.5 s (9 attempts)")

    monkeypatch.setattr(minesweep.solver, "generate_no_guess", out_of_time)
    result = run(
        capsys, monkeypatch, "new", "--size", "9x9", "--mines", "35", "--no-guess",
        "--no-guess-seconds", "0.5",
    )  # fmt: skip
    assert_usage_error(
        result,
        "minesweep new: no no-guess 9x9 field with 35 mines found in 0.5 s (9 attempts); "
        "give it longer with --no-guess-seconds, or try fewer mines or a larger board",
    )


def test_play_passes_the_no_guess_budget_to_the_terminal_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("textual")
    import minesweep.solver
    import minesweep.tui

    made: list[dict[str, object]] = []

    class App:
        # How the game ended, as the command reads it: neither refused nor interrupted.
        failure = None
        interrupted = False

        def __init__(self, settings: object, **options: object) -> None:
            made.append(options)

        def run(self) -> None:
            pass

    monkeypatch.setattr(minesweep.tui, "MinesweeperApp", App)
    given: list[float | None] = []
    real = minesweep.solver.no_guess_game

    def spy(*args: Any, **kwargs: Any) -> Any:
        given.append(kwargs.get("max_seconds"))
        return real(*args, **kwargs)

    monkeypatch.setattr(minesweep.solver, "no_guess_game", spy)
    assert run(capsys, monkeypatch, "play", "--preset", "beginner", "--no-guess")[0] == 0
    assert "lay_no_guess" not in made[-1]  # the default: the game's own search
    status, _, _ = run(
        capsys, monkeypatch, "play", "--preset", "beginner", "--no-guess",
        "--no-guess-seconds", "3",
    )  # fmt: skip
    assert status == 0
    lay = made[-1]["lay_no_guess"]
    # The game asks with its default budget; the option's is used.
    field = lay(9, 9, 10, (4, 4), 7, 10.0)  # type: ignore[operator]
    assert given == [3.0]
    assert field.mine_count == 10
