"""ms-toollib as an oracle for the click and statistics tests, always in a subprocess.

ms-toollib 1.5.20 aborts the whole process on input it dislikes, so every
call goes through a child Python; a batch that aborts is retried one replay
at a time, and a replay that aborts alone comes back as None.

Replays are handed over as EVF v3 bytes with exact millisecond times, built
by :func:`evf_v3` (FORMATS.md §4 Recipe B): ms-toollib takes the header's
time and 3BV as given, so the child first reads a replay with a placeholder
time, finds the game's start and end from ms-toollib's own analysis, writes
that time into the header and reads it again.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from minesweep.field import Minefield
from minesweep.replays.model import MouseEvent, Replay

DATA = Path(__file__).resolve().parent / "data"
REAL_FILES = ("test_subject.avf", "test_subject.evf", "test_subject.rmv", "test_subject_2.rmv")

#: Every statistic a parsed ms-toollib video has that :class:`ReplayStats` shares.
MT_STATS = (
    *("bbbv", "bbbv_solved", "op", "isl", "zini", "hzini"),
    *(f"cell{n}" for n in range(9)),
    *("left", "right", "double", "cl", "lce", "rce", "dce", "ce", "flag", "path"),
    *("rtime", "etime", "bbbv_s", "stnb", "rqp", "qg", "ioe", "thrp", "corr"),
    *("left_s", "right_s", "double_s", "cl_s", "ce_s", "flag_s"),
)

_EVF_CODES = {
    "mv": 1, "lc": 2, "lr": 3, "rc": 4, "rr": 5, "mc": 6, "mr": 7, "pf": 8, "cc": 9,
    "l": 10, "r": 11, "m": 12,
}  # fmt: skip

_CHILD = r"""
import json, sys
import ms_toollib as ms

NAMES = json.loads(sys.argv[1])
CLASSES = {"avf": ms.AvfVideo, "evf": ms.EvfVideo, "rmv": ms.RmvVideo, "mvf": ms.MvfVideo}

def stats(v):
    out = {n: getattr(v, n) for n in NAMES}
    out["video_start_time"] = v.video_start_time
    return out

def events(v):
    found = []
    for e in v.events:
        if e.event.is_mouse():
            m = e.event.unwrap_mouse()
            found.append((e.time, m.mouse, m.x, m.y))
    return found

def read_raw(raw):
    v = ms.EvfVideo("generated.evf", raw); v.parse(); v.analyse(); v.current_time = 1e9
    return v

def generated(raw):
    raw = list(bytes.fromhex(raw))
    # The header's 3BV, from ms-toollib's own count.
    first = read_raw(raw)
    bbbv = ms.cal_bbbv(first.board)
    start = -first.video_start_time
    levels = [e.useful_level for e in first.events]
    times = [e.time for e in first.events]
    if first.is_completed:
        end = max(i for i, level in enumerate(levels) if level >= 2)
    else:
        end = next((i for i, level in enumerate(levels) if level == 4), len(levels) - 1)
    rtime_ms = round((times[end] - start) * 1000)
    raw[10:12] = list(bbbv.to_bytes(2, "big"))
    raw[12:15] = list(max(rtime_ms, 0).to_bytes(3, "big"))
    v = read_raw(raw)
    return stats(v)

def real(path):
    v = CLASSES[path.rsplit(".", 1)[1]](path); v.parse(); v.analyse(); v.current_time = 1e9
    out = stats(v)
    out["board"] = v.board
    out["events"] = events(v)
    out["pix_size"] = v.pix_size
    return out

def safe_chance(v, e):
    m = e.event.unwrap_mouse()
    return 1.0 - e.prior_game_board.poss[m.y // v.pix_size][m.x // v.pix_size]

def luck(v):
    v.analyse_for_features(["pluck"]); v.current_time = 1e9
    return {
        "pluck": v.pluck,
        "levels": [e.useful_level for e in v.events],
        "plucks": [e.key_dynamic_params.pluck for e in v.events],
        "safe": [safe_chance(v, e) if e.useful_level == 2 else None for e in v.events],
    }

def answer(j):
    if "pluck_raw" in j:
        return luck(read_raw(list(bytes.fromhex(j["pluck_raw"]))))
    if "pluck_path" in j:
        path = j["pluck_path"]
        v = CLASSES[path.rsplit(".", 1)[1]](path); v.parse(); v.analyse()
        return luck(v)
    return generated(j["raw"]) if "raw" in j else real(j["path"])

jobs = json.loads(sys.stdin.read())
print(json.dumps([answer(j) for j in jobs]))
"""


def _run(jobs: Sequence[dict[str, str]]) -> list[dict[str, Any]] | None:
    # A panicking ms-toollib writes crash.log into its working directory.
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, json.dumps(list(MT_STATS))],
            input=json.dumps(list(jobs)),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            cwd=scratch,
        )
    if done.returncode != 0:
        return None
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


def oracle(jobs: Sequence[dict[str, str]]) -> list[dict[str, Any] | None]:
    """ms-toollib's answer for each job.

    ``{"raw": hex}`` (generated EVF v3) or ``{"path": file}``: its statistics.
    ``{"pluck_raw": hex}`` or ``{"pluck_path": file}``: its luck (``pluck``)
    after ``analyse_for_features(["pluck"])``, with each event's useful level,
    running pluck, and for an effective left click the chance it was safe.
    """
    batch = _run(jobs)
    if batch is not None:
        return list(batch)
    if len(jobs) == 1:
        return [None]
    # Halve the batch until the replays that abort are alone.
    middle = len(jobs) // 2
    return oracle(jobs[:middle]) + oracle(jobs[middle:])


def evf_v3(field: Minefield, events: Iterable[tuple[int, str, int, int]], *, px: int) -> bytes:
    """EVF v3 bytes of a game on ``field``; ``events`` are ``(ms, kind, x px, y px)``.

    3BV and time in the header are placeholders (the oracle fills them in).
    """
    rows, cols = field.shape
    out = bytearray([3, 0b1110_0000, 0, rows, cols])
    out += field.mine_count.to_bytes(2, "big") + bytes([px]) + (0).to_bytes(2, "big")
    out += (0).to_bytes(2, "big") + (0).to_bytes(3, "big")
    for text in ("minesweep-test", "bot", "", "", "0", "0", "XX", ""):
        out += text.encode() + b"\0"
    out += np.packbits(field.mines.reshape(-1)).tobytes()
    for ms, kind, x, y in events:
        out += bytes([_EVF_CODES[kind]]) + ms.to_bytes(3, "big")
        out += x.to_bytes(2, "big") + y.to_bytes(2, "big")
    out.append(255)
    return bytes(out)


def replay_of(field: Minefield, events: Iterable[tuple[int, str, int, int]], *, px: int) -> Replay:
    """The replay :func:`evf_v3` writes, as a reader would return it."""
    return Replay(
        format="evf",
        version=3,
        field=field,
        events=tuple(MouseEvent(ms / 1000, kind, x, y) for ms, kind, x, y in events),  # type: ignore[arg-type]
        cell_px=px,
    )


def real_replay(name: str, answer: dict[str, Any]) -> Replay:
    """A real file's replay built from ms-toollib's own events and board (not our readers)."""
    field = Minefield(np.array(answer["board"]) == -1)
    return Replay(
        format=name.rsplit(".", 1)[1],
        version=0,
        field=field,
        events=tuple(MouseEvent(t, kind, x, y) for t, kind, x, y in answer["events"]),
        cell_px=answer["pix_size"],
    )
