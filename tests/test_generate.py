"""Mine generation: first-click rules, uniformity and reproducibility."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import (
    PRESETS,
    FirstClickRule,
    InvalidBoardError,
    InvalidClickError,
    Preset,
    SettingsError,
)
from minesweep.generate import check_fits, generate_field


def documented_draw(seed: int, rows: int, cols: int, mines: int, cleared: set[int]) -> set[int]:
    """The generation rule as the module documents it, written out in plain Python."""
    generator = np.random.PCG64(seed)
    allowed = [i for i in range(rows * cols) if i not in cleared]
    n = len(allowed)
    dense = mines > n // 2
    wanted = n - mines if dense else mines
    limit = (2**64 // n) * n
    picked: list[int] = []
    while len(picked) < wanted:
        word = int(generator.random_raw())
        if word < limit and word % n not in picked:
            picked.append(word % n)
    chosen = set(picked)
    if dense:
        chosen = set(range(n)) - chosen
    return {allowed[rank] for rank in chosen}


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "click", "rule"),
    [
        (9, 9, 10, (4, 4), "opening"),
        (16, 30, 99, (0, 0), "safe"),
        (5, 7, 30, (2, 3), "safe"),  # dense: the free squares are drawn
        (8, 8, 20, None, "none"),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2026, 2**64 + 5])
def test_generation_follows_the_documented_rule(
    rows: int,
    cols: int,
    mines: int,
    click: tuple[int, int] | None,
    rule: str,
    seed: int,
) -> None:
    field = generate_field(rows, cols, mines, first_click=click, rule=rule, seed=seed)
    cleared: set[int] = set()
    if click is not None and rule == "safe":
        cleared = {click[0] * cols + click[1]}
    elif click is not None and rule == "opening":
        cleared = {
            r * cols + c
            for r in range(click[0] - 1, click[0] + 2)
            for c in range(click[1] - 1, click[1] + 2)
            if 0 <= r < rows and 0 <= c < cols
        }
    expected = documented_draw(seed, rows, cols, mines, cleared)
    assert set(np.flatnonzero(field.mines).tolist()) == expected


@given(st.integers(0, 2**128 - 1), st.sampled_from(list(FirstClickRule)))
def test_same_seed_same_field(seed: int, rule: FirstClickRule) -> None:
    a = generate_field(16, 30, 99, first_click=(7, 7), rule=rule, seed=seed)
    b = generate_field(16, 30, 99, first_click=(7, 7), rule=rule.value, seed=seed)
    assert a == b
    assert a.mine_count == 99


def test_different_seeds_differ() -> None:
    fields = {generate_field(16, 30, 99, seed=seed).to_text() for seed in range(20)}
    assert len(fields) == 20


@given(st.integers(0, 2**64), st.integers(1, 12), st.integers(1, 12), st.data())
def test_first_click_rules_keep_their_promise(
    seed: int, rows: int, cols: int, data: st.DataObject
) -> None:
    row = data.draw(st.integers(0, rows - 1))
    col = data.draw(st.integers(0, cols - 1))
    rule = data.draw(st.sampled_from(list(FirstClickRule)))
    kept = {"opening": min(3, rows) * min(3, cols), "safe": 1, "none": 0}[rule.value]
    mines = data.draw(st.integers(0, rows * cols - kept))
    field = generate_field(rows, cols, mines, first_click=(row, col), rule=rule, seed=seed)
    assert field.mine_count == mines
    if rule is FirstClickRule.SAFE:
        assert not field.is_mine(row, col)
    if rule is FirstClickRule.OPENING:
        assert not field.mines[max(0, row - 1) : row + 2, max(0, col - 1) : col + 2].any()


@pytest.mark.parametrize(("mines", "expected_share"), [(3, 3 / 15), (12, 12 / 15)])
def test_mines_are_uniform_over_the_allowed_squares(mines: int, expected_share: float) -> None:
    games = 3000
    counts = np.zeros((4, 4))
    for seed in range(games):
        counts += generate_field(4, 4, mines, first_click=(0, 0), rule="safe", seed=seed).mines
    assert counts[0, 0] == 0
    share = np.delete(counts.reshape(-1), 0) / games
    # Each square's share is binomial: within five standard deviations.
    spread = 5 * np.sqrt(expected_share * (1 - expected_share) / games)
    assert np.all(np.abs(share - expected_share) < spread), share


def test_presets() -> None:
    assert [(p.rows, p.cols, p.mines) for p in PRESETS.values()] == [
        (9, 9, 10),
        (16, 16, 40),
        (16, 30, 99),
    ]


@pytest.mark.parametrize(
    ("rows", "cols", "mines", "click", "rule", "message"),
    [
        (3, 3, 1, (1, 1), "opening", "1 mines do not fit on a 3x3 board: at most 0"),
        (3, 3, 9, (1, 1), "safe", "at most 8"),
        (1, 1, 1, (0, 0), "safe", "at most 0"),
        (2, 2, 5, None, "none", "at most 4"),
        (0, 5, 0, None, "none", "at least one row"),
        (5, 5, -1, None, "none", "0 or more"),
        (5, 5, 1.0, None, "none", "mines must be an int"),
        (5, 5, 1, None, "sometimes", "first-click rule must be one of"),
    ],
)
def test_impossible_requests_are_refused(
    rows: int, cols: int, mines: object, click: object, rule: str, message: str
) -> None:
    with pytest.raises(SettingsError, match=message):
        generate_field(rows, cols, mines, first_click=click, rule=rule, seed=1)  # type: ignore[arg-type]


def test_first_click_off_the_board_is_refused() -> None:
    with pytest.raises(InvalidClickError, match="row 9 is outside"):
        generate_field(9, 9, 10, first_click=(9, 0), seed=1)


@pytest.mark.parametrize("seed", [-1, 2**128, 1.5, True])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(SettingsError, match="seed must be an int") as raised:
        generate_field(9, 9, 10, seed=seed)  # type: ignore[arg-type]
    assert not isinstance(raised.value, InvalidBoardError)


def test_corner_click_on_a_crowded_board() -> None:
    # A corner keeps only 4 squares clear, but a game must fit any click: 9.
    field = generate_field(4, 4, 12, first_click=(0, 0), rule="opening", seed=3)
    assert not field.mines[:2, :2].any()
    with pytest.raises(SettingsError, match="rule 'safe' keeps only the clicked square"):
        check_fits(4, 4, 12, "opening")
    check_fits(4, 4, 7, "opening")


def test_presets_are_found_by_name() -> None:
    assert Preset.from_name("intermediate") is PRESETS["intermediate"]
    assert [Preset.from_name(name).name for name in PRESETS] == list(PRESETS)


@pytest.mark.parametrize(
    ("name", "shown"),
    [("huge", "'huge'"), ("", "''"), (["x"], "['x']"), (None, "None"), ("Expert", "'Expert'")],
)
def test_an_unknown_preset_is_a_settings_error(name: object, shown: str) -> None:
    with pytest.raises(SettingsError) as raised:
        Preset.from_name(name)
    assert str(raised.value) == (
        f"preset must be one of 'beginner', 'intermediate', 'expert', got {shown}"
    )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 80),
    st.integers(1, 80),
    st.floats(0.0, 0.9),
    st.integers(0, 2**32),
    st.sampled_from(["safe", "opening", "none"]),
)
def test_the_compiled_draw_lays_the_same_mines_as_numpy(
    rows: int, cols: int, density: float, seed: int, rule: str
) -> None:
    import minesweep.generate as generate

    mines = int(rows * cols * density)
    first = (rows // 2, cols // 2)
    if mines > rows * cols - (9 if rule == "opening" else 1):
        return
    saved = generate._COMPILED_DRAW
    try:
        generate._COMPILED_DRAW = 0  # every batch through the compiled pass
        compiled = generate.generate_field(
            rows, cols, mines, first_click=first, rule=rule, seed=seed
        )
        generate._COMPILED_DRAW = 10**12  # numpy's sort-based first occurrences only
        plain = generate.generate_field(rows, cols, mines, first_click=first, rule=rule, seed=seed)
    finally:
        generate._COMPILED_DRAW = saved
    assert np.array_equal(compiled.mines, plain.mines)
