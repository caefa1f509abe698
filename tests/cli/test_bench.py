"""``minesweep bench play``."""

from __future__ import annotations

import io
import pathlib
import sys

import pytest

from .runner import assert_usage_error, run, run_raw


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
    assert lines[0].startswith(
        "beginner 9x9/10, rule opening, first click row 4, column 4, strength default, seeds 7...56"
    )
    assert lines[1].startswith("wins       ")
    wins = int(lines[1].split()[1])
    assert lines[2].startswith(f"win rate   {wins / 50:.2%} (95% CI ")
    assert lines[3].endswith("games/s")


@pytest.mark.parametrize("strength", ["fast", "default", "strongest"])
def test_bench_play_plays_at_every_strength(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, strength: str
) -> None:
    status, out, err = run(
        capsys,
        monkeypatch,
        "bench",
        "play",
        "--preset",
        "beginner",
        "--strength",
        strength,
        "--games",
        "5",
        "--workers",
        "1",
        "--quiet",
    )
    assert (status, err) == (0, "")
    assert f", strength {strength}, seeds 0...4, " in out.splitlines()[0]
    assert out.splitlines()[1].startswith("wins       ")


@pytest.mark.parametrize(("strength", "told"), [("strongest", True), ("default", False)])
def test_a_survival_search_on_a_cold_cache_says_why_it_is_slow(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    strength: str,
    told: bool,
) -> None:
    # As right after an install: the autoplayer's kernels are not compiled
    # yet, and its games run uncompiled until the background compile is done.
    # (Pretended here: no compile starts, and the game runs as it may.)
    from minesweep.cli import _commands, main

    monkeypatch.setattr(_commands, "is_compiled", lambda part: False)
    monkeypatch.delenv("MINESWEEP_JIT", raising=False)
    argv = ["bench", "play", "--preset", "beginner", "--strength", strength, "--games", "1"]
    argv += ["--workers", "1", "--quiet"]
    # The runner's helpers drop lines that begin as this one does (the
    # first-use notices of a fresh clone): read stderr as it is.
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.startswith("beginner 9x9/10, ")
    notice = (
        "minesweep: loading the autoplayer's kernels in the background (a few minutes after an "
        "install; `minesweep warm` does it ahead): until then strongest's survival search runs "
        "uncompiled, and its first games are slow\n"
    )
    assert (notice in err) is told
    # At any strength, the speed is said to include uncompiled games.
    assert err.endswith(
        "minesweep: loading the autoplayer's kernels took part of this run: its first games ran "
        "uncompiled, so the speed above is low; after `minesweep warm` it is the compiled speed\n"
    )
    # Told to interpret, nothing compiles in the background: nothing to say.
    monkeypatch.setenv("MINESWEEP_JIT", "interpret")
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "survival search" not in err
    assert "speed above" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "play", "--first-click", "edge"], "'corner', 'center' or R,C"),
        (["bench", "play", "--preset", "master"], "invalid choice"),
        (["bench", "play", "--strength", "strong"], "choose from 'fast', 'default', 'strongest'"),
        (["bench", "play", "--workers", "2", "--dask", "tcp://x:1"], "not allowed with argument"),
        (["bench"], "required"),
        (
            ["bench", "play", "--games", "0"],
            "argument --games: expected a whole number of at least 1",
        ),
        (["bench", "play", "--workers", "0"], "--workers: expected a whole number of at least 1"),
        # A word no option takes: the command it was given to says so.
        (
            ["bench", "play", "--size", "9x9"],
            "minesweep bench play: unrecognized arguments: --size 9x9 (see --help)",
        ),
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
