"""The terminal game's keys: moving and acting from the keyboard, the help screen, key files."""

from __future__ import annotations

import pathlib

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import CellState, ParseError
from minesweep.frontend import Settings
from minesweep.tui import load_keys, parse_keys
from minesweep.tui.keys import DEFAULT_KEYS, DESCRIPTIONS, key_label

from .helpers import drive, first_mine, make_app


def test_keyboard_moves_reveals_and_flags_exact_squares(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("right", "l", "down", "j")  # arrows and hjkl: (2, 2)
        assert app.board.cursor == (2, 2)
        await pilot.press("space")
        assert [str(a) for a in app.game.history] == ["O2,2"]
        await pilot.press("k", "k", "h", "h")  # back to (0, 0)
        assert app.board.cursor == (0, 0)
        mine = first_mine(app)
        app.board.move_cursor(*mine)
        await pilot.press("f")
        assert app.game[mine] is CellState.FLAGGED
        await pilot.press("f")
        assert app.game[mine] is CellState.HIDDEN

    drive(app, scenario, (60, 20))


def test_help_lists_the_keys(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help").render())
        assert "reveal" in text
        assert "hint" in text
        await pilot.press("escape")

    drive(app, scenario, (90, 30))


def test_the_readme_key_file_works(tmp_path: pathlib.Path) -> None:
    readme = (pathlib.Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    example = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "tui.toml"
    path.write_text(example)
    keys = load_keys(path)
    assert keys["flag"] == ["f", "m"]
    assert keys["hint"] == ["H", "t"]
    assert keys["help"] == DEFAULT_KEYS["help"]


def test_a_key_file_with_a_byte_order_mark_reads_as_without(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "tui.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'[keys]\nflag = ["m"]\n')
    assert load_keys(path)["flag"] == ["m"]
    assert parse_keys('[keys]\nflag = ["m"]\n', where="here")["flag"] == ["m"]
    with pytest.raises(ParseError, match="key file 'here': unknown action 'fly'"):
        parse_keys('[keys]\nfly = "m"\n', where="here")


def test_keys_are_remapped_from_a_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "tui.toml"
    path.write_text('[keys]\nflag = ["m"]\nreveal = "x"\n')
    keys = load_keys(path)
    assert keys["flag"] == ["m"]
    assert keys["reveal"] == ["x"]
    assert keys["up"] == ["up", "k"]
    app = make_app(tmp_path, keys=keys)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("x")
        assert len(app.game.history) == 1
        await pilot.press("space")  # no longer bound
        assert len(app.game.history) == 1

    drive(app, scenario, (60, 20))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[keys]\nfly = ['f']\n", "unknown action 'fly'"),
        ("[keys\n", "cannot read"),
        ("[keys]\nflag = 3\n", "must be a key or a list"),
        ("[keys]\nhint = '?'\n", "key '\\?' is bound to both hint and help"),
        ("[keys]\nflag = ['f', 'u']\n", "key 'u' is bound to both flag and undo"),
    ],
)
def test_bad_key_files_are_refused(tmp_path: pathlib.Path, text: str, message: str) -> None:
    path = tmp_path / "tui.toml"
    path.write_text(text)
    with pytest.raises(ParseError, match=message):
        load_keys(path)


def test_page_home_end_and_g_move_the_cursor_on_a_big_board(tmp_path: pathlib.Path) -> None:
    settings = Settings(rows=2000, cols=2000, mines=10, preset=None)
    app = make_app(tmp_path, settings=settings)

    async def scenario(pilot: Pilot[None]) -> None:
        page = app.board.scrollable_content_region.height
        assert 1 < page < 20
        await pilot.press("pagedown")
        assert app.board.cursor == (page, 0)
        await pilot.press("pagedown", "pageup")
        assert app.board.cursor == (page, 0)
        await pilot.press("end")
        assert app.board.cursor == (page, 1999)
        await pilot.press("home")
        assert app.board.cursor == (page, 0)
        await pilot.press("G")
        assert app.board.cursor == (1999, 0)
        assert app.board.scroll_offset.y > 1900  # the cursor is in sight
        await pilot.press("pagedown")  # kept on the board
        assert app.board.cursor == (1999, 0)
        await pilot.press("end", "g")
        assert app.board.cursor == (0, 1999)
        assert "row 1, column 2000" in str(app.query_one("#status").render())

    drive(app, scenario, (60, 20))


def test_help_names_the_key_file_and_every_key(tmp_path: pathlib.Path) -> None:
    key_file = tmp_path / "tui.toml"
    app = make_app(tmp_path, key_file=key_file)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help").render())
        assert f"remap them in {key_file}: no such file yet" in text
        # The help lists each key the game binds beside what it does.
        lines = text.splitlines()
        for action, names in DEFAULT_KEYS.items():
            shown = " / ".join(key_label(name) for name in names)
            assert any(line.split() == [*shown.split(), *DESCRIPTIONS[action].split()]
                       for line in lines), action  # fmt: skip
        assert "PageDown" in text
        assert "counted from 1" in text
        assert "counts that one as a loss" in text
        await pilot.press("escape")

    drive(app, scenario, (100, 40))
    key_file.write_text('[keys]\nflag = "m"\n')
    app = make_app(tmp_path, key_file=key_file, keys=load_keys(key_file))

    async def remapped(pilot: Pilot[None]) -> None:
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("#help").render())
        assert f"as remapped in {key_file}" in text
        assert "m" in text

    drive(app, remapped, (100, 40))
