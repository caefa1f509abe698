"""Names whose bytes read two ways, and EVF v4's UTF-8 (issue 48).

EVF v0-3 and RawVF carry UTF-8 or a Windows code page with nothing to say
which (docs/replays.md, "Text"): GBK bytes that are also valid UTF-8, as
谢伟's D0 BB CE B0 ("лΰ"), must still read as the Chinese name, and UTF-8
names must not turn Chinese. EVF v4 declares UTF-8: other bytes are an
error naming the field and the byte.
"""

from __future__ import annotations

import dataclasses

import pytest

from minesweep.replays._bytes import decode_text
from minesweep.replays.evf import write_evf
from minesweep.replays.model import ReplayError
from minesweep.replays.rawvf import write_rawvf
from minesweep.replays.reading import read

from ._files import DATA

#: Chinese names whose GBK bytes are also valid UTF-8 (each character's
#: GBK bytes a UTF-8 lead 0xC2-0xDF and continuation 0xA1-0xBF).
BOTH = ["谢伟", "陆伟", "卢伟", "毛伟", "梅伟", "鲁伟", "冒伟", "谋伟"]
#: Names written as UTF-8 by Metasweeper or a UTF-8 RawVF: they stay themselves.
UTF8 = ["王嘉宁", "谢伟", "Müller", "Zoë", "Ærøskøbing", "Дмитрий", "Γιώργος", "Øst", "Jörg Weiß"]
#: Names in the code pages the older programs wrote.
LEGACY = [(n, "gbk") for n in ("王嘉宁", "张三", "迈克尔·乔丹", *BOTH)] + [
    (n, "cp1252") for n in ("Müller", "François", "Mañé", "Zoë", "José")
]


def test_both_names_are_valid_utf8_and_gbk() -> None:
    # Without this the tests below would test nothing ambiguous.
    for name in BOTH:
        raw = name.encode("gbk")
        assert raw.decode("utf-8") != name
        assert raw.decode("gbk") == name


@pytest.mark.parametrize("name", BOTH)
def test_ambiguous_gbk_reads_as_chinese(name: str) -> None:
    assert decode_text(name.encode("gbk"), utf8="first") == name


def test_most_ambiguous_gbk_names_read_as_chinese() -> None:
    # Every two-character name of GB2312's common characters whose GBK bytes
    # are valid UTF-8: the reference is the name itself. Those left are the
    # pairs whose UTF-8 reading is one alphabet ("ªª", Greek capitals),
    # documented as the rule's limit.
    chars = [bytes([lead, trail]).decode("gbk") for lead in range(0xC2, 0xD8)
             for trail in range(0xA1, 0xC0)]  # fmt: skip
    names = [a + b for a in chars for b in chars]
    right = sum(decode_text(n.encode("gbk"), utf8="first") == n for n in names)
    assert right / len(names) > 0.9


@pytest.mark.parametrize("name", UTF8)
def test_utf8_names_stay_utf8(name: str) -> None:
    assert decode_text(name.encode(), utf8="first") == name


def _evf_v3(raw: bytes) -> bytes:
    data = (DATA / "test_subject.evf").read_bytes()
    assert data[0] == 3
    assert data.count(b"\0Szymon_M\0") == 1
    return data.replace(b"\0Szymon_M\0", b"\0" + raw + b"\0")


@pytest.mark.parametrize(("name", "encoding"), [*LEGACY, *[(n, "utf-8") for n in UTF8]])
def test_evf_v3_and_rawvf_names(name: str, encoding: str) -> None:
    replay = read(_evf_v3(name.encode(encoding)), name="x.evf")
    assert replay.player == name
    # The program is 元3.1.9: give it an ASCII name so the whole text can be cp1252.
    rawvf = write_rawvf(dataclasses.replace(replay, software="Arbiter")).encode(encoding)
    assert read(rawvf, name="x.rawvf").player == name


@pytest.mark.parametrize("name", [*BOTH, *UTF8])
def test_evf_v4_names_are_utf8(name: str) -> None:
    replay = dataclasses.replace(read(DATA / "test_subject.evf"), player=name)
    data = write_evf(replay)
    assert data[0] == 4
    assert read(data, name="x.evf").player == name


# --- EVF v4: invalid UTF-8 is an error naming the field and the byte ------------------------


def _v4(**texts: str) -> bytes:
    replay = read(DATA / "test_subject.evf")
    extra = dict(replay.extra) | {k: v for k, v in texts.items() if k != "player"}
    replay = dataclasses.replace(
        replay, player=texts.get("player", replay.player), extra=tuple(extra.items())
    )
    return write_evf(replay)


@pytest.mark.parametrize(
    ("field", "what"),
    [("player", "the player"), ("race_identifier", "the race id"),
     ("unique_identifier", "the unique id")],
)  # fmt: skip
def test_evf_v4_invalid_utf8_is_refused(field: str, what: str) -> None:
    data = _v4(**{field: "QQQQQQ"})
    assert data.count(b"QQQQQQ") == 1
    at = data.index(b"QQQQQQ")
    bad = data.replace(b"QQQQQQ", b"ab" + "王".encode("gbk") + b"cd")  # CD F5: not UTF-8
    with pytest.raises(ReplayError) as error:
        read(bad, name="x.evf")
    assert str(error.value) == (
        f"x.evf: at byte {at + 2}: {what} is not valid UTF-8 (byte 0xCD), "
        "though the file says its text is UTF-8"
    )


def test_evf_v4_invalid_country_and_software_are_refused() -> None:
    data = _v4()
    country_at = 16  # after the version, flags, settings, size, mines, px, mode, 3BV, time
    assert data[country_at : country_at + 2].isalpha()
    bad = data[:country_at] + b"\xff\xfe" + data[country_at + 2 :]
    with pytest.raises(ReplayError, match=f"at byte {country_at}: the country is not valid"):
        read(bad, name="x.evf")
    software_at = country_at + 2 + 16
    bad = data[:software_at] + b"\xff" + data[software_at + 1 :]
    with pytest.raises(ReplayError, match=f"at byte {software_at}: the software is not valid"):
        read(bad, name="x.evf")


def test_evf_v3_text_is_never_refused() -> None:
    # v0-3 could carry the code page (older converters copied a source file's
    # bytes), so ms-toollib and we read it as the legacy guess.
    assert read(_evf_v3(b"Jos\xe9"), name="x.evf").player == "José"
