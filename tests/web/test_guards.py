"""The web game's guards alone (minesweep.web.guards): buckets, names, the pool, intervals."""

from __future__ import annotations

import threading
import time
import unicodedata

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minesweep import Minefield
from minesweep.errors import MinesweepError, SettingsError
from minesweep.stats import wilson_interval as wilson
from minesweep.web.guards import (
    BadNameError,
    BusyError,
    NoGuessPool,
    TokenBuckets,
    check_name,
    lay_no_guess_field,
)


def test_a_bucket_lets_a_burst_through_then_its_rate() -> None:
    now = [0.0]
    buckets = TokenBuckets(2.0, 3, clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(0.5)  # empty: half a second to the next token
    assert buckets.take("b") == 0.0  # another client has its own bucket
    now[0] += 0.5
    assert buckets.take("a") == 0.0
    now[0] += 100.0  # a long pause refills the bucket, never past its burst
    assert [buckets.take("a") for _ in range(4)][-1] > 0


def test_a_costly_request_takes_more_tokens_and_at_most_the_burst() -> None:
    now = [0.0]
    buckets = TokenBuckets(2.0, 10, clock=lambda: now[0])
    assert buckets.take("a", 4) == 0.0
    assert buckets.take("a", 4) == 0.0
    assert buckets.take("a", 4) == pytest.approx(1.0)  # 2 left: 2 more at 2 a second
    assert buckets.take("a") == 0.0  # a cheap request still fits
    # A cost past the burst takes the whole burst: it goes ahead once the bucket is full.
    now[0] += 100.0
    assert buckets.take("b", 50) == 0.0
    assert buckets.take("b", 50) == pytest.approx(5.0)
    assert buckets.take("a", 50) == 0.0


def test_buckets_forget_the_oldest_clients() -> None:
    buckets = TokenBuckets(1.0, 1, clock=lambda: 0.0, max_clients=10)
    for client in range(100):
        buckets.take(str(client))
    assert len(buckets) == 10
    assert buckets.take("0") == 0.0  # forgotten, so full again


@pytest.mark.parametrize(("rate", "burst"), [(0.0, 1), (-1.0, 5), (float("nan"), 5), (1.0, 0)])
def test_a_bucket_that_lets_nothing_through_is_refused(rate: float, burst: int) -> None:
    with pytest.raises(SettingsError, match=r"rate > 0 and burst >= 1, got .* and -?\d+"):
        TokenBuckets(rate, burst)


def test_a_busy_server_is_no_bad_value() -> None:
    # A 503, not a 4xx: no handler of the engine's errors may take it for one.
    assert not issubclass(BusyError, ValueError)
    assert issubclass(BadNameError, MinesweepError)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("a\ud800b", "lone surrogate"),
        ("a\x00b", "U+0000"),
        ("a\x1bb", "U+001B"),
        ("evil\u202eeman", "U+202E"),
        ("a\u2066b", "U+2066"),
        ("a\u2028b", "U+2028"),
        ("ada\u200b", "U+200B"),
        ("\ufeffbob", "U+FEFF"),
        ("a\U000e0041", "U+E0041"),
        ("x" * 41, "at most 40 characters, got 41"),
    ],
)
def test_names_that_would_spoil_a_leaderboard_are_refused(name: str, message: str) -> None:
    with pytest.raises(BadNameError, match=message.replace("+", r"\+")):
        check_name(name, 40)


def test_names_are_nfc_and_counted_in_characters() -> None:
    decomposed = "e\u0301" * 40  # 80 code points, 40 characters once composed
    assert check_name(decomposed, 40) == "\u00e9" * 40
    assert check_name("名前太郎", 4) == "名前太郎"
    with pytest.raises(BadNameError, match="at most 3"):
        check_name("名前太郎", 3)
    assert check_name("ada lovelace", 40) == "ada lovelace"
    # Spaces are not trimmed away: a name is refused with them, so that what
    # is stored is what was asked for (tests/web/test_names.py has the rest).
    for spaced in ("  ada  ", "   ", "ada  lovelace"):
        with pytest.raises(BadNameError, match="space"):
            check_name(spaced, 40)
    with pytest.raises(BadNameError, match="empty"):
        check_name("", 40)
    # Emoji are not identifier characters (Unicode TS #39): refused, and an
    # emoji sequence for its invisible zero-width joiner first.
    with pytest.raises(BadNameError, match="emoji"):
        check_name("名前\U0001f642", 40)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    with pytest.raises(BadNameError, match="invisible"):
        check_name(family, 40)


@given(st.text(max_size=60))
def test_a_name_is_either_refused_or_stored_printable(name: str) -> None:
    try:
        stored = check_name(name, 40)
    except BadNameError:
        return
    assert stored == unicodedata.normalize("NFC", stored) == stored.strip() != ""
    assert len(stored) <= 40
    assert not any(unicodedata.category(char) in ("Cc", "Cs", "Cn") for char in stored)
    assert not set(stored) & set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert all(unicodedata.category(char) != "Cf" or char == "\u200d" for char in stored)


def test_wilson_interval_matches_its_formula() -> None:
    low, high = wilson(81, 100)
    # The textbook values for 81 of 100 at 95%: 0.7222 to 0.8749.
    assert (round(low, 4), round(high, 4)) == (0.7222, 0.8749)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[0] == 0.0


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_rate(wins: int, extra: int) -> None:
    games = wins + extra
    low, high = wilson(wins, games)
    assert 0.0 <= low <= wins / games <= high <= 1.0
    more = wilson(wins * 4, games * 4)
    assert more[1] - more[0] < high - low + 1e-12  # more games, narrower


def test_a_full_pool_refuses_at_once_with_a_retry_time() -> None:
    started, release = threading.Event(), threading.Event()

    def slow(*args: object) -> Minefield:
        started.set()
        release.wait(10)
        return Minefield.from_text("*.\n..")

    pool = NoGuessPool(0, 0, lay=slow)
    results: list[object] = []
    worker = threading.Thread(target=lambda: results.append(pool.field(2, 2, 1, (1, 1), None, 3.0)))
    worker.start()
    assert started.wait(10)
    began = time.monotonic()
    with pytest.raises(BusyError) as refused:
        pool.field(2, 2, 1, (1, 1), None, 3.0)
    assert time.monotonic() - began < 1.0  # refused, not queued
    assert refused.value.retry_after == 3
    release.set()
    worker.join()
    assert isinstance(results[0], Minefield)
    assert isinstance(pool.field(2, 2, 1, (1, 1), None, 3.0), Minefield)  # free again


@pytest.mark.slow
def test_a_pool_of_processes_lays_the_same_field_as_the_solver() -> None:
    pool = NoGuessPool(1, 2)
    try:
        field = pool.field(9, 9, 10, (4, 4), 123, 5.0)
    finally:
        pool.close()
    # Seeded, the worker's field is the one laid in this process.
    assert np.array_equal(field.mines, lay_no_guess_field(9, 9, 10, (4, 4), 123, 5.0).mines)
    assert int(field.mines.sum()) == 10


def _exit_in_the_worker(rows: int, cols: int, mines: int, *rest: object) -> Minefield:
    # Seed 1 kills the worker, as running out of memory would.
    if rest[1] == 1:
        import os

        os._exit(1)
    return Minefield.from_text("*.\n..")


@pytest.mark.slow
def test_a_pool_whose_worker_died_starts_afresh() -> None:
    from concurrent.futures import BrokenExecutor

    pool = NoGuessPool(1, 1, lay=_exit_in_the_worker)
    try:
        with pytest.raises(BrokenExecutor):
            pool.field(2, 2, 1, (1, 1), 1, 5.0)
        assert isinstance(pool.field(2, 2, 1, (1, 1), 2, 5.0), Minefield)
    finally:
        pool.close()
