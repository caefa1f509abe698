"""The terminal game's help screen: the keys, and how to play."""

from __future__ import annotations

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

    def __init__(self, keys: dict[str, list[str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        lines = ["minesweep: keys (remap them in the key file, see the README)", ""]
        for action, names in self.keys.items():
            shown = " / ".join(key_label(name) for name in names)
            lines.append(f"  {shown:18} {DESCRIPTIONS[action]}")
        lines += [
            "",
            "mouse: left reveals (chords on a satisfied number), right flags, middle chords",
            "press ? or escape to close",
        ]
        yield Static("\n".join(lines), id="help")
