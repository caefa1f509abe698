"""Real replays from ms-toollib's test data, read as ms-toollib reads them (issue 48).

The files come from ms-toollib's ``test_files`` folder (github.com/eee555/ms-toollib,
MIT licence, Copyright (c) 2021 eee555; the licence is in
``data_toollib/LICENSE-ms-toollib.txt``, and ``data_toollib/README.md``
names each file's original): a Minesweeper Clone 0.97 beta MVF (the only real Clone file we
found), an Arbiter 0.52.3 AVF with a GBK name, and Metasweeper 3.1.9 (EVF v3)
and 3.2.1 (EVF v4) files with UTF-8 names. Each is compared with
ms-toollib, in a subprocess, on its board, its events, its player and every
statistic both compute.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from minesweep.replays import read
from minesweep.replays.stats import replay_stats

from ._files import ms_toollib
from ._oracle import oracle
from .test_stats import differences

DATA = Path(__file__).resolve().parent / "data_toollib"
#: The file, the program that wrote it, and the player's name as written.
FILES = {
    "toollib_clone097.mvf": ("Minesweeper Clone 0.97", "Zhang Shen Jia(China)"),
    "toollib_gbk_name.avf": ("Arbiter 0.52.3", "王嘉宁"),
    "toollib_v3_utf8_name.evf": ("元3.1.9", "王嘉宁"),
    "toollib_v4.evf": ("元3.2.1", "匿"),
}


@pytest.fixture(scope="module")
def theirs() -> dict[str, dict[str, Any]]:
    headers = ms_toollib([DATA / name for name in FILES])
    stats = oracle([{"path": str(DATA / name)} for name in FILES])
    found = {}
    for name, answer in zip(FILES, stats, strict=True):
        assert answer is not None, f"ms-toollib could not read {name}"
        found[name] = answer | {"header": headers[str(DATA / name)]}
    return found


@pytest.mark.parametrize("name", FILES)
def test_the_program_and_the_name(name: str) -> None:
    replay = read(DATA / name)
    assert (replay.software, replay.player) == FILES[name]


@pytest.mark.parametrize("name", FILES)
def test_the_same_board_events_and_name_as_ms_toollib(
    name: str, theirs: dict[str, dict[str, Any]]
) -> None:
    replay = read(DATA / name)
    answer = theirs[name]
    assert replay.field.mines.tolist() == [[c == -1 for c in row] for row in answer["board"]]
    assert replay.cell_px == answer["pix_size"]
    ours = [(round(e.time * 1000), e.kind, e.x, e.y) for e in replay.events]
    assert ours == [(round(t * 1000), k, x, y) for t, k, x, y in answer["events"]]
    assert replay.player == answer["header"]["player"]


@pytest.mark.parametrize("name", FILES)
def test_every_statistic_equals_ms_toollib(name: str, theirs: dict[str, dict[str, Any]]) -> None:
    # Our reader's replay, not ms-toollib's events: the reading is under test too.
    assert differences(replay_stats(read(DATA / name)), theirs[name]) == {}
