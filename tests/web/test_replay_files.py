"""Replay files and the web game: a finished game as EVF, and the viewer's uploads."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep import Game
from minesweep.replays import ReplayError, read, summary
from minesweep.replays.clicks import analyse_clicks, replay_game
from minesweep.replays.verdict import judge_clicks
from minesweep.squares import Glyph

from .helpers import account_token, act, auth, field_of, get, new_game, server_game, win

DATA = Path(__file__).parent.parent / "replays" / "data"
FILES = ["test_subject.avf", "test_subject.evf", "test_subject.rmv", "test_subject_2.rmv"]
#: A view's codes (the core's Glyph, as the replay machine speaks it) as the API's glyphs.
GLYPHS = {
    **{n: str(n) for n in range(1, 9)},
    0: ".",
    Glyph.HIDDEN: "#",
    Glyph.FLAG: "F",
    Glyph.WRONG_FLAG: "!",
    Glyph.EXPLODED: "X",
}


def upload(client: Any, data: bytes, name: str | None = None) -> Any:
    params = {} if name is None else {"name": name}
    return client.post("/api/replay-files", content=data, params=params)


def jsonable(value: Any) -> Any:
    """What the API sends for a value of summary(): null for a float that is not finite."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


# --- a finished game as EVF -------------------------------------------------------------------


def played(client: Any, outcome: str) -> str:
    """A game played with every kind of action, each changing the board; won or lost.

    No wasted click: the replay keeps clicks, and replay_game keeps only those
    that changed the board, so the two histories are the same actions.
    """
    # An account's game (only those rank): its replays show the account's name.
    token: str = new_game(client, headers=account_token(client, "ada"), preset="beginner")["id"]
    view = act(client, token, "reveal", 4, 4).json()["state"]["view"]
    mines = field_of(client, token).mines
    rows, cols = mines.shape

    def around(r: int, c: int) -> list[tuple[int, int]]:
        return [
            (i, j)
            for i in range(max(r - 1, 0), min(r + 2, rows))
            for j in range(max(c - 1, 0), min(c + 2, cols))
            if (i, j) != (r, c)
        ]

    # A number with a hidden safe square around it: flag its mines, and chord.
    number = next(
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if view[r][c] in "12345678"
        and any(view[i][j] == "#" and not mines[i, j] for i, j in around(r, c))
    )
    flags = [(i, j) for i, j in around(*number) if mines[i, j]]
    act(client, token, "flag", *flags[0])
    act(client, token, "unflag", *flags[0])
    for square in flags:
        assert act(client, token, "flag", *square).status_code == 200
    chord = act(client, token, "chord", *number).json()
    assert chord["effective"], chord
    if outcome == "won":
        assert win(client, token)["status"] == "won"
    else:
        mine = next((r, c) for r, c in np.argwhere(mines).tolist() if (r, c) not in flags)
        assert act(client, token, "reveal", *mine).json()["state"]["status"] == "lost"
    return token


def actions(game: Game) -> list[tuple[str, int, int, float]]:
    """A game's actions, their times from the first, to the millisecond."""
    first = game.history[0].time
    return [(a.kind.name, a.row, a.col, round(a.time - first, 3)) for a in game.history]


@pytest.mark.parametrize("outcome", ["won", "lost"])
def test_a_finished_game_downloads_as_evf_with_its_field_player_and_actions(
    client: Any, outcome: str
) -> None:
    token = played(client, outcome)
    response = client.get("/api/game.evf", headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/octet-stream"
    disposition = response.headers["content-disposition"]
    assert re.fullmatch(
        rf'attachment; filename="minesweep-beginner-{outcome}-\d{{8}}-\d{{6}}\.evf"', disposition
    ), disposition
    assert token not in disposition  # the token is a credential
    replay = read(response.content, name="download.evf")
    assert (replay.format, replay.version, replay.player) == ("evf", 4, "ada")
    game = server_game(client, token)
    assert game.field is not None
    assert np.array_equal(replay.field.mines, game.field.mines)
    assert actions(replay_game(replay)) == actions(game)
    assert replay.claims.completed is (outcome == "won")


def test_a_ranked_games_public_replay_downloads_as_the_same_evf(client: Any) -> None:
    token = played(client, "won")
    state = get(client, token).json()
    assert state["ranked"] is True
    public = client.get(f"/api/replays/{state['public_id']}.evf")
    assert public.status_code == 200, public.text
    assert public.headers["content-type"] == "application/octet-stream"
    assert public.headers["content-disposition"].startswith('attachment; filename="')
    own = client.get("/api/game.evf", headers=auth(token))
    assert public.content == own.content
    assert read(public.content, name="public.evf").player == "ada"
    # The JSON replay's route, declared after this one, still answers JSON.
    assert client.get(f"/api/replays/{state['public_id']}").json()["name"] == "ada"


def test_an_unranked_or_unknown_game_has_no_public_evf(client: Any) -> None:
    token = new_game(client, preset="beginner", seed=1)["id"]  # seeded: never ranked
    assert win(client, token)["ranked"] is False
    hidden_id: str = client.app.state.service.db.load(token).public_id
    for public_id in (hidden_id, "x" * 16, "not-an-id!"):
        response = client.get(f"/api/replays/{public_id}.evf")
        assert response.status_code == 404, (public_id, response.text)
        assert "no ranked game" in response.json()["error"]
    # The player still has their own.
    assert client.get("/api/game.evf", headers=auth(token)).status_code == 200


def test_a_game_not_over_has_no_evf_and_the_token_is_needed(client: Any) -> None:
    token = new_game(client, preset="beginner")["id"]
    response = client.get("/api/game.evf", headers=auth(token))
    assert response.status_code == 409
    assert "holds the mines" in response.json()["error"]
    act(client, token, "reveal", 4, 4)
    assert get(client, token).json()["status"] == "playing"
    response = client.get("/api/game.evf", headers=auth(token))
    assert response.status_code == 409
    assert "not over (playing)" in response.json()["error"]
    assert client.get("/api/game.evf").status_code == 401
    assert client.get("/api/game.evf", headers=auth("y" * 24)).status_code == 404


# --- uploads: real files ----------------------------------------------------------------------


@pytest.mark.parametrize("name", FILES)
def test_a_real_replay_file_gives_every_click_view_and_statistic(client: Any, name: str) -> None:
    path = DATA / name
    response = upload(client, path.read_bytes(), name)
    assert response.status_code == 200, response.text
    answer = response.json()
    replay = read(path)
    analysis = analyse_clicks(replay)
    table = judge_clicks(replay, analysis)
    assert (answer["format"], answer["player"]) == (replay.format, replay.player)
    assert (answer["rows"], answer["cols"], answer["mines"]) == (
        replay.rows,
        replay.cols,
        replay.mines,
    )
    assert answer["summary"] == {key: jsonable(value) for key, value in summary(replay).items()}
    assert isinstance(answer["summary"]["checks"], list)
    # Every view, in the page's glyphs.
    assert len(answer["views"]) == len(analysis.views)
    for index, shown in enumerate(answer["views"]):
        expected = [
            "".join(GLYPHS[int(code)] for code in line) for line in analysis.view(index).tolist()
        ]
        assert shown == expected, index
    # One frame a click: the view before it and the solver's verdict.
    clicks = answer["clicks"]
    assert len(clicks) == len(analysis.clicks) == len(table.clicks)
    for sent, judged in zip(clicks, table.clicks, strict=True):
        row = judged.as_dict()
        assert sent["view"] == judged.view
        assert sent["time"] == pytest.approx(judged.time, abs=1e-6)
        for field in ("index", "kind", "row", "col", "effect", "certain", "guess", "forced"):
            assert sent[field] == row[field], field
        for field in ("avoidable", "fifty_fifty", "by_counting", "first", "judged", "grade"):
            assert sent[field] == row[field], field
        assert sent["solved"] == judged.solved
        for field in ("mine_chance", "lowest_chance", "luck", "pluck", "over_best"):
            assert sent[field] == jsonable(row[field]), field
        assert sent["safe_squares"] == (
            None if judged.verdict.safe_squares < 0 else judged.verdict.safe_squares
        )
    # The file's own name is not needed: the bytes tell the format.
    unnamed = upload(client, path.read_bytes())
    assert unnamed.status_code == 200
    assert unnamed.json() == answer


def test_a_lost_games_upload_marks_the_mine_and_a_null_luck(client: Any) -> None:
    # Our own EVF of a lost game, read back: the last click hit a mine.
    token = played(client, "lost")
    data = client.get("/api/game.evf", headers=auth(token)).content
    answer = upload(client, data, "lost.evf").json()
    last = answer["clicks"][-1]
    assert (last["effect"], last["judged"]) == ("mine", True)
    assert (last["luck"], last["pluck"]) == (None, None)  # infinite: JSON has no infinity
    assert any("X" in line for line in answer["views"][-1])
    assert answer["summary"]["won"] is False
    assert answer["player"] == "ada"


# --- uploads: bad ones ------------------------------------------------------------------------


def refused(response: Any) -> str:
    """A 4xx with a JSON error; the error."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text)
    assert response.headers["content-type"] == "application/json"
    error: str = response.json()["error"]
    assert error
    return error


def test_an_empty_or_random_upload_is_a_400(client: Any) -> None:
    assert upload(client, b"").status_code == 400
    assert "empty" in refused(upload(client, b""))
    rng = random.Random(7)
    for size in (1, 19, 200, 5000):
        junk = bytes(rng.randrange(256) for _ in range(size))
        response = upload(client, junk, "junk.bin")
        assert response.status_code == 400, response.text
        assert refused(response).startswith("junk.bin: at byte")


@pytest.mark.parametrize("name", FILES)
def test_a_truncated_file_is_a_400_with_the_readers_message(client: Any, name: str) -> None:
    data = (DATA / name).read_bytes()
    for cut in (1, 5, 20, 60, 200, len(data) // 2, len(data) - 10, len(data) - 1):
        response = upload(client, data[:cut], name)
        try:
            read(data[:cut], name=name)
            expected = None
        except ReplayError as error:
            expected = str(error)
        if expected is None:
            # Some formats end with bytes no reader needs (an AVF's trailer).
            assert response.status_code == 200, (cut, response.text)
        else:
            assert response.status_code == 400, (cut, response.text)
            assert refused(response) == expected


def test_an_upload_past_the_limit_is_a_413(make_client: Callable[..., Any]) -> None:
    from minesweep.web import Limits

    client = make_client(limits=Limits(max_upload=1000, action_rate=None, create_rate=None))
    data = (DATA / "test_subject.avf").read_bytes()
    assert len(data) > 1000
    response = upload(client, data, "test_subject.avf")
    assert response.status_code == 413
    assert "at most 1000 bytes" in refused(response)
    # Without a length announced, the body is cut off as it streams.
    streamed = client.post("/api/replay-files", content=iter([data[:600], data[600:]]))
    assert streamed.status_code == 413
    assert upload(client, data[:1000], "test_subject.avf").status_code == 400  # read, and short


def test_the_default_limit_takes_two_mebibytes(client: Any) -> None:
    response = upload(client, b"\x00" * (2 * 1024 * 1024 + 1))
    assert response.status_code == 413
    assert refused(upload(client, b"\x00" * (2 * 1024 * 1024))).startswith("the uploaded file")


def test_a_board_or_game_larger_than_the_viewer_takes_is_a_422(
    make_client: Callable[..., Any],
) -> None:
    from minesweep.web import Limits

    open_limits: dict[str, Any] = {"action_rate": None, "create_rate": None}
    data = (DATA / "test_subject.rmv").read_bytes()  # 8x8, 19 clicks
    small = make_client(limits=Limits(max_replay_squares=63, **open_limits))
    message = refused(upload(small, data, "test_subject.rmv"))
    assert upload(small, data).status_code == 422
    assert "boards of up to 63 squares, and this one is 8x8" in message
    short = make_client(limits=Limits(max_replay_clicks=18, **open_limits))
    assert upload(short, data).status_code == 422
    assert "up to 18 clicks, and this one has 19" in refused(upload(short, data))
    assert (
        make_client(limits=Limits(max_replay_clicks=19, **open_limits))
        .post("/api/replay-files", content=data)
        .status_code
        == 200
    )


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("C:\\Users\\ada\\best.rmv", "best.rmv"),
        ("/home/ada/best.rmv", "best.rmv"),
        ("evil\u202e.rmv", "the uploaded file"),
        ("a\nb.rmv", "the uploaded file"),
        ("", "the uploaded file"),
    ],
)
def test_an_uploads_name_is_its_last_part_as_printable_text(
    client: Any, name: str, shown: str
) -> None:
    assert refused(upload(client, b"nothing", name)).startswith(f"{shown}: at byte 0")


def test_an_upload_costs_a_hundred_and_twenty_reads(make_client: Callable[..., Any]) -> None:
    from minesweep.web import Limits

    now = [0.0]
    # Reads: 4 a second after a burst of 120 (four times the actions').
    limits = Limits(create_rate=None, action_rate=1.0, action_burst=30)
    client = make_client(limits=limits, clock=lambda: now[0])
    data = (DATA / "test_subject.rmv").read_bytes()
    assert client.get("/api/leaderboards/beginner").status_code == 200  # 119 left
    refused_upload = upload(client, data)
    assert refused_upload.status_code == 429
    assert refused_upload.headers["retry-after"] == "1"
    now[0] += 0.25  # one more token: the bucket is full again
    assert upload(client, data).status_code == 200
    assert client.get("/api/leaderboards/beginner").status_code == 429  # the upload took all


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(["test_subject.avf", "test_subject.rmv", "test_subject_2.rmv"]),
    changes=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=8),
    cut=st.integers(0, 10**6),
)
def test_a_damaged_file_is_never_a_5xx(
    client: Any, name: str, changes: list[tuple[int, int]], cut: int
) -> None:
    data = bytearray((DATA / name).read_bytes())
    for where, value in changes:
        data[where % len(data)] = value
    data = data[: max(1, cut % (len(data) + 1))]
    response = upload(client, bytes(data), name)
    assert response.status_code in (200, 400, 422), response.text
    if response.status_code != 200:
        refused(response)
