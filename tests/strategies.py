"""Hypothesis strategies shared by the tests."""

from __future__ import annotations

from hypothesis import strategies as st

Board = list[list[str]]

# Pools of symbols to draw cells from: the share of "M" sets the mine density.
# "E" comes first so that Hypothesis shrinks a failing board towards all E.
_POOLS = [
    "E",
    "E" * 19 + "M",
    "E" * 6 + "M",
    "EEEEEEEMMM",
    "EEMM",
    "EMMMM",
]


@st.composite
def boards(
    draw: st.DrawFn,
    *,
    max_rows: int = 12,
    max_cols: int = 12,
    revealed: bool = True,
) -> Board:
    """A rectangular board of M and E, with revealed symbols sprinkled in.

    The revealed symbols need not agree with the mines: update_board does not
    check consistency, and the rule is defined on any such board.
    """
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    pool = draw(st.sampled_from(_POOLS))
    if revealed and draw(st.booleans()):
        pool += "B12345678"
    cell = st.sampled_from(pool)
    return [draw(st.lists(cell, min_size=cols, max_size=cols)) for _ in range(rows)]


@st.composite
def boards_and_clicks(
    draw: st.DrawFn, *, max_rows: int = 12, max_cols: int = 12, revealed: bool = True
) -> tuple[Board, tuple[int, int]]:
    """A board and a click on one of its hidden squares (M or E)."""
    board = draw(boards(max_rows=max_rows, max_cols=max_cols, revealed=revealed))
    hidden = [
        (r, c) for r, row in enumerate(board) for c, symbol in enumerate(row) if symbol in "ME"
    ]
    if not hidden:
        board[0][0] = "E"
        hidden = [(0, 0)]
    return board, draw(st.sampled_from(hidden))


@st.composite
def positions(
    draw: st.DrawFn, *, max_rows: int = 12, max_cols: int = 12
) -> tuple[list[list[bool]], list[list[int]], tuple[int, int]]:
    """A mine layout, a state over it (flags and question marks included) and a
    click on a hidden or question-marked square.

    States are drawn freely, not only as play would leave them: the reveal rule
    is defined on any of them. Revealed squares hold no mine.
    """
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    density = draw(st.sampled_from([0.0, 0.05, 0.12, 0.2, 0.4]))
    marks = draw(st.sampled_from([(0.0, 0.0, 0.0), (0.1, 0.0, 0.0), (0.05, 0.05, 0.1)]))
    unit = st.floats(0, 1, allow_nan=False, allow_infinity=False)
    rolls = draw(st.lists(unit, min_size=rows * cols * 2, max_size=rows * cols * 2))
    mines = [[rolls[r * cols + c] < density for c in range(cols)] for r in range(rows)]
    flag_rate, question_rate, reveal_rate = marks
    state = []
    for r in range(rows):
        line = []
        for c in range(cols):
            roll = rolls[rows * cols + r * cols + c]
            if roll < flag_rate:
                line.append(2)  # FLAGGED
            elif roll < flag_rate + question_rate:
                line.append(1)  # QUESTIONED
            elif roll < flag_rate + question_rate + reveal_rate and not mines[r][c]:
                line.append(3)  # REVEALED
            else:
                line.append(0)  # HIDDEN
        state.append(line)
    openable = [(r, c) for r in range(rows) for c in range(cols) if state[r][c] in (0, 1)]
    if not openable:
        state[0][0] = 0
        openable = [(0, 0)]
    return mines, state, draw(st.sampled_from(openable))
