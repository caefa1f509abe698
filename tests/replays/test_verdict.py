"""The solver's verdict on every click: against every layout counted by hand, and ms-toollib.

ms-toollib runs only in a subprocess (:mod:`._oracle`).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep.field import Minefield
from minesweep.replays import read
from minesweep.replays.clicks import analyse_clicks
from minesweep.replays.verdict import (
    CLICK_COLUMNS,
    FIRST_CLICK,
    NOT_JUDGED,
    ClickVerdict,
    JudgedClick,
    click_verdict,
    judge_clicks,
    single_number_safe,
)
from minesweep.solver.certain import SingleNumberRules
from minesweep.squares import GLYPH_FLAG, GLYPH_HIDDEN

from ._games import PIXELS, random_field, random_game
from ._oracle import DATA, REAL_FILES, evf_v3, oracle, replay_of


def layouts(view: np.ndarray, mines: int) -> list[frozenset[tuple[int, int]]]:
    """Every placement of ``mines`` mines on the hidden squares that agrees with every number."""
    rows, cols = view.shape
    hidden = [(r, c) for r in range(rows) for c in range(cols) if view[r, c] >= GLYPH_HIDDEN]
    agreeing = []
    for chosen in itertools.combinations(hidden, mines):
        placed = frozenset(chosen)
        if all(
            sum(
                (rr, cc) in placed
                for rr in range(r - 1, r + 2)
                for cc in range(c - 1, c + 2)
                if (rr, cc) != (r, c)
            )
            == view[r, c]
            for r in range(rows)
            for c in range(cols)
            if view[r, c] < GLYPH_HIDDEN
        ):
            agreeing.append(placed)
    return agreeing


def reference_single_number_safe(view: np.ndarray) -> np.ndarray:
    """The single-number rules from their definition: every number, again and again, to a fixpoint.

    A number whose known mines equal it frees its other hidden neighbours; a
    number with as many unknown neighbours as mines left makes them mines.
    Written square by square, independently of the incremental engine.
    """
    rows, cols = view.shape
    hidden = {(r, c) for r in range(rows) for c in range(cols) if view[r, c] >= GLYPH_HIDDEN}
    mine: set[tuple[int, int]] = set()
    safe: set[tuple[int, int]] = set()
    changed = True
    while changed:
        changed = False
        for r in range(rows):
            for c in range(cols):
                if view[r, c] >= GLYPH_HIDDEN:
                    continue
                around = [
                    (i, j)
                    for i in range(r - 1, r + 2)
                    for j in range(c - 1, c + 2)
                    if (i, j) in hidden
                ]
                unknown = [s for s in around if s not in mine and s not in safe]
                left = int(view[r, c]) - sum(s in mine for s in around)
                if unknown and left == 0:
                    safe.update(unknown)
                    changed = True
                elif unknown and left == len(unknown):
                    mine.update(unknown)
                    changed = True
    out = np.zeros(view.shape, np.bool_)
    for square in safe:
        out[square] = True
    return out


@st.composite
def positions(draw: st.DrawFn) -> tuple[np.ndarray, int]:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    most = min(4, len(squares) - 1)
    mines = set(draw(st.lists(st.sampled_from(squares), min_size=1, max_size=most, unique=True)))
    safe = [square for square in squares if square not in mines]
    opened = set(draw(st.lists(st.sampled_from(safe), max_size=len(safe) - 1, unique=True)))
    view = np.full((rows, cols), GLYPH_HIDDEN, np.uint8)
    for r, c in opened:
        view[r, c] = sum(
            (rr, cc) in mines for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
        )
    # A flag the player put anywhere hidden: a claim, which the verdict must ignore.
    hidden = [square for square in squares if square not in opened]
    if draw(st.booleans()):
        view[draw(st.sampled_from(hidden))] = GLYPH_FLAG
    return view, len(mines)


@settings(deadline=None)
@given(positions(), st.data())
def test_the_chance_of_a_click_is_the_share_of_layouts_with_a_mine_there(
    position: tuple[np.ndarray, int], data: st.DataObject
) -> None:
    view, mines = position
    plain = np.where(view == GLYPH_FLAG, GLYPH_HIDDEN, view).astype(np.uint8)
    every = layouts(plain, mines)
    hidden = [(int(r), int(c)) for r, c in np.argwhere(plain >= GLYPH_HIDDEN)]
    square = data.draw(st.sampled_from(hidden))
    verdict = click_verdict(view, mines, [square])
    expected = Fraction(sum(square in layout for layout in every), len(every))
    assert verdict.mine_chance == pytest.approx(float(expected), abs=1e-12)
    assert verdict.certain == (expected == 0)
    safe_anywhere = [s for s in hidden if not any(s in layout for layout in every)]
    assert verdict.safe_squares == len(safe_anywhere)
    assert verdict.avoidable == (expected > 0 and bool(safe_anywhere))
    assert verdict.forced == (expected > 0 and not safe_anywhere)
    # What the single-number rules prove safe is safe; what they miss, counting found.
    by_rules = single_number_safe(plain)
    assert (by_rules == reference_single_number_safe(plain)).all()
    assert all(not any((r, c) in layout for layout in every) for r, c in np.argwhere(by_rules))
    assert verdict.by_counting == (expected == 0 and not by_rules[square])


def test_a_one_two_one_needs_counting() -> None:
    """Below 1-2-1 the middle square is safe; no single number shows it."""
    view = np.array([[1, 2, 1], [GLYPH_HIDDEN] * 3], np.uint8)
    verdict = click_verdict(view, 2, [(1, 1)])
    assert (verdict.certain, verdict.by_counting, verdict.luck) == (True, True, 0.0)
    corner = click_verdict(view, 2, [(1, 0)])
    assert (corner.mine_chance, corner.guess, corner.avoidable) == (1.0, True, True)
    assert corner.luck == math.inf


@settings(deadline=None)
@given(positions(), st.data())
def test_a_chord_s_chance_is_the_share_of_layouts_with_a_mine_in_any_of_its_squares(
    position: tuple[np.ndarray, int], data: st.DataObject
) -> None:
    view, mines = position
    plain = np.where(view == GLYPH_FLAG, GLYPH_HIDDEN, view).astype(np.uint8)
    every = layouts(plain, mines)
    hidden = [(int(r), int(c)) for r, c in np.argwhere(plain >= GLYPH_HIDDEN)]
    squares = data.draw(st.lists(st.sampled_from(hidden), min_size=2, unique=True))
    verdict = click_verdict(view, mines, squares)
    hit = sum(any(square in layout for square in squares) for layout in every)
    assert verdict.mine_chance == pytest.approx(hit / len(every), abs=1e-12)
    assert verdict.certain == (hit == 0)


def game_views(seed: int) -> list[bytes]:
    """The views of a random replayed game, in order (ms-toollib's codes)."""
    rng = random.Random(seed)
    field = random_field(rng)
    px = rng.choice(PIXELS)
    return list(analyse_clicks(replay_of(field, random_game(rng, field, px), px=px)).views)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_rules_resumed_view_after_view_equal_the_rules_run_afresh(seed: int) -> None:
    rng = random.Random(seed)
    field = random_field(rng)
    rows, cols = field.shape
    views = game_views(seed)
    rules = SingleNumberRules(rows, cols)
    for view in views:
        rules.advance(view)
        codes = np.frombuffer(view, np.uint8).reshape(rows, cols)
        glyphs = np.where(codes <= 8, codes, GLYPH_HIDDEN).astype(np.uint8)
        fresh = rules.safe_mask() & (codes > 8)
        assert (fresh == reference_single_number_safe(glyphs)).all()


def mt_luck(jobs: list[dict[str, str]]) -> list[dict[str, object] | None]:
    pytest.importorskip("ms_toollib")
    return oracle(jobs)


def assert_same_luck(ours: float, theirs: float) -> None:
    # ms-toollib writes a lost game's luck as the largest float.
    if theirs >= 1e300:
        assert ours == math.inf
    else:
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)


def assert_table_matches(table_clicks: tuple[JudgedClick, ...], answer: dict[str, object]) -> None:
    plucks = answer["plucks"]
    safe = answer["safe"]
    levels = answer["levels"]
    assert isinstance(plucks, list)
    assert isinstance(safe, list)
    assert isinstance(levels, list)
    judged_events = set()
    for click in table_clicks:
        if not click.judged:
            continue
        judged_events.add(click.event)
        assert_same_luck(click.pluck, plucks[click.event])
        if levels[click.event] == 2 and not click.first:
            assert 1.0 - click.verdict.mine_chance == pytest.approx(safe[click.event], abs=1e-9)
    # Every click ms-toollib weighs (an effective left or double, or a mine) is one we judged.
    assert {i for i, level in enumerate(levels) if level >= 2} == judged_events


@pytest.mark.parametrize("name", REAL_FILES)
def test_the_luck_of_real_replays_equals_ms_toollib_s_pluck(name: str) -> None:
    (answer,) = mt_luck([{"pluck_path": str(DATA / name)}])
    assert answer is not None
    table = judge_clicks(read(DATA / name))
    assert_same_luck(table.pluck, answer["pluck"])  # type: ignore[arg-type]
    assert table.pluck > 0  # each of these games has a guess after its first click
    assert_table_matches(table.clicks, answer)


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(st.integers(0, 2**32 - 1))
def test_the_luck_of_random_games_equals_ms_toollib_s_pluck(seed: int) -> None:
    rng = random.Random(seed)
    games = []
    for _ in range(30):
        field = random_field(rng)
        px = rng.choice(PIXELS)
        games.append((field, px, random_game(rng, field, px)))
    answers = mt_luck([{"pluck_raw": evf_v3(f, events, px=px).hex()} for f, px, events in games])
    compared = chords = 0
    for (field, px, events), answer in zip(games, answers, strict=True):
        if answer is None:
            continue  # ms-toollib aborted on it: nothing to compare
        compared += 1
        table = judge_clicks(replay_of(field, events, px=px))
        assert_same_luck(table.pluck, answer["pluck"])  # type: ignore[arg-type]
        assert_table_matches(table.clicks, answer)
        chords += sum(click.judged and click.kind == "double" for click in table.clicks)
    assert compared >= 20
    assert chords > 0  # the joint chance of a chord was compared too


def test_the_table_has_a_row_a_click_and_a_column_a_field() -> None:
    replay = read(DATA / "test_subject.evf")
    table = judge_clicks(replay)
    columns = table.columns()
    assert len(table.clicks) == len(table.analysis.clicks)
    assert tuple(columns) == CLICK_COLUMNS
    # One record per concept: a judged click holds its verdict, it does not repeat its fields.
    verdict_fields = {field.name for field in dataclasses.fields(ClickVerdict)}
    assert not verdict_fields & {field.name for field in dataclasses.fields(JudgedClick)}
    assert all(len(values) == len(table.clicks) for values in columns.values())
    assert table.rows()[5] == {name: values[5] for name, values in columns.items()}
    judged = [click for click in table.clicks if click.judged]
    assert judged
    assert all(click.effect in ("open", "chord", "mine") for click in judged)
    assert sum(click.first for click in table.clicks) == 1
    unjudged = [click for click in table.clicks if not click.judged]
    assert all(click.verdict is NOT_JUDGED for click in unjudged)
    assert all(click.verdict is FIRST_CLICK for click in table.clicks if click.first)
    assert table.guesses == table.avoidable_guesses + table.forced_guesses


def test_a_click_on_a_mine_makes_the_game_s_luck_infinite() -> None:
    field = Minefield.from_text("*..\n...\n..*\n")
    # Open the corner (2, 0): a 0 opening; then click the mine at (0, 0).
    events = [(0, "lc", 8, 40), (10, "lr", 8, 40), (200, "lc", 8, 8), (210, "lr", 8, 8)]
    table = judge_clicks(replay_of(field, events, px=16))
    last = table.clicks[-1]
    assert (last.effect, last.judged, last.luck, table.pluck) == ("mine", True, math.inf, math.inf)
    assert 0 < last.verdict.mine_chance < 1


@settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_skipping_the_solver_where_the_rules_settle_a_click_changes_only_safe_squares(
    seed: int,
) -> None:
    rng = random.Random(seed)
    field = random_field(rng)
    px = rng.choice(PIXELS)
    replay = replay_of(field, random_game(rng, field, px), px=px)
    quick, full = judge_clicks(replay), judge_clicks(replay, every_view=True)
    for fast, slow in zip(quick.clicks, full.clicks, strict=True):
        # Compared as the table's rows: the verdict's board context behind the
        # grade (highest and off-frontier chances) is not computed when skipped.
        quick_row, full_row = fast.as_dict(), slow.as_dict()
        if fast.verdict.safe_squares == -1 and slow.verdict.safe_squares != -1:
            # Skipped: the rules settled it, and the solver agrees.
            said = slow.verdict
            assert (said.certain, said.by_counting, said.mine_chance) == (True, False, 0.0)
            assert said.safe_squares >= fast.squares
            full_row["safe_squares"] = -1
        assert quick_row == full_row or (
            math.isnan(fast.verdict.mine_chance)
            and {**quick_row, "mine_chance": 0.0} == {**full_row, "mine_chance": 0.0}
        )
