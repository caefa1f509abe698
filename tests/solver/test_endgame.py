"""Exhaustive searches: the whole endgame, and a part cut off from the rest."""

from __future__ import annotations

import itertools
import math
from functools import cache

import numpy as np
import pytest
from hypothesis import assume, event, example, given, settings
from hypothesis import strategies as st

from minesweep import Glyph, InvalidBoardError
from minesweep.formats import parse_view, to_view
from minesweep.solver import analyze
from minesweep.solver.endgame import endgame_guess, isolated_guess
from minesweep.solver.policy import DEFAULT_POLICY, choose_guess
from minesweep.squares import MAX_NUMBER

#: A set of squares, and a set of mine layouts (each a set of squares).
Cells = frozenset[tuple[int, int]]
Layouts = frozenset[Cells]


def test_endgame_search_weighs_whole_games() -> None:
    # A pure 50/50: whichever square, half the layouts are won.
    guess = endgame_guess(parse_view("11\n##\n"), 1)
    assert guess is not None
    assert guess.probability == 0.5
    assert "wins 50.0%" in guess.reason
    # One mine among the three squares around a 1: each is a 1-in-3 risk, and
    # a safe one always shows 1 (it sees both others), so a 50/50 follows:
    # every first move wins 2/3 * 1/2 = 1/3.
    guess = endgame_guess(parse_view("1#\n##\n"), 1)
    assert guess is not None
    assert guess.probability == pytest.approx(1 / 3)
    assert "search of the 3 layouts left: this square wins 33.3%" in guess.reason


def test_endgame_search_sets_certain_mines_aside() -> None:
    # Mines every number pins down, then the 50/50 of "11" over "##": more
    # hidden squares than the search takes, but only two in doubt.
    blocks = DEFAULT_POLICY.endgame_squares // 2
    total = 2 * blocks + 1
    view = parse_view("22\n##\n22\n..\n" * blocks + "11\n##\n")
    analysis = analyze(view, total)
    assert len(analysis.mines) == total - 1
    assert endgame_guess(view, total) is None  # too many squares to search
    guess = endgame_guess(view, total, analysis.mines)
    assert guess is not None
    assert (guess.row, guess.col) in ((4 * blocks + 1, 0), (4 * blocks + 1, 1))
    assert guess.probability == 0.5
    assert "search of the 2 layouts left: this square wins 50.0%" in guess.reason
    chosen = choose_guess(analysis, view, total)
    assert (chosen.row, chosen.col, chosen.reason) == (guess.row, guess.col, guess.reason)


def small_field(
    draw: st.DrawFn, most_mines: int
) -> tuple[int, int, set[tuple[int, int]], list[tuple[int, int]]]:
    """Up to 4x4 squares with a few mines: the shape, the mines and the safe squares."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    cells = list(itertools.product(range(rows), range(cols)))
    mines = set(
        draw(st.lists(st.sampled_from(cells), min_size=1, max_size=most_mines, unique=True))
    )
    safe = [cell for cell in cells if cell not in mines]
    assume(safe)
    return rows, cols, mines, safe


@st.composite
def endgames(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """A small view: a random field with a random set of its safe squares shown."""
    rows, cols, mines, safe = small_field(draw, 5)
    shown = draw(st.lists(st.sampled_from(safe), min_size=1, unique=True))
    view = np.full((rows, cols), Glyph.HIDDEN, np.uint8)
    for r, c in shown:
        view[r, c] = sum((rr, cc) in mines for rr, cc in _around(rows, cols, r, c))
    return view, len(mines)


def _around(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    return [
        (rr, cc)
        for rr in range(max(0, r - 1), min(rows, r + 2))
        for cc in range(max(0, c - 1), min(cols, c + 2))
        if (rr, cc) != (r, c)
    ]


def win_chances(view: np.ndarray, mines: int) -> dict[tuple[int, int], float]:
    """The reference: each first move's chance of winning under best play after it.

    Written from the rules alone: every layout of the mines over the hidden
    squares that agrees with the numbers is equally likely; opening a safe
    square shows its number and, when that is 0, opens its neighbours in
    turn; the game is won when every safe square is open. No pruning, no
    setting aside: every move is tried at every step.
    """
    rows, cols = view.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] == Glyph.HIDDEN]
    shown = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] <= MAX_NUMBER]
    layouts = [
        frozenset(combo)
        for combo in itertools.combinations(hidden, mines)
        if all(sum(n in combo for n in _around(rows, cols, r, c)) == view[r, c] for r, c in shown)
    ]

    def opened(
        cell: tuple[int, int], layout: frozenset[tuple[int, int]]
    ) -> frozenset[tuple[int, int]]:
        seen, stack = {cell}, [cell]
        while stack:
            r, c = stack.pop()
            if not any(n in layout for n in _around(rows, cols, r, c)):
                for n in _around(rows, cols, r, c):
                    if n in hidden and n not in seen:
                        seen.add(n)
                        stack.append(n)
        return frozenset(seen)

    def move(cell: tuple[int, int], options: Layouts, open_: Cells) -> float:
        outcomes: dict[tuple[tuple[tuple[int, int], int], ...], list[Cells]] = {}
        for layout in options:
            if cell not in layout:
                now = opened(cell, layout)
                numbers = tuple(
                    sorted(
                        (n, sum(m in layout for m in _around(rows, cols, n[0], n[1]))) for n in now
                    )
                )
                outcomes.setdefault(numbers, []).append(layout)
        total = 0.0
        for shown, group in outcomes.items():
            total += len(group) * value(frozenset(group), open_ | {n for n, _ in shown})
        return total / len(options)

    @cache
    def value(options: Layouts, open_: Cells) -> float:
        closed = [cell for cell in hidden if cell not in open_]
        if all(cell in layout for layout in options for cell in closed):
            return 1.0
        return max(move(cell, options, open_) for cell in closed)

    start = frozenset(layouts)
    return {cell: move(cell, start, frozenset()) for cell in hidden}


@settings(max_examples=100, deadline=None)
@given(endgames())
def test_endgame_search_finds_the_best_move(position: tuple[np.ndarray, int]) -> None:
    view, mines = position
    analysis = analyze(view, mines)
    # The reference below takes seconds past fourteen squares in doubt or a
    # hundred layouts (the search itself takes far more).
    doubt = int(np.count_nonzero(view == Glyph.HIDDEN)) - len(analysis.mines)
    assume(doubt <= 14 and analysis.log_layouts <= math.log(100))
    guess = endgame_guess(view, mines, analysis.mines)
    # Positions with nothing left to guess, or beyond the search's limits, are declined.
    assume(guess is not None)
    assert guess is not None
    chances = win_chances(view, mines)
    assert math.isclose(chances[guess.row, guess.col], max(chances.values()), abs_tol=1e-9)


@st.composite
def pockets(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """A small view with every safe square shown but a few: what is left to guess at the end."""
    rows, cols, mines, safe = small_field(draw, 4)
    kept = draw(st.lists(st.sampled_from(safe), min_size=1, max_size=2, unique=True))
    view = np.full((rows, cols), Glyph.HIDDEN, np.uint8)
    for r, c in safe:
        if (r, c) not in kept:
            view[r, c] = sum((rr, cc) in mines for rr, cc in _around(rows, cols, r, c))
    return view, len(mines)


@st.composite
def walled_off(draw: st.DrawFn) -> tuple[np.ndarray, int, np.ndarray, int]:
    """A board with a small part walled off, and that part alone as a view of its own.

    The part is a small endgame; then a revealed column that sees it, a
    revealed column that sees the rest, and the rest: a hidden block two or
    three wide with one mine (its squares next to the wall have hidden
    neighbours further in, never all mines, so it is never cut off).
    Returns the board's view and mine total, then the part's (with its own
    wall column).
    """
    part, part_mines = draw(pockets())
    rows, cols = part.shape
    width = draw(st.integers(2, 3))
    rest = list(itertools.product(range(rows), range(cols + 2, cols + 2 + width)))
    rest_mines = {draw(st.sampled_from(rest))}
    # The part's layout is one the part's numbers allow: draw one by the reference.
    layouts = part_layouts(part, part_mines)
    assume(layouts)
    mines = set(draw(st.sampled_from(layouts))) | rest_mines
    view = np.full((rows, cols + 2 + width), Glyph.HIDDEN, np.uint8)
    view[:, :cols] = part
    shape = view.shape
    for r in range(rows):
        for c in (cols, cols + 1):
            view[r, c] = sum(n in mines for n in _around(shape[0], shape[1], r, c))
    alone = view[:, : cols + 1].copy()
    return view, len(mines), alone, part_mines


def part_layouts(view: np.ndarray, mines: int) -> list[frozenset[tuple[int, int]]]:
    rows, cols = view.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] == Glyph.HIDDEN]
    shown = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] <= MAX_NUMBER]
    return [
        frozenset(combo)
        for combo in itertools.combinations(hidden, mines)
        if all(sum(n in combo for n in _around(rows, cols, r, c)) == view[r, c] for r, c in shown)
    ]


def number_mines(view: np.ndarray) -> set[tuple[int, int]]:
    """The squares a number alone makes mines: every hidden neighbour of a
    number showing as many as it has hidden neighbours."""
    rows, cols = view.shape
    found: set[tuple[int, int]] = set()
    for r in range(rows):
        for c in range(cols):
            if view[r, c] <= MAX_NUMBER:
                around = [n for n in _around(rows, cols, r, c) if view[n] == Glyph.HIDDEN]
                if around and len(around) == view[r, c]:
                    found.update(around)
    return found


def fixed_part(view: np.ndarray, cell: tuple[int, int]) -> set[tuple[int, int]] | None:
    """The squares linked to hidden ``cell`` through the numbers, if they are a part to search.

    From the definition: the squares a number alone makes mines are mines
    (:func:`number_mines`: a wall, like the numbers); the other hidden
    squares reached from ``cell`` by way of numbers they share; the layouts
    of those squares the numbers next to them allow (of any number of
    mines). They are a part to search when every layout has as many mines,
    there are more than one (something to guess) and at most
    ISOLATED_LAYOUTS, and none leaves a square safe in all of them. None
    otherwise.
    """
    rows, cols = view.shape
    walls = number_mines(view)
    if cell in walls:
        return None
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] == Glyph.HIDDEN]
    hidden = [square for square in hidden if square not in walls]
    shown = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] <= MAX_NUMBER]
    seen_by = {square: {n for n in _around(rows, cols, *square) if n in shown} for square in hidden}
    if not seen_by[cell]:
        return None
    linked, stack = {cell}, [cell]
    while stack:
        square = stack.pop()
        for other in hidden:
            if other not in linked and seen_by[square] & seen_by[other]:
                linked.add(other)
                stack.append(other)
    numbers = set().union(*(seen_by[square] for square in linked))
    squares = sorted(linked)
    layouts = [
        set(combo)
        for size in range(len(squares) + 1)
        for combo in itertools.combinations(squares, size)
        if all(
            sum(n in combo or n in walls for n in _around(rows, cols, *number)) == view[number]
            for number in numbers
        )
    ]
    if (
        len({len(layout) for layout in layouts}) == 1
        and all(any(square in layout for layout in layouts) for square in squares)
        and 1 < len(layouts) <= DEFAULT_POLICY.isolated_layouts
    ):
        return linked
    return None


def cut_off_alone(view: np.ndarray) -> bool:
    """Whether a view's hidden squares, but those a number alone makes mines, are all
    one part to search (see :func:`fixed_part`).

    Then no other hidden square can touch them: the part is cut off.
    """
    walls = number_mines(view)
    hidden = [
        tuple(cell)
        for cell in np.argwhere(view == Glyph.HIDDEN).tolist()
        if tuple(cell) not in walls
    ]
    part = fixed_part(view, (hidden[0][0], hidden[0][1])) if hidden else None
    return part is not None and len(part) == len(hidden)


_WALLED_BY_NUMBER_MINES = parse_view("###21##\n2##21##\n12#1.##\n")


# Cheap examples, of which only some are cut off: twice the usual number.
@settings(max_examples=2 * settings().max_examples, deadline=None)
@given(walled_off())
# The 1 at (2, 0) and the 2 at (0, 3) make (1, 1), (0, 2) and (1, 2) mines:
# (0, 0) and (0, 1) are a 50/50 walled off by them, (2, 2) is safe apart.
@example((_WALLED_BY_NUMBER_MINES, 5, _WALLED_BY_NUMBER_MINES[:, :4].copy(), 4))
def test_an_isolated_part_is_searched_on_its_own(
    position: tuple[np.ndarray, int, np.ndarray, int],
) -> None:
    """A walled-off part is searched when it is cut off, at its best move; never a loose one.

    The rest of the board is never cut off, so any guess comes from the
    part, and from a piece of it whose layouts all hold as many mines. The
    reference plays the part alone, with its own mines, by the rules (every
    move tried at every step).
    """
    view, mines, alone, part_mines = position
    guess = isolated_guess(analyze(view, mines), view)
    if guess is not None:
        # From the part, and from a piece of it whose mine count is fixed.
        assert guess.col < alone.shape[1]
        assert fixed_part(alone, (guess.row, guess.col)) is not None
    qualifies = cut_off_alone(alone)
    event(f"cut off: {qualifies}")
    if qualifies:
        assert guess is not None
        chances = win_chances(alone, part_mines)
        best = max(chances.values())
        assert math.isclose(chances[guess.row, guess.col], best, abs_tol=1e-9)
        assert f"clears it {best:.1%} of the time" in guess.reason


def test_a_cut_off_part_is_searched_before_the_rest() -> None:
    # Left, three columns: the 3 and the 2s put mines at (0, 1) and (2, 1)
    # and one more among (0, 0), (1, 0), (2, 0), all as likely. Opening
    # (0, 0) or (2, 0) clears the part two times in three (a safe corner
    # shows which of the other two holds the mine); the middle, one in three
    # (it shows 3 either way). Then two columns of 0s (which make column 5
    # certainly safe), and a hidden block with three mines further right,
    # wide enough (6,072 layouts in all) that the endgame search of the
    # whole board does not run. The autoplayer would open column 5
    # first; the part's best guess does not depend on it.
    mines = {(0, 1), (2, 1), (1, 0), (0, 7), (2, 8), (1, 9)}
    view = np.full((3, 14), Glyph.HIDDEN, np.uint8)
    for r, c in [(1, 1), *itertools.product(range(3), range(2, 5))]:
        view[r, c] = sum(n in mines for n in _around(3, 14, r, c))
    assert to_view(view[:, :4]) == "##1.\n#32.\n##1.\n"
    analysis = analyze(view, len(mines))
    assert analysis.log_layouts > math.log(DEFAULT_POLICY.endgame_layouts)
    guess = isolated_guess(analysis, view)
    assert guess is not None
    assert (guess.row, guess.col) in ((0, 0), (2, 0))
    assert guess.probability == pytest.approx(1 / 3)
    assert "search of the 3 layouts of a part" in guess.reason
    assert "clears it 66.7% of the time" in guess.reason
    assert choose_guess(analysis, view, len(mines)) == guess
    # With a hidden column to its left, which no number sees, the part is no
    # longer cut off: opening a square there could tell about it.
    wider = np.hstack([np.full((3, 1), Glyph.HIDDEN, np.uint8), view])
    assert isolated_guess(analyze(wider, len(mines)), wider) is None


def test_endgame_search_checks_the_known_mines() -> None:
    view = parse_view("1#\n##\n")
    # A square on the board is named from 1; an index off it is quoted as given.
    with pytest.raises(
        InvalidBoardError, match=r"^known mine row 1, column 1 is not a hidden square$"
    ):
        endgame_guess(view, 1, [(0, 0)])
    with pytest.raises(InvalidBoardError, match=r"^known mine index \(2, 0\) is off the 2x2 view$"):
        endgame_guess(view, 1, [(2, 0)])
    # Known mines the numbers cannot hold: no layout, nothing to search. The
    # 0 would hold a mine; the 2 sees only its known mine, one short.
    assert endgame_guess(parse_view("0#\n##\n"), 1, [(1, 1)]) is None
    assert endgame_guess(parse_view("2#1##\n"), 2, [(0, 1)]) is None
    assert endgame_guess(parse_view("1#1##\n"), 2, [(0, 1)]) is not None


def test_endgame_search_declines_large_positions() -> None:
    assert endgame_guess(np.full((5, 5), Glyph.HIDDEN, np.uint8), 5) is None


def test_an_enclosed_box_is_searched_as_a_part() -> None:
    # David Hill's enclosed 2x2 box: its mines lie on one diagonal or the
    # other, every number around it sees one of each diagonal (the two
    # squares under its corners, which see only one, are certain mines),
    # so nothing but opening a square of the box can tell. Our isolated
    # search needs no rule of its own for it: the box is a part whose two
    # layouts hold two mines each. To the right, a hidden block wide enough
    # (3,640 layouts in all) that the whole board is not searched.
    mines = {(0, 1), (1, 2), (2, 0), (2, 3), (0, 10), (2, 11), (3, 9), (1, 8)}
    box = {(0, 1), (0, 2), (1, 1), (1, 2)}
    hidden = box | {(2, 0), (2, 3)} | set(itertools.product(range(4), range(7, 12)))
    view = np.full((4, 12), Glyph.HIDDEN, np.uint8)
    for r, c in itertools.product(range(4), range(12)):
        if (r, c) not in hidden:
            view[r, c] = sum(n in mines for n in _around(4, 12, r, c))
    assert to_view(view[:, :7]) == "1##1...\n2##21..\n#22#1..\n11111..\n"
    analysis = analyze(view, len(mines))
    assert analysis.log_layouts > math.log(DEFAULT_POLICY.endgame_layouts)
    assert sorted(map(tuple, analysis.mines.tolist())) == [(2, 0), (2, 3)]
    guess = isolated_guess(analysis, view)
    assert guess is not None
    assert (guess.row, guess.col) in box
    assert guess.probability == pytest.approx(0.5)
    assert "search of the 2 layouts of a part" in guess.reason
    assert choose_guess(analysis, view, len(mines)) == guess
