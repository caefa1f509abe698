"""A bounded reader of a replay's bytes: each read checks the length, each error names the byte.

Replay formats are binary, big-endian, and often truncated or mislabelled in
the wild. Each reader reads through one :class:`ByteReader`, so that a short
file is a :class:`~.model.ReplayError` naming the file and the byte where the
data ran out, never an IndexError, and no declared length is trusted before
the bytes are there (a header claiming 255x255 squares with no data behind it
allocates nothing).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from .model import ReplayError

__all__ = ["ByteReader", "Utf8Rule", "decode_text"]

#: What a field's format says about UTF-8 (see :func:`decode_text`).
Utf8Rule = Literal["never", "first", "only"]


class ByteReader:
    """Reads ``data`` from the front; ``where`` names the file in errors."""

    __slots__ = ("data", "offset", "where")

    def __init__(self, data: bytes, where: str, offset: int = 0) -> None:
        self.data = data
        self.where = where
        self.offset = offset

    def error(self, message: str, offset: int | None = None) -> ReplayError:
        at = self.offset if offset is None else offset
        return ReplayError(f"{self.where}: at byte {at}: {message}")

    @property
    def left(self) -> int:
        return len(self.data) - self.offset

    def take(self, count: int, what: str) -> bytes:
        if count < 0 or self.offset + count > len(self.data):
            raise self._short(count, what)
        start = self.offset
        self.offset += count
        return self.data[start : self.offset]

    # The readers call these for every header field: each checks and reads
    # in one step (no slice for a byte), as take would.

    def uint(self, size: int, what: str) -> int:
        start = self.offset
        end = start + size
        if size < 0 or end > len(self.data):
            raise self._short(size, what)
        self.offset = end
        return int.from_bytes(self.data[start:end], "big")

    def u8(self, what: str) -> int:
        start = self.offset
        if start >= len(self.data):
            raise self._short(1, what)
        self.offset = start + 1
        return self.data[start]

    def u16(self, what: str) -> int:
        return self.uint(2, what)

    def u24(self, what: str) -> int:
        return self.uint(3, what)

    def u32(self, what: str) -> int:
        return self.uint(4, what)

    def u64(self, what: str) -> int:
        return self.uint(8, what)

    def _short(self, count: int, what: str) -> ReplayError:
        return self.error(f"the file ends inside {what} ({count} bytes wanted, {self.left} left)")

    def i16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "big", signed=True)

    def cstring(self, what: str) -> bytes:
        """Bytes up to a NUL, which is read and dropped."""
        end = self.data.find(b"\0", self.offset)
        if end < 0:
            raise self.error(f"the file ends inside {what} (no closing NUL byte)")
        start = self.offset
        self.offset = end + 1
        return self.data[start:end]

    def text(self, what: str, utf8: Utf8Rule = "first") -> str:
        """:meth:`decode` of the bytes up to a NUL (``cstring``), in one call."""
        start = self.offset
        end = self.data.find(b"\0", start)
        if end < 0:
            raise self.error(f"the file ends inside {what} (no closing NUL byte)")
        self.offset = end + 1
        return self.decode(self.data[start:end], start, what, utf8)

    def decode(self, raw: bytes, at: int, what: str, utf8: Utf8Rule) -> str:
        """:func:`decode_text` of ``raw``, read at byte ``at``; invalid UTF-8 where the
        format demands it (``utf8="only"``) is a ReplayError naming ``what`` and the byte."""
        try:
            return decode_text(raw, utf8=utf8)
        except UnicodeDecodeError as error:
            raise self.error(
                f"{what} is not valid UTF-8 (byte 0x{raw[error.start]:02X}), "
                "though the file says its text is UTF-8",
                at + error.start,
            ) from None

    def need(self, count: int, what: str) -> None:
        """Fail now, before anything is allocated, when fewer than ``count`` bytes are left."""
        if count > self.left:
            raise self.error(
                f"the file ends before {what} ({count} bytes wanted, {self.left} left)"
            )


def decode_text(raw: bytes, *, utf8: Utf8Rule) -> str:
    """Text a replay program wrote, decoded as its format and the bytes allow.

    ``utf8`` says what the format says about UTF-8:

    - ``"only"``: the format declares UTF-8 (RMV v2, RMV v1 with its utf8
      property): invalid UTF-8 raises UnicodeDecodeError, for the caller to
      name the field (:meth:`ByteReader.decode`), as the RMV specification
      requires a reader to reject it.
    - ``"first"``: the format can carry UTF-8 but does not say (EVF v0-3,
      RawVF): valid UTF-8 is UTF-8, else the legacy guess below; where both
      readings decode, the GBK one wins only when the UTF-8 one is no
      sensible name (:func:`_is_name_text`).
    - ``"never"``: the program wrote the Windows code page of its machine and
      could not write UTF-8 (Arbiter, Clone 0.97, Viennasweeper 3.x): the
      legacy guess only, even when the bytes happen to be valid UTF-8.

    The legacy guess is :func:`_legacy`: GBK where the bytes can only
    sensibly be Chinese, else Windows-1252.
    """
    if utf8 == "only":
        return raw.decode("utf-8")
    if raw.isascii():
        return raw.decode("ascii")
    if utf8 == "first":
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return _legacy(raw)
        # Both readings decode: GBK wins only where it is a sensible Chinese
        # name and the UTF-8 reading is no sensible name (谢伟's GBK bytes
        # D0 BB CE B0 read as "лΰ" in UTF-8, Cyrillic glued to Greek).
        if not _is_name_text(text) and _is_gbk_name(raw):
            return raw.decode("gb18030")
        return text
    return _legacy(raw)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _is_name_text(text: str) -> bool:
    """Whether decoded UTF-8 reads as a name (the tie-break of ``utf8="first"``).

    A name's characters beyond ASCII are CJK (three-byte UTF-8, which GBK
    bytes of two-character names rarely make) or letters of one alphabet.
    GBK bytes that are valid UTF-8 decode to U+0080-U+07FF, and seldom
    stay within one alphabet: 谢伟 is "лΰ".
    """
    scripts: set[str] = set()
    for char in _NON_ASCII.findall(text):  # a RawVF file is decoded whole: skip its ASCII fast
        code = ord(char)
        if code >= 0x800:
            return True
        if unicodedata.category(char) not in ("Lu", "Ll", "Lo"):
            return False
        scripts.add(unicodedata.name(char, "?").split(" ")[0])
    if scripts == {"LATIN"}:
        # A Latin name has plain letters besides its accented ones ("Zoë");
        # "áé" alone is GBK (脕茅's bytes), not a name.
        return any(char.isascii() and char.isalpha() for char in text)
    return len(scripts) <= 1


# The legacy guess. A Windows program writes its player's name in the ANSI
# code page of the machine: Windows-1252 in Western Europe and the Americas,
# GBK (code page 936, which GB18030 extends) on Chinese systems, where most
# of today's players are. No byte says which. ms-toollib tries GB18030 first
# and takes it whenever the bytes decode, but nearly any byte string with
# its high bytes in pairs decodes as GB18030: "Müller" (4D FC 6C 6C 65 72)
# becomes "M黮ler". So GBK must be the only sensible reading, not just
# a possible one:
#
# 1. The bytes decode as GB18030 with one- and two-byte sequences only (the
#    four-byte ones encode characters GBK lacks, which Windows 936 never wrote).
# 2. Every two-byte character has a high second byte (0x80-0xFE). The GB2312
#    characters, which cover the names of nearly everyone, all have
#    (0xA1-0xFE); a second byte 0x40-0x7E is GBK's rarer extension, and is
#    exactly what an accented letter followed by an ASCII letter makes
#    ("ül", "ço", "ñd").
# 3. Every two-byte character is CJK (an ideograph, CJK punctuation, kana,
#    a fullwidth form or the middle dot of transliterated names), at least
#    one is an ideograph: a symbol or a Greek letter is no name.
# 4. The bytes do not read as a Latin-1 word: when every high byte is a
#    Windows-1252 letter, runs of high bytes are at most two long and each
#    touches an ASCII letter ("Mañé"), it is Windows-1252. Chinese names
#    are runs of four or more high bytes, or stand apart from ASCII letters.
#    A name of one Chinese character glued to ASCII letters ("张abc") reads
#    as Windows-1252: the price of keeping accented names whole.
#
# Anything else is Windows-1252, which decodes every byte (its five
# unassigned bytes become U+FFFD).


def _legacy(raw: bytes) -> str:
    """GBK when the bytes can only sensibly be a Chinese name, else Windows-1252."""
    if _is_gbk_name(raw):
        return raw.decode("gb18030")
    return raw.decode("cp1252", errors="replace")


def _is_gbk_name(raw: bytes) -> bool:
    ideographs = 0
    i, size = 0, len(raw)
    while i < size:
        lead = raw[i]
        if lead < 0x80:
            i += 1
            continue
        # A lead byte 0x81-0xFE and a high second byte 0x80-0xFE (rule 2);
        # 0x80 and 0xFF lead nothing in GBK.
        if not 0x81 <= lead <= 0xFE or i + 1 >= size or not 0x80 <= raw[i + 1] <= 0xFE:
            return False
        try:
            char = raw[i : i + 2].decode("gb18030")
        except UnicodeDecodeError:
            return False
        kind = _cjk_kind(char)
        if kind is None:
            return False
        ideographs += kind
        i += 2
    return ideographs > 0 and not _reads_as_latin(raw)


def _cjk_kind(char: str) -> int | None:
    """1 for an ideograph, 0 for other CJK text, None for anything else (rule 3)."""
    code = ord(char)
    if 0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF:
        return 1
    if 0x3000 <= code <= 0x30FF or 0xFF00 <= code <= 0xFFEF or code == 0xB7:
        return 0
    return None


#: Windows-1252's letters above 0x7F: Š Œ Ž š œ ž Ÿ and À-ÿ but × and ÷.
_LATIN_LETTERS = frozenset(b"\x8a\x8c\x8e\x9a\x9c\x9e\x9f") | (
    frozenset(range(0xC0, 0x100)) - {0xD7, 0xF7}
)


def _reads_as_latin(raw: bytes) -> bool:
    """Every high byte a letter, in runs of at most two that touch an ASCII letter (rule 4)."""
    i, size = 0, len(raw)
    while i < size:
        if raw[i] < 0x80:
            i += 1
            continue
        start = i
        while i < size and raw[i] >= 0x80:
            if raw[i] not in _LATIN_LETTERS:
                return False
            i += 1
        if i - start > 2:
            return False
        before = raw[start - 1 : start]
        after = raw[i : i + 1]
        if not (before.isalpha() or after.isalpha()):
            return False
    return True
