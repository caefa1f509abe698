"""Hints through the API: the solver's advice, worded in the page's numbering (from 1)."""

from __future__ import annotations

from typing import Any

import pytest

from minesweep import frontend
from minesweep.solver.hints import Hint, HintReason

from .helpers import account_token, act, auth, get, new_game, post, win


def zero_based_replaced(hint: Hint) -> str:
    """The page's wording as the web wrote it before hints had words of their own: the
    solver's ``(row, col)`` from 0 replaced by ``row R, column C`` from 1 (the reference)."""
    here, page = f"({hint.row}, {hint.col})", f"row {hint.row + 1}, column {hint.col + 1}"
    return hint.reason.replace(here, page)


@pytest.mark.parametrize(
    ("rule", "reason"),
    [
        ("opening", "the first click is safe: the 'opening' rule keeps it clear of mines"),
        ("safe", "the first click is safe: the 'safe' rule keeps it clear of mines"),
        (
            "none",
            "nothing is revealed yet, and with no first-click rule every square is a mine "
            "with probability 12.3%",
        ),
    ],
)
def test_the_first_click_hint_is_the_rules(client: Any, rule: str, reason: str) -> None:
    token = new_game(client, preset="beginner", rule=rule)["id"]
    served = post(client, token, "hint").json()
    assert served["hint"] == {
        "row": 4,
        "col": 4,
        "safe": rule != "none",
        "probability": 10 / 81 if rule == "none" else 0.0,
        "reason": reason,
    }
    assert served["probabilities"] is None


def test_a_safe_square_is_named_in_the_pages_numbering(client: Any) -> None:
    token = new_game(client, preset="beginner", seed=1)["id"]
    act(client, token, "reveal", 4, 4)
    hint = post(client, token, "hint").json()["hint"]
    assert hint["safe"] is True
    assert hint["reason"] == f"row {hint['row'] + 1}, column {hint['col'] + 1} is certainly safe"


def test_every_kind_of_hint_reads_as_it_always_did(client: Any) -> None:
    """Games played by their hints until every reason was served, each worded as before."""
    service = client.app.state.service
    seen: set[HintReason] = set()
    for seed in range(40):
        # Every third game has no first-click rule; every other game flags the safe
        # squares it is shown, until the only ones left are flagged (a wrong flag).
        rule = "none" if seed % 3 == 0 else "opening"
        token = new_game(client, preset="beginner", seed=seed, rule=rule)["id"]
        for _ in range(300):
            game = service.game(token)
            if game.is_over:
                break
            expected = frontend.advise(game).hint
            served = post(client, token, "hint").json()["hint"]
            assert (served["row"], served["col"]) == (expected.row, expected.col)
            assert served["reason"] == zero_based_replaced(expected)
            seen.add(expected.why)
            square = (expected.row, expected.col)
            if expected.why is HintReason.WRONG_FLAG:
                act(client, token, "unflag", *square)
                act(client, token, "reveal", *square)
            elif expected.why is HintReason.SAFE and seed % 2:
                act(client, token, "flag", *square)
            else:
                act(client, token, "reveal", *square)
        if seen == set(HintReason):
            break
    assert seen == set(HintReason)


@pytest.mark.parametrize("rule", ["opening", "safe", "none"])
def test_a_hint_before_the_first_reveal_leaves_the_game_unassisted(client: Any, rule: str) -> None:
    """The first-click hint is the rule's promise, with no field laid to tell about: the
    game may still rank. Every hint after the first reveal marks it assisted for good."""
    token = new_game(client, preset="beginner", rule=rule)["id"]
    assert post(client, token, "hint").json()["state"]["assisted"] is False
    act(client, token, "flag", 0, 0)  # a flag lays no field: still the rule's hint
    assert post(client, token, "hint").json()["state"]["assisted"] is False
    act(client, token, "unflag", 0, 0)
    state = act(client, token, "reveal", 4, 4).json()["state"]
    assert state["assisted"] is False
    if state["status"] == "playing":
        assert post(client, token, "hint").json()["state"]["assisted"] is True
        assert act(client, token, "flag", 0, 0).json()["state"]["assisted"] is True


def test_a_game_hinted_only_before_its_first_reveal_ranks(client: Any) -> None:
    # An account's game: only those rank.
    token = new_game(client, headers=account_token(client, "ada"), preset="beginner")["id"]
    post(client, token, "hint")
    state = win(client, token)
    assert (state["status"], state["assisted"], state["ranked"]) == ("won", False, True)


# --- a hint is a write: it names the version it was asked at ---------------------------------


def count_advice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the solver's runs for hints (frontend.advise, as the service calls it)."""
    advise = frontend.advise
    runs: list[int] = []

    def counting(game: Any) -> Any:
        runs.append(1)
        return advise(game)

    monkeypatch.setattr(frontend, "advise", counting)
    return runs


def test_a_hint_without_a_version_is_refused_and_changes_nothing(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = new_game(client, preset="beginner", seed=1)["id"]
    before = act(client, token, "reveal", 4, 4).json()["state"]
    runs = count_advice(monkeypatch)
    for body in ({}, {"version": None}):
        refused = client.post("/api/game/hint", json=body, headers=auth(token))
        assert refused.status_code == 400
        assert "version" in refused.json()["error"]
    assert runs == []
    after = get(client, token).json()
    assert (after["version"], after["assisted"]) == (before["version"], False)


def test_a_repeated_hint_is_answered_with_the_game_and_not_applied_again(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = new_game(client, preset="beginner", seed=1)["id"]
    version = act(client, token, "reveal", 4, 4).json()["state"]["version"]
    runs = count_advice(monkeypatch)
    body = {"version": version}
    first = client.post("/api/game/hint", json=body, headers=auth(token))
    assert first.status_code == 200
    assert first.json()["state"]["version"] == version + 1
    again = [client.post("/api/game/hint", json=body, headers=auth(token)) for _ in range(3)]
    assert [answer.status_code for answer in again] == [409] * 3
    # The refusal carries the game as it is, as an action's does: the client carries on.
    assert again[0].json()["state"]["version"] == version + 1
    assert runs == [1]  # the solver ran once
    assert get(client, token).json()["version"] == version + 1
    # The next hint names the version the first left.
    assert post(client, token, "hint").status_code == 200
    assert runs == [1, 1]
