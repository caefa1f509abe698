"""A replay's timeline: ``replays.timeline.timeline`` and ``replay --timeline OUT.svg``."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from minesweep.replays import read
from minesweep.replays.timeline import timeline
from minesweep.replays.verdict import judge_clicks

from ..cli.runner import run

DATA = Path(__file__).parent / "data"
SVG = "{http://www.w3.org/2000/svg}"


def points(root: ET.Element, kind: str) -> list[tuple[float, float]]:
    line = next(e for e in root.iter(f"{SVG}polyline") if e.get("class") == kind)
    return [tuple(map(float, pair.split(","))) for pair in line.get("points", "").split()]  # type: ignore[misc]


def test_the_timeline_climbs_with_the_3bv_and_marks_each_guess_with_its_chance() -> None:
    replay = read(DATA / "test_subject.evf")
    table = judge_clicks(replay)
    root = ET.fromstring(timeline(replay, table))
    solved = points(root, "solved")
    # Left to right in time, and up (SVG's y grows down) as 3BV is solved.
    assert [x for x, _ in solved] == sorted(x for x, _ in solved)
    assert [y for _, y in solved] == sorted((y for _, y in solved), reverse=True)
    assert solved[0][1] - solved[-1][1] == pytest.approx(280 - 28 - 40)  # 167 of 167
    guesses = [click for click in table.clicks if click.verdict.guess]
    dots = [e for e in root.iter(f"{SVG}circle") if e.get("class") == "guess"]
    assert [int(d.get("data-click", "")) for d in dots] == [c.index for c in guesses]
    for dot, click in zip(dots, guesses, strict=True):
        assert float(dot.get("data-chance", "")) == click.verdict.mine_chance
    labels = [e.text for e in root.iter(f"{SVG}text") if e.get("class") == "guess-chance"]
    assert labels == ["24%", "44%"]
    # The luck line steps up once a guess, to the game's whole luck, at the top.
    luck = points(root, "luck")
    assert len({y for _, y in luck}) == 1 + len(guesses)
    assert min(y for _, y in luck) == pytest.approx(28)
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.text == (
        f"Timeline of Szymon_M's game: 167 of 167 3BV in 69.60 s, 2 guesses, luck {table.pluck:.3f}"
    )
    assert math.isfinite(table.pluck)


def test_replay_timeline_writes_the_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "t.svg"
    path = str(DATA / "test_subject.avf")
    status, _out, err = run(capsys, monkeypatch, "replay", path, "--timeline", str(out))
    assert status == 0
    assert err.startswith(f"wrote {out} (")
    assert out.read_text(encoding="utf-8") == timeline(read(path))
    status, _out, err = run(capsys, monkeypatch, "replay", str(DATA), "--timeline", str(out))
    assert status == 2
    assert "--timeline takes one replay file" in err


@pytest.mark.parametrize(
    "other", [["--gif", "out.gif"], ["--svg", "pictures"], ["--clicks", "--svg", "pictures"]]
)
def test_replay_timeline_with_another_picture_is_refused_on_one_line(
    other: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    path = str(DATA / "test_subject.avf")
    status, out, err = run(capsys, monkeypatch, "replay", path, "--timeline", "t.svg", *other)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "--timeline writes one picture: give it without --gif, --apng, --webp or --svg" in err
    # Nothing was written: neither the timeline nor the other picture.
    assert list(tmp_path.iterdir()) == []
