"""The terminal game's saves: a game log per kind of game, resumed, rewritten, migrated."""

from __future__ import annotations

import json
import pathlib
import sqlite3

import numpy as np
import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot

from minesweep import Action, CellState, Game, Minefield
from minesweep.formats import log_base, parse_game_log
from minesweep.frontend import Settings
from minesweep.history import record_line
from minesweep.tui import Store

from .helpers import Clock, drive, make_app, message


def test_a_game_in_progress_resumes_after_a_restart(tmp_path: pathlib.Path) -> None:
    first = make_app(tmp_path)
    state: list[np.ndarray] = []

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space", "down", "down", "right", "f")
        state.append(first.game.state.copy())
        # No quit: the process could have been killed here.

    drive(first, play, (60, 20))
    again = make_app(tmp_path)

    async def check(pilot: Pilot[None]) -> None:
        assert np.array_equal(again.game.state, state[0])
        assert [str(a) for a in again.game.history] == ["O0,0", "F2,1"]

    drive(again, check, (60, 20))


def test_each_kind_of_game_keeps_its_own_save_and_resume_says_which(
    tmp_path: pathlib.Path,
) -> None:
    expert = make_app(tmp_path, settings=Settings.of(preset="expert", seed=3))

    async def play_expert(pilot: Pilot[None]) -> None:
        await pilot.press("space", "down", "f")

    drive(expert, play_expert, (80, 24))
    beginner = make_app(tmp_path)

    async def play_beginner(pilot: Pilot[None]) -> None:
        text = message(beginner)
        assert text.startswith("No saved beginner game. Saved: expert (2 actions)")
        await pilot.press("space")

    drive(beginner, play_beginner, (60, 20))
    again = make_app(tmp_path, settings=Settings.of(preset="expert", seed=3))

    async def check(pilot: Pilot[None]) -> None:
        assert [str(a) for a in again.game.history] == ["O0,0", "F1,0"]
        text = message(again)
        assert text.startswith("Resumed your saved expert game: 2 actions")

    drive(again, check, (80, 24))
    kinds = dict(Store(tmp_path / "db.sqlite3").saved_kinds())
    assert kinds == {"expert": 2, "beginner": 1}


def test_the_save_appends_one_record_an_action_and_never_the_field(
    tmp_path: pathlib.Path,
) -> None:
    settings = Settings.of(size=(1000, 1000), mines=150_000, rule="safe")
    app = make_app(tmp_path, settings=settings)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space", "right", "f", "right", "f", "u")

    drive(app, play, (80, 24))
    saved = Store(tmp_path / "db.sqlite3").saved("1000x1000/150000/safe")
    assert saved is not None
    # The base is the game before its first action: its seed lays the field again.
    base = json.loads(saved.base)
    assert (base["format"], base["seed"], base["field"], base["history"]) == (
        "minesweep-game", app.game.seed, None, [],
    )  # fmt: skip
    records = [json.loads(line) for line in saved.records]
    assert [record.get("action", "undo") for record in records] == [
        "O0,0", "F0,1", "F0,2", "undo",
    ]  # fmt: skip
    assert saved.records == [record_line(record) for record in records]
    again = make_app(tmp_path, settings=settings)

    async def check(pilot: Pilot[None]) -> None:
        assert np.array_equal(again.game.state, app.game.state)
        assert again.assisted

    drive(again, check, (80, 24))


def test_undoing_the_first_reveal_takes_the_field_back_and_resumes_so(
    tmp_path: pathlib.Path,
) -> None:
    app = make_app(tmp_path, settings=Settings.of(preset="beginner"))

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("f", "right", "space", "u")
        assert app.game.field is None
        assert [str(a) for a in app.game.history] == ["F0,0"]

    drive(app, play, (60, 20))
    again = make_app(tmp_path, settings=Settings.of(preset="beginner"))

    async def check(pilot: Pilot[None]) -> None:
        assert again.game.field is None
        assert [str(a) for a in again.game.history] == ["F0,0"]

    drive(again, check, (60, 20))


def test_a_no_guess_game_resumes_on_its_field(tmp_path: pathlib.Path) -> None:
    settings = Settings(rows=9, cols=9, mines=10, preset="beginner", seed=5, no_guess=True)
    app = make_app(tmp_path, settings=settings)

    async def play(pilot: Pilot[None]) -> None:
        app.board.move_cursor(4, 4)
        await pilot.press("space")

    drive(app, play, (60, 20))
    again = make_app(tmp_path, settings=settings)

    async def check(pilot: Pilot[None]) -> None:
        assert again.game.field is not None
        assert app.game.field is not None
        assert np.array_equal(again.game.field.mines, app.game.field.mines)

    drive(again, check, (60, 20))


# --- a game log, the same after a quit; the saves of before, migrated ---------------------


def played_history(game: Game) -> list[tuple[str, float]]:
    return [(str(action), action.time) for action in game.history]


@pytest.mark.parametrize("no_guess", [False, True], ids=["seeded", "no-guess"])
def test_a_game_quit_and_resumed_is_the_same_game(tmp_path: pathlib.Path, no_guess: bool) -> None:
    settings = Settings(rows=9, cols=9, mines=10, preset="beginner", seed=5, no_guess=no_guess)
    app = make_app(tmp_path, settings=settings, clock=Clock(step=0.25))
    before: list[Game] = []

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("f")  # (0, 0) flagged before the field is laid
        app.board.move_cursor(4, 4)
        await pilot.press("space")  # the first reveal lays the field
        field = app.game.field
        assert field is not None
        assert not app.game.is_over
        hidden = app.game.state == CellState.HIDDEN
        hidden[0, 0] = False
        mine = np.argwhere(hidden & field.mines)[0]
        safe = np.argwhere(hidden & ~field.mines)[0]
        app.board.move_cursor(int(mine[0]), int(mine[1]))
        await pilot.press("f")
        app.board.move_cursor(int(safe[0]), int(safe[1]))
        await pilot.press("space", "u", "f")  # reveal it, take it back, flag it
        before.append(app.game)
        await pilot.press("q")

    drive(app, play, (60, 20))
    (game,) = before
    assert (len(game.history), game.undos) == (4, 1)
    saved = Store(tmp_path / "db.sqlite3").saved(settings.kind)
    assert saved is not None
    base = json.loads(saved.base)
    assert base["history"] == []
    assert (base["field"] is not None) is no_guess  # a no-guess field no seed lays again
    assert len(saved.records) == 6
    logged = parse_game_log(saved.base, saved.records)
    assert played_history(logged) == played_history(game)
    again = make_app(tmp_path, settings=settings)

    async def check(pilot: Pilot[None]) -> None:
        resumed = again.game
        assert played_history(resumed) == played_history(game)
        assert resumed.undos == game.undos
        assert np.array_equal(resumed.glyphs(), game.glyphs())
        assert resumed.field == game.field
        assert again.assisted
        assert message(again).startswith(f"Resumed your saved {settings.kind} game: 4 actions, ")
        assert message(again).endswith(", assisted.")

    drive(again, check, (60, 20))


def write_old_save(
    tmp_path: pathlib.Path, kind: str, header: dict[str, object], records: list[dict[str, object]]
) -> None:
    """A save as the terminal game wrote them before they were game logs, in its tables."""
    write_old_rows(
        tmp_path,
        kind,
        json.dumps({"format": "minesweep-save", "version": 1, **header}),
        [json.dumps(record) for record in records],
    )


def write_old_rows(tmp_path: pathlib.Path, kind: str, header: str, lines: list[str]) -> None:
    """A header and records where the store of before kept them (the tables are the same)."""
    path = tmp_path / "db.sqlite3"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO saved_games (kind, header, assisted, actions, updated) "
            "VALUES (?, ?, 0, ?, 0)",
            (kind, header, len(lines)),
        )
        db.executemany(
            "INSERT INTO saved_actions (kind, seq, record) VALUES (?, ?, ?)",
            [(kind, seq, line) for seq, line in enumerate(lines)],
        )
    db.close()


OLD_HEADER = {"rows": 9, "cols": 9, "mines": 10, "rule": "opening", "question_marks": False}


def test_an_old_save_is_resumed_and_written_again_as_a_game_log(tmp_path: pathlib.Path) -> None:
    old: list[dict[str, object]] = [
        {"action": "F8,8", "time": 0.0},
        {"action": "O0,0", "time": 1.5},
        {"action": "F2,1", "time": 2.0},
        {"undo": True},
        {"action": "F2,1", "time": 3.25},
    ]
    write_old_save(tmp_path, "beginner", {**OLD_HEADER, "seed": 7, "no_guess": False}, old)
    # What the save held, as its reader of before replayed it.
    played = [Action.parse("F8,8", 0.0), Action.parse("O0,0", 1.5), Action.parse("F2,1", 3.25)]
    expected = Game.replay(Game(9, 9, 10, rule="opening", seed=7), played, undos=1)
    app = make_app(tmp_path)

    async def check(pilot: Pilot[None]) -> None:
        game = app.game
        assert played_history(game) == played_history(expected)
        assert game.undos == expected.undos == 1
        assert np.array_equal(game.glyphs(), expected.glyphs())
        assert message(app).startswith("Resumed your saved beginner game: 3 actions")

    drive(app, check, (60, 20))
    saved = Store(tmp_path / "db.sqlite3").saved("beginner")
    assert saved is not None
    assert saved.base == log_base(Game(9, 9, 10, rule="opening", seed=7))
    assert saved.records == [record_line(record) for record in old]


def test_an_old_no_guess_save_keeps_its_field_in_the_base(tmp_path: pathlib.Path) -> None:
    field = [
        "*.......*",
        ".........",
        "..*......",
        ".........",
        ".........",
        "......*..",
        "*........",
        "....*....",
        "*.*....**",
    ]
    old = [
        {"action": "F0,0", "time": 0.0},
        {"field": field, "first_click": [4, 4]},
        {"action": "O4,4", "time": 2.5},
    ]
    settings = Settings(rows=9, cols=9, mines=10, preset="beginner", seed=5, no_guess=True)
    header = {**OLD_HEADER, "seed": 5, "no_guess": True}
    write_old_save(tmp_path, settings.kind, header, old)
    laid = Game(
        9, 9, 10, rule="opening", field=Minefield.from_text("\n".join(field)), first_click=(4, 4)
    )
    app = make_app(tmp_path, settings=settings)

    async def check(pilot: Pilot[None]) -> None:
        game = app.game
        assert game.field == laid.field
        assert played_history(game) == [("F0,0", 0.0), ("O4,4", 2.5)]
        assert game[0, 0] is CellState.FLAGGED
        assert game[4, 4] is CellState.REVEALED

    drive(app, check, (60, 20))
    saved = Store(tmp_path / "db.sqlite3").saved(settings.kind)
    assert saved is not None
    assert saved.base == log_base(laid)
    assert saved.records == [record_line(old[0]), record_line(old[2])]


@pytest.mark.parametrize(
    ("header", "records"),
    [
        ("not JSON", []),
        (json.dumps({"format": "minesweep-save", "version": 2, **OLD_HEADER, "seed": 7}), []),
        (json.dumps({"format": "minesweep-save", "version": 1, "seed": 7}), []),
        (json.dumps({"format": "minesweep-save", "version": 1, **OLD_HEADER, "seed": 7}),
         ['{"undo": true}']),
        (log_base(Game(9, 9, 10, seed=7)), ['{"action": "Z1,1", "time": 0}']),
        (log_base(Game(9, 9, 10, seed=7)), ["{"]),
    ],
    ids=["not-json", "old-version-2", "old-no-size", "old-undo-of-nothing", "bad-action",
         "bad-line"],
)  # fmt: skip
def test_an_unreadable_save_is_refused_and_a_new_game_starts(
    tmp_path: pathlib.Path, header: str, records: list[str]
) -> None:
    if header.startswith('{"format": "minesweep-save"') or not header.startswith("{"):
        write_old_rows(tmp_path, "beginner", header, records)
    else:
        Store(tmp_path / "db.sqlite3").rewrite("beginner", header, records, assisted=False)
    app = make_app(tmp_path)

    async def check(pilot: Pilot[None]) -> None:
        assert message(app) == "The saved beginner game could not be read; a new game starts."
        assert app.game.history == ()

    drive(app, check, (60, 20))
    assert Store(tmp_path / "db.sqlite3").saved("beginner") is None
