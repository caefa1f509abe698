"""The rules both engines share: the one-board engine asks the vector engine's kernels.

The one-board engine calls the rules of :mod:`minesweep.rules` as plain
Python (a chord's box, a right click, the first-click box) or through tables
made from them (the end views); these tests hold each to the compiled kernel
the vector engine runs, on every input or on random positions with question
marks, which only the one-board engine has.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minesweep import ActionKind, Minefield, _jit
from minesweep.actions import GameStatus
from minesweep.generate import _cleared_squares
from minesweep.moves import chord_targets, toggled_mark, view_of
from minesweep.presets import FirstClickRule
from minesweep.rules import entry, kernel
from minesweep.rules.chord import chord_order
from minesweep.rules.chord import chord_targets as chord_rule
from minesweep.rules.codes import rule_code
from minesweep.rules.ends import LOSS_GLYPHS, WIN_GLYPHS, loss_glyph, show_loss, win_glyph
from minesweep.rules.first_click import cleared_box
from minesweep.rules.marks import toggled
from minesweep.squares import STATE_EXPLODED, CellState, Glyph


@kernel(cache=False, part="vector")
def _chord(
    view: Any, mines: Any, state: Any, row: Any, col: Any, question_marks: Any, order: Any
) -> Any:  # pragma: no cover - compiled
    # The compiled rules as the vector engine inlines them, question marks given.
    if not chord_rule(view, row, col, 1, question_marks, np.empty(9, np.int64)):
        return -1, False
    return chord_order(mines, state, row, col, order)


@kernel(cache=False, part="vector")
def _ends(mine: Any, glyph: Any) -> Any:  # pragma: no cover - compiled
    return loss_glyph(mine, glyph), win_glyph(mine, glyph)


@kernel(cache=False, part="vector")
def _toggled(state: Any, question_marks: Any) -> Any:  # pragma: no cover - compiled
    return toggled(state, question_marks)


@kernel(cache=False, part="vector")
def _box(rows: Any, cols: Any, row: Any, col: Any, rule: Any) -> Any:  # pragma: no cover - compiled
    return cleared_box(rows, cols, row, col, rule)


def test_the_end_views_tables_are_the_compiled_rules_on_every_square() -> None:
    with _jit.compiling():
        for mine in (False, True):
            for glyph in range(max(Glyph) + 1):
                lost, won = entry(_ends)(mine, glyph)
                index = int(mine) << 4 | glyph
                assert (LOSS_GLYPHS[index], WIN_GLYPHS[index]) == (lost, won)


@given(st.sampled_from(list(CellState)), st.booleans())
def test_a_right_click_is_the_compiled_toggle(state: CellState, question_marks: bool) -> None:
    with _jit.compiling():
        target = int(entry(_toggled)(np.uint8(state), question_marks))
    kind = toggled_mark(int(state), question_marks=question_marks)
    marks = {ActionKind.FLAG: CellState.FLAGGED, ActionKind.QUESTION: CellState.QUESTIONED}
    if target == state:  # no mark changes: a wasted unflag
        assert kind is ActionKind.UNFLAG
    else:
        assert marks.get(kind, CellState.HIDDEN) == target


@given(
    mines=hnp.arrays(np.bool_, st.tuples(st.integers(1, 5), st.integers(1, 5))),
    marks=st.data(),
)
def test_a_chord_opens_what_the_compiled_chord_opens(
    mines: np.ndarray, marks: st.DataObject
) -> None:
    # Any position: squares revealed, flagged, question-marked or hidden at random.
    field = Minefield(mines)
    rows, cols = mines.shape
    states = [CellState.HIDDEN, CellState.QUESTIONED, CellState.FLAGGED, CellState.REVEALED]
    state = marks.draw(hnp.arrays(np.uint8, mines.shape, elements=st.sampled_from(states)))
    state[(state == CellState.REVEALED) & mines] = CellState.HIDDEN
    view = view_of(state, field.numbers, field.mines, GameStatus.PLAYING)
    for row in range(rows):
        for col in range(cols):
            order = np.empty(9, np.int64)
            with _jit.compiling():
                safe, exploded = entry(_chord)(view, mines, state, row, col, True, order)
            expected = [] if safe < 0 else order[: safe + exploded].tolist()
            targets = chord_targets(state, field.numbers, mines, row, col)
            assert [r * cols + c for r, c in targets] == expected


@given(
    st.integers(1, 6),
    st.integers(1, 6),
    st.data(),
    st.sampled_from(list(FirstClickRule)),
)
def test_the_first_click_box_is_the_compiled_box(
    rows: int, cols: int, data: st.DataObject, rule: FirstClickRule
) -> None:
    row, col = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    with _jit.compiling():
        top, bottom, left, right = entry(_box)(rows, cols, row, col, rule_code(rule))
    box = [r * cols + c for r in range(top, bottom + 1) for c in range(left, right + 1)]
    assert _cleared_squares(rows, cols, (row, col), rule).tolist() == box


def test_a_lost_view_is_the_compiled_loss() -> None:
    # The vector engine writes a loss into its view; the game derives it from its states.
    field = Minefield.from_text("*.*\n.*.\n..*\n")
    flagged, questioned = CellState.FLAGGED, CellState.QUESTIONED
    hidden, revealed = CellState.HIDDEN, CellState.REVEALED
    state = np.array(
        [[flagged, revealed, questioned], [flagged, hidden, hidden], [revealed, revealed, hidden]],
        np.uint8,
    )
    view = view_of(state, field.numbers, field.mines, GameStatus.PLAYING)
    with _jit.compiling():
        entry(show_loss)(field.mines, state.copy(), view, 1, 1)
    state[1, 1] = STATE_EXPLODED
    lost = view_of(state, field.numbers, field.mines, GameStatus.LOST)
    assert view.tolist() == lost.tolist()
    assert lost.tolist() == [[10, 3, 12], [14, 13, 9], [1, 2, 12]]
