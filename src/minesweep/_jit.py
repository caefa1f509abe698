"""The numba kernels of the solver and the vector environment, compiled in the background.

Compiling the solver's kernels takes tens of seconds on a small machine, once
per install (numba then loads them from its cache in about a second). A new
user's first ``solve`` or first hint should not wait for that, so a kernel
here is two things: numba's dispatcher, and the same Python function run by
the interpreter. Until a kernel's *part* (the groups :mod:`minesweep.warm`
compiles: ``solver``, ``autoplay``, ``vector``, ``replays``) is known to be in numba's
cache, a call from Python runs the interpreted function, which answers a
small position in well under a second, and one ``minesweep warm`` process
is started in the background to fill the cache. When that process has
written the part's ready mark, the next call switches to the compiled
kernel: a long run (``bench play``, training) speeds up part way through,
and every later process starts compiled.

The interpreted function runs the same code on the same arrays, so it gives
the same answers; the tests compare the two on random positions. What
differs is what numba leaves out: integer arithmetic wraps silently there
and would warn here (the counters' hash relies on it), so interpreted calls
run with numpy's warnings off.

``MINESWEEP_JIT`` chooses, for a process and those it starts:

- ``auto`` (the default): as above;
- ``compile``: compile in place when needed, as numba does (the tests and
  the background warmer run so);
- ``interpret``: never compile, never start a warmer (for debugging).

A part may also be interpreted first (:data:`INTERPRET_FIRST`: the replay
statistics): in ``auto``, its calls run interpreted until they have taken
about what loading numba would, so that a small job never imports the
compiler at all (numba is imported only when a dispatcher is first needed).

The engine's own kernels (``minesweep.rules.flood`` and ``.distinct``) are
not here: they compile in two seconds and a 10^8-square board needs
them compiled from the first click.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import time
import types as pytypes
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .errors import SettingsError

if TYPE_CHECKING:
    import subprocess

__all__ = [
    "BACKGROUND_PARTS",
    "MODES",
    "PART_MODULES",
    "Kernel",
    "compile_declared",
    "compiling",
    "entry",
    "interpreting",
    "kernel",
    "mark_ready",
    "mode",
    "part_ready",
    "plain",
    "warmer_running",
]

#: The values ``MINESWEEP_JIT`` may take.
MODES: Final = ("auto", "compile", "interpret")

#: The kernel modules of each part, imported before its ready mark is looked for.
PART_MODULES: Final[dict[str, tuple[str, ...]]] = {
    "solver": (
        "minesweep.solver._count",
        "minesweep.solver._frontier",
        "minesweep.solver._combine",
        "minesweep.solver._batch",
        "minesweep.solver._plain",
    ),
    "autoplay": (
        "minesweep.solver._deduce",
        "minesweep.solver._search",
        "minesweep.solver._guesses",
        "minesweep.solver._play",
    ),
    "vector": (
        "minesweep.rules.draw",
        "minesweep.rules.counts",
        "minesweep.rules.small_flood",
        "minesweep.rules.marks",
        "minesweep.rules.ends",
        "minesweep.rules.chord",
        "minesweep.rules.first_click",
        "minesweep.rules.lay",
        "minesweep.rules.masks",
        "minesweep.rl._kernels",
    ),
    "replays": ("minesweep.replays._kernels",),
}

#: What the background warmer compiles, in this order (the solver first: hints wait on it).
BACKGROUND_PARTS: Final = ("solver", "autoplay", "vector", "replays")

#: How often an interpreted call looks for the ready mark again, in seconds.
_CHECK_EVERY: Final = 1.0
#: The one warmer's lock file, in :func:`_warming_folder`; it holds the warmer's process id.
_LOCK_NAME: Final = "minesweep-warming.lock"
#: A warmer's lock older than this is taken for a dead warmer's.
_LOCK_STALE: Final = 15 * 60.0


def mode() -> str:
    """This process's ``MINESWEEP_JIT``; anything else is a SettingsError naming it."""
    chosen = os.environ.get("MINESWEEP_JIT", "auto").strip().lower() or "auto"
    if chosen not in MODES:
        raise SettingsError(f"MINESWEEP_JIT is {chosen!r}; expected one of {', '.join(MODES)}")
    return chosen


class _Dict:
    # numba.typed.Dict, as the interpreted kernels use it: a plain dict. The
    # typed one would compile numba's own helpers on first use from Python.
    @staticmethod
    def empty(key_type: object, value_type: object) -> dict[Any, Any]:
        return {}


class _Part:
    """One part's state in this process: whether its kernels are compiled yet."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.kernels: list[Kernel] = []
        self.ready = False
        self.next_check = 0.0
        self.missing = False  # a module of it could not be imported
        self.interpreted_for = 0.0  # seconds run interpreted within INTERPRET_FIRST's budget

    def sources(self) -> list[Path]:
        return sorted({Path(k.py_func.__code__.co_filename) for k in self.kernels})

    def mark_path(self) -> Path | None:
        """Where the ready mark lives: beside numba's cache of the part's first kernel.

        Its name holds the sources' sizes and times and numba's version, as
        numba's cache index does, so an edit or an upgrade needs a new mark.
        None where numba keeps no cache we can find (then: compile in place).
        """
        if not self.kernels or self.missing:
            return None
        import hashlib

        try:
            import numba

            folder = Path(self.kernels[0].dispatcher._cache._cache_path)
            stamp = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
            for source in self.sources():
                status = source.stat()
                stamp.update(f"{source} {status.st_size} {status.st_mtime_ns}".encode())
        except (AttributeError, OSError):
            return None
        return folder / f"minesweep-{self.name}-{stamp.hexdigest()[:16]}.ready"


_PARTS: dict[str, _Part] = {}
_override: list[str] = []  # the open compiling() and interpreting() blocks, innermost last
_warmer_started = False
_WARMERS: list[subprocess.Popen[bytes]] = []


def _part(name: str) -> _Part:
    return _PARTS.setdefault(name, _Part(name))


def _imported(name: str) -> _Part:
    # A part's kernels register as their modules import; its mark is known
    # only then. (The vector kernels need the rl extra: without it, nothing.)
    part = _part(name)
    for module in PART_MODULES.get(name, ()):
        try:
            importlib.import_module(module)
        except ImportError:
            part.missing = True
    return part


def part_ready(name: str) -> bool:
    """Whether calls to ``name``'s kernels run compiled now (starting the warmer if not)."""
    part = _part(name)
    if _override:
        return _override[-1] == "compile"
    if part.ready:
        return True
    chosen = mode()
    if chosen == "compile":
        part.ready = True
        return True
    if chosen == "interpret":
        return False
    now = time.monotonic()
    if now < part.next_check:
        return False
    part.next_check = now + _CHECK_EVERY
    mark = _imported(name).mark_path()
    if mark is None or mark.exists():
        part.ready = True
        return True
    _start_warmer(_warming_folder(mark.parent), first=name)
    return False


def _warming_folder(fallback: Path) -> Path:
    """Where the one warmer's lock lives, whichever part found the cache cold.

    The warmer compiles every part, so there is one lock for them all: beside
    the first part's cache. A lock beside each part's own cache let two
    processes that first met different parts (bench play's workers meet the
    autoplayer's kernels and the vector seed's) start a warmer each, and each
    said so: the notice came twice. ``fallback``, the part's own folder, where
    the first part's cache cannot be found.
    """
    first = _imported(BACKGROUND_PARTS[0]).mark_path()
    return fallback if first is None else first.parent


def warmer_running() -> int | None:
    """The process id of a background warmer compiling now, or None.

    Its lock file (:func:`_start_warmer`) names it; a lock older than a
    warmer can take, or whose process is gone, is a dead warmer's. What
    ``minesweep warm`` asks, so as to wait for that compile rather than run
    a second beside it on the same cores.
    """
    first = _imported(BACKGROUND_PARTS[0]).mark_path()
    if first is None:
        return None  # no cache to compile into: no warmer either
    lock = first.parent / _LOCK_NAME
    try:
        age = time.time() - lock.stat().st_mtime
        words = lock.read_text().split()
    except OSError:
        return None
    if age > _LOCK_STALE or not words or not words[0].isdigit():
        return None  # stale, or its writer has not written its id yet
    pid = int(words[0])
    try:
        os.kill(pid, 0)  # no signal: only whether the process is there
    except ProcessLookupError:
        return None
    except PermissionError:
        pass  # there, and another user's
    return pid


def compile_declared(name: str) -> None:
    """Compile (or load) the kernels of ``name`` declared with signatures.

    The warm-ups run the kernels as play reaches them; a kernel reached only
    from other kernels would otherwise never have its declared signature
    compiled from Python, which is how the front ends call it.
    """
    for found in _imported(name).kernels:
        if found.signatures:
            found.compiled()


def mark_ready(name: str) -> None:
    """Write ``name``'s ready mark: its kernels are in numba's cache (the warmer's last step)."""
    part = _imported(name)
    part.ready = True
    mark = part.mark_path()
    if mark is None:
        return
    with contextlib.suppress(OSError):
        mark.write_text(f"compiled by process {os.getpid()} at {time.time():.0f}\n")


@contextlib.contextmanager
def _forcing(how: str) -> Iterator[None]:
    _override.append(how)
    try:
        yield
    finally:
        _override.pop()


def compiling() -> contextlib.AbstractContextManager[None]:
    """Within the block, every kernel runs compiled (what :func:`minesweep.warm.warm` does)."""
    return _forcing("compile")


def interpreting() -> contextlib.AbstractContextManager[None]:
    """Within the block, every kernel runs interpreted and no warmer starts (for the tests)."""
    return _forcing("interpret")


def _start_warmer(folder: Path, *, first: str) -> None:
    # One warmer for every process of this install: the first to find the
    # cache cold takes the lock file; the warmer removes it when it is done.
    global _warmer_started
    if _warmer_started:
        return
    # Imported here: a process that starts no warmer (most) need not load them.
    import logging
    import subprocess

    _warmer_started = True
    lock = folder / _LOCK_NAME
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if time.time() - lock.stat().st_mtime > _LOCK_STALE:
                lock.unlink()
        descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except OSError:
        return  # another process is warming, or the folder is not ours to write
    try:
        warmer = subprocess.Popen(
            [sys.executable, "-c", _WARMER, str(lock), first],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "MINESWEEP_JIT": "compile"},
            start_new_session=True,  # a Ctrl-C of the front end leaves it compiling
        )
    except OSError:
        os.close(descriptor)
        with contextlib.suppress(OSError):
            lock.unlink()
        return
    _WARMERS.append(warmer)  # held, so that Python does not warn it is still running
    os.write(descriptor, f"{warmer.pid}\n".encode())  # who holds it
    os.close(descriptor)
    logging.getLogger("minesweep").warning(
        "minesweep: compiling the solver's kernels in the background, then the rest (once "
        "after an install: about a minute for the solver, several for all on a small "
        "machine); until then they run uncompiled"
    )


_WARMER: Final = (
    "import sys; from minesweep.warm import warm_in_background; "
    "warm_in_background(sys.argv[1], sys.argv[2])"
)


class _Unloaded:
    """What a kernel's name is bound to while numba is not loaded in this process.

    Importing numba (and llvmlite) costs a third of a second: a job that only
    interprets its kernels need not pay it. The first use of any kernel's
    dispatcher loads numba, makes every kernel's dispatcher, and binds them
    in place of these throughout minesweep's modules (numba's compiled
    callers find the dispatchers there); until then, attributes are the
    dispatcher's, made on demand.
    """

    __slots__ = ("kernel",)

    def __init__(self, kernel: Kernel) -> None:
        self.kernel = kernel

    @property
    def py_func(self) -> Callable[..., Any]:
        return self.kernel.py_func

    def __getattr__(self, name: str) -> Any:
        return getattr(self.kernel.dispatcher, name)

    def __call__(self, *args: Any) -> Any:
        return self.kernel.dispatcher(*args)

    def __repr__(self) -> str:
        return f"<minesweep kernel {self.kernel.py_func.__qualname__} (numba not loaded)>"


class Kernel:
    """A numba kernel and its interpreted twin; calling it runs whichever is ready."""

    def __init__(
        self,
        func: Callable[..., Any],
        part: str,
        signatures: tuple[Any, ...],
        options: dict[str, Any],
    ) -> None:
        self.py_func = func
        self.part = _part(part)
        self.signatures = signatures
        self.options = options
        # Lazy: an explicit signature would compile at import. It is compiled
        # on the first compiled call instead, then (as numba does with one)
        # the kernel compiles nothing else. The dispatcher itself is made
        # once numba is loaded (_load_numba): until then the name is bound
        # to an _Unloaded.
        self._dispatcher: Any = None
        self._unloaded = _Unloaded(self)
        self.handle: Any = self._unloaded
        if "numba" in sys.modules:
            self._make_dispatcher()
        self._interpreted: Callable[..., Any] | None = None
        self._compiled = False
        self._called = False  # called compiled once (then compiled for those argument types)
        self.part.kernels.append(self)
        _KERNELS.append(self)
        _BY_DISPATCHER[id(self.handle)] = self

    def _make_dispatcher(self) -> None:
        from numba import njit

        self._dispatcher = njit(**self.options)(self.py_func)
        if not _stopping[0]:
            from .interrupts import _stop_between_compiles

            _stopping[0] = True
            _stop_between_compiles()
        self.handle = self._dispatcher
        _BY_DISPATCHER[id(self._dispatcher)] = self

    def is_bound_to(self, value: object) -> bool:
        """Whether ``value`` is this kernel: its dispatcher, or what stands for it unloaded."""
        return value is self._dispatcher or value is self._unloaded

    @property
    def dispatcher(self) -> Any:
        """numba's dispatcher (loading numba, and making every kernel's, on first use)."""
        if self._dispatcher is None:
            _load_numba()
        return self._dispatcher

    def compiled(self) -> Any:
        """The dispatcher, its explicit signatures compiled (or loaded from the cache)."""
        if not self._compiled:
            # Loading numba, and compiling, with Ctrl-C held back
            # (see minesweep.interrupts._sigint_deferred).
            from .interrupts import _sigint_deferred

            with _sigint_deferred() as interrupted:
                dispatcher = self.dispatcher
                for signature in self.signatures:
                    if interrupted():
                        break  # raised as the block ends: the kernel is left uncompiled
                    # By the argument types alone: numba's cache files a compile
                    # under what it was asked, and a kernel's callers ask by
                    # argument types, so the declared return type would file the
                    # same machine code twice, and miss the callers' copy.
                    dispatcher.compile(getattr(signature, "args", signature))
            if self.signatures:
                dispatcher.disable_compile()
            self._compiled = True
        return self.dispatcher

    def interpreted(self) -> Callable[..., Any]:
        """The Python function, calling the interpreted twins of the kernels it calls."""
        if self._interpreted is None:
            func = self.py_func
            namespace = dict(func.__globals__)
            # Made before the kernels it calls are swapped in, so that kernels
            # calling each other (or themselves) find this twin already made.
            self._interpreted = pytypes.FunctionType(
                func.__code__, namespace, func.__name__, func.__defaults__, func.__closure__
            )
            # numba.typed.Dict can be bound only where numba is loaded.
            typed_dict = _typed_dict() if "numba" in sys.modules else _Dict
            for name, value in func.__globals__.items():
                twin = _BY_DISPATCHER.get(id(value))
                if twin is not None and twin.is_bound_to(value):
                    namespace[name] = twin.interpreted()
                elif value is typed_dict:
                    namespace[name] = _Dict
        return self._interpreted

    def __call__(self, *args: Any) -> Any:
        if self._called and self.part.ready and not _override:
            # What the checks below decide once the part is compiled and this
            # kernel has run so, in one test: a beginner analysis is a few
            # tens of microseconds, and they cost a few.
            return self._dispatcher(*args)
        if _interpret_first(self.part):
            return self._interpret_counted(*args)
        if part_ready(self.part.name):
            if self._called:
                return self.compiled()(*args)
            # A kernel declared without signatures compiles on its first call:
            # Ctrl-C is held back through it too (the call's own run is native
            # code, which a Ctrl-C does not stop before it returns anyway).
            from .interrupts import _sigint_deferred

            with _sigint_deferred():
                result = self.compiled()(*args)
            self._called = True
            return result
        import numpy as np

        with np.errstate(all="ignore"):
            return self.interpreted()(*args)

    def _interpret_counted(self, *args: Any) -> Any:
        import numpy as np

        start = time.perf_counter()
        try:
            with np.errstate(all="ignore"):
                return self.interpreted()(*args)
        finally:
            self.part.interpreted_for += time.perf_counter() - start


#: Every kernel made, in the order made.
_KERNELS: list[Kernel] = []
#: Whether _stop_between_compiles has been called.
_stopping = [False]


def _load_numba() -> None:
    """Import numba, make every kernel's dispatcher, and bind them where _Unloaded ones were."""
    for found in _KERNELS:
        if found._dispatcher is None:
            found._make_dispatcher()
    namespaces = [found.py_func.__globals__ for found in _KERNELS]
    namespaces += [
        vars(module)
        for name, module in list(sys.modules.items())
        if (name == "minesweep" or name.startswith("minesweep.")) and module is not None
    ]
    for namespace in namespaces:
        for name, value in list(namespace.items()):
            if isinstance(value, _Unloaded):
                namespace[name] = value.kernel.dispatcher


#: The parts whose kernels a process interprets first, and for how many
#: seconds: as long as loading numba and the part's compiled kernels from
#: numba's cache takes (measured for ``replays``, 2 cores: 0.5 s, against
#: 3 to 6 ms interpreted for a beginner replay's statistics and 30 ms for an
#: expert one), so that a small job never loads the compiler, and a large
#: one pays at most twice what compiling from the start would have.
INTERPRET_FIRST: Final[dict[str, float]] = {"replays": 0.5}


def _interpret_first(part: _Part) -> bool:
    """Whether this call of ``part``'s kernels runs interpreted, within its first seconds."""
    budget = INTERPRET_FIRST.get(part.name)
    if budget is None or _override or part.ready or part.interpreted_for >= budget:
        return False
    return mode() == "auto"


_BY_DISPATCHER: dict[int, Kernel] = {}


def _typed_dict() -> object:
    from numba.typed import Dict

    return Dict


def kernel(*signatures: Any, part: str, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """Decorate a kernel: numba's ``njit(*signatures, **options)``, of the warm part ``part``.

    The name bound is numba's dispatcher (where numba is not loaded yet, what
    stands for it until it is: :class:`_Unloaded`), so kernels call each
    other compiled as before; Python calls it through :func:`entry`.
    """

    def decorate(func: Callable[..., Any]) -> Any:
        return Kernel(func, part, signatures, options).handle

    return decorate


def _kernel_of(dispatcher: Any) -> Kernel:
    found = _BY_DISPATCHER.get(id(dispatcher))
    if found is None or not found.is_bound_to(dispatcher):
        raise TypeError(f"{dispatcher!r} is not a minesweep kernel")
    return found


def entry(dispatcher: Any) -> Callable[..., Any]:
    """How Python calls a kernel: compiled once its part is ready, interpreted until then."""
    return _kernel_of(dispatcher)


def plain(dispatcher: Any) -> Callable[..., Any]:
    """A kernel as plain Python, always: never compiled, whatever the mode and the part.

    For the one-board engine's rules of one click (a chord's box of nine
    squares, a right click's mark, the first-click box): the interpreter
    answers them in microseconds, and a plain ``Board`` or ``Game`` must not
    load numba (a third of a second) nor wait for the vector part, nor start
    its warmer, for so little.
    """
    return _kernel_of(dispatcher).interpreted()
