"""The vocabulary of a square: states, glyphs and the solver's notes, defined once."""

from __future__ import annotations

import pytest

import minesweep
from minesweep import squares
from minesweep.squares import CellState, Glyph, Knowledge


def test_the_enums_are_importable_where_they_always_were() -> None:
    from minesweep import board, game

    assert minesweep.CellState is board.CellState is game.CellState is CellState
    assert minesweep.Glyph is game.Glyph is Glyph


@pytest.mark.parametrize(
    ("constant", "member"),
    [
        ("STATE_HIDDEN", CellState.HIDDEN),
        ("STATE_QUESTIONED", CellState.QUESTIONED),
        ("STATE_FLAGGED", CellState.FLAGGED),
        ("STATE_REVEALED", CellState.REVEALED),
        ("STATE_EXPLODED", CellState.EXPLODED),
        ("GLYPH_HIDDEN", Glyph.HIDDEN),
        ("GLYPH_FLAG", Glyph.FLAG),
        ("GLYPH_QUESTION", Glyph.QUESTION),
        ("GLYPH_MINE", Glyph.MINE),
        ("GLYPH_EXPLODED", Glyph.EXPLODED),
        ("GLYPH_WRONG_FLAG", Glyph.WRONG_FLAG),
        ("KNOWN_UNKNOWN", Knowledge.UNKNOWN),
        ("KNOWN_OPEN", Knowledge.OPEN),
        ("KNOWN_MINE", Knowledge.MINE),
    ],
)
def test_plain_int_constants_repeat_their_members(constant: str, member: int) -> None:
    value = getattr(squares, constant)
    assert type(value) is int
    assert value == member


def test_glyphs_follow_the_numbers_without_a_gap() -> None:
    values = sorted(int(glyph) for glyph in Glyph)
    assert values == list(range(squares.MAX_NUMBER + 1, squares.MAX_NUMBER + 1 + len(Glyph)))
    assert max(squares.HIDDEN_GLYPHS) == squares.GLYPH_PLAYABLE_MAX
    assert squares.OUTCOME_MINE == squares.MAX_NUMBER + 1


def test_the_flood_mark_is_no_state_a_square_keeps() -> None:
    assert squares.STATE_OPENING not in {int(state) for state in CellState}
    assert max(CellState) < squares.STATE_OPENING
    # A flood opens exactly the hidden squares, question-marked or not.
    openable = {state for state in CellState if state <= squares.STATE_OPENABLE_MAX}
    assert openable == {CellState.HIDDEN, CellState.QUESTIONED}


def test_the_view_alphabet_is_one_symbol_a_glyph_and_back() -> None:
    symbols = squares.VIEW_SYMBOLS
    # One symbol for every glyph value, 0 to the last glyph, none repeated.
    assert len(symbols) == max(Glyph) + 1
    assert len(set(symbols)) == len(symbols)
    assert all(
        symbol.isascii() and symbol.isprintable() and not symbol.isspace() for symbol in symbols
    )
    for glyph in range(len(symbols)):
        assert squares.glyph_of(symbols[glyph]) == glyph
    # Reading accepts exactly the alphabet and "0", an old spelling of a blank.
    read = {chr(code) for code in range(0x110000) if squares.glyph_of(chr(code)) is not None}
    assert read == set(symbols) | {"0"}
    assert squares.glyph_of("0") == 0


def test_the_view_alphabet_is_the_one_files_have_always_used() -> None:
    # Written out by hand: views in saved games and the CLI's outputs use these.
    assert squares.VIEW_SYMBOLS[: squares.MAX_NUMBER + 1] == ".12345678"
    marks = {
        Glyph.HIDDEN: "#",
        Glyph.FLAG: "F",
        Glyph.QUESTION: "?",
        Glyph.MINE: "*",
        Glyph.EXPLODED: "X",
        Glyph.WRONG_FLAG: "!",
    }
    assert {glyph: squares.VIEW_SYMBOLS[glyph] for glyph in Glyph} == marks
