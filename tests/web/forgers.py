"""Traces for the trace check: real players' mouse records, and cheap forgeries of them.

The real records are the replay fixtures' (an EVF, two RMVs and an AVF: real
players' games, their mouse sampled at each program's own rate), converted to
the page's format: events as ``[ms, kind, x, y]`` with the kinds the page
sends. A forger keeps a real game's presses (where and when: what a bot knows
of its own actions) and makes up everything else, the way the issue's bot
did: a few sampled points between clicks, uniform or lognormal gaps, constant
or jittered press lengths, straight or singly-bent paths, from a seeded
generator.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from minesweep.replays import read
from minesweep.replays.model import MouseEvent, Replay

#: An event as the page sends it: (milliseconds, kind, x, y).
Event = tuple[float, str, int, int]

DATA = Path(__file__).parent.parent / "replays" / "data"
#: The fixtures holding real players' mouse records.
REAL_FILES = ("test_subject.evf", "test_subject.rmv", "test_subject_2.rmv", "test_subject.avf")
#: Kinds the page sends (the others, EVF's "both down" and pre-flags, it never does).
PAGE_KINDS = frozenset({"mv", "lc", "lr", "rc", "rr", "mc", "mr"})


def real_replay(name: str) -> Replay:
    """A fixture's replay, its events cut to the kinds the page sends."""
    replay = read((DATA / name).read_bytes(), name=name)
    events = tuple(event for event in replay.events if event.kind in PAGE_KINDS)
    return Replay(
        format="evf",
        version=4,
        field=replay.field,
        events=events,
        cell_px=replay.cell_px,
        software="real hand",
    )


def page_events(replay: Replay) -> list[Event]:
    """A replay's events as the page sends them."""
    return [(event.time * 1000.0, event.kind, event.x, event.y) for event in replay.events]


def as_replay(template: Replay, events: list[Event]) -> Replay:
    """``events`` as a replay on ``template``'s board (times from the first event)."""
    first = events[0][0]
    return Replay(
        format="evf",
        version=4,
        field=template.field,
        events=tuple(
            MouseEvent(round(t - first) / 1000.0, kind, x, y)  # type: ignore[arg-type]
            for t, kind, x, y in events
        ),
        cell_px=template.cell_px,
        software="forger",
    )


@dataclass(frozen=True, slots=True)
class Forger:
    """One cheap way to make up a trace around known presses."""

    #: Moves sampled between a release and the next press.
    points: int
    gaps: Literal["uniform", "lognormal"]
    presses: Literal["constant", "jittered"]
    path: Literal["straight", "bent"]
    seed: int

    def forge(self, real: list[Event]) -> list[Event]:
        """A made-up trace with ``real``'s presses, where and when they were."""
        rng = random.Random(self.seed)
        presses = [event for event in real if event[1] in ("lc", "rc", "mc")]
        out: list[Event] = []
        x, y = float(presses[0][2]), float(presses[0][3])
        free = presses[0][0] - 300.0
        nexts = [event[0] for event in presses[1:]] + [math.inf]
        for (t, kind, tx, ty), following in zip(presses, nexts, strict=True):
            if t > free + 2.0:
                self._moves(rng, out, (x, y), (tx, ty), free, t)
            hold = 70.0 if self.presses == "constant" else rng.uniform(40.0, 140.0)
            # Released before its next press, as a program clicking one square at a time.
            hold = max(1.0, min(hold, (following - t) / 2))
            out.append((t, kind, tx, ty))
            out.append((t + hold, kind[0] + "r", tx, ty))
            x, y, free = tx, ty, t + hold
        out.sort(key=lambda event: event[0])
        return out

    def _moves(
        self,
        rng: random.Random,
        out: list[Event],
        start: tuple[float, float],
        end: tuple[float, float],
        t0: float,
        t1: float,
    ) -> None:
        if self.gaps == "uniform":
            weights = [rng.uniform(0.5, 1.5) for _ in range(self.points + 1)]
        else:
            weights = [rng.lognormvariate(0.0, 0.6) for _ in range(self.points + 1)]
        total = sum(weights)
        (x0, y0), (x1, y1) = start, end
        bend = rng.uniform(-0.3, 0.3) if self.path == "bent" else 0.0
        # The control point of a quadratic curve, off the line's middle.
        cx = (x0 + x1) / 2 - (y1 - y0) * bend
        cy = (y0 + y1) / 2 + (x1 - x0) * bend
        at = t0
        for k in range(1, self.points + 1):
            at += (t1 - t0) * weights[k - 1] / total
            f = k / (self.points + 1)
            px = (1 - f) ** 2 * x0 + 2 * f * (1 - f) * cx + f**2 * x1
            py = (1 - f) ** 2 * y0 + 2 * f * (1 - f) * cy + f**2 * y1
            out.append((at, "mv", round(px + rng.uniform(-1, 1)), round(py + rng.uniform(-1, 1))))


def family(seeds: int = 1) -> list[Forger]:
    """Every combination of the cheap choices, each with a few seeds."""
    return [
        Forger(points, gaps, presses, path, seed)
        for points in (2, 4, 8)
        for gaps in ("uniform", "lognormal")
        for presses in ("constant", "jittered")
        for path in ("straight", "bent")
        for seed in range(seeds)
    ]


def frames(events: list[Event], period: float = 1000.0 / 60.0) -> list[Event]:
    """``events`` as a page that kept one move a frame would send them: the last move of
    each frame, and every press and release (flushing the move before it)."""
    out: list[Event] = []
    pending: Event | None = None
    frame = -1
    for event in events:
        if event[1] == "mv":
            at = int(event[0] // period)
            if pending is not None and at != frame:
                out.append(pending)
            pending, frame = event, at
            continue
        if pending is not None:
            out.append(pending)
            pending = None
        out.append(event)
    if pending is not None:
        out.append(pending)
    return out
