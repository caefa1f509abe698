"""What keeps the web game fair and cheap: rate limits, the no-guess pool, names.

(How fast a person plays, and so which wins rank, is the engine's:
:mod:`minesweep.records`.)

Each piece here is small and has no HTTP in it, so each is tested alone.
"""

from __future__ import annotations

import math
import os
import threading
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Final

from minesweep import Minefield
from minesweep.errors import MinesweepError, SettingsError

__all__ = [
    "BadNameError",
    "BusyError",
    "NoGuessPool",
    "TokenBuckets",
    "check_name",
]

# --- rate limits ------------------------------------------------------------------------------


class TokenBuckets:
    """One token bucket per client: ``burst`` requests at once, then ``rate`` a second.

    :meth:`take` answers 0.0 when a request may go ahead, or the seconds to
    wait before one may (a 429's ``Retry-After``). The oldest clients are
    forgotten past ``max_clients``, so a flood of addresses costs bounded memory.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_clients: int = 100_000,
    ) -> None:
        if not rate > 0 or burst < 1:
            raise SettingsError(
                f"a rate limit's bucket needs rate > 0 and burst >= 1, got {rate!r} and {burst!r}"
            )
        self.rate, self.burst, self.clock, self.max_clients = rate, burst, clock, max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str, cost: float = 1.0) -> float:
        """Take ``cost`` tokens (a costly request takes more than one) for ``client``.

        A cost above the burst takes the whole burst: a bucket never holds
        more, and such a request must still be able to go ahead.
        """
        cost = min(cost, float(self.burst))
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            wait = 0.0
            if tokens >= cost:
                tokens -= cost
            else:
                wait = (cost - tokens) / self.rate
            self._buckets[client] = (tokens, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)
        return wait

    def __len__(self) -> int:
        """How many clients' buckets are remembered (at most ``max_clients``)."""
        with self._lock:
            return len(self._buckets)


# --- the no-guess pool ------------------------------------------------------------------------


class BusyError(Exception):
    """The no-guess pool's queue is full: try again in ``retry_after`` seconds.

    Not a :class:`minesweep.errors.MinesweepError` (a ValueError) on purpose:
    nothing in the request is wrong, the server is at its capacity for now (a
    503, not a 4xx). Outside that tree, no ``except MinesweepError`` that turns
    a bad value into a 422 can catch it by mistake.
    """

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


#: How a no-guess field is laid: rows, cols, mines, first click, seed, seconds.
Lay = Callable[[int, int, int, tuple[int, int], int | None, float | None], Minefield]


def lay_no_guess_field(
    rows: int,
    cols: int,
    mines: int,
    first_click: tuple[int, int],
    seed: int | None,
    max_seconds: float | None,
) -> Minefield:
    """A no-guess field around ``first_click`` (what a pool's worker runs)."""
    from minesweep.solver import no_guess_game

    game = no_guess_game(
        rows, cols, mines, first_click=first_click, seed=seed, max_seconds=max_seconds
    )
    field = game.field
    assert field is not None  # a no-guess game is made on its field
    return field


def _exit_with_parent() -> None:
    """End this worker as soon as the server that spawned it is gone.

    A pool's workers block reading their call queue, and each holds both ends
    of that pipe, so a server killed (SIGKILL, the out-of-memory killer) or
    one that exits before its pool says goodbye would leave them waiting
    forever, adopted by init. The spawn start method hands every child the
    read end of a pipe whose write end only the parent holds
    (``parent_process().sentinel``): it turns readable when the parent's
    process ends, whichever way. A thread of the worker's own waits on it.
    (Not prctl's PR_SET_PDEATHSIG: that fires when the *thread* that spawned
    the child ends, and the pool spawns workers from a request's thread,
    which the server's thread pool retires when idle.)
    """
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:  # not a spawned child: nothing to watch
        return
    sentinel = parent.sentinel

    def watch() -> None:
        wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _warm_worker() -> None:
    _exit_with_parent()
    # A lower priority than the server's: when boards are being made on every
    # core, the operating system still serves reads first.
    if hasattr(os, "nice"):
        os.nice(10)
    # Load the solver's compiled kernels when the worker starts, not in a
    # player's first request.
    lay_no_guess_field(9, 9, 10, (4, 4), 0, 5.0)


#: Seconds past ``max_seconds`` a request waits for a worker that has answered
#: before, and for a fresh one (its start: imports, and the solver's kernels
#: loaded, or compiled once after an install, which takes tens of seconds on
#: a small machine).
STARTED_MARGIN: Final = 5.0
START_MARGIN: Final = 120.0


class NoGuessPool:
    """No-guess fields made by a bounded pool of worker processes.

    No-guess generation is CPU-bound Python and compiled code that holds the
    GIL: in the server's own threads, sixteen clients asking for hard boards
    would slow every unrelated read. In ``workers`` separate processes, with
    at most ``queue`` more requests waiting, the server's process stays free
    for reads; a request past the queue is refused at once (:class:`BusyError`),
    and one past ``max_seconds`` fails without being retried. ``workers=0``
    lays fields in the request's own thread (for tests and small setups),
    still bounded by ``queue``.
    """

    def __init__(
        self,
        workers: int,
        queue: int,
        *,
        lay: Lay = lay_no_guess_field,
    ) -> None:
        self.workers, self.queue, self.lay = workers, queue, lay
        self._slots = threading.BoundedSemaphore(max(workers, 1) + queue)
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        # Whether the workers have answered once: a fresh worker imports numpy
        # and numba and loads the solver's kernels (compiles them, the first
        # time after an install) before its first field.
        self._started = False

    def _pool(self) -> Executor:
        with self._lock:
            if self._executor is None:
                import multiprocessing

                # spawn, not fork: the server has threads, and a forked
                # child would inherit their locks mid-use.
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_warm_worker,
                )
            return self._executor

    def field(
        self,
        rows: int,
        cols: int,
        mines: int,
        first_click: tuple[int, int],
        seed: int | None,
        max_seconds: float | None,
    ) -> Minefield:
        """A no-guess field; raises BusyError, or NoGuessBudgetError past ``max_seconds``."""
        from minesweep.solver import NoGuessBudgetError

        seconds = 10.0 if max_seconds is None else max_seconds
        if not self._slots.acquire(blocking=False):
            raise BusyError(
                "the server is busy making no-guess boards; try again shortly",
                retry_after=max(1, math.ceil(seconds)),
            )
        try:
            if self.workers == 0:
                return self.lay(rows, cols, mines, first_click, seed, max_seconds)
            try:
                future = self._pool().submit(
                    self.lay, rows, cols, mines, first_click, seed, max_seconds
                )
                # The worker stops itself at max_seconds; the margin covers
                # the trip back, and a fresh worker's start.
                margin = STARTED_MARGIN if self._started else START_MARGIN
                field = future.result(timeout=seconds + margin)
                self._started = True
                return field
            except FutureTimeout:
                future.cancel()
                raise NoGuessBudgetError(
                    f"no no-guess board came back within {seconds + margin:g} s"
                ) from None
            except BrokenExecutor:
                # A worker died (out of memory, killed): this pool takes no
                # more work. The next request starts another.
                self.close()
                raise
        finally:
            self._slots.release()

    def close(self, *, wait: bool = False) -> None:
        """Stop the workers; with ``wait``, return once they have exited.

        A server's shutdown waits: uvicorn re-raises the SIGTERM it caught
        once it has stopped, so the process dies before Python's exit hooks
        run, and a pool shut down without waiting may not yet have told its
        workers to stop. No request is in flight by then, so the workers are
        idle and the wait is short.
        """
        with self._lock:
            executor, self._executor = self._executor, None
            self._started = False
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)


# --- names --------------------------------------------------------------------------------------


class BadNameError(MinesweepError):
    """A player's name that cannot be shown on a leaderboard as it is.

    One of the engine's errors, right under MinesweepError: a name is neither
    a setting of the game (SettingsError: it changes nothing in how the game
    is played) nor text in one of minesweep's formats (ParseError); it is a
    bad value of its own.
    """


#: Bidirectional formatting characters: a name holding U+202E shows its
#: letters reversed, and the rest of the leaderboard line with them.
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


#: The zero-width joiner: the one format character a name keeps, because
#: emoji sequences (a family, a flag) are made with it.
_ZWJ: Final = "\u200d"


def check_name(name: str, max_length: int) -> str | None:
    """A name as it will be stored: NFC, trimmed; None for a blank one.

    Refused (BadNameError): a lone surrogate, a control character (NUL
    included), a bidirectional override or any other invisible format
    character (zero-width space, byte-order mark, tags: a name could pass for
    another's), an unassigned code point, a line or paragraph separator, or
    more than ``max_length`` characters after NFC.
    """
    for index, char in enumerate(name):
        if 0xD800 <= ord(char) <= 0xDFFF:
            raise BadNameError(
                f"name holds a lone surrogate (U+{ord(char):04X}) at character {index}"
            )
    name = unicodedata.normalize("NFC", name).strip()
    for index, char in enumerate(name):
        category = unicodedata.category(char)
        invisible = category == "Cf" and char != _ZWJ
        if category in ("Cc", "Cn", "Co", "Zl", "Zp") or invisible or char in _BIDI:
            raise BadNameError(
                f"name holds U+{ord(char):04X} ({unicodedata.name(char, 'a control character')}) "
                f"at character {index}: names are printable text"
            )
    if len(name) > max_length:
        raise BadNameError(f"name must be at most {max_length} characters, got {len(name)}")
    return name or None
