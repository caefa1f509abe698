"""Step 4 for a component too wide to count in one go: forced groups, then pieces.

The counting state holds the numbers open at a step of the order
(:mod:`minesweep.solver._count`). Views met in play stay narrow, but a view
made by clicking safe squares at random scatters numbers all over the
board, and one component can need 20 or more open numbers at once, past
what the compiled state holds. Most such views are full of squares a
single number decides: a number with no mines left to place clears its
other neighbours, one with exactly as many hidden neighbours as mines left
fills them, and each decision can decide the next. Taking those groups out
(they hold no choice) cuts the component into independent *pieces*, each
counted on its own with an order chosen from several starts, and their
counts multiplied back together into the component's.

The counts are the same numbers, counted in another order. Only a
component whose plain order keeps ten or more numbers open at once comes
here (:data:`minesweep.solver.counting.WIDE`); views met in play never
make one, so they keep their counts to the last bit. Internal to the
solver package.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from .errors import ContradictionError
from .exact import blame
from .frontier import Frontier

__all__ = ["ORDER_TRIES", "Forced", "force", "order_tries"]

#: Orders tried for a piece: the plain order, from the far end of that, and
#: from every group as a start, up to this many; the cheapest is counted.
#: The start matters: one expert piece of 116 groups needs 689,000 states
#: from the best of 48 starts and 45,000 from the best of 200, and a greedy
#: order costs microseconds next to a count.
ORDER_TRIES: Final = 256


def order_tries(piece: list[int]) -> int:
    """How many orders to try for ``piece``: a start at every group, within :data:`ORDER_TRIES`."""
    return min(len(piece) + 2, ORDER_TRIES)


@dataclass(frozen=True, slots=True)
class Forced:
    """A component's groups a single number decides, and the pieces the rest form.

    ``mines_in[g]`` is True for a group that is all mines, False for one
    that is all safe (groups not decided are absent); ``targets`` are the
    frontier's targets with those mines taken off; ``pieces`` the undecided
    groups linked through the numbers left, each in ascending order.
    """

    mines_in: dict[int, bool]
    targets: list[int]
    pieces: list[list[int]]


def force(frontier: Frontier, members: list[int]) -> Forced:
    """Decide every group of ``members`` that a number alone decides, again and again.

    ContradictionError when a number can no longer be satisfied.
    """
    groups = frontier.groups
    need = list(frontier.targets)
    groups_of: dict[int, list[int]] = {}
    for index in members:
        for w in groups[index].witnesses:
            groups_of.setdefault(w, []).append(index)
    mines_in: dict[int, bool] = {}
    todo = sorted(groups_of, reverse=True)
    queued = set(todo)
    while todo:
        w = todo.pop()
        queued.discard(w)
        undecided = [index for index in groups_of[w] if index not in mines_in]
        room = sum(groups[index].size for index in undecided)
        if need[w] < 0 or need[w] > room:
            raise ContradictionError(functools.partial(blame, frontier, members))
        if not undecided or 0 < need[w] < room:
            continue
        full = need[w] == room
        for index in undecided:
            mines_in[index] = full
            for other in groups[index].witnesses:
                if full:
                    need[other] -= groups[index].size
                if other not in queued:
                    queued.add(other)
                    todo.append(other)
    return Forced(mines_in, need, _pieces(frontier, members, mines_in, groups_of))


def _pieces(
    frontier: Frontier,
    members: list[int],
    decided: dict[int, bool],
    groups_of: dict[int, list[int]],
) -> list[list[int]]:
    """The undecided groups, linked through the numbers they share."""
    groups = frontier.groups
    done = set(decided)
    pieces = []
    for start in members:
        if start in done:
            continue
        done.add(start)
        piece = [start]
        todo = [start]
        while todo:
            for w in groups[todo.pop()].witnesses:
                for other in groups_of[w]:
                    if other not in done:
                        done.add(other)
                        piece.append(other)
                        todo.append(other)
        piece.sort()
        pieces.append(piece)
    return pieces
