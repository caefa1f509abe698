"""Reading the user's files: one reader of bytes and text, and one sniffer of what a file holds."""

from __future__ import annotations

import sys
from typing import Any, Literal, TypeAlias

from ._args import fail

__all__ = ["PositionKind", "decode_text", "read_bytes", "read_text", "sniff_position"]

#: What a position's text holds, as :func:`sniff_position` tells it.
PositionKind: TypeAlias = Literal[
    "game", "leetcode-json", "minefield-text", "leetcode-grid", "other"
]


def _where(path: str) -> str:
    return "standard input" if path == "-" else repr(path)


def read_bytes(path: str, command: str) -> bytes:
    """The whole of ``path`` (``-``: standard input) as bytes; a failure ends the command."""
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stream with no bytes underneath
            return sys.stdin.read().encode("utf-8")
        return bytes(buffer.read())
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError as error:
        fail(f"minesweep {command}: cannot read {path!r}: {error.strerror or error}")


def decode_text(data: bytes) -> str:
    """``data`` as text: UTF-8, without the byte-order mark some editors write, lines ending in \\n.

    Raises UnicodeDecodeError when ``data`` is not UTF-8.
    """
    text = data.decode("utf-8-sig")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: str, command: str) -> str:
    """The whole of ``path`` as text (see :func:`decode_text`); a failure ends the command."""
    data = read_bytes(path, command)
    try:
        return decode_text(data)
    except UnicodeDecodeError as error:
        fail(f"minesweep {command}: cannot read {_where(path)}: not UTF-8 text ({error.reason})")


def sniff_position(text: str) -> PositionKind:
    """Which notation a position's text is written in, told by its characters alone.

    A game file is JSON with a ``"format"`` key; other JSON is LeetCode's; a
    grid of only ``*`` and ``.`` is a minefield; a grid of LeetCode's letters
    and digits is a LeetCode board. Anything else is ``"other"``: a player's
    view, a binary format, or nothing minesweep reads.
    """
    start = text.lstrip()[:1]
    if start == "{" and '"format"' in text:
        return "game"
    if start in ("[", "{"):
        return "leetcode-json"
    body = text.strip()
    if body and not body.strip("*.\n\r\t "):
        return "minefield-text"
    if body and not body.strip("MEBXme12345678\n\r\t "):
        return "leetcode-grid"
    return "other"


def load_view(path: str) -> tuple[Any, int | None, Any]:
    """A position to solve: (glyphs, total mines or None when the file does not say, game).

    The game is None unless the file is a game file.
    """
    from .. import Board
    from ..actions import GameStatus
    from ..formats import parse_game_json, parse_view
    from ..moves import view_of
    from ..notation import parse_leetcode_json, parse_text_grid

    text = read_text(path, "solve")
    kind = sniff_position(text)
    if kind == "game":
        game = parse_game_json(text)
        return game.glyphs(), game.mine_count, game
    if kind == "leetcode-json":
        board, _ = parse_leetcode_json(text)
    elif kind == "leetcode-grid":
        board = parse_text_grid(text)
    else:
        return parse_view(text), None, None
    if any("X" in row for row in board):
        fail("minesweep solve: the board shows an exploded mine: the game is over")
    position = Board.from_leetcode(board)
    field = position.field
    glyphs = view_of(position.state, field.numbers, field.mines, GameStatus.PLAYING)
    return glyphs, field.mine_count, None


def load_field_or_game(path: str) -> tuple[Any, Any]:
    """A board file in any format minesweep reads: (minefield, game or None)."""
    from .. import Minefield
    from ..formats import parse_game_json, parse_mbf
    from ..notation import parse_leetcode_json, parse_text_grid

    data = read_bytes(path, "stats")
    try:
        text = decode_text(data)
    except UnicodeDecodeError:
        return parse_mbf(data), None
    kind = sniff_position(text)
    if kind == "game":
        game = parse_game_json(text)
        if game.field is None:
            fail("minesweep stats: the game's mines are not laid yet (no reveal so far)")
        return game.field, game
    if kind == "leetcode-json":
        board, _ = parse_leetcode_json(text)
        return Minefield.from_leetcode(_unflagged(board)), None
    if kind == "minefield-text":
        return Minefield.from_text(text), None
    if kind == "leetcode-grid":
        return Minefield.from_leetcode(_unflagged(parse_text_grid(text))), None
    if not data.strip():
        fail("minesweep stats: the input is empty")
    if "".join(text.split()).isprintable():
        # MBF is binary: its first bytes (the size) are control characters.
        fail(
            "minesweep stats: not a board minesweep reads: expected MBF, a game file, "
            "LeetCode JSON or grid, or '*'/'.' text"
        )
    return parse_mbf(data), None


def _unflagged(board: list[list[str]]) -> list[list[str]]:
    """A LeetCode board with its flags (lowercase ``m``/``e``, see Board) taken off."""
    return [[cell.upper() if cell in ("m", "e") else cell for cell in row] for row in board]
