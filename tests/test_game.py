"""Game: the first click, actions, chords, win and loss, LeetCode positions.

Undo, redo, replays and time are in test_game_history.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minesweep.board
import minesweep.field
import minesweep.game
import minesweep.position
from minesweep import (
    Action,
    ActionKind,
    CellState,
    Game,
    GameOverError,
    GameStatus,
    Glyph,
    InvalidBoardError,
    InvalidClickError,
    Minefield,
    SettingsError,
    grid,
)

from .games import WALL, actions, game_on, play
from .helpers import Clock

# --- the first click ---------------------------------------------------------------


@given(st.integers(0, 2**32), st.integers(0, 15), st.integers(0, 29))
def test_first_reveal_of_a_new_game_always_opens(seed: int, row: int, col: int) -> None:
    game = Game.new("expert", seed=seed)
    effect = game.reveal(row, col)
    assert game.field is not None
    assert game.field.numbers[row, col] == 0
    assert not game.field.is_mine(row, col)
    assert effect.opened >= 4


@given(st.integers(0, 2**32))
def test_safe_rule_never_explodes_on_the_first_click(seed: int) -> None:
    game = Game(3, 3, 8, rule="safe", seed=seed)
    assert game.reveal(1, 1).status is GameStatus.WON


def test_mines_are_laid_at_the_first_reveal_and_flags_before_it_stay() -> None:
    game = Game.new("beginner", seed=5, clock=Clock(step=1.0))
    assert game.field is None
    game.flag(8, 8)
    assert game.field is None
    assert game[8, 8] is CellState.FLAGGED
    game.reveal(0, 0)
    assert game.field is not None
    assert game[8, 8] is CellState.FLAGGED
    assert game.field == Game.replay(game, game.history).field


def test_a_crowded_game_is_refused_up_front() -> None:
    with pytest.raises(SettingsError, match="at most 7"):
        Game(4, 4, 8, rule="opening")
    Game(4, 4, 8, rule="safe")


def test_unknown_preset_is_refused() -> None:
    with pytest.raises(SettingsError, match="preset must be one of"):
        Game.new("master")


# --- reveal, flags, chords ----------------------------------------------------------


def test_reveal_opens_and_reports_the_changed_cells() -> None:
    game = game_on(WALL)
    effect = game.reveal(0, 0)
    assert effect.effective
    assert effect.opened == 6
    assert sorted(map(tuple, effect.cells.tolist())) == [(r, c) for r in range(3) for c in (0, 1)]
    assert game.status is GameStatus.PLAYING


def test_flood_counts_each_square_once() -> None:
    # Seeds list the same mistake in other clones: a square opened by two
    # neighbouring blanks counted twice.
    game = game_on("....\n....\n....\n")
    effect = game.reveal(1, 1)
    assert effect.opened == 12 == len({tuple(c) for c in effect.cells.tolist()})


def test_wasted_clicks_change_nothing_but_are_recorded() -> None:
    game = game_on(WALL)
    game.reveal(0, 1)
    before = game.state.copy()
    for action in (game.reveal(0, 1), game.flag(0, 1), game.unflag(2, 0), game.chord(0, 1)):
        assert not action.effective
        assert action.opened == 0
        assert len(action.cells) == 0
    assert np.array_equal(game.state, before)
    assert len(game.history) == 5


def test_chord_opens_the_unflagged_neighbours() -> None:
    game = game_on(WALL)
    game.reveal(1, 1)
    for row in range(3):
        game.flag(row, 2)
    effect = game.chord(1, 1)
    assert effect.effective
    assert effect.opened == 5  # the rest of the left region, through the blank (0, 0)
    assert all(game[r, c] is CellState.REVEALED for r in range(3) for c in (0, 1))
    assert game[1, 2] is CellState.FLAGGED
    assert game[1, 3] is CellState.HIDDEN
    assert game.status is GameStatus.PLAYING


def test_chord_with_a_wrong_flag_explodes_like_winmine() -> None:
    game = game_on(WALL)
    game.reveal(1, 1)
    game.flag(0, 2)
    game.flag(1, 2)
    game.flag(2, 1)  # wrong: the mine is at (2, 2)
    effect = game.chord(1, 1)
    assert effect.status is GameStatus.LOST
    assert game[2, 2] is CellState.EXPLODED
    assert game.outcome().exploded_at == (2, 2)
    glyphs = game.glyphs()
    assert glyphs[2, 1] == Glyph.WRONG_FLAG
    assert glyphs[2, 2] == Glyph.EXPLODED
    assert glyphs[0, 2] == Glyph.FLAG
    # The safe neighbours the chord reached were opened too.
    assert game[0, 0] is CellState.REVEALED


def test_chord_with_too_few_flags_is_wasted() -> None:
    game = game_on(WALL)
    game.reveal(1, 1)
    game.flag(0, 2)
    assert not game.chord(1, 1).effective
    assert game[0, 0] is CellState.HIDDEN


def test_chord_on_a_blank_next_to_a_preplaced_flag_is_wasted() -> None:
    game = game_on(WALL)
    game.flag(1, 0)  # a wrong flag, placed before the opening
    game.reveal(0, 0)
    assert game[1, 0] is CellState.FLAGGED  # the flood stopped at it
    assert not game.chord(0, 0).effective
    assert game[1, 0] is CellState.FLAGGED
    assert game.status is GameStatus.PLAYING


def test_chord_on_a_hidden_square_is_wasted() -> None:
    game = game_on(WALL)
    assert not game.chord(0, 0).effective
    assert game.status is GameStatus.PLAYING


def test_chord_that_opens_the_last_safe_square_wins() -> None:
    game = game_on("*.\n..\n")
    game.reveal(1, 1)
    game.reveal(0, 1)
    game.flag(0, 0)
    effect = game.chord(0, 1)
    assert effect.status is GameStatus.WON


def test_chord_that_hits_a_mine_is_lost_even_when_hidden_squares_equal_mines() -> None:
    # After this chord the squares not revealed (a wrong flag and a flagged
    # mine) are as many as the mines: a clone counting those declares a win.
    game = game_on("*.*\n...\n")
    game.reveal(1, 1)  # shows 2
    game.reveal(1, 0)
    game.reveal(1, 2)
    game.flag(0, 1)  # wrong flag
    game.flag(0, 2)
    effect = game.chord(1, 1)
    assert effect.status is GameStatus.LOST
    assert game[0, 0] is CellState.EXPLODED


def test_flags_toggle_and_questions_cycle() -> None:
    game = game_on(WALL, questions=True)
    assert game.toggle_flag(0, 0).action.kind is ActionKind.FLAG
    assert game.mines_left == 2
    assert game.toggle_flag(0, 0).action.kind is ActionKind.QUESTION
    assert game[0, 0] is CellState.QUESTIONED
    assert game.toggle_flag(0, 0).action.kind is ActionKind.UNFLAG
    assert game[0, 0] is CellState.HIDDEN  # type: ignore[comparison-overlap]
    plain = game_on(WALL)
    plain.toggle_flag(0, 0)
    assert plain.toggle_flag(0, 0).action.kind is ActionKind.UNFLAG


def test_mines_left_may_go_negative() -> None:
    game = game_on("*.\n..\n")
    game.flag(0, 1)
    game.flag(1, 0)
    assert game.mines_left == -1


# --- win and loss ----------------------------------------------------------------


def test_win_without_any_flag_flags_the_mines() -> None:
    game = game_on(WALL)
    assert game.reveal(0, 0).status is GameStatus.PLAYING
    effect = game.reveal(2, 4)
    assert effect.status is GameStatus.WON
    assert all(game[r, 2] is CellState.FLAGGED for r in range(3))
    assert game.mines_left == 0
    outcome = game.outcome()
    assert outcome.is_over
    assert outcome.safe_remaining == 0


def test_loss_marks_the_exploded_mine_and_shows_the_others() -> None:
    game = game_on(WALL)
    game.flag(0, 1)  # wrong flag
    effect = game.reveal(1, 2)
    assert effect.status is GameStatus.LOST
    glyphs = game.glyphs()
    assert glyphs[1, 2] == Glyph.EXPLODED
    assert glyphs[0, 2] == glyphs[2, 2] == Glyph.MINE
    assert glyphs[0, 1] == Glyph.WRONG_FLAG
    assert glyphs[0, 0] == Glyph.HIDDEN
    assert game.outcome().exploded_at == (1, 2)


@pytest.mark.parametrize(
    "action",
    [
        lambda g: g.reveal(1, 1),
        lambda g: g.flag(1, 1),
        lambda g: g.chord(0, 1),
        lambda g: g.toggle_flag(1, 1),
    ],
)
def test_actions_after_the_end_raise_and_change_nothing(action: object) -> None:
    game = game_on(WALL)
    game.reveal(0, 2)
    before = game.state.copy()
    history = game.history
    with pytest.raises(GameOverError, match="the game is over"):
        action(game)  # type: ignore[operator]
    assert np.array_equal(game.state, before)
    assert game.history == history


@pytest.mark.parametrize(
    ("row", "col", "message"),
    [(3, 0, "row 3 is outside"), (0, -1, "column -1 is outside"), ("1", 0, "must be an int")],
)
def test_actions_off_the_board_raise_and_change_nothing(
    row: object, col: object, message: str
) -> None:
    game = game_on(WALL)
    game.reveal(0, 0)
    before = game.state.copy()
    with pytest.raises(InvalidClickError, match=message):
        game.reveal(row, col)  # type: ignore[arg-type]
    assert np.array_equal(game.state, before)
    assert len(game.history) == 1


# --- LeetCode boards as games ----------------------------------------------------------


def test_a_leetcode_board_becomes_a_game_in_that_position() -> None:
    game = Game.from_leetcode([list("B1E1B"), list("B1M1B"), list("B111B"), list("BBBBB")])
    assert game.status is GameStatus.PLAYING
    game.reveal(0, 2)
    assert game.status is GameStatus.WON  # type: ignore[comparison-overlap]
    assert Game.from_leetcode([list("1X")]).status is GameStatus.LOST


def test_game_exports_its_position_as_leetcode() -> None:
    game = game_on(WALL)
    game.reveal(0, 0)
    game.flag(0, 2)
    board = game.to_leetcode()
    assert ["".join(row) for row in board] == ["B2mEE", "B3MEE", "B2MEE"]
    again = Game.from_leetcode(board)
    assert np.array_equal(again.state, game.state)


# --- regressions found in review ---------------------------------------------------


def test_a_wasted_first_reveal_on_a_flag_does_not_lay_the_mines() -> None:
    game = Game(3, 3, 8, rule="safe", seed=0)
    game.question(1, 1)
    game.flag(0, 0)
    assert not game.lays_mines(Action(ActionKind.REVEAL, 0, 0))
    assert not game.lays_mines(Action(ActionKind.CHORD, 2, 2))
    assert game.lays_mines(Action(ActionKind.REVEAL, 1, 1))
    assert game.lays_mines(Action(ActionKind.REVEAL, 2, 2))
    assert not game.reveal(0, 0).effective
    assert game.field is None
    assert game.reveal(2, 2).status is GameStatus.WON
    assert game.first_click == (2, 2)


def test_lays_mines_checks_the_square_it_is_asked_about() -> None:
    # A user's call is an edge: the square is checked there (push checks its own).
    game = Game(3, 3, 1, rule="safe", seed=0)
    with pytest.raises(InvalidClickError, match="row 3 is outside the board"):
        game.lays_mines(Action(ActionKind.REVEAL, 3, 0))
    with pytest.raises(InvalidClickError, match="column -1 is outside the board"):
        game.push(Action(ActionKind.REVEAL, 0, -1))
    assert game.field is None
    assert not game.history


def test_replaying_a_leetcode_position_keeps_its_status() -> None:
    lost = Game.from_leetcode([list("B2X"), list("B2M"), list("B11")])
    assert lost.status is GameStatus.LOST
    again = Game.replay(lost, [])
    assert again.status is GameStatus.LOST
    before = again.history
    with pytest.raises(GameOverError):
        again.flag(2, 2)
    assert again.history == before
    playing = Game.from_leetcode([list("B1E"), list("B1M"), list("B11")])
    assert Game.replay(playing, []).status is GameStatus.PLAYING


def test_actions_must_be_actions() -> None:
    game = game_on(WALL)
    with pytest.raises(InvalidClickError, match="expected an Action"):
        game.push(Action("C", 1, 1))  # type: ignore[arg-type]
    with pytest.raises(InvalidClickError, match="expected an Action"):
        game.push("O1,1")  # type: ignore[arg-type]
    assert game.history == ()


def test_a_board_without_safe_squares_is_not_won_by_a_flag() -> None:
    game = game_on("**\n")
    effect = game.question(0, 0)
    assert effect.status is GameStatus.PLAYING
    assert effect.cells.tolist() == [[0, 0]]
    game.pop()
    assert game[0, 0] is CellState.HIDDEN
    assert game.reveal(0, 1).status is GameStatus.LOST
    assert Game.from_leetcode([list("MM")]).status is GameStatus.READY


def test_a_won_leetcode_position_shows_its_mines_flagged() -> None:
    game = Game.from_leetcode([list("B1M")])
    assert game.status is GameStatus.WON
    assert game.glyphs().tolist() == [[0, 1, Glyph.FLAG]]


#: Game without its types: the calls below pass wrong types on purpose.
LOOSE_GAME: Any = Game


def loose(value: object) -> Any:
    """``value`` without its type, for a call that is wrong on purpose."""
    return value


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: loose(game_on(WALL))[5], InvalidClickError, "a square is \\(row, col\\)"),
        (lambda: loose(game_on(WALL))[1, 2, 3], InvalidClickError, "a square is"),
        (lambda: LOOSE_GAME.new(["x"]), SettingsError, "preset must be one of"),
        (
            lambda: LOOSE_GAME(2, 2, 0, field=[[0, 0], [0, 0]]),
            InvalidBoardError,
            "must be a Minefield",
        ),
        (lambda: LOOSE_GAME.from_field([[0]]), InvalidBoardError, "must be a Minefield"),
        (lambda: Game(9, 9, 10, seed=-1), SettingsError, "seed must be an int"),
        (lambda: LOOSE_GAME(9, 9, 10, seed="7"), SettingsError, "seed must be an int"),
        (lambda: Game(9, 9, 10, rule="maybe"), SettingsError, "first-click rule must be one of"),
        (lambda: Game(9, 9, 10, first_click=(9, 9)), InvalidClickError, "row 9 is outside"),
    ],
)
def test_bad_arguments_raise_our_errors(make: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        make()  # type: ignore[operator]


def test_numpy_integer_seeds_are_accepted() -> None:
    a = Game(9, 9, 10, seed=np.int64(5))  # type: ignore[arg-type]
    b = Game(9, 9, 10, seed=5)
    a.reveal(4, 4)
    b.reveal(4, 4)
    assert a.field == b.field


@given(
    st.integers(0, 2**32),
    st.lists(actions, max_size=40),
    st.integers(0, 12),
    st.booleans(),
    st.integers(0, 9),
    st.integers(0, 9),
)
def test_flags_and_row_bands_agree_with_the_whole_view(
    seed: int,
    moves: list[tuple[ActionKind, int, int]],
    undos: int,
    questions: bool,
    start: int,
    stop: int,
) -> None:
    # The flag counter is kept as actions go; a band of rows is read alone.
    # Both must say what the whole state and the whole view say, after any
    # actions, undos and redos, won or lost.
    game = Game.new("beginner", seed=seed, clock=Clock(step=1.0), question_marks=questions)
    play(game, moves)
    for index in range(min(undos, len(game.history))):
        game.pop()
        if index % 3 == 2:
            game.redo()
    assert game.flags == int(np.count_nonzero(game.state == CellState.FLAGGED))
    assert game.mines_left == game.mine_count - game.flags
    assert np.array_equal(game.glyphs(slice(start, stop)), game.glyphs()[start:stop])


def test_a_band_of_rows_must_be_a_slice() -> None:
    with pytest.raises(SettingsError, match="rows must be a slice"):
        Game.new("beginner", seed=1).glyphs(3)  # type: ignore[arg-type]


def test_a_position_with_flags_counts_them_from_the_start() -> None:
    game = Game.from_leetcode([list("1mE"), list("11E")])
    assert (game.flags, game.mines_left) == (1, 0)
    game.push(Action(ActionKind.UNFLAG, 0, 1))
    assert (game.flags, game.mines_left) == (0, 1)
    game.pop()
    assert game.flags == 1


@pytest.mark.parametrize(
    ("name", "row", "col"),
    [
        ("reveal", 1, 2),
        ("chord", 1, 1),
        ("flag", 0, 2),
        ("toggle_flag", 0, 0),
        ("unflag", 0, 0),
        ("question", 0, 2),
    ],
)
def test_a_square_is_checked_once_on_its_way_in(
    monkeypatch: pytest.MonkeyPatch, name: str, row: int, col: int
) -> None:
    # Game checks an action's square as it enters; the position, the board
    # and the field below take it as it is (a second check would only cost).
    game = Game.from_field(Minefield.from_text("*..\n...\n"))
    game.flag(0, 0)
    game.reveal(1, 1)
    seen: list[tuple[object, object]] = []
    checked = grid.check_position

    def counted(shape: tuple[int, int], row: object, col: object) -> None:
        seen.append((row, col))
        checked(shape, row, col)

    for module in (minesweep.game, minesweep.board, minesweep.field, minesweep.position):
        if hasattr(module, "check_position"):
            monkeypatch.setattr(module, "check_position", counted)
    getattr(game, name)(row, col)
    assert seen == [(row, col)]


@pytest.mark.parametrize("name", ["reveal", "chord", "flag", "toggle_flag", "question"])
def test_a_square_off_the_board_is_refused_by_name_and_place(name: str) -> None:
    game = Game.from_field(Minefield.from_text("*..\n...\n"))
    with pytest.raises(InvalidClickError, match="row 2 is outside the board"):
        getattr(game, name)(2, 0)
    with pytest.raises(InvalidClickError, match="column must be an int"):
        getattr(game, name)(0, "1")
    assert game.history == ()
