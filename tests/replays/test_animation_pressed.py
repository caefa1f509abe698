"""Pressed squares in the replay GIF: what the held buttons press, frame by frame."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

from minesweep.field import Minefield
from minesweep.replays import read
from minesweep.replays.animation import Frame, frames, gif
from minesweep.replays.clicks import analyse_clicks
from minesweep.replays.model import Replay, event_columns
from minesweep.squares import Glyph

from ._oracle import DATA, replay_of

Image = pytest.importorskip("PIL.Image")

SIZE = 16
WHITE = (255, 255, 255)


def buttons_by_hand(replay: Replay) -> list[str]:
    """After each event, what the buttons press: "", "square" or "chord".

    Followed from the raw presses and releases, not from the mouse machine:
    a left button alone presses a square; both buttons, or the middle one, a
    chord; the left button still held after a chord's right button came up
    presses nothing (its release clicks nothing).
    """
    left = right = middle = chorded = False
    found = []
    for event in replay.events:
        kind = event.kind
        if kind == "lc":
            left = True
        elif kind == "lr":
            left = chorded = False
        elif kind == "rc":
            right = True
        elif kind == "rr":
            right = False
        elif kind == "cc":
            left = right = True
        elif kind == "mc":
            middle = True
        elif kind == "mr":
            middle = False
        if (left and right) or middle:
            chorded = True
            found.append("chord")
        elif left and not chorded:
            found.append("square")
        else:
            chorded = chorded and left
            found.append("")
    return found


def expected_frames(replay: Replay) -> list[tuple[int, tuple[int, ...]]]:
    """The events where the view or the pressed squares change, and the pressed squares."""
    analysis = analyse_clicks(replay)
    columns = event_columns(replay)
    rows, cols, px = replay.rows, replay.cols, replay.cell_px
    clicks = analysis.clicks
    view_after = {
        click.event: analysis.views[clicks[n + 1].view if n + 1 < len(clicks) else -1]
        for n, click in enumerate(clicks)
    }
    end = max((n for n, t in enumerate(columns.times) if t <= analysis.end), default=-1)
    held = buttons_by_hand(replay)
    view = analysis.views[0]
    pressed: tuple[int, ...] = ()
    found: list[tuple[int, tuple[int, ...]]] = []
    for event in range(end + 1):
        new_view = view_after.get(event, view)
        x, y = int(columns.xs[event]), int(columns.ys[event])
        squares: tuple[int, ...] = ()
        if held[event] and 0 <= x < cols * px and 0 <= y < rows * px:
            row, col = y // px, x // px
            around = [
                (r, c)
                for r in range(rows)
                for c in range(cols)
                if max(abs(r - row), abs(c - col)) <= (0 if held[event] == "square" else 1)
            ]
            squares = tuple(
                r * cols + c for r, c in around if new_view[r * cols + c] == Glyph.HIDDEN
            )
        if new_view != view or squares != pressed:
            found.append((event, squares))
        view, pressed = new_view, squares
    return found


def decoded(replay: Replay) -> list[Any]:
    """Every frame of the replay's GIF, as an RGB array."""
    image = Image.open(io.BytesIO(gif(replay, size=SIZE)))
    pictures = []
    for n in range(image.n_frames):
        image.seek(n)
        pictures.append(np.asarray(image.convert("RGB")))
    return pictures


def raised(picture: Any, frame: Frame, replay: Replay, square: int) -> bool:
    """Whether ``square`` shows a white bevel, the cursor's arrow left out.

    A raised (hidden) square has white top and left edges; a pressed one is
    drawn as an open 0, grey with dark grid lines, and has none.
    """
    row, col = divmod(square, replay.cols)
    top, left = row * SIZE, col * SIZE
    x, y = frame.x * SIZE / replay.cell_px, frame.y * SIZE / replay.cell_px
    for r in range(top, top + SIZE):
        for c in range(left, left + SIZE):
            under_cursor = x - 1 <= c <= x + 11 and y - 1 <= r <= y + 15
            if not under_cursor and tuple(int(v) for v in picture[r, c]) == WHITE:
                return True
    return False


@pytest.fixture(scope="module")
def small() -> Replay:
    # Mines at (0, 0) and (2, 2); 16-pixel squares on a 3 by 3 board.
    mines = np.zeros((3, 3), np.bool_)
    mines[0, 0] = mines[2, 2] = True
    events = [
        (0, "lc", 8, 40),  # 0: (2, 0) pressed
        (50, "mv", 24, 40),  # 1: the press moves to (2, 1)
        (100, "mv", 60, 40),  # 2: off the board: nothing pressed
        (150, "lr", 60, 40),  # 3: released off the board: nothing opens
        (400, "lc", 40, 8),  # 4: (0, 2) pressed
        (500, "lr", 40, 8),  # 5: it opens, with (0, 1), (1, 1), (1, 2)
        (700, "lc", 40, 24),  # 6: on the open (1, 2): nothing to press
        (750, "rc", 40, 24),  # 7: a chord presses its hidden (2, 1), (2, 2)
        (900, "rr", 40, 24),  # 8: released, no flag around: nothing opens
        (950, "lr", 40, 24),  # 9
        (1200, "mc", 8, 24),  # 10: a middle chord on (1, 0): (0, 0), (1, 0), (2, 0), (2, 1)
        (1300, "mr", 8, 24),  # 11
    ]
    return replay_of(Minefield(mines), events, px=16)


def test_the_pressed_squares_of_a_small_game(small: Replay) -> None:
    plan = frames(small)
    assert [(frame.event, frame.pressed) for frame in plan] == [
        (0, (6,)),
        (1, (7,)),
        (2, ()),
        (4, (2,)),
        (5, ()),
        (7, (7, 8)),
        (8, ()),
        (10, (0, 3, 6, 7)),
        (11, ()),
        (-1, ()),
    ]
    assert plan[4].view != plan[3].view


def test_a_left_press_is_drawn_pressed_then_raised_again(small: Replay) -> None:
    plan, pictures = frames(small), decoded(small)
    # Pressed at (2, 0), moved to (2, 1), moved off, then let go without opening.
    assert not raised(pictures[0], plan[0], small, 6)
    assert raised(pictures[0], plan[0], small, 7)
    assert raised(pictures[1], plan[1], small, 6)
    assert not raised(pictures[1], plan[1], small, 7)
    assert raised(pictures[2], plan[2], small, 6)
    assert raised(pictures[2], plan[2], small, 7)
    assert plan[2].view == bytes([Glyph.HIDDEN] * 9)


def test_a_chord_press_is_drawn_on_the_hidden_neighbours(small: Replay) -> None:
    plan, pictures = frames(small), decoded(small)
    chord, after = plan[5], plan[6]
    for square in (7, 8):
        assert not raised(pictures[5], chord, small, square)
        assert raised(pictures[6], after, small, square)
    assert raised(pictures[5], chord, small, 6)


def test_the_expert_evf_presses_what_its_buttons_hold() -> None:
    replay = read(DATA / "test_subject.evf")
    plan = frames(replay)
    expected = expected_frames(replay)
    assert [(frame.event, frame.pressed) for frame in plan[:-1]] == expected
    assert sum(len(pressed) == 1 for _, pressed in expected) > 10
    assert sum(len(pressed) > 1 for _, pressed in expected) > 10
    # Pixels: every pressed square is flat; a chord's, back to raised after it if still hidden.
    pictures = decoded(replay)
    chords = [n for n, frame in enumerate(plan[:-1]) if len(frame.pressed) > 1]
    for n in chords[:20]:
        frame, following = plan[n], plan[n + 1]
        for square in frame.pressed:
            assert not raised(pictures[n], frame, replay, square)
            if following.view[square] == Glyph.HIDDEN and square not in following.pressed:
                assert raised(pictures[n + 1], following, replay, square)
