"""The web game's screenshots in docs/screenshots/: whole PNG files, the sizes the script
that makes them states, small, and shown by the README and the game guide.

docs/gen_screenshots.py makes them in Chromium, by hand; these tests need no browser.
"""

from __future__ import annotations

import importlib.util
import re
import struct
import sys
import zlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "docs" / "gen_screenshots.py"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Bytes a pixel for each PNG colour type at 8 bits a sample (grey, RGB, -, grey+alpha, RGBA).
SAMPLES = {0: 1, 2: 3, 4: 2, 6: 4}
MAX_BYTES = 150 * 1024


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_screenshots", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # A dataclass looks its module up in sys.modules while it is being made.
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


#: The script's pictures (its Shot objects): what it makes is what is checked here.
SHOTS: tuple[Any, ...] = _script().SHOTS


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG file's width and height, once every chunk's CRC and the pixels' length check out.

    Raises ``ValueError`` on anything that is not a whole 8-bit PNG file.
    """
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG file: no signature")
    at, chunks, pixels = len(PNG_SIGNATURE), [], b""
    while at < len(data):
        if at + 12 > len(data):
            raise ValueError(f"a chunk cut short at byte {at}")
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        if len(body) != length or zlib.crc32(kind + body) != crc:
            raise ValueError(f"chunk {kind!r} at byte {at}: bad length or CRC")
        chunks.append((kind, body))
        if kind == b"IDAT":
            pixels += body
        at += 12 + length
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        raise ValueError("a PNG file starts with IHDR and ends with IEND")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if depth != 8 or colour not in SAMPLES or interlace:
        raise ValueError(f"expected 8-bit, non-interlaced pixels, got {depth=} {colour=}")
    # Each row is a filter byte and its pixels.
    if len(zlib.decompress(pixels)) != height * (1 + width * SAMPLES[colour]):
        raise ValueError("the pixels do not fill the stated size")
    return width, height


def test_png_size_reads_a_png_and_refuses_a_damaged_one() -> None:
    # A 3 x 2 RGB picture made here, then the same with one byte of its pixels changed.
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    rows = b"".join(b"\x00" + bytes(range(9)) for _ in range(2))
    header = struct.pack(">IIBBBBB", 3, 2, 8, 2, 0, 0, 0)
    whole = PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
    whole += chunk(b"IEND", b"")
    assert png_size(whole) == (3, 2)
    damaged = bytearray(whole)
    damaged[len(PNG_SIGNATURE) + 25 + 10] ^= 0xFF  # inside IDAT's compressed pixels
    with pytest.raises(ValueError, match="CRC"):
        png_size(bytes(damaged))
    with pytest.raises(ValueError, match="IEND"):
        png_size(whole[: -len(chunk(b"IEND", b""))])


def test_the_script_names_four_pictures_both_skins_at_both_widths() -> None:
    assert {(shot.skin, shot.viewport[0] < 600) for shot in SHOTS} == {
        ("light", False),
        ("light", True),
        ("dark", False),
        ("dark", True),
    }
    assert len(SHOTS) == 4
    for shot in SHOTS:
        assert shot.viewport[0] in (1280, 360)
        # The picture is cropped from the page no wider than the browser's window.
        assert shot.size[0] <= shot.viewport[0]


@pytest.mark.parametrize("shot", SHOTS, ids=lambda shot: shot.name)
def test_each_screenshot_is_a_small_png_of_its_stated_size(shot: Any) -> None:
    data = shot.path.read_bytes()
    assert len(data) < MAX_BYTES, f"{shot.name}: {len(data)} bytes"
    assert png_size(data) == shot.size


def test_no_stray_file_in_the_screenshots_folder() -> None:
    folder = SHOTS[0].path.parent
    assert sorted(p.name for p in folder.iterdir()) == sorted(s.path.name for s in SHOTS)


def test_the_game_guide_shows_all_four_and_the_readme_shows_one_and_links_the_rest() -> None:
    guide = (ROOT / "docs" / "game.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # Images in the guide are relative to docs/, in the README to the root.
    shown_in_guide = set(re.findall(r"!\[[^\]]+\]\(screenshots/([\w-]+\.png)\)", guide))
    shown_in_readme = set(re.findall(r"!\[[^\]]+\]\(docs/screenshots/([\w-]+\.png)\)", readme))
    linked_from_readme = set(re.findall(r"\]\(docs/screenshots/([\w-]+\.png)\)", readme))
    names = {shot.path.name for shot in SHOTS}
    assert shown_in_guide == names
    assert shown_in_readme
    assert shown_in_readme <= names
    assert linked_from_readme == names
