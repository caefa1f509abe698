"""RawVF's event lines, decoded in one pass, against a reader of one line at a time.

The reference below is the reader as it was before (issue 48): strip each
line, match it at its start, convert its numbers one by one. The fast
reader must find the same events, in the same order, with the same times,
kinds and positions, on any text: random lines of events, other events,
junk, spaces and tabs, CRLF and CR line ends.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweep.replays._common import shift_chord_kinds
from minesweep.replays.model import ReplayError
from minesweep.replays.rawvf import read_rawvf

_REFERENCE = re.compile(
    r"(?P<time>-?\d+(?:\.\d*)?)\s+(?P<kind>[a-z]+)(?:\s+-?\d+\s+-?\d+)?\s*"
    r"\(\s*(?P<x>-?\d+)\s+(?P<y>-?\d+)\s*\)"
)
_KINDS = {"mv", "lc", "lr", "rc", "rr", "mc", "mr", "pf", "cc", "l", "r", "m", "sc"}
HEAD = "RawVF_Version: Rev6\nWidth: 3\nHeight: 2\nMines: 1\nBoard:\n*00\n000\nEvents:\n"


def reference(text: str) -> list[tuple[int, str, int, int]]:
    """The events of ``text``'s lines after the board, one line at a time."""
    lines = text.splitlines()[7:]
    found = []
    for line in lines:
        match = _REFERENCE.match(line.strip())
        if match is None or match["kind"] not in _KINDS:
            continue
        found.append(
            (round(float(match["time"]) * 1000), match["kind"], int(match["x"]), int(match["y"]))
        )
    kinds = shift_chord_kinds([kind for _, kind, _, _ in found])
    return [(t, k, x, y) for (t, _, x, y), k in zip(found, kinds, strict=True)]


def ours(text: str) -> list[tuple[int, str, int, int]]:
    replay = read_rawvf(text.encode(), "x.rawvf")
    return [(round(e.time * 1000), e.kind, e.x, e.y) for e in replay.events]


_SPACE = st.sampled_from([" ", "  ", "\t", " \t "])
_GAP = st.sampled_from(["", " ", "\t"])


@st.composite
def event_line(draw: st.DrawFn, time: int) -> str:
    kind = draw(st.sampled_from([*sorted(_KINDS), "start", "won", "blast", "xx"]))
    # Two decimals only where exact, so that the times never go back.
    short = time % 10 == 0 and draw(st.booleans())
    seconds = f"{time / 1000:.2f}" if short else f"{time / 1000:.3f}"
    cell = draw(st.one_of(st.just(""), st.tuples(st.integers(1, 30), st.integers(1, 16)).map(
        lambda c: f" {c[0]} {c[1]}")))  # fmt: skip
    x, y = draw(st.integers(-5, 500)), draw(st.integers(-5, 300))
    return (
        f"{draw(_GAP)}{seconds}{draw(_SPACE)}{kind}{cell}{draw(_GAP)}({draw(_GAP)}{x}"
        f"{draw(_SPACE)}{y}{draw(_GAP)}){draw(st.sampled_from(['', ' ', ' junk']))}"
    )


@st.composite
def rawvf_text(draw: st.DrawFn) -> str:
    steps = draw(st.lists(st.integers(0, 400), min_size=1, max_size=40))  # ms between events
    lines = []
    for time in np.cumsum(steps).tolist():
        lines.append(draw(event_line(time)))
        if draw(st.integers(0, 9)) == 0:
            lines.append(draw(st.sampled_from(["", "   ", "Events:", "0.5", "lc 1 1 (1 1)",
                                               "Board events:", "1.0 mv (2"])))  # fmt: skip
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return HEAD.replace("\n", end) + end.join(lines) + end


@settings(max_examples=200, deadline=None)
@given(rawvf_text())
def test_one_pass_equals_line_by_line(text: str) -> None:
    assert ours(text) == reference(text)


def test_an_event_never_spans_two_lines() -> None:
    # "0.5" then "lc 1 1 (1 1)" on the next line is no event: the pass
    # matches spaces, never a line break, between an event's parts.
    text = HEAD + "0.5\nlc 1 1 (17 17)\n1.0 lc 1 1 (17 17)\n"
    assert ours(text) == reference(text) == [(1000, "lc", 17, 17)]


def test_a_time_going_back_names_its_line() -> None:
    text = HEAD + "0.010 lc 1 1 (17 17)\nstart\n0.020 lr 1 1 (17 17)\n0.015 mv 1 1 (18 17)\n"
    with pytest.raises(ReplayError) as error:
        ours(text)
    assert str(error.value) == (
        "x.rawvf: line 12: event 3 is at 15 ms, before the previous event (20 ms)"
    )


def test_numbers_too_big_are_errors_not_crashes() -> None:
    with pytest.raises(ReplayError, match=r"line 9: event 1 is at 1e\+20 s"):
        ours(HEAD + "100000000000000000000 lc 1 1 (17 17)\n")
    with pytest.raises(ReplayError, match="position is out of range"):
        ours(HEAD + "0.5 lc 1 1 (99999999999999999999999 17)\n")
