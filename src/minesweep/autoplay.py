"""The autoplayer: plays seeded games with the solver's policy, and measures it.

A game is played as a player would: the first click by the convention
chosen, then certain moves while there are any
(:func:`minesweep.solver.certain.play_until_stuck`: the compiled rules, and
the exact analysis when they stall), and a guess from
:func:`minesweep.solver.policy.choose_guess` when nothing is certain. The
player reads only the revealed numbers; the field is consulted to open a
square, as the game would, and to tell whether a guess hit a mine.

The same seed always plays the same game, so runs split over processes, or
over a Dask cluster, give exactly the results of one local run.

Ctrl-C (SIGINT) stops a run wherever it plays: in this process at the end
of the game in play (kept), while worker processes ignore SIGINT and are
ended at once by the process that started them, and a Dask run's futures
are cancelled; then :func:`play_games` raises :class:`PlayInterrupted`
(a KeyboardInterrupt) with the games played so far.
"""

from __future__ import annotations

import functools
import os
import re
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from .errors import SettingsError
from .generate import check_fits, check_seed, generate_field
from .grid import check_position, middle
from .interrupts import (
    Interrupt,
    ignore_sigint,
    sigint_blocked,
    sigint_caught,
    sigint_polled,
    stop_workers,
)
from .presets import Preset, first_click_rule
from .solver import compiled_game
from .solver.certain import flat_squares, play_until_stuck
from .solver.guess import DEFAULT_POLICY, PolicyConfig
from .solver.policy import choose_guess
from .squares import KNOWN_OPEN
from .stats import wilson_interval

if TYPE_CHECKING:
    from .solver.guess import Guess
    from .solver.probability import Analysis

__all__ = [
    "GameRecord",
    "PlayConfig",
    "PlayInterrupted",
    "Summary",
    "play_game",
    "play_games",
    "summarize",
    "wilson_interval",
]

#: What :func:`play_game` tells a tracer of each guess: the analysis it was made from.
GuessHook = Callable[["Analysis", "Guess"], None]
#: What :func:`play_game` tells a tracer at the end: what the solver knew of every square.
EndHook = Callable[[npt.NDArray[np.uint8]], None]


@dataclass(frozen=True, slots=True)
class PlayConfig:
    """What kind of game to play: size, mines, first-click rule and first click,
    and the tuning of the policy that plays it."""

    rows: int
    cols: int
    mines: int
    rule: str = "safe"
    first_click: tuple[int, int] = (0, 0)
    policy: PolicyConfig = DEFAULT_POLICY

    @classmethod
    def preset(
        cls,
        name: str,
        *,
        rule: str = "safe",
        first_click: str = "corner",
        strength: str = "default",
    ) -> PlayConfig:
        """A preset with a first click named ``corner``, ``center`` or given as ``R,C``,
        played at a named strength (:meth:`PolicyConfig.preset`: ``fast``,
        ``default`` or ``strongest``)."""
        size = Preset.from_name(name)
        return cls(
            size.rows,
            size.cols,
            size.mines,
            rule,
            _click(first_click, size.rows, size.cols),
            PolicyConfig.preset(strength),
        )

    def __post_init__(self) -> None:
        first_click_rule(self.rule)
        check_fits(self.rows, self.cols, self.mines, self.rule)
        check_position((self.rows, self.cols), *self.first_click)


@dataclass(frozen=True, slots=True)
class GameRecord:
    seed: int
    won: bool
    seconds: float
    guesses: int
    #: Safe squares opened, out of all the safe squares.
    opened: int


@dataclass(frozen=True, slots=True)
class Summary:
    games: int
    wins: int
    low: float
    high: float
    seconds: float
    median_game: float
    p99_game: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        return (
            f"{self.wins} wins in {self.games} games: {self.win_rate:.2%} "
            f"(95% CI {self.low:.2%} to {self.high:.2%}); {self.games_per_second:.1f} games/s; "
            f"per game median {self.median_game * 1e3:.1f} ms, p99 {self.p99_game * 1e3:.1f} ms"
        )


class PlayInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`play_games`: the games played so far, and how many were asked for.

    A KeyboardInterrupt, so that code which does not know it stops as before.
    When it is raised, the run's worker processes are gone and a Dask run's
    futures are cancelled.
    """

    def __init__(self, records: list[GameRecord], total: int) -> None:
        super().__init__(f"interrupted after {len(records)} of {total} games")
        #: The games played before the interrupt, in the order of their seeds.
        self.records = records
        #: The games asked for.
        self.total = total


def play_game(
    config: PlayConfig,
    seed: int,
    *,
    on_guess: GuessHook | None = None,
    on_end: EndHook | None = None,
    compiled: bool = True,
) -> GameRecord:
    """Play one game with the solver's policy and say how it went.

    The game runs in compiled calls (:mod:`minesweep.solver.compiled_game`) unless
    ``compiled`` is False or ``on_guess`` is given: every step in Python
    then, the same game.

    ``on_guess(analysis, guess)``, when given, is told every guess before
    it is played (for diagnostics; it must not change either). ``on_end(state)``
    is told what the solver knew of every square when the game ended
    (KNOWN_OPEN where open; read-only), unless the first click hit a mine and
    the solver saw nothing. benchmarks/fingerprint.py traces games with both.
    """
    started = time.perf_counter()
    row, col = config.first_click
    cols = config.cols
    state = np.zeros((config.rows, cols), np.uint8)
    empty = np.zeros(0, np.int64)
    won = False
    # A game is played in compiled calls, which hand back to the Python
    # policy only for the steps they leave to it (solver/_play.py); a tracer
    # of guesses needs every analysis, so it plays in Python.
    plain = compiled and on_guess is None
    if plain:
        tuning = compiled_game.tuning(config.policy, config.rows * cols)
        mines = np.empty(state.shape, np.bool_)
        numbers = np.empty(state.shape, np.uint8)
        # The field is laid in the kernel too, as generate_field lays it.
        done, won, guesses = compiled_game.play_seeded(
            tuning,
            mines,
            numbers,
            state,
            row * cols + col,
            first_click_rule(config.rule),
            config.mines,
            check_seed(seed),
        )
        opens = sure = empty  # played: the position is where the kernel left it
    else:
        field = generate_field(
            config.rows,
            config.cols,
            config.mines,
            first_click=config.first_click,
            rule=config.rule,
            seed=seed,
        )
        mines, numbers = field.mines, field.numbers
        guesses, done = 0, False
        opens, sure = np.array([row * cols + col], np.int64), empty
    if mines[row, col]:
        return GameRecord(seed, False, time.perf_counter() - started, 1, 0)
    while not done:
        stuck = play_until_stuck(numbers, config.mines, state, opens, sure, max_states=None)
        if stuck is None:
            won = True
            break
        guess = choose_guess(stuck.analysis, stuck.view, config.mines, config=config.policy)
        if on_guess is not None:
            on_guess(stuck.analysis, guess)
        guesses += 1
        if mines[guess.row, guess.col]:
            break
        opens = np.array([guess.row * cols + guess.col], np.int64)
        sure = flat_squares(stuck.analysis.mines, cols)
        if plain:
            done, won, played = compiled_game.play_on(
                tuning, numbers, mines, config.mines, state, opens, sure
            )
            guesses += played
            opens = sure = empty
    opened_count = int(np.count_nonzero(state == KNOWN_OPEN))
    if on_end is not None:
        state.flags.writeable = False
        on_end(state)
    return GameRecord(seed, won, time.perf_counter() - started, guesses, opened_count)


def _play_chunk(config: PlayConfig, seeds: Sequence[int]) -> list[GameRecord]:
    return [play_game(config, seed) for seed in seeds]


def play_games(
    config: PlayConfig,
    seeds: Iterable[int],
    *,
    workers: int = 1,
    dask_address: str | None = None,
    dask_timeout: float = 5.0,
    progress: Callable[[int, int, int], None] | None = None,
    chunk: int = 50,
) -> list[GameRecord]:
    """Play a game for each seed: in this process, on ``workers`` processes, or on Dask.

    ``progress(done, total, wins)`` is called as results come in. The records
    come back in the order of ``seeds`` whatever runs them. A Dask scheduler
    that is not reached within ``dask_timeout`` seconds, or an address that
    is not one, is a SettingsError. Ctrl-C raises :class:`PlayInterrupted`
    once the worker processes are ended (or the Dask futures cancelled).
    """
    seeds = list(seeds)
    chunks = [seeds[i : i + chunk] for i in range(0, len(seeds), chunk)]
    records: list[GameRecord] = []
    wins = 0

    # In this process, the games of the chunk in play, which an interrupt keeps.
    playing: list[GameRecord] = []
    with sigint_caught() as interrupted:

        def collect(batch: list[GameRecord]) -> None:
            nonlocal wins
            records.extend(batch)
            wins += sum(record.won for record in batch)
            _check(interrupted)
            if progress is not None:
                progress(len(records), len(seeds), wins)

        try:
            if dask_address is not None:
                _play_on_dask(config, chunks, dask_address, dask_timeout, collect)
            elif workers > 1:
                _play_on_processes(config, chunks, workers, collect)
            else:
                # Ctrl-C is held to the end of the game in play, which is kept:
                # raised while numba boxes a kernel's results, it can crash the
                # process (see sigint_polled).
                with sigint_polled() as check:
                    for part in chunks:
                        for seed in part:
                            playing.append(play_game(config, seed))
                            check()
                        batch = playing[:]
                        playing.clear()
                        collect(batch)
        except BaseException as error:
            # Whatever the interrupt became on its way up: native code that
            # Python calls back (numba loading its cache) can turn it into a
            # SystemError.
            if interrupted() or isinstance(error, KeyboardInterrupt):
                played = _in_order(records + playing, seeds)
                raise PlayInterrupted(played, len(seeds)) from None
            raise
    return _in_order(records, seeds)


def _check(interrupted: Callable[[], bool]) -> None:
    """Raise the interrupt that came, should native code have swallowed it."""
    if interrupted():
        raise Interrupt


def _in_order(records: list[GameRecord], seeds: list[int]) -> list[GameRecord]:
    order = {seed: index for index, seed in enumerate(seeds)}
    return sorted(records, key=lambda record: order[record.seed])


def _play_on_dask(
    config: PlayConfig,
    chunks: list[list[int]],
    address: str,
    timeout: float,
    collect: Callable[[list[GameRecord]], None],
) -> None:
    from .cluster import run_on_dask

    run_on_dask(
        functools.partial(_play_chunk, config), chunks, address, timeout, collect, doing="playing"
    )


def _play_on_processes(
    config: PlayConfig,
    chunks: list[list[int]],
    workers: int,
    collect: Callable[[list[GameRecord]], None],
) -> None:
    pool: ProcessPoolExecutor | None = None
    try:
        # The workers start with SIGINT blocked, so that a Ctrl-C before their
        # initializer ignores it cannot stop one with a traceback of its own;
        # the parent's Ctrl-C, held meanwhile, arrives once they are started.
        with sigint_blocked():
            pool = ProcessPoolExecutor(max_workers=workers, initializer=ignore_sigint)
            futures = [pool.submit(_play_chunk, config, part) for part in chunks]
        for future in as_completed(futures):
            collect(future.result())
    except BaseException:
        if pool is not None:
            stop_workers(pool)
        raise
    pool.shutdown()


def summarize(records: Sequence[GameRecord], seconds: float) -> Summary:
    wins = sum(record.won for record in records)
    low, high = wilson_interval(wins, len(records))
    times = [record.seconds for record in records] or [0.0]
    return Summary(
        games=len(records),
        wins=wins,
        low=low,
        high=high,
        seconds=seconds,
        median_game=statistics.median(times),
        p99_game=float(np.percentile(times, 99)),
    )


def default_workers() -> int:
    """The cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _click(text: str, rows: int, cols: int) -> tuple[int, int]:
    if text == "corner":
        return 0, 0
    if text == "center":
        return middle((rows, cols))
    parts = text.split(",")
    # ASCII digits only: str.isdigit and int take any script's digits too ("３").
    if len(parts) == 2 and all(re.fullmatch("[0-9]+", part.strip()) for part in parts):
        return int(parts[0]), int(parts[1])
    raise SettingsError(f"first click must be 'corner', 'center' or R,C, got {text!r}")
