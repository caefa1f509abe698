"""The command line's one file reader and its one sniffer of a position's notation."""

from __future__ import annotations

import io
import pathlib
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep.cli._input import decode_text, read_text, sniff_position

from .runner import run, run_raw

BOARD = "EEM\nEEE\n"


@pytest.mark.parametrize(
    "data",
    [
        BOARD.encode(),
        b"\xef\xbb\xbf" + BOARD.encode(),
        BOARD.replace("\n", "\r\n").encode(),
        b"\xef\xbb\xbf" + BOARD.replace("\n", "\r").encode(),
    ],
    ids=["plain", "bom", "crlf", "bom-cr"],
)
def test_a_file_and_standard_input_read_the_same_text(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    # One behaviour for both sources: the mark is dropped, lines end in "\n".
    path = tmp_path / "board.txt"
    path.write_bytes(data)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), newline=""))
    assert read_text(str(path), "solve") == BOARD
    assert read_text("-", "solve") == BOARD


def test_stats_and_reveal_read_a_file_with_a_byte_order_mark_alike(
    tmp_path: pathlib.Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_bytes(BOARD.encode())
    marked.write_bytes(b"\xef\xbb\xbf" + BOARD.encode())
    for command in (["stats"], ["reveal", "--click", "0,0"], ["solve"]):
        expected = run(capsys, monkeypatch, *command[:1], str(plain), *command[1:])
        assert expected[0] == 0
        assert run(capsys, monkeypatch, *command[:1], str(marked), *command[1:]) == expected


def test_text_that_is_not_utf8_is_refused_in_one_line(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"EE\xe9\n")
    status, out, err = run_raw(capsys, "solve", str(path))
    assert (status, out) == (2, "")
    assert err.startswith(f"minesweep solve: cannot read {str(path)!r}: not UTF-8 text (")
    assert err.count("\n") == 1
    with pytest.raises(UnicodeDecodeError):
        decode_text(b"\xff")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"format": "minesweep-game"}', "game"),
        ('  {"board": [["E"]]}', "leetcode-json"),
        ('[["E"]]', "leetcode-json"),
        ("*..\n.*.\n", "minefield-text"),
        ("...\n", "minefield-text"),
        ("EEM\nB1e\n", "leetcode-grid"),
        ("#1\n#.\n", "other"),
        ("", "other"),
        ("   \n", "other"),
    ],
)
def test_sniff_position_names_each_notation(text: str, kind: str) -> None:
    assert sniff_position(text) == kind


@given(st.text(alphabet="MEBXme12345678", min_size=1), st.text(alphabet=" \t\n"))
def test_a_grid_of_leetcode_letters_is_a_leetcode_grid(body: str, padding: str) -> None:
    # Letters other than '.' and '*' make it a LeetCode board whatever the spacing;
    # a board of digits alone is one too (no '*' or '.' in it).
    assert sniff_position(padding + body + padding) == "leetcode-grid"


@given(st.text(alphabet="*.", min_size=1), st.text(alphabet="MEBXme12345678", min_size=1))
def test_a_minefield_with_any_leetcode_letter_is_neither(field: str, letters: str) -> None:
    assert sniff_position(field + letters) == "other"
