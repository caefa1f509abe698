"""Competitive statistics: 3BV, openings, islands, clicks and efficiency."""

from __future__ import annotations

import ms_toollib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minesweep import Game, GameStatus, Minefield, board_stats, game_stats

from .helpers import Clock

# Boards of every density, up to expert size and beyond.
fields = st.builds(
    lambda rows, cols, density, seed: Minefield(
        np.random.default_rng(seed).random((rows, cols)) < density
    ),
    st.integers(1, 30),
    st.integers(1, 30),
    st.sampled_from([0.0, 0.05, 0.1, 0.15, 0.206, 0.3, 0.5, 0.9]),
    st.integers(0, 2**32),
)


def ms_toollib_board(field: Minefield) -> list[list[int]]:
    board: list[list[int]] = np.where(field.mines, -1, field.numbers.astype(int)).tolist()
    return board


@settings(max_examples=1500)
@given(fields)
def test_bbbv_and_openings_equal_ms_toollib(field: Minefield) -> None:
    stats = board_stats(field)
    board = ms_toollib_board(field)
    assert stats.bbbv == ms_toollib.cal_bbbv(board)
    assert stats.openings == ms_toollib.cal_op(board)


def groups(mask: np.ndarray) -> list[set[tuple[int, int]]]:
    """Connected groups of a mask (eight neighbours), by plain breadth-first search."""
    rows, cols = mask.shape
    seen: set[tuple[int, int]] = set()
    found = []
    for start in zip(*np.nonzero(mask), strict=True):
        start = (int(start[0]), int(start[1]))
        if start in seen:
            continue
        group, frontier = {start}, [start]
        seen.add(start)
        while frontier:
            r, c = frontier.pop()
            for rr in range(max(0, r - 1), min(rows, r + 2)):
                for cc in range(max(0, c - 1), min(cols, c + 2)):
                    if mask[rr, cc] and (rr, cc) not in seen:
                        seen.add((rr, cc))
                        group.add((rr, cc))
                        frontier.append((rr, cc))
        found.append(group)
    return found


@given(hnp.arrays(np.bool_, hnp.array_shapes(min_dims=2, max_dims=2, max_side=16)))
def test_definitions_by_breadth_first_search(mines: np.ndarray) -> None:
    field = Minefield(mines)
    stats = board_stats(field)
    blank = (field.numbers == 0) & ~mines
    openings = groups(blank)
    bordered = set()
    for group in openings:
        for r, c in group:
            for rr in range(max(0, r - 1), min(mines.shape[0], r + 2)):
                for cc in range(max(0, c - 1), min(mines.shape[1], c + 2)):
                    bordered.add((rr, cc))
    lone = np.zeros_like(mines)
    for r, c in zip(*np.nonzero(~mines), strict=True):
        if (int(r), int(c)) not in bordered:
            lone[r, c] = True
    assert stats.openings == len(openings)
    assert stats.bbbv == len(openings) + int(lone.sum())
    assert stats.islands == len(groups(lone))


def test_a_board_without_safe_squares() -> None:
    stats = board_stats(Minefield(np.ones((3, 3), bool)))
    assert (stats.bbbv, stats.openings, stats.islands) == (0, 0, 0)
    assert stats.density == 1.0


def test_game_stats_count_the_clicks() -> None:
    # . 2 * 2 .
    # . 3 * 3 .
    # . 2 * 2 .   3BV = 2 openings + 0 lone numbers
    game = Game.from_field(Minefield.from_text("..*..\n..*..\n..*..\n"), clock=Clock(step=0.5))
    game.flag(0, 2)  # right
    game.reveal(0, 0)  # left, opens the left region
    game.reveal(0, 1)  # left, wasted
    game.chord(0, 1)  # chord, wasted: one flag for a 2
    game.unflag(0, 2)  # right
    game.reveal(0, 4)  # left: wins
    stats = game_stats(game)
    assert stats.status is GameStatus.WON
    assert (stats.left_clicks, stats.right_clicks, stats.chord_clicks) == (3, 2, 1)
    assert (stats.clicks, stats.wasted_clicks, stats.effective_clicks) == (6, 2, 4)
    assert (stats.bbbv, stats.solved_bbbv) == (2, 2)
    assert stats.ioe == pytest.approx(2 / 6)
    assert stats.throughput == pytest.approx(2 / 4)
    assert stats.correctness == pytest.approx(4 / 6)
    assert stats.time == pytest.approx(2.5)
    assert stats.bbbv_per_second == pytest.approx(2 / 2.5)


def test_solved_bbbv_of_a_lost_game() -> None:
    # * 1 . . .
    # 1 1 . 1 1
    # . . . 1 *   3BV: one opening and no lone number
    game = Game.from_field(Minefield.from_text("*....\n.....\n....*\n"), clock=Clock(step=0.5))
    assert board_stats(game.field).bbbv == 1  # type: ignore[arg-type]
    game.reveal(0, 0)
    stats = game_stats(game)
    assert stats.status is GameStatus.LOST
    assert stats.solved_bbbv == 0
    assert stats.ioe == 0.0


def test_stats_of_a_game_not_started() -> None:
    stats = game_stats(Game.new("expert", seed=1))
    assert (stats.clicks, stats.bbbv, stats.solved_bbbv, stats.bbbv_per_second) == (0, 0, 0, 0.0)
    assert stats.correctness == stats.throughput == stats.ioe == 0.0
