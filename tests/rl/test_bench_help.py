"""``benchmarks/bench_rl.py --help``: every option described, with its default."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numba")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_rl.py"


def test_help_describes_every_option_with_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_rl", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(SystemExit) as stopped:
        module.main(["--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    assert "Steps a second of the RL environments" in text
    assert "(default: 4096)" in text
    assert "the figure is their median (default: 5)" in text
    assert "boards of the SyncVectorEnv part (it is slow)" in text
    assert "skip part 1 (ours against SyncVectorEnv)" in text
    assert "skip part 2 (ours against Jumanji" in text
    assert "default: False" not in text  # a switch's default is not shown
