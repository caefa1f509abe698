"""The API's bodies (minesweep.web.models) say what the engine says: literals are enums."""

from __future__ import annotations

from enum import Enum
from typing import Any, get_args, get_type_hints

import pytest

from minesweep import ActionKind
from minesweep.actions import GameStatus
from minesweep.frontend import Button
from minesweep.presets import FirstClickRule
from minesweep.web import models


@pytest.mark.parametrize(
    ("literal", "enum"),
    [
        (models.Rule, FirstClickRule),
        (models.Status, GameStatus),
        (models.ButtonName, Button),
    ],
)
def test_each_literal_holds_the_values_of_its_engine_enum(literal: Any, enum: type[Enum]) -> None:
    values = get_args(literal)
    assert len(values) == len(set(values))
    assert set(values) == {member.value for member in enum}


def test_the_action_names_are_the_engines_actions() -> None:
    # The JSON names an action by its word; the engine's values are its one-letter codes.
    names = get_args(models.ActionName)
    assert len(names) == len(set(names))
    assert set(names) == {kind.name.lower() for kind in ActionKind}


def test_the_fields_use_the_literals() -> None:
    # The literals above are the ones the bodies are decoded and answered with.
    hints = {
        (models.NewGame, "rule"): models.Rule,
        (models.GameState, "rule"): models.Rule,
        (models.GameState, "status"): models.Status,
        (models.Move, "action"): models.ActionName | None,
        (models.Move, "click"): models.ButtonName | None,
    }
    for (struct, name), kind in hints.items():
        assert get_type_hints(struct)[name] == kind, (struct, name)


def test_the_replay_literals_are_the_replays_names() -> None:
    from minesweep.replays import FORMATS
    from minesweep.replays.clicks import ClickEffect, ClickKind

    assert get_args(models.ReplayFormat) == FORMATS
    assert set(get_args(models.ClickKindName)) == {kind.name.lower() for kind in ClickKind}
    assert set(get_args(models.ClickEffectName)) == {kind.name.lower() for kind in ClickEffect}
    hints = get_type_hints(models.ClickNote)
    assert (hints["kind"], hints["effect"]) == (models.ClickKindName, models.ClickEffectName)
    assert get_type_hints(models.ReplayFile)["format"] == models.ReplayFormat
