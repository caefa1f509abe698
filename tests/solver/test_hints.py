"""Hints: a safe square when there is one, else the lowest risk."""

from __future__ import annotations

import pytest

from minesweep import Game, GameOverError, InvalidBoardError, Minefield
from minesweep.formats import parse_view
from minesweep.solver import HintReason, hint


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
    assert "flag at row 1, column 4 is wrong" in advice.reason


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


@pytest.mark.parametrize(
    ("source", "mines", "why"),
    [
        ("..1F\n..1#\n..11\n", 1, HintReason.WRONG_FLAG),
        ("1#\n##\n", 1, HintReason.LOWEST_PROBABILITY),
        ("..1#\n..1#\n..11\n", 1, HintReason.SAFE),
    ],
)
def test_a_hint_is_worded_in_each_front_end_s_numbering(
    source: str, mines: int, why: HintReason
) -> None:
    advice = hint(parse_view(source), mines)
    assert advice.why is why
    counted_from_one = advice.words(lambda row, col: f"row {row + 1}, column {col + 1}")
    assert f"row {advice.row + 1}, column {advice.col + 1}" in counted_from_one
    assert f"({advice.row}, {advice.col})" not in counted_from_one
    assert advice.reason == counted_from_one  # the default names squares from 1 too


@pytest.mark.parametrize(
    ("rule", "why"),
    [("none", HintReason.FIRST_CLICK_UNIFORM), ("safe", HintReason.FIRST_CLICK_SAFE)],
)
def test_the_first_click_hint_names_its_rule(rule: str, why: HintReason) -> None:
    advice = hint(Game(5, 5, 5, rule=rule, seed=1))
    assert advice.why is why
    assert advice.safe is (rule != "none")
    assert (rule in advice.reason) is (rule != "none")
