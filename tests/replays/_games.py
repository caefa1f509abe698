"""Random plausible replays for the property tests: boards, and mouse events a player might make.

A game is made of gestures (a move, a left click, a flag, a chord begun with
either button, a middle chord, a drag off the board ...), each written as
the events a real mouse gives, with times in whole milliseconds. Targets
lean towards safe squares for left clicks and mines for flags, so that games
last; the odd gesture lands off the board, where ms-toollib's sentinel is.
"""

from __future__ import annotations

import random

import numpy as np

from minesweep.field import Minefield

Event = tuple[int, str, int, int]

SHAPES = ((8, 8, 10), (16, 16, 40), (16, 30, 99), (9, 9, 10), (5, 7, 6), (3, 3, 1), (4, 12, 9))
PIXELS = (16, 16, 24, 30, 20)

#: A won 9x9 game with 10 mines (minesweep's own beginner, where STNB is
#: undefined): a wall of mines down column 4 and one more, and an opening on
#: each side, clicked 2 s apart (16-pixel squares).
NINE_MINES = np.zeros((9, 9), np.bool_)
NINE_MINES[:, 4] = NINE_MINES[8, 0] = True
NINE_EVENTS: list[Event] = [
    (0, "lc", 8, 8), (100, "lr", 8, 8), (2000, "lc", 136, 8), (2100, "lr", 136, 8),
]  # fmt: skip


def random_field(rng: random.Random) -> Minefield:
    rows, cols, mines = rng.choice(SHAPES)
    if rng.random() < 0.3:
        rows, cols = rng.randint(2, 10), rng.randint(2, 14)
        mines = rng.randint(1, max(1, rows * cols // 4))
    cells = rng.sample(range(rows * cols), mines)
    mask = np.zeros(rows * cols, np.bool_)
    mask[cells] = True
    return Minefield(mask.reshape(rows, cols))


def random_game(rng: random.Random, field: Minefield, px: int) -> list[Event]:
    rows, cols = field.shape
    mines: list[tuple[int, int]] = [(r, c) for r, c in np.argwhere(field.mines).tolist()]
    safe: list[tuple[int, int]] = [(r, c) for r, c in np.argwhere(~field.mines).tolist()]
    width, height = cols * px, rows * px
    events: list[Event] = []
    clock = 0

    def tick() -> int:
        nonlocal clock
        clock += rng.choice((0, 0, 1, 3, 8, 15, 40, 120))
        return clock

    def pixel(square: tuple[int, int] | None) -> tuple[int, int]:
        if square is None:
            # ms-toollib's off-board sentinel square, anywhere inside it.
            return width + rng.randrange(px), height + rng.randrange(px)
        row, col = square
        return col * px + rng.randrange(px), row * px + rng.randrange(px)

    def target(prefer: list[tuple[int, int]]) -> tuple[int, int] | None:
        roll = rng.random()
        if roll < 0.04:
            return None
        if roll < 0.75 and prefer:
            return rng.choice(prefer)
        return (rng.randrange(rows), rng.randrange(cols))

    def emit(kind: str, square: tuple[int, int] | None) -> None:
        x, y = pixel(square)
        events.append((tick(), kind, x, y))

    square: tuple[int, int] | None
    # Pre-flags as Metasweeper writes them, before any other event.
    if rng.random() < 0.2:
        for mine in rng.sample(mines, min(len(mines), rng.randint(1, 3))):
            emit("pf", mine)
    numbers = field.numbers
    started = False
    for _ in range(rng.randint(1, 60)):
        gesture = rng.random()
        if started and gesture < 0.06:
            # EVF's press-or-release toggles, once the game is on (before it,
            # ms-toollib aborts on them).
            square = rng.choice(safe)
            button = rng.choice("lrm")  # the toggles need squares on the board
            emit("mv", square)
            emit(button, square)
            if button != "m" and rng.random() < 0.3:
                emit("cc" if rng.random() < 0.5 else ("r" if button == "l" else "l"), square)
                emit("l", square)
                emit("r", square)
            else:
                emit(button, square)
        elif gesture < 0.15:
            # A move, sometimes off the board on one axis only (path counts those).
            x = rng.randrange(-5, width + 40)
            y = rng.randrange(-5, height + 40)
            events.append((tick(), "mv", max(x, 0), max(y, 0)))
        elif gesture < 0.50:
            square = target(safe)
            emit("mv", square)
            emit("lc", square)
            if rng.random() < 0.1:
                square = target(safe)  # a drag: released elsewhere
                emit("mv", square)
            emit("lr", square)
            started = started or (square is not None and not field.mines[square])
        elif gesture < 0.60:
            # Flag the mines around a safe square, then chord it: effective chords.
            square = rng.choice(safe)
            row, col = square
            for r in range(max(row - 1, 0), min(row + 2, rows)):
                for c in range(max(col - 1, 0), min(col + 2, cols)):
                    if field.mines[r, c] and rng.random() < 0.9:
                        emit("mv", (r, c))
                        emit("rc", (r, c))
                        emit("rr", (r, c))
            emit("mv", square)
            emit("lc" if numbers[square] or rng.random() < 0.5 else "rc", square)
            emit("rc" if events[-1][1] == "lc" else "lc", square)
            emit("rr", square)
            emit("lr", square)
        elif gesture < 0.70:
            square = target(mines)
            emit("mv", square)
            emit("rc", square)
            emit("rr", square)
        elif gesture < 0.93:
            square = target(safe)
            emit("mv", square)
            right_first = rng.random() < 0.5
            emit("rc" if right_first else "lc", square)
            # Metasweeper writes "cc" for the second button of a chord.
            second = "cc" if rng.random() < 0.3 else ("lc" if right_first else "rc")
            emit(second, square)
            if rng.random() < 0.1:
                square = target(safe)
                emit("mv", square)
            first_up, second_up = ("lr", "rr") if rng.random() < 0.5 else ("rr", "lr")
            emit(first_up, square)
            emit(second_up, square)
        else:
            square = (rng.randrange(rows), rng.randrange(cols))
            emit("mv", square)
            emit("mc", square)
            emit("mr", square)
    return events
