"""A smoke test of examples/train_agent.py: a few updates, reproducible from a seed."""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("jax")
pytest.importorskip("optax")

SCRIPT = Path(__file__).resolve().parents[1] / "examples" / "train_agent.py"


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_agent", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tiny_run(module: ModuleType, out: Path, seed: int) -> dict[str, object]:
    return module.main(  # type: ignore[no-any-return]
        [
            "--out", str(out), "--seed", str(seed), "--channels", "8", "--layers", "2",
            "--rounds", "2", "--positions", "150", "--updates", "3", "--batch", "16",
            "--curve-games", "10", "--eval-games", "12", "--eval-presets", "beginner",
            "--no-solver", "--no-plot",
        ]
    )  # fmt: skip


def test_a_few_updates_train_evaluate_and_repeat_from_the_seed(tmp_path: Path) -> None:
    module = load()
    first = tiny_run(module, tmp_path / "a", 3)
    again = tiny_run(module, tmp_path / "b", 3)
    tiny_run(module, tmp_path / "c", 4)
    assert first["positions"] == 300
    assert first["updates"] == 6
    evaluation = first["evaluation"]
    assert isinstance(evaluation, dict)
    assert set(evaluation) == {"beginner/opening", "beginner/safe"}
    for entry in evaluation.values():
        assert 0 <= entry["agent_wins"] <= 12
        low, high = entry["agent_interval"]
        assert 0 <= low <= entry["agent_wins"] / 12 <= high <= 1
    weights = [np.load(tmp_path / name / "weights.npz") for name in "abc"]
    assert sorted(weights[0].files) == ["b0", "b1", "b2", "w0", "w1", "w2"]
    for key in weights[0].files:
        assert np.array_equal(weights[0][key], weights[1][key])  # the same seed, the same net
    assert not np.array_equal(weights[0]["w0"], weights[2]["w0"])
    curve = (tmp_path / "a" / "curve.json").read_text()
    assert '"round": 2' in curve
    assert first["evaluation"] == again["evaluation"]


def test_the_teacher_labels_are_the_solvers_and_the_agent_takes_the_lowest() -> None:
    import jax

    from minesweep.solver import analyze
    from minesweep.squares import GLYPH_HIDDEN

    module = load()
    view = np.full((9, 9), GLYPH_HIDDEN, np.uint8)
    assert np.allclose(module.label(view, 10), 10 / 81)
    view[:3, :3] = [[0, 0, 1], [0, 0, 1], [1, 1, 2]]
    expected = np.nan_to_num(analyze(view, 10).probability, nan=0.0)
    assert np.allclose(module.label(view, 10), expected)
    params = module.init_params(jax.random.PRNGKey(0), 4, 1)
    scores = np.asarray(module.logits(params, view[None], 10))[0]
    masked = np.where(view == GLYPH_HIDDEN, scores, np.inf)
    assert module.choose(params, view[None], 10)[0] == masked.argmin()
    assert view.reshape(-1)[module.choose(params, view[None], 10)[0]] == GLYPH_HIDDEN
    assert math.isfinite(float(scores.sum()))


def test_a_missing_matplotlib_is_told_before_training(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # None in sys.modules: the import system's "not installed", whether or not it is here.
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    module = load()
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as stopped:
        module.main(["--out", str(out), "--rounds", "1"])
    assert stopped.value.code == 2
    message = capsys.readouterr().err.strip().splitlines()[-1]
    assert "matplotlib" in message
    assert "[train]" in message
    assert "--no-plot" in message
    assert not out.exists()  # nothing trained, nothing written
    with pytest.raises(SystemExit):
        module.main(["--out", str(out), "--replot"])


def test_help_gives_every_option_its_description_and_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    module = load()
    with pytest.raises(SystemExit) as stopped:
        module.main(["--help"])
    assert stopped.value.code == 0
    text = capsys.readouterr().out
    assert "DAgger rounds (default: 14)" in text
    assert "positions an update (default: 256)" in text
    assert "--no-plot             do not draw learning-curve.png" in text
    assert "default: True" not in text  # a switch's default would read backwards
    for action in module.parser_of()._actions:
        assert action.help, action.option_strings


def test_two_fresh_processes_train_the_same_network(tmp_path: Path) -> None:
    # Another interpreter, another hash seed: the same seed, the same bits.
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('train_agent', {str(SCRIPT)!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        "module.main(sys.argv[1:])\n"
    )
    arguments = [
        "--seed", "5", "--channels", "8", "--layers", "2", "--rounds", "2",
        "--positions", "100", "--updates", "3", "--batch", "16", "--curve-games", "8",
        "--eval-games", "8", "--eval-presets", "beginner", "--no-solver", "--no-plot",
    ]  # fmt: skip
    for name, hash_seed in (("a", "1"), ("b", "2")):
        subprocess.run(
            [sys.executable, "-c", code, "--out", str(tmp_path / name), *arguments],
            check=True, capture_output=True, timeout=300,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )  # fmt: skip
    first, again = (np.load(tmp_path / name / "weights.npz") for name in "ab")
    for key in first.files:
        assert np.array_equal(first[key], again[key])
    assert (tmp_path / "a" / "curve.json").read_text().count('"loss"') == 2
