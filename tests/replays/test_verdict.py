"""The solver's verdict on a click, against counting every layout by hand on small boards."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep.replays.verdict import click_verdict, single_number_safe
from minesweep.squares import GLYPH_FLAG, GLYPH_HIDDEN


def layouts(view: np.ndarray, mines: int) -> list[frozenset[tuple[int, int]]]:
    """Every placement of ``mines`` mines on the hidden squares that agrees with every number."""
    rows, cols = view.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] >= GLYPH_HIDDEN]
    agreeing = []
    for chosen in itertools.combinations(hidden, mines):
        placed = frozenset(chosen)
        if all(
            sum(
                (rr, cc) in placed
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if (rr, cc) != (r, c)
            )
            == view[r, c]
            for r in range(rows)
            for c in range(cols)
            if view[r, c] < GLYPH_HIDDEN
        ):
            agreeing.append(placed)
    return agreeing


@st.composite
def positions(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    most = min(4, len(squares) - 1)
    mines = set(draw(st.lists(st.sampled_from(squares), min_size=1, max_size=most, unique=True)))
    safe = [square for square in squares if square not in mines]
    opened = set(draw(st.lists(st.sampled_from(safe), max_size=len(safe) - 1, unique=True)))
    view = np.full((rows, cols), GLYPH_HIDDEN, np.uint8)
    for r, c in opened:
        view[r, c] = sum(
            (rr, cc) in mines for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
        )
    # A flag the player put anywhere hidden: a claim, which the verdict must ignore.
    hidden = [square for square in squares if square not in opened]
    if draw(st.booleans()):
        view[draw(st.sampled_from(hidden))] = GLYPH_FLAG
    return view, len(mines)


@settings(deadline=None)
@given(positions(), st.data())
def test_the_chance_of_a_click_is_the_share_of_layouts_with_a_mine_there(
    position: tuple[np.ndarray, int], data: st.DataObject
) -> None:
    view, mines = position
    plain = np.where(view == GLYPH_FLAG, GLYPH_HIDDEN, view).astype(np.uint8)
    every = layouts(plain, mines)
    hidden = [(int(r), int(c)) for r, c in np.argwhere(plain >= GLYPH_HIDDEN)]
    square = data.draw(st.sampled_from(hidden))
    verdict = click_verdict(view, mines, [square])
    expected = Fraction(sum(square in layout for layout in every), len(every))
    assert verdict.mine_chance == expected
    assert verdict.certain == (expected == 0)
    safe_anywhere = [s for s in hidden if not any(s in layout for layout in every)]
    assert verdict.safe_squares == len(safe_anywhere)
    assert verdict.avoidable == (expected > 0 and bool(safe_anywhere))
    assert verdict.forced == (expected > 0 and not safe_anywhere)
    # What the single-number rules prove safe is safe; what they miss, counting found.
    by_rules = single_number_safe(plain)
    assert all(not any((r, c) in layout for layout in every) for r, c in np.argwhere(by_rules))
    assert verdict.by_counting == (expected == 0 and not by_rules[square])


def test_a_one_two_one_needs_counting() -> None:
    """Below 1-2-1 the middle square is safe; no single number shows it."""
    view = np.array([[1, 2, 1], [GLYPH_HIDDEN] * 3], np.uint8)
    verdict = click_verdict(view, 2, [(1, 1)])
    assert (verdict.certain, verdict.by_counting, verdict.luck) == (True, True, 0.0)
    corner = click_verdict(view, 2, [(1, 0)])
    assert (corner.mine_chance, corner.guess, corner.avoidable) == (Fraction(1), True, True)
