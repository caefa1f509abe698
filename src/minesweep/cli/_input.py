"""Reading the user's files: the command line's one reader of bytes and text.

Every file a command reads comes through :func:`read_bytes` (and
:func:`read_text` for text), so that a missing file, standard input and a
byte-order mark are handled, and worded, once. Which format a file holds is
:func:`minesweep.formats.sniff`'s answer; this module only words what the
command line says about it.
"""

from __future__ import annotations

import sys
from typing import Any

from ._args import fail

__all__ = ["decode_text", "load_field_or_game", "load_view", "read_bytes", "read_text"]


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


def load_view(path: str) -> tuple[Any, int | None, Any]:
    """A position to solve: (glyphs, total mines or None when the file does not say, game).

    The game is None unless the file is a game file.
    """
    from .. import Board
    from ..actions import GameStatus
    from ..formats import Format, parse_game_json, parse_view, sniff
    from ..moves import view_of
    from ..notation import parse_leetcode_json, parse_text_grid

    text = read_text(path, "solve")
    kind = sniff(text)
    if kind is Format.GAME:
        game = parse_game_json(text)
        return game.glyphs(), game.mine_count, game
    if kind is Format.LEETCODE_JSON:
        board, _ = parse_leetcode_json(text)
    elif kind is Format.LEETCODE_GRID:
        board = parse_text_grid(text)
    else:
        # A view, a minefield's text (a view of blanks) or neither: the view's
        # parser says what is wrong with it.
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
    from ..formats import Format, parse_game_json, parse_mbf, sniff
    from ..notation import parse_leetcode_json, parse_text_grid

    data = read_bytes(path, "stats")
    kind = sniff(data)
    if kind is Format.MBF:
        return parse_mbf(data), None
    text = decode_text(data)
    if kind is Format.GAME:
        game = parse_game_json(text)
        if game.field is None:
            fail("minesweep stats: the game's mines are not laid yet (no reveal so far)")
        return game.field, game
    if kind is Format.LEETCODE_JSON:
        board, _ = parse_leetcode_json(text)
        return Minefield.from_leetcode(_unflagged(board)), None
    if kind is Format.MINEFIELD_TEXT:
        return Minefield.from_text(text), None
    if kind is Format.LEETCODE_GRID:
        return Minefield.from_leetcode(_unflagged(parse_text_grid(text))), None
    if not data.strip():
        fail("minesweep stats: the input is empty")
    # A view, or text no format has: a view shows no mines, so it is no board.
    fail(
        "minesweep stats: not a board minesweep reads: expected MBF, a game file, "
        "LeetCode JSON or grid, or '*'/'.' text"
    )


def _unflagged(board: list[list[str]]) -> list[list[str]]:
    """A LeetCode board with its flags (lowercase ``m``/``e``, see Board) taken off."""
    return [[cell.upper() if cell in ("m", "e") else cell for cell in row] for row in board]
