"""The plain choice's tie-break by progress (``solver/_progress.py``), against a reference.

The reference is written from the rule on small boards, by listing every
layout of mines: among the squares within ``tolerance`` of the lowest risk,
the one with the greatest chance of being safe and showing a number after
which some other square is safe in every layout left, then the greatest
entropy of the number it shows; with ``dead_last``, a square that can show
only one number only when no other can show more.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import replace

import numpy as np
from hypothesis import HealthCheck, assume, given, settings

from minesweep.solver import analyze
from minesweep.solver.guess import PolicyConfig
from minesweep.solver.policy import choose_guess
from minesweep.solver.whatif import Lookahead

from .helpers import small_position

Square = tuple[int, int]
Layout = frozenset[Square]

# The searches that would come first are kept off (they run only with a
# single layout left, when nothing is in doubt), so the choice is the window's.
CONFIG = replace(
    PolicyConfig.preset("fast"),
    endgame_layouts=1,
    isolated_layouts=1,
    progress_candidates=1000,
)


def shown(square: Square, layout: Layout) -> int:
    r, c = square
    return sum((r + dr, c + dc) in layout for dr in (-1, 0, 1) for dc in (-1, 0, 1))


def keys(square: Square, hidden: list[Square], layouts: list[Layout]) -> tuple[float, float, int]:
    """(chance of safe and progress, entropy of the number, how many numbers it can show)."""
    by_number: dict[int, list[Layout]] = defaultdict(list)
    for layout in layouts:
        if square not in layout:
            by_number[shown(square, layout)].append(layout)
    progress = 0.0
    entropy = 0.0
    alive = sum(len(left) for left in by_number.values())
    for left in by_number.values():
        if any(all(other not in layout for layout in left) for other in hidden if other != square):
            progress += len(left) / len(layouts)
        share = len(left) / alive
        entropy -= share * math.log2(share)
    return progress, entropy, len(by_number)


def close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-8 * max(abs(a), abs(b)) + 1e-9


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_position())
def test_the_window_goes_to_the_square_likeliest_to_make_progress(
    position: tuple[np.ndarray, int, list[Layout]],
) -> None:
    view, mines, layouts = position
    hidden = [(r, c) for r, c in np.argwhere(view > 8).tolist()]
    risk = {square: sum(square in layout for layout in layouts) / len(layouts) for square in hidden}
    lowest = min(risk.values())
    assume(lowest > 0)  # a certainly safe square needs no guess
    analysis = analyze(view, mines)
    assume(Lookahead(analysis).tables() is not None)
    plain = choose_guess(analysis, view, mines, config=replace(CONFIG, progress_candidates=0))
    chosen = choose_guess(analysis, view, mines, config=CONFIG)
    assume("50/50" not in chosen.reason)
    window = [square for square in hidden if risk[square] <= lowest + CONFIG.tolerance + 1e-12]
    assert (chosen.row, chosen.col) in window
    scored = {square: keys(square, hidden, layouts) for square in window}
    living = [square for square in window if scored[square][2] > 1]
    if not living:
        # Every square of the window dead: the plain choice stands.
        assert (chosen.row, chosen.col) == (plain.row, plain.col)
        return
    progress, entropy, numbers = scored[chosen.row, chosen.col]
    assert numbers > 1
    best_progress = max(scored[square][0] for square in living)
    assert close(progress, best_progress)
    best_entropy = max(scored[square][1] for square in living if close(scored[square][0], progress))
    assert close(entropy, best_entropy)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_position())
def test_without_dead_last_a_dead_square_can_win_the_window(
    position: tuple[np.ndarray, int, list[Layout]],
) -> None:
    """With ``dead_last`` off every square of the window is weighed, dead or not."""
    view, mines, layouts = position
    hidden = [(r, c) for r, c in np.argwhere(view > 8).tolist()]
    risk = {square: sum(square in layout for layout in layouts) / len(layouts) for square in hidden}
    lowest = min(risk.values())
    assume(lowest > 0)
    analysis = analyze(view, mines)
    assume(Lookahead(analysis).tables() is not None)
    chosen = choose_guess(analysis, view, mines, config=replace(CONFIG, dead_last=False))
    assume("50/50" not in chosen.reason)
    window = [square for square in hidden if risk[square] <= lowest + CONFIG.tolerance + 1e-12]
    scored = {square: keys(square, hidden, layouts) for square in window}
    progress, entropy, _ = scored[chosen.row, chosen.col]
    assert close(progress, max(key[0] for key in scored.values()))
    assert close(entropy, max(key[1] for key in scored.values() if close(key[0], progress)))
