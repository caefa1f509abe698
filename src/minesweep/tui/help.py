"""The terminal game's help screen: the keys, and how to play."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from .keys import DESCRIPTIONS, key_label

__all__ = ["HelpScreen"]


class HelpScreen(ModalScreen[None]):
    """The keys, and how to play."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,question_mark,q", "dismiss", "close")
    ]

    def __init__(
        self,
        keys: dict[str, list[str]],
        key_file: Path | None = None,
        replays: Path | None = None,
    ) -> None:
        super().__init__()
        self.keys = keys
        #: The key file the game read, or would read were it there (None: none given).
        self.key_file = key_file
        #: The folder finished games are saved into as replays (None: not said).
        self.replays = replays

    def compose(self) -> ComposeResult:
        if self.key_file is None:
            where = "minesweep: keys (remap them with minesweep play --keys FILE)"
        elif self.key_file.exists():
            where = f"minesweep: keys, as remapped in {self.key_file}"
        else:
            where = f"minesweep: keys (remap them in {self.key_file}: no such file yet)"
        lines = [where, ""]
        for action, names in self.keys.items():
            shown = " / ".join(key_label(name) for name in names)
            lines.append(f"  {shown:18} {DESCRIPTIONS[action]}")
        lines += [
            "",
            "mouse: left reveals (chords on a satisfied number), right flags, middle chords",
            "squares are counted from 1: row 1, column 1 is the top left (status line, hints)",
            "a new game while one is in progress counts that one as a loss",
            "a game on a seed you chose (--seed) is recorded apart: never a best time",
        ]
        if self.replays is not None:
            lines.append(f"replays (EVF: Metasweeper, ms-toollib) are saved in {self.replays}")
        lines.append("press ? or escape to close")
        yield Static("\n".join(lines), id="help")
