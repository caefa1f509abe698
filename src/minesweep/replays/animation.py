"""A replay as an animation: the board after every event that changed what it shows.

:func:`frames` plans the animation without any imaging library: one
:class:`Frame` an event that changed what a player sees (an opening, a chord,
a flag put or taken away, a square pressed or let go), with the cursor where
the mouse was at that event and a caption (player, time, 3BV solved, 3BV/s),
then one last frame: the final board as :func:`.drawing.picture` shows it
(every mine flagged after a win, the mines shown after a loss, nothing
pressed). Each frame lasts until the next change, as in the original,
divided by ``speed``; a pause longer than ``cap`` seconds is cut to ``cap``.
GIF times are in hundredths of a second: the frames' ends are
rounded on the replay's clock, so that the rounding does not add up, and each
frame lasts at least :data:`MIN_FRAME_MS` (browsers slow down shorter ones).

:func:`animation` draws the frames with Pillow (the ``pictures`` extra:
``pip install 'minesweep[pictures]'``): rectangles with bevelled edges for
hidden squares, numbers in the classic colours, flags and mines as simple
shapes, on one fixed palette. It then writes them as a GIF (:func:`gif`),
an animated PNG or a lossless animated WebP (:data:`FORMATS`): one plan, one
drawing, three writers, so that the three show the same pixels for the same
times. Pillow is imported inside :func:`animation` only: neither the core nor
``import minesweep.replays`` loads it.

Pressed squares are the mouse machine's (:func:`.clicks.analyse_with_buttons`,
asked for only here): a left button held presses the hidden square under the
cursor, a chord (both buttons, or the middle one) the hidden squares of the
3 by 3 around it, drawn flat like an open 0, as Minesweeper Arbiter and
Viennasweeper draw them. A move while a button is held makes a frame only
when the pressed squares change; a move alone does not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal, get_args

import numpy as np

from ..errors import SettingsError
from ..squares import GLYPH_EXPLODED, GLYPH_FLAG, GLYPH_HIDDEN, GLYPH_MINE, GLYPH_WRONG_FLAG
from .clicks import Held, analyse_with_buttons
from .model import Replay, event_columns
from .stats import replay_stats

if TYPE_CHECKING:
    from pathlib import Path

__all__ = [
    "DEFAULT_CAP",
    "FINAL_HOLD_MS",
    "FORMATS",
    "MIN_FRAME_MS",
    "NUMBER_COLOURS",
    "AnimationFormat",
    "Frame",
    "animation",
    "frames",
    "gif",
    "save_animation",
    "save_gif",
]

#: The longest pause shown, in seconds of the replay (before ``speed``).
DEFAULT_CAP = 2.0
#: How long the final board is held before the animation starts again.
FINAL_HOLD_MS = 3000
#: The shortest frame: browsers show frames under 20 ms for 100 ms.
MIN_FRAME_MS = 20

#: The files an animation is written as: GIF, animated PNG, animated WebP.
AnimationFormat = Literal["gif", "apng", "webp"]
FORMATS: Final[tuple[AnimationFormat, ...]] = get_args(AnimationFormat)
#: Pillow's options for each format. The GIF stores in each frame only the
#: rectangle that changed (``optimize``, kept under ``disposal=1``); Pillow's APNG
#: writer does so by itself. The WebP is lossless, so that every format shows
#: the very pixels drawn, and its frames' times are milliseconds, as APNG's are
#: (GIF's are hundredths, which :func:`frames` already rounds to).
_WRITERS: Final[Mapping[str, Mapping[str, object]]] = MappingProxyType(
    {
        "gif": MappingProxyType({"format": "GIF", "optimize": True, "disposal": 1}),
        "apng": MappingProxyType({"format": "PNG"}),
        "webp": MappingProxyType({"format": "WEBP", "lossless": True}),
    }
)


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of the animation.

    ``event`` is the index of the event that changed the board (-1 for the
    final frame); ``view`` the board after it, ``rows * cols`` bytes in
    the core's glyphs; ``x``/``y`` the cursor in the replay's pixels;
    ``time`` seconds since the game's start (negative for a pre-flag);
    ``solved`` the 3BV solved by then; ``duration_ms`` how long it is shown;
    ``pressed`` the hidden squares the held buttons press down, as flat
    indices into ``view`` (see :class:`.clicks.Held`; none in the final frame);
    ``cut`` the seconds of the replay that the cap took off the pause after
    this frame (0 where it was not capped), so that a caller can say so.
    """

    event: int
    view: bytes
    x: int
    y: int
    time: float
    solved: int
    duration_ms: int
    pressed: tuple[int, ...] = ()
    cut: float = 0.0


def frames(replay: Replay, *, speed: float = 1.0, cap: float = DEFAULT_CAP) -> list[Frame]:
    """The frames of ``replay``'s animation (see the module's documentation)."""
    if not speed > 0 or speed == float("inf"):
        raise SettingsError(f"speed must be a positive number, got {speed!r}")
    if not cap > 0:
        raise SettingsError(f"cap must be a positive number of seconds, got {cap!r}")
    analysis, found, held = analyse_with_buttons(replay)
    columns = event_columns(replay)
    views = analysis.views
    clicks = analysis.clicks
    # A click's view is the board before it: the board after a click is the
    # next click's view (or the last one).
    after_click: dict[int, tuple[int, int]] = {}  # event: view index, 3BV solved by then
    solved = 0
    for n, click in enumerate(clicks):
        solved += click.solved
        after_click[click.event] = (
            clicks[n + 1].view if n + 1 < len(clicks) else len(views) - 1,
            solved,
        )
    # The machine ignores the events after the game's end: so do the frames.
    last = found.end_at if found.end_at >= 0 else len(columns.codes) - 1
    board = (analysis.rows, analysis.cols, replay.cell_px)
    changes: list[tuple[int, bytes, tuple[int, ...], int]] = []  # event, view, pressed, solved
    view, count = views[0], 0
    pressed: tuple[int, ...] = ()
    for event in range(last + 1):
        shown, was, index = view, pressed, after_click.get(event)
        if index is not None:
            view, count = views[index[0]], index[1]
        pressed = _pressed(
            Held(held[event]), int(columns.xs[event]), int(columns.ys[event]), view, board
        )
        if view != shown or pressed != was:
            changes.append((event, view, pressed, count))
    times = [float(columns.times[event]) - analysis.start for event, _, _, _ in changes]
    end = analysis.end - analysis.start
    # The frames' ends on the replay's clock: each pause capped, then scaled.
    ends: list[float] = []
    cuts: list[float] = []
    clock = 0.0
    for n in range(len(changes)):
        following = times[n + 1] if n + 1 < len(changes) else end
        pause = max(following - times[n], 0.0)
        clock += min(pause, cap) / speed
        ends.append(clock)
        cuts.append(max(pause - cap, 0.0))
    durations: list[int] = []
    done = 0  # milliseconds, in whole hundredths
    for target in ends:
        finish = max(round(target * 100) * 10, done + MIN_FRAME_MS)
        durations.append(finish - done)
        done = finish
    result = [
        Frame(
            event=event,
            view=shown_view,
            x=int(columns.xs[event]),
            y=int(columns.ys[event]),
            time=times[n],
            solved=count,
            duration_ms=durations[n],
            pressed=squares,
            cut=cuts[n],
        )
        for n, (event, shown_view, squares, count) in enumerate(changes)
    ]
    last_x, last_y = (result[-1].x, result[-1].y) if result else (-1, -1)
    result.append(
        Frame(
            event=-1,
            view=_final_view(replay, views[-1], analysis.won, analysis.lost),
            x=last_x,
            y=last_y,
            time=max(end, 0.0),
            solved=analysis.bbbv_solved,
            duration_ms=FINAL_HOLD_MS,
        )
    )
    return result


def _pressed(
    held: Held, x: int, y: int, view: bytes, board: tuple[int, int, int]
) -> tuple[int, ...]:
    """The hidden squares ``held`` presses with the cursor at ``(x, y)``: flat indices, in order."""
    rows, cols, px = board
    if held is Held.NOTHING or not (0 <= x < cols * px and 0 <= y < rows * px):
        return ()
    row, col = y // px, x // px
    reach = 0 if held is Held.SQUARE else 1
    return tuple(
        k
        for r in range(max(row - reach, 0), min(row + reach + 1, rows))
        for c in range(max(col - reach, 0), min(col + reach + 1, cols))
        if view[k := r * cols + c] == GLYPH_HIDDEN
    )


def _final_view(replay: Replay, last: bytes, won: bool, lost: bool) -> bytes:
    """The last view with every mine flagged after a win, the mines shown after a loss."""
    view = np.frombuffer(last, np.uint8).copy()
    mines = replay.field.mines.reshape(-1)
    hidden_mines = mines & (view == GLYPH_HIDDEN)
    if won:
        view[hidden_mines] = GLYPH_FLAG
    elif lost:
        view[hidden_mines] = GLYPH_MINE
    return view.tobytes()


# --- drawing (Pillow) -------------------------------------------------------------------

#: The palette, by index: the classic Windows colours.
_PALETTE = (
    (0xC0, 0xC0, 0xC0),  # 0 the squares' grey
    (0xFF, 0xFF, 0xFF),  # 1 white: light edges, the cursor
    (0x80, 0x80, 0x80),  # 2 dark grey: dark edges, grid, 8
    (0x00, 0x00, 0x00),  # 3 black: mines, 7, text
    (0xFF, 0x00, 0x00),  # 4 red: flags, 3, the exploded square
    (0x00, 0x00, 0xFF),  # 5 blue: 1
    (0x00, 0x80, 0x00),  # 6 green: 2
    (0x00, 0x00, 0x80),  # 7 navy: 4
    (0x80, 0x00, 0x00),  # 8 maroon: 5
    (0x00, 0x80, 0x80),  # 9 teal: 6
)
_GREY, _WHITE, _DARK, _BLACK, _RED = range(5)
#: The palette index of each number's colour, 1 to 8.
_NUMBER_INDEX = (0, 5, 6, _RED, 7, 8, 9, _BLACK, _DARK)
#: The colour of each number, 1 to 8, as RGB (for tests and documents).
NUMBER_COLOURS = tuple(_PALETTE[index] for index in _NUMBER_INDEX)


def animation(
    replay: Replay,
    form: AnimationFormat = "gif",
    *,
    speed: float = 1.0,
    cap: float = DEFAULT_CAP,
    size: int = 16,
) -> bytes:
    """``replay``'s animation as the bytes of a ``form`` file (see :data:`FORMATS`).

    The frames are :func:`frames`, drawn with ``size``-pixel squares; each
    format only writes them, so that all three show the same pictures for the
    same times. Needs Pillow (``pip install 'minesweep[pictures]'``); without
    it raises ``ModuleNotFoundError`` for ``PIL``. Raises
    :class:`~minesweep.errors.SettingsError` for an unknown ``form``, and for
    ``"webp"`` where Pillow was built without WebP.
    """
    import io

    from PIL import features

    if form not in FORMATS:
        raise SettingsError(f"animation format must be one of {FORMATS!r}, got {form!r}")
    # Pillow's wheels carry libwebp, but a Pillow built from source may not:
    # said before any drawing, in words a user can act on.
    if form == "webp" and not features.check("webp"):
        raise SettingsError(
            "WebP needs Pillow built with libwebp, and this one is not: write a GIF or an APNG"
        )
    if isinstance(size, bool) or not isinstance(size, int) or size < 8:
        raise SettingsError(f"size must be an int of at least 8 pixels, got {size!r}")
    plan = frames(replay, speed=speed, cap=cap)
    images = _draw(replay, plan, size)
    durations = [frame.duration_ms for frame in plan]
    out = io.BytesIO()
    images[0].save(
        out,
        save_all=True,
        append_images=images[1:],
        duration=durations,
        loop=0,
        **_WRITERS[form],
    )
    return out.getvalue()


def gif(
    replay: Replay,
    *,
    speed: float = 1.0,
    cap: float = DEFAULT_CAP,
    size: int = 16,
) -> bytes:
    """``replay``'s animation as GIF bytes: :func:`animation` with ``form="gif"``."""
    return animation(replay, "gif", speed=speed, cap=cap, size=size)


def save_animation(
    replay: Replay,
    path: str | Path,
    form: AnimationFormat = "gif",
    *,
    speed: float = 1.0,
    cap: float = DEFAULT_CAP,
    size: int = 16,
) -> int:
    """Write :func:`animation` to ``path``; return its size in bytes."""
    data = animation(replay, form, speed=speed, cap=cap, size=size)
    with open(path, "wb") as file:
        file.write(data)
    return len(data)


def save_gif(
    replay: Replay,
    path: str | Path,
    *,
    speed: float = 1.0,
    cap: float = DEFAULT_CAP,
    size: int = 16,
) -> int:
    """Write :func:`gif` to ``path``; return its size in bytes."""
    return save_animation(replay, path, "gif", speed=speed, cap=cap, size=size)


def _draw(replay: Replay, plan: list[Frame], size: int) -> list[Any]:
    """The Pillow images of ``plan``'s frames, ``size`` pixels a square, on :data:`_PALETTE`."""
    from PIL import Image, ImageDraw, ImageFont

    rows, cols = replay.field.shape
    analysis_stats = replay_stats(replay)
    caption_height = size + 4
    width, height = cols * size, rows * size + caption_height
    palette = [channel for colour in _PALETTE for channel in colour]
    number_font = _font(ImageFont, round(size * 0.8))
    caption_font = _font(ImageFont, max(10, size - 4))
    who = replay.player or "anonymous"
    images = []
    # The board without cursor or caption, kept from frame to frame: a frame
    # redraws only the squares that changed (a square's drawing covers it
    # whole), which is most of the time a GIF takes otherwise.
    board = Image.new("P", (width, height), _GREY)
    board.putpalette(palette)
    board_draw = ImageDraw.Draw(board)
    drawn = [-1] * (rows * cols)
    for n, frame in enumerate(plan):
        view, pressed = frame.view, frozenset(frame.pressed)
        for index in range(rows * cols):
            # A pressed square looks like an open 0, as in the games.
            code = 0 if index in pressed else view[index]
            if drawn[index] != code:
                row, col = divmod(index, cols)
                _square(board_draw, number_font, col * size, row * size, size, code)
                drawn[index] = code
        image = board.copy()
        draw = ImageDraw.Draw(image)
        final = n == len(plan) - 1
        if final:
            time, solved, rate = analysis_stats.rtime, frame.solved, analysis_stats.bbbv_s
        else:
            time = max(frame.time, 0.0)
            solved = frame.solved
            rate = solved / time if time > 0 else 0.0
        caption = (
            f"{who}  {time:.2f} s  3BV {solved}/{analysis_stats.bbbv}  {rate:.2f} 3BV/s"
            if rate != float("inf")
            else f"{who}  {time:.2f} s"
        )
        top = rows * size
        draw.line([(0, top), (width, top)], fill=_DARK)
        draw.text((4, top + 2), caption, fill=_BLACK, font=caption_font)
        if frame.x >= 0 and not final:
            _cursor(draw, frame.x * size / replay.cell_px, frame.y * size / replay.cell_px, size)
        images.append(image)
    return images


def _font(image_font: Any, pixels: int) -> Any:
    """Pillow's own font at ``pixels`` (its bitmap font where FreeType is missing)."""
    try:
        return image_font.load_default(size=pixels)
    except (TypeError, ImportError, OSError):  # pragma: no cover - Pillow without FreeType
        return image_font.load_default()


def _square(draw: Any, font: Any, left: int, top: int, size: int, code: int) -> None:
    """Draw one square of a view at ``(left, top)``."""
    right, bottom = left + size - 1, top + size - 1
    if code in (GLYPH_HIDDEN, GLYPH_FLAG):
        edge = max(1, size // 8)
        draw.rectangle([left, top, right, bottom], fill=_DARK)
        draw.polygon(
            [(left, top), (right, top), (right - edge, top + edge), (left + edge, bottom - edge),
             (left, bottom)],
            fill=_WHITE,
        )  # fmt: skip
        draw.rectangle([left + edge, top + edge, right - edge, bottom - edge], fill=_GREY)
        if code == GLYPH_FLAG:
            _flag(draw, left, top, size)
        return
    # An open square: grey, with the grid line on its top and left.
    fill = _RED if code == GLYPH_EXPLODED else _GREY
    draw.rectangle([left, top, right, bottom], fill=fill)
    draw.line([(left, top), (right, top)], fill=_DARK)
    draw.line([(left, top), (left, bottom)], fill=_DARK)
    if 1 <= code <= 8:
        draw.text(
            (left + size / 2, top + size / 2 + 1),
            str(code),
            fill=_NUMBER_INDEX[code],
            font=font,
            anchor="mm",
        )
    elif code in (GLYPH_EXPLODED, GLYPH_MINE, GLYPH_WRONG_FLAG):
        _mine(draw, left, top, size)
        if code == GLYPH_WRONG_FLAG:
            inset = size // 5
            for a, b in (((inset, inset), (size - inset, size - inset)),
                         ((size - inset, inset), (inset, size - inset))):  # fmt: skip
                draw.line(
                    [(left + a[0], top + a[1]), (left + b[0], top + b[1])],
                    fill=_RED,
                    width=max(1, size // 10),
                )


def _flag(draw: Any, left: int, top: int, size: int) -> None:
    """A red pennant on a black pole and base."""
    s = size / 16
    draw.polygon(
        [(left + 9 * s, top + 3 * s), (left + 9 * s, top + 8 * s), (left + 4 * s, top + 5.5 * s)],
        fill=_RED,
    )
    draw.rectangle([left + 9 * s, top + 3 * s, left + 10 * s - 1, top + 11 * s], fill=_BLACK)
    draw.rectangle([left + 5 * s, top + 11 * s, left + 12 * s, top + 12 * s], fill=_BLACK)


def _mine(draw: Any, left: int, top: int, size: int) -> None:
    """A black disc with spikes and a white glint."""
    s = size / 16
    cx, cy = left + size / 2, top + size / 2
    draw.ellipse([cx - 4.5 * s, cy - 4.5 * s, cx + 4.5 * s, cy + 4.5 * s], fill=_BLACK)
    draw.line([(cx - 6.5 * s, cy), (cx + 6.5 * s, cy)], fill=_BLACK, width=max(1, round(s)))
    draw.line([(cx, cy - 6.5 * s), (cx, cy + 6.5 * s)], fill=_BLACK, width=max(1, round(s)))
    draw.rectangle([cx - 2.5 * s, cy - 2.5 * s, cx - 1 * s, cy - 1 * s], fill=_WHITE)


def _cursor(draw: Any, x: float, y: float, size: int) -> None:
    """The classic arrow, its tip at ``(x, y)``."""
    s = size / 16
    outline = [(0, 0), (0, 12), (3, 9), (5, 13), (7, 12), (5, 8), (9, 8)]
    draw.polygon([(x + a * s, y + b * s) for a, b in outline], fill=_WHITE, outline=_BLACK)
