"""MBF, the player's view and game JSON: parse/serialise pairs and bad files."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minesweep import Action, ActionKind, Game, Glyph, InvalidBoardError, Minefield, ParseError
from minesweep.formats import (
    Format,
    parse_game_json,
    parse_mbf,
    parse_view,
    sniff,
    to_game_json,
    to_mbf,
    to_view,
)
from minesweep.squares import VIEW_SYMBOLS, glyph_of

from .helpers import Clock

masks = hnp.arrays(np.bool_, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=40))


@given(masks)
def test_mbf_round_trips(mask: np.ndarray) -> None:
    field = Minefield(mask)
    assert parse_mbf(to_mbf(field)) == field


def test_mbf_layout_is_width_height_count_then_x_y() -> None:
    field = Minefield.from_text("...\n..*\n")  # the mine: row 1, column 2
    assert to_mbf(field) == bytes([3, 2, 0, 1, 2, 1])


def test_mbf_count_is_big_endian() -> None:
    field = Minefield(np.ones((20, 20), bool))
    data = to_mbf(field)
    assert data[2:4] == bytes([1, 144])  # 400 mines
    assert parse_mbf(data).mine_count == 400


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the header alone is 4"),
        (bytes([3, 3, 0]), "the header alone is 4"),
        (bytes([3, 3, 0, 2, 0, 0]), "truncated: 6 bytes for 2 mines, expected 8"),
        (bytes([3, 3, 0, 1, 0, 0, 1]), "too long"),
        (bytes([3, 3, 0, 1, 3, 0]), "mine 0 at x=3, y=0 is off the 3x3 board"),
        (bytes([3, 3, 0, 1, 0, 3]), "off the 3x3 board"),
        (bytes([3, 3, 0, 2, 1, 1, 1, 1]), "mine 1 at x=1, y=1 repeats"),
        (bytes([0, 3, 0, 0]), "width and height must be at least 1"),
        ("abcd", "must be bytes"),
    ],
)
def test_malformed_mbf_is_refused(data: object, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_mbf(data)  # type: ignore[arg-type]


def test_mbf_refuses_boards_it_cannot_hold() -> None:
    with pytest.raises(InvalidBoardError, match="up to 255x255"):
        to_mbf(Minefield(np.zeros((256, 2), bool)))


glyph_grids = hnp.arrays(
    np.uint8,
    hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=20),
    elements=st.integers(0, max(Glyph)),
)


@given(glyph_grids)
def test_view_round_trips(glyphs: np.ndarray) -> None:
    assert np.array_equal(parse_view(to_view(glyphs)), glyphs)


def test_view_symbols() -> None:
    shown = [Glyph.HIDDEN, Glyph.FLAG, Glyph.QUESTION, Glyph.MINE, Glyph.EXPLODED, Glyph.WRONG_FLAG]
    assert to_view(np.array([[0, 1, 8, *shown]], np.uint8)) == ".18#F?*X!\n"
    assert parse_view("0 #\n\n1 F\n").tolist() == [[0, Glyph.HIDDEN], [1, Glyph.FLAG]]


def test_views_are_written_and_read_in_the_one_alphabet() -> None:
    every_glyph = np.arange(len(VIEW_SYMBOLS), dtype=np.uint8).reshape(1, -1)
    assert to_view(every_glyph) == VIEW_SYMBOLS + "\n"
    assert parse_view(VIEW_SYMBOLS).tolist() == every_glyph.tolist()
    # A column of each symbol, read back square by square.
    column = "\n".join(VIEW_SYMBOLS)
    assert parse_view(column).reshape(-1).tolist() == [glyph_of(s) for s in VIEW_SYMBOLS]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        # Rows and squares are named from 1, as everywhere.
        ("##\n#\n", "^view row 2 has 1 square; expected 2 like row 1$"),
        ("#\n##\n", "^view row 2 has 2 squares; expected 1 like row 1$"),
        ("#9\n", "square row 1, column 2 is '9'"),
    ],
)
def test_malformed_view_is_refused(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_view(text)


actions = st.tuples(st.sampled_from(list(ActionKind)), st.integers(0, 8), st.integers(0, 8))


@settings(max_examples=100)
@given(st.integers(0, 2**40), st.lists(actions, max_size=30), st.booleans())
def test_game_json_round_trips(
    seed: int, moves: list[tuple[ActionKind, int, int]], questions: bool
) -> None:
    game = Game.new("beginner", seed=seed, clock=Clock(step=0.25), question_marks=questions)
    for kind, row, col in moves:
        if game.is_over:
            break
        game.push(Action(kind, row, col))
    loaded = parse_game_json(to_game_json(game))
    assert loaded.history == game.history
    assert np.array_equal(loaded.state, game.state)
    assert loaded.status is game.status
    assert loaded.field == game.field
    assert loaded.seed == game.seed
    assert to_game_json(loaded) == to_game_json(game)


def test_game_json_of_a_leetcode_position_keeps_its_start() -> None:
    game = Game.from_leetcode([list("B1E1B"), list("B1m1B"), list("B111B"), list("BBBBB")])
    game.reveal(0, 2)
    loaded = parse_game_json(to_game_json(game))
    assert np.array_equal(loaded.state, game.state)
    assert loaded.status is game.status


def saved_game() -> dict[str, object]:
    game = Game.from_field(Minefield.from_text("..*..\n..*..\n..*..\n"), clock=Clock(step=0.25))
    game.reveal(0, 0)
    game.flag(0, 2)
    document: dict[str, object] = json.loads(to_game_json(game))
    return document


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"history": [{"action": "O0,4", "time": 0.0}]}, "does not lead to the recorded view"),
        ({"status": "won"}, "leads to status 'playing' but the file says 'won'"),
        ({"version": 2}, "version 2 is not supported"),
        ({"format": "other"}, "not a minesweep game"),
        ({"rows": -1}, "'rows' must be a non-negative integer"),
        ({"seed": None, "field": None}, "neither a seed nor a field"),
        ({"field": ["..*..", "..x.."]}, "square row 2, column 3 is 'x'"),
        ({"history": [{"action": "Z0,0"}]}, "starts with 'Z'"),
        ({"history": [{"action": "O9,9", "time": 0}]}, "cannot be replayed: row 9 is outside"),
        ({"history": [{"action": "O0,0", "time": -1}]}, "has time -1"),
        ({"history": "O0,0"}, "must be a list"),
        ({"rule": "sometimes"}, "first-click rule must be one of"),
        ({"view": ["#"]}, 'game "view" is \\(1, 1\\); the game is \\(3, 5\\)'),
        ({"view": [1, 2]}, 'game "view" must be a list of rows'),
        ({"view": None}, 'game "view" must be a list of rows'),
        ({"status": None}, "leads to status 'playing' but the file says None"),
        ({"history": [{"action": "O0,0", "time": float("nan")}]}, "has time nan"),
        ({"history": [{"action": "O0,0", "time": float("inf")}]}, "has time inf"),
        ({"question_marks": "no"}, "must be true or false"),
        ({"first_click": [0]}, "must be \\[row, col\\] or null"),
        ({"undos": -1}, "non-negative integer"),
        ({"initial": ["00500"] * 3}, 'game "initial" must be 3 rows of 5 digits 0-4'),
        (
            {"initial": ["00300", "00000", "00000"]},
            "cannot be replayed: row 1, column 3 is a mine but revealed",
        ),
        (
            {"rows": 10**6, "cols": 10**6, "seed": 5, "field": None, "first_click": None},
            "1,000,000,000,000 squares; at most 1,000,000,000",
        ),
    ],
)
def test_tampered_game_files_are_refused(change: dict[str, object], message: str) -> None:
    document = saved_game() | change
    with pytest.raises(ParseError, match=message):
        parse_game_json(json.dumps(document))


def test_game_json_must_be_json() -> None:
    with pytest.raises(ParseError, match="invalid JSON"):
        parse_game_json("{")
    with pytest.raises(ParseError, match="a game file is JSON text"):
        parse_game_json(None)  # type: ignore[arg-type]


def test_a_field_that_its_seed_does_not_lay_is_refused() -> None:
    game = Game.new("beginner", seed=9, clock=Clock(step=0.25))
    game.reveal(4, 4)
    document = json.loads(to_game_json(game))
    assert document["first_click"] == [4, 4]
    # Move one mine to a safe square, keeping the count.
    cells = list("".join(document["field"]))
    mine, safe = cells.index("*"), len(cells) - 1 - cells[::-1].index(".")
    cells[mine], cells[safe] = ".", "*"
    document["field"] = ["".join(cells[r * 9 : r * 9 + 9]) for r in range(9)]
    with pytest.raises(ParseError, match="not what its seed, rule and first click lay"):
        parse_game_json(json.dumps(document))


def test_undos_are_saved_so_an_assisted_game_stays_assisted() -> None:
    game = Game.new("beginner", seed=9, clock=Clock(step=0.25))
    game.reveal(4, 4)
    game.flag(0, 0)
    game.pop()
    assert parse_game_json(to_game_json(game)).undos == 1


@pytest.mark.parametrize(
    "rows",
    [
        ["B1E", "B1M", "B11"],  # playing
        ["B2X", "B2M", "B11"],  # lost
        ["B1m", "B11", "BBB"],  # won
    ],
)
def test_positions_from_leetcode_round_trip_through_json(rows: list[str]) -> None:
    game = Game.from_leetcode([list(row) for row in rows])
    loaded = parse_game_json(to_game_json(game))
    assert loaded.status is game.status
    assert np.array_equal(loaded.glyphs(), game.glyphs())


def test_views_of_bad_glyphs_are_refused() -> None:
    with pytest.raises(InvalidBoardError, match="glyphs go from 0 to 14"):
        to_view(np.array([[20]]))
    with pytest.raises(InvalidBoardError, match="2-D array of glyphs"):
        to_view(np.array([1, 2]))
    with pytest.raises(ParseError, match="a view is text"):
        parse_view(None)  # type: ignore[arg-type]


# --- sniff: which format a file holds ------------------------------------------------


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ('{"format": "minesweep-game"}', Format.GAME),
        (' \n{"version": 1, "format": "x"}', Format.GAME),
        ('  {"board": [["E"]]}', Format.LEETCODE_JSON),
        ('[["E"]]', Format.LEETCODE_JSON),
        ("[1, 2", Format.LEETCODE_JSON),  # malformed: its parser says so
        ("*..\n.*.\n", Format.MINEFIELD_TEXT),
        ("...\n", Format.MINEFIELD_TEXT),  # a minefield before a view of blanks
        ("EEM\nB1e\n", Format.LEETCODE_GRID),
        ("11\n11\n", Format.LEETCODE_GRID),  # a LeetCode board before a view
        ("E E M\r\n", Format.LEETCODE_GRID),
        ("#1\n#.\n", Format.VIEW),
        ("F?*X!0\n", Format.VIEW),
        ("##\n#\n", Format.VIEW),  # ragged: parse_view refuses it, sniff does not parse
        ("", Format.UNKNOWN),
        ("   \n", Format.UNKNOWN),
        ("hello\n", Format.UNKNOWN),
        ("#1@\n", Format.UNKNOWN),
        ("\x03\x03\x00\x01", Format.UNKNOWN),  # a str is never MBF
        (b"*.\n", Format.MINEFIELD_TEXT),
        (b'\xef\xbb\xbf[["E"]]', Format.LEETCODE_JSON),  # the byte-order mark skipped
        (b"\xef\xbb\xbf", Format.UNKNOWN),
        (b"", Format.UNKNOWN),
        (bytes([3, 3, 0, 1, 1, 1]), Format.MBF),
        (b"\xff\x01", Format.MBF),  # not UTF-8
        (bytearray(b"#F\n"), Format.VIEW),
    ],
)
def test_sniff_names_each_format(data: str | bytes, kind: Format) -> None:
    assert sniff(data) is kind


def test_sniff_refuses_what_is_neither_text_nor_bytes() -> None:
    with pytest.raises(ParseError, match="sniff reads text or bytes, got list"):
        sniff([["E"]])  # type: ignore[arg-type]


@given(st.text(alphabet="MEBXme12345678", min_size=1), st.text(alphabet=" \t\n"))
def test_a_grid_of_leetcode_letters_is_a_leetcode_grid(body: str, padding: str) -> None:
    # Letters other than '.' and '*' make it a LeetCode board whatever the spacing;
    # a board of digits alone is one too (no '*' or '.' in it).
    assert sniff(padding + body + padding) is Format.LEETCODE_GRID


@given(st.text(alphabet="*.", min_size=1), st.text(alphabet="MEBme", min_size=1))
def test_a_minefield_with_a_leetcode_letter_is_unknown(field: str, letters: str) -> None:
    assert sniff(field + letters) is Format.UNKNOWN


@given(glyph_grids)
def test_every_view_is_sniffed_as_a_view_or_what_its_symbols_also_spell(
    glyphs: np.ndarray,
) -> None:
    text = to_view(glyphs)
    kind = sniff(text)
    used = set(text) - {"\n"}
    # Only a view whose every symbol is also a minefield's (or a LeetCode
    # board's) reads as that first; every other view reads as a view.
    if used <= set("*."):
        assert kind is Format.MINEFIELD_TEXT
    elif used <= set("X12345678"):
        assert kind is Format.LEETCODE_GRID
    else:
        assert kind is Format.VIEW
    assert sniff(text.encode()) is kind


@given(masks)
def test_what_minesweep_writes_is_sniffed_as_it(mask: np.ndarray) -> None:
    field = Minefield(mask)
    assert sniff(field.to_text()) is Format.MINEFIELD_TEXT
    assert sniff(to_mbf(field)) is Format.MBF
