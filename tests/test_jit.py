"""Kernels answer uncompiled until their part is compiled, and give the same answers.

The uncompiled twin runs the same source under the interpreter: these tests
hold it to the compiled kernel on random positions (hypothesis), whole
autoplayed games and vector-environment steps, and check the switch from one
to the other and the first use of a cold cache, in a process of its own.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep import Game, SettingsError, _jit, interrupts
from minesweep.autoplay import PlayConfig, play_game
from minesweep.solver import analyze, hint
from minesweep.solver.guess import Guess
from minesweep.squares import GLYPH_HIDDEN


def _position(preset: str, seed: int, moves: int) -> Game:
    # A game as a player leaves it: the first click, then the hints' moves.
    game = Game.new(preset, seed=seed)
    rows, cols = game.shape
    game.reveal(rows // 2, cols // 2)
    for _ in range(moves):
        if game.is_over:
            break
        advice = hint(game)
        game.reveal(advice.row, advice.col)
    return game


@settings(max_examples=40)
@given(
    preset=st.sampled_from(["beginner", "intermediate", "expert"]),
    seed=st.integers(0, 2**32 - 1),
    moves=st.integers(0, 60),
)
def test_the_uncompiled_solver_answers_as_the_compiled_one(
    preset: str, seed: int, moves: int
) -> None:
    game = _position(preset, seed, moves)
    if game.is_over:
        return
    glyphs = game.glyphs()
    with _jit.compiling():
        compiled = analyze(glyphs, game.mine_count)
        compiled_hint = hint(game)
    with _jit.interpreting():
        interpreted = analyze(glyphs, game.mine_count)
        interpreted_hint = hint(game)
    # numpy sums pairwise where numba sums in order: the last bits may differ.
    np.testing.assert_allclose(interpreted.probability, compiled.probability, rtol=1e-9)
    np.testing.assert_array_equal(interpreted.safe, compiled.safe)
    np.testing.assert_array_equal(interpreted.mines, compiled.mines)
    assert (interpreted_hint.row, interpreted_hint.col) == (compiled_hint.row, compiled_hint.col)
    assert interpreted_hint.reason == compiled_hint.reason
    hidden = np.argwhere(glyphs == GLYPH_HIDDEN)[0]
    with _jit.interpreting():
        exact = interpreted.exact(int(hidden[0]), int(hidden[1]))
    assert exact == compiled.exact(int(hidden[0]), int(hidden[1]))


# Seeds 0-5 of each preset, and expert games where two squares tied but for
# rounding, which the two sum orders once broke apart (the guesses differed).
@pytest.mark.parametrize(
    ("preset", "rule", "click", "seeds"),
    [
        ("beginner", "safe", "corner", range(6)),
        ("expert", "safe", "corner", [*range(6), 33, 60]),
        ("expert", "opening", "3,3", [36, 55]),
    ],
)
def test_an_uncompiled_autoplayed_game_is_the_compiled_game(
    preset: str, rule: str, click: str, seeds: list[int]
) -> None:
    config = PlayConfig.preset(preset, rule=rule, first_click=click)
    for seed in seeds:
        played: dict[str, list[tuple[int, int]]] = {"compiled": [], "interpreted": []}
        records = {}
        for how, forcing in (("compiled", _jit.compiling), ("interpreted", _jit.interpreting)):
            seen = played[how]

            def note(_: object, guess: Guess, seen: list[tuple[int, int]] = seen) -> None:
                seen.append((guess.row, guess.col))

            with forcing():
                records[how] = play_game(config, seed, on_guess=note)
        assert played["interpreted"] == played["compiled"], seed
        assert records["interpreted"].opened == records["compiled"].opened, seed
        assert records["interpreted"].won == records["compiled"].won, seed


def test_the_uncompiled_vector_step_is_the_compiled_step() -> None:
    pytest.importorskip("gymnasium")
    from minesweep.rl import MinesweeperVectorEnv

    def run() -> list[tuple[object, ...]]:
        env = MinesweeperVectorEnv(4, "beginner")
        observation, _ = env.reset(seed=3)
        steps: list[tuple[object, ...]] = [(observation.tobytes(),)]
        actions = np.random.default_rng(5)
        for _ in range(40):
            observation, reward, ended, cut, _ = env.step(actions.integers(0, 81, size=4))
            steps.append((observation.tobytes(), reward.tolist(), ended.tolist(), cut.tolist()))
        env.close()
        return steps

    with _jit.compiling():
        compiled = run()
    with _jit.interpreting():
        interpreted = run()
    assert interpreted == compiled


def test_an_unknown_mode_is_a_settings_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINESWEEP_JIT", "fast")
    with pytest.raises(SettingsError, match="MINESWEEP_JIT is 'fast'; expected one of auto"):
        _jit.mode()
    monkeypatch.setenv("MINESWEEP_JIT", " Interpret ")
    assert _jit.mode() == "interpret"


def test_a_part_switches_to_compiled_once_its_mark_is_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    part = _jit._imported("solver")
    mark = tmp_path / "solver.ready"
    warmers: list[str] = []
    monkeypatch.setenv("MINESWEEP_JIT", "auto")
    monkeypatch.setattr(part, "ready", False)
    monkeypatch.setattr(part, "next_check", 0.0)
    monkeypatch.setattr(type(part), "mark_path", lambda self: mark)
    monkeypatch.setattr(_jit, "_start_warmer", lambda folder, *, first: warmers.append(first))
    assert not _jit.part_ready("solver")
    assert warmers == ["solver"]
    mark.write_text("compiled\n")
    assert not _jit.part_ready("solver")  # looked again only a second later
    part.next_check = 0.0
    assert _jit.part_ready("solver")
    assert part.ready


def test_processes_that_first_meet_different_parts_start_one_warmer(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Each part's cache in a folder of its own, none compiled: two processes
    # (here one, its flag reset between them) reach the vector and the solver
    # kernels first. One lock for all parts: one warmer, one notice.
    monkeypatch.setenv("MINESWEEP_JIT", "auto")
    monkeypatch.setattr(_jit, "_PARTS", {})
    monkeypatch.setattr(_jit, "_WARMERS", [])
    monkeypatch.setattr(
        _jit._Part, "mark_path", lambda self: tmp_path / self.name / f"{self.name}.ready"
    )
    started: list[list[str]] = []

    class Started:
        pid = 4321

        def __init__(self, command: list[str], **_options: object) -> None:
            started.append(command)

    monkeypatch.setattr(subprocess, "Popen", Started)
    for part in ("vector", "solver", "replays"):
        monkeypatch.setattr(_jit, "_warmer_started", False)  # another process
        assert not _jit.part_ready(part)
    assert len(started) == 1
    assert started[0][-1] == "vector"
    assert [lock.parent.name for lock in tmp_path.rglob("minesweep-warming.lock")] == ["solver"]
    notices = [r for r in caplog.records if "in the background" in r.getMessage()]
    assert len(notices) == 1


def test_a_first_solve_on_a_cold_cache_compiles_nothing_and_starts_one_warmer(
    tmp_path: Path,
) -> None:
    view = tmp_path / "view.txt"
    view.write_text("#########\n#1122211#\n#1.....1#\n#1.....1#\n#########\n")
    # The solve, with numba's compile events counted: none of the solver's
    # kernels may compile in the process that answers.
    program = (
        "import sys\n"
        "from numba.core import event\n"
        "compiled = []\n"
        "class Count(event.Listener):\n"
        "    def on_start(self, ev): pass\n"
        "    def on_end(self, ev):\n"
        "        compiled.append(ev.data['dispatcher'].py_func.__module__)\n"
        "event.register('numba:compile', Count())\n"
        "from minesweep.cli import main\n"
        "code = main(['solve', sys.argv[1], '--mines', '6'])\n"
        "print('compiled:', sorted(m for m in set(compiled) if 'solver' in m))\n"
        "sys.exit(code)\n"
    )
    cache = tmp_path / "cache"
    environment = {**os.environ, "MINESWEEP_JIT": "auto", "NUMBA_CACHE_DIR": str(cache)}
    cold = subprocess.run(
        [sys.executable, "-c", program, str(view)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    locks = list(cache.rglob("minesweep-warming.lock"))
    try:
        assert cold.returncode == 0, cold.stderr
        assert "compiled: []" in cold.stdout
        assert "compiling the solver's kernels in the background" in cold.stderr
        assert len(locks) == 1
    finally:
        for lock in locks:  # the warmer would compile for a minute: not in the suite
            pid = int(lock.read_text().split()[0])
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
    warm = subprocess.run(
        [sys.executable, "-m", "minesweep", "solve", str(view), "--mines", "6"],
        env={**environment, "MINESWEEP_JIT": "compile", "NUMBA_CACHE_DIR": ""},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert cold.stdout.replace("compiled: []\n", "") == warm.stdout


def test_python_calls_every_kernel_through_entry() -> None:
    # A kernel called directly from Python code would compile on a cold
    # cache, in the process that is answering: the very wait _jit avoids.
    import ast
    import importlib
    import importlib.util

    import minesweep

    for part in _jit.PART_MODULES:
        _jit._imported(part)
    # A list: the first dispatcher made (numba loaded) registers every other one.
    kernels = {id(k.dispatcher) for k in list(_jit._BY_DISPATCHER.values())}
    root = Path(minesweep.__file__).parent
    direct: list[str] = []
    for source in sorted(root.rglob("*.py")):
        if source.name == "__main__.py":
            continue  # importing it runs the command line
        module = ".".join(("minesweep", *source.relative_to(root).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        try:
            loaded = importlib.import_module(module)
        except ImportError:  # an extra this run lacks
            continue
        package = module if source.name == "__init__.py" else module.rpartition(".")[0]
        for function in ast.walk(ast.parse(source.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            if id(getattr(loaded, function.name, None)) in kernels:
                continue  # a kernel's own body calls kernels compiled
            # What each name means here: the module's, or a local import's.
            meaning = dict(vars(loaded))
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    where = importlib.util.resolve_name(
                        "." * node.level + (node.module or ""), package
                    )
                    for alias in node.names:
                        with contextlib.suppress(ImportError, AttributeError):
                            meaning[alias.asname or alias.name] = getattr(
                                importlib.import_module(where), alias.name
                            )
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    target = node.func.id
                elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
                    target = node.value.id
                else:
                    continue
                if id(meaning.get(target)) in kernels:
                    direct.append(f"{module}.{function.name} uses {target}")
    assert direct == []


# A first compile, in a process of its own on a cache of its own, stopped by
# Ctrl-C: the command that was compiling ends with its one line and 130.
_INTERRUPTED_COMPILE = ["new", "--preset", "beginner", "--no-guess", "--seed", "7"]


def _compiling_environment(cache: Path) -> dict[str, str]:
    return {**os.environ, "MINESWEEP_JIT": "compile", "NUMBA_CACHE_DIR": str(cache)}


@pytest.mark.slow
def test_ctrl_c_inside_llvmlites_callback_ends_the_compile_with_130(tmp_path: Path) -> None:
    # The Ctrl-C comes inside the ctypes callback by which llvmlite hands
    # numba a solver kernel's machine code, where a KeyboardInterrupt raised
    # is printed ("Exception ignored") and swallowed, and the compile then
    # fails ("no compiled object yet"): what a Ctrl-C did at times. It is
    # held back there, and raised between two steps of the compile.
    program = (
        "import os, signal, sys\n"
        "from numba.core import codegen, event\n"
        "armed, sent = [], []\n"
        "class Arm(event.Listener):\n"
        "    def on_start(self, ev):\n"
        "        if ev.data['dispatcher'].py_func.__module__.startswith('minesweep.solver'):\n"
        "            armed.append(True)\n"
        "    def on_end(self, ev): pass\n"
        "event.register('numba:compile', Arm())\n"
        "hook = codegen.JITCodeLibrary._object_compiled_hook.__func__\n"
        "def interrupting(cls, ll_module, buf):\n"
        "    if armed and not sent:\n"
        "        sent.append(True)\n"
        "        print('interrupting', file=sys.stderr, flush=True)\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "    return hook(cls, ll_module, buf)\n"
        "codegen.JITCodeLibrary._object_compiled_hook = classmethod(interrupting)\n"
        "from minesweep.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, *_INTERRUPTED_COMPILE],
        env=_compiling_environment(tmp_path / "cache"),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "interrupting\nminesweep new: interrupted\n"


@pytest.mark.slow
def test_ctrl_c_a_second_into_a_first_compile_ends_with_130(tmp_path: Path) -> None:
    # As a person would: a Ctrl-C at a time that has nothing to do with
    # numba's steps (once the process is compiling), from outside.
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "minesweep", *_INTERRUPTED_COMPILE],
        env=_compiling_environment(tmp_path / "cache"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(3.0)  # imported (about a second) and compiling (30 s and more)
        process.send_signal(signal.SIGINT)
        _, errors = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, errors
    assert "Traceback" not in errors
    assert errors.strip() == "minesweep new: interrupted"


def test_a_ctrl_c_while_compiling_is_raised_once_the_compile_is_done() -> None:
    said: list[str] = []

    def compile_a_while() -> None:
        with interrupts._sigint_deferred() as interrupted:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # Python's handler runs between two of these
                pass
            said.append(f"ran on, interrupted: {interrupted()}")

    with pytest.raises(KeyboardInterrupt):
        compile_a_while()
    assert said == ["ran on, interrupted: True"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_running_warmer_is_found_by_its_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The lock beside the first part's cache, as _start_warmer writes it.
    class Part:
        def mark_path(self) -> Path:
            return tmp_path / "solver.ready"

    monkeypatch.setattr(_jit, "_imported", lambda name: Part())
    lock = tmp_path / "minesweep-warming.lock"
    assert _jit.warmer_running() is None  # no lock
    lock.write_text("")
    assert _jit.warmer_running() is None  # its writer has not written its id yet
    lock.write_text(f"{os.getpid()}\n")
    assert _jit.warmer_running() == os.getpid()
    # A process that has ended holds no lock, whatever the file says.
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    lock.write_text(f"{gone.pid}\n")
    assert _jit.warmer_running() is None
    # Nor does a lock older than any warmer runs.
    lock.write_text(f"{os.getpid()}\n")
    old = lock.stat().st_mtime - 16 * 60
    os.utime(lock, (old, old))
    assert _jit.warmer_running() is None
