"""A bounded reader of a replay's bytes: each read checks the length, each error names the byte.

Replay formats are binary, big-endian, and often truncated or mislabelled in
the wild. Each reader reads through one :class:`ByteReader`, so that a short
file is a :class:`~.model.ReplayError` naming the file and the byte where the
data ran out, never an IndexError, and no declared length is trusted before
the bytes are there (a header claiming 255x255 squares with no data behind it
allocates nothing).
"""

from __future__ import annotations

from .model import ReplayError

__all__ = ["ByteReader", "decode_text"]


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

    def text(self, what: str) -> str:
        """:func:`decode_text` of the bytes up to a NUL (``cstring``), in one call."""
        start = self.offset
        end = self.data.find(b"\0", start)
        if end < 0:
            raise self.error(f"the file ends inside {what} (no closing NUL byte)")
        self.offset = end + 1
        return decode_text(self.data[start:end])

    def need(self, count: int, what: str) -> None:
        """Fail now, before anything is allocated, when fewer than ``count`` bytes are left."""
        if count > self.left:
            raise self.error(
                f"the file ends before {what} ({count} bytes wanted, {self.left} left)"
            )


def decode_text(raw: bytes, *, legacy: str = "cp1252") -> str:
    """Text a replay program wrote: UTF-8 when it is valid UTF-8, else the ``legacy`` code page.

    The European programs (Arbiter, Viennasweeper before UTF-8) wrote their
    players' names in the Windows code page of the machine, most often
    Windows-1252. ms-toollib tries GB18030 before it, which accepts almost any
    byte pair and turns "Müller" into Chinese; we try UTF-8, then ``legacy``,
    which decodes every byte (cp1252's five unassigned bytes become U+FFFD).
    """
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode(legacy, errors="replace")
