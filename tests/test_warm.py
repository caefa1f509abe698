"""Warming the kernels ahead of first use, and the notice when a first use waits."""

from __future__ import annotations

import io
import time

import pytest

from minesweep import SettingsError
from minesweep.warm import PARTS, is_compiled, notice_when_slow, warm


def test_warm_compiles_each_part_asked_and_says_so_before_and_after() -> None:
    told: list[tuple[str, float | None]] = []
    seconds = warm(["engine", "solver"], progress=lambda part, took: told.append((part, took)))
    assert list(seconds) == ["engine", "solver"]
    assert all(value >= 0 for value in seconds.values())
    assert [part for part, _ in told] == ["engine", "engine", "solver", "solver"]
    assert [took is None for _, took in told] == [True, False, True, False]


def test_an_unknown_part_is_refused_before_anything_runs() -> None:
    told: list[str] = []
    with pytest.raises(SettingsError, match="no part 'gpu' to warm; expected one of engine"):
        warm(["engine", "gpu"], progress=lambda part, _: told.append(part))
    assert told == []
    assert set(PARTS) == {"engine", "solver", "autoplay", "vector", "replays"}


def test_is_compiled_knows_the_parts() -> None:
    # The front ends' question. The tests run compiled (conftest), so a part answers yes.
    assert is_compiled("solver")
    with pytest.raises(SettingsError, match="no part 'gpu' to warm"):
        is_compiled("gpu")


def test_a_slow_block_gets_its_notice_and_a_quick_one_none() -> None:
    slow, quick = io.StringIO(), io.StringIO()
    with notice_when_slow("compiling the solver", after=0.05, stream=slow):
        time.sleep(0.5)
    with notice_when_slow("compiling the solver", after=5.0, stream=quick):
        pass
    time.sleep(0.1)  # a timer that was cancelled stays silent
    assert slow.getvalue() == "compiling the solver\n"
    assert quick.getvalue() == ""
