"""Reference implementations that the benchmarks measure minesweep against.

``seed_bfs`` follows the breadth-first solution the LeetCode 529 write-ups in
``shared/seeds`` describe: a deque of squares, a visited set of coordinates,
and a generator that counts the mines among the eight neighbours. It does no
input checking at all. It is written here from that description, in the
style those solutions use, so that "faster than the published solutions"
means faster than this.
"""

from __future__ import annotations

import collections

_DIRECTIONS = [(0, 1), (0, -1), (-1, 0), (-1, -1), (-1, 1), (1, -1), (1, 0), (1, 1)]


def seed_bfs(board: list[list[str]], click: list[int]) -> list[list[str]]:
    rows, cols = len(board), len(board[0])
    r0, c0 = click[0], click[1]
    if board[r0][c0] == "M":
        board[r0][c0] = "X"
        return board
    queue = collections.deque([(r0, c0)])
    visited = {(r0, c0)}
    while queue:
        r, c = queue.popleft()
        count = sum(
            board[r + dr][c + dc] == "M"
            for dr, dc in _DIRECTIONS
            if 0 <= r + dr < rows and 0 <= c + dc < cols
        )
        if count:
            board[r][c] = str(count)
            continue
        board[r][c] = "B"
        for dr, dc in _DIRECTIONS:
            nr, nc = r + dr, c + dc
            if (
                0 <= nr < rows
                and 0 <= nc < cols
                and board[nr][nc] == "E"
                and (nr, nc) not in visited
            ):
                visited.add((nr, nc))
                queue.append((nr, nc))
    return board
