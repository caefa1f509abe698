"""The one-pass count (``solver/_count_once.py``) gives the same bits as before it was made cheaper.

The progress tie-break's picks hang on exact comparisons of what
:func:`._count_once.count_by_number` counts, so the cheaper kernel must add
the same products in the same order: on the merged components of real
games' frontier squares, its layouts, mines and states equal, bit for bit,
those of the earlier text kept in ``count_once_before.py``.
"""

from __future__ import annotations

import types
import warnings
from typing import Any

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweep import Game
from minesweep._jit import _kernel_of
from minesweep.solver import _whatif
from minesweep.solver._count_once import count_by_number
from minesweep.solver.whatif import DEFAULT_STATES, Lookahead
from minesweep.squares import GLYPH_HIDDEN

from .count_once_before import count_by_number_before
from .helpers import analyze_in_budget, midgame


def counts_asked(tables: Any, square: int) -> list[tuple[Any, ...]]:
    """The arguments the what-if hands :func:`count_by_number` for ``square`` (as the tie-break)."""
    asked: list[tuple[Any, ...]] = []

    def recorded(*arguments: Any) -> Any:
        asked.append(tuple(np.copy(a) if isinstance(a, np.ndarray) else a for a in arguments))
        return count_by_number(*arguments)

    # The what-if's own text, run by Python with the count swapped for the
    # recorder; the kernels it calls stay compiled.
    func = _kernel_of(_whatif.square_outcomes).py_func
    namespace = dict(func.__globals__, count_by_number=recorded)
    watched = types.FunctionType(func.__code__, namespace, func.__name__, func.__defaults__)
    cols = tables.glyphs.shape[1]
    row, col = square // cols, square % cols
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # Python lists reach the compiled planner as reflected lists.
        warnings.simplefilter("ignore")
        watched(
            row, col, tables.glyphs, GLYPH_HIDDEN, 1.0 - tables.probability[row, col],
            tables.sure, tables.settled_mask, tables.interior_mask, tables.group_at,
            tables.group_start, tables.group_cells, tables.witness_start,
            tables.group_witnesses, tables.targets, tables.component_of, tables.component_start,
            tables.component_groups, tables.lay_start, tables.lay, tables.size_start,
            tables.sizes, tables.mines_start, tables.mines, tables.mine_count, tables.settled,
            tables.interior, tables.log_factorial, DEFAULT_STATES, 2,
        )  # fmt: skip
    return asked


@settings(max_examples=60, deadline=None)
@given(midgame(), st.data())
def test_the_counts_of_real_frontier_squares_are_the_same_bits(
    game: Game, data: st.DataObject
) -> None:
    assume(not game.is_over)
    view = game.glyphs()
    tables = Lookahead(analyze_in_budget(view, game.mine_count)).tables()
    assume(tables is not None)
    assert tables is not None
    frontier = [
        int(i)
        for i in np.flatnonzero(tables.group_at.ravel() >= 0)
        if not tables.settled_mask.flat[i]
    ]
    assume(frontier)
    squares = data.draw(st.lists(st.sampled_from(frontier), min_size=1, max_size=4, unique=True))
    counted = 0
    for square in squares:
        for arguments in counts_asked(tables, square):
            layouts, mines, states = count_by_number(*arguments)
            layouts_before, mines_before, states_before = count_by_number_before(*arguments)
            assert states == states_before
            assert layouts.tobytes() == layouts_before.tobytes()
            assert mines.tobytes() == mines_before.tobytes()
            counted += 1
    assume(counted)


@settings(max_examples=30, deadline=None)
@given(midgame(), st.data())
def test_a_budget_too_small_is_refused_alike(game: Game, data: st.DataObject) -> None:
    assume(not game.is_over)
    tables = Lookahead(analyze_in_budget(game.glyphs(), game.mine_count)).tables()
    assume(tables is not None)
    assert tables is not None
    frontier = [int(i) for i in np.flatnonzero(tables.group_at.ravel() >= 0)]
    assume(frontier)
    square = data.draw(st.sampled_from(frontier))
    asked = counts_asked(tables, square)
    assume(asked)
    arguments = asked[0]
    _, _, states = count_by_number(*arguments)
    assume(states > 1)
    # One state short of what it needs, each refuses (-1) where the other does.
    short = (*arguments[:-1], states - 1)
    assert count_by_number(*short)[2] == count_by_number_before(*short)[2] == -1
