"""Chunks of work on an existing Dask cluster: the one place that talks to ``distributed``.

The autoplayer's games and the replay reader's files both go out as chunks
(a function and its argument each) and come back as each one finishes. The
``distributed`` package is an optional extra, imported only here and only
when a cluster is asked for. Public because ``minesweep replay`` (a front
end, which uses only public modules) sends its batches through it too.
"""

from __future__ import annotations

import importlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from .errors import SettingsError

__all__ = ["in_order_on_dask", "run_on_dask"]

Chunk = TypeVar("Chunk")
Result = TypeVar("Result")


def run_on_dask(
    function: Callable[[Chunk], Result],
    chunks: Sequence[Chunk],
    address: str,
    timeout: float,
    collect: Callable[[Result], None],
    *,
    doing: str = "running",
) -> None:
    """``collect(function(chunk))`` for each chunk, run on the cluster at ``address``.

    ``doing`` names the job in the error for a missing extra ("playing",
    "reading replays"). A scheduler not reached within ``timeout`` seconds,
    or an address that is not one, is a SettingsError; so is a missing
    ``distributed``. An exception (Ctrl-C included) cancels what has not run.
    """
    dask, client = _connect(address, timeout, doing)
    with client:
        futures: list[Any] = []
        try:
            futures.extend(client.submit(function, part, pure=False) for part in chunks)
            for future in dask.as_completed(futures):
                collect(future.result())
        except BaseException:
            # What has not run is taken off the cluster; a chunk running on a
            # worker finishes there and its result is dropped.
            client.cancel(futures)
            raise


def in_order_on_dask(
    function: Callable[[Chunk], Result],
    chunks: Iterable[Chunk],
    address: str,
    timeout: float,
    *,
    doing: str = "running",
) -> Iterator[Result]:
    """``function(chunk)`` for each chunk, run on the cluster at ``address``, in the chunks' order.

    At most twice as many chunks as the cluster has threads are out at once,
    so that ``chunks`` is drawn on only as fast as the results are taken, and
    neither the chunks nor the results pile up here. Errors as
    :func:`run_on_dask`'s; closing the iterator (or an exception) cancels what
    has not run.
    """
    _, client = _connect(address, timeout, doing)
    with client:
        window = 2 * max(1, sum(client.nthreads().values()))
        pending: deque[Any] = deque()
        try:
            for chunk in chunks:
                pending.append(client.submit(function, chunk, pure=False))
                if len(pending) >= window:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
        except BaseException:
            client.cancel(list(pending))
            raise


def _connect(address: str, timeout: float, doing: str) -> tuple[Any, Any]:
    """The ``distributed`` module and a client of the scheduler at ``address``."""
    try:
        dask: Any = importlib.import_module("distributed")
    except ImportError:
        raise SettingsError(
            f"{doing} on a Dask cluster needs the optional extra: pip install 'minesweep[dask]'"
        ) from None
    try:
        client = dask.Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise SettingsError(f"cannot reach the Dask scheduler at {address!r}: {reason}") from None
    return dask, client
