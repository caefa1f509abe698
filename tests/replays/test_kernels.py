"""The replay kernels compiled and uncompiled, and what is built only when read.

The statistics run in :mod:`minesweep.replays._kernels`, compiled by numba
(the suite compiles in place, see tests/conftest.py) or interpreted until
their part is compiled: the two must give the same answers. Readers leave
the events as columns and the field's numbers uncounted, and an analysis its
clicks and views as the kernel's rows; each is built the first time it is read,
and whoever reads it must see what an eager build would give.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweep import _jit
from minesweep.field import Minefield
from minesweep.replays import MouseEvent, _kernels, check, operations, read, summary, write_evf
from minesweep.replays import model as replay_model
from minesweep.replays._bytes import ByteReader
from minesweep.replays.clicks import ClickRows, ViewRows, analyse_clicks, analyse_with_board
from minesweep.replays.evf import _events_v3, _events_v3_checked
from minesweep.replays.model import (
    EventColumns,
    Replay,
    event_columns,
)
from minesweep.replays.stats import ReplayStats, replay_stats
from minesweep.replays.zini import board_profile, profile_of
from minesweep.squares import Glyph

from ._games import PIXELS, random_field, random_game
from ._oracle import DATA, REAL_FILES, evf_v3, replay_of


def fields_of(value: Any) -> list[Any]:
    """A dataclass's field values, nan made comparable."""
    return [
        "nan" if isinstance(item, float) and math.isnan(item) else item
        for item in (getattr(value, field.name) for field in dataclasses.fields(value))
    ]


def random_replays(seed: int, count: int) -> list[Replay]:
    rng = random.Random(seed)
    replays = []
    for _ in range(count):
        field = random_field(rng)
        px = rng.choice(PIXELS)
        replay = replay_of(field, random_game(rng, field, px), px=px)
        # Off-board positions count differently by format (clicks' documentation).
        replays.append(dataclasses.replace(replay, format=rng.choice(("evf", "rmv", "avf"))))
    return replays


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_uncompiled_kernels_answer_as_the_compiled_ones(seed: int) -> None:
    for replay in random_replays(seed, 4):
        with _jit.compiling():
            compiled, compiled_board = analyse_with_board(replay, with_zini=True)
            compiled_stats = replay_stats(replay)
        with _jit.interpreting():
            interpreted, interpreted_board = analyse_with_board(replay, with_zini=True)
            interpreted_stats = replay_stats(replay)
        assert fields_of(interpreted) == fields_of(compiled)
        assert profile_of(interpreted_board) == profile_of(compiled_board)
        assert fields_of(interpreted_stats) == fields_of(compiled_stats)


@pytest.mark.parametrize("name", REAL_FILES)
def test_the_uncompiled_kernels_answer_as_the_compiled_ones_on_the_real_files(
    name: str,
) -> None:
    replay = read(DATA / name)
    with _jit.compiling():
        compiled = analyse_clicks(replay)
        compiled_profile = board_profile(replay.field)
    with _jit.interpreting():
        interpreted = analyse_clicks(replay)
        interpreted_profile = board_profile(replay.field)
    assert fields_of(interpreted) == fields_of(compiled)
    assert interpreted_profile == compiled_profile


def same_bits(kernel: Any, numpy: Any) -> None:
    """Two dataclasses of the same numbers to the bit (arrays of the same dtype and bytes)."""
    for field in dataclasses.fields(kernel):
        ours, theirs = getattr(kernel, field.name), getattr(numpy, field.name)
        if isinstance(ours, np.ndarray):
            assert (ours.dtype, ours.tobytes()) == (theirs.dtype, theirs.tobytes()), field.name
        else:
            assert (type(ours), ours) == (type(theirs), theirs), field.name


@pytest.mark.parametrize("jit", ["compiling", "interpreting"])
def test_the_operations_kernel_answers_as_numpy_to_the_bit(jit: str) -> None:
    replays = [read(DATA / name) for name in REAL_FILES] + random_replays(48, 60)
    with getattr(_jit, jit)():
        for replay in replays:
            analysis = analyse_clicks(replay)
            kernel = operations.click_operations(replay, analysis)
            numpy = operations._numpy_operations(replay, analysis)
            same_bits(kernel, numpy)
            same_bits(
                operations.operation_stats(replay, analysis),
                operations.operation_stats(replay, analysis, numpy),
            )
            # Its clicks and views as tuples: the kernel reads them back from the records.
            built = dataclasses.replace(
                analysis, clicks=tuple(analysis.clicks), views=tuple(analysis.views)
            )
            assert type(built.clicks) is tuple
            same_bits(operations.click_operations(replay, built), numpy)


@pytest.mark.parametrize("jit", ["compiling", "interpreting"])
def test_pairwise_sum_is_numpys_sum(jit: str) -> None:
    rng = np.random.default_rng(48)
    with getattr(_jit, jit)():
        total = _jit.entry(_kernels.pairwise_sum)
        for n in [*range(140), 255, 256, 257, 1000, 4099, 20001]:
            values = rng.random(n) * 10.0 ** rng.integers(0, 6)
            assert total(values) == float(values.sum()), n


def test_statistics_need_no_field_no_events_no_click_records() -> None:
    replay = read(DATA / "test_subject.evf")
    record = summary(replay)
    assert record["events"] == 7103
    assert (record["rows"], record["cols"], record["mines"]) == (16, 30, 99)
    # Neither the 7,103 MouseEvents nor the field's numbers were built for it.
    assert type(replay.events) is EventColumns
    assert replay.events._built is None
    assert replay.field._numbers is None
    analysis = analyse_clicks(replay)
    assert type(analysis.clicks) is ClickRows
    assert analysis.clicks._built is None
    assert analysis.view(0).shape == (16, 30)
    assert type(analysis.views) is ViewRows
    assert analysis.views._built is not None


@pytest.mark.parametrize("name", REAL_FILES)
def test_summary_takes_every_statistic_by_name_as_replay_stats_gives_it(name: str) -> None:
    replay = read(DATA / name)
    stats = replay_stats(replay)
    record = summary(replay)
    # The record is flat: ReplayStats.operations' fields stand in its place.
    names = [field.name for field in dataclasses.fields(ReplayStats)]
    at = names.index("operations")
    operations = [field.name for field in dataclasses.fields(stats.operations)]
    flat = [*names[:at], *operations, *names[at + 1 :]]
    assert list(record)[-len(flat) - 1 :] == [*flat, "checks"]
    values = fields_of(stats)
    flat_values = [*values[:at], *fields_of(stats.operations), *values[at + 1 :]]
    nan_as_text = ["nan" if isinstance(v, float) and math.isnan(v) else v for v in record.values()]
    assert nan_as_text[-len(flat) - 1 : -1] == flat_values
    assert record["checks"] == check(replay, stats)


@pytest.mark.parametrize("name", REAL_FILES)
def test_what_is_built_when_read_is_what_an_eager_build_gives(name: str) -> None:
    lazy = read(DATA / name)
    columns = event_columns(lazy)
    events = lazy.events
    assert type(events) is EventColumns
    assert all(type(event) is MouseEvent for event in events)
    assert events == tuple(
        MouseEvent(float(t), replay_model.KIND_BY_CODE[c], int(x), int(y))
        for t, c, x, y in zip(columns.times, columns.codes, columns.xs, columns.ys, strict=True)
    )
    assert events.built() is events.built()  # built once, then kept
    assert events[-1] == events.built()[-1]
    assert events[:3] == events.built()[:3]
    assert hash(events) == hash(events.built())
    assert isinstance(lazy.field, Minefield)
    assert lazy.field is lazy.field
    eager = dataclasses.replace(lazy, events=tuple(events), field=Minefield(lazy.field.mines))
    assert eager == lazy
    assert (eager.rows, eager.cols, eager.mines) == (lazy.rows, lazy.cols, lazy.mines)
    # A replay read afresh compares equal before anything was built in it.
    assert read(DATA / name) == eager
    assert pickle.loads(pickle.dumps(read(DATA / name))) == eager
    assert fields_of(analyse_clicks(eager)) == fields_of(analyse_clicks(read(DATA / name)))


def test_click_records_built_when_read_are_those_of_the_kernel() -> None:
    analysis = analyse_clicks(read(DATA / "test_subject.evf"))
    assert len(analysis.clicks) == analysis.cl
    assert analysis.clicks.built() is analysis.clicks.built()  # type: ignore[attr-defined]
    assert all(len(view) == 16 * 30 for view in analysis.views)
    assert analysis.views[0] == bytes([Glyph.HIDDEN]) * (16 * 30)
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy == analysis
    assert dataclasses.replace(analysis) == analysis


@pytest.mark.parametrize("seed", range(3))
def test_evf_v3_events_read_in_one_go_as_checked_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    files = [(DATA / "test_subject.evf").read_bytes()]
    for _ in range(30):
        field = random_field(rng)
        px = rng.choice(PIXELS)
        files.append(evf_v3(field, random_game(rng, field, px), px=px))
    for data in files:
        replay = read(data, name="x.evf")
        count = len(replay.events)
        # The events end with 255, or with 0 and a 32-byte checksum.
        start = next(
            at
            for at in (len(data) - 8 * count - 1, len(data) - 8 * count - 33)
            if data[at + 8 * count] in (0, 255)
            and at + 8 * count + 1 + 32 * (data[at + 8 * count] == 0) == len(data)
        )
        fast = _events_v3(ByteReader(data, "x", start), data[0])
        checked = _events_v3_checked(ByteReader(data, "x", start), data[0])
        for ours, theirs in zip(fast[:4], checked[:4], strict=True):
            np.testing.assert_array_equal(ours, theirs)
        assert fast[4] == checked[4]
        # EVF v4 (its reader decodes steps), off-board positions moved to the sentinel.
        again = read(write_evf(replay), name="x.evf")
        assert [e[:2] for e in again.events] == [e[:2] for e in replay.events]
        width, height = replay.cols * replay.cell_px, replay.rows * replay.cell_px
        for ours, theirs in zip(again.events, replay.events, strict=True):
            if 0 <= theirs.x < width and 0 <= theirs.y < height:
                assert ours == theirs


def test_the_kernels_codes_are_the_public_ones() -> None:
    from minesweep.replays import clicks
    from minesweep.replays._kernels import codes
    from minesweep.replays.clicks import ClickEffect, ClickKind, GameEnd

    # The views are the core's glyphs: one alphabet, no table between them.
    assert (codes.HIDDEN, codes.FLAG) == (Glyph.HIDDEN, Glyph.FLAG)
    assert (codes.WRONG_FLAG, codes.EXPLODED) == (Glyph.WRONG_FLAG, Glyph.EXPLODED)
    assert list(ClickKind) == [codes.LEFT, codes.RIGHT, codes.DOUBLE]
    assert list(ClickEffect) == [
        codes.NOTHING, codes.FLAGGED, codes.UNFLAGGED, codes.OPENED, codes.CHORDED, codes.MINE,
    ]  # fmt: skip
    states = (codes.READY, codes.PRE, codes.PLAYING, codes.WON, codes.LOST)
    assert [clicks._RESULTS[state] for state in states] == [
        GameEnd.NOT_STARTED, GameEnd.NOT_STARTED, GameEnd.PLAYING, GameEnd.WON, GameEnd.LOST,
    ]  # fmt: skip
    kinds = ("mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m")
    assert [replay_model.CODE_BY_KIND[kind] for kind in kinds] == [
        codes.MV, codes.LC, codes.LR, codes.RC, codes.RR, codes.MC,
        codes.MR, codes.PF, codes.CC, codes.L, codes.R, codes.M,
    ]  # fmt: skip
