"""An account's wins flagged for review when they look like a program's play."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from minesweep import Minefield
from minesweep.web import Limits
from minesweep.web.guards import NoGuessPool, lay_no_guess_field
from minesweep.web.schema import styles
from minesweep.web.style import GameStyle, StyleRules, flag

from .account_helpers import count
from .helpers import PASSWORD, account_token, sign_up
from .test_trace import history, play, send, synthesise

RULES = StyleRules()


def _bot(rng: random.Random, games: int = 12, kind: str = "beginner") -> list[GameStyle]:
    """A solver bot's wins: its own best guesses, clean clicks, a paced 3BV/s (a sleep's jitter)."""
    return [
        GameStyle(
            kind=kind,
            guesses=rng.randint(0, 3),
            poor_guesses=0,
            wasted=0,
            misflags=0,
            speed=4.0 * rng.uniform(0.97, 1.03),
        )
        for _ in range(games)
    ]


def _human(rng: random.Random, games: int = 12) -> list[GameStyle]:
    """A person's wins: now and then a worse guess, a wasted click, a wrong flag; a pace
    that follows the board."""
    return [
        GameStyle(
            kind="beginner",
            guesses=(guesses := rng.randint(0, 3)),
            poor_guesses=rng.randint(0, guesses) if rng.random() < 0.3 else 0,
            wasted=rng.choice((0, 0, 1, 2, 4)),
            misflags=rng.choice((0, 0, 0, 1)),
            speed=rng.lognormvariate(1.0, 0.25),
        )
        for _ in range(games)
    ]


@pytest.mark.parametrize("seed", range(5))
def test_a_bots_wins_are_flagged_and_a_persons_are_not(seed: int) -> None:
    rng = random.Random(seed)
    why = flag(_bot(rng), RULES)
    assert why is not None
    assert why.startswith("12 wins of beginner: no guess worse than the solver's best")
    assert "varying by" in why
    assert flag(_human(rng), RULES) is None


@pytest.mark.parametrize(
    "slip",
    [
        lambda style: dataclasses.replace(style, poor_guesses=1),
        lambda style: dataclasses.replace(style, wasted=1),
        lambda style: dataclasses.replace(style, misflags=1),
    ],
    ids=["a worse guess", "a wasted click", "a misflag"],
)
def test_flawless_play_is_flagged_and_one_slip_in_the_games_looked_at_lifts_it(
    slip: Callable[[GameStyle], GameStyle],
) -> None:
    # A bot that sleeps a fixed time a click: a flawless record, and a 3BV/s that
    # follows each board's clicks per 3BV.
    rng = random.Random(1)
    styles = [dataclasses.replace(style, speed=rng.uniform(2.0, 5.0)) for style in _bot(rng)]
    why = flag(styles, RULES)
    assert why is not None
    assert "no wasted click" in why
    assert "varying" not in why
    styles[5] = slip(styles[5])
    assert flag(styles, RULES) is None


def test_a_steady_pace_is_flagged_even_with_slips() -> None:
    rng = random.Random(2)
    styles = [dataclasses.replace(style, wasted=rng.randint(0, 3)) for style in _bot(rng)]
    styles[0] = dataclasses.replace(styles[0], wasted=1)
    why = flag(styles, RULES)
    assert why is not None
    assert "no wasted click" not in why
    assert "3BV/s 4.0" in why


def test_too_few_wins_of_a_board_are_not_judged() -> None:
    rng = random.Random(3)
    # Nine of one board and nine of another: ten of neither.
    styles = _bot(rng, 9, "beginner") + _bot(rng, 9, "intermediate")
    assert flag(styles, RULES) is None
    assert flag(styles, dataclasses.replace(RULES, min_games=9)) is not None


def test_only_the_latest_wins_are_judged() -> None:
    # An account that played like a person long ago and like a program lately is flagged
    # (newest first), and one that has become a person is not.
    rng = random.Random(4)
    bot, person = _bot(rng, RULES.games), _human(rng, RULES.games)
    assert flag(bot + person, RULES) is not None
    assert flag(person + bot, RULES) is None


# --- through the server, on SQLite and PostgreSQL --------------------------------------

#: Three wins make a judgement here: each is a whole game played and its record judged.
FEW = StyleRules(min_games=3)


def _seeded(first: int) -> NoGuessPool:
    """A pool that lays the server's unseeded no-guess fields from seeds ``first``, ``first``
    + 1, ...: the games stay the server's (unseeded, so they rank), and the test plays the
    same boards every run."""
    seeds = itertools.count(first)

    def lay(
        rows: int,
        cols: int,
        mines: int,
        first_click: tuple[int, int],
        seed: int | None,
        max_seconds: float | None,
    ) -> Minefield:
        chosen = next(seeds) if seed is None else seed
        return lay_no_guess_field(rows, cols, mines, first_click, chosen, max_seconds)

    return NoGuessPool(0, 4, lay=lay)


def _ranked_wins(
    client: Any, now: list[float], pace: Callable[[float], float], *, wasted: bool, seed: int
) -> None:
    """Three wins played by the solver, each click ``pace(game)`` seconds after the last
    (``game``: the game's own pace, 1, 1.5 and 2.25), each sent with a hand's record;
    with ``wasted``, the record clicks the first square again once it is open."""
    for game in range(FEW.min_games):
        state = play(client, now, functools.partial(pace, 1.5**game))
        actions = history(client, state["id"])
        events = synthesise(actions, human=True, seed=seed + game)
        if wasted:
            # A second press on the first square, open by then: a click that did nothing.
            # The rest of the record comes 120 ms later (well within the server's tolerance).
            first = next(i for i, event in enumerate(events) if event[1] == "lr")
            t, _, x, y = events[first]
            rest = [(time + 120.0, kind, ex, ey) for time, kind, ex, ey in events[first + 1 :]]
            again = [
                (t + 40.0, "lc", x, y),
                (t + 70.0, "mv", x + 1, y),
                (t + 100.0, "lr", x + 1, y),
            ]
            events = events[: first + 1] + again + rest
        answer = send(client, state["id"], events)
        assert answer.status_code == 200, answer.text
        assert answer.json()["unranked_because"] == "pending review", answer.json()


def test_the_operators_see_a_bot_like_account_flagged_and_a_human_like_one_not(
    make_client: Callable[..., Any],
) -> None:
    now = [1000.0]
    limits = Limits(create_rate=None, action_rate=None)
    bot = make_client(limits=limits, clock=lambda: now[0], style_rules=FEW, pool=_seeded(100))
    sign_up(bot, "steady")
    person = make_client(limits=limits, clock=lambda: now[0], style_rules=FEW, pool=_seeded(200))
    sign_up(person, "ada")
    account_token(person, "olga")
    operator = make_client(limits=limits, clock=lambda: now[0], style_rules=FEW, operators=["olga"])
    signed = operator.post("/api/session", json={"name": "olga", "password": PASSWORD})
    assert signed.status_code == 200, signed.text
    rng = random.Random(5)
    # The bot's clicks come at irregular gaps (a metronome's would be refused), around
    # one pace every game; a person is quicker on one board than on the next. (The games
    # are random: the gaps vary by half, lest a short game's few look like a metronome's.)
    gap = math.log(0.5)
    _ranked_wins(bot, now, lambda _: rng.lognormvariate(gap, 0.5), wasted=False, seed=10)
    _ranked_wins(
        person, now, lambda game: game * rng.lognormvariate(gap, 0.5), wasted=True, seed=20
    )
    records = operator.get("/api/reviews").json()["records"]
    flags = {(entry["name"], entry.get("flag")) for entry in records}
    assert len(records) == 2 * FEW.min_games
    names = {name for name, _ in flags}
    assert names == {"steady", "ada"}
    [(_, why)] = [found for found in flags if found[0] == "steady"]
    assert why is not None
    assert "no wasted click" in why
    assert ("ada", None) in flags
    assert len(flags) == 2
    # Its player never reads the flag: it is for the operators.
    mine = bot.get("/api/account/reviews").json()["records"]
    assert len(mine) == FEW.min_games
    assert all(entry.get("flag") is None for entry in mine)
    # How an account played is its own: deleted with it.
    assert count(bot, styles) == 2 * FEW.min_games
    gone = bot.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    assert count(bot, styles) == FEW.min_games
