"""The one mapping between the mouse and the game's actions (:mod:`minesweep.mouse`)."""

from __future__ import annotations

import typing

import pytest

from minesweep import ActionKind, frontend
from minesweep.mouse import BUTTON_OF, BUTTONS_FOR, PRESS_RELEASE, Button, action_for
from minesweep.replays.clicks import ClickKind
from minesweep.replays.model import EventKind
from minesweep.squares import MAX_NUMBER, Glyph

# What each button does on each glyph, from the rules (README, "Mouse"): left
# reveals, and chords on a number; right flags, or takes a flag off; middle chords.
REVEAL, FLAG, UNFLAG, CHORD = (
    ActionKind.REVEAL,
    ActionKind.FLAG,
    ActionKind.UNFLAG,
    ActionKind.CHORD,
)
CLICKS: dict[int, tuple[ActionKind, ActionKind, ActionKind]] = {
    # glyph: (left, middle, right)
    0: (REVEAL, CHORD, FLAG),
    **dict.fromkeys(range(1, 9), (CHORD, CHORD, FLAG)),
    Glyph.HIDDEN: (REVEAL, CHORD, FLAG),
    Glyph.FLAG: (REVEAL, CHORD, UNFLAG),
    Glyph.QUESTION: (REVEAL, CHORD, FLAG),
    # Shown once a game is lost, when it takes no more actions: none is a
    # number or the flag of a game in play, so they map as a hidden square does.
    Glyph.MINE: (REVEAL, CHORD, FLAG),
    Glyph.EXPLODED: (REVEAL, CHORD, FLAG),
    Glyph.WRONG_FLAG: (REVEAL, CHORD, FLAG),
}


def test_the_click_table_covers_every_glyph() -> None:
    assert set(CLICKS) == set(range(MAX_NUMBER + 1)) | set(Glyph)


@pytest.mark.parametrize("glyph", sorted(CLICKS))
def test_a_click_does_what_the_rules_say_on_each_glyph(glyph: int) -> None:
    buttons = (Button.LEFT, Button.MIDDLE, Button.RIGHT)
    assert tuple(action_for(glyph, button) for button in buttons) == CLICKS[glyph]


def test_every_action_has_its_button_and_every_button_its_events() -> None:
    assert set(BUTTON_OF) == set(ActionKind)
    assert set(PRESS_RELEASE) == set(Button)
    events = [event for pair in PRESS_RELEASE.values() for event in pair]
    assert len(set(events)) == len(events)
    assert set(events) <= set(typing.get_args(EventKind))


def test_a_click_makes_an_action_of_its_own_button_but_a_left_chord() -> None:
    for glyph in CLICKS:
        for button in Button:
            kind = action_for(glyph, button)
            assert BUTTON_OF[kind] is button or (button, kind) == (Button.LEFT, CHORD)


def test_the_buttons_that_may_make_each_action() -> None:
    # What the web's trace check accepts for an action the server applied.
    assert dict(BUTTONS_FOR) == {
        ActionKind.REVEAL: {Button.LEFT},
        ActionKind.FLAG: {Button.RIGHT},
        ActionKind.UNFLAG: {Button.RIGHT},
        ActionKind.QUESTION: {Button.RIGHT},
        ActionKind.CHORD: {Button.LEFT, Button.MIDDLE},
    }


def test_a_counted_click_of_a_replay_is_a_button() -> None:
    assert [kind.button for kind in ClickKind] == [Button.LEFT, Button.RIGHT, Button.MIDDLE]


def test_the_front_ends_get_the_same_mapping() -> None:
    assert frontend.Button is Button
    assert frontend.action_for is action_for
