"""The compiled endgame search and layout enumeration against reference searches."""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from minesweep.solver._endgame import layouts
from minesweep.solver._search import TOO_LARGE, search
from minesweep.squares import OUTCOME_MINE


@st.composite
def shown_tables(draw: st.DrawFn) -> np.ndarray:
    """What each square shows in each layout (OUTCOME_MINE: a mine), no two layouts alike.

    Not drawn from boards: any table is a position of the search, and a few
    distinct numbers make many squares dead (one number wherever safe) or
    alike (the same split), which the search treats specially.
    """
    squares = draw(st.integers(1, 7))
    highest = draw(st.sampled_from([1, 2, 8]))
    cell = st.one_of(st.integers(0, highest), st.just(OUTCOME_MINE))
    row = st.lists(cell, min_size=squares, max_size=squares).map(tuple)
    rows = draw(st.lists(row, min_size=1, max_size=12, unique=True))
    return np.array(rows, np.int64)


def best_chance(rows: frozenset[tuple[int, ...]]) -> float:
    """The rules' value of a position, from the definition: the best move's chance of winning."""
    if len(rows) == 1:
        return 1.0
    return max(
        (
            chance
            for square in range(len(next(iter(rows))))
            if (chance := move_chance(rows, square)) is not None
        ),
        default=0.0,
    )


@cache
def move_chance(rows: frozenset[tuple[int, ...]], square: int) -> float | None:
    """Opening ``square``: the layouts where it is a mine are lost, the rest split by its number.

    None for a move that changes nothing (safe everywhere, one number).
    """
    parts: dict[int, set[tuple[int, ...]]] = {}
    for layout in rows:
        if layout[square] != OUTCOME_MINE:
            parts.setdefault(layout[square], set()).add(layout)
    if len(parts) == 1 and sum(map(len, parts.values())) == len(rows):
        return None
    return sum(len(part) * best_chance(frozenset(part)) for part in parts.values()) / len(rows)


@settings(max_examples=300, deadline=None)
@given(shown_tables())
def test_compiled_search_finds_the_value_of_any_position(shown: np.ndarray) -> None:
    chance, square = search(shown, 1_000_000)
    rows = frozenset(map(tuple, shown.tolist()))
    expected = best_chance(rows)
    assert math.isclose(chance, expected, abs_tol=1e-9)
    if len(rows) == 1:
        assert square == -1
    else:
        # The square it names wins that chance.
        assert math.isclose(move_chance(rows, square) or 0.0, expected, abs_tol=1e-9)
    event(f"layouts: {len(rows)}")


def test_compiled_search_gives_up_past_its_limit() -> None:
    mine = OUTCOME_MINE
    shown = np.array([[0, mine], [1, mine], [mine, 0], [mine, 1]], np.int64)
    assert search(shown, 0) == (TOO_LARGE, -1)
    assert search(shown, 10)[0] == pytest.approx(0.5)


@given(
    st.integers(0, 10).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(st.lists(st.integers(0, n - 1), unique=True), st.integers(-1, 4))
                if n
                else st.tuples(st.just([]), st.integers(-1, 1)),
                max_size=5,
            ),
            st.integers(0, n + 1),
            st.integers(0, 40),
        )
    )
)
def test_compiled_layouts_are_every_placement_meeting_the_constraints(
    problem: tuple[int, list[tuple[list[int], int]], int, int],
) -> None:
    """Every way to put the mines on the squares that gives each constraint its count.

    The reference tries every subset of the squares; the listing must hold
    each once (in any order), or be None when there are more than the limit.
    """
    squares, constraints, mines, limit = problem
    touching: list[list[int]] = [[] for _ in range(squares)]
    for index, (around, _) in enumerate(constraints):
        for square in around:
            touching[square].append(index)
    touch_start = np.cumsum([0] + [len(t) for t in touching])
    touch = np.array([index for t in touching for index in t], np.int64)
    need = np.array([value for _, value in constraints], np.int64)
    free = np.array([len(around) for around, _ in constraints], np.int64)
    want = {
        combo
        for combo in itertools.combinations(range(squares), mines)
        if all(sum(square in combo for square in around) == value for around, value in constraints)
    }
    if np.any(need < 0) or np.any(need > free):
        assert not want  # the caller answers these without listing
        return
    got = layouts(touch_start, touch, need, free, mines, limit)
    if len(want) > limit:
        assert got is None
        return
    assert got is not None
    assert got.shape == (len(want), squares)
    listed = [tuple(np.flatnonzero(row).tolist()) for row in got]
    assert len(set(listed)) == len(listed)
    assert set(listed) == want
