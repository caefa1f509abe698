"""Players' names decoded as the programs wrote them (issue 48).

Each format's real file gets its name's bytes replaced by a name in the
encoding its program would have written: GBK on a Chinese Windows,
Windows-1252 on a Western one, UTF-8 where the format carries it. The
section sizes are rewritten to match, so the files stay well formed.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from minesweep.replays._bytes import decode_text
from minesweep.replays.evf import write_evf
from minesweep.replays.model import ReplayError
from minesweep.replays.rawvf import write_rawvf
from minesweep.replays.reading import read

from ._files import DATA, ms_toollib
from .test_mvf_files import _MVF_STATES, _mvf_097

CHINESE = ["王嘉宁", "张三", "王 Jianing", "Tommy王嘉宁", "迈克尔·乔丹", "李明。"]
#: Western names whose accented letters, read as GBK, would decode: the
#: high bytes pair up with what follows ("ül" is FC 6C, a GBK character).
WESTERN = ["Müller", "François", "Björn", "Mañé", "Núñez", "Ærøskøbing", "Hélène", "Öztürk",
           "Gonçalves", "SØREN", "Dušan", "Œuvre", "Zoë", "José", "Ñandú", "Jörg Weiß"]  # fmt: skip
UTF8 = ["王嘉宁", "José", "Ñandú", "Дмитрий", "Jörg Weiß"]


# --- decode_text ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", CHINESE)
def test_gbk_names_are_chinese(name: str) -> None:
    assert decode_text(name.encode("gbk"), utf8="never") == name
    assert decode_text(name.encode("gbk"), utf8="first") == name


@pytest.mark.parametrize("name", WESTERN)
def test_accented_latin_names_stay_cp1252(name: str) -> None:
    raw = name.encode("cp1252")
    assert decode_text(raw, utf8="never") == name
    assert decode_text(raw, utf8="first") == name


def test_gb18030_first_would_turn_western_names_chinese() -> None:
    # Why the guess asks more than "does it decode": these decode as GB18030
    # (ms-toollib's first try), into Chinese. If they did not, the test
    # above would prove nothing.
    turned = [n for n in WESTERN if _gb18030(n.encode("cp1252")) not in (None, n)]
    assert {"Müller", "François", "Björn", "Mañé", "Ærøskøbing"} <= set(turned)


def _gb18030(raw: bytes) -> str | None:
    try:
        return raw.decode("gb18030")
    except UnicodeDecodeError:
        return None


@pytest.mark.parametrize("name", UTF8)
def test_utf8_where_the_format_can_carry_it(name: str) -> None:
    assert decode_text(name.encode(), utf8="first") == name
    assert decode_text(name.encode(), utf8="only") == name


#: GBK bytes that are also valid UTF-8: D0 BB CE B0 is "лΰ" in UTF-8.
XIE_WEI = "谢伟"


def test_never_utf8_where_the_program_could_not_write_it() -> None:
    raw = XIE_WEI.encode("gbk")
    assert raw.decode("utf-8") == "лΰ"
    assert decode_text(raw, utf8="never") == XIE_WEI
    assert decode_text(raw, utf8="first") == XIE_WEI  # "лΰ" is no name (test_names_both.py)
    with pytest.raises(UnicodeDecodeError):
        decode_text("王嘉宁".encode("gbk"), utf8="only")


def test_undecodable_stays_cp1252() -> None:
    # A lone GBK lead byte, a symbol pair and a four-byte GB18030 sequence are no names.
    assert decode_text(b"Jos\xe9", utf8="never") == "José"
    assert decode_text("★".encode("gbk"), utf8="never") == "★".encode("gbk").decode("cp1252")
    four = "ß".encode("gb18030")  # 81 30 89 38: GB18030 only, four bytes
    assert len(four) == 4
    assert decode_text(four, utf8="never") == four.decode("cp1252", errors="replace")


# --- AVF: Arbiter writes the code page ------------------------------------------------------


def _avf(name: bytes) -> bytes:
    data = (DATA / "test_subject.avf").read_bytes()
    assert data.count(b"\rTommy\r") == 1
    return data.replace(b"\rTommy\r", b"\r" + name + b"\r")


@pytest.mark.parametrize(
    ("raw", "name"),
    [(n.encode("gbk"), n) for n in ("王嘉宁", "张三")]
    + [(n.encode("cp1252"), n) for n in ("Müller", "François", "Ñandú")],
)
def test_avf_names(raw: bytes, name: str) -> None:
    assert read(_avf(raw), name="x.avf").player == name


# --- MVF: Clone 0.97 writes the code page ---------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "name"),
    [(n.encode("gbk"), n) for n in ("王嘉宁", "张三")] + [("Björn".encode("cp1252"), "Björn")],
)
def test_mvf_names(raw: bytes, name: str) -> None:
    data = _mvf_097([(0, 7), (3, 3)], _MVF_STATES, name=raw)
    assert read(data, name="x.mvf").player == name


# --- RMV: UTF-8 in v2 and where v1 says so, the code page elsewhere ------------------------


def _rmv(file: str, name: bytes, *, utf8: int | None = None) -> tuple[bytes, int]:
    """``file`` with its player's name replaced (and v1's utf8 property set); the name's offset."""
    data = (DATA / file).read_bytes()
    version = int.from_bytes(data[4:6], "big")
    head = 12 if version == 2 else 10
    names = ["version", "player", "board", "preflags", "properties"]
    names = ["result", *names] if version == 1 else [*names, "extension"]
    count = len(names)
    layout = struct.Struct(f">{count}HIH")
    values = list(layout.unpack_from(data, head))
    sizes = dict(zip([*names, "events", "checksum"], values, strict=True))
    at = head + layout.size
    sections = {}
    for key in sizes:
        sections[key] = data[at : at + sizes[key]]
        at += sizes[key]
    player = sections["player"]
    fields, old = int.from_bytes(player[:2], "big"), player[2]
    assert fields >= 1
    sections["player"] = player[:2] + bytes([len(name)]) + name + player[3 + old :]
    if utf8 is not None:
        assert version == 1
        sections["properties"] = sections["properties"][:4] + bytes([utf8])
    sizes = {key: len(value) for key, value in sections.items()}
    header = data[:head] + layout.pack(*sizes.values())
    name_at = len(header) + sum(sizes[key] for key in ("result", "version") if key in sizes) + 3
    return header + b"".join(sections.values()), name_at


@pytest.mark.parametrize("file", ["test_subject.rmv", "test_subject_2.rmv"])
def test_rmv_rewrite_keeps_the_file(file: str) -> None:
    data, _ = _rmv(file, b"tkolar" if file == "test_subject.rmv" else b"Thomas Kolar")
    assert data == (DATA / file).read_bytes()


@pytest.mark.parametrize(
    ("raw", "name"),
    [(n.encode("gbk"), n) for n in ("王嘉宁", "张三")]
    + [(n.encode("cp1252"), n) for n in ("Müller", "Núñez")],
)
@pytest.mark.parametrize("utf8", [None, 0])
def test_rmv_v1_code_page_names(raw: bytes, name: str, utf8: int | None) -> None:
    data, _ = _rmv("test_subject.rmv", raw, utf8=utf8)
    assert read(data, name="x.rmv").player == name


def test_code_page_formats_do_not_read_utf8() -> None:
    raw = XIE_WEI.encode("gbk")
    assert read(_rmv("test_subject.rmv", raw)[0], name="x.rmv").player == XIE_WEI
    assert read(_avf(raw), name="x.avf").player == XIE_WEI
    assert read(_mvf_097([(0, 7)], _MVF_STATES, name=raw), name="x.mvf").player == XIE_WEI


@pytest.mark.parametrize("name", UTF8)
def test_rmv_utf8_names(name: str) -> None:
    data, _ = _rmv("test_subject.rmv", name.encode(), utf8=1)
    assert read(data, name="x.rmv").player == name
    data, _ = _rmv("test_subject_2.rmv", name.encode())
    assert read(data, name="x.rmv").player == name


@pytest.mark.parametrize(("file", "utf8"), [("test_subject.rmv", 1), ("test_subject_2.rmv", None)])
def test_rmv_invalid_utf8_is_refused(file: str, utf8: int | None) -> None:
    raw = "Tom王".encode("gbk")  # 54 6F 6D CD F5: CD wants a continuation byte, F5 is none
    data, at = _rmv(file, raw, utf8=utf8)
    assert data[at : at + len(raw)] == raw
    with pytest.raises(ReplayError) as caught:
        read(data, name="x.rmv")
    assert str(caught.value) == (
        f"x.rmv: at byte {at + 3}: the player's name is not valid UTF-8 (byte 0xCD), "
        "though the file says its text is UTF-8"
    )


# --- EVF and RawVF: UTF-8 first, then the code page -----------------------------------------


@pytest.mark.parametrize(
    ("raw", "name"),
    [("王嘉宁".encode(), "王嘉宁"), ("王嘉宁".encode("gbk"), "王嘉宁"),
     ("张三".encode("gbk"), "张三"), ("Müller".encode(), "Müller"),
     ("Müller".encode("cp1252"), "Müller")],
)  # fmt: skip
def test_evf_v3_names(raw: bytes, name: str) -> None:
    data = (DATA / "test_subject.evf").read_bytes()
    assert data.count(b"\0Szymon_M\0") == 1
    replay = read(data.replace(b"\0Szymon_M\0", b"\0" + raw + b"\0"), name="x.evf")
    assert replay.player == name
    again = read(write_evf(replay), name="y.evf")  # v4: UTF-8
    assert again.player == name


@pytest.mark.parametrize("encoding", ["utf-8", "gbk"])
def test_rawvf_names(encoding: str) -> None:
    replay = read(_avf("王嘉宁".encode("gbk")), name="x.avf")
    text = write_rawvf(replay).encode(encoding)
    assert read(text, name="x.rawvf").player == "王嘉宁"


# --- ms-toollib agrees on the Chinese names -------------------------------------------------


def test_ms_toollib_reads_the_same_names(tmp_path: Path) -> None:
    # ms-toollib reads GBK first and so agrees on Chinese names (not on
    # "Müller", which it turns Chinese) and reads UTF-8 where RMV says so.
    files = {
        "gbk.avf": (_avf("王嘉宁".encode("gbk")), "王嘉宁"),
        "gbk.mvf": (_mvf_097([(0, 7), (3, 3)], _MVF_STATES, name="张三".encode("gbk")), "张三"),
        "gbk.rmv": (_rmv("test_subject.rmv", "王嘉宁".encode("gbk"))[0], "王嘉宁"),
        "utf8.rmv": (_rmv("test_subject_2.rmv", "王嘉宁".encode())[0], "王嘉宁"),
        "utf8v1.rmv": (_rmv("test_subject.rmv", "José".encode(), utf8=1)[0], "José"),
    }
    paths = []
    for file, (data, name) in files.items():
        path = tmp_path / file
        path.write_bytes(data)
        paths.append(path)
        assert read(path).player == name, file
    theirs = ms_toollib(paths)
    for path in paths:
        assert theirs[str(path)]["player"] == files[path.name][1], path.name
