"""50/50s: those forced now, those to come, and the squares that settle them."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from minesweep import Glyph
from minesweep.formats import parse_view
from minesweep.solver import analyze
from minesweep.solver.fiftyfifty import (
    FiftyFifties,
    could_pair,
    fifty_fifty_or_safe,
    forced_fifty_fifty,
)
from minesweep.solver.policy import DEFAULT_POLICY, choose_guess
from minesweep.solver.whatif import Lookahead

from .helpers import small_position


def test_fifty_fifty_influence_by_hand() -> None:
    """The chance a square is the safe side of a 50/50 that can still form, on tiny boards."""
    # 2x2, two mines, nothing shown: the pair across (1/3), the pair down (1/3)
    # and the block with mines on the other diagonal (1/6).
    view = parse_view("##\n##\n")
    analysis = analyze(view, 2)
    risk = analysis.probability.copy()
    ask = Lookahead(analysis)
    assert FiftyFifties(view, risk, 2).influence((0, 0), ask) == pytest.approx(5 / 6)
    # Capped at the square's chances of being a mine and safe: 1 + 0.9 * 0.5 / 0.5.
    assert FiftyFifties(view, risk, 2).factor((0, 0), ask) == pytest.approx(1.9)
    # A row whose right end is a known mine: the two on the left are a true 50/50.
    view = parse_view("###1\n")
    analysis = analyze(view, 2)
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    risk[0, 2] = np.inf
    ask = Lookahead(analysis)
    assert FiftyFifties(view, risk, 1).influence((0, 0), ask) == pytest.approx(0.5)
    # A number that sees one of the pair but not the other: no 50/50 can form,
    # though the square is safe and its neighbour a mine half the time.
    view = parse_view("##1#\n")
    analysis = analyze(view, 1)
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    ask = Lookahead(analysis)
    assert ask.joint([(0, 1)], [(0, 0)]) == pytest.approx(0.5)
    assert FiftyFifties(view, risk, 1).influence((0, 0), ask) == 0.0


def neighbours_on(shape: tuple[int, ...], square: tuple[int, int]) -> set[tuple[int, int]]:
    """The squares next to ``square`` on a board of ``shape``."""
    rows, cols = shape
    r, c = square
    return {
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
    }


def walls_of(
    shape: tuple[int, ...], one: set[tuple[int, int]], other: set[tuple[int, int]]
) -> set[tuple[int, int]]:
    """The squares that see more of one side than of the other, found by counting."""
    near = set().union(*(neighbours_on(shape, square) for square in one | other)) - one - other
    return {
        s
        for s in near
        if len(neighbours_on(shape, s) & one) != len(neighbours_on(shape, s) & other)
    }


def in_doubt(
    view: np.ndarray, mines: int, layouts: list[frozenset[tuple[int, int]]]
) -> tuple[set[tuple[int, int]], set[tuple[int, int]], int]:
    """The hidden squares, those not a mine in every layout, and the mines among the latter."""
    hidden = {(int(r), int(c)) for r, c in np.argwhere(view == Glyph.HIDDEN)}
    known = {square for square in hidden if all(square in layout for layout in layouts)}
    return hidden, hidden - known, mines - len(known)


def influence_by_definition(
    view: np.ndarray, mines: int, layouts: list[frozenset[tuple[int, int]]], cell: tuple[int, int]
) -> float:
    """The 50/50 influence of ``cell``, from the definition, over every layout.

    Two squares side by side, or the two diagonals of a 2x2 block, can never
    be told apart once every square that sees more of one side than of the
    other holds a mine (those "walls" are found here by counting, not from
    a list of offsets). A structure counts when no wall is revealed and at
    most three walls (and no more than the mines left allow) are not known
    mines; it adds the chance, over the layouts, that those walls and the
    other side are mines and ``cell``'s side is safe, or 0 when some square
    alone is less likely than the policy's floor. Pairs add up, the
    likeliest block counts.
    """
    hidden, doubtful, mines_left = in_doubt(view, mines, layouts)

    def chance(are_mines: list[tuple[int, int]], are_safe: list[tuple[int, int]]) -> float:
        def share(test: Callable[[frozenset[tuple[int, int]]], bool]) -> float:
            return sum(test(layout) for layout in layouts) / len(layouts)

        least = min(
            [share(functools.partial(_holds, s)) for s in are_mines]
            + [share(functools.partial(_lacks, s)) for s in are_safe]
        )
        if least < DEFAULT_POLICY.structure_floor:
            return 0.0
        return share(
            lambda layout: (
                all(s in layout for s in are_mines) and not any(s in layout for s in are_safe)
            )
        )

    def counted(one: set[tuple[int, int]], other: set[tuple[int, int]], limit: int) -> float | None:
        sides = walls_of(view.shape, one, other)
        if sides - hidden:
            return None
        missing = sorted(sides & doubtful)
        if len(missing) > limit:
            return None
        return chance([*missing, *sorted(other)], sorted(one))

    r, c = cell
    total = 0.0
    for partner in [(r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)]:
        if partner in doubtful:
            found = counted({cell}, {partner}, min(DEFAULT_POLICY.pair_missing, mines_left - 1))
            total += found or 0.0
    block = 0.0
    for top, left in [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)]:
        squares = {(top, left), (top, left + 1), (top + 1, left), (top + 1, left + 1)}
        if squares <= doubtful:
            mine_side = {s for s in squares if s != cell and (s[0] == r) != (s[1] == c)}
            limit = min(DEFAULT_POLICY.block_missing, mines_left - 2)
            found = counted(squares - mine_side, mine_side, limit)
            block = max(block, found or 0.0)
    return total + block


# Every layout of the board is listed: a fifth of the usual examples.
@settings(max_examples=max(20, settings().max_examples // 5), deadline=None)
@given(small_position(), st.data())
def test_fifty_fifty_influence_matches_its_definition(
    position: tuple[np.ndarray, int, list[frozenset[tuple[int, int]]]], data: st.DataObject
) -> None:
    view, mines, layouts = position
    analysis = analyze(view, mines)
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    if len(analysis.mines):
        risk[tuple(analysis.mines.T)] = np.inf
    doubtful = [(int(r), int(c)) for r, c in np.argwhere(np.isfinite(risk))]
    assume(doubtful)
    cell = data.draw(st.sampled_from(doubtful))
    mines_left = mines - len(analysis.mines)
    fifty_fifties = FiftyFifties(view, risk, mines_left)
    got = fifty_fifties.influence(cell, Lookahead(analysis))
    assert got == pytest.approx(influence_by_definition(view, mines, layouts, cell), abs=1e-9)
    # The bound that needs no counting is one.
    assert fifty_fifties.influence(cell) >= got - 1e-9


def fifty_fifty_or_safe_by_definition(
    view: np.ndarray, mines: int, layouts: list[frozenset[tuple[int, int]]]
) -> dict[tuple[int, int], float]:
    """The squares a mine only as one side of a 50/50 to come, with their risks, over every layout.

    A square next to a revealed one, neither certain, qualifies through a
    pair (with a neighbour) or a 2x2 block (its diagonal against the other)
    of squares in doubt, whose walls (the squares that see more of one side
    than of the other, found by counting) are all hidden, at most as many
    of them in doubt as the policy's limits allow: in every layout where the
    square is a mine, its side and the walls are mines and the other side
    is safe; and the mirror image (the other side and the walls mines, its
    side safe) is at least as common.
    """
    hidden, doubtful, mines_left = in_doubt(view, mines, layouts)

    def around(square: tuple[int, int]) -> set[tuple[int, int]]:
        return neighbours_on(view.shape, square)

    def ways(are_mines: set[tuple[int, int]], are_safe: set[tuple[int, int]]) -> int:
        return sum(are_mines <= layout and not are_safe & layout for layout in layouts)

    def qualifies(
        cell: tuple[int, int], own: set[tuple[int, int]], other: set[tuple[int, int]], limit: int
    ) -> bool:
        walls = walls_of(view.shape, own, other)
        if walls - hidden or len(walls & doubtful) > limit:
            return False
        as_mine = ways({cell}, set())
        forming = ways(own | walls, other)
        return forming == as_mine and ways(other | walls, own) >= forming

    found = {}
    for cell in sorted(doubtful):
        risk = ways({cell}, set()) / len(layouts)
        if not 0 < risk < 1 or not any(view[s] != Glyph.HIDDEN for s in around(cell)):
            continue
        r, c = cell
        shapes = [
            ({cell}, {partner}, min(DEFAULT_POLICY.pair_missing, mines_left - 1))
            for partner in [(r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)]
            if partner in doubtful
        ]
        for top, left in [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)]:
            block = {(top, left), (top, left + 1), (top + 1, left), (top + 1, left + 1)}
            if block <= doubtful:
                diagonal = {cell, (2 * top + 1 - r, 2 * left + 1 - c)}  # and its opposite corner
                limit = min(DEFAULT_POLICY.block_missing, mines_left - 2)
                shapes.append((diagonal, block - diagonal, limit))
        if any(qualifies(cell, own, other, limit) for own, other, limit in shapes):
            found[cell] = risk
    return found


# Every layout of the board is listed: a fifth of the usual examples.
@settings(max_examples=max(20, settings().max_examples // 5), deadline=None)
@given(small_position())
def test_fifty_fifty_or_safe_matches_its_definition(
    position: tuple[np.ndarray, int, list[frozenset[tuple[int, int]]]],
) -> None:
    view, mines, layouts = position
    want = fifty_fifty_or_safe_by_definition(view, mines, layouts)
    got = fifty_fifty_or_safe(analyze(view, mines), view)
    event(f"squares that qualify: {min(len(want), 2)}")
    if not want:
        assert got is None
        return
    assert got is not None
    # Some square of least risk among those that qualify.
    assert (got.row, got.col) in want
    assert got.probability == pytest.approx(min(want.values()), abs=1e-9)
    assert got.probability == pytest.approx(want[got.row, got.col], abs=1e-9)


def test_a_square_that_is_a_mine_only_in_a_50_50_to_come_is_taken() -> None:
    # Two mines. (0, 0) and (1, 0) are seen by the same squares, so nothing
    # will ever tell which of them holds a mine when one does, and never do
    # both; the same goes for (0, 3) and (1, 3). Each of the four is a mine
    # one time in three, twice as often as the safest squares.
    view = parse_view("#1###\n##1#1\n")
    layouts = [
        frozenset(combo)
        for combo in itertools.combinations(
            [(int(r), int(c)) for r, c in np.argwhere(view == Glyph.HIDDEN)], 2
        )
        if all(
            sum((r + dr, c + dc) in combo for dr in (-1, 0, 1) for dc in (-1, 0, 1)) == view[r, c]
            for r, c in np.argwhere(view != Glyph.HIDDEN).tolist()
        )
    ]
    qualify = fifty_fifty_or_safe_by_definition(view, 2, layouts)
    assert qualify == {square: pytest.approx(1 / 3) for square in [(0, 0), (1, 0), (0, 3), (1, 3)]}
    analysis = analyze(view, 2)
    assert np.nanmin(analysis.probability) == pytest.approx(1 / 6)
    # The exhaustive search sees the whole of this tiny board: opening one
    # of the four is the best first move (a safest square, such as (0, 2),
    # is not).
    searched = choose_guess(analysis, view, 2)
    assert "exhaustive search" in searched.reason
    assert (searched.row, searched.col) in qualify
    # With the searches off, the rule finds one of them.
    no_search = replace(DEFAULT_POLICY, endgame_layouts=1, isolated_layouts=1)
    guess = choose_guess(analysis, view, 2, config=no_search)
    assert (guess.row, guess.col) in qualify
    assert guess.probability == pytest.approx(1 / 3)
    assert "one side of a 50/50" in guess.reason
    # Without the mine total (no lookahead), the rule is not used either.
    plain = choose_guess(analysis, view, 2, lookahead=False, config=no_search)
    assert plain.probability == pytest.approx(1 / 6)


@given(
    st.integers(1, 7).flatmap(
        lambda rows: st.integers(1, 7).flatmap(
            lambda cols: st.tuples(
                st.lists(st.integers(0, 2), min_size=rows * cols, max_size=rows * cols),
                st.just((rows, cols)),
            )
        )
    )
)
def test_the_squares_that_could_pair_are_those_with_structures(
    drawn: tuple[list[int], tuple[int, int]],
) -> None:
    """The whole-board mask of squares with a pair or block around them, square by square.

    Each square is revealed (0), in doubt (1) or a known mine (2). With no
    limit on the walls in doubt, a square is in the mask exactly when
    ``FiftyFifties.structures`` finds a pair or a block around it.
    """
    kinds, shape = drawn
    grid = np.array(kinds).reshape(shape)
    view = np.where(grid == 0, 1, Glyph.HIDDEN).astype(np.uint8)
    risk = np.where(grid == 1, 0.5, np.inf)
    mask = could_pair(grid == 0, grid == 1)
    unlimited = 10**6
    config = replace(DEFAULT_POLICY, pair_missing=unlimited, block_missing=unlimited)
    fifty_fifties = FiftyFifties(view, risk, unlimited, config)
    for r, c in itertools.product(range(shape[0]), range(shape[1])):
        pairs, blocks = fifty_fifties.structures((r, c))
        assert mask[r, c] == bool(pairs or blocks), (r, c)


def test_forced_fifty_fifty_is_found_and_taken_first() -> None:
    # One mine under the two 1s, every other neighbour revealed: nothing will
    # ever tell which of the two it is.
    view = parse_view("..1#\n..1#\n")
    analysis = analyze(view, 1)
    assert analysis.exact(0, 3) == analysis.exact(1, 3) == 0.5
    assert forced_fifty_fifty(analysis, view) in ((0, 3), (1, 3))
    guess = choose_guess(analysis, view)
    assert (guess.row, guess.col) in ((0, 3), (1, 3))
    assert "forced 50/50" in guess.reason


def test_no_forced_fifty_fifty_when_a_neighbour_may_still_tell() -> None:
    # (2, 3) is safe, and its number would tell whether (1, 3) is the mine.
    view = parse_view("..1#\n..1#\n..##\n")
    analysis = analyze(view, 1)
    assert analysis.exact(0, 3) == analysis.exact(1, 3) == 0.5
    assert forced_fifty_fifty(analysis, view) is None


def _holds(square: tuple[int, int], layout: frozenset[tuple[int, int]]) -> bool:
    return square in layout


def _lacks(square: tuple[int, int], layout: frozenset[tuple[int, int]]) -> bool:
    return square not in layout
