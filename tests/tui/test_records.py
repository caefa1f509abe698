"""Records as players expect them: the game's time across a quit, abandoned and seeded games."""

from __future__ import annotations

import pathlib
import sqlite3

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import GameStatus
from minesweep.frontend import Settings
from minesweep.tui import Store

from .helpers import Clock, drive, make_app, message, step_on_a_mine

# --- the clock is the game's, across a quit and a resume ------------------------------------


def test_the_clock_resumes_from_the_time_at_the_quit(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 2
        await pilot.press("down", "f")
        clock.now += 3.5  # no action since the flag at 2 s
        assert app.game.elapsed == 5.5
        await pilot.press("q")

    drive(app, play, (60, 20))
    later = Clock()
    later.now = 1000.0  # another process: its clock reads something else entirely
    again = make_app(tmp_path, clock=later)

    async def check(pilot: Pilot[None]) -> None:
        assert again.game.elapsed == 5.5
        assert message(again) == "Resumed your saved beginner game: 2 actions, 5.5 s."
        later.now += 1
        assert again.game.elapsed == 6.5
        await pilot.press("right", "f")
        assert again.game.history[-1].time == 6.5

    drive(again, check, (60, 20))


def test_a_killed_game_keeps_the_time_written_while_it_ran(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 7  # the clock's tick writes the time every few seconds
        await pilot.pause(0.5)
        # No quit: the process could have been killed here.

    drive(app, play, (60, 20))
    saved = Store(tmp_path / "db.sqlite3").saved("beginner")
    assert saved is not None
    assert saved.elapsed == 7.0
    again = make_app(tmp_path)

    async def check(pilot: Pilot[None]) -> None:
        assert again.game.elapsed == 7.0

    drive(again, check, (60, 20))


def test_a_pause_writes_the_time(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 3
        await pilot.press("p")
        saved = Store(tmp_path / "db.sqlite3").saved("beginner")
        assert saved is not None
        assert saved.elapsed == 3.0

    drive(app, play, (60, 20))


def test_one_action_is_one_action(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space", "q")

    drive(app, play, (60, 20))
    expert = make_app(tmp_path, settings=Settings.of(preset="expert"))

    async def elsewhere(pilot: Pilot[None]) -> None:
        assert message(expert).startswith("No saved expert game. Saved: beginner (1 action);")

    drive(expert, elsewhere, (80, 24))
    again = make_app(tmp_path)

    async def check(pilot: Pilot[None]) -> None:
        assert message(again).startswith("Resumed your saved beginner game: 1 action, ")

    drive(again, check, (60, 20))


def test_a_store_of_before_is_opened_and_its_save_resumed(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "db.sqlite3"
    # The tables as the first version wrote them: no seeded or elapsed columns.
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, won INTEGER NOT "
            "NULL, seconds REAL NOT NULL, bbbv INTEGER NOT NULL, assisted INTEGER NOT NULL, "
            "finished REAL NOT NULL);"
            "CREATE TABLE saved_games (kind TEXT PRIMARY KEY, header TEXT NOT NULL, assisted "
            "INTEGER NOT NULL, actions INTEGER NOT NULL, updated REAL NOT NULL);"
            "INSERT INTO games VALUES (1, 'beginner', 1, 12.5, 10, 0, 0);"
        )
    db.close()
    store = Store(path)
    assert store.record("beginner").best_time == 12.5
    store.begin("beginner", "{}")
    store.append("beginner", "{}", assisted=False, elapsed=4.0)
    saved = store.saved("beginner")
    assert saved is not None
    assert (saved.elapsed, saved.seeded) == (4.0, None)


# --- an ended game stands; an abandoned one is a loss ---------------------------------------


def test_a_new_game_after_a_loss_leaves_the_loss_on_record(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        await step_on_a_mine(pilot, app)
        assert app.game.status is GameStatus.LOST
        await pilot.press("n")  # the game is over: no question, and nothing more to count
        assert message(app) == "New game."
        assert app.game.history == ()

    drive(app, scenario, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.lost) == (1, 1)


def test_a_new_game_on_a_game_in_progress_asks_then_counts_a_loss(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 4
        history = app.game.history
        await pilot.press("n")
        assert app.game.history == history  # asked, not done
        assert message(app) == (
            "A game is in progress: press n again to abandon it (it counts as a loss), "
            "any other key to play on."
        )
        await pilot.press("n")
        assert app.game.history == ()
        assert message(app) == "The game was abandoned and counted as a loss. New game."

    drive(app, scenario, (60, 20))
    store = Store(tmp_path / "db.sqlite3")
    record = store.record("beginner")
    assert (record.played, record.lost, record.streak) == (1, 1, 0)
    assert store.saved("beginner") is None
    (seconds,) = store._db.execute("SELECT seconds FROM games").fetchone()
    assert seconds == 4.0


def test_any_other_key_answers_play_on(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space", "n", "x")  # x is bound to nothing
        assert not app.abandon_asked
        assert message(app) == "Press ? for help."
        await pilot.press("n", "right", "n")  # asked again: one press alone
        assert app.game.history != ()
        assert app.abandon_asked

    drive(app, scenario, (60, 20))
    assert Store(tmp_path / "db.sqlite3").record("beginner").played == 0


def test_a_new_game_before_any_action_is_not_counted(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("n")
        assert message(app) == "New game."

    drive(app, scenario, (60, 20))
    assert Store(tmp_path / "db.sqlite3").record("beginner").played == 0


# --- a seed the player chose --------------------------------------------------------------


def test_a_game_on_a_chosen_seed_is_recorded_apart(tmp_path: pathlib.Path) -> None:
    app = make_app(tmp_path, settings=Settings.of(preset="beginner", seed=7))

    async def scenario(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        await step_on_a_mine(pilot, app)
        text = message(app)
        assert "A game on a seed you chose is recorded apart, never a best time." in text
        assert "beginner: won 0 of 0, streak 0 (best 0); seeded apart: won 0 of 1." in text

    drive(app, scenario, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.seeded_played, record.best_time) == (0, 1, None)


def test_a_seeded_game_stays_seeded_when_resumed_without_the_seed(
    tmp_path: pathlib.Path,
) -> None:
    app = make_app(tmp_path, settings=Settings.of(preset="beginner", seed=7))

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space", "q")

    drive(app, play, (60, 20))
    again = make_app(tmp_path)  # no --seed this time: the save says it was chosen

    async def lose(pilot: Pilot[None]) -> None:
        assert again.seeded
        await step_on_a_mine(pilot, again)

    drive(again, lose, (60, 20))
    record = Store(tmp_path / "db.sqlite3").record("beginner")
    assert (record.played, record.seeded_played) == (0, 1)


def test_textual_s_own_quit_writes_the_time_too(tmp_path: pathlib.Path) -> None:
    clock = Clock()
    app = make_app(tmp_path, clock=clock)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.now += 2.5
        await pilot.press("ctrl+q")

    drive(app, play, (60, 20))
    saved = Store(tmp_path / "db.sqlite3").saved("beginner")
    assert saved is not None
    assert saved.elapsed == 2.5
