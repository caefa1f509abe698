"""``minesweep replay``: the real replays' records, bad files one line each, and the checks."""

from __future__ import annotations

import csv
import io
import json
import math
import pathlib
import subprocess
import sys

import pytest

from minesweep.replays import read, write_evf, write_rawvf

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
    # A text file and a picture are not replays, whatever the folder holds.
    (tmp_path / "notes.txt").write_text("Board: not really\n", encoding="utf-8")
    (tmp_path / "board.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    status, _, err = run(capsys, monkeypatch, "replay", str(tmp_path))
    assert status == 2
    assert err == f"minesweep replay: {tmp_path}: no replay files in this folder\n"


def test_a_folder_finds_replays_by_their_bytes_not_their_names(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    # A RawVF saved as .txt, an AVF renamed without extension, an RMV named
    # .bak: each is read. A damaged file named .evf is reported, not skipped.
    (tmp_path / "game.txt").write_text(write_rawvf(read(DATA / "test_subject.evf")))
    (tmp_path / "arbiter").write_bytes((DATA / "test_subject.avf").read_bytes())
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "copy.bak").write_bytes((DATA / "test_subject.rmv").read_bytes())
    (tmp_path / "cut.evf").write_bytes(b"\x07" * 10)
    (tmp_path / "readme.md").write_text("# not a replay\n")
    status, out, err = run(capsys, monkeypatch, "replay", "--format", "json", str(tmp_path))
    assert status == 2
    found = {
        pathlib.Path(json.loads(line)["file"]).name: json.loads(line) for line in out.splitlines()
    }
    assert sorted(found) == ["arbiter", "copy.bak", "game.txt"]
    assert [found[name]["format"] for name in sorted(found)] == ["avf", "rmv", "rawvf"]
    assert err.count("\n") == 1
    assert f"{tmp_path / 'cut.evf'}:" in err


def _finite(value: object) -> object:
    return None if isinstance(value, float) and not math.isfinite(value) else value


def test_clicks_json_is_the_verdict_table_one_line_a_click(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep.replays.verdict import judge_clicks

    path = DATA / "test_subject_2.rmv"
    status, out, err = run(capsys, monkeypatch, "replay", "--clicks", "--format", "json", str(path))
    assert (status, err) == (0, "")
    lines = [json.loads(line) for line in out.splitlines()]
    expected = judge_clicks(read(path)).rows()
    assert len(lines) == len(expected)
    for line, row in zip(lines, expected, strict=True):
        assert line == {"file": str(path), **{k: _finite(v) for k, v in row.items()}}


def test_clicks_text_names_each_guess_and_the_luck(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = DATA / "test_subject_2.rmv"
    status, out, err = run(capsys, monkeypatch, "replay", "--clicks", str(path))
    assert (status, err) == (0, "")
    # ms-toollib's pluck of this file is 0.4771 (log10 of 3: a 1/3 guess and a 50/50).
    assert "luck 0.477" in out.splitlines()[0]
    assert "2 guesses (2 avoidable, 0 best, 0 forced, 0 worse)" in out.splitlines()[0]
    assert sum("50/50" in line for line in out.splitlines()) == 1


def test_clicks_header_counts_clicks_not_squares(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from minesweep.replays.verdict import judge_clicks

    path = DATA / "test_subject.avf"
    status, out, err = run(capsys, monkeypatch, "replay", "--clicks", str(path))
    assert (status, err) == (0, "")
    replay = read(path)
    rows = judge_clicks(replay).rows()
    judged = sum(row["judged"] for row in rows)
    header = out.splitlines()[0]
    # Won: the judged clicks opened every safe square, 54 on 8x8 with 10 mines.
    safe = replay.rows * replay.cols - replay.mines
    assert (judged, safe) == (18, 54)
    assert (
        "36 clicks, 18 of them judged (the clicks that opened squares, 54 squares in all, "
        "or hit a mine); " in header
    )
    assert "1 guess (1 avoidable, 0 best, 0 forced, 0 worse)" in header  # no "1 guesses"
    # One line a judged click under the header and the column names.
    assert len(out.splitlines()) == 2 + judged


def test_clicks_header_of_a_lost_game_counts_the_mine_apart(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    import numpy as np

    from minesweep.field import Minefield

    from ..replays._oracle import replay_of

    # Mines at the corners (0, 0) and (2, 2): open the middle 2 (one square),
    # flag (0, 1), then click the mine at (2, 2).
    mines = np.zeros((3, 3), np.bool_)
    mines[0, 0] = mines[2, 2] = True
    events = [
        (0, "lc", 24, 24), (100, "lr", 24, 24), (300, "rc", 24, 8), (400, "rr", 24, 8),
        (600, "lc", 40, 40), (700, "lr", 40, 40),
    ]  # fmt: skip
    path = tmp_path / "lost.evf"
    path.write_bytes(write_evf(replay_of(Minefield(mines), events, px=16)))
    status, out, err = run(capsys, monkeypatch, "replay", "--clicks", str(path))
    assert (status, err) == (0, "")
    header = out.splitlines()[0]
    assert (
        f"{path}: 3 clicks, 2 of them judged (the clicks that opened squares, 1 square in all, "
        f"or hit a mine: 1); " in header
    )


def test_stnb_off_the_standard_boards_is_said_undefined_not_zero(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    from minesweep.field import Minefield

    from ..replays._games import NINE_EVENTS, NINE_MINES
    from ..replays._oracle import replay_of

    path = tmp_path / "beginner9.evf"
    path.write_bytes(write_evf(replay_of(Minefield(NINE_MINES), NINE_EVENTS, px=16)))
    status, out, err = run(capsys, monkeypatch, "replay", str(path), str(DATA / "test_subject.avf"))
    assert (status, err) == (0, "")
    assert "STNB - (defined on 8x8/10, 16x16/40 and 16x30/99 only)" in out
    assert "STNB 57.151," in out  # the 8x8 Arbiter file has one
    # The record keeps ms-toollib's 0.
    status, out, err = run(capsys, monkeypatch, "replay", "--format", "json", str(path))
    assert (status, json.loads(out)["stnb"]) == (0, 0.0)


def test_clicks_csv_is_one_row_a_click_of_every_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(capsys, monkeypatch, "replay", "--clicks", "--format", "csv", str(DATA))
    assert (status, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    counts = {name: sum(pathlib.Path(r["file"]).name == name for r in rows) for name in EXPECTED}
    assert counts == {"test_subject.avf": 36, "test_subject.evf": 334, "test_subject.rmv": 19,
                      "test_subject_2.rmv": 31}  # fmt: skip


def test_output_cut_short_by_its_reader_ends_quietly() -> None:
    command = [sys.executable, "-m", "minesweep", "replay", "--clicks", "--format", "json"]
    reader = subprocess.Popen(
        [*command, str(DATA / "test_subject.evf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None
    reader.stdout.readline()
    reader.stdout.close()  # the reader goes, as `| head -1` does
    _, err = reader.communicate(timeout=120)
    assert (reader.returncode, err) == (141, b"")


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_records(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    distributed = pytest.importorskip("distributed")
    missing = str(tmp_path / "missing.evf")
    files = [str(DATA / name) for name in sorted(EXPECTED)]
    local = run(capsys, monkeypatch, "replay", "--format", "json", *files)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        remote = run(capsys, monkeypatch, "replay", "--format", "json", "--dask", address, *files)
        broken = run(capsys, monkeypatch, "replay", "--dask", address, missing, files[0])
    assert remote == local
    assert broken[0] == 2
    assert broken[2].splitlines() == [f"minesweep replay: {missing}: no such file"]


def test_an_unreachable_dask_scheduler_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    status, out, err = run(
        capsys, monkeypatch, "replay", "--dask", "tcp://127.0.0.1:9", "--dask-timeout", "0.5",
        str(DATA / "test_subject.avf"),
    )  # fmt: skip
    assert (status, out) == (2, "")
    assert err.startswith(
        "minesweep replay: cannot reach the Dask scheduler at 'tcp://127.0.0.1:9'"
    )
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("speed", "said"),
    [
        ("1", "capped 2 pauses of more than 2 s (the longest 5.00 s) to 2 s each\n"),
        (
            "4",
            "capped 2 pauses of more than 2 s (the longest 5.00 s) to 2 s each,"
            " shown as 0.5 s at --speed 4\n",
        ),
    ],
)
def test_a_gif_says_how_many_pauses_it_capped(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: pathlib.Path,
    speed: str,
    said: str,
) -> None:
    pytest.importorskip("PIL")
    import numpy as np

    from minesweep.field import Minefield

    from ..replays._oracle import replay_of

    # Open the middle 2, wait 5 s, flag (0, 1), wait 3.3 s, click the mine at (2, 2):
    # two pauses over the cap, and short ones that stay as they were.
    mines = np.zeros((3, 3), np.bool_)
    mines[0, 0] = mines[2, 2] = True
    events = [
        (0, "lc", 24, 24), (100, "lr", 24, 24), (5100, "rc", 24, 8), (5200, "rr", 24, 8),
        (8500, "lc", 40, 40), (8600, "lr", 40, 40),
    ]  # fmt: skip
    path = tmp_path / "slow.evf"
    path.write_bytes(write_evf(replay_of(Minefield(mines), events, px=16)))
    out = tmp_path / "slow.gif"
    status, printed, err = run(
        capsys, monkeypatch, "replay", str(path), "--gif", str(out), "--speed", speed
    )
    assert (status, printed) == (0, "")
    assert err.splitlines(keepends=True) == [f"wrote {out} ({out.stat().st_size:,} bytes)\n", said]


def test_a_gif_without_long_pauses_says_nothing_of_a_cap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path
) -> None:
    pytest.importorskip("PIL")
    out = tmp_path / "game.gif"
    status, _, err = run(
        capsys, monkeypatch, "replay", str(DATA / "test_subject.avf"), "--gif", str(out)
    )
    # Its longest pause is under the cap (the animation's frames cut nothing).
    assert (status, err.splitlines()) == (0, [f"wrote {out} ({out.stat().st_size:,} bytes)"])
