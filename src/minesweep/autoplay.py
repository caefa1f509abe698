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
"""

from __future__ import annotations

import importlib
import os
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .errors import SettingsError
from .generate import check_fits, generate_field
from .grid import check_position, middle
from .presets import Preset, first_click_rule
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
    def preset(cls, name: str, *, rule: str = "safe", first_click: str = "corner") -> PlayConfig:
        """A preset with a first click named ``corner``, ``center`` or given as ``R,C``."""
        size = Preset.from_name(name)
        return cls(
            size.rows, size.cols, size.mines, rule, _click(first_click, size.rows, size.cols)
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


def play_game(
    config: PlayConfig,
    seed: int,
    *,
    on_guess: GuessHook | None = None,
    on_end: EndHook | None = None,
) -> GameRecord:
    """Play one game with the solver's policy and say how it went.

    ``on_guess(analysis, guess)``, when given, is told every guess before
    it is played (for diagnostics; it must not change either). ``on_end(state)``
    is told what the solver knew of every square when the game ended
    (KNOWN_OPEN where open; read-only), unless the first click hit a mine and
    the solver saw nothing. benchmarks/fingerprint.py traces games with both.
    """
    started = time.perf_counter()
    field = generate_field(
        config.rows,
        config.cols,
        config.mines,
        first_click=config.first_click,
        rule=config.rule,
        seed=seed,
    )
    mines = field.mines
    cols = config.cols
    state = np.zeros(field.shape, np.uint8)
    row, col = config.first_click
    guesses = 0
    opens = np.array([row * cols + col], np.int64)
    sure = np.zeros(0, np.int64)
    if mines[row, col]:
        return GameRecord(seed, False, time.perf_counter() - started, 1, 0)
    won = False
    while True:
        stuck = play_until_stuck(field.numbers, config.mines, state, opens, sure, max_states=None)
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
    is not one, is a SettingsError.
    """
    seeds = list(seeds)
    chunks = [seeds[i : i + chunk] for i in range(0, len(seeds), chunk)]
    records: list[GameRecord] = []
    wins = 0

    def collect(batch: list[GameRecord]) -> None:
        nonlocal wins
        records.extend(batch)
        wins += sum(record.won for record in batch)
        if progress is not None:
            progress(len(records), len(seeds), wins)

    if dask_address is not None:
        try:
            dask: Any = importlib.import_module("distributed")
        except ImportError:
            raise SettingsError(
                "playing on a Dask cluster needs the optional extra: pip install 'minesweep[dask]'"
            ) from None
        try:
            client = dask.Client(dask_address, timeout=dask_timeout)
        except (OSError, TimeoutError, ValueError, TypeError) as error:
            reason = (
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
            raise SettingsError(
                f"cannot reach the Dask scheduler at {dask_address!r}: {reason}"
            ) from None
        with client:
            futures = [client.submit(_play_chunk, config, part, pure=False) for part in chunks]
            for future in dask.as_completed(futures):
                collect(future.result())
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_play_chunk, config, part) for part in chunks]
            from concurrent.futures import as_completed as done

            for future in done(futures):
                collect(future.result())
    else:
        for part in chunks:
            collect(_play_chunk(config, part))
    order = {seed: index for index, seed in enumerate(seeds)}
    return sorted(records, key=lambda record: order[record.seed])


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
    if len(parts) == 2 and all(part.strip().isdigit() for part in parts):
        return int(parts[0]), int(parts[1])
    raise SettingsError(f"first click must be 'corner', 'center' or R,C, got {text!r}")
