"""The policy's one-move lookahead, against whole analyses of every imagined view."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, event, given, reject, settings
from hypothesis import strategies as st

from minesweep import Game, Glyph, InvalidBoardError
from minesweep.formats import parse_view
from minesweep.solver import (
    Analysis,
    AnalysisBudgetError,
    ContradictionError,
    analyze,
    policy,
)
from minesweep.solver._whatif import Lookahead
from minesweep.solver.policy import choose_guess, fifty_fifty_or_safe, lookahead_guess
from minesweep.solver.probability import _Frontier, _plan

from .test_solver import analyze_in_budget, midgame

Outcomes = dict[int, tuple[float, float]]


def outcomes_by_analysis(view: np.ndarray, mines: int, row: int, col: int) -> Outcomes:
    """For each number the square could show: its chance, and the best safety after.

    The definition, the slow way: a whole analysis of the view with the
    number written in, its chance the ratio of the two views' layout counts.
    """
    before = analyze_in_budget(view, mines)
    found = {}
    for number in range(9):
        shown = view.copy()
        shown[row, col] = number
        try:
            after = analyze(shown, mines)
        except ContradictionError:
            continue
        except AnalysisBudgetError:
            reject()
        chance = math.exp(after.log_layouts - before.log_layouts)
        safest = 1.0 if len(after.safe) else 1.0 - float(np.nanmin(after.probability))
        found[number] = (chance, safest)
    return found


def doubtful_squares(analysis: Analysis) -> list[tuple[int, int]]:
    # Revealed squares are NaN, which compares False.
    return [(int(r), int(c)) for r, c in np.argwhere(analysis.probability < 1.0)]


@settings(max_examples=settings.default.max_examples, deadline=None)
@given(midgame(), st.data())
def test_outcomes_equal_whole_analyses(game: Game, data: st.DataObject) -> None:
    assume(not game.is_over)
    view, mines = game.glyphs(), game.mine_count
    analysis = analyze_in_budget(view, mines)
    squares = doubtful_squares(analysis)
    assume(squares)
    row, col = data.draw(st.sampled_from(squares))
    outcomes = Lookahead(analysis).outcomes(row, col)
    assume(outcomes is not None)  # a component too tangled: no cheap answer
    expected = outcomes_by_analysis(view, mines, row, col)
    got = {o.number: (o.chance, o.safest) for o in outcomes}
    assert set(got) == set(expected)
    for number, (chance, safest) in expected.items():
        assert got[number][0] == pytest.approx(chance, rel=1e-9, abs=1e-12)
        assert got[number][1] == pytest.approx(safest, abs=1e-9)


def test_a_square_a_number_needs_as_a_mine_has_no_outcome() -> None:
    # The 1 at (0, 0) has one hidden neighbour: it is the mine.
    view = parse_view("1##\n")
    analysis = analyze(view, 1)
    assert analysis.exact(0, 1) == 1
    assert Lookahead(analysis).outcomes(0, 1) == []
    # (0, 1), (1, 0) and (1, 1) are each a full number's: set aside as mines.
    # (2, 2) is then safe, and the mine count leaves the last mine to (0, 0),
    # whose only hidden neighbours are those set aside.
    analysis = analyze(parse_view("##2\n##2\n22#\n"), 4)
    assert analysis.exact(0, 0) == 1
    assert Lookahead(analysis).outcomes(0, 0) == []


def test_outcomes_refuse_revealed_and_outside_squares() -> None:
    view = parse_view("1####\n#####\n")
    ask = Lookahead(analyze(view, 2))
    for square, message in [((0, 0), "is revealed"), ((2, 0), "off the 2x5 view")]:
        with pytest.raises(InvalidBoardError, match=message):
            ask.outcomes(*square)
    with pytest.raises(InvalidBoardError, match="off the"):
        ask.outcomes(-1, 0)


def second_safety(view: np.ndarray, mines: int, row: int, col: int) -> float:
    return sum(
        chance * safest for chance, safest in outcomes_by_analysis(view, mines, row, col).values()
    )


def stuck(game: Game) -> tuple[np.ndarray, Analysis]:
    """Open certainly safe squares until none is left: a position that needs a guess."""
    while True:
        assume(not game.is_over)
        view = game.glyphs()
        analysis = analyze_in_budget(view, game.mine_count)
        if not len(analysis.safe):
            return view, analysis
        for r, c in analysis.safe.tolist():
            if game.glyphs()[r, c] == Glyph.FLAG:
                game.unflag(r, c)  # a wrong flag: the reveal below must not be refused
            if game.glyphs()[r, c] > 8:
                game.reveal(r, c)


# Many drawn games are won by certain moves alone, or end in an endgame
# search or a forced 50/50: those are set aside.
@settings(
    max_examples=max(10, settings.default.max_examples // 4),
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much],
)
@given(midgame())
@pytest.mark.parametrize("long_term", [False, True])
def test_the_lookahead_takes_the_best_frontier_candidate(long_term: bool, game: Game) -> None:
    """The safest frontier squares score no better, by whole analyses, than the choice.

    A score is the chance of surviving the guess and the next, by whole
    analyses; with the 50/50 weighing on, times each square's factor for the
    50/50s it may settle early (its parts are tested on their own below).
    """
    view, analysis = stuck(game)
    mines = game.mine_count
    plain = choose_guess(analysis, view, mines, lookahead=False)
    assume("exhaustive" not in plain.reason and "50/50" not in plain.reason)
    # A square that is a mine only in a 50/50 to come is taken before the lookahead.
    assume(fifty_fifty_or_safe(analysis, view) is None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(policy, "LONG_TERM", long_term)
        chosen = lookahead_guess(analysis, view, plain)
        assume(chosen is not None)
        assert choose_guess(analysis, view, mines) == chosen
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    risk[tuple(analysis.mines.T)] = np.inf
    assert 1.0 - chosen.probability >= policy.LOOKAHEAD_CUT * (1.0 - risk.min()) - 1e-12
    revealed = view <= 8
    frontier = [
        (r, c)
        for r, c in np.argwhere(np.isfinite(risk)).tolist()
        if revealed[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2].any()
        and 1.0 - risk[r, c] >= policy.LOOKAHEAD_CUT * (1.0 - risk.min())
    ]
    # The safest of them are always candidates: the plain choice comes first,
    # then the safest of the rest, of which at most a few are interior.
    frontier = sorted(set(frontier) - {(plain.row, plain.col)}, key=lambda cell: (risk[cell], cell))
    frontier = frontier[: policy.LOOKAHEAD_CANDIDATES - policy.LOOKAHEAD_INTERIOR - 1]
    ask = Lookahead(analysis)
    assume(all(ask.outcomes(r, c) is not None for r, c in frontier))
    mines_left = mines - len(analysis.mines)

    def score(r: int, c: int) -> float:
        factor = 1.0
        if long_term:
            factor = policy._FiftyFifties(view, risk, mines_left).factor((r, c), ask)
        return factor * second_safety(view, mines, r, c)

    best = score(chosen.row, chosen.col)
    for r, c in frontier:
        assert best >= score(r, c) - 1e-9


def test_no_cheap_answer_without_float_counts_or_past_the_budget() -> None:
    view = parse_view("1####\n#####\n#####\n#####\n")
    exact = analyze(view, 3, exact=True)
    assert Lookahead(exact).outcomes(0, 1) is None
    assert choose_guess(exact, view, 3) == choose_guess(exact, view, 3, lookahead=False)
    floats = analyze(view, 3)
    assert Lookahead(floats, max_states=1).outcomes(0, 1) is None
    assert Lookahead(floats).outcomes(0, 1)


def test_a_long_frontier_is_planned_narrow() -> None:
    """The counting order keeps few numbers open: a corridor's state stays small.

    A 3x200 strip with its middle row revealed: any order that walked the
    numbers out of sequence would hold dozens open at once (and fall back
    to the slow exact counter).
    """
    rng = np.random.default_rng(5)
    mines = rng.random((3, 200)) < 0.3
    mines[1] = False
    padded = np.pad(mines, 1).astype(int)
    numbers = sum(
        padded[1 + dr : 4 + dr, 1 + dc : 201 + dc]
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if dr or dc
    )
    view = np.full((3, 200), 9, np.uint8)
    view[1] = numbers[1]
    frontier = _Frontier(view, view > 8)
    assert len(frontier.components) == 1
    plan = _plan(frontier.groups, frontier.targets, frontier.components[0])
    assert max(plan.widths) <= 4
    assert sorted(map(id, plan.groups)) == sorted(map(id, frontier.groups))


@st.composite
def small_position(draw: st.DrawFn) -> tuple[np.ndarray, int, list[frozenset[tuple[int, int]]]]:
    """A small view, its mine total, and every layout of mines it allows (by brute force)."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    mines = draw(st.integers(1, min(5, len(squares) - 1)))
    placed = set(draw(st.permutations(squares))[:mines])
    safe = [square for square in squares if square not in placed]
    shown = draw(st.lists(st.sampled_from(safe), max_size=len(safe) - 1, unique=True))
    view = np.full((rows, cols), Glyph.HIDDEN, np.uint8)

    def count(square: tuple[int, int], layout: set[tuple[int, int]]) -> int:
        r, c = square
        return sum((r + dr, c + dc) in layout for dr in (-1, 0, 1) for dc in (-1, 0, 1))

    for square in shown:
        view[square] = count(square, placed)
    hidden = [square for square in squares if square not in shown]
    layouts = [
        frozenset(combo)
        for combo in itertools.combinations(hidden, mines)
        if all(count(square, set(combo)) == view[square] for square in shown)
    ]
    return view, mines, layouts


# Every layout of the board is listed: a fifth of the usual examples.
@settings(max_examples=max(20, settings.default.max_examples // 5), deadline=None)
@given(small_position(), st.data())
def test_joint_chances_match_counting_every_layout(
    position: tuple[np.ndarray, int, list[frozenset[tuple[int, int]]]], data: st.DataObject
) -> None:
    view, mines, layouts = position
    hidden = [(int(r), int(c)) for r, c in np.argwhere(view == Glyph.HIDDEN)]
    squares = data.draw(st.lists(st.sampled_from(hidden), min_size=1, max_size=4, unique=True))
    split = data.draw(st.integers(0, len(squares)))
    are_mines, are_safe = squares[:split], squares[split:]
    want = sum(
        all(s in layout for s in are_mines) and not any(s in layout for s in are_safe)
        for layout in layouts
    ) / len(layouts)
    got = Lookahead(analyze(view, mines)).joint(are_mines, are_safe)
    assert got == pytest.approx(want, abs=1e-9)


def test_joint_refuses_revealed_outside_and_repeated_squares() -> None:
    view = parse_view("1##\n###\n")
    ask = Lookahead(analyze(view, 2))
    for mines, safe in [([(0, 0)], []), ([(2, 0)], []), ([(0, 1)], [(0, 1)]), ([], [(0, -1)])]:
        with pytest.raises(InvalidBoardError):
            ask.joint(mines, safe)
    assert Lookahead(analyze(view, 2, exact=True)).joint([(0, 1)], []) is None


def test_joint_answers_are_remembered_and_charged_what_they_cost() -> None:
    """A second Lookahead of the same analysis answers from memory, within its own budget.

    The question costs some states to count (between 5 and 10 here): with
    a budget too small, counting gives no answer, and remembering must not
    give one either; with enough, the remembered answer is the counted one.
    """
    view = parse_view("1#1##\n#####\n#2###\n#####\n")
    question = ([(0, 1)], [(1, 0)])
    counted = Lookahead(analyze(view, 4)).joint(*question)
    assert counted is not None
    assert Lookahead(analyze(view, 4), max_states=5).joint(*question) is None
    analysis = analyze(view, 4)
    assert Lookahead(analysis).joint(*question) == counted
    tight = Lookahead(analysis, max_states=5)
    assert tight.joint(*question) is None
    assert tight.joint([(0, 1)], []) is None  # the budget is spent, as counting would leave it
    enough = Lookahead(analysis, max_states=10)
    assert enough.joint(*question) == counted
    assert enough.joint(*question) is None  # 10 states cannot pay for it twice


def test_fifty_fifty_influence_by_hand() -> None:
    """The chance a square is the safe side of a 50/50 that can still form, on tiny boards."""
    # 2x2, two mines, nothing shown: the pair across (1/3), the pair down (1/3)
    # and the block with mines on the other diagonal (1/6).
    view = parse_view("##\n##\n")
    analysis = analyze(view, 2)
    risk = analysis.probability.copy()
    ask = Lookahead(analysis)
    assert policy._FiftyFifties(view, risk, 2).influence((0, 0), ask) == pytest.approx(5 / 6)
    # Capped at the square's chances of being a mine and safe: 1 + 0.9 * 0.5 / 0.5.
    assert policy._FiftyFifties(view, risk, 2).factor((0, 0), ask) == pytest.approx(1.9)
    # A row whose right end is a known mine: the two on the left are a true 50/50.
    view = parse_view("###1\n")
    analysis = analyze(view, 2)
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    risk[0, 2] = np.inf
    ask = Lookahead(analysis)
    assert policy._FiftyFifties(view, risk, 1).influence((0, 0), ask) == pytest.approx(0.5)
    # A number that sees one of the pair but not the other: no 50/50 can form,
    # though the square is safe and its neighbour a mine half the time.
    view = parse_view("##1#\n")
    analysis = analyze(view, 1)
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    ask = Lookahead(analysis)
    assert ask.joint([(0, 1)], [(0, 0)]) == pytest.approx(0.5)
    assert policy._FiftyFifties(view, risk, 1).influence((0, 0), ask) == 0.0


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
            [share(lambda layout, s=s: s in layout) for s in are_mines]
            + [share(lambda layout, s=s: s not in layout) for s in are_safe]
        )
        if least < policy.STRUCTURE_FLOOR:
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
            found = counted({cell}, {partner}, min(policy.PAIR_MISSING, mines_left - 1))
            total += found or 0.0
    block = 0.0
    for top, left in [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)]:
        squares = {(top, left), (top, left + 1), (top + 1, left), (top + 1, left + 1)}
        if squares <= doubtful:
            mine_side = {s for s in squares if s != cell and (s[0] == r) != (s[1] == c)}
            limit = min(policy.BLOCK_MISSING, mines_left - 2)
            found = counted(squares - mine_side, mine_side, limit)
            block = max(block, found or 0.0)
    return total + block


# Every layout of the board is listed: a fifth of the usual examples.
@settings(max_examples=max(20, settings.default.max_examples // 5), deadline=None)
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
    fifty_fifties = policy._FiftyFifties(view, risk, mines_left)
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
            ({cell}, {partner}, min(policy.PAIR_MISSING, mines_left - 1))
            for partner in [(r, c + 1), (r, c - 1), (r + 1, c), (r - 1, c)]
            if partner in doubtful
        ]
        for top, left in [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)]:
            block = {(top, left), (top, left + 1), (top + 1, left), (top + 1, left + 1)}
            if block <= doubtful:
                diagonal = {cell, (2 * top + 1 - r, 2 * left + 1 - c)}  # and its opposite corner
                limit = min(policy.BLOCK_MISSING, mines_left - 2)
                shapes.append((diagonal, block - diagonal, limit))
        if any(qualifies(cell, own, other, limit) for own, other, limit in shapes):
            found[cell] = risk
    return found


# Every layout of the board is listed: a fifth of the usual examples.
@settings(max_examples=max(20, settings.default.max_examples // 5), deadline=None)
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


def test_a_square_that_is_a_mine_only_in_a_50_50_to_come_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
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
    monkeypatch.setattr(policy, "ENDGAME_LAYOUTS", 1)
    monkeypatch.setattr(policy, "ISOLATED_LAYOUTS", 1)
    guess = choose_guess(analysis, view, 2)
    assert (guess.row, guess.col) in qualify
    assert guess.probability == pytest.approx(1 / 3)
    assert "one side of a 50/50" in guess.reason
    # Without the mine total (no lookahead), the rule is not used either.
    assert choose_guess(analysis, view, 2, lookahead=False).probability == pytest.approx(1 / 6)


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
    ``_FiftyFifties.structures`` finds a pair or a block around it.
    """
    kinds, shape = drawn
    grid = np.array(kinds).reshape(shape)
    view = np.where(grid == 0, 1, Glyph.HIDDEN).astype(np.uint8)
    risk = np.where(grid == 1, 0.5, np.inf)
    mask = policy._could_pair(grid == 0, grid == 1)
    unlimited = 10**6
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(policy, "PAIR_MISSING", unlimited)
        patch.setattr(policy, "BLOCK_MISSING", unlimited)
        fifty_fifties = policy._FiftyFifties(view, risk, unlimited)
        for r, c in itertools.product(range(shape[0]), range(shape[1])):
            pairs, blocks = fifty_fifties.structures((r, c))
            assert mask[r, c] == bool(pairs or blocks), (r, c)
