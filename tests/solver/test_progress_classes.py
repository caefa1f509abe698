"""The progress tie-break's classes of alike interior squares (``solver/_progress.py``).

:func:`interior_class` claims that two squares of one class (and one risk)
have the same what-if outcomes, to the bit, at the same cost in states, so
that :func:`progress_square` may ask once per class. Checked here against
the what-if itself (:func:`._lookahead.outcomes`, counting per number and
in one pass, as the tie-break asks), square by square, on boards large
enough to hold interior squares away from every number.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweep import Glyph, Minefield
from minesweep.solver import analyze
from minesweep.solver._lookahead import outcomes
from minesweep.solver._progress import interior_class
from minesweep.solver.whatif import DEFAULT_STATES, Lookahead


@st.composite
def interior_position(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """A view of a real field with a revealed patch in one corner and a wide hidden rest."""
    rows, cols = draw(st.integers(5, 8)), draw(st.integers(5, 8))
    mines = draw(st.integers(2, rows * cols // 4))
    order = draw(st.permutations(range(rows * cols)))
    mask = np.zeros(rows * cols, bool)
    mask[list(order[:mines])] = True
    field = Minefield(mask.reshape(rows, cols))
    height, width = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    view = np.full((rows, cols), Glyph.HIDDEN, np.uint8)
    for r in range(height):
        for c in range(width):
            if not field.mines[r, c]:
                view[r, c] = field.numbers[r, c]
    return view, mines


@settings(max_examples=60, deadline=None)
@given(interior_position())
def test_squares_of_one_class_have_the_same_outcomes(position: tuple[np.ndarray, int]) -> None:
    view, mines = position
    analysis = analyze(view, mines)
    tables = Lookahead(analysis).tables()
    assume(tables is not None)
    assert tables is not None
    cols = view.shape[1]
    hidden = [int(i) for i in np.flatnonzero(view.ravel() > 8)]
    by_class: dict[tuple[int, float], list[int]] = {}
    for square in hidden:
        kind = int(interior_class(tables, square))
        r, c = divmod(square, cols)
        near_a_group = any(
            tables.group_at[rr, cc] >= 0
            for rr in range(max(0, r - 1), min(view.shape[0], r + 2))
            for cc in range(max(0, c - 1), min(cols, c + 2))
            if view[rr, cc] > 8
        )
        assert (kind < 0) == (near_a_group or bool(tables.settled_mask[r, c]))
        if kind >= 0:
            by_class.setdefault((kind, float(analysis.probability[r, c])), []).append(square)
    alike = [squares for squares in by_class.values() if len(squares) > 1]
    assume(alike)
    # The tie-break asks the one-pass what-if; the claim holds for both.
    for once, squares in ((once, squares) for once in (0, 1) for squares in alike):
        first = outcomes(tables, squares[0], DEFAULT_STATES, once)
        for other in squares[1:]:
            again = outcomes(tables, other, DEFAULT_STATES, once)
            assert again[0] == first[0]
            assert again[4] == first[4]  # the same states spent
            for a, b in zip(again[1:4], first[1:4], strict=True):
                assert np.array_equal(a, b)
