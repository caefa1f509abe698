"""The web game's API (minesweep.web.app): its rules, no leaks, clicks, hints, scores, replays."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from minesweep import Game, Minefield
from minesweep.formats import parse_view, to_view
from minesweep.solver import analyze
from minesweep.squares import MAX_NUMBER, STATE_REVEALED
from minesweep.web import create_app
from minesweep.web.app import ApiError
from minesweep.web.models import HintRequest, Move, UndoRequest

from .helpers import (
    account_token,
    act,
    auth,
    click,
    field_of,
    get,
    new_game,
    post,
    server_game,
    version_of,
    win,
)

VIEW_SYMBOLS = set("#F?.12345678")

# --- the API's rules ------------------------------------------------------------------------


def test_a_new_game_shows_nothing_but_its_size(client: TestClient) -> None:
    state = new_game(client, preset="expert")
    assert (state["rows"], state["cols"], state["mines"], state["status"]) == (16, 30, 99, "ready")
    assert state["view"] == ["#" * 30] * 16
    assert len(state["id"]) >= 32
    assert "seed" not in state
    assert "field" not in state


def test_reveal_flag_chord_and_read(client: TestClient) -> None:
    token = new_game(client, preset="beginner", seed=7)["id"]
    result = act(client, token, "reveal", 4, 4).json()
    assert result["effective"]
    assert result["opened"] == len(result["changed"]) > 1
    state = get(client, token).json()
    assert state == result["state"] | {"elapsed": state["elapsed"]}
    field = field_of(client, token)
    mine = tuple(int(v) for v in np.argwhere(field.mines)[0])
    flagged = act(client, token, "flag", *mine).json()["state"]
    assert flagged["view"][mine[0]][mine[1]] == "F"
    assert flagged["mines_left"] == 9
    assert act(client, token, "unflag", *mine).json()["state"]["mines_left"] == 10


def test_a_loss_shows_the_mines_and_ends_the_game(client: TestClient) -> None:
    token = new_game(client, preset="beginner", seed=3)["id"]
    act(client, token, "reveal", 4, 4)
    r, c = (int(v) for v in np.argwhere(field_of(client, token).mines)[0])
    state = act(client, token, "reveal", r, c).json()["state"]
    assert state["status"] == "lost"
    assert state["view"][r][c] == "X"
    assert sum(line.count("*") for line in state["view"]) == 9
    assert "stats" in state
    after = act(client, token, "reveal", 0, 0)
    assert after.status_code == 409
    assert "over" in after.json()["error"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"preset": "huge"}, 400, "preset must be one of"),
        ({"rows": 500, "cols": 500, "mines": 10}, 422, "boards go up to 40 rows"),
        ({"rows": 3, "cols": 3, "mines": 8}, 422, "do not fit"),
        ({}, 400, "give a preset, or rows, cols and mines"),
        ({"rows": 9, "cols": 9}, 400, "give a preset, or rows, cols and mines: got rows and cols"),
        ({"mines": 3}, 400, "give a preset, or rows, cols and mines: got mines alone"),
        ({"preset": "huge", "rows": 9, "cols": 9, "mines": 1}, 400, "not both"),
        (
            {"rows": 9.5, "cols": 9, "mines": 1},
            400,
            "Expected `int | null`, got `float` - at `$.rows`",
        ),
        ({"preset": "expert", "rows": 9}, 400, "not both"),
        ({"preset": "expert", "colour": "red"}, 400, "unknown field `colour`"),
        ({"preset": "expert", "rule": "maybe"}, 400, "Invalid enum value 'maybe' - at `$.rule`"),
        ({"preset": "expert", "no_guess": True, "rule": "safe"}, 422, "always open"),
        ({"preset": "expert", "seed": -1}, 400, "Expected `int` >= 0 - at `$.seed`"),
        ({"preset": "expert", "seed": 2**64}, 400, "seed must be below 2**64"),
        ({"preset": "expert", "name": "x" * 41}, 422, "at most 40"),
        ({"preset": "expert", "no_guess": "yes"}, 400, "got `str` - at `$.no_guess`"),
        ({"preset": "expert", "bot": 1}, 400, "got `int` - at `$.bot`"),
    ],
)
def test_bad_new_games_are_refused_and_nothing_is_stored(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    db = client.app.state.service.db  # type: ignore[attr-defined]
    with db.engine.connect() as connection:
        from sqlalchemy import func, select

        from minesweep.web.schema import games

        assert connection.execute(select(func.count()).select_from(games)).scalar() == 0


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"action": "reveal", "row": 9, "col": 0}, 422, "row 9 is outside"),
        ({"action": "reveal", "row": -1, "col": 0}, 400, "Expected `int` >= 0 - at `$.row`"),
        ({"action": "reveal", "row": "1", "col": 0}, 400, "got `str` - at `$.row`"),
        ({"action": "detonate", "row": 0, "col": 0}, 400, "Invalid enum value 'detonate'"),
        ({"action": "reveal", "row": 0, "col": 0, "x": 1}, 400, "unknown field `x`"),
        ({"row": 0, "col": 0}, 400, "give an action or a click"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    token = new_game(client)["id"]
    act(client, token, "reveal", 4, 4)
    before = get(client, token).json()
    response = post(client, token, "actions", body)
    assert response.status_code == status
    assert message in response.json()["error"]
    after = get(client, token).json()
    assert after["view"] == before["view"]


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    token = new_game(client)["id"]
    bad = client.post(
        "/api/game/actions",
        content=b"{not json",
        headers={"content-type": "application/json", **auth(token)},
    )
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("the body is not valid JSON")
    big = client.post("/api/games", content=b"{" + b" " * 5000 + b"}")
    assert big.status_code == 413
    assert client.post("/api/games", json=[1, 2]).status_code == 400


def test_unknown_ids_and_other_players_games(client: TestClient) -> None:
    mine = new_game(client)["id"]
    assert get(client, "x" * 32).status_code == 404
    assert (
        client.post(
            "/api/game/actions",
            json={"action": "reveal", "row": 0, "col": 0, "version": 0},
            headers=auth("y" * 32),
        ).status_code
        == 404
    )
    assert get(client, "short").status_code == 404
    # The token goes in the header, and nowhere else.
    assert client.get("/api/game").status_code == 401
    assert client.get("/api/game", headers={"Authorization": mine}).status_code == 401
    assert client.get(f"/api/games/{mine}").status_code in (404, 405)
    # Tokens are long and random: nothing about one tells another.
    others = {new_game(client)["id"] for _ in range(20)}
    assert mine not in others
    assert len(others) == 20
    assert all(len(token) >= 32 for token in others)


# --- no leaks ----------------------------------------------------------------------------


ALLOWED_BEFORE_END = {
    "id",
    "version",
    "bot",
    "actions",
    "kind",
    "rows",
    "cols",
    "mines",
    "rule",
    "no_guess",
    "status",
    "mines_left",
    "elapsed",
    "assisted",
    "seeded",
    "view",
}


def check_no_leak(state: dict[str, Any], field: Minefield, revealed: np.ndarray) -> None:
    """A state of a game in progress: nothing beyond what the player sees."""
    assert set(state) <= ALLOWED_BEFORE_END
    view = parse_view("\n".join(state["view"]))
    symbols = {s for line in state["view"] for s in line}
    assert symbols <= VIEW_SYMBOLS
    shown = view <= MAX_NUMBER
    # Numbers only where the game has revealed a square, and they are true.
    assert np.array_equal(shown, revealed)
    assert np.array_equal(view[shown], field.numbers[shown])


@pytest.mark.slow
def test_no_response_leaks_anything_over_many_random_games(client: TestClient) -> None:
    rng = random.Random(2026)
    service = client.app.state.service  # type: ignore[attr-defined]
    for game_number in range(40):
        preset = rng.choice(["beginner", "intermediate", "expert"])
        state = new_game(client, preset=preset, no_guess=rng.random() < 0.3)
        token = state["id"]
        rows, cols = state["rows"], state["cols"]
        for _ in range(60):
            action = rng.choice(
                ["reveal", "reveal", "reveal", "flag", "unflag", "chord", "question"]
            )
            response = act(client, token, action, rng.randrange(rows), rng.randrange(cols))
            if response.status_code == 409:
                break
            payload = response.json()
            assert set(payload) == {"state", "effective", "opened", "changed"}
            state = payload["state"]
            if state["status"] in ("won", "lost"):
                break
            game = service.game(token)
            if game.field is not None:
                check_no_leak(state, game.field, game.state == STATE_REVEALED)
            hint = post(client, token, "hint").json()
            if game.field is not None and game_number % 5 == 0:
                # The probabilities are the player's view's, the same as a solver run on it.
                view = parse_view("\n".join(hint["state"]["view"]))
                expected = analyze(view, state["mines"]).probability
                served = np.array(hint["probabilities"], dtype=float)
                assert np.array_equal(np.isnan(served), np.isnan(expected))
                assert np.nanmax(np.abs(served - expected)) <= 1e-6


# --- scores, rankings, replays ---------------------------------------------------------------


def test_a_won_game_ranks_and_can_be_replayed(client: TestClient) -> None:
    token = new_game(client, headers=account_token(client, "ada"), preset="beginner")["id"]
    state = win(client, token)
    assert state["status"] == "won"
    assert state["ranked"] is True
    board = client.get("/api/leaderboards/beginner").json()
    assert board["scores"][0]["name"] == "ada"
    assert board["scores"][0]["seconds"] == pytest.approx(state["elapsed"], abs=1e-3)
    replay = client.get(f"/api/replays/{state['public_id']}").json()
    assert replay["history"][0]["action"] == "O4,4"
    assert len(replay["field"]) == 9


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        ("expert", 200),
        ("20x30/100", 200),
        ("20x30/100/safe/no-guess", 200),
        ("beginner/none", 200),
        ("nonexistent", 404),
        ("expert/opening", 404),
        ("0x5/3", 404),
        ("20x30", 404),
    ],
)
def test_leaderboards_exist_for_every_kind_of_game_and_no_other(
    client: TestClient, kind: str, status: int
) -> None:
    response = client.get(f"/api/leaderboards/{kind}")
    assert response.status_code == status
    if status == 200:
        assert response.json()["kind"] == kind
        assert response.json()["scores"] == []
    else:
        assert f"no kind of game {kind!r}" in response.json()["error"]


def test_assisted_and_seeded_games_do_not_rank(client: TestClient) -> None:
    helped = new_game(client, preset="beginner")["id"]
    act(client, helped, "reveal", 4, 4)
    post(client, helped, "hint")
    assert win(client, helped)["ranked"] is False
    undone = new_game(client, preset="beginner")["id"]
    act(client, undone, "reveal", 4, 4)
    act(client, undone, "flag", 0, 0)
    post(client, undone, "undo")
    assert win(client, undone)["ranked"] is False
    seeded = new_game(client, preset="beginner", seed=5)["id"]
    assert win(client, seeded)["ranked"] is False
    assert client.get("/api/leaderboards/beginner").json()["scores"] == []


def test_the_server_keeps_the_time(tmp_path: Path) -> None:
    now = [1000.0]
    app = create_app(f"sqlite:///{tmp_path / 't.sqlite3'}", clock=lambda: now[0])
    with TestClient(app) as client:
        token = new_game(client, preset="beginner", seed=1)["id"]
        act(client, token, "reveal", 4, 4)
        now[0] += 7.5
        assert get(client, token).json()["elapsed"] == 7.5
        now[0] += 2.5
        state = act(client, token, "flag", 0, 0).json()["state"]
        assert state["elapsed"] == 10.0


# --- regressions found in review ---------------------------------------------------------


def test_undo_after_the_end_is_refused(client: TestClient) -> None:
    token = new_game(client, headers=account_token(client, "ada"), preset="beginner")["id"]
    state = win(client, token)
    assert state["ranked"] is True
    response = post(client, token, "undo")
    assert response.status_code == 409
    assert get(client, token).json()["status"] == "won"
    lost = new_game(client, preset="beginner", seed=3)["id"]
    act(client, lost, "reveal", 4, 4)
    r, c = (int(v) for v in np.argwhere(field_of(client, lost).mines)[0])
    act(client, lost, "reveal", r, c)
    assert post(client, lost, "undo").status_code == 409


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/games", {"preset": []}, 400),
        ("/api/games", {"preset": {}}, 400),
        ("/api/games", "[" * 1500 + "]" * 1500, 400),
    ],
)
def test_odd_bodies_get_4xx_not_500(
    client: TestClient, path: str, body: object, status: int
) -> None:
    if isinstance(body, str):
        response = client.post(
            path, content=body.encode(), headers={"content-type": "application/json"}
        )
    else:
        response = client.post(path, json=body)
    assert response.status_code == status


def test_odd_actions_get_4xx_not_500(client: TestClient) -> None:
    token = new_game(client, preset="beginner")["id"]
    response = post(client, token, "actions", {"action": ["reveal"], "row": 1, "col": 1})
    assert response.status_code == 400
    plain = client.post(
        "/api/game/actions",
        content=b'{"action": "reveal", "row": 1, "col": 1, "version": 0}',
        headers={"content-type": "text/plain", **auth(token)},
    )
    assert plain.status_code == 415
    no_guess = new_game(client, preset="beginner", no_guess=True)["id"]
    assert act(client, no_guess, "reveal", -1, 0).status_code == 400
    assert act(client, no_guess, "reveal", 9, 0).status_code == 422
    assert act(client, no_guess, "reveal", 4, 4).status_code == 200


def test_a_hint_with_every_hidden_square_flagged_is_a_clear_error(client: TestClient) -> None:
    token = new_game(client, rows=2, cols=2, mines=1, rule="safe")["id"]
    act(client, token, "reveal", 0, 0)
    for r, c in [(0, 1), (1, 0), (1, 1)]:
        act(client, token, "flag", r, c)
    response = post(client, token, "hint")
    assert response.status_code == 409
    assert "flagged" in response.json()["error"]


def test_no_guess_games_keep_their_clock_at_the_first_reveal(tmp_path: Path) -> None:
    now = [500.0]
    app = create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", clock=lambda: now[0])
    with TestClient(app) as client:
        token = new_game(client, preset="beginner", no_guess=True)["id"]
        act(client, token, "flag", 0, 0)
        now[0] += 10
        state = act(client, token, "reveal", 4, 4).json()["state"]
        assert state["elapsed"] == 10.0
        assert state["view"][0][0] == "F"


def test_rules_rank_apart(client: TestClient) -> None:
    assert new_game(client, preset="expert", rule="safe")["kind"] == "expert/safe"
    assert new_game(client, preset="expert")["kind"] == "expert"
    assert new_game(client, preset="beginner", no_guess=True)["kind"] == "beginner/no-guess"
    too_big = client.post(
        "/api/games", json={"rows": 40, "cols": 60, "mines": 100, "no_guess": True}
    )
    assert too_big.status_code == 422


@pytest.mark.parametrize("kind", ["flag", "undo", "hint"])
def test_racing_writers_apply_each_request_exactly_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    with TestClient(app) as client:
        token = new_game(client, preset="expert", seed=4)["id"]
        act(client, token, "reveal", 8, 15)
        for col in range(4):
            act(client, token, "flag", 0, col)
        service = app.state.service
        service.forget()
        # Widen the window between reading a game and writing it, so that the
        # two requests surely overlap.
        load = service.db.load

        def slow_load(token: str) -> Any:
            result = load(token)
            time.sleep(0.05)
            return result

        monkeypatch.setattr(service.db, "load", slow_load)
        if kind == "flag":
            calls = [
                lambda: service.act(token, Move(action="flag", row=1, col=0, version=5)),
                lambda: service.act(token, Move(action="flag", row=1, col=1, version=5)),
            ]
        elif kind == "undo":
            calls = [lambda: service.undo(token, UndoRequest(version=5))] * 2
        else:
            calls = [lambda: service.hint(token, HintRequest(version=5))] * 2
        refused: list[int] = []

        def run(call: Any) -> None:
            try:
                call()
            except ApiError as error:
                refused.append(error.status)

        threads = [threading.Thread(target=run, args=(call,)) for call in calls]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        monkeypatch.setattr(service.db, "load", load)
        history = history_of(client, token)
        version = version_of(client, token)
    flags = ["O8,15", "F0,0", "F0,1", "F0,2", "F0,3"]
    # Both made against version 5: exactly one applies, the other is refused
    # (a hint too: it needs the version as every write does).
    assert refused == [409]
    assert version == 6
    if kind == "hint":
        assert history == flags
    elif kind == "undo":
        assert history == flags[:-1]
    else:
        assert history[:5] == flags
        assert history[5:] in (["F1,0"], ["F1,1"])


# --- clicks: the server says what a mouse button does ------------------------------------------


def history_of(client: TestClient, token: str) -> list[str]:
    return [str(a) for a in server_game(client, token).history]


def test_a_click_means_what_the_rules_say_on_its_square(client: TestClient) -> None:
    token = new_game(client, preset="beginner", seed=7)["id"]
    view = click(client, token, "left", 4, 4).json()["state"]["view"]
    field = field_of(client, token)
    mine = next((r, c) for r, c in np.argwhere(field.mines).tolist() if view[r][c] == "#")
    number = next((r, c) for r in range(9) for c in range(9) if view[r][c] in "12345678")
    blank = next((r, c) for r in range(9) for c in range(9) if view[r][c] == ".")
    for button, square in [
        ("right", mine),
        ("right", mine),
        ("left", number),
        ("left", blank),
        ("middle", blank),
    ]:
        assert click(client, token, button, *square).status_code == 200
    assert history_of(client, token) == [
        "O4,4",
        "F{},{}".format(*mine),
        "U{},{}".format(*mine),
        "C{},{}".format(*number),
        "O{},{}".format(*blank),
        "C{},{}".format(*blank),
    ]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"click": "double", "row": 0, "col": 0}, 400, "Invalid enum value 'double'"),
        ({"click": 1, "row": 0, "col": 0}, 400, "got `int` - at `$.click`"),
        ({"click": "left", "action": "reveal", "row": 0, "col": 0}, 400, "not both"),
        ({"click": "left", "row": 9, "col": 0}, 422, "row 9 is outside"),
        ({"click": "left", "row": 0}, 400, "missing required field `col`"),
    ],
)
def test_bad_clicks_are_refused(
    client: TestClient, body: dict[str, Any], status: int, message: str
) -> None:
    token = new_game(client)["id"]
    response = post(client, token, "actions", body)
    assert (response.status_code, message in response.json()["error"]) == (status, True)
    assert history_of(client, token) == []


def test_a_no_guess_game_lays_its_field_at_the_first_left_click(client: TestClient) -> None:
    from minesweep.solver import clears_without_guessing

    token = new_game(client, preset="beginner", no_guess=True)["id"]
    click(client, token, "right", 0, 0)
    state = click(client, token, "left", 4, 4).json()["state"]
    assert state["view"][0][0] == "F"
    assert clears_without_guessing(field_of(client, token), (4, 4))


# --- replays ------------------------------------------------------------------------------------


def test_a_replay_sends_every_view_the_game_showed(client: TestClient) -> None:
    token = new_game(client, headers=account_token(client, "ada"), preset="beginner")["id"]
    view = act(client, token, "reveal", 4, 4).json()["state"]["view"]
    # A chord with no flag around: it changes nothing, and the replay must show nothing new.
    number = next((r, c) for r in range(9) for c in range(9) if view[r][c] in "12345678")
    assert act(client, token, "chord", *number).json()["effective"] is False
    state = win(client, token)
    replay = client.get(f"/api/replays/{state['public_id']}").json()
    history, views = replay["history"], replay["views"]
    assert len(views) == len(history) + 1
    assert views[0] == ["#" * 9] * 9
    assert views[2] == views[1] == view
    assert views[-1] == state["view"]
    game = server_game(client, token)
    for done, shown in enumerate(views):
        stepped = Game.replay(game, game.history[:done])
        assert shown == to_view(stepped.glyphs()).splitlines()
