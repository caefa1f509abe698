"""The kinds of game there are: the preset sizes and the first-click rules,
and the names of the player's strengths.

Tables and an enum with their lookups, and nothing else: it imports no
numpy, so that the command line can offer the choices (``--preset``,
``--rule``, ``--strength``) without loading the array engine.

>>> Preset.from_name("beginner")
Preset(name='beginner', rows=9, cols=9, mines=10)
>>> first_click_rule("safe")
<FirstClickRule.SAFE: 'safe'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .errors import SettingsError

__all__ = ["PRESETS", "STRENGTHS", "FirstClickRule", "Preset", "first_click_rule"]


class FirstClickRule(StrEnum):
    """What the first click is promised."""

    #: The first click opens: it and its neighbours hold no mine.
    OPENING = "opening"
    #: The first click holds no mine (it may show a number).
    SAFE = "safe"
    #: No promise: mines fall anywhere, the first click may explode.
    NONE = "none"

    @property
    def promise(self) -> str:
        """What the rule promises the player, in a phrase every front end words it with.

        >>> FirstClickRule.SAFE.promise
        'whichever square you click first holds no mine'
        """
        return _PROMISES[self][0]

    @property
    def brief(self) -> str:
        """The promise in a few words (an option's help)."""
        return _PROMISES[self][1]


#: Each rule's promise, at length and in brief: the one place it is worded.
_PROMISES: Final = {
    FirstClickRule.OPENING: (
        "whichever square you click first holds no mine, and nor do its neighbours",
        "the first click opens",
    ),
    FirstClickRule.SAFE: ("whichever square you click first holds no mine", "it holds no mine"),
    FirstClickRule.NONE: ("nothing: the first click may hit a mine", "no promise"),
}


@dataclass(frozen=True, slots=True)
class Preset:
    """A named board size and mine count; :data:`PRESETS` holds them by name."""

    name: str
    rows: int
    cols: int
    mines: int

    @classmethod
    def from_name(cls, name: object) -> Preset:
        """The preset called ``name``; SettingsError if there is none.

        >>> Preset.from_name("expert")
        Preset(name='expert', rows=16, cols=30, mines=99)
        """
        preset = PRESETS.get(name) if isinstance(name, str) else None
        if preset is None:
            choices = ", ".join(repr(known) for known in PRESETS)
            raise SettingsError(f"preset must be one of {choices}, got {name!r}")
        return preset


PRESETS: Final = {
    preset.name: preset
    for preset in (
        Preset("beginner", 9, 9, 10),
        Preset("intermediate", 16, 16, 40),
        Preset("expert", 16, 30, 99),
    )
}


def first_click_rule(rule: FirstClickRule | str) -> FirstClickRule:
    """``rule`` as a FirstClickRule; SettingsError if it is none of them."""
    try:
        return FirstClickRule(rule)
    except ValueError:
        choices = ", ".join(repr(r.value) for r in FirstClickRule)
        raise SettingsError(f"first-click rule must be one of {choices}, got {rule!r}") from None


#: The autoplayer's named tunings, quickest first; what each holds is
#: :meth:`minesweep.solver.guess.PolicyConfig.preset`'s to say.
STRENGTHS: Final = ("fast", "default", "strongest")
