"""Which wins rank among people, and the words a state gives for one that does not."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minesweep.web import Limits
from minesweep.web.service import AWAITING_TRACE

from .helpers import act, field_of, new_game, post, sign_up, win


def test_each_reason_a_game_does_not_rank_is_told_in_its_words(
    make_client: Callable[..., Any],
) -> None:
    now = [0.0]
    # The default human limits: beginner's is 20 3BV/s.
    client = make_client(limits=Limits(create_rate=None, action_rate=None), clock=lambda: now[0])

    def played(hinted: bool = False, seconds: float = 120.0, **body: Any) -> dict[str, Any]:
        token = new_game(client, **{"preset": "beginner", **body})["id"]
        act(client, token, "reveal", 4, 4)
        if hinted:
            post(client, token, "hint")
        now[0] += seconds
        return win(client, token)

    reasons = {
        "seeded": played(seed=5),
        "hinted": played(hinted=True),
        "custom": played(preset=None, rows=9, cols=9, mines=10),
        "bot": played(bot=True, name="robot"),
    }
    assert {name: state["unranked_because"] for name, state in reasons.items()} == {
        "seeded": "a seeded game can be rehearsed",
        "hinted": "hints or undo helped",
        "custom": "only the presets have leaderboards",
        "bot": "declared a bot: see the bot leaderboard",
    }
    assert not any(state["ranked"] for state in reasons.values())
    # Too fast for a person: the speed is the one the state's own stats give.
    fast = played(seconds=0.1, no_guess=True)
    assert fast["kind"] == "beginner/no-guess"
    speed = fast["stats"]["bbbv"] / 0.1
    assert speed > 20
    assert fast["unranked_because"] == (
        f"{speed:.1f} 3BV/s is faster than any person plays beginner (limit 20)"
    )
    # Every game above was a guest's: with nothing else against it, a guest's
    # win is unranked for that alone.
    guest = played()
    assert (guest["ranked"], guest["unranked_because"]) == (
        False,
        "played as a guest: sign in to rank",
    )
    sign_up(client, "ada")
    # Signed in, a win waits for the page's record of the mouse (test_trace.py).
    waiting = played()
    assert (waiting["ranked"], waiting["unranked_because"]) == (False, AWAITING_TRACE)
    off = make_client(
        limits=Limits(
            create_rate=None, action_rate=None, require_trace=False, require_review=False
        ),
        clock=lambda: now[0],
    )
    sign_up(off, "grace")
    token = new_game(off, preset="beginner")["id"]
    act(off, token, "reveal", 4, 4)
    now[0] += 120.0
    ranked = win(off, token)
    assert ranked["ranked"] is True
    assert "unranked_because" not in ranked


def test_a_loss_is_unranked_without_a_reason(client: Any) -> None:
    token = new_game(client, preset="beginner")["id"]
    act(client, token, "reveal", 4, 4)
    mine = np.argwhere(field_of(client, token).mines)[0].tolist()
    state = act(client, token, "reveal", *mine).json()["state"]
    assert (state["status"], state["ranked"]) == ("lost", False)
    assert "unranked_because" not in state


def test_each_leaderboard_tells_its_presets_human_limit(make_client: Callable[..., Any]) -> None:
    client = make_client(limits=Limits(create_rate=None, action_rate=None))
    limits = {
        kind: client.get(f"/api/leaderboards/{kind}").json()["human_limit"]
        for kind in ("beginner", "beginner/no-guess", "intermediate/safe", "expert", "9x9/10")
    }
    assert limits == {
        "beginner": 20.0,
        "beginner/no-guess": 20.0,
        "intermediate/safe": 12.0,
        "expert": 10.0,
        "9x9/10": None,
    }
    off = make_client(limits=Limits(create_rate=None, action_rate=None, human_limits=None))
    assert off.get("/api/leaderboards/expert").json()["human_limit"] is None
