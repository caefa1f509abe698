"""The front-end layer: settings, the first click, advice, clicks, records and scores."""

from __future__ import annotations

import subprocess
import sys
from typing import cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import (
    PRESETS,
    Action,
    ActionKind,
    CellState,
    Game,
    GameOverError,
    GameStats,
    GameStatus,
    InvalidClickError,
    Minefield,
    MinesweepError,
    SettingsError,
    game_stats,
    generate_field,
)
from minesweep.frontend import (
    Button,
    Score,
    Settings,
    act,
    advise,
    click,
    first_reveal,
    mine_probabilities,
    score,
    undo,
)
from minesweep.records import Kind

from .helpers import Clock

# --- settings -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_a_preset_gives_its_size(name: str) -> None:
    chosen = Settings.of(preset=name)
    preset = PRESETS[name]
    assert (chosen.rows, chosen.cols, chosen.mines, chosen.preset) == (
        preset.rows,
        preset.cols,
        preset.mines,
        name,
    )


def test_the_default_is_expert_opening_and_a_fresh_seed() -> None:
    assert Settings.of() == Settings() == Settings(16, 30, 99, "expert")
    assert Settings().seed is None
    assert Settings().rule == "opening"


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"size": (9, 9)}, "a size needs a mine count"),
        ({"preset": "expert", "mines": 3}, "a mine count goes with a size; a preset has its own"),
        ({"preset": "expert", "size": (9, 9), "mines": 3}, "give a preset or a size, not both"),
        ({"preset": "huge"}, "preset must be one of"),
        ({"preset": ""}, "preset must be one of .*, got ''"),
        ({"no_guess": True, "rule": "safe"}, "no-guess games always open at the first click"),
        ({"no_guess": True, "rule": "bogus"}, "no-guess games always open at the first click"),
        ({"rule": "bogus"}, "first-click rule must be one of"),
        ({"seed": -1}, "seed must be"),
        ({"size": (3, 3), "mines": 8}, "8 mines do not fit on a 3x3 board with the 'opening'"),
        ({"size": (0, 3), "mines": 0}, "at least one row and column"),
        ({"first_click": "middle"}, "first click must be a square or 'center', got 'middle'"),
    ],
)
def test_settings_that_describe_no_game_are_refused(
    keywords: dict[str, object], message: str
) -> None:
    with pytest.raises(MinesweepError, match=message) as raised:
        Settings.of(**keywords)  # type: ignore[arg-type]
    assert "--" not in str(raised.value)  # the core names no front end's option


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"rows": 5}, "give a preset, or rows, cols and mines: got rows alone"),
        ({"cols": 5, "mines": 2}, "got cols and mines alone"),
        ({"preset": "beginner", "mines": 2}, "give a preset or rows, cols and mines, not both"),
    ],
)
def test_dimensions_come_all_three_or_not_at_all(
    keywords: dict[str, int | str], message: str
) -> None:
    with pytest.raises(SettingsError, match=message):
        Settings.from_dimensions(**keywords)  # type: ignore[arg-type]


@given(
    rows=st.integers(1, 40),
    cols=st.integers(1, 40),
    data=st.data(),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_dimensions_are_a_size_and_a_preset_its_own(
    rows: int, cols: int, data: st.DataObject, preset: str
) -> None:
    mines = data.draw(st.integers(0, max(0, rows * cols - 9)))
    assert Settings.from_dimensions(rows=rows, cols=cols, mines=mines) == Settings.of(
        size=(rows, cols), mines=mines
    )
    assert Settings.from_dimensions(preset=preset) == Settings.of(preset=preset)
    assert Settings.from_dimensions(default=preset) == Settings.of(preset=preset)


def test_a_preset_cannot_be_given_another_size() -> None:
    with pytest.raises(SettingsError, match="preset 'beginner' is 9x9 with 10 mines"):
        Settings(rows=9, cols=9, mines=11, preset="beginner")


def test_a_first_click_leaves_the_fit_to_the_generator_which_names_the_square() -> None:
    chosen = Settings.of(size=(3, 3), mines=8, seed=1, first_click="center")
    assert chosen.first_click == (1, 1)
    with pytest.raises(MinesweepError, match="kept clear by the 'opening' rule at row 2, column 2"):
        chosen.lay_field()


def test_a_field_is_laid_as_the_generator_lays_it() -> None:
    chosen = Settings.of(preset="beginner", rule="safe", seed=3, first_click=(0, 0))
    expected = generate_field(9, 9, 10, first_click=(0, 0), rule="safe", seed=3)
    assert np.array_equal(chosen.lay_field().mines, expected.mines)
    game = chosen.new_game(field=chosen.lay_field())
    assert (game.seed, game.rule, game.first_click) == (3, "safe", (0, 0))


def test_a_no_guess_field_is_one_the_solver_clears() -> None:
    from minesweep.solver import clears_without_guessing

    chosen = Settings.of(preset="beginner", seed=5, no_guess=True, first_click="center")
    assert clears_without_guessing(chosen.lay_field(), (4, 4))


def test_a_no_guess_search_takes_the_time_it_is_given() -> None:
    from minesweep.solver import NoGuessBudgetError, generate_no_guess

    chosen = Settings.of(preset="beginner", seed=5, no_guess=True, first_click="center")
    expected = generate_no_guess(9, 9, 10, first_click=(4, 4), seed=5).field
    assert np.array_equal(chosen.lay_field(no_guess_seconds=30.0).mines, expected.mines)
    # Expert's density on a small board: no attempt clears it in a hundredth of a second.
    tight = Settings.of(size=(16, 30), mines=170, seed=1, no_guess=True, first_click="center")
    with pytest.raises(NoGuessBudgetError):
        tight.lay_field(no_guess_seconds=0.01)


def test_laying_a_field_needs_a_first_click_and_a_seed() -> None:
    with pytest.raises(SettingsError, match="needs a first click and a seed"):
        Settings.of(seed=1).lay_field()


# --- records: the key a game is filed under -----------------------------------------------------

sizes = st.one_of(
    st.sampled_from(sorted(PRESETS)).map(lambda name: {"preset": name}),
    st.tuples(st.integers(1, 40), st.integers(1, 40)).flatmap(
        lambda size: st.integers(0, max(0, size[0] * size[1] - 9)).map(
            lambda mines: {"size": size, "mines": mines}
        )
    ),
)


@settings(max_examples=100)
@given(sizes, st.sampled_from(["opening", "safe", "none"]), st.booleans())
def test_the_kind_is_the_key_stored_databases_hold(
    size: dict[str, object], rule: str, no_guess: bool
) -> None:
    no_guess = no_guess and rule == "opening"
    chosen = Settings.of(**size, rule=rule, no_guess=no_guess)  # type: ignore[arg-type]
    # The web game's rule from before the layer, byte for byte.
    preset = cast(str | None, size.get("preset"))
    old = (
        (preset or f"{chosen.rows}x{chosen.cols}/{chosen.mines}")
        + ("" if rule == "opening" else f"/{rule}")
        + ("/no-guess" if no_guess else "")
    )
    assert chosen.kind == old
    assert Kind.parse(chosen.kind) == chosen.kind_of


# --- clicks -------------------------------------------------------------------------------------


def test_a_click_reads_the_square_it_lands_on() -> None:
    game = Settings.of(preset="beginner", seed=7).new_game()
    assert click(game, 4, 4, Button.LEFT) == Action(ActionKind.REVEAL, 4, 4)
    game.flag(0, 0)
    assert click(game, 0, 0, Button.RIGHT) == Action(ActionKind.UNFLAG, 0, 0)
    with pytest.raises(InvalidClickError, match="row 9 is outside"):
        click(game, 9, 0, Button.LEFT)


# --- the first click ----------------------------------------------------------------------------

marks = st.lists(
    st.tuples(
        st.sampled_from([ActionKind.FLAG, ActionKind.QUESTION, ActionKind.UNFLAG]),
        st.integers(0, 8),
        st.integers(0, 8),
    ),
    max_size=6,
)


@settings(max_examples=15)
@given(marks, st.integers(0, 2**32))
def test_a_no_guess_first_reveal_replays_what_came_before_it(
    before: list[tuple[ActionKind, int, int]], seed: int
) -> None:
    from minesweep.solver import clears_without_guessing

    clock = Clock()
    game = Settings.of(preset="beginner", seed=seed, no_guess=True).new_game(clock=clock)
    for kind, row, col in before:
        game.push(Action(kind, row, col))
        clock.now += 1
    marked = game.state.copy()
    laid, effect = act(game, Action(ActionKind.REVEAL, 4, 4), no_guess=True, clock=clock)
    if marked[4, 4] == CellState.FLAGGED:
        # A reveal of a flag is a wasted click: no field is laid for it.
        assert laid is game
        assert not effect.effective
        assert game.field is None
        return
    assert effect.opened > 0
    assert laid.field is not None
    assert clears_without_guessing(laid.field, (4, 4))
    # Every action before the reveal, at its own time; the clock kept its start.
    assert laid.history[:-1] == game.history
    assert laid.history[-1].time == (len(before) if before else 0.0)
    assert laid.elapsed == (len(before) if before else 0.0)
    # Marks the reveal did not open are as they were, question marks included.
    still_hidden = laid.state <= CellState.FLAGGED
    assert np.array_equal(laid.state[still_hidden], marked[still_hidden])
    # The same seed lays the same field.
    again = first_reveal(Settings.of(preset="beginner", seed=seed).new_game(), 4, 4)
    assert again.field is not None
    assert np.array_equal(again.field.mines, laid.field.mines)


def test_a_no_guess_field_waits_for_the_reveal_that_opens_a_square() -> None:
    game = Settings.of(preset="beginner", seed=3, no_guess=True).new_game()
    game.flag(0, 0)
    game, effect = act(game, Action(ActionKind.REVEAL, 0, 0), no_guess=True)
    assert not effect.effective
    assert game.field is None
    game, effect = act(game, Action(ActionKind.REVEAL, 8, 8), no_guess=True)
    assert effect.opened > 0
    assert game.field is not None
    assert game.first_click == (8, 8)


def test_a_first_reveal_off_the_board_is_a_click_error() -> None:
    game = Settings.of(preset="beginner", no_guess=True).new_game()
    with pytest.raises(InvalidClickError, match="row 9 is outside"):
        act(game, Action(ActionKind.REVEAL, 9, 0), no_guess=True)


def test_other_actions_are_pushed_on_the_game_itself() -> None:
    game = Settings.of(preset="beginner", seed=2, no_guess=True).new_game()
    same, effect = act(game, Action(ActionKind.FLAG, 0, 0), no_guess=True)
    assert same is game
    assert effect.effective
    played = Settings.of(preset="beginner", seed=2).new_game()
    same, _ = act(played, Action(ActionKind.REVEAL, 4, 4))
    assert same is played


# --- advice -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["opening", "safe", "none"])
def test_before_the_first_reveal_the_advice_is_the_solvers_first_click(rule: str) -> None:
    from minesweep.solver import hint

    game = Settings.of(preset="beginner", rule=rule).new_game()
    advice = advise(game)
    assert advice.hint == hint(game)
    assert advice.probability is None
    assert mine_probabilities(game) is None


def test_advice_in_play_is_the_analysis_of_the_view() -> None:
    from minesweep.solver import analyze, hint

    game = Settings.of(preset="expert", seed=11).new_game()
    game.reveal(8, 15)
    advice = advise(game)
    assert advice.hint == hint(game)
    expected = analyze(game.glyphs(), game.mine_count).probability
    assert advice.probability is not None
    assert np.array_equal(advice.probability, expected, equal_nan=True)
    probability = mine_probabilities(game)
    assert probability is not None
    assert np.array_equal(probability, expected, equal_nan=True)


def test_no_advice_once_the_game_is_over() -> None:
    game = Settings.of(preset="beginner", seed=3).new_game()
    game.reveal(4, 4)
    assert game.field is not None
    row, col = (int(v) for v in np.argwhere(game.field.mines)[0])
    game.reveal(row, col)
    assert game.status is GameStatus.LOST
    with pytest.raises(GameOverError):
        advise(game)
    assert mine_probabilities(game) is None


# --- scores -------------------------------------------------------------------------------------


def test_a_score_is_the_games_statistics() -> None:
    clock = Clock()
    game = Settings.of(preset="beginner", seed=4).new_game(clock=clock)
    game.reveal(4, 4)
    assert game.field is not None
    for row, col in np.argwhere(~game.field.mines).tolist():
        if game.status is GameStatus.PLAYING and game[row, col] is not CellState.REVEALED:
            clock.now += 1
            game.reveal(row, col)
    assert game.status is GameStatus.WON
    final = score(game)
    # One record, not a copy under other names: the statistics are the score.
    assert Score is GameStats
    assert final == game_stats(game)
    assert final.won
    assert final.time == game.elapsed


def test_warming_up_loads_the_compiled_flood_fill() -> None:
    # In a fresh interpreter: nothing loads the kernel before warm_up, which does.
    code = (
        "import sys\n"
        "from minesweep.frontend import warm_up\n"
        "print('minesweep.rules.flood' in sys.modules)\n"
        "warm_up()\n"
        "print('minesweep.rules.flood' in sys.modules)\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.split() == ["False", "True"]


@pytest.mark.parametrize("mine", [True, False])
def test_an_ended_game_cannot_be_undone_in_any_front_end(mine: bool) -> None:
    # One rule for every front end: the end stands, a loss or a win.
    game = Game.from_field(Minefield.from_text("*.\n.."))
    for square in [(0, 0)] if mine else [(0, 1), (1, 0), (1, 1)]:
        game.reveal(*square)
    assert game.is_over
    history = game.history
    with pytest.raises(GameOverError, match="an ended game stands"):
        undo(game)
    assert game.history == history
    assert game.is_over
