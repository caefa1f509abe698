"""Compile the kernels ahead of first use, and say so when a first use has to wait.

The engine, the solver and the vector environment are numba kernels, compiled
the first time they run after an install and then loaded from numba's cache
(a second or two). That first compile takes tens of seconds on a small
machine; it happens once per install location. :func:`warm` does it on
purpose, part by part (``minesweep warm`` runs it with a progress line), and
:func:`notice_when_slow` lets a front end that could not warm ahead tell the
player why the first answer is slow instead of going silent.

>>> seconds = warm(["engine"])
>>> sorted(seconds)
['engine']
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Final, TextIO

__all__ = [
    "PARTS",
    "compile_under_way",
    "is_compiled",
    "never_compiles",
    "notice_when_slow",
    "warm",
    "warm_in_background",
]


def _engine() -> None:
    # The flood fill of a reveal, and the chords and win view a game runs.
    from .frontend import warm_up

    warm_up()


def _solver() -> None:
    # The frontier, the counters, the combination of components and the
    # hint, on the views of a beginner game as a player meets them.
    import numpy as np

    from .game import Game
    from .solver import analyze, hint
    from .squares import GLYPH_HIDDEN

    game = Game.new("beginner", seed=1)
    game.reveal(4, 4)
    analysis = analyze(game.glyphs(), game.mine_count)
    hint(game)
    # The exact fractions `minesweep solve` prints: each component counted
    # apart (plan_members), which the hint above never needs.
    hidden = next(zip(*np.nonzero(game.glyphs() == GLYPH_HIDDEN), strict=False))
    analysis.exact(int(hidden[0]), int(hidden[1]))


def _autoplay() -> None:
    # The deduction kernel and the guessing policy, as `bench play` runs them.
    # Games are played until the endgame's search and the lookahead's counter
    # have run too: a few beginner games in, as a rule (the first game that
    # needs them compiles them: tens of seconds, which warm is for).
    from .autoplay import PlayConfig, play_game
    from .solver.compiled_game import searches_compiled

    config = PlayConfig.preset("beginner")
    for seed in range(200):
        play_game(config, seed)
        if seed >= 2 and searches_compiled():
            break
    # The fast strength's games run in one compiled call (solver/compiled_game.py).
    play_game(PlayConfig.preset("beginner", strength="fast"), 0)
    # The single-number rule over a replay's views (the replays' verdict).
    from .solver.certain import SingleNumberRules

    SingleNumberRules(3, 3).advance(b"\x01" + b"\x09" * 8)


def _vector() -> None:
    # The vector environment's batched step, reset and autoreset included
    # (it needs the rl extra: without Gymnasium there is nothing to warm).
    try:
        from .rl import MinesweeperVectorEnv
    except ImportError:
        return
    env = MinesweeperVectorEnv(2, "beginner")
    env.reset(seed=0)
    for square in (40, 0, 80):
        env.step([square, square])
    env.close()


def _replays() -> None:
    # A replay's statistics: the board's (3BV, ZiNi) and the mouse machine's;
    # and a field's 3BV (stats.board_stats), on the same rule of openings.
    from .field import Minefield
    from .replays.stats import warm_up
    from .stats import board_stats

    warm_up()
    board_stats(Minefield.from_text("*..\n...\n..*"))


#: What :func:`warm` can compile, by name, in the order it compiles them.
PARTS: Final[dict[str, Callable[[], None]]] = {
    "engine": _engine,
    "solver": _solver,
    "autoplay": _autoplay,
    "vector": _vector,
    "replays": _replays,
}


def warm(
    parts: Iterable[str] = PARTS,
    *,
    progress: Callable[[str, float | None], None] | None = None,
) -> dict[str, float]:
    """Compile (or load from the cache) the kernels of ``parts``; the seconds each took.

    ``progress(part, None)`` is told before a part starts and
    ``progress(part, seconds)`` after. An unknown part is a SettingsError.
    """
    from ._jit import compile_declared, compiling, mark_ready
    from .errors import SettingsError

    chosen = list(parts)
    unknown = [part for part in chosen if part not in PARTS]
    if unknown:
        raise SettingsError(f"no part {unknown[0]!r} to warm; expected one of {', '.join(PARTS)}")
    seconds: dict[str, float] = {}
    for part in chosen:
        if progress is not None:
            progress(part, None)
        started = time.perf_counter()
        with compiling():
            PARTS[part]()
            compile_declared(part)
        mark_ready(part)
        seconds[part] = time.perf_counter() - started
        if progress is not None:
            progress(part, seconds[part])
    return seconds


def is_compiled(part: str) -> bool:
    """Whether ``part``'s kernels run compiled now; on a cold cache, start compiling them.

    What a front end asks before work that would compile in its own process
    (a batch of games): False means the calls run uncompiled meanwhile and
    one background process compiles the part (see :mod:`minesweep._jit`).
    Asked early, it starts that compile before the first call needs it.
    An unknown part is a SettingsError.
    """
    from ._jit import part_ready
    from .errors import SettingsError

    if part not in PARTS:
        raise SettingsError(f"no part {part!r} to warm; expected one of {', '.join(PARTS)}")
    return part_ready(part)


def compile_under_way() -> int | None:
    """The process id of the background compile under way (a first use started it), or None.

    ``minesweep warm`` waits for it rather than compile the same kernels
    beside it (:func:`minesweep._jit.warmer_running`).
    """
    from ._jit import warmer_running

    return warmer_running()


def never_compiles() -> bool:
    """Whether this process was told never to compile its kernels (``MINESWEEP_JIT=interpret``)."""
    from ._jit import mode

    return mode() == "interpret"


def warm_in_background(lock: str, first: str) -> None:
    """The background warmer :mod:`minesweep._jit` starts on a cold cache; it removes ``lock``.

    It compiles the parts a kernel call may wait on, ``first`` (the part whose
    call found the cache cold) first.
    """
    from ._jit import BACKGROUND_PARTS

    try:
        warm([first, *(part for part in BACKGROUND_PARTS if part != first)])
    finally:
        with contextlib.suppress(OSError):
            os.unlink(lock)


@contextmanager
def notice_when_slow(
    message: str, *, after: float = 1.0, stream: TextIO | None = None
) -> Iterator[None]:
    """Write ``message`` (one line) to ``stream`` (stderr) if the block takes over ``after`` s.

    For a first answer that may be compiling: a warm run says nothing. The
    notice comes from a timer thread; numba's compiler lets it run.
    """
    out = stream if stream is not None else sys.stderr
    done = threading.Event()

    def tell() -> None:
        if not done.is_set():
            out.write(message.rstrip("\n") + "\n")
            out.flush()

    timer = threading.Timer(after, tell)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        done.set()
        timer.cancel()
