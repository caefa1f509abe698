"""``replays.table``: a batch of replays as one pandas DataFrame, and the README's recipe."""

from __future__ import annotations

import doctest
import math
import pathlib
import re
import subprocess
import sys

import pytest

from minesweep.errors import SettingsError
from minesweep.replays import FORMATS, ReplayError, read, summary, table

DATA = pathlib.Path(__file__).resolve().parent / "data"
README = pathlib.Path(__file__).resolve().parents[2] / "README.md"
FILES = sorted(str(path) for path in DATA.iterdir() if path.suffix in {".avf", ".evf", ".rmv"})


def same(left: object, right: object) -> bool:
    if isinstance(left, float) and isinstance(right, float) and math.isnan(left):
        return math.isnan(right)
    return left == right


def test_a_row_a_file_with_every_field_of_summary() -> None:
    pytest.importorskip("pandas")
    frame = table(FILES)
    records = [{"file": path, **summary(read(path))} for path in FILES]
    assert list(frame.columns) == list(records[0])
    assert len(frame) == len(FILES)
    for (_, row), record in zip(frame.iterrows(), records, strict=True):
        assert all(same(row[key], value) for key, value in record.items()), record["file"]


def test_a_folder_is_its_replays_in_sorted_order_also_on_workers() -> None:
    pandas = pytest.importorskip("pandas")
    frame = table([DATA])
    assert frame["file"].tolist() == FILES
    pandas.testing.assert_frame_equal(table([DATA], workers=2), frame)


def test_a_bad_file_raises_the_replay_error_that_names_it(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("pandas")
    cut = tmp_path / "cut.evf"
    cut.write_bytes((DATA / "test_subject.evf").read_bytes()[:100])
    for workers in (1, 2):
        with pytest.raises(ReplayError, match=re.escape(str(cut))):
            table([FILES[0], cut, FILES[1]], workers=workers)


def test_no_pandas_is_one_error_that_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with pytest.raises(SettingsError, match=re.escape("pip install 'minesweep[analysis]'")):
        table(FILES)


def test_importing_minesweep_does_not_import_pandas() -> None:
    code = "import sys, minesweep, minesweep.replays; print('pandas' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout == "False\n", result.stderr


def test_a_folder_is_read_by_the_bytes_as_the_cli_reads_it(tmp_path: pathlib.Path) -> None:
    pytest.importorskip("pandas")
    from minesweep.cli._replay import replay_files
    from minesweep.replays.reading import REPLAY_SUFFIXES

    assert {f".{name}" for name in FORMATS} == REPLAY_SUFFIXES
    # A replay renamed .dat is found by its bytes; a text file is not.
    (tmp_path / "game.dat").write_bytes((DATA / "test_subject.evf").read_bytes())
    (tmp_path / "notes.txt").write_text("not a replay\n")
    frame = table([tmp_path])
    assert frame["file"].tolist() == [str(tmp_path / "game.dat")]
    assert frame["format"].tolist() == ["evf"]
    assert [path for path, _ in replay_files([str(tmp_path)])] == frame["file"].tolist()


def test_the_readme_recipe_runs_as_written() -> None:
    pytest.importorskip("pandas")
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    recipe = next(block for block in blocks if "replays.table(" in block)
    # The names the README's earlier examples define: the replays package and a
    # judged table of clicks.
    from minesweep import replays
    from minesweep.replays.verdict import judge_clicks

    names = {"replays": replays, "table": judge_clicks(read(DATA / "test_subject_2.rmv"))}
    test = doctest.DocTestParser().get_doctest(recipe, names, "README recipe", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False) == doctest.TestResults(failed=0, attempted=6)
