"""A game as an EVF replay and back (:mod:`minesweep.replays.from_game`), and ms-toollib on it.

Games are played through :class:`minesweep.Game` on random fields, at random
times, and won, lost or left unfinished (``_played.games``). ms-toollib reads
the bytes written here only in a subprocess: it aborts the whole process on
input it dislikes, and writes crash.log into its working directory (a
temporary one here).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from minesweep import Action, ActionKind, Game, GameStatus, Minefield
from minesweep.formats import parse_game_json, to_game_json
from minesweep.replays import ReplayError, check, read, replay_from_game, write_evf
from minesweep.replays.clicks import replay_game
from minesweep.replays.stats import replay_stats
from minesweep.squares import (
    STATE_FLAGGED,
    STATE_HIDDEN,
    STATE_REVEALED,
)
from minesweep.stats import game_stats

from ..helpers import Clock
from ._played import games

#: Game JSON fields an EVF file cannot hold. "rule", "seed", "first_click": EVF
#: holds the mines laid, not how they were laid (the game back is one on a given
#: field). "undos": EVF holds the actions left standing, not those undone.
NOT_IN_EVF = ("rule", "seed", "first_click", "undos")


# --- what the replay tools' rules make of a game --------------------------------------------------


def first_opening(game: Game) -> int:
    """The index in ``game.steps`` of the first reveal that opened a square."""
    return next(
        i for i, s in enumerate(game.steps) if s.action.kind is ActionKind.REVEAL and s.effective
    )


def flag_change(game: Game, index: int) -> ActionKind | None:
    """FLAG or UNFLAG where mark step ``index`` put a flag on or took one off, else None."""
    step = game.steps[index]
    if step.action.kind in (ActionKind.REVEAL, ActionKind.CHORD) or not step.effective:
        return None
    was_flagged = int(step.before[0]) == STATE_FLAGGED
    now_flagged = step.action.kind is ActionKind.FLAG
    if was_flagged == now_flagged:
        return None
    return ActionKind.FLAG if now_flagged else ActionKind.UNFLAG


def restarts(game: Game) -> bool:
    """ms-toollib's restart: flags placed before the first reveal all taken off before it.

    Its board goes back to the start there and forgets those clicks (a flag
    taken off the only "pre-flag" is a player starting over).
    """
    flags = 0
    for index in range(first_opening(game)):
        change = flag_change(game, index)
        if change is ActionKind.FLAG:
            flags += 1
        elif change is ActionKind.UNFLAG:
            flags -= 1
            if flags == 0:
                return True
    return False


def chords_a_zero(game: Game) -> bool:
    """A chord on a 0: ms-toollib opens its closed neighbours (left by a flag); the game never."""
    field = game.field
    assert field is not None
    numbers = field.numbers
    return any(
        s.action.kind is ActionKind.CHORD and numbers[s.action.row, s.action.col] == 0
        for s in game.steps
    )


def wasted_before_opening(game: Game) -> bool:
    """A click that changed nothing before the first opening reveal.

    ms-toollib counts none of them before the first flag, and a reveal on a
    flag then leaves its left button held (the next right press reads as a chord).
    """
    return any(not s.effective for s in game.steps[: first_opening(game)])


def board_changes(game: Game) -> list[tuple[ActionKind, int, int, int]]:
    """The actions a replay keeps: those that opened squares or put on or took off a flag.

    As ``(kind, row, col, ms)``, the times from the first of them, as
    :func:`replay_game` gives them (a question mark on a flag reads as an unflag).
    """
    kept: list[tuple[ActionKind, int, int, int]] = []
    for index, step in enumerate(game.steps):
        action = step.action
        if action.kind in (ActionKind.REVEAL, ActionKind.CHORD):
            if step.effective:
                kept.append((action.kind, action.row, action.col, round(action.time * 1000)))
        elif (change := flag_change(game, index)) is not None:
            kept.append((change, action.row, action.col, round(action.time * 1000)))
    origin = kept[0][3]
    return [(kind, row, col, ms - origin) for kind, row, col, ms in kept]


def actions_of(game: Game) -> list[tuple[ActionKind, int, int, int]]:
    return [(a.kind, a.row, a.col, round(a.time * 1000)) for a in game.history]


def through_evf(game: Game) -> tuple[bytes, Game]:
    """The EVF bytes of ``game``, and the game :func:`replay_game` reads back from them."""
    data = write_evf(replay_from_game(game))
    return data, replay_game(read(data, name="game.evf"))


# --- (a) the game, to EVF and back ----------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(games())
def test_a_game_of_board_changes_comes_back_action_for_action(game: Game) -> None:
    # Every click of these games changes the board; the one rule the tools
    # differ on is set aside (test_a_flag_taken_off_before_the_first_reveal_restarts).
    assume(not restarts(game))
    assert all(step.effective for step in game.steps)
    _, back = through_evf(game)
    assert back.field == game.field
    assert back.status is game.status
    assert actions_of(back) == actions_of(game)
    assert (back.state == game.state).all()


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(games(wasted=True, questions=True))
def test_wasted_clicks_and_question_marks_leave_the_board_changes(game: Game) -> None:
    # Where ms-toollib's rules and the game's part (see the helpers) the board
    # itself would differ from that click on: set aside.
    assume(not restarts(game) and not chords_a_zero(game) and not wasted_before_opening(game))
    _, back = through_evf(game)
    assert back.field == game.field
    assert actions_of(back) == board_changes(game)
    # The marks a replay cannot hold (question marks) aside, the boards agree.
    assert back.status is game.status
    flags = game.state == STATE_FLAGGED
    assert ((back.state == STATE_FLAGGED) == flags).all()
    opened = game.state >= STATE_REVEALED
    assert ((back.state >= STATE_REVEALED) == opened).all()


def test_a_flag_taken_off_before_the_first_reveal_restarts() -> None:
    # ms-toollib's board (and so every statistic here) starts again when the
    # only flag placed before the first reveal is taken off: those clicks are gone.
    clock = Clock()
    game = Game.from_field(Minefield.from_text("*....\n.....\n....*\n"), clock=clock)
    game.flag(0, 0)
    clock.now = 0.5
    game.unflag(0, 0)
    clock.now = 1.25
    game.reveal(1, 2)
    assert restarts(game)
    data, back = through_evf(game)
    assert actions_of(back) == [(ActionKind.REVEAL, 1, 2, 0)]
    stats = replay_stats(read(data, name="restart.evf"))
    assert (stats.left, stats.right) == (1, 0)
    assert back.status is game.status is GameStatus.WON


# --- (b) game JSON to EVF and back ----------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(games(), st.booleans())
def test_game_json_comes_back_from_evf_but_for_what_evf_cannot_hold(
    game: Game, question_marks: bool
) -> None:
    assume(not restarts(game))
    game.question_marks = question_marks
    text = to_game_json(game)
    data, back = through_evf(parse_game_json(text))
    # The question-mark setting travels in EVF's settings byte.
    back.question_marks = dict(read(data, name="game.evf").extra)["question_marks"] == "on"
    ours, theirs = json.loads(text), json.loads(to_game_json(back))
    for key in NOT_IN_EVF:
        del ours[key], theirs[key]
    assert theirs == ours


# --- (c) the replay's statistics against the game's -----------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(games(wasted=True, questions=True))
def test_replay_statistics_agree_with_the_games_where_they_mean_the_same(game: Game) -> None:
    assume(not restarts(game) and not chords_a_zero(game) and not wasted_before_opening(game))
    stats = replay_stats(read(write_evf(replay_from_game(game)), name="game.evf"))
    ours = game_stats(game)
    steps = game.steps
    assert stats.bbbv == ours.bbbv
    assert stats.left == ours.left_clicks
    assert stats.double == ours.chord_clicks
    # A right click is a mark action here; a mark that puts on or takes off no
    # flag on a closed square (a question mark, a flag on a flag) has no click in
    # a replay's mouse, and an unflag of a question mark neither.
    silent = sum(
        1
        for i, s in enumerate(steps)
        if s.action.kind not in (ActionKind.REVEAL, ActionKind.CHORD)
        and flag_change(game, i) is None
        and (s.effective or not _open_at(game, i))
    )
    assert stats.right == ours.right_clicks - silent
    # Effective: a reveal or chord that opened squares is one in both, but for
    # the reveal of a mine, which changes the board here and opens no safe
    # square there (a chord that hits a mine is effective in both: it opens).
    reveals = [s for s in steps if s.action.kind is ActionKind.REVEAL and s.effective]
    lost_by_a_reveal = game.status is GameStatus.LOST and steps[-1].action.kind is ActionKind.REVEAL
    assert stats.lce == len(reveals) - lost_by_a_reveal
    assert stats.dce == sum(1 for s in steps if s.action.kind is ActionKind.CHORD and s.effective)
    # A right click: here every flag change is effective; ms-toollib's rce is only
    # a first flag on a mine, its wasted_flags the other flags, unflags apart.
    flag_changes = sum(1 for i in range(len(steps)) if flag_change(game, i) is not None)
    assert stats.rce + stats.wasted_flags + stats.unflags == flag_changes
    assert stats.won == (game.status is GameStatus.WON)
    if not _flag_on_a_zero(game):
        # With no flag on an opening's 0, "solved" is the openings opened and the
        # lone numbers revealed in both; ms-toollib's counts an opening a flag
        # cut into as unsolved.
        assert stats.bbbv_solved == ours.solved_bbbv


def _open_at(game: Game, index: int) -> bool:
    """Whether the square of step ``index`` was open when it was played."""
    action = game.steps[index].action
    square = action.row * game.shape[1] + action.col
    return any(
        square in s.squares.tolist()
        for s in game.steps[:index]
        if s.action.kind in (ActionKind.REVEAL, ActionKind.CHORD)
    )


def _flag_on_a_zero(game: Game) -> bool:
    field = game.field
    assert field is not None
    zeros = (field.numbers == 0) & ~field.mines
    return any(
        s.action.kind in (ActionKind.FLAG, ActionKind.QUESTION)
        and zeros[s.action.row, s.action.col]
        for s in game.steps
    )


# --- the header -----------------------------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(games(wasted=True, questions=True), st.integers(0, 2**60))
def test_the_header_says_what_the_events_show(game: Game, start_us: int) -> None:
    assume(not restarts(game) and not chords_a_zero(game) and not wasted_before_opening(game))
    replay = read(
        write_evf(replay_from_game(game, player="Ann", country="pl", start_us=start_us)),
        name="game.evf",
    )
    stats = replay_stats(replay)
    assert check(replay, stats) == []
    assert replay.claims.completed == (game.status is GameStatus.WON)
    if game.is_over:
        assert replay.claims.rtime == pytest.approx(stats.rtime, abs=1e-9)
    assert (replay.player, replay.country) == ("Ann", "PL")
    assert replay.start_us == start_us
    assert replay.end_us == start_us + round(round(game.elapsed, 3) * 1_000_000)
    assert replay.software.startswith("minesweep ")
    assert replay.claims.no_flags == (
        not any(s.action.kind is ActionKind.FLAG and s.effective for s in game.steps)
    )
    assert dict(replay.extra)["question_marks"] == ("on" if game.question_marks else "off")
    # The cursor is on the first action's square at the game's 0 ms.
    first = game.history[0]
    head = replay.events[0]
    assert (head.time, head.kind) == (0.0, "mv")
    assert (head.y // replay.cell_px, head.x // replay.cell_px) == (first.row, first.col)


# --- (d) ms-toollib reads what we write -----------------------------------------------------------

#: What ms-toollib's analysis is compared on, and (rtime) the header's time it keeps.
MT_NAMES = ("bbbv", "left", "right", "double", "lce", "rce", "dce", "bbbv_solved", "is_completed")

_MT_CHILD = r"""
import json, sys
import ms_toollib as ms
names = json.loads(sys.argv[1])
out = []
for path in json.loads(sys.stdin.read()):
    v = ms.EvfVideo(path); v.parse(); v.analyse(); v.current_time = 1e9
    found = {name: getattr(v, name) for name in names}
    found["rtime"] = v.rtime
    out.append(found)
print(json.dumps(out))
"""


def ms_toollib(paths: list[Path]) -> list[dict[str, Any]]:
    """ms-toollib's analysis of each EVF file, in a child process with a scratch cwd."""
    pytest.importorskip("ms_toollib")
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [sys.executable, "-c", _MT_CHILD, json.dumps(MT_NAMES)],
            input=json.dumps([str(path) for path in paths]),
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
            cwd=scratch,
        )
    # An abort is a file ms-toollib cannot read: what this test is about.
    assert done.returncode == 0, done.stderr[-2000:]
    result: list[dict[str, Any]] = json.loads(done.stdout)
    return result


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(games(wasted=True, questions=True), min_size=12, max_size=12))
def test_ms_toollib_reads_our_evf_to_the_same_statistics(games: list[Game]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for index, game in enumerate(games):
            path = Path(folder) / f"game-{index}.evf"
            path.write_bytes(write_evf(replay_from_game(game, cell_px=[16, 24, 7][index % 3])))
            paths.append(path)
        answers = ms_toollib(paths)
        for game, path, theirs in zip(games, paths, answers, strict=True):
            replay = read(path)
            stats = replay_stats(replay)
            ours = {name: getattr(stats, name) for name in MT_NAMES if name != "is_completed"}
            ours["is_completed"] = stats.won
            assert {name: theirs[name] for name in MT_NAMES} == ours, to_game_json(game)
            if game.is_over:
                # ms-toollib takes an EVF's time from its header: ours must be the events'.
                assert theirs["rtime"] == pytest.approx(stats.rtime, abs=1e-9)


# --- (e) what a replay cannot hold ----------------------------------------------------------------


def test_a_game_with_no_opening_reveal_is_refused() -> None:
    with pytest.raises(ReplayError, match="no reveal that opened a square"):
        replay_from_game(Game.new("beginner", seed=1))
    game = Game.from_field(Minefield.from_text("*..\n...\n"))
    game.flag(0, 0)
    with pytest.raises(ReplayError, match="no reveal that opened a square"):
        replay_from_game(game)
    game.reveal(0, 0)  # on the flag: a wasted click, which starts no game
    with pytest.raises(ReplayError, match="no reveal that opened a square"):
        replay_from_game(game)


def test_a_game_started_from_a_position_is_refused() -> None:
    game = Game.from_leetcode([["E", "E", "1"], ["E", "E", "M"], ["E", "E", "E"]])
    with pytest.raises(ReplayError, match="started from a position"):
        replay_from_game(game)
    field = Minefield.from_text("*..\n...\n")
    state = np.full(field.shape, STATE_HIDDEN, np.uint8)
    state[1, 2] = STATE_FLAGGED
    started = Game.replay(Game.from_field(field), [Action(ActionKind.REVEAL, 1, 0)], initial=state)
    with pytest.raises(ReplayError, match="started from a position"):
        replay_from_game(started)
    # The same game from a blank board is a replay.
    blank = Game.replay(Game.from_field(field), [Action(ActionKind.REVEAL, 1, 0)])
    assert replay_from_game(blank).field == field


@pytest.mark.parametrize("cell_px", [0, 256, -16, True, 16.0, "16", None])
def test_a_bad_square_size_is_refused(cell_px: Any) -> None:
    game = Game.from_field(Minefield.from_text("*..\n...\n"))
    game.reveal(1, 2)
    with pytest.raises(ReplayError, match=f"cell_px must be an int from 1 to 255, got {cell_px!r}"):
        replay_from_game(game, cell_px=cell_px)


def test_a_board_evf_cannot_hold_and_bad_texts_are_refused() -> None:
    wide = np.zeros((2, 256), np.bool_)
    wide[0, 0] = True
    game = Game.from_field(Minefield(wide))
    game.reveal(1, 255)
    with pytest.raises(ReplayError, match="a 2x256 board of 16-pixel squares does not fit EVF"):
        replay_from_game(game)
    big = np.zeros((200, 200), np.bool_)
    big[0, 0] = True
    game = Game.from_field(Minefield(big))
    game.reveal(199, 199)
    assert replay_from_game(game, cell_px=160).cell_px == 160  # 32,000 pixels
    with pytest.raises(ReplayError, match="200x200 board of 170-pixel squares"):
        replay_from_game(game, cell_px=170)
    with pytest.raises(ReplayError, match="NUL character"):
        replay_from_game(game, player="a\0b")
    with pytest.raises(ReplayError, match="start_us must be a non-negative int"):
        replay_from_game(game, start_us=-1)
    # Refusals are ValueErrors, as every error of the project.
    assert issubclass(ReplayError, ValueError)
