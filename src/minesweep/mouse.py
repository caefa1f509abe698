"""The mouse and the game: which button makes which action, written once.

Four places cross between a mouse and the game's actions, and all read the
mapping here:

- the front ends turn a button on a square into an action
  (:func:`action_for`, through :func:`minesweep.frontend.click`);
- the replay writer turns an action into its button's press and release
  (:data:`BUTTON_OF`, :data:`PRESS_RELEASE`, in
  :func:`minesweep.replays.replay_from_game`);
- the replay reader turns a counted click back into an action
  (:func:`action_for`, in :func:`minesweep.replays.clicks.replay_game`);
- the web's trace check asks which clicks of a trace may have made an
  action the server applied (:data:`BUTTONS_FOR`, in :mod:`minesweep.web.trace`).

A chord is the middle button's: pressing both buttons together does the same
in every replay tool, which calls either a "double" click.

>>> action_for(3, Button.LEFT), BUTTON_OF[ActionKind.CHORD]
(<ActionKind.CHORD: 'C'>, <Button.MIDDLE: 'middle'>)
>>> PRESS_RELEASE[Button.RIGHT]
('rc', 'rr')
>>> sorted(BUTTONS_FOR[ActionKind.CHORD])
[<Button.LEFT: 'left'>, <Button.MIDDLE: 'middle'>]
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final, Literal

from .actions import ActionKind
from .squares import GLYPH_FLAG, MAX_NUMBER, Glyph

__all__ = ["BUTTONS_FOR", "BUTTON_OF", "PRESS_RELEASE", "Button", "Press", "Release", "action_for"]


class Button(StrEnum):
    """A mouse button, or the key a front end binds to it."""

    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"


#: A button's press and its release, as replay files name the events.
Press = Literal["lc", "mc", "rc"]
Release = Literal["lr", "mr", "rr"]

#: The events a click of each button is made of, press then release.
PRESS_RELEASE: Final[Mapping[Button, tuple[Press, Release]]] = {
    Button.LEFT: ("lc", "lr"),
    Button.MIDDLE: ("mc", "mr"),
    Button.RIGHT: ("rc", "rr"),
}

#: The button each action is made with: a mark of any kind is the right
#: button's (the game's question marks too, which the replay tools' right
#: button, toggling a flag only, does not know).
BUTTON_OF: Final[Mapping[ActionKind, Button]] = {
    ActionKind.REVEAL: Button.LEFT,
    ActionKind.CHORD: Button.MIDDLE,
    ActionKind.FLAG: Button.RIGHT,
    ActionKind.UNFLAG: Button.RIGHT,
    ActionKind.QUESTION: Button.RIGHT,
}


def action_for(glyph: int, button: Button) -> ActionKind:
    """What a click of ``button`` does on a square showing ``glyph``.

    Right flags a square, or takes its flag off; middle chords; left chords
    on a revealed number and reveals anything else (a click on a blank or a
    flag is then a wasted click, as the statistics count it).

    >>> action_for(3, Button.LEFT), action_for(0, Button.LEFT)
    (<ActionKind.CHORD: 'C'>, <ActionKind.REVEAL: 'O'>)
    """
    if button is Button.RIGHT:
        return ActionKind.UNFLAG if glyph == GLYPH_FLAG else ActionKind.FLAG
    if button is Button.MIDDLE or 1 <= glyph <= MAX_NUMBER:
        return ActionKind.CHORD
    return ActionKind.REVEAL


#: Every button a click of which may have made each action: the action's own
#: button, and any other that :func:`action_for` maps to it on some glyph (a
#: left click on a number chords). Derived, so that it cannot disagree.
BUTTONS_FOR: Final[Mapping[ActionKind, frozenset[Button]]] = {
    kind: frozenset(
        {BUTTON_OF[kind]}
        | {
            button
            for button in Button
            for glyph in (*range(MAX_NUMBER + 1), *Glyph)
            if action_for(int(glyph), button) is kind
        }
    )
    for kind in ActionKind
}
