"""Ctrl-C in the command line's long jobs: caught once, held back, ignored by workers.

Shared by :mod:`minesweep.autoplay` (``bench play``) and ``minesweep
replay`` (a front end, which may use only public modules: hence the public
name), apart from both so that a replay's command imports neither the
solver nor numba for it; and held back through a numba compile for
:mod:`minesweep._jit` (:func:`_sigint_deferred`, private to it), which
imports it only as it compiles. Not part of the game's API: no name here is
re-exported by :mod:`minesweep`.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = [
    "Interrupt",
    "ignore_sigint",
    "sigint_blocked",
    "sigint_caught",
    "sigint_polled",
    "stop_workers",
]


class Interrupt(KeyboardInterrupt):
    """What Ctrl-C raises while :func:`play_games` plays.

    A subclass, not KeyboardInterrupt itself: raised in an import that native
    code makes (numba imports scipy as it loads its cache), a KeyboardInterrupt
    can leave Python ending the process by SIGINT at its exit (status -2, not
    the command line's 130) even once it has been handled. That was seen in
    about one run in ten stopped during the first game, and never with this.
    """


@contextlib.contextmanager
def sigint_caught() -> Iterator[Callable[[], bool]]:
    """Meanwhile, Ctrl-C raises :class:`Interrupt` once and is ignored after; yields whether
    it came.

    Only in the main thread, and only in place of Python's own handler: a
    program's handler of its own is left as it is.
    """
    on_sigint = _RaiseOnce()
    ours = (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    before = signal.signal(signal.SIGINT, on_sigint) if ours else None
    try:
        yield lambda: on_sigint.caught
    finally:
        if ours:
            signal.signal(signal.SIGINT, before)


class _RaiseOnce:
    """:func:`sigint_caught`'s handler, a class of its own so that :func:`sigint_polled`
    knows it from a program's handler, which it must leave alone."""

    def __init__(self) -> None:
        self.caught = False

    def __call__(self, signum: int, frame: object) -> None:
        if not self.caught:  # a second Ctrl-C would break off the cleanup the first started
            self.caught = True
            raise Interrupt


@contextlib.contextmanager
def sigint_polled() -> Iterator[Callable[[], None]]:
    """Meanwhile, Ctrl-C only sets a flag; yields a check that raises :class:`Interrupt` once
    it came, for the caller to run between two steps of its work.

    An exception raised by a signal handler while numba boxes a compiled
    function's tuple of results crashes the process (SIGSEGV, or Python's
    "object refcount" fatal error: numba 0.6x, seen in about one run in six of
    ``minesweep replay`` stopped on a folder). Held until the step is done, the
    interrupt is raised in plain Python instead. Only in the main thread, and
    only in place of Python's own handler or :func:`sigint_caught`'s around
    it, which is back when the block ends: a program's handler of its own is
    left as it is (``play_games`` is a library call), and a Ctrl-C that is
    ignored stays ignored.
    """
    caught = False

    def on_sigint(signum: int, frame: object) -> None:
        nonlocal caught
        caught = True

    def check() -> None:
        nonlocal caught
        if caught:
            caught = False  # raised once: the cleanup it starts is not broken off
            raise Interrupt

    now = signal.getsignal(signal.SIGINT)
    ours = threading.current_thread() is threading.main_thread() and (
        now is signal.default_int_handler or isinstance(now, _RaiseOnce)
    )
    before = signal.signal(signal.SIGINT, on_sigint) if ours else None
    try:
        yield check
    finally:
        if ours:
            signal.signal(signal.SIGINT, before)


def ignore_sigint() -> None:
    """A worker process's initializer: Ctrl-C is for the process that started it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel the chunks not started and end the worker processes now, not after their chunks.

    The pool has no public way to end its workers before Python 3.14
    (``terminate_workers``, which does what this does): its processes and the
    thread that manages them are taken from it, before shutting down forgets them.
    """
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    # Told by their sentinels, not by waiting on them: the pool's thread reaps them.
    left = _ended_within(processes, 2.0)
    for process in left:
        process.kill()
    _ended_within(left, 2.0)
    if manager is not None:
        manager.join(timeout=2.0)


def _ended_within(processes: list[Any], seconds: float) -> list[Any]:
    """The processes still running after ``seconds``, waiting for each to end."""
    import multiprocessing.connection  # here: most commands never stop a pool

    deadline = time.monotonic() + seconds
    running = list(processes)
    while running and (left := deadline - time.monotonic()) > 0:
        ended = set(multiprocessing.connection.wait([p.sentinel for p in running], left))
        running = [p for p in running if p.sentinel not in ended]
    return running


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT held back from this thread (and the processes and threads it starts) meanwhile."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[Callable[[], bool]]:
    """Meanwhile, Ctrl-C is held back; KeyboardInterrupt is raised once the block is done.

    Yields whether a Ctrl-C came, so that a loop of compiles can stop early.

    numba compiles through llvmlite, which calls back into Python through
    ctypes: a KeyboardInterrupt raised by Python's handler inside such a
    callback is printed ("Exception ignored on calling ctypes callback
    function") and swallowed, and the compile then fails on what the
    callback left undone, so a Ctrl-C during a first compile ended with a
    traceback and status 1 instead of the command line's 130. Here the
    signal only sets a flag, and the interrupt is raised after the compile,
    in plain Python, or sooner, as numba starts or ends compiling one of the
    kernels called (see _stop_between_compiles). Only in the main thread,
    and only in place of Python's own handler: a program's handler of its
    own is left as it is (the terminal game's, ``bench play``'s).
    """
    import signal
    import threading

    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield lambda: False
        return
    caught = False

    def on_sigint(signum: int, frame: object) -> None:
        nonlocal caught
        caught = True
        _deferred_sigint[0] = True

    before = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield lambda: caught
    finally:
        signal.signal(signal.SIGINT, before)
        _deferred_sigint[0] = False
    if caught:
        raise KeyboardInterrupt


#: Whether a Ctrl-C is held back by _sigint_deferred now.
_deferred_sigint = [False]


def _stop_between_compiles() -> None:
    """Have a held-back Ctrl-C raised as numba starts or ends compiling any kernel.

    One kernel's compile compiles the kernels it calls, each a step of its
    own (tens of them, a minute in all, for the solver's first): between two,
    numba runs plain Python, where a KeyboardInterrupt unwinds as any
    exception does, so a Ctrl-C need not wait for the whole compile (it
    waited up to 20 s on two busy cores, against a second or so now).
    """
    from numba.core import event

    def stop() -> None:
        if _deferred_sigint[0]:
            _deferred_sigint[0] = False  # raised once: the compiles it unwinds end too
            raise KeyboardInterrupt

    class Stop(event.Listener):
        def on_start(self, ev: object) -> None:
            stop()

        def on_end(self, ev: object) -> None:
            stop()

    event.register("numba:compile", Stop())  # type: ignore[no-untyped-call]
