"""An independent statement of the LeetCode 529 rule, for property tests.

It is written from the rule's definition, not from minesweep's algorithm: the
revealed set is the least fixed point of "the click is revealed, and every
hidden empty square next to a revealed blank square is revealed", computed by
sweeping the whole board until nothing changes. Slow and obviously right.
"""

from __future__ import annotations

import copy

Board = list[list[str]]


def neighbours(board: Board, row: int, col: int) -> list[tuple[int, int]]:
    rows, cols = len(board), len(board[0])
    return [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if (r, c) != (row, col) and abs(r - row) <= 1 and abs(c - col) <= 1
    ]


def adjacent_mines(board: Board, row: int, col: int) -> int:
    return sum(board[r][c] == "M" for r, c in neighbours(board, row, col))


def reference_update(board: Board, click: tuple[int, int]) -> Board:
    """The board after ``click``, as a new board; ``board`` is left alone."""
    result = copy.deepcopy(board)
    row, col = click
    if board[row][col] == "M":
        result[row][col] = "X"
        return result
    revealed = {(row, col)}
    changed = True
    while changed:
        changed = False
        for r, line in enumerate(board):
            for c, symbol in enumerate(line):
                if symbol != "E" or (r, c) in revealed:
                    continue
                if any(
                    near in revealed and adjacent_mines(board, *near) == 0
                    for near in neighbours(board, r, c)
                ):
                    revealed.add((r, c))
                    changed = True
    for r, c in revealed:
        count = adjacent_mines(board, r, c)
        result[r][c] = str(count) if count else "B"
    return result


# --- The same rule on a minefield with flags, for the array engine -------------

HIDDEN, QUESTIONED, FLAGGED, REVEALED, EXPLODED = range(5)


def reference_reveal(
    mines: list[list[bool]], state: list[list[int]], click: tuple[int, int]
) -> list[list[int]]:
    """The state after revealing ``click`` (hidden or question-marked), as a new grid.

    A flagged square is never revealed and never spreads. Only squares this
    click reveals spread, exactly as in the LeetCode rule.
    """
    rows, cols = len(mines), len(mines[0])

    def around(r: int, c: int) -> list[tuple[int, int]]:
        return [
            (rr, cc)
            for rr in range(rows)
            for cc in range(cols)
            if (rr, cc) != (r, c) and abs(rr - r) <= 1 and abs(cc - c) <= 1
        ]

    def count(r: int, c: int) -> int:
        return sum(mines[rr][cc] for rr, cc in around(r, c))

    result = [line[:] for line in state]
    row, col = click
    if mines[row][col]:
        result[row][col] = EXPLODED
        return result
    revealed = {(row, col)}
    changed = True
    while changed:
        changed = False
        for r in range(rows):
            for c in range(cols):
                if state[r][c] not in (HIDDEN, QUESTIONED) or (r, c) in revealed:
                    continue
                if any(p in revealed and count(*p) == 0 for p in around(r, c)):
                    revealed.add((r, c))
                    changed = True
    for r, c in revealed:
        result[r][c] = REVEALED
    return result
