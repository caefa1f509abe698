"""``minesweep solve``, ``new --no-guess`` and ``serve``."""

from __future__ import annotations

import pathlib

import pytest

from .runner import assert_usage_error, run


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
