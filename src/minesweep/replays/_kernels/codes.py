"""The codes the replay kernels share: event kinds, mouse and game states, click kinds and effects.

Plain ints, which numba reads as constants. The views are in the core's
glyphs (:class:`minesweep.squares.Glyph`: 0-8 an open number, then hidden,
flag, the exploded mine, a wrong flag), the one view alphabet of the project.
"""

from __future__ import annotations

from typing import Final

from ...squares import GLYPH_EXPLODED, GLYPH_FLAG, GLYPH_HIDDEN, GLYPH_WRONG_FLAG

__all__ = [
    "CC",
    "CHORDED",
    "CHORDING",
    "CHORDING_NF",
    "DOUBLE",
    "DOWN_UP",
    "DOWN_UP_AFTER",
    "EXPLODED",
    "FLAG",
    "FLAGGED",
    "HIDDEN",
    "LC",
    "LEFT",
    "LOST",
    "LR",
    "MC",
    "MIDDLE_HELD",
    "MINE",
    "MR",
    "MV",
    "NOTHING",
    "OPENED",
    "PF",
    "PLAYING",
    "PRE",
    "RC",
    "READY",
    "RIGHT",
    "RR",
    "UNFLAGGED",
    "UP_DOWN",
    "UP_DOWN_NF",
    "UP_UP",
    "WON",
    "WRONG_FLAG",
    "L",
    "M",
    "R",
]  # fmt: skip

# Event kind codes (EVF's, in EVENT_KINDS' order; model.CODE_BY_KIND).
MV, LC, LR, RC, RR, MC, MR, PF, CC, L, R, M = range(1, 13)
# Mouse states (minesweeper_board.rs's MouseState); "NF": the right button went
# down on an open square, so it toggles no flag.
UP_UP, UP_DOWN, UP_DOWN_NF, DOWN_UP, CHORDING, CHORDING_NF, DOWN_UP_AFTER = range(7)
# Added to a mouse state in the kernel's ``buttons`` while the middle button is held.
MIDDLE_HELD = 8
# Game states; ms-toollib's PreFlaging is PRE: something happened before the first opening.
READY, PRE, PLAYING, WON, LOST = range(5)
# Click kinds and effects (clicks.ClickKind, clicks.ClickEffect).
LEFT, RIGHT, DOUBLE = 0, 1, 2
NOTHING, FLAGGED, UNFLAGGED, OPENED, CHORDED, MINE = range(6)
# The glyphs a view of the mouse machine holds besides the numbers 0-8.
HIDDEN: Final = GLYPH_HIDDEN
FLAG: Final = GLYPH_FLAG
WRONG_FLAG: Final = GLYPH_WRONG_FLAG
EXPLODED: Final = GLYPH_EXPLODED
