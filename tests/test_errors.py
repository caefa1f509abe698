"""The exceptions: what each one means, and that all are ValueErrors."""

from __future__ import annotations

import pytest

import minesweep
from minesweep import (
    ActionError,
    Game,
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    MinesweepError,
    ParseError,
    SettingsError,
    StorageError,
    generate_field,
)

ERRORS = [
    ActionError,
    GameOverError,
    InvalidBoardError,
    InvalidClickError,
    ParseError,
    SettingsError,
    StorageError,
]


@pytest.mark.parametrize("error", ERRORS)
def test_every_error_is_a_minesweep_error_and_a_value_error(error: type[Exception]) -> None:
    assert issubclass(error, MinesweepError)
    assert issubclass(error, ValueError)
    assert error.__name__ in minesweep.__all__


def test_the_kinds_of_error_are_distinct() -> None:
    for error in ERRORS:
        assert [other for other in ERRORS if issubclass(error, other)] == [error]


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: Game.new("huge"), SettingsError, "preset must be one of"),
        (lambda: generate_field(9, 9, 10, seed=-1), SettingsError, "seed must be an int"),
        (lambda: generate_field(9, 9, 10, rule="x", seed=1), SettingsError, "first-click rule"),
        (lambda: generate_field(3, 3, 10, seed=1), SettingsError, "do not fit"),
        (lambda: Game(9, 9, 10).pop(), ActionError, "there is nothing to undo"),
        (lambda: Game(9, 9, 10).redo(), ActionError, "there is nothing to redo"),
        (lambda: Game(9, 9, 10).reveal(9, 0), InvalidClickError, "row 9 is outside"),
    ],
)
def test_each_error_says_what_went_wrong(
    make: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()  # type: ignore[operator]


def test_the_tree_in_the_errors_docstring_names_every_error_class() -> None:
    # Every module of the package, front ends included where their extras are
    # installed: a class left out of the tree is an error a user cannot find.
    import importlib
    import pkgutil

    import minesweep.errors

    for module in pkgutil.walk_packages(minesweep.__path__, "minesweep."):
        if module.name.endswith("__main__"):
            continue  # importing it runs the command line
        try:
            importlib.import_module(module.name)
        except ImportError:
            continue  # an optional extra that is not installed here
    found: set[type[BaseException]] = set()
    pending: list[type[BaseException]] = [minesweep.errors.MinesweepError]
    while pending:
        error = pending.pop()
        found.add(error)
        pending.extend(error.__subclasses__())
    documented = minesweep.errors.__doc__ or ""
    missing = sorted(
        error.__name__
        for error in found
        if error.__module__.startswith("minesweep") and f" {error.__name__}" not in documented
    )
    assert not missing, f"errors.py's tree leaves out {missing}"
