"""The autoplayer: reproducible games, parallel runs, win rates and settings."""

from __future__ import annotations

import functools
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import minesweep.autoplay
import minesweep.interrupts
from minesweep import InvalidClickError, SettingsError
from minesweep.autoplay import (
    GameRecord,
    PlayConfig,
    PlayInterrupted,
    play_game,
    play_games,
    summarize,
    wilson_interval,
)
from minesweep.solver.guess import Guess
from minesweep.solver.policy import DEFAULT_POLICY
from minesweep.solver.probability import Analysis
from minesweep.squares import KNOWN_OPEN


def test_a_seed_always_plays_the_same_game() -> None:
    config = PlayConfig.preset("intermediate")
    first = [play_game(config, seed) for seed in range(20)]
    again = [play_game(config, seed) for seed in range(20)]
    assert [(r.won, r.guesses, r.opened) for r in first] == [
        (r.won, r.guesses, r.opened) for r in again
    ]


def test_a_won_game_opens_every_safe_square() -> None:
    config = PlayConfig.preset("beginner")
    records = [play_game(config, seed) for seed in range(30)]
    assert any(r.won for r in records)
    for record in records:
        if record.won:
            assert record.opened == 81 - 10
        else:
            assert record.opened < 81 - 10
            assert record.guesses >= 1


def test_processes_give_the_same_results_as_one() -> None:
    config = PlayConfig.preset("beginner", rule="opening", first_click="3,3")
    local = play_games(config, range(60), workers=1, chunk=7)
    parallel = play_games(config, range(60), workers=2, chunk=7)
    assert [r.seed for r in parallel] == list(range(60))
    assert [(r.won, r.opened) for r in local] == [(r.won, r.opened) for r in parallel]


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_results_as_one_process() -> None:
    distributed = pytest.importorskip("distributed")
    config = PlayConfig.preset("beginner")
    local = play_games(config, range(40), workers=1, chunk=10)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        remote = play_games(config, range(40), dask_address=cluster.scheduler_address, chunk=10)
    assert [(r.won, r.opened) for r in local] == [(r.won, r.opened) for r in remote]


@pytest.mark.parametrize(
    ("preset", "rule", "click", "floor"),
    [
        # Loose floors, about four standard deviations under the published
        # state of the art, so that a regression in the policy fails.
        ("beginner", "safe", "corner", 0.85),
        ("intermediate", "safe", "corner", 0.68),
        ("expert", "safe", "corner", 0.30),
        ("expert", "opening", "3,3", 0.42),
    ],
)
def test_win_rate_floor(preset: str, rule: str, click: str, floor: float) -> None:
    config = PlayConfig.preset(preset, rule=rule, first_click=click)
    records = play_games(config, range(10_000, 10_300), workers=2)
    summary = summarize(records, 1.0)
    assert summary.win_rate >= floor, summary


def test_wilson_interval() -> None:
    low, high = wilson_interval(41, 100)
    assert low == pytest.approx(0.3187, abs=1e-4)  # worked out by hand
    assert high == pytest.approx(0.5080, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(100, 100)
    assert high == 1.0
    assert low > 0.96


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: PlayConfig.preset("master"), SettingsError, "preset must be one of"),
        (lambda: PlayConfig.preset("expert", first_click="edge"), SettingsError, "corner"),
        (lambda: PlayConfig.preset("expert", first_click="16,0"), InvalidClickError, "row 16"),
        (lambda: PlayConfig(3, 3, 8, "opening"), SettingsError, "do not fit"),
        (lambda: PlayConfig(9, 9, 10, "maybe"), SettingsError, "first-click rule"),
    ],
)
def test_bad_configurations(make: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        make()  # type: ignore[operator]


def test_a_missing_dask_extra_is_a_settings_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    config = PlayConfig.preset("beginner")
    with pytest.raises(SettingsError, match=r"playing on a Dask cluster needs the optional extra"):
        play_games(config, range(2), dask_address="tcp://nowhere:1")


@pytest.mark.parametrize(
    ("address", "timeout", "reason"),
    [("nonsense", 5.0, "missing port"), ("tcp://127.0.0.1:9", 0.3, "Timed out")],
)
def test_an_unreachable_dask_scheduler_is_a_settings_error(
    address: str, timeout: float, reason: str
) -> None:
    config = PlayConfig.preset("beginner")
    with pytest.raises(SettingsError, match=f"cannot reach the Dask scheduler at '.*': {reason}"):
        play_games(config, range(2), dask_address=address, dask_timeout=timeout)


def test_the_guess_hook_sees_every_guess_and_changes_nothing() -> None:
    config = PlayConfig.preset("intermediate")
    for seed in range(10):
        seen: list[tuple[float, Guess]] = []

        def note(analysis: Analysis, guess: Guess, seen: list[tuple[float, Guess]] = seen) -> None:
            seen.append((analysis.log_layouts, guess))

        traced = play_game(config, seed, on_guess=note)
        plain = play_game(config, seed)
        assert (traced.won, traced.guesses, traced.opened) == (
            plain.won,
            plain.guesses,
            plain.opened,
        )
        assert len(seen) == traced.guesses


def test_the_end_hook_sees_what_the_solver_knew_at_the_end() -> None:
    config = PlayConfig.preset("beginner", rule="none")
    told = 0
    for seed in range(30):
        ends: list[np.ndarray] = []
        record = play_game(config, seed, on_end=functools.partial(_keep_copy, ends))
        if not record.won and record.opened == 0:
            assert ends == []  # lost at the first click: the solver saw nothing
            continue
        told += 1
        (state,) = ends
        assert int(np.count_nonzero(state == KNOWN_OPEN)) == record.opened
        if record.won:  # every safe square open
            assert record.opened == 9 * 9 - 10
    assert told > 0


def test_the_policy_is_passed_in_with_the_configuration() -> None:
    config = PlayConfig.preset("expert")
    assert config.policy is DEFAULT_POLICY
    reasons: dict[bool, set[str]] = {True: set(), False: set()}
    for lookahead in (True, False):
        played = replace(config, policy=replace(DEFAULT_POLICY, lookahead=lookahead))

        def note(_: Analysis, guess: Guess, lookahead: bool = lookahead) -> None:
            reasons[lookahead].add(guess.reason.split(":")[0])

        for seed in range(30):
            play_game(played, seed, on_guess=note)
    lookahead_only = {
        "the best chance of surviving this guess and the next",
        "a mine here only as one side of a 50/50 to come",
    }
    assert lookahead_only <= reasons[True]
    assert not lookahead_only & reasons[False]


def _keep_copy(kept: list[np.ndarray], state: np.ndarray) -> None:
    kept.append(state.copy())


# --- Ctrl-C ---------------------------------------------------------------------------


def _interrupting(monkeypatch: pytest.MonkeyPatch, at: int, then: Callable[[], None]) -> list[int]:
    """Make play_game call ``then`` before the game of seed ``at``; returns the seeds played."""
    played: list[int] = []
    real = minesweep.autoplay.play_game

    def play(config: PlayConfig, seed: int, **hooks: Any) -> GameRecord:
        if seed == at:
            then()
        played.append(seed)
        return real(config, seed, **hooks)

    monkeypatch.setattr(minesweep.autoplay, "play_game", play)
    return played


def _ctrl_c() -> None:
    signal.raise_signal(signal.SIGINT)


def test_ctrl_c_in_one_process_keeps_the_games_played_so_far(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    played = _interrupting(monkeypatch, 7, _ctrl_c)
    config = PlayConfig.preset("beginner")
    with pytest.raises(PlayInterrupted) as caught:
        play_games(config, range(20), workers=1, chunk=5)
    # The game in play when it came is played out and kept with those of the
    # chunk it stopped in, in the order of their seeds; no later game starts.
    assert [record.seed for record in caught.value.records] == list(range(8))
    assert played == list(range(8))
    assert caught.value.total == 20
    assert isinstance(caught.value, KeyboardInterrupt)
    assert str(caught.value) == "interrupted after 8 of 20 games"
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_ctrl_c_is_never_raised_inside_the_game_in_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Raised inside native code, an interrupt was turned into a SystemError
    # (numba calling back into Python as it loads its cache) or crashed the
    # process (numba boxing a kernel's results): it waits for the game's end.
    raised: list[BaseException] = []

    def inside() -> None:
        try:
            _ctrl_c()
        except BaseException as error:
            raised.append(error)
            raise

    _interrupting(monkeypatch, 3, inside)
    with pytest.raises(PlayInterrupted) as caught:
        play_games(PlayConfig.preset("beginner"), range(10), workers=1)
    assert raised == []
    assert [record.seed for record in caught.value.records] == [0, 1, 2, 3]


def test_a_second_ctrl_c_does_not_break_off_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    def twice() -> None:
        try:
            _ctrl_c()
        finally:
            _ctrl_c()  # a second one before the game's end: still one interrupt

    played = _interrupting(monkeypatch, 2, twice)
    with pytest.raises(PlayInterrupted) as caught:
        play_games(PlayConfig.preset("beginner"), range(10), workers=1)
    assert [record.seed for record in caught.value.records] == [0, 1, 2]
    assert played == [0, 1, 2]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_program_s_own_sigint_handler_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[int] = []

    def handler(signum: int, _frame: object) -> None:
        told.append(signum)

    before = signal.signal(signal.SIGINT, handler)
    try:
        _interrupting(monkeypatch, 2, _ctrl_c)
        records = play_games(PlayConfig.preset("beginner"), range(5), workers=1)
        assert signal.getsignal(signal.SIGINT) is handler
    finally:
        signal.signal(signal.SIGINT, before)
    assert told == [signal.SIGINT]
    assert len(records) == 5


def test_ctrl_c_ends_the_worker_processes_at_once() -> None:
    # Expert games, two workers: the whole run would take minutes; Ctrl-C at
    # the first chunk's result ends it, cancelled chunks and workers alike.
    config = PlayConfig.preset("expert")
    reported: list[float] = []

    def progress(done: int, total: int, wins: int) -> None:
        reported.append(time.monotonic())
        _ctrl_c()

    with pytest.raises(PlayInterrupted) as caught:
        play_games(config, range(2000), workers=2, chunk=10, progress=progress)
    assert time.monotonic() - reported[0] < 5
    assert len(reported) == 1
    seeds = [record.seed for record in caught.value.records]
    assert len(seeds) >= 10
    assert seeds == sorted(seeds)
    assert multiprocessing.active_children() == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_workers_ignore_sigint() -> None:
    # A terminal's Ctrl-C reaches every process of the command: the workers
    # leave it to the process that started them.
    with ProcessPoolExecutor(max_workers=1, initializer=minesweep.interrupts.ignore_sigint) as pool:
        assert pool.submit(signal.getsignal, signal.SIGINT).result() is signal.SIG_IGN


@pytest.mark.slow
def test_ctrl_c_cancels_the_dask_futures(monkeypatch: pytest.MonkeyPatch) -> None:
    distributed = pytest.importorskip("distributed")
    cancelled: list[int] = []
    cancel = distributed.Client.cancel

    def spy(self: Any, futures: list[Any], *args: Any, **kwargs: Any) -> Any:
        cancelled.append(len(futures))
        return cancel(self, futures, *args, **kwargs)

    monkeypatch.setattr(distributed.Client, "cancel", spy)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        pytest.raises(PlayInterrupted) as caught,
    ):
        play_games(
            PlayConfig.preset("beginner"),
            range(200),
            dask_address=cluster.scheduler_address,
            chunk=10,
            progress=lambda *_: _ctrl_c(),
        )
    assert cancelled == [20]  # every chunk's future, those done and those not
    assert len(caught.value.records) == 10


def test_a_preset_game_is_played_at_the_named_strength() -> None:
    from minesweep.solver.guess import PolicyConfig

    fast = PlayConfig.preset("expert", strength="fast")
    assert fast.policy == PolicyConfig.preset("fast")
    assert PlayConfig.preset("expert").policy == PolicyConfig.preset("default")
    strongest = PlayConfig.preset("expert", strength="strongest")
    assert strongest.policy == PolicyConfig.preset("strongest")
    with pytest.raises(SettingsError, match="unknown strength 'strong'"):
        PlayConfig.preset("expert", strength="strong")
