"""``minesweep solve``, ``new --no-guess`` and ``serve``."""

from __future__ import annotations

import pathlib

import numpy as np
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
    # Named for a person, counted from 1: the square at index (0, 3).
    assert lines[-1] == "hint: row 1, column 4 is certainly safe"


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
        "hint: click row 5, column 5: the first click is safe: the 'opening' rule keeps it clear "
        "of mines"
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
        ("#Z\n", ["--mines", "1"], "row 1, column 2 is 'Z'"),
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


# --- solve reads what new writes ---------------------------------------------------------

_FIELD_NOTE = (
    "a minefield, not a position: this is the view it starts from, every square hidden, "
    "with its 10 mines"
)


@pytest.mark.parametrize("fmt", ["text", "mbf"])
def test_solve_reads_a_minefield_as_the_view_it_starts_from(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    fmt: str,
) -> None:
    # What new writes (here a no-guess field) is a minefield: its mines are
    # counted, and the position is its start, every square hidden.
    path = tmp_path / f"ng.{fmt}"
    made = run(
        capsys, monkeypatch, "new", "--preset", "beginner", "--seed", "3", "--no-guess",
        "--format", fmt, "-o", str(path),
    )  # fmt: skip
    assert made == (0, "", "")
    status, out, err = run(capsys, monkeypatch, "solve", str(path))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert [line.split() for line in lines[:9]] == [["12"] * 9] * 9  # 10 mines in 81 squares
    assert lines[9:12] == [
        "",
        "mine probability in % of each hidden square; S certainly safe, * certainly a mine",
        _FIELD_NOTE,
    ]
    assert lines[12].startswith("hint: no square is certainly safe; row 1, column 1 holds a mine")
    # --mines that says the same is fine.
    assert run(capsys, monkeypatch, "solve", str(path), "--mines", "10") == (0, out, "")


def test_solve_of_a_field_with_no_mine_is_all_safe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A text of '.' alone is a minefield, as stats reads it, not a view of blanks.
    status, out, _ = run(capsys, monkeypatch, "solve", "-", stdin="...\n...\n")
    assert status == 0
    assert out.splitlines()[:2] == ["   S   S   S"] * 2
    assert "every square hidden, with its 0 mines" in out


@pytest.mark.parametrize(
    ("make", "argv", "message"),
    [
        (
            ["new", "--preset", "expert", "--seed", "3", "--format", "leetcode"],
            ["--mines", "5"],
            "minesweep solve: the board shows 99 mines (its M squares), but --mines says 5; "
            "leave --mines out, or give 99",
        ),
        (
            ["new", "--preset", "beginner", "--seed", "3"],
            ["--mines", "11"],
            "minesweep solve: the minefield holds 10 mines, but --mines says 11",
        ),
        (
            ["new", "--preset", "beginner", "--seed", "3", "--format", "mbf"],
            ["--mines", "0"],
            "minesweep solve: the minefield holds 10 mines, but --mines says 0",
        ),
        (
            ["new", "--preset", "beginner", "--seed", "3", "--format", "json"],
            ["--mines", "12"],
            "minesweep solve: the game has 10 mines, but --mines says 12",
        ),
        (
            ["new", "--size", "3x3", "--mines", "1", "--seed", "3", "--rule", "none"],
            ["--mines", "2"],
            "minesweep solve: the minefield holds 1 mine, but --mines says 2",
        ),
    ],
    ids=["leetcode", "text", "mbf", "game", "one-mine"],
)
def test_solve_refuses_mines_that_disagree_with_the_file(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    make: list[str],
    argv: list[str],
    message: str,
) -> None:
    path = tmp_path / "board"
    assert run(capsys, monkeypatch, *make, "-o", str(path))[0] == 0
    assert_usage_error(run(capsys, monkeypatch, "solve", str(path), *argv), message)


@pytest.mark.parametrize(
    ("stdin", "symbol"), [("#*\n11\n", "*"), ("X#\n11\n", "X"), ("!#\n##\n", "!")]
)
def test_solve_names_a_lost_game_s_squares_in_the_view_s_symbols(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str, symbol: str
) -> None:
    result = run(capsys, monkeypatch, "solve", "-", "--mines", "1", stdin=stdin)
    # Counted from 1, as every message names a square: the first row, first or second column.
    assert_usage_error(result, f"column {1 if symbol != '*' else 2} is {symbol!r}, which only a ")
    assert "glyph" not in result[2]
    assert "a view to solve holds '#', 'F', '?', '.' and '1'-'8'" in result[2]


def test_solve_of_a_lost_game_file_says_the_game_is_lost(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep import Game
    from minesweep.formats import to_game_json

    game = Game.new("beginner", rule="opening", seed=1)
    game.reveal(4, 4)
    assert game.field is not None
    row, col = (int(v) for v in np.argwhere(game.field.mines)[0])
    game.reveal(row, col)
    result = run(capsys, monkeypatch, "solve", "-", stdin=to_game_json(game))
    assert_usage_error(result, "minesweep solve: the game is lost: a mine has gone off")


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"ab\xff\x00", "not UTF-8 text (invalid start byte), nor an MBF board (MBF data is"),
        (b"\x01\x02", "not text (it holds control characters), nor an MBF board (MBF data is 2"),
    ],
)
def test_solve_of_bytes_that_are_neither_text_nor_mbf(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    data: bytes,
    what: str,
) -> None:
    path = tmp_path / "board.bin"
    path.write_bytes(data)
    result = run(capsys, monkeypatch, "solve", str(path))
    assert_usage_error(result, f"minesweep solve: cannot read {str(path)!r}: {what}")


def test_solve_svg_writes_the_heat_map_with_the_hint_framed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    import xml.etree.ElementTree as ET

    out_path = tmp_path / "heat.svg"
    status, out, err = run(
        capsys, monkeypatch, "solve", "-", "--mines", "1", "--svg", str(out_path),
        stdin="..1#\n..1#\n..11\n",
    )  # fmt: skip
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == "hint: row 1, column 4 is certainly safe"
    root = ET.fromstring(out_path.read_text(encoding="utf-8"))
    marks = {
        (element.get("class"), element.get("data-row"), element.get("data-col"))
        for element in root.iter()
        if (element.get("class") or "").startswith("mark ")
    }
    assert marks == {("mark hint", "0", "3"), ("mark safe", "0", "3"), ("mark mine", "1", "3")}
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None
    assert title.text == ("Mine probabilities, 3 by 4; hint: row 1, column 4 is certainly safe")
    from minesweep.svg import THEMES

    fills = {
        (element.get("data-row"), element.get("data-col")): element.get("fill")
        for element in root.iter()
        if (element.get("class") or "").startswith("square ")
    }
    safe, _, mine = THEMES["classic"].heat
    assert (fills[("0", "3")], fills[("1", "3")]) == (safe, mine)
