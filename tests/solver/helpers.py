"""Helpers the solver's tests share: strategies and reference computations."""

from __future__ import annotations

import itertools
import math

import numpy as np
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


def analyze_in_budget(glyphs: np.ndarray, mines: int, **options: bool) -> Analysis:
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
