"""Read a replay file of any supported format, told apart by its bytes.

The content decides, not the name: ``*rmv`` opens an RMV file, ``0x11 0x4D``
a Clone one, ``RawVF_Version`` (or a ``Key: value`` text with a ``Board:``
line) a RawVF one; an EVF file starts with its version (0-4) and has the
software's name as text a few bytes on; an Arbiter file has its
``[level|`` text header within its first few hundred bytes. Only when the
bytes fit none of these does the extension choose the reader, whose error
then says what is wrong.

A folder's replays (:func:`replay_paths`) are chosen the same way, by the
first 4 KiB of each file: a RawVF text saved as ``.txt``, or a replay
renamed without its extension, is found. A file named as a replay
(``.avf .rmv .evf .mvf .rawvf``) is taken whatever its bytes: the early
Clone files (0.96 and before) have no header to tell them by, and a damaged
replay is then reported rather than silently left out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from .avf import read_avf
from .evf import read_evf
from .model import Replay, ReplayError
from .mvf import MAGIC as MVF_MAGIC
from .mvf import read_mvf
from .rawvf import read_rawvf
from .rmv import read_rmv

__all__ = ["REPLAY_SUFFIXES", "detect_format", "looks_like_replay", "read", "replay_paths"]

Reader = Callable[[bytes, str], Replay]
_READERS: dict[str, Reader] = {
    "avf": read_avf, "rmv": read_rmv, "evf": read_evf, "mvf": read_mvf, "rawvf": read_rawvf,
}  # fmt: skip
_EXTENSIONS = {".avf": "avf", ".rmv": "rmv", ".evf": "evf", ".mvf": "mvf",
               ".rawvf": "rawvf", ".txt": "rawvf"}  # fmt: skip
#: The extensions of the formats read: a file so named in a folder is taken.
REPLAY_SUFFIXES = frozenset({".avf", ".rmv", ".evf", ".mvf", ".rawvf"})
#: How much of a file :func:`looks_like_replay` reads: every test of
#: :func:`detect_format` looks within it (the AVF header within 2,048 bytes,
#: the RawVF version line within 4,096).
SNIFF_BYTES = 4096
_AVF_HEADER = re.compile(rb"\[[0-3]\|(?:W\d+H\d+M\d+\|)?\d{1,2}\.\d{1,2}\.\d{4}\.")


def detect_format(data: bytes) -> str | None:
    """The format the bytes are in ("avf", "rmv", "evf", "mvf", "rawvf"), or None."""
    if data.startswith(b"*rmv"):
        return "rmv"
    if data.startswith(MVF_MAGIC):
        return "mvf"
    head = data[:4096]
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"RawVF_Version"):
        return "rawvf"
    if _looks_like_evf(data):
        return "evf"
    if len(data) > 6 and data[5] in (3, 4, 5, 6) and _AVF_HEADER.search(data, 0, 2048):
        return "avf"
    return None


def _looks_like_evf(data: bytes) -> bool:
    """Version 0-4, a plausible board, and the software's name as text where it belongs."""
    if len(data) < 20 or data[0] > 4:
        return False
    version = data[0]
    rows, cols = (data[3], data[4]) if version >= 3 else (data[2], data[3])
    if rows == 0 or cols == 0:
        return False
    # The software's name follows the fixed header: 34 bytes in v4, 15 in v3, 14 before.
    text_at = {4: 34, 3: 15}.get(version, 14)
    end = data.find(b"\0", text_at, text_at + 256)
    if end <= text_at:
        return False
    software = data[text_at:end]
    try:
        name = software.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return name.isprintable()


def _why(error: OSError) -> str:
    """What the system said, without the path (the message names it once)."""
    if isinstance(error, IsADirectoryError):
        return "a folder, not a file"
    return error.strerror or type(error).__name__


def looks_like_replay(path: str | os.PathLike[str]) -> bool:
    """Whether the file's first bytes are a replay's (False if it cannot be read)."""
    try:
        with open(path, "rb") as file:
            head = file.read(SNIFF_BYTES)
    except OSError:
        return False
    return detect_format(head) is not None


def replay_paths(folder: str | os.PathLike[str]) -> list[str]:
    """The replays in ``folder`` and below, sorted: by their bytes, or named as replays.

    A file is taken when its first bytes are a replay's (:func:`detect_format`)
    or its extension is a replay format's: the headerless early Clone files
    have nothing else to tell them by, and a damaged replay is read, and
    reported, rather than skipped.
    """
    found = []
    for child in Path(folder).rglob("*"):
        if not child.is_file():
            continue
        if child.suffix.lower() in REPLAY_SUFFIXES or looks_like_replay(child):
            found.append(str(child))
    return sorted(found)


def read(source: str | os.PathLike[str] | bytes, *, name: str | None = None) -> Replay:
    """Read a replay from a path or from its bytes.

    ``name`` names the file in error messages and, for bytes, gives the
    extension used when the content does not tell the format (default:
    the path, or "replay bytes"). Raises :class:`ReplayError` (a
    ValueError) and nothing else: naming the file and the byte where reading
    failed, or the path and why it cannot be opened (missing, a folder, no
    permission).
    """
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        where = name or "replay bytes"
    else:
        path = Path(source)
        where = name or str(path)
        try:
            data = path.read_bytes()
        except OSError as error:
            # One exception for every file that cannot be read, as the
            # package promises: a caller that reads a folder of replays
            # catches ReplayError (or ValueError) and goes on.
            raise ReplayError(f"{where}: cannot read it: {_why(error)}") from error
    found = detect_format(data)
    if found is None:
        found = _EXTENSIONS.get(Path(where).suffix.lower())
    if found is None:
        raise ReplayError(f"{where}: at byte 0: not a replay format this library reads "
                          "(AVF, RMV, EVF, MVF or RawVF)")  # fmt: skip
    return _READERS[found](data, where)
