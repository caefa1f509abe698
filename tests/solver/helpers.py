"""Helpers the solver's tests share: strategies and reference computations."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, reject
from hypothesis import strategies as st

from minesweep import Game, Glyph, Minefield
from minesweep.solver import Analysis, AnalysisBudgetError, ContradictionError, analyze
from minesweep.squares import MAX_NUMBER

HIDDEN = int(Glyph.HIDDEN)


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


def analyze_in_budget(glyphs: np.ndarray, mines: int, **options: Any) -> Analysis:
    """Analyse a random position, setting aside the rare one past the state budget.

    Scattered reveals now and then link a frontier of about a hundred squares
    into one component; the budget's own error is tested on its own below.
    """
    try:
        return analyze(glyphs, mines, **options)
    except AnalysisBudgetError:
        reject()


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
            if game.glyphs()[r, c] > MAX_NUMBER:
                game.reveal(r, c)


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


def brute_force(view: np.ndarray, mines: int) -> tuple[dict[tuple[int, int], Fraction], int]:
    """Exact probabilities and the layout count, by listing every layout: the definition."""
    rows, cols = view.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] > MAX_NUMBER]
    numbers = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] <= MAX_NUMBER]
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
    if int((view > MAX_NUMBER).sum()) > 12:
        view.reshape(-1)[safe[: cells - 12]] = field.numbers.reshape(-1)[safe[: cells - 12]]
    flags = draw(st.lists(st.integers(0, cells - 1), max_size=2))
    for index in flags:
        if view.reshape(-1)[index] == HIDDEN:
            view.reshape(-1)[index] = Glyph.FLAG
    return view, mines


def clicked_view(
    rows: int, cols: int, mines: int, clicks: int, seed: int
) -> tuple[np.ndarray, Minefield]:
    """A view as a user makes it: a safe first click, then ``clicks`` random safe squares.

    Random clicks scatter numbers over the board, which links them into
    wider frontiers than play ever meets.
    """
    game = Game(rows, cols, mines, rule="safe", seed=seed)
    rng = np.random.default_rng(seed)
    game.reveal(int(rng.integers(rows)), int(rng.integers(cols)))
    field = game.field
    assert field is not None
    for _ in range(clicks):
        hidden_safe = np.flatnonzero((game.state == 0) & ~field.mines)
        if game.is_over or not len(hidden_safe):
            break
        row, col = divmod(int(rng.choice(hidden_safe)), cols)
        game.reveal(row, col)
    return game.glyphs(), field


def analyze_like_brute_force(view: np.ndarray, mines: int, **options: Any) -> None:
    """``analyze`` agrees with listing every layout: probabilities, certainties, count.

    Raises ContradictionError exactly when no layout fits.
    """
    expected, layouts = brute_force(view, mines)
    if not layouts:
        with pytest.raises(ContradictionError):
            analyze(view, mines, **options)
        return
    analysis = analyze(view, mines, **options)
    for (r, c), value in expected.items():
        assert analysis.probability[r, c] == pytest.approx(float(value), abs=1e-12)
        assert ([r, c] in analysis.safe.tolist()) == (value == 0)
        assert ([r, c] in analysis.mines.tolist()) == (value == 1)
    assert analysis.log_layouts == pytest.approx(math.log(layouts), rel=1e-12, abs=1e-12)
