"""The command line's one file reader: files and standard input, a byte-order mark, bad text."""

from __future__ import annotations

import io
import pathlib
import sys

import pytest

from minesweep.cli._input import decode_text, read_text

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
    ("data", "message"),
    [
        (b"", "minesweep stats: the input is empty"),
        (b" \n\t\n", "minesweep stats: the input is empty"),
        (b"#1\n11\n", "minesweep stats: not a board minesweep reads: expected MBF"),
        (b"hello\n", "minesweep stats: not a board minesweep reads: expected MBF"),
        (b"\xef\xbb\xbf", "minesweep stats: not a board minesweep reads: expected MBF"),
        (bytes([3, 3, 0, 5, 0]), "minesweep stats: MBF data is truncated"),
        (b"\xff\xfe\x00", "minesweep stats: MBF data is"),
    ],
)
def test_stats_words_what_the_sniffer_found_it_cannot_read(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], data: bytes, message: str
) -> None:
    # Empty, a view (no mines to count), unknown text: refused in the CLI's
    # words; bytes that are not text are read as MBF, whose parser says why not.
    path = tmp_path / "board"
    path.write_bytes(data)
    status, out, err = run_raw(capsys, "stats", str(path))
    assert (status, out) == (2, "")
    assert err.startswith(message)
    assert err.count("\n") == 1


def test_stats_reads_an_mbf_file(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.mbf"
    path.write_bytes(bytes([3, 2, 0, 2, 0, 0, 2, 1]))  # "*..\n..*"
    status, out, err = run_raw(capsys, "stats", str(path))
    assert (status, err) == (0, "")
    assert out.startswith("size        2x3\nmines       2 (33.3%)\n")
