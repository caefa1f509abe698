"""The page's own record of a game (its mouse trace), read and checked against the game.

A ranked win needs more than the server's list of actions: a program can
send those at any pace it likes. The page records what the mouse did over
the board (presses, releases and moves, in milliseconds and board pixels)
and sends it once the game is over. The server reads it as a replay on the
game's real field (:func:`minesweep.replays.clicks.analyse_clicks`, the
ms-toollib state machine) and asks two things:

- **Is it this game's record?** Every action the server applied must be at
  a click of the trace, in order, on the same square, with a button that
  makes that action (:data:`minesweep.mouse.BUTTONS_FOR`: a left click on
  a number chords, by the server's rules as by the page's), and at the same
  time as the server saw it (within :attr:`TraceRules.tolerance`, after
  aligning the second action with its click: the first lays the field,
  which may take a while). No applied action may be
  missing. Extra clicks are allowed: the page sends no request for a click
  that can do nothing (on an open 0).
- **Is it a hand's?** The cursor must move between clicks on different
  squares, along paths that are not straight lines (ms-toollib's
  ``mouse_trace`` calls a path/straight-line ratio under 1.01 "too
  straight"), at speeds a hand reaches, with presses that last a varying
  time and clicks that do not come at a metronome's rhythm.

None of this is a proof: a program can synthesise a curved, jittered,
irregular trace consistent with its own actions. The checks raise the cost
of a bot on the people's board from "sleep between requests" to "model a
hand", and every threshold is loose enough that people's traces pass.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, cast

import msgspec

from minesweep import Action, Minefield
from minesweep.errors import ParseError
from minesweep.mouse import BUTTONS_FOR, Button
from minesweep.replays import ReplayError, read
from minesweep.replays.clicks import Click, ClickAnalysis, analyse_clicks
from minesweep.replays.model import EventKind, MouseEvent, Replay
from minesweep.squares import square_name

__all__ = ["TraceError", "TraceRules", "judge", "judge_replay", "parse_trace", "trace_replay"]

#: The kinds of event the page sends: moves, and each button's press and release.
KINDS: Final[frozenset[str]] = frozenset({"mv", "lc", "lr", "rc", "rr", "mc", "mr"})
#: The kinds an EVF file's first event may be.
_FIRST_KINDS: Final = frozenset({"mv", "lc", "rc"})
#: A trace's times go up to a day (in ms): the server expires a game idle that long.
_MAX_MS: Final = 24 * 3600 * 1000.0
#: Pixel positions a trace may hold: an EVF board is at most 32767 pixels a side.
_MAX_PX: Final = 32767


class TraceError(ParseError):
    """A trace body that cannot be read (the message says where): a 400."""


@dataclass(frozen=True, slots=True)
class TraceRules:
    """The thresholds a trace is judged by; each says why it is where it is."""

    #: Seconds an action's server time may differ from its click's trace time,
    #: both counted from the game's first action. The page queues its
    #: requests, so on a slow connection a burst of fast clicks reaches the
    #: server late, and the lag grows with the burst: two seconds leave room
    #: for a person on a poor mobile link, and are still far less than the
    #: game's time a synthesised trace would have to get right.
    tolerance: float = 2.0
    #: Events a trace may hold: the page sends at most a move a frame (60 a
    #: second), so this is over half an hour of continuous movement.
    max_events: int = 120_000
    #: ms-toollib's "too straight": a path at most this much longer than the
    #: straight line between its ends.
    straight_ratio: float = 1.01
    #: Pixels from the straight line within which a path counts as straight
    #: however long it is: a straight line rounded to whole pixels zigzags by
    #: half a pixel, which can add more than 1% to a short path's length.
    straight_px: float = 1.0
    #: The share of the paths between clicks (at least a square apart) that
    #: may be straight: people move straight sometimes, never mostly.
    straight_share: float = 0.5
    #: Paths needed before straightness is judged: a game of one or two
    #: moves tells nothing.
    min_paths: int = 3
    #: The share of steps between clicks on different squares that may show
    #: no move at all (the page samples once a frame; a flick inside one
    #: frame is rare). A trace of bare clicks is a program's, or a touch
    #: screen's, whose taps have no cursor between them: those do not rank.
    unmoved_share: float = 0.1
    #: Cursor speed (board pixels a millisecond) above which a move is a jump,
    #: not a hand: 40 px/ms crosses a 1920-pixel screen in under 50 ms, faster
    #: than the fastest flicks with high mouse acceleration.
    max_speed: float = 40.0
    #: The spread (coefficient of variation) below which the intervals
    #: between clicks are a metronome's: a person's vary by tens of percent
    #: (thinking, distances); a paced bot's by its jitter, a few percent.
    min_rhythm_spread: float = 0.1
    #: Clicks needed before the rhythm and press lengths are judged.
    min_clicks: int = 6
    #: Milliseconds the median step between successive moves (of a moving
    #: cursor, steps under half a second) may take. Browsers deliver
    #: pointer moves at 60 to 250 a second while the mouse moves, and the
    #: page keeps the last of each animation frame; mouse programs sample at
    #: 100 to 1000 Hz: the fixtures' real records have medians of 0 to 8 ms.
    #: A page under load keeps fewer: the Chromium test's record, on a busy
    #: two-core machine, had a median of 34 ms (a tenth of its steps over
    #: 57 ms), and a throttled phone draws 20 frames a second. 60 ms leaves
    #: room for those; a made-up trace of a few points between clicks has
    #: steps of a tenth of a second. (Of the test family of forgeries, 60
    #: rather than 40 lets 3 more of 96 past this check alone; the moving
    #: presses still stop every one.)
    max_move_step_ms: float = 60.0
    #: Steps needed before the cadence is judged.
    min_steps: int = 20
    #: The share of presses during which the cursor must have moved at
    #: least once. A hand's press is not frozen: the cursor drifts a pixel
    #: while the button is down, or is already on its way to the next square
    #: before the release (the fixtures' real games: 50 to 91% of presses);
    #: a program writes the press and the release at one point.
    min_moving_presses: float = 0.1


#: A trace body as JSON: the square size, and the events as [ms, kind, x, y].
class _Body(msgspec.Struct, forbid_unknown_fields=True):
    cell_px: int
    events: list[tuple[float, str, int, int]]


def parse_trace(
    data: bytes, *, rows: int, cols: int, max_events: int
) -> tuple[int, tuple[MouseEvent, ...]]:
    """A trace's square size and events (seconds from its first event); TraceError if bad.

    ``data`` is JSON (``{"cell_px": 16, "events": [[0, "mv", 12, 30], ...]}``,
    times in milliseconds, positions in pixels from the board's top-left
    corner) or an EVF replay file's bytes (its field is ignored: the
    server's is the game's).
    """
    if data[:1] in (b"{", b" ", b"\n", b"\t", b"\r"):
        try:
            body = msgspec.json.decode(data, type=_Body)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise TraceError(f"bad trace: {error}") from None
        px = body.cell_px
        raw = body.events
    else:
        try:
            replay = read(data, name="the trace")
        except ReplayError as error:
            raise TraceError(str(error)) from None
        if replay.format != "evf":
            raise TraceError(f"a trace is JSON or an EVF file, not {replay.format.upper()}")
        px = replay.cell_px
        raw = [(event.time * 1000.0, event.kind, event.x, event.y) for event in replay.events]
    if not 1 <= px <= 255 or max(rows, cols) * px > _MAX_PX:
        raise TraceError(f"cell_px must be 1 to 255 and the board fit {_MAX_PX} pixels, got {px}")
    if len(raw) > max_events:
        raise TraceError(f"a trace holds at most {max_events} events, this one {len(raw)}")
    # A record begun while a button was down starts with its release (or a
    # middle press), which EVF cannot start with: those are left out, as
    # they are of no click the game saw.
    skip = 0
    while skip < len(raw) and raw[skip][1] not in _FIRST_KINDS:
        skip += 1
    raw = raw[skip:]
    if not raw:
        raise TraceError("the trace holds no move and no press")
    first = raw[0][0]
    last = -math.inf
    events = []
    for index, (ms, kind, x, y) in enumerate(raw):
        if kind not in KINDS:
            raise TraceError(f"event {index}: kind {kind!r} is none of {sorted(KINDS)}")
        if not (math.isfinite(ms) and 0 <= ms - first <= _MAX_MS and ms >= last):
            raise TraceError(f"event {index}: times must go forward from the first, within a day")
        if not (-_MAX_PX <= x <= _MAX_PX and -_MAX_PX <= y <= _MAX_PX):
            raise TraceError(f"event {index}: positions are within {_MAX_PX} pixels")
        last = ms
        # Whole milliseconds, as EVF keeps them, so that the stored file reads
        # back to the events judged.
        events.append(MouseEvent(round(ms - first) / 1000.0, cast(EventKind, kind), x, y))
    return px, tuple(events)


def trace_replay(field: Minefield, px: int, events: tuple[MouseEvent, ...]) -> Replay:
    """The trace as a replay on the game's field (what is stored, as EVF)."""
    return Replay(
        format="evf", version=4, field=field, events=events, cell_px=px, software="minesweep web"
    )


def judge(
    replay: Replay, history: Sequence[Action], rules: TraceRules, analysis: ClickAnalysis
) -> str | None:
    """Why the trace is not a consistent, hand-made record of ``history``; None when it is."""
    return _consistency(replay, history, rules, analysis) or _hand(replay, rules, analysis)


def judge_replay(replay: Replay, history: Sequence[Action], rules: TraceRules) -> str | None:
    """:func:`judge`, analysing the replay's clicks first."""
    return judge(replay, history, rules, analyse_clicks(replay))


def _consistency(
    replay: Replay, history: Sequence[Action], rules: TraceRules, analysis: ClickAnalysis
) -> str | None:
    """Every applied action at a click of the trace, in order, in time."""
    clicks = [click for click in analysis.clicks if click.row >= 0]
    times = [replay.events[click.event].time for click in clicks]
    at = 0
    origin: tuple[float, float] | None = None
    for number, action in enumerate(history, 1):
        buttons = BUTTONS_FOR[action.kind]
        found = _find(clicks, at, len(clicks), action, buttons)
        what = (
            f"action {number} ({action.kind.name.lower()} at {square_name(action.row, action.col)})"
        )
        if found is None:
            if _find(clicks, 0, at, action, buttons) is not None:
                return f"the page's record has the clicks out of order: {what} comes too early"
            return f"the page's record misses {what}: no such click"
        if origin is None and number == min(2, len(history)):
            # Aligned on the second action, not the first: the first lays the field
            # (a no-guess board may take seconds to find on a busy server), and the
            # game's clock starts once it is laid, while the page's record goes on
            # through the wait, and the player can click again only after it.
            origin = (times[found], action.time)
        if origin is None:
            at = found + 1
            continue
        lag = (times[found] - origin[0]) - (action.time - origin[1])
        if abs(lag) > rules.tolerance:
            return (
                f"the page's record has {what} {abs(lag):.1f} s away from when the server "
                f"got it (at most {rules.tolerance:g} s)"
            )
        at = found + 1
    return None


def _find(
    clicks: Sequence[Click], start: int, stop: int, action: Action, buttons: frozenset[Button]
) -> int | None:
    for index in range(start, stop):
        click = clicks[index]
        if click.row == action.row and click.col == action.col and click.kind.button in buttons:
            return index
    return None


def _hand(replay: Replay, rules: TraceRules, analysis: ClickAnalysis) -> str | None:
    """Whether the cursor's paths, speeds and the clicks' rhythm are a hand's."""
    events = replay.events
    px = replay.cell_px
    clicks = [click for click in analysis.clicks if click.row >= 0]
    # Speed: between successive moves (the page's one a frame).
    previous: MouseEvent | None = None
    for event in events:
        if event.kind == "mv":
            if previous is not None:
                distance = math.dist((previous.x, previous.y), (event.x, event.y))
                elapsed = max((event.time - previous.time) * 1000.0, 1.0)
                if distance / elapsed > rules.max_speed:
                    return (
                        f"the cursor jumped {distance:.0f} pixels in {elapsed:.0f} ms "
                        f"(a hand moves at most {rules.max_speed:g} pixels a millisecond)"
                    )
            previous = event
    # Paths between clicks on different squares.
    steps = unmoved = paths = straight = 0
    for before, after in itertools.pairwise(clicks):
        if (before.row, before.col) == (after.row, after.col):
            continue
        steps += 1
        ends = events[before.event], events[after.event]
        points = [(ends[0].x, ends[0].y)]
        points += [
            (event.x, event.y)
            for event in events[before.event + 1 : after.event]
            if event.kind == "mv"
        ]
        if len(points) == 1:
            unmoved += 1
            continue
        points.append((ends[1].x, ends[1].y))
        chord = math.dist(points[0], points[-1])
        if chord < px:
            continue
        paths += 1
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(points))
        if length < chord * rules.straight_ratio or _deviation(points) <= rules.straight_px:
            straight += 1
    if steps and unmoved > steps * rules.unmoved_share:
        return (
            f"the page's record shows no cursor between {unmoved} of {steps} clicks on "
            "different squares: not a hand's"
        )
    if paths >= rules.min_paths and straight > paths * rules.straight_share:
        return (
            f"the cursor went in straight lines between {straight} of {paths} clicks: "
            "too straight for a hand"
        )
    cadence = _move_steps(events)
    if len(cadence) >= rules.min_steps:
        median = statistics.median(cadence)
        if median > rules.max_move_step_ms:
            return (
                f"the cursor's moves came {median:.0f} ms apart while it moved (a browser "
                f"sends one every {rules.max_move_step_ms:g} ms at most): a made-up path"
            )
    if len(clicks) >= rules.min_clicks:
        held, moving = _moving_presses(events)
        if held >= rules.min_clicks and moving < held * rules.min_moving_presses:
            return (
                f"the cursor never moved while a button was down in {held - moving} of "
                f"{held} presses: a program's clicks, not a hand's"
            )
        presses = _press_lengths(events)
        if len(presses) >= rules.min_clicks and len(set(presses)) == 1:
            return f"every press lasted exactly {presses[0]:.0f} ms: a program's rhythm"
        moments = [events[click.event].time for click in clicks]
        gaps = [b - a for a, b in itertools.pairwise(moments)]
        mean = statistics.fmean(gaps)
        if mean > 0 and statistics.pstdev(gaps) / mean < rules.min_rhythm_spread:
            return (
                f"the clicks came every {mean * 1000:.0f} ms, varying by under "
                f"{rules.min_rhythm_spread:.0%}: a metronome's rhythm, not a person's"
            )
    return None


def _deviation(points: Sequence[tuple[int, int]]) -> float:
    """How far (pixels) the path strays from the straight line between its ends."""
    (x0, y0), (x1, y1) = points[0], points[-1]
    chord = math.dist(points[0], points[-1])
    return max(abs((x1 - x0) * (y0 - y) - (x0 - x) * (y1 - y0)) / chord for x, y in points)


def _move_steps(events: Sequence[MouseEvent]) -> list[float]:
    """Milliseconds between successive moves of a moving cursor (gaps of half a second
    or more are pauses, not steps; moves at one time are one position)."""
    steps: list[float] = []
    previous: MouseEvent | None = None
    for event in events:
        if event.kind != "mv":
            continue
        if previous is not None and (event.x, event.y) != (previous.x, previous.y):
            gap = (event.time - previous.time) * 1000.0
            if gap < 500.0:
                steps.append(gap)
        previous = event
    return steps


def _moving_presses(events: Sequence[MouseEvent]) -> tuple[int, int]:
    """Presses released (of any button), and those with a move while the button was down."""
    down: dict[str, bool] = {}
    held = moving = 0
    for event in events:
        kind = event.kind
        if kind in ("lc", "rc", "mc"):
            down[kind[0]] = False
        elif kind == "mv":
            for button in down:
                down[button] = True
        elif kind in ("lr", "rr", "mr") and kind[0] in down:
            held += 1
            moving += down.pop(kind[0])
    return held, moving


def _press_lengths(events: Sequence[MouseEvent]) -> list[int]:
    """Milliseconds each button was held, press to release, in order."""
    pressed: dict[str, float] = {}
    lengths: list[int] = []
    for event in events:
        kind = event.kind
        if kind in ("lc", "rc", "mc"):
            pressed[kind[0]] = event.time
        elif kind in ("lr", "rr", "mr") and kind[0] in pressed:
            lengths.append(round((event.time - pressed.pop(kind[0])) * 1000.0))
    return lengths
