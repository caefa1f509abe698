"""``minesweep replay``: the real replays' records, bad files one line each, and the checks."""

from __future__ import annotations

import csv
import io
import json
import pathlib

import pytest

from minesweep.replays import read, write_evf

from .runner import run

DATA = pathlib.Path(__file__).resolve().parent.parent / "replays" / "data"

# What ms-toollib 1.5.20 reports for the four real files (FORMATS.md, section 3).
EXPECTED = {
    "test_subject.avf": ("avf", "Tommy", 8, 8, 10, 28, 3, 3),
    "test_subject.evf": ("evf", "Szymon_M", 16, 30, 99, 167, 11, 10),
    "test_subject.rmv": ("rmv", "tkolar", 8, 8, 10, 10, 2, 3),
    "test_subject_2.rmv": ("rmv", "Thomas Kolar", 8, 8, 10, 32, 2, 2),
}


def test_a_folder_gives_one_json_line_a_replay_as_ms_toollib_reads_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, "replay", "--format", "json", str(DATA))
    assert (status, err) == (0, "")
    records = [json.loads(line) for line in out.splitlines()]
    assert [pathlib.Path(r["file"]).name for r in records] == sorted(EXPECTED)
    for record in records:
        name = pathlib.Path(record["file"]).name
        fields = ("format", "player", "rows", "cols", "mines", "bbbv", "op", "isl")
        assert tuple(record[key] for key in fields) == EXPECTED[name]
        assert record["checks"] == []


def test_csv_is_one_row_a_file_under_one_header(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, "replay", "--format", "csv", str(DATA))
    assert (status, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(row["bbbv"]) for row in rows] == [EXPECTED[n][5] for n in sorted(EXPECTED)]


def test_a_bad_file_is_one_line_and_status_2_and_the_others_still_print(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    cut = tmp_path / "cut.evf"
    cut.write_bytes((DATA / "test_subject.evf").read_bytes()[:100])
    good = str(DATA / "test_subject.avf")
    status, out, err = run(
        capsys, monkeypatch, "replay", str(cut), good, str(tmp_path / "missing.rmv")
    )
    assert status == 2
    lines = err.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"minesweep replay: {cut}: at byte ")
    assert lines[1] == f"minesweep replay: {tmp_path / 'missing.rmv'}: no such file"
    assert f"{good}: AVF v52, Arbiter 0.52.3, player Tommy" in out


def test_a_header_that_claims_another_3bv_is_reported(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    from dataclasses import replace

    real = read(DATA / "test_subject.avf")
    forged = replace(real, claims=replace(real.claims, bbbv=50, completed=True))
    path = tmp_path / "forged.evf"
    path.write_bytes(write_evf(forged))
    status, out, err = run(capsys, monkeypatch, "replay", "--format", "json", str(path))
    assert (status, err) == (0, "")
    assert json.loads(out)["checks"] == ["the header's 3BV is 50, the board's is 28"]


def test_a_folder_without_replays_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    status, _, err = run(capsys, monkeypatch, "replay", str(tmp_path))
    assert status == 2
    assert err == (
        f"minesweep replay: {tmp_path}: no replay files (.avf .rmv .evf .mvf .rawvf) "
        "in this folder\n"
    )
