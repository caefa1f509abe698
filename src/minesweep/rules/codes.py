"""The small ints the compiled rules know a board's status and first-click rule by.

numba reads a module-level int as a compile-time constant, never an enum:
a status code is its position in ``(playing, won, lost)``, and a rule's its
position in :data:`FIRST_CLICK_RULES`. The vector environment names the
statuses with :class:`~minesweep.actions.GameStatus` (``rl/vector.py``).
"""

from __future__ import annotations

from typing import Final

from ..presets import FirstClickRule

__all__ = [
    "FIRST_CLICK_RULES",
    "LOST",
    "PLAYING",
    "RULE_NONE",
    "RULE_OPENING",
    "RULE_SAFE",
    "WON",
    "rule_code",
]

#: A board in play, won or lost.
PLAYING: Final = 0
WON: Final = 1
LOST: Final = 2
#: The first-click rules; a rule's code is its index.
FIRST_CLICK_RULES: Final = (FirstClickRule.NONE, FirstClickRule.SAFE, FirstClickRule.OPENING)
RULE_NONE: Final = FIRST_CLICK_RULES.index(FirstClickRule.NONE)
RULE_SAFE: Final = FIRST_CLICK_RULES.index(FirstClickRule.SAFE)
RULE_OPENING: Final = FIRST_CLICK_RULES.index(FirstClickRule.OPENING)


def rule_code(rule: FirstClickRule) -> int:
    """The code the kernels know a first-click rule by."""
    return FIRST_CLICK_RULES.index(rule)
