"""The squares a first-click rule keeps clear of mines: a box around the first click.

``safe`` keeps the clicked square, ``opening`` it and its neighbours (fewer
at an edge), ``none`` nothing. Both engines ask this one kernel: the vector
engine's compiled laying (:func:`minesweep.rules.lay.lay_field`) inlines it,
and :func:`minesweep.generate.generate_field` calls it as plain Python
(:func:`minesweep.rules.plain`: four comparisons, not worth loading numba).
"""

from __future__ import annotations

from .._jit import kernel
from .codes import RULE_OPENING, RULE_SAFE

__all__ = ["cleared_box"]


@kernel(cache=True, part="vector", inline="always")
def cleared_box(rows, cols, row, col, rule):  # pragma: no cover - compiled
    """The box the rule (a code of :mod:`.codes`) keeps clear around ``row, col``.

    Returns its first and last row and column, ``(top, bottom, left, right)``;
    an empty box (``bottom < top``) for the rule that keeps nothing clear.
    """
    if rule == RULE_SAFE:
        return row, row, col, col
    if rule == RULE_OPENING:
        return max(row - 1, 0), min(row + 1, rows - 1), max(col - 1, 0), min(col + 1, cols - 1)
    return 0, -1, 0, -1
