"""What keeps the web game fair and cheap: rate limits, what a request costs, a cap on
requests in flight, the replay cache, the no-guess pool, names.

(How fast a person plays, and so which wins rank, is the engine's:
:mod:`minesweep.records`.)

Each piece here is small and has no HTTP in it, so each is tested alone.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Final, Generic, TypeVar

from minesweep import Minefield
from minesweep.errors import SettingsError

# What a name may hold, and when two names are one, is minesweep.web.names'
# (ICU's character data and UTS #39 skeletons); still importable from here.
from .names import BadNameError, check_name

__all__ = [
    "BadNameError",
    "BusyError",
    "ByteCache",
    "InFlight",
    "Meter",
    "NoGuessPool",
    "TokenBuckets",
    "check_name",
    "spent_elsewhere",
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

    def charge(self, client: str, cost: float) -> None:
        """Take ``cost`` tokens for work already done, into debt if need be.

        What a request cost is known once it has run (its CPU time, the size
        of its answer): it went ahead on what it took up front, and the rest
        is charged here. A bucket in debt makes the client's next requests
        wait (:meth:`take`) until the refill has paid it back.
        """
        if cost <= 0:
            return
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate) - cost
            self._buckets[client] = (tokens, now)
            while len(self._buckets) > self.max_clients:
                self._buckets.popitem(last=False)

    def tokens(self, client: str) -> float:
        """The tokens ``client`` has now (below 0: in debt); a full bucket for a new one."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(client, (float(self.burst), now))
            return min(float(self.burst), tokens + (now - then) * self.rate)

    def __len__(self) -> int:
        """How many clients' buckets are remembered (at most ``max_clients``)."""
        with self._lock:
            return len(self._buckets)


class InFlight:
    """At most ``limit`` requests at once per client, so that one cannot hold every thread.

    The server answers requests on a bounded pool of threads (anyio's: 40);
    a client looping slow requests on a few connections would hold all of
    them, and everyone else's reads would queue behind its work. A token
    bucket does not stop that: it counts requests as they start, and slow
    ones are few. :meth:`enter` answers False past the cap (the HTTP layer
    answers 429), and True after counting the request in; :meth:`leave`
    counts it out.
    """

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise SettingsError(f"a cap on requests in flight needs limit >= 1, got {limit!r}")
        self.limit = limit
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def enter(self, client: str) -> bool:
        with self._lock:
            count = self._counts.get(client, 0)
            if count >= self.limit:
                return False
            self._counts[client] = count + 1
            return True

    def leave(self, client: str) -> None:
        with self._lock:
            count = self._counts.pop(client, 0) - 1
            # Only clients with a request in flight are remembered: memory is
            # bounded by the requests being served, not by the addresses seen.
            if count > 0:
                self._counts[client] = count

    def __len__(self) -> int:
        """How many clients have a request in flight now."""
        with self._lock:
            return len(self._counts)


# --- what a request costs ---------------------------------------------------------------------


_metering = threading.local()


class Meter:
    """The CPU seconds one request costs: its own thread's, and its no-guess worker's.

    Entered in the thread the request's work runs in. ``cpu`` defaults to
    :func:`time.thread_time`: that thread's CPU alone, so neither the other
    requests running meanwhile nor the waits (for the database, for the GIL)
    count. Work done for the request in another process (a no-guess field
    laid by the pool's worker) is added by :func:`spent_elsewhere`.
    """

    def __init__(self, cpu: Callable[[], float] = time.thread_time) -> None:
        self.cpu = cpu
        self.seconds = 0.0
        self._began = 0.0
        self._outer: Meter | None = None

    def __enter__(self) -> Meter:
        self._outer = getattr(_metering, "meter", None)
        _metering.meter = self
        self._began = self.cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds += self.cpu() - self._began
        _metering.meter = self._outer


def spent_elsewhere(seconds: float) -> None:
    """Add CPU ``seconds`` spent for this thread's request outside it to its :class:`Meter`."""
    meter: Meter | None = getattr(_metering, "meter", None)
    if meter is not None:
        meter.seconds += seconds


K = TypeVar("K", bound=Hashable)


class ByteCache(Generic[K]):
    """Bytes made once per key, the least recently used dropped past ``max_bytes`` in all.

    For what never changes once made and is costly to make: a ranked game's
    replay (its every view stepped, then encoded) is the same on every read.
    Requests for a key being made wait for it rather than making it again,
    so four clients asking at once cost one replay, not four. A value larger
    than the whole cache is made and returned, not kept.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._items: OrderedDict[K, bytes] = OrderedDict()
        self._making: dict[K, threading.Lock] = {}
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], bytes]) -> bytes:
        """The bytes of ``key``: kept ones, or ``make()``'s (called once however many wait)."""
        with self._lock:
            kept = self._get(key)
            if kept is not None:
                return kept
            making = self._making.setdefault(key, threading.Lock())
        with making:
            with self._lock:
                kept = self._get(key)
            if kept is not None:  # made by the request this one waited for
                return kept
            try:
                value = make()
                with self._lock:
                    self._put(key, value)
            finally:
                with self._lock:
                    if self._making.get(key) is making:
                        del self._making[key]
            return value

    def _get(self, key: K) -> bytes | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def _put(self, key: K, value: bytes) -> None:
        if len(value) > self.max_bytes:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._items[key] = value
        self.size += len(value)
        while self.size > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


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


def _lay_timed(
    lay: Lay, *arguments: object
) -> tuple[Minefield | None, float, BaseException | None]:
    """What a worker runs: the field (or the error instead), and the CPU seconds it took.

    The request that asked waits in another process, where its meter counts
    nothing: the seconds come back with the field, and with a failure too
    (a board that ran out of its budget cost the whole budget).
    """
    began = time.thread_time()
    try:
        field = lay(*arguments)  # type: ignore[arg-type]
    except Exception as error:
        return None, time.thread_time() - began, error
    return field, time.thread_time() - began, None


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
                    _lay_timed, self.lay, rows, cols, mines, first_click, seed, max_seconds
                )
                # The worker stops itself at max_seconds; the margin covers
                # the trip back, and a fresh worker's start.
                margin = STARTED_MARGIN if self._started else START_MARGIN
                field, spent, error = future.result(timeout=seconds + margin)
                self._started = True
                # The worker's CPU is the request's cost (a request waiting
                # in the queue is charged nothing for the wait).
                spent_elsewhere(spent)
                if error is not None:
                    raise error
                assert field is not None
                return field
            except FutureTimeout:
                future.cancel()
                spent_elsewhere(seconds)  # a worker ran the whole budget, as far as is known
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
