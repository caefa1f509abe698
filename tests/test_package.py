"""The package as a whole: its public names, its typing marker, its import cost."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import minesweep

PACKAGE = pathlib.Path(minesweep.__file__).parent


def test_all_is_complete() -> None:
    # Every public name the package offers is exported, except submodules,
    # the helpers of lazy loading and the ``annotations`` feature flag.
    public = {
        name
        for name in dir(minesweep)
        if not name.startswith("_")
        and type(getattr(minesweep, name)) is not type(sys)
        and name not in {"annotations", "importlib", "TYPE_CHECKING", "Any"}
    }
    # The order is ruff's (RUF022, constants first); here: no name twice.
    assert len(set(minesweep.__all__)) == len(minesweep.__all__)
    assert set(minesweep.__all__) - {"__version__"} == public
    assert all(getattr(minesweep, name) is not None for name in minesweep.__all__)


def test_every_error_is_a_value_error() -> None:
    errors = [getattr(minesweep, name) for name in minesweep.__all__ if name.endswith("Error")]
    assert errors
    assert all(issubclass(error, minesweep.MinesweepError) for error in errors)
    assert issubclass(minesweep.MinesweepError, ValueError)


def test_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def test_importing_minesweep_loads_no_front_end_or_heavy_library() -> None:
    code = "import sys, minesweep; print(sorted(sys.modules))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    for heavy in ("'numpy'", "'numba'", "'scipy'", "'textual'", "'starlette'", "'argparse'"):
        assert heavy not in loaded


def test_core_modules_never_import_the_cli() -> None:
    for path in PACKAGE.glob("*.py"):
        if path.stem in {"cli", "__main__"}:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        } | {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        assert not any(name.endswith("cli") for name in imported), path.name
