"""One name for a square in every text for a person; 0-based indices in every format for programs.

People count from 1: the command line's text and messages, the terminal game,
the web page and its replay viewer all name the square at index ``(0, 3)``
as ``row 1, column 4`` (``r1c4`` in a table), through
:func:`minesweep.squares.square_name` and :func:`~minesweep.squares.square_tag`.
Programs count from 0: JSON, CSV and the Python API keep ``row`` and ``col``
as indices.
"""

from __future__ import annotations

import csv
import io
import json
import pathlib
import re

import pytest

from minesweep.squares import square_name, square_tag

from .cli.runner import run

REPO = pathlib.Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "replays" / "data"
#: The square every front end names below: index (0, 3).
ROW, COL = 0, 3
NAME = "row 1, column 4"


def test_the_names_count_from_1() -> None:
    assert square_name(ROW, COL) == NAME
    assert square_tag(ROW, COL) == "r1c4"
    assert square_name(15, 29) == "row 16, column 30"


def test_solve_names_its_hint_from_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The only safe hidden square of this view is at index (0, 3).
    status, out, err = run(
        capsys, monkeypatch, "solve", "-", "--mines", "1", stdin="..1#\n..1#\n..11\n"
    )
    assert (status, err) == (0, "")
    assert out.splitlines()[-1] == f"hint: {NAME} is certainly safe"


def test_a_command_line_error_names_the_square_from_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, "solve", "-", "--mines", "1", stdin="111*\n")
    assert (status, out) == (2, "")
    assert f"the view's {NAME} is '*'" in err


def test_the_terminal_game_s_status_line_names_the_square_from_1(tmp_path: pathlib.Path) -> None:
    from textual.pilot import Pilot

    from .tui.helpers import drive, make_app

    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press(*["right"] * COL)  # from the top left, index (0, 0)
        assert app.board.cursor == (ROW, COL)
        assert f"· {NAME} ·" in str(app.query_one("#status").render())

    drive(app, scenario, (80, 20))


def test_the_web_page_s_hint_names_the_square_from_1() -> None:
    from minesweep.solver.hints import Hint, HintReason
    from minesweep.web.service import page_numbering

    advice = Hint(ROW, COL, 0.0, True, HintReason.SAFE)
    assert page_numbering(advice) == f"{NAME} is certainly safe"
    # The Python API's own sentence and fields stay 0-based, for programs.
    assert (advice.row, advice.col) == (ROW, COL)


def test_the_web_page_s_script_names_squares_as_square_name_does() -> None:
    # The page names squares in JavaScript; its one spelling must be the core's.
    # The script is ES modules (static/app.js and what it imports): all of them are read.
    modules = sorted((REPO / "src" / "minesweep" / "web" / "static").glob("*.js"))
    script = "\n".join(module.read_text() for module in modules)
    spellings = set(re.findall(r"`row \$\{(\w+) \+ 1\}, column \$\{(\w+) \+ 1\}", script))
    assert spellings, "the page's script no longer names squares as 'row R, column C'"
    template = "row {r}, column {c}"
    assert square_name(ROW, COL) == template.format(r=ROW + 1, c=COL + 1)
    # No other spelling of a square: no 0-based "(r, c)" or "r1c4" built in the page.
    assert not re.search(r"`\(\$\{\w+\}, ?\$\{\w+\}\)`", script)


def test_replay_clicks_text_names_squares_from_1_and_json_csv_keep_indices(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep.replays import read
    from minesweep.replays.verdict import judge_clicks

    path = str(DATA / "test_subject_2.rmv")
    status, text, err = run(capsys, monkeypatch, "replay", "--clicks", path)
    assert (status, err) == (0, "")
    _, as_json, _ = run(capsys, monkeypatch, "replay", "--clicks", "--format", "json", path)
    _, as_csv, _ = run(capsys, monkeypatch, "replay", "--clicks", "--format", "csv", path)
    rows = [json.loads(line) for line in as_json.splitlines()]
    # JSON and CSV carry the Python API's 0-based indices, unchanged.
    api = judge_clicks(read(path)).rows()
    assert [(r["row"], r["col"]) for r in rows] == [(r["row"], r["col"]) for r in api]
    assert min(r["row"] for r in rows if r["row"] >= 0) == 0  # a click on the top row
    table = list(csv.DictReader(io.StringIO(as_csv)))
    assert [(int(r["row"]), int(r["col"])) for r in table] == [(r["row"], r["col"]) for r in rows]
    # The text table names each judged click's square from 1, in the same order.
    shown = [line.split()[2] for line in text.splitlines()[2:]]
    assert shown == [square_tag(r["row"], r["col"]) for r in rows if r["judged"]]
