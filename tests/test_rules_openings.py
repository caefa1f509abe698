"""The rules the replay machine shares with the engines: openings (3BV) and a chord's targets."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minesweep import _jit
from minesweep.grid import adjacent_counts
from minesweep.rules import entry
from minesweep.rules.chord import chord_targets
from minesweep.rules.openings import openings_of
from minesweep.squares import GLYPH_FLAG, GLYPH_HIDDEN, GLYPH_QUESTION

boards = st.integers(1, 9).flatmap(
    lambda rows: st.integers(1, 9).flatmap(
        lambda cols: hnp.arrays(
            np.bool_, (rows, cols), elements=st.sampled_from([False, False, False, True])
        )
    )
)


def reference_groups(mask: np.ndarray) -> tuple[np.ndarray, int]:
    """Groups (eight neighbours) of a mask, numbered in row-major order of their first square."""
    rows, cols = mask.shape
    labels = np.zeros(mask.shape, np.int64)
    count = 0
    for start in zip(*np.nonzero(mask), strict=True):
        if labels[start]:
            continue
        count += 1
        labels[start] = count
        pending = [start]
        while pending:
            r, c = pending.pop()
            for y in range(max(r - 1, 0), min(r + 2, rows)):
                for x in range(max(c - 1, 0), min(c + 2, cols)):
                    if mask[y, x] and not labels[y, x]:
                        labels[y, x] = count
                        pending.append((y, x))
    return labels, count


@given(boards)
def test_openings_lone_numbers_and_islands_follow_their_definitions(mines: np.ndarray) -> None:
    numbers = adjacent_counts(mines)
    blank = ~mines & (numbers == 0)
    labels, openings = reference_groups(blank)
    rows, cols = mines.shape
    first = labels.copy()
    second = np.zeros_like(labels)
    for r in range(rows):
        for c in range(cols):
            if mines[r, c] or blank[r, c]:
                continue
            near = sorted(
                {
                    int(labels[y, x])
                    for y in range(max(r - 1, 0), min(r + 2, rows))
                    for x in range(max(c - 1, 0), min(c + 2, cols))
                    if labels[y, x]
                }
            )
            first[r, c] = near[0] if near else 0
            second[r, c] = near[1] if len(near) > 1 else 0
    lone = ~mines & (first == 0)
    for how in (_jit.compiling, _jit.interpreting):
        with how():
            found = entry(openings_of)(numbers, mines, True)
        assert found.openings == openings
        assert (found.opening == first).all()
        assert (found.second == second).all()
        assert (found.lone == lone).all()
        assert found.lone_count == int(lone.sum())
        assert found.islands == reference_groups(lone)[1]


views = st.integers(1, 5).flatmap(
    lambda rows: st.integers(1, 5).flatmap(
        lambda cols: hnp.arrays(
            np.uint8,
            (rows, cols),
            elements=st.sampled_from(
                [0, 1, 2, 3, 8, GLYPH_HIDDEN, GLYPH_HIDDEN, GLYPH_FLAG, GLYPH_QUESTION]
            ),
        )
    )
)


@given(views, st.data())
def test_a_chords_targets_are_its_hidden_neighbours_when_it_is_ready(
    view: np.ndarray, data: st.DataObject
) -> None:
    rows, cols = view.shape
    row, col = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    box = view[max(row - 1, 0) : row + 2, max(col - 1, 0) : col + 2]
    number = int(view[row, col])
    for question_marks in (False, True):
        shut = (GLYPH_HIDDEN, GLYPH_QUESTION) if question_marks else (GLYPH_HIDDEN,)
        hidden = [
            y * cols + x
            for y in range(max(row - 1, 0), min(row + 2, rows))
            for x in range(max(col - 1, 0), min(col + 2, cols))
            if view[y, x] in shut
        ]
        for how in (_jit.compiling, _jit.interpreting):
            with how():
                for lowest in (0, 1):
                    targets = np.zeros(9, np.int64)
                    count = entry(chord_targets)(view, row, col, lowest, question_marks, targets)
                    flags = int((box == GLYPH_FLAG).sum())
                    ready = lowest <= number <= 8 and flags == number and hidden
                    assert count == (len(hidden) if ready else 0)
                    assert targets[:count].tolist() == (hidden if ready else [])
