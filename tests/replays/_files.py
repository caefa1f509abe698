"""The real replay files of tests/replays/data, and ms-toollib's reading of well-formed ones.

ms-toollib aborts the whole process on malformed input, so it runs only in a
subprocess here, and only on well-formed files.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
FILES = ["test_subject.avf", "test_subject.evf", "test_subject.rmv", "test_subject_2.rmv"]
MT_CLASS = {".avf": "AvfVideo", ".evf": "EvfVideo", ".rmv": "RmvVideo", ".mvf": "MvfVideo"}

MT_SCRIPT = r"""
import json, sys, ms_toollib as ms
out = {}
for path, cls in json.loads(sys.argv[1]):
    v = getattr(ms, cls)(path); v.parse()
    header = dict(completed=v.is_completed, official=v.is_official, fair=v.is_fair)
    events = []
    for r in v.events:
        if r.event.is_mouse():
            m = r.event.unwrap_mouse(); events.append([r.time, m.mouse, m.x, m.y])
    v.analyse(); v.current_time = 1e9
    out[path] = dict(header=header, events=events, board=v.board, rows=v.row, cols=v.column,
                     mines=v.mine_num, px=v.pix_size, player=v.player_identifier,
                     software=v.software, bbbv=v.bbbv, rtime=v.rtime, left=v.left,
                     right=v.right, double=v.double, start=v.start_time, end=v.end_time,
                     unique=v.unique_identifier, race=v.race_identifier)
print(json.dumps(out))
"""


def ms_toollib(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """ms-toollib's reading of well-formed files, in a subprocess (it aborts on bad input)."""
    pytest.importorskip("ms_toollib")
    jobs = [[str(path), MT_CLASS[path.suffix]] for path in paths]
    done = subprocess.run(
        [sys.executable, "-c", MT_SCRIPT, json.dumps(jobs)],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return result
