"""Kinds of game and the ranking rule, against the rules' own wording."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep import PRESETS, FirstClickRule, SettingsError
from minesweep.records import HUMAN_LIMITS, Kind, is_kind, unranked_because

_kinds = st.one_of(
    st.builds(
        lambda name, rule, no_guess: Kind(
            PRESETS[name].rows, PRESETS[name].cols, PRESETS[name].mines, name, rule, no_guess
        ),
        st.sampled_from(sorted(PRESETS)),
        st.sampled_from(list(FirstClickRule)),
        st.booleans(),
    ),
    st.builds(
        Kind,
        st.integers(1, 10**4),
        st.integers(1, 10**4),
        st.integers(0, 10**6),
        st.none(),
        st.sampled_from(list(FirstClickRule)),
        st.booleans(),
    ),
)


@given(_kinds)
def test_a_kind_reads_back_from_its_text(kind: Kind) -> None:
    text = str(kind)
    assert Kind.parse(text) == kind
    assert is_kind(text)
    # The text, from its definition: the board, then the rule unless it is the
    # default opening, then /no-guess.
    parts = [kind.preset or f"{kind.rows}x{kind.cols}/{kind.mines}"]
    parts += [] if kind.rule is FirstClickRule.OPENING else [kind.rule.value]
    parts += ["no-guess"] if kind.no_guess else []
    assert text == "/".join(parts)


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("expert", True),
        ("20x30/100", True),
        ("20x30/100/safe/no-guess", True),
        ("beginner/none", True),
        ("nonexistent", False),
        ("expert/opening", False),
        ("0x5/3", False),
        ("20x30", False),
        ("expert/no-guess/safe", False),
        ("expert/", False),
    ],
)
def test_only_keys_a_game_can_have_are_kinds(text: str, valid: bool) -> None:
    assert is_kind(text) is valid
    if not valid:
        with pytest.raises(SettingsError, match="no kind of game"):
            Kind.parse(text)


@pytest.mark.parametrize(
    ("text", "won", "seeded", "assisted", "bot", "because"),
    [
        ("expert", True, False, False, False, None),
        ("beginner/safe/no-guess", True, False, False, False, None),
        ("expert", False, False, False, False, "not a win"),
        ("expert", True, True, False, False, "a seeded game can be rehearsed"),
        ("expert", True, False, True, False, "hints or undo helped"),
        ("9x9/10", True, False, False, False, "only the presets have leaderboards"),
        ("expert", True, False, False, True, "declared a bot: see the bot leaderboard"),
        # The first reason that applies is the one given.
        ("9x9/10", True, True, True, True, "a seeded game can be rehearsed"),
    ],
)
def test_only_plain_wins_on_a_preset_rank(
    text: str, won: bool, seeded: bool, assisted: bool, bot: bool, because: str | None
) -> None:
    kind = Kind.parse(text)
    assert unranked_because(kind, won=won, seeded=seeded, assisted=assisted, bot=bot) == because


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_win_faster_than_people_play_does_not_rank(preset: str) -> None:
    limits = {name: limit.bbbv_per_second for name, limit in HUMAN_LIMITS.items()}
    limit = limits[preset]
    kind = Kind.parse(preset)

    def because(bbbv: int, seconds: float) -> str | None:
        return unranked_because(
            kind,
            won=True,
            seeded=False,
            assisted=False,
            bbbv=bbbv,
            seconds=seconds,
            human_limits=limits,
        )

    assert because(100, 100 / limit) is None  # at the limit: a person can
    assert because(101, 100 / limit) == (
        f"{101 * limit / 100:.1f} 3BV/s is faster than any person plays {preset} (limit {limit:g})"
    )
    assert because(5, 0.0) is not None  # no time at all: no person
    assert (
        unranked_because(kind, won=True, seeded=False, assisted=False, bbbv=10**6, seconds=1.0)
        is None
    )  # no limits given: none applies
