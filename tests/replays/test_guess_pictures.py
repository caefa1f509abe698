"""Pictures of a replay's guesses: ``drawing.guess_pictures`` and ``replay --clicks --svg DIR``."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from minesweep.replays import read
from minesweep.replays.drawing import guess_pictures
from minesweep.replays.verdict import judge_clicks
from minesweep.solver import analyze
from minesweep.squares import GLYPH_HIDDEN, square_tag

from ..cli.runner import run

DATA = Path(__file__).parent / "data"
SVG = "{http://www.w3.org/2000/svg}"


def marks(root: ET.Element) -> dict[str, tuple[int, int]]:
    return {
        element.get("class", "").split()[1]: (
            int(element.get("data-row", "")),
            int(element.get("data-col", "")),
        )
        for element in root.iter()
        if element.get("class", "").startswith("mark ")
    }


def caption(root: ET.Element) -> str:
    return " ".join(t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "caption")


def test_each_guess_is_drawn_before_its_click_with_its_verdict() -> None:
    replay = read(DATA / "test_subject.evf")
    table = judge_clicks(replay)
    pictures = guess_pictures(replay, table)
    guesses = [click for click in table.clicks if click.verdict.guess]
    assert [click for click, _ in pictures] == guesses
    assert len(guesses) == 2  # one avoidable, one worse than the best
    for click, picture in pictures:
        root = ET.fromstring(picture)
        before = table.analysis.view(click.view)
        # The view before the click: its square still hidden, as are no more
        # squares than the view had.
        hidden = [
            r for r in root.iter(f"{SVG}rect") if r.get("class", "").split()[1:2] == ["hidden"]
        ]
        assert len(hidden) == int((before == GLYPH_HIDDEN).sum())
        assert before[click.row, click.col] == GLYPH_HIDDEN
        found = marks(root)
        assert found["click"] == (click.row, click.col)
        # The heat map is the solver's on that view: the percentages written
        # are the analysis's, and the alternative is the least risky other square.
        plain = np.where(before <= 8, before, GLYPH_HIDDEN).astype(np.uint8)
        chances = analyze(plain, replay.mines).probability
        others = chances.copy()
        others[click.row, click.col] = np.nan
        best = found["hint"]
        assert math.isclose(chances[best], np.nanmin(others), abs_tol=1e-9)
        assert best == tuple(np.argwhere(others <= np.nanmin(others) + 1e-9)[0])
        said = caption(root)
        assert f"Click {click.index} at {click.time:.2f} s" in said
        assert f"on {square_tag(click.row, click.col)}: {click.verdict.mine_chance:.1%}" in said
        assert f"luck {click.luck:.3f}" in said
        assert f"best alternative {square_tag(*best)}" in said
        assert math.isclose(click.verdict.mine_chance, chances[click.row, click.col], abs_tol=1e-9)
    first, second = (ET.fromstring(picture) for _, picture in pictures)
    assert "avoidable" in caption(first)
    assert "certainly safe" in caption(first)
    assert "worse: 33.3% riskier than the best" in caption(second)
    assert "best alternative r16c22, 11.1%" in caption(second)


def test_a_chord_guess_keeps_its_own_squares_as_alternatives() -> None:
    # The AVF's guess is a chord that a certainly safe neighbour made avoidable.
    replay = read(DATA / "test_subject.avf")
    [(click, picture)] = guess_pictures(replay)
    assert (click.kind, click.verdict.grade) == ("double", "avoidable")
    said = caption(ET.fromstring(picture))
    assert "chord on" in said
    assert "certainly safe" in said


def test_replay_clicks_svg_writes_a_picture_a_guess_named_by_click(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "guesses"
    path = str(DATA / "test_subject.evf")
    status, out, err = run(
        capsys, monkeypatch, "replay", "--clicks", "--format", "json", path, "--svg", str(folder)
    )
    assert status == 0
    assert err == f"wrote 2 pictures (2 guesses) to {folder}\n"
    rows = [json.loads(line) for line in out.splitlines()]
    guesses = [row["index"] for row in rows if row["guess"]]
    names = sorted(child.name for child in folder.iterdir())
    assert names == [f"click-{index:04d}.svg" for index in guesses]
    for name in names:
        ET.parse(folder / name)


@pytest.mark.parametrize(
    "arguments",
    [
        ("replay", str(DATA / "test_subject.evf"), "--svg", "x"),  # without --clicks
        ("replay", "--clicks", str(DATA), "--svg", "x"),  # a folder
    ],
)
def test_replay_svg_wants_clicks_and_one_file(
    arguments: tuple[str, ...],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _out, err = run(capsys, monkeypatch, *arguments)
    assert status == 2
    assert "--svg takes one replay file, with --clicks" in err
    assert not (tmp_path / "x").exists()
