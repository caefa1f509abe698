"""The survival search (:mod:`minesweep.solver._survival`) against plain recursion over layouts."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pytest

from minesweep._jit import entry, interpreting
from minesweep.errors import SettingsError
from minesweep.solver._survival import survival_square, survival_value
from minesweep.solver.counting import COUNTING_METHODS, plain_width
from minesweep.solver.errors import MAX_COEFFICIENTS
from minesweep.solver.guess import PolicyConfig
from minesweep.solver.tilted import TINY
from minesweep.solver.whatif import DEFAULT_STATES, log_factorials
from minesweep.squares import GLYPH_HIDDEN

Layout = frozenset[int]


def _neighbours(square: int, rows: int, cols: int) -> list[int]:
    r, c = divmod(square, cols)
    return [
        rr * cols + cc
        for rr in range(max(0, r - 1), min(rows, r + 2))
        for cc in range(max(0, c - 1), min(cols, c + 2))
        if (rr, cc) != (r, c)
    ]


def _shown(layout: Layout, square: int, rows: int, cols: int) -> int:
    return sum(n in layout for n in _neighbours(square, rows, cols))


def _reference(
    layouts: list[Layout], hidden: frozenset[int], depth: int, rows: int, cols: int
) -> Fraction:
    """The chance of surviving ``depth`` clicks, each chosen best, by plain recursion (exact)."""
    if all(square in layout for layout in layouts for square in hidden):
        return Fraction(1)  # every hidden square is a mine: nothing left to open
    best = Fraction(0)
    for square in hidden:
        safe = [layout for layout in layouts if square not in layout]
        if depth == 1:
            best = max(best, Fraction(len(safe), len(layouts)))
            continue
        value = Fraction(0)
        for number in sorted({_shown(layout, square, rows, cols) for layout in safe}):
            alike = [layout for layout in safe if _shown(layout, square, rows, cols) == number]
            below = _reference(alike, hidden - {square}, depth - 1, rows, cols)
            value += Fraction(len(alike), len(layouts)) * below
        best = max(best, value)
    return best


def _position(
    seed: int, rows: int, cols: int, mines: int
) -> tuple[npt.NDArray[np.uint8], list[Layout], frozenset[int]] | None:
    """A random view whose hidden squares all touch a revealed one, and its layouts."""
    rng = np.random.default_rng(seed)
    squares = rows * cols
    field = frozenset(int(s) for s in rng.choice(squares, mines, replace=False))
    safe = [s for s in range(squares) if s not in field]
    opened = {int(s) for s in rng.choice(safe, int(rng.integers(2, len(safe) - 1)), replace=False)}
    hidden = frozenset(s for s in range(squares) if s not in opened)
    if not all(any(n in opened for n in _neighbours(s, rows, cols)) for s in hidden):
        return None  # an interior square: the search tries only one of them
    view = np.full((rows, cols), GLYPH_HIDDEN, np.uint8)
    for s in opened:
        view[divmod(s, cols)] = _shown(field, s, rows, cols)
    layouts = [
        frozenset(chosen)
        for chosen in itertools.combinations(sorted(hidden), mines)
        if all(_shown(frozenset(chosen), s, rows, cols) == view[divmod(s, cols)] for s in opened)
    ]
    return view, layouts, hidden


def _knobs(squares: int, mines: int) -> tuple[object, ...]:
    # cut 0 and room for every square: no candidate is left out.
    return (
        mines, plain_width(COUNTING_METHODS), MAX_COEFFICIENTS, TINY,
        COUNTING_METHODS.plain_components, log_factorials(squares), 0.005, 1.0, 0.0, squares,
        DEFAULT_STATES,
    )  # fmt: skip


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_the_value_is_the_best_chance_of_surviving_depth_clicks(depth: int) -> None:
    rows, cols, mines = 3, 4, 3
    checked = 0
    for seed in range(400):
        found = _position(seed, rows, cols, mines)
        if found is None:
            continue
        view, layouts, hidden = found
        expected = _reference(layouts, hidden, depth, rows, cols)
        with interpreting():  # numba's compile would cost minutes; the code is the same
            value = entry(survival_value)(view, depth, _knobs(rows * cols, mines), 10**6)
        assert value == pytest.approx(float(expected), abs=1e-9), (seed, view)
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_a_search_out_of_nodes_keeps_nothing() -> None:
    rows, cols, mines = 3, 4, 3
    for seed in range(400):
        found = _position(seed, rows, cols, mines)
        if found is not None and len(found[2]) > 3:
            break
    view = found[0] if found else None
    assert view is not None
    knobs = _knobs(rows * cols, mines)
    with interpreting():
        assert entry(survival_value)(view, 3, knobs, 1) == -1.0
        square = entry(survival_square)(view, 0, 3, knobs, 1, False, False, 0.9, 3, 3, 0.02)
    assert square == -1


def test_the_depth_is_three_or_four_or_none() -> None:
    assert PolicyConfig(survival_depth=3).survival_depth == 3
    with pytest.raises(SettingsError, match="survival_depth"):
        PolicyConfig(survival_depth=2)


def test_a_hint_says_the_survival_search_chose_it_even_when_it_is_the_plain_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Expert, a 1 in the corner and nothing else open. Whatever square the
    # search hands back, the plain choice among them, the reason is the
    # search's: it is why that square was played.
    from minesweep.solver import analyze, policy
    from minesweep.solver.policy import choose_guess

    view = np.full((16, 30), GLYPH_HIDDEN, np.uint8)
    view[0, 0] = 1
    analysis = analyze(view, 99)
    strongest = PolicyConfig.preset("strongest")
    plain = choose_guess(analysis, view, 99, config=PolicyConfig(lookahead=False))
    for row, col in [(plain.row, plain.col), (0, 2)]:
        monkeypatch.setattr(policy, "_survival_guess", lambda *_, at=row * 30 + col: at)
        guess = choose_guess(analysis, view, 99, config=strongest)
        assert (guess.row, guess.col) == (row, col)
        assert guess.probability == pytest.approx(float(analysis.probability[row, col]))
        assert guess.reason == "the best chance of surviving the next 3 guesses"
