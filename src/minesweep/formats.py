"""Files and text for minefields and games: every ``parse_*`` has a ``to_*``.

- **MBF**, the binary board format of Minesweeper Arbiter and JSMinesweeper:
  width (1 byte), height (1 byte), mine count (2 bytes, big-endian), then one
  ``x, y`` byte pair per mine (``x`` the column, ``y`` the row). Boards up to
  255 x 255.
- **The player's view** as text, one row per line: ``#`` hidden, ``F`` flag,
  ``?`` question mark, ``.`` a revealed square with no adjacent mine, ``1``-``8``
  a revealed number, and once a game is lost ``*`` a mine, ``X`` the mine that
  went off, ``!`` a wrong flag. ``0`` is read as ``.``.
- **Game JSON**, versioned: the minefield, how it was made, and the history of
  actions with their times; reading it replays the history and checks that it
  leads to the recorded position.
- **A game log**, as the web game's database and the terminal game's saves
  keep a game in play: the game JSON of its base (the game before its first
  action, with its field once laid), then one history record a line
  (:mod:`minesweep.history`), appended as the game is played.

:func:`sniff` tells which of these (or of LeetCode's notations, or a
minefield's ``*``/``.`` text) a file holds, from its characters alone.

>>> from minesweep import Minefield
>>> field = Minefield.from_text("*..\\n..*\\n")
>>> to_mbf(field)
b'\\x03\\x02\\x00\\x02\\x00\\x00\\x02\\x01'
>>> parse_mbf(to_mbf(field)) == field
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .errors import InvalidBoardError, ParseError
from .field import Minefield
from .game import Game
from .generate import generate_field
from .history import action_record, read_history, read_history_lines
from .notation import load_json
from .squares import VIEW_SYMBOLS, CellState, glyph_of, square_name

__all__ = [
    "GAME_FORMAT",
    "GAME_FORMAT_VERSION",
    "Format",
    "log_base",
    "parse_game_json",
    "parse_game_log",
    "parse_mbf",
    "parse_view",
    "sniff",
    "to_game_json",
    "to_mbf",
    "to_view",
]

GAME_FORMAT: Final = "minesweep-game"
GAME_FORMAT_VERSION: Final = 1

#: The digits of the CellState values that "initial" holds, one a square.
_STATE_DIGITS: Final = "".join(str(int(state)) for state in CellState)


# --- which format a file holds ---------------------------------------------------------


class Format(StrEnum):
    """What a file holds, as :func:`sniff` tells it; each value is its name in words."""

    #: Game JSON (:func:`parse_game_json`): a JSON object with a ``"format"`` key.
    GAME = "game"
    #: LeetCode JSON: a list of rows, or an object with ``"board"`` (and ``"click"``).
    LEETCODE_JSON = "leetcode-json"
    #: A minefield as :meth:`Minefield.to_text` writes it: ``*`` a mine, ``.`` none.
    MINEFIELD_TEXT = "minefield-text"
    #: A LeetCode board as a text grid: ``M E B X``, the digits, flags ``m e``.
    LEETCODE_GRID = "leetcode-grid"
    #: The player's view (:func:`parse_view`), in :data:`~minesweep.squares.VIEW_SYMBOLS`.
    VIEW = "view"
    #: Bytes that are not text: MBF (:func:`parse_mbf`), the one binary format.
    MBF = "mbf"
    #: None of these: empty, or characters no format has.
    UNKNOWN = "unknown"


#: The blanks around and between a grid's rows, which say nothing of its notation.
_BLANKS: Final = " \t\r\n"
_MINEFIELD_SYMBOLS: Final = "*." + _BLANKS
_LEETCODE_SYMBOLS: Final = "MEBXme12345678" + _BLANKS
_VIEW_TEXT_SYMBOLS: Final = VIEW_SYMBOLS + "0" + _BLANKS


def sniff(data: str | bytes) -> Format:
    """Which format ``data`` is written in, told by its characters alone; nothing is parsed.

    A JSON object with a ``"format"`` key is a game, other JSON is LeetCode's;
    a grid of only ``*`` and ``.`` is a minefield; one of LeetCode's letters
    and digits a LeetCode board; one of view symbols a view. Where two fit,
    the first of that order wins: ``...`` is a minefield with no mine before it
    is a view of blanks, and ``11`` a LeetCode board before it is a view.
    Bytes are read as UTF-8 (a byte-order mark skipped); bytes that are not
    text (not UTF-8, or control characters and no other format) are MBF. A
    ``str`` is taken as it is, and is never MBF. What fits nothing, the empty text included, is
    :attr:`Format.UNKNOWN`: the parser of the format a caller expects says
    what is wrong with it.

    >>> sniff('{"format": "minesweep-game", "version": 1}')
    <Format.GAME: 'game'>
    >>> sniff('[["E", "M"]]').value, sniff("*..\\n.*.\\n").value, sniff("EM\\nB1\\n").value
    ('leetcode-json', 'minefield-text', 'leetcode-grid')
    >>> sniff("#1F\\n#2.\\n").value, sniff("hello").value, sniff("").value
    ('view', 'unknown', 'unknown')
    >>> sniff(bytes([2, 1, 0, 1, 0, 0])).value  # a 2x1 MBF board, its mine at (0, 0)
    'mbf'
    """
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            return Format.MBF
        kind = _sniff_text(text)
        # MBF's first bytes (its size, its mine count) are control characters;
        # text has none but its blanks.
        if kind is Format.UNKNOWN and not "".join(text.split()).isprintable():
            return Format.MBF
        return kind
    if isinstance(data, str):
        return _sniff_text(data)
    raise ParseError(f"sniff reads text or bytes, got {type(data).__name__}")


def _sniff_text(text: str) -> Format:
    start = text.lstrip()[:1]
    if start == "{" and '"format"' in text:
        return Format.GAME
    if start in ("[", "{"):
        return Format.LEETCODE_JSON
    body = text.strip()
    if not body:
        return Format.UNKNOWN
    for symbols, kind in (
        (_MINEFIELD_SYMBOLS, Format.MINEFIELD_TEXT),
        (_LEETCODE_SYMBOLS, Format.LEETCODE_GRID),
        (_VIEW_TEXT_SYMBOLS, Format.VIEW),
    ):
        if not body.strip(symbols):
            return kind
    return Format.UNKNOWN


# --- MBF ---------------------------------------------------------------------------


def to_mbf(field: Minefield) -> bytes:
    """The MBF bytes of a minefield (at most 255 x 255, at most 65535 mines)."""
    if field.rows > 255 or field.cols > 255 or field.mine_count > 0xFFFF:
        raise InvalidBoardError(
            f"MBF holds boards up to 255x255 with up to 65535 mines; this one is "
            f"{field.rows}x{field.cols} with {field.mine_count}"
        )
    rows, cols = np.nonzero(field.mines)
    pairs = np.empty(2 * len(rows), np.uint8)
    pairs[0::2] = cols
    pairs[1::2] = rows
    header = bytes([field.cols, field.rows, len(rows) >> 8, len(rows) & 0xFF])
    return header + pairs.tobytes()


def parse_mbf(data: bytes) -> Minefield:
    """Read MBF bytes, rejecting anything truncated, too long, off the board or repeated."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ParseError(f"MBF data must be bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < 4:
        raise ParseError(f"MBF data is {len(data)} bytes; the header alone is 4")
    width, height = data[0], data[1]
    count = (data[2] << 8) | data[3]
    if width == 0 or height == 0:
        raise ParseError(f"MBF board is {width}x{height}; width and height must be at least 1")
    expected = 4 + 2 * count
    if len(data) != expected:
        what = "truncated" if len(data) < expected else "too long"
        raise ParseError(
            f"MBF data is {what}: {len(data)} bytes for {count} mines, expected {expected}"
        )
    pairs = np.frombuffer(data, np.uint8, offset=4).reshape(-1, 2).astype(np.int64)
    for index, (x, y) in enumerate(pairs.tolist()):
        if x >= width or y >= height:
            raise ParseError(f"MBF mine {index} at x={x}, y={y} is off the {width}x{height} board")
    mask = np.zeros((height, width), np.bool_)
    flat = pairs[:, 1] * width + pairs[:, 0]
    unique, first = np.unique(flat, return_index=True)
    if len(unique) != len(flat):
        repeated = sorted(set(range(len(flat))) - set(first.tolist()))[0]
        x, y = pairs[repeated]
        raise ParseError(f"MBF mine {repeated} at x={x}, y={y} repeats an earlier mine")
    if count > width * height:
        raise ParseError(f"MBF board {width}x{height} cannot hold {count} mines")
    mask.reshape(-1)[flat] = True
    return Minefield(mask)


# --- the player's view ---------------------------------------------------------------


def to_view(glyphs: npt.NDArray[np.uint8]) -> str:
    """A view (as :meth:`minesweep.Game.glyphs` gives it) as text, a newline after each row."""
    codes = np.asarray(glyphs)
    if codes.ndim != 2 or codes.dtype.kind not in "iu" or codes.size == 0:
        raise InvalidBoardError(f"a view is a 2-D array of glyphs, got {codes.dtype} {codes.shape}")
    if codes.min() < 0 or codes.max() >= len(VIEW_SYMBOLS):
        raise InvalidBoardError(f"glyphs go from 0 to {len(VIEW_SYMBOLS) - 1}, got {codes.max()}")
    table = np.frombuffer(VIEW_SYMBOLS.encode("ascii"), np.uint8)
    symbols = table[codes.astype(np.intp)]
    return "".join(row.tobytes().decode("ascii") + "\n" for row in symbols)


def parse_view(text: str) -> npt.NDArray[np.uint8]:
    """Read a view written by :func:`to_view`: a (rows, cols) array of glyphs.

    Blank lines and spaces are ignored; ``0`` reads as ``.``.
    """
    if not isinstance(text, str):
        raise ParseError(f"a view is text, got {type(text).__name__}")
    lines = ["".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    if not lines:
        raise ParseError("view is empty; expected rows such as '#1.F'")
    width = len(lines[0])
    # Rows of the same width up to the first that is not; read as arrays
    # (a view of 10^8 squares is read in well under a second), the first bad
    # symbol of those rows found before that row's width is blamed, as a
    # reader going row by row would.
    ragged = next((row for row, line in enumerate(lines) if len(line) != width), len(lines))
    points = np.frombuffer("".join(lines[:ragged]).encode("utf-32-le"), np.uint32)
    codes = _GLYPH_OF_POINT[np.minimum(points, len(_GLYPH_OF_POINT) - 1)]
    bad = np.flatnonzero(codes == _NOT_A_GLYPH)
    if len(bad):
        row, col = divmod(int(bad[0]), width)
        raise ParseError(
            f"view square {square_name(row, col)} is {lines[row][col]!r}; expected one of "
            f"{VIEW_SYMBOLS!r} or '0'"
        )
    if ragged < len(lines):
        length = len(lines[ragged])
        raise ParseError(
            f"view row {ragged + 1} has {length} square{'' if length == 1 else 's'}; "
            f"expected {width} like row 1"
        )
    return codes.reshape(len(lines), width)


#: The glyph of each code point below 128 (the last entry stands for every other), or
#: :data:`_NOT_A_GLYPH`.
_NOT_A_GLYPH: Final = 255
_GLYPH_OF_POINT: Final = np.array(
    [
        glyph if (glyph := glyph_of(chr(point))) is not None and point < 128 else _NOT_A_GLYPH
        for point in range(129)
    ],
    np.uint8,
)


# --- game JSON -------------------------------------------------------------------------


def to_game_json(game: Game, *, view: bool = True) -> str:
    """A whole game as versioned JSON: field, origin, position and history.

    ``view`` False leaves out the player's view, which a reader then does not
    check the replay against (a log's base: all hidden, as big as the board).
    """
    field = game.field
    document: dict[str, Any] = {
        "format": GAME_FORMAT,
        "version": GAME_FORMAT_VERSION,
        "rows": game.shape[0],
        "cols": game.shape[1],
        "mines": game.mine_count,
        "rule": game.rule.value,
        "seed": game.seed,
        "first_click": list(game.first_click) if game.first_click is not None else None,
        "undos": game.undos,
        "question_marks": game.question_marks,
        "field": field.to_text().splitlines() if field is not None else None,
        # A game that started from a position (from_leetcode) records it, as
        # CellState digits; a new game starts all hidden and needs nothing.
        "initial": (
            ["".join(str(v) for v in row) for row in initial.tolist()]
            if (initial := game.initial_state) is not None
            else None
        ),
        "history": [action_record(action) for action in game.history],
        "status": game.status.value,
    }
    if view:
        document["view"] = to_view(game.glyphs()).splitlines()
    return json.dumps(document, indent=1)


def parse_game_json(text: str, *, clock: Callable[[], float] = time.monotonic) -> Game:
    """Read a game written by :func:`to_game_json`, replaying its history.

    Raises ParseError if the file is malformed, or if replaying the history
    does not lead to the position and status the file records.
    """
    document = _game_document(text)
    template = _template(document, clock)
    initial = document.get("initial")
    start = _initial_state(initial, template.field) if initial is not None else None
    history = document.get("history")
    if not isinstance(history, list):
        raise ParseError('game "history" must be a list of {"action": ..., "time": ...}')
    actions = read_history(history, undos=False).actions
    try:
        game = Game.replay(
            template, actions, clock=clock, initial=start, undos=document.get("undos", 0)
        )
    except ParseError:
        raise
    except ValueError as error:
        raise ParseError(f"game history cannot be replayed: {error}") from None
    _check_outcome(document, game)
    return game


def log_base(game: Game) -> str:
    """The base of ``game``'s log: its game JSON before the first action, field included.

    A log holds this, then one :func:`minesweep.history.record_line` an action
    or undo. Write it again when the base changes: a no-guess first reveal lays
    the field the solver chose, which no seed lays again. The base keeps the
    game's count of undos (a rewritten log holds only the actions standing) and
    no view: before the first action every square is hidden.
    """
    return to_game_json(Game.replay(game, (), undos=game.undos), view=False)


def parse_game_log(
    base: str,
    lines: Iterable[str],
    *,
    clock: Callable[[], float] = time.monotonic,
    where: str = "game log",
) -> Game:
    """The game a log holds: ``base`` (from :func:`log_base`) with its records replayed.

    Raises ParseError naming ``where`` and the entry when the base or a record
    is malformed or a record cannot be played. The clock starts at the first
    action's replay; a caller that knows how long the game ran sets its start.
    """
    template = parse_game_json(base, clock=clock)
    history = read_history_lines(lines, where=where)
    try:
        return history.replay(template, clock=clock)
    except ParseError:
        raise
    except ValueError as error:
        raise ParseError(f"{where} cannot be replayed: {error}") from None


def _game_document(text: object) -> dict[str, Any]:
    """The JSON object of a game file, its format and version checked."""
    if not isinstance(text, (str, bytes)):
        raise ParseError(f"a game file is JSON text, got {type(text).__name__}")
    document = load_json(text)
    if not isinstance(document, dict) or document.get("format") != GAME_FORMAT:
        raise ParseError(f'not a minesweep game: expected "format": {GAME_FORMAT!r}')
    version = document.get("version")
    if version != GAME_FORMAT_VERSION:
        raise ParseError(
            f"game format version {version!r} is not supported; this minesweep reads "
            f"version {GAME_FORMAT_VERSION}"
        )
    return document


def _template(document: dict[str, Any], clock: Callable[[], float]) -> Game:
    """The game a file describes, before its first action: size, mines, origin, settings."""
    rows, cols, mines = (_integer(document, key) for key in ("rows", "cols", "mines"))
    seed = document.get("seed")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise ParseError(f'game "seed" must be a non-negative integer or null, got {seed!r}')
    field = _field(document.get("field"))
    if seed is None and field is None:
        raise ParseError("game has neither a seed nor a field: its mines cannot be known")
    question_marks = document.get("question_marks", False)
    if not isinstance(question_marks, bool):
        raise ParseError(f'game "question_marks" must be true or false, got {question_marks!r}')
    first_click = _first_click(document.get("first_click"))
    undos = document.get("undos", 0)
    if type(undos) is not int or undos < 0:
        raise ParseError(f'game "undos" must be a non-negative integer, got {undos!r}')
    try:
        # Once laid, the field is what counts; the seed and rule say where it came from.
        template = Game(
            rows,
            cols,
            mines,
            rule=document.get("rule", "opening"),
            seed=seed,
            field=field,
            first_click=first_click,
            question_marks=question_marks,
            clock=clock,
        )
    except ValueError as error:
        raise ParseError(f"game cannot be set up: {error}") from None
    if seed is not None and field is not None and first_click is not None:
        regenerated = generate_field(
            rows, cols, mines, first_click=first_click, rule=template.rule, seed=seed
        )
        if regenerated != field:
            raise ParseError(
                'game "field" is not what its seed, rule and first click lay: the file was changed'
            )
    return template


def _field(field_rows: object) -> Minefield | None:
    if field_rows is None:
        return None
    if not isinstance(field_rows, list) or not all(isinstance(r, str) for r in field_rows):
        raise ParseError("game \"field\" must be a list of rows of '*' and '.'")
    return Minefield.from_text("\n".join(field_rows))


def _check_outcome(document: dict[str, Any], game: Game) -> None:
    """Raise ParseError unless the replayed game has the status and view the file records."""
    status = document.get("status")
    if status != game.status.value:
        raise ParseError(
            f"game history leads to status {game.status.value!r} but the file says {status!r}"
        )
    if "view" not in document:
        return  # a log's base: nothing shown yet
    view = document["view"]
    if not isinstance(view, list) or not all(isinstance(row, str) for row in view):
        raise ParseError('game "view" must be a list of rows of view symbols')
    recorded = parse_view("\n".join(view))
    replayed = game.glyphs()
    if recorded.shape != replayed.shape:
        raise ParseError(f'game "view" is {recorded.shape}; the game is {replayed.shape}')
    wrong = np.argwhere(recorded != replayed)
    if len(wrong):
        row, col = (int(v) for v in wrong[0])
        raise ParseError(
            f"game history does not lead to the recorded view: {square_name(row, col)} "
            f"shows {VIEW_SYMBOLS[replayed[row, col]]!r} after replay but the file says "
            f"{VIEW_SYMBOLS[recorded[row, col]]!r}"
        )


def _first_click(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, list) and len(value) == 2 and all(type(v) is int for v in value):
        return value[0], value[1]
    raise ParseError(f'game "first_click" must be [row, col] or null, got {value!r}')


def _integer(document: dict[str, Any], key: str) -> int:
    value = document.get(key)
    if type(value) is not int or value < 0:
        raise ParseError(f"game {key!r} must be a non-negative integer, got {value!r}")
    return value


def _initial_state(rows: object, field: Minefield | None) -> npt.NDArray[np.uint8]:
    """The starting position of a game that did not start all hidden."""
    if field is None or not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise ParseError('game "initial" needs a "field" and rows of CellState digits')
    if len(rows) != field.rows or any(
        len(row) != field.cols or row.strip(_STATE_DIGITS) for row in rows
    ):
        raise ParseError(
            f'game "initial" must be {field.rows} rows of {field.cols} digits '
            f"{_STATE_DIGITS[0]}-{_STATE_DIGITS[-1]}"
        )
    return np.array([[int(v) for v in row] for row in rows], np.uint8)
