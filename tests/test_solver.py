"""The solver: exact probabilities, contradictions, hints and no-guess fields."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import ms_toollib
import numpy as np
import pytest
from hypothesis import assume, example, given, reject, settings
from hypothesis import strategies as st

from minesweep import (
    Game,
    GameOverError,
    Glyph,
    InvalidBoardError,
    Minefield,
    generate_field,
)
from minesweep.formats import parse_view
from minesweep.solver import (
    Analysis,
    AnalysisBudgetError,
    ContradictionError,
    NoGuessBudgetError,
    analyze,
    clears_without_guessing,
    generate_no_guess,
    hint,
)
from minesweep.solver._deduce import play_certain_moves

HIDDEN = int(Glyph.HIDDEN)


def brute_force(view: np.ndarray, mines: int) -> tuple[dict[tuple[int, int], Fraction], int]:
    """Exact probabilities and the layout count, by listing every layout: the definition."""
    rows, cols = view.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] > 8]
    numbers = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] <= 8]
    counts = dict.fromkeys(hidden, 0)
    total = 0
    for layout in itertools.combinations(hidden, mines):
        placed = set(layout)
        if all(
            sum((rr, cc) in placed for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2))
            == view[r, c]
            for r, c in numbers
        ):
            total += 1
            for cell in layout:
                counts[cell] += 1
    if not total:
        return {}, 0
    return {cell: Fraction(count, total) for cell, count in counts.items()}, total


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    """A view of a real small game: some squares revealed, at most 12 hidden."""
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 5))
    cells = rows * cols
    mines = draw(st.integers(0, min(cells, 6)))
    layout = draw(st.permutations(range(cells)))[:mines]
    mask = np.zeros(cells, bool)
    mask[list(layout)] = True
    field = Minefield(mask.reshape(rows, cols))
    safe = [i for i in range(cells) if not mask[i]]
    revealed = draw(st.lists(st.sampled_from(safe), unique=True)) if safe else []
    view = np.full((rows, cols), HIDDEN, np.uint8)
    for index in revealed:
        r, c = divmod(index, cols)
        view[r, c] = field.numbers[r, c]
    if int((view > 8).sum()) > 12:
        view.reshape(-1)[safe[: cells - 12]] = field.numbers.reshape(-1)[safe[: cells - 12]]
    flags = draw(st.lists(st.integers(0, cells - 1), max_size=2))
    for index in flags:
        if view.reshape(-1)[index] == HIDDEN:
            view.reshape(-1)[index] = Glyph.FLAG
    return view, mines


@settings(max_examples=400)
@given(small_positions())
def test_probabilities_equal_brute_force_exactly(case: tuple[np.ndarray, int]) -> None:
    view, mines = case
    expected, layouts = brute_force(view, mines)
    analysis = analyze(view, mines)
    assert {cell: analysis.exact(*cell) for cell in expected} == expected
    for (r, c), value in expected.items():
        assert analysis.probability[r, c] == pytest.approx(float(value), abs=1e-15)
        assert ([r, c] in analysis.safe.tolist()) == (value == 0)
        assert ([r, c] in analysis.mines.tolist()) == (value == 1)
    assert analysis.layouts == layouts
    assert analysis.log_layouts == pytest.approx(math.log(layouts), rel=1e-12, abs=1e-12)
    assert np.isnan(analysis.probability[view <= 8]).all()


@settings(max_examples=200)
@given(small_positions(), st.data())
def test_layout_counts_give_the_chance_of_each_number(
    case: tuple[np.ndarray, int], data: st.DataObject
) -> None:
    """What a hidden square would show: its chance is a ratio of two views' counts."""
    view, mines = case
    _, layouts = brute_force(view, mines)
    hidden = np.argwhere(view > 8).tolist()
    assume(hidden)
    r, c = data.draw(st.sampled_from(hidden))
    analysis = analyze(view, mines)
    safe_chance = 0.0
    for value in range(9):
        shown = view.copy()
        shown[r, c] = value
        _, agreeing = brute_force(shown, mines)
        if not agreeing:
            with pytest.raises(ContradictionError):
                analyze(shown, mines)
            continue
        chance = math.exp(analyze(shown, mines).log_layouts - analysis.log_layouts)
        assert chance == pytest.approx(agreeing / layouts, rel=1e-9)
        safe_chance += chance
    assert safe_chance == pytest.approx(1.0 - analysis.probability[r, c], abs=1e-9)


def ms_toollib_view(glyphs: np.ndarray) -> list[list[int]]:
    # ms_toollib: 0-8 numbers, 10 hidden, 11 flag.
    return (
        np.where(glyphs <= 8, glyphs, np.where(glyphs == Glyph.FLAG, 11, 10)).astype(int).tolist()
    )


@st.composite
def midgame(draw: st.DrawFn) -> Game:
    """A game of a preset after its opening and a few more safe reveals and flags."""
    preset = draw(st.sampled_from(["beginner", "intermediate", "expert"]))
    game = Game.new(preset, seed=draw(st.integers(0, 2**32)))
    rows, cols = game.shape
    game.reveal(draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
    field = game.field
    assert field is not None
    rng = np.random.default_rng(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 25))):
        if game.is_over:
            break
        hidden_safe = np.argwhere((game.state == 0) & ~field.mines)
        if not len(hidden_safe):
            break
        r, c = hidden_safe[rng.integers(len(hidden_safe))]
        game.reveal(int(r), int(c))
    for _ in range(draw(st.integers(0, 3))):
        if not game.is_over:
            game.flag(int(rng.integers(rows)), int(rng.integers(cols)))
    return game


def analyze_in_budget(glyphs: np.ndarray, mines: int, **options: bool) -> Analysis:
    """Analyse a random position, setting aside the rare one past the state budget.

    Scattered reveals now and then link a frontier of about a hundred squares
    into one component; the budget's own error is tested on its own below.
    """
    try:
        return analyze(glyphs, mines, **options)
    except AnalysisBudgetError:
        reject()


# Three times the profile's examples: 3,000 positions in CI.
@settings(max_examples=settings.default.max_examples * 3, deadline=None)
@given(midgame())
def test_probabilities_equal_ms_toollib(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    ours = analyze_in_budget(glyphs, game.mine_count).probability
    theirs = np.array(
        ms_toollib.cal_probability_onboard(ms_toollib_view(glyphs), game.mine_count)[0]
    )
    hidden = glyphs > 8
    assert np.abs(ours[hidden] - theirs[hidden]).max() < 1e-9


@given(midgame())
def test_flags_are_claims_not_facts(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    unflagged = np.where(glyphs == Glyph.FLAG, HIDDEN, glyphs)
    a, b = analyze_in_budget(glyphs, game.mine_count), analyze_in_budget(unflagged, game.mine_count)
    assert np.array_equal(a.probability, b.probability, equal_nan=True)


@given(midgame())
def test_probabilities_add_up_to_the_mine_count(game: Game) -> None:
    if game.is_over:
        return
    analysis = analyze_in_budget(game.glyphs(), game.mine_count)
    assert np.nansum(analysis.probability) == pytest.approx(game.mine_count)
    mines = game.field.mines  # type: ignore[union-attr]
    # The solver never calls a mine safe, nor a safe square a mine.
    assert not mines[tuple(analysis.safe.T)].any()
    assert mines[tuple(analysis.mines.T)].all()


def test_the_interior_shares_what_the_frontier_leaves() -> None:
    view = parse_view("1###\n####\n####\n")
    analysis = analyze(view, 2)
    # (0, 0) shows 1: one mine among its 3 neighbours; the other 8 squares share the other.
    assert analysis.exact(0, 1) == Fraction(1, 3)
    assert analysis.exact(2, 3) == Fraction(1, 8) * Fraction(1)
    assert analysis.interior == 8
    assert analysis.components == (3,)
    assert analysis.layouts == 3 * 8


def test_the_mine_count_decides_the_interior() -> None:
    view = parse_view("1#\n##\n")
    analysis = analyze(view, 1)
    assert analysis.exact(0, 1) == Fraction(1, 3)
    analysis = analyze(parse_view("..1#\n..1#\n..11\n"), 1)
    assert analysis.mines.tolist() == [[1, 3]]
    assert analysis.safe.tolist() == [[0, 3]]


def test_squares_a_number_alone_makes_mines_are_set_aside_before_counting() -> None:
    # The 1 at (0, 1) has one hidden neighbour: (0, 0) is a mine, in no component.
    view = parse_view("#1.1###\n11.1###\n...1###\n")
    fast = analyze(view, 4)
    exact = analyze(view, 4, exact=True)  # counts every square, none set aside
    assert fast.components == exact.components == (3,)
    assert fast.mines.tolist() == exact.mines.tolist() == [[0, 0], [1, 4]]
    assert fast.probability[0, 0] == 1.0
    assert fast.exact(0, 5) == Fraction(1, 3)
    np.testing.assert_allclose(fast.probability, exact.probability, rtol=1e-12)
    assert fast.log_layouts == pytest.approx(math.log(exact.layouts))
    with pytest.raises(ContradictionError, match="needs at least 1 mine, but the game has 0"):
        analyze(parse_view("#1\n11\n"), 0)


@pytest.mark.parametrize(
    ("view", "mines", "message"),
    [
        ("4#\n##\n", 3, r"\(0, 0\) shows 4 but has only 3"),
        # The 1s at (0, 2) and (2, 2) each have one hidden neighbour: both
        # are mines, and the 1 between them sees two.
        (
            "##1.\n#21.\n##1.\n",
            2,
            r"square \(1, 2\) shows 1, but the numbers around it make 2 of its neighbours certain",
        ),
        # No number alone is broken: the 2 at (1, 0) and its neighbours are.
        ("1###\n22##\n##22\n", 4, r"the 2 at square \(1, 0\) contradicts"),
        ("1#\n##\n", 0, "needs between 1 and 1 mines, but the game has 0"),
        (".#\n", 1, r"\(0, 0\) contradicts|needs between 0 and 0"),
    ],
)
def test_contradictions_name_a_square(view: str, mines: int, message: str) -> None:
    with pytest.raises(ContradictionError, match=message):
        analyze(parse_view(view), mines)


@pytest.mark.parametrize(
    ("glyphs", "mines", "message"),
    [
        ([[9, 12]], 1, "glyph 12"),
        ([9, 9], 1, "2-D array"),
        ([[9.0]], 1, "float"),
        ([[9]], -1, "non-negative int"),
        ([[9]], True, "non-negative int"),
    ],
)
def test_bad_views_are_refused(glyphs: object, mines: object, message: str) -> None:
    with pytest.raises(InvalidBoardError, match=message):
        analyze(glyphs, mines)  # type: ignore[arg-type]


def test_budget_stops_a_tangled_frontier_with_a_clear_error() -> None:
    # A real position: the top row of a 3x60 field revealed, a long frontier below.
    rng = np.random.default_rng(4)
    mines = np.zeros((3, 60), bool)
    mines[1:] = rng.random((2, 60)) < 0.3
    field = Minefield(mines)
    view = np.full((3, 60), HIDDEN, np.uint8)
    view[0] = field.numbers[0]
    with pytest.raises(AnalysisBudgetError, match="raise max_states"):
        analyze(view, field.mine_count, max_states=5)
    assert analyze(view, field.mine_count, max_states=None).layouts > 0
    # Counted once, the component is remembered; the budget still holds, so
    # whether a call raises does not depend on the calls before it.
    with pytest.raises(AnalysisBudgetError, match="a frontier of 60 squares"):
        analyze(view, field.mine_count, max_states=5)


@settings(max_examples=100, deadline=None)
@given(midgame(), st.data())
def test_remembered_components_change_nothing(game: Game, data: st.DataObject) -> None:
    from minesweep.solver import probability

    if game.is_over:
        return
    before = game.glyphs()
    # The next position of the same game: most of its components are the
    # ones just counted, some are new.
    hidden_safe = np.argwhere((game.state == 0) & ~game.field.mines)  # type: ignore[union-attr]
    assume(len(hidden_safe))
    r, c = hidden_safe[data.draw(st.integers(0, len(hidden_safe) - 1))]
    game.reveal(int(r), int(c))
    assume(not game.is_over)
    after = game.glyphs()
    probability._clear_cache()
    cold = analyze_in_budget(after, game.mine_count)
    probability._clear_cache()
    analyze_in_budget(before, game.mine_count)
    warm = analyze_in_budget(after, game.mine_count)
    assert np.array_equal(cold.probability, warm.probability, equal_nan=True)
    assert np.array_equal(cold.safe, warm.safe)
    assert np.array_equal(cold.mines, warm.mines)
    assert cold.components == warm.components
    assert cold.log_layouts == warm.log_layouts


def test_remembered_components_are_told_apart_by_their_numbers() -> None:
    # The same squares around the same square, a different number: a
    # different component, never the remembered one.
    assert analyze(parse_view("1#\n##\n"), 1).probability[0, 1] == pytest.approx(1 / 3)
    assert analyze(parse_view("2#\n##\n"), 2).probability[0, 1] == pytest.approx(2 / 3)
    assert analyze(parse_view("1#\n##\n"), 1).probability[0, 1] == pytest.approx(1 / 3)


def test_a_contradiction_is_explained_when_read_and_survives_pickling() -> None:
    import pickle

    with pytest.raises(ContradictionError) as caught:
        analyze(parse_view("1###\n22##\n##22\n"), 4)
    caught.value.add_note("while testing")
    again = pickle.loads(pickle.dumps(caught.value))
    assert type(again) is ContradictionError
    assert str(again) == str(caught.value)
    assert "the 2 at square (1, 0) contradicts" in str(again)
    assert again.__notes__ == ["while testing"]
    assert repr(again) == repr(caught.value) == f"ContradictionError({str(again)!r})"


# --- hints ----------------------------------------------------------------------------


def test_hint_prefers_a_safe_square() -> None:
    game = Game.from_field(Minefield.from_text("..*.\n....\n"))
    game.reveal(1, 0)
    advice = hint(game)
    assert advice.safe
    assert advice.probability == 0.0
    assert not game.field.is_mine(advice.row, advice.col)  # type: ignore[union-attr]


def test_hint_points_at_a_wrong_flag_when_only_it_is_safe() -> None:
    # (2, 3) makes (1, 3) the mine, so the flagged (0, 3) is safe.
    view = parse_view("..1F\n..1#\n..11\n")
    advice = hint(view, 1)
    assert advice.safe
    assert (advice.row, advice.col) == (0, 3)
    assert "flag at (0, 3) is wrong" in advice.reason


def test_hint_gives_the_lowest_probability_when_it_must_guess() -> None:
    view = parse_view("1###\n####\n####\n")
    advice = hint(view, 2)
    assert not advice.safe
    assert advice.probability == pytest.approx(1 / 8)
    assert "lowest" in advice.reason
    assert (advice.row, advice.col) == (0, 2)  # the first interior square


def test_hint_for_a_new_game_and_a_finished_one() -> None:
    game = Game.new("expert", seed=1)
    advice = hint(game)
    assert (advice.row, advice.col, advice.safe) == (8, 15, True)
    risky = Game(9, 9, 10, rule="none", seed=1)
    assert hint(risky).probability == pytest.approx(10 / 81)
    field = Minefield.from_text("*.\n")
    over = Game.from_field(field)
    over.reveal(0, 0)
    with pytest.raises(GameOverError):
        hint(over)
    with pytest.raises(InvalidBoardError, match="needs the total number of mines"):
        hint(parse_view("1#\n"))


# --- no-guess fields -------------------------------------------------------------------


def clears_by_exact_analysis(field: Minefield, click: tuple[int, int]) -> bool:
    """An independent player: reveal what analyze calls safe, until stuck or done."""
    game = Game.from_field(field)
    game.reveal(*click)
    while not game.is_over:
        analysis = analyze(game.glyphs(), game.mine_count, max_states=None)
        safe = [(r, c) for r, c in analysis.safe.tolist() if game.state[r, c] in (0, 1)]
        if not safe:
            return False
        for r, c in safe:
            if game.state[r, c] in (0, 1):
                game.reveal(r, c)
    return game.status.value == "won"


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "click"),
    [(9, 9, 10, (4, 4)), (16, 16, 40, (0, 0)), (16, 30, 99, (8, 15)), (5, 30, 25, (2, 2))],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_no_guess_fields_are_cleared_without_guessing(
    rows: int, cols: int, mines: int, click: tuple[int, int], seed: int
) -> None:
    result = generate_no_guess(rows, cols, mines, first_click=click, seed=seed)
    assert result.field.mine_count == mines
    assert result.field.numbers[click] == 0
    assert clears_by_exact_analysis(result.field, click)
    again = generate_no_guess(rows, cols, mines, first_click=click, seed=seed)
    assert again.field == result.field


def test_no_guess_refuses_to_return_a_board_that_needs_a_guess() -> None:
    # Find a seed whose first attempt needs a guess: with one attempt allowed,
    # the generator must say so rather than return it.
    for seed in range(50):
        first = generate_field(16, 30, 99, first_click=(8, 15), seed=_first_attempt_seed(seed))
        if not clears_by_exact_analysis(first, (8, 15)):
            break
    with pytest.raises(NoGuessBudgetError, match="in 1 attempts"):
        generate_no_guess(16, 30, 99, first_click=(8, 15), seed=seed, max_attempts=1)


def _first_attempt_seed(seed: int) -> int:
    return _attempt_seed_of(seed, 0)


def _attempt_seed_of(seed: int, attempt: int) -> int:
    from minesweep.solver.noguess import _attempt_seed

    return _attempt_seed(seed, attempt)


def test_no_guess_skips_fields_beyond_the_state_budget() -> None:
    # With a budget of one state, a field that needs the exact analysis is
    # over budget. Seed 12's first two attempts are such fields: the
    # generator must skip them rather than raise, and what it returns must
    # still clear.
    result = generate_no_guess(9, 9, 10, first_click=(4, 4), seed=12, max_states=1)
    assert result.attempt == 2
    assert clears_by_exact_analysis(result.field, (4, 4))
    for attempt in range(result.attempt):
        skipped = generate_field(
            9, 9, 10, first_click=(4, 4), rule="opening", seed=_attempt_seed_of(12, attempt)
        )
        with pytest.raises(AnalysisBudgetError, match="budget of partial layouts"):
            clears_without_guessing(skipped, (4, 4), max_states=1)


def test_no_guess_impossible_density_runs_out_of_time() -> None:
    with pytest.raises(NoGuessBudgetError, match=r"found in 0\.2 s"):
        generate_no_guess(10, 10, 85, first_click=(5, 5), seed=1, max_seconds=0.2)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([(9, 9, 10), (16, 16, 40), (16, 30, 99)]))
# Found by CI: the reference player meets a 91-square frontier in one piece,
# beyond the default state budget, so both players here count without limit.
@example(6155, (16, 30, 99))
def test_the_fast_rules_only_make_certain_moves(seed: int, size: tuple[int, int, int]) -> None:
    rows, cols, mines = size
    click = (rows // 2, cols // 2)
    field = generate_field(rows, cols, mines, first_click=click, seed=seed)
    state = np.zeros(field.shape, np.uint8)
    left = play_certain_moves(
        field.numbers,
        mines,
        state,
        np.array([click[0] * cols + click[1]], np.int64),
        np.zeros(0, np.int64),
    )
    assert not (field.mines & (state == 1)).any()  # nothing opened is a mine
    assert (field.mines[state == 2]).all()  # everything marked is a mine
    opened = int((state == 1).sum())
    assert left == field.size - mines - opened
    # Whatever the rules clear, the exact player clears too; and the rules
    # with the exact analysis behind them clear exactly what it clears.
    exact = clears_by_exact_analysis(field, click)
    if left == 0:
        assert exact
    assert clears_without_guessing(field, click, max_states=None) == exact


def test_layout_counts_use_exact_integers() -> None:
    view = np.full((16, 30), HIDDEN, np.uint8)
    view[8, 15] = 0
    for r in range(7, 10):
        for c in range(14, 17):
            view[r, c] = 0 if (r, c) == (8, 15) else 1
    view[7:10, 14:17] = parse_view("111\n1.1\n111\n")
    analysis = analyze(view, 99)
    assert analysis.layouts > 2**200  # far beyond any float's exact range
    assert math.isclose(analysis.log_layouts, math.log(analysis.layouts), rel_tol=1e-12)
    assert math.isclose(float(analysis.exact(0, 0)), analysis.probability[0, 0])


@settings(max_examples=300, deadline=None)
@given(midgame())
def test_float_and_exact_counting_agree(game: Game) -> None:
    if game.is_over:
        return
    glyphs = game.glyphs()
    fast = analyze_in_budget(glyphs, game.mine_count)
    exact = analyze_in_budget(glyphs, game.mine_count, exact=True)
    hidden = glyphs > 8
    assert np.allclose(fast.probability[hidden], exact.probability[hidden], rtol=1e-12, atol=0)
    assert np.array_equal(fast.safe, exact.safe)
    assert np.array_equal(fast.mines, exact.mines)
    assert fast.components == exact.components
    # A log's absolute error is the count's relative error; a single layout
    # has log 0, where a relative tolerance would demand an exact zero.
    assert math.isclose(fast.log_layouts, exact.log_layouts, rel_tol=1e-12, abs_tol=1e-12)


@settings(max_examples=100, deadline=None)
@given(midgame())
def test_the_exact_fallback_of_the_fast_path_agrees(game: Game) -> None:
    if game.is_over:
        return
    from minesweep.solver import _count, probability

    glyphs = game.glyphs()
    fast = analyze_in_budget(glyphs, game.mine_count)
    width = _count.MAX_WIDTH
    try:
        _count.MAX_WIDTH = -1  # every component takes the fallback
        probability._clear_cache()  # and none is taken from the cache
        fallback = analyze_in_budget(glyphs, game.mine_count)
    finally:
        _count.MAX_WIDTH = width
    hidden = glyphs > 8
    assert np.allclose(fast.probability[hidden], fallback.probability[hidden], rtol=1e-12)
    assert np.array_equal(fast.safe, fallback.safe)
    assert math.isclose(fast.log_layouts, fallback.log_layouts, rel_tol=1e-12, abs_tol=1e-12)
