"""The terminal game's keys: the actions, their default keys, and the key file that remaps them."""

from __future__ import annotations

import tomllib
from pathlib import Path

from textual.keys import _character_to_key

from minesweep import ParseError

__all__ = ["DEFAULT_KEYS", "DESCRIPTIONS", "key_label", "load_keys", "parse_keys"]

#: Actions and their default keys (Textual key names); remap them in a TOML
#: file with a ``[keys]`` table, for example ``flag = ["f", "m"]``. hjkl move
#: the cursor as in vi, so "h" cannot also be the hint: the hint is on "H"
#: (shift+h) and "i"; g and G go to the first and last row, as in vi.
DEFAULT_KEYS: dict[str, list[str]] = {
    "up": ["up", "k"],
    "down": ["down", "j"],
    "left": ["left", "h"],
    "right": ["right", "l"],
    "page_up": ["pageup"],
    "page_down": ["pagedown"],
    "row_start": ["home"],
    "row_end": ["end"],
    "first_row": ["g"],
    "last_row": ["G"],
    "reveal": ["space", "enter"],
    "flag": ["f"],
    "chord": ["c"],
    "undo": ["u"],
    "new_game": ["n"],
    "pause": ["p"],
    "hint": ["H", "i"],
    "overlay": ["o"],
    "export": ["e"],
    "help": ["question_mark"],
    "quit": ["q"],
}

#: What each action does, as the help screen and the key bindings say it.
DESCRIPTIONS: dict[str, str] = {
    "up": "move up",
    "down": "move down",
    "left": "move left",
    "right": "move right",
    "page_up": "up by the rows on screen",
    "page_down": "down by the rows on screen",
    "row_start": "to the row's first square",
    "row_end": "to the row's last square",
    "first_row": "to the first row",
    "last_row": "to the last row",
    "reveal": "reveal (chords on a satisfied number)",
    "flag": "flag / unflag",
    "chord": "chord",
    "undo": "undo (marks the game assisted)",
    "new_game": "new game (a game in progress: press again; it counts as a loss)",
    "pause": "pause / resume (hides the board)",
    "hint": "hint (marks the game assisted)",
    "overlay": "mine probabilities on/off (assisted)",
    "export": "save the finished game as an EVF replay",
    "help": "this help",
    "quit": "quit (the game is saved)",
}


def key_label(name: str) -> str:
    """A Textual key name as a player reads it: ``question_mark`` is ``?``."""
    return {"question_mark": "?", "pageup": "PageUp", "pagedown": "PageDown"}.get(name, name)


def load_keys(path: Path | None) -> dict[str, list[str]]:
    """The key map: the defaults, with a TOML file's ``[keys]`` table on top.

    No file (or none at ``path``): the defaults. See :func:`parse_keys`.
    """
    if path is None or not path.exists():
        return parse_keys("", where="defaults")
    try:
        # utf-8-sig: a byte-order mark, as some editors write, is no key.
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise ParseError(f"cannot read key file {str(path)!r}: {error}") from None
    return parse_keys(text, where=str(path))


def parse_keys(text: str, *, where: str) -> dict[str, list[str]]:
    """The key map a key file's ``text`` gives; ParseError naming the file ``where``."""
    keys = {action: list(names) for action, names in DEFAULT_KEYS.items()}
    path = where
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ParseError(f"cannot read key file {path!r}: {error}") from None
    table = document.get("keys", {})
    if not isinstance(table, dict):
        raise ParseError(f"key file {path!r}: [keys] must be a table")
    for action, names in table.items():
        if action not in keys:
            raise ParseError(
                f"key file {path!r}: unknown action {action!r}; "
                f"expected one of {', '.join(sorted(keys))}"
            )
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise ParseError(f"key file {path!r}: {action} must be a key or a list of keys")
        keys[action] = names
    # One key, one action: Textual would silently give a key bound twice to
    # whichever binding comes first (the README's example once bound "?" to
    # the hint while help kept it, and the hint was unreachable).
    bound: dict[str, tuple[str, str]] = {}
    for action, names in keys.items():
        for name in names:
            key = _character_to_key(name) if len(name) == 1 else name
            first, written = bound.setdefault(key, (action, name))
            if first != action:
                raise ParseError(
                    f"key file {path!r}: key {written!r} is bound to both "
                    f"{first} and {action}; bind each key to one action"
                )
    return keys
