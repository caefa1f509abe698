"""Reading the user's files: the command line's one reader of bytes and text.

Every file a command reads comes through :func:`read_bytes` (and
:func:`read_text` for text), so that a missing file, standard input and a
byte-order mark are handled, and worded, once. Which format a file holds is
:func:`minesweep.formats.sniff`'s answer; this module only words what the
command line says about it.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

import numpy as np

from ._args import fail

__all__ = [
    "Position",
    "decode_text",
    "load_field_or_game",
    "load_view",
    "read_bytes",
    "read_text",
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


def _refuse_replay(data: bytes, path: str, command: str) -> None:
    """End the command when ``data`` is a replay file: one line saying to use ``minesweep replay``.

    Without this an AVF or EVF file reaches the MBF reader (its bytes are not
    text) and is refused as "MBF data is too long", which says nothing of
    what the file is. An exact MBF is never taken for a replay: its length
    is its mine count's, and a few MBF boards (17 wide and 77 high) start
    with the bytes of a Clone replay.
    """
    if len(data) >= 4 and len(data) == 4 + 2 * ((data[2] << 8) | data[3]):
        return
    from ..replays.reading import detect_format

    found = detect_format(data)
    if found is None:
        return
    if path == "-":
        fail(
            f"minesweep {command}: standard input is a replay ({found.upper()}), not a board: "
            f"save it and read it with minesweep replay FILE"
        )
    fail(
        f"minesweep {command}: {path!r} is a replay ({found.upper()}), not a board: "
        f"read it with minesweep replay {path}"
    )


def decode_text(data: bytes) -> str:
    """``data`` as text: UTF-8, without the byte-order mark some editors write, lines ending in \\n.

    Raises UnicodeDecodeError when ``data`` is not UTF-8.
    """
    text = data.decode("utf-8-sig")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: str, command: str) -> str:
    """The whole of ``path`` as text (see :func:`decode_text`); a failure ends the command."""
    return _text(read_bytes(path, command), path, command)


def _text(data: bytes, path: str, command: str) -> str:
    """``data``, read from ``path``, as text; a failure ends the command."""
    try:
        return decode_text(data)
    except UnicodeDecodeError as error:
        fail(f"minesweep {command}: cannot read {_where(path)}: not UTF-8 text ({error.reason})")


class Position(NamedTuple):
    """A position to solve, as :func:`load_view` reads it from a file."""

    #: The view, in glyphs.
    glyphs: Any
    #: The mines in all, or None when the file does not say (a view).
    mines: int | None
    #: The game, when the file is a game file.
    game: Any
    #: What the file holds: "view", "board" (LeetCode's), "game" or "field" (a
    #: minefield, whose position is its start: every square hidden).
    kind: str


def load_view(path: str) -> Position:
    """A position to solve from a view, a LeetCode board, a game file or a minefield.

    A minefield (MBF, or ``*``/``.`` text) is no position: it is read as the
    view it starts from, every square hidden, with the mines it holds.
    """
    from .. import Board, Minefield
    from ..actions import GameStatus
    from ..formats import Format, parse_game_json, parse_view, sniff
    from ..moves import view_of
    from ..notation import parse_leetcode_json, parse_text_grid
    from ..squares import GLYPH_HIDDEN

    data = read_bytes(path, "solve")
    _refuse_replay(data, path, "solve")
    kind = sniff(data)
    field: Minefield | None = None
    if kind is Format.MBF:
        field = _mbf(data, path)
    else:
        text = _text(data, path, "solve")
    if kind is Format.MINEFIELD_TEXT:
        field = Minefield.from_text(text)
    if field is not None:
        glyphs = np.full(field.shape, GLYPH_HIDDEN, np.uint8)
        return Position(glyphs, field.mine_count, None, "field")
    if kind is Format.GAME:
        game = parse_game_json(text)
        if game.status is GameStatus.LOST:
            fail("minesweep solve: the game is lost: a mine has gone off, nothing is left to solve")
        return Position(game.glyphs(), game.mine_count, game, "game")
    if kind is Format.LEETCODE_JSON:
        board, _ = parse_leetcode_json(text)
    elif kind is Format.LEETCODE_GRID:
        board = parse_text_grid(text)
    else:
        # A view or neither: the view's parser says what is wrong with it.
        glyphs = parse_view(text)
        _check_in_play(glyphs)
        return Position(glyphs, None, None, "view")
    if any("X" in row for row in board):
        fail("minesweep solve: the board shows an exploded mine: the game is over")
    position = Board.from_leetcode(board)
    field = position.field
    glyphs = view_of(position.state, field.numbers, field.mines, GameStatus.PLAYING)
    return Position(glyphs, field.mine_count, None, "board")


def _mbf(data: bytes, path: str) -> Any:
    """The minefield of MBF ``data``: bytes that are not text, read from ``path``."""
    from ..errors import ParseError
    from ..formats import parse_mbf

    try:
        return parse_mbf(data)
    except ParseError as error:
        try:
            decode_text(data)
            what = "not text (it holds control characters)"
        except UnicodeDecodeError as bad:
            what = f"not UTF-8 text ({bad.reason})"
        fail(f"minesweep solve: cannot read {_where(path)}: {what}, nor an MBF board ({error})")


def _check_in_play(glyphs: Any) -> None:
    """Fail, in the view's own symbols, on a square only a lost game shows (``*``, ``X``, ``!``)."""
    from ..squares import GLYPH_PLAYABLE_MAX, VIEW_SYMBOLS, square_name

    over = np.argwhere(glyphs > GLYPH_PLAYABLE_MAX)
    if len(over):
        row, col = (int(value) for value in over[0])
        symbol = VIEW_SYMBOLS[int(glyphs[row, col])]
        fail(
            f"minesweep solve: the view's {square_name(row, col)} is {symbol!r}, which only a lost "
            f"game shows ('*' a mine, 'X' the one that went off, '!' a wrong flag); a view "
            f"to solve holds '#', 'F', '?', '.' and '1'-'8'"
        )


def load_field_or_game(path: str) -> tuple[Any, Any]:
    """A board file in any format minesweep reads: (minefield, game or None)."""
    from .. import Minefield
    from ..formats import Format, parse_game_json, parse_mbf, sniff
    from ..notation import parse_leetcode_json, parse_text_grid

    data = read_bytes(path, "stats")
    _refuse_replay(data, path, "stats")
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
