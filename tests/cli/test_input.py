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


REPLAYS = pathlib.Path(__file__).resolve().parent.parent / "replays" / "data"


def _replay_bytes(kind: str) -> bytes:
    from minesweep.replays import read, write_evf, write_rawvf

    if kind == "mvf":  # a Clone header is all the sniff needs
        return b"\x11\x4d" + bytes(25) + b"5" + bytes(200)
    if kind == "rawvf":
        return write_rawvf(read(REPLAYS / "test_subject.avf")).encode("utf-8")
    if kind == "evf-v4":
        return write_evf(read(REPLAYS / "test_subject.rmv"))
    return (REPLAYS / f"test_subject.{kind}").read_bytes()


@pytest.mark.parametrize("command", ["stats", "solve"])
@pytest.mark.parametrize("kind", ["avf", "evf", "rmv", "mvf", "rawvf", "evf-v4"])
def test_a_replay_file_points_to_minesweep_replay(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str], command: str, kind: str
) -> None:
    # Named .dat: the bytes tell it is a replay, not the name.
    path = tmp_path / "game.dat"
    path.write_bytes(_replay_bytes(kind))
    status, out, err = run_raw(capsys, command, str(path))
    assert (status, out) == (2, "")
    name = kind.split("-")[0].upper()
    assert err == (
        f"minesweep {command}: {str(path)!r} is a replay ({name}), not a board: "
        f"read it with minesweep replay {path}\n"
    )


def test_a_replay_on_standard_input_is_said_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _replay_bytes("evf")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = run_raw(capsys, "stats", "-")
    assert (status, out) == (2, "")
    assert err.startswith("minesweep stats: standard input is a replay (EVF), not a board")
    assert err.count("\n") == 1


def test_an_mbf_that_starts_as_a_clone_replay_is_a_board(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 17 wide and 77 high is 0x11 0x4D, a Clone replay's first two bytes; its
    # length is an MBF's own, so it is read as the board it is.
    path = tmp_path / "board.mbf"
    path.write_bytes(bytes([17, 77, 0, 1, 16, 76]))
    status, out, err = run_raw(capsys, "stats", str(path))
    assert (status, err) == (0, "")
    assert out.startswith("size        77x17\nmines       1 ")
