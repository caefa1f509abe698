"""How the terminal game words what it shows: squares, counts, a player's record."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..squares import GLYPH_FLAG, MAX_NUMBER, square_name
from .store import Record

if TYPE_CHECKING:
    from ..frontend import Score
    from ..game import Game
    from ..solver import Hint

__all__ = [
    "chord_refusal",
    "end_text",
    "hint_text",
    "no_save_text",
    "overlay_legend",
    "plural",
    "record_text",
    "resumed_text",
    "square_name",
    "status_text",
    "too_big_text",
]


def plural(count: int, noun: str) -> str:
    """``count`` of ``noun``, in the plural but for one.

    >>> plural(1, "action"), plural(2, "action")
    ('1 action', '2 actions')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def record_text(record: Record) -> str:
    """The player's record of this kind of game, in one sentence.

    Counts, streaks and the best time are of unassisted games; assisted ones
    are counted apart, with their own wins, so the line adds up either way;
    games on a seed the player chose (a known field) apart again.
    """
    share = f" ({record.won / record.played:.0%})" if record.played else ""
    best = f", best time {record.best_time:.1f} s" if record.best_time is not None else ""
    assisted = (
        f"; assisted apart: won {record.assisted_won} of {record.assisted_played}"
        if record.assisted_played
        else ""
    )
    seeded = (
        f"; seeded apart: won {record.seeded_won} of {record.seeded_played}"
        if record.seeded_played
        else ""
    )
    return (
        f"{record.kind}: won {record.won} of {record.played}{share}, streak {record.streak} "
        f"(best {record.best_streak}){best}{assisted}{seeded}."
    )


def chord_refusal(game: Game, row: int, col: int) -> str | None:
    """Why a chord on ``(row, col)`` opens nothing, where it is a number short of flags.

    The game takes such a chord as a wasted click (it goes into the
    history and opens nothing); said nothing, it reads as a key that did
    not work. None where the chord may open something (or is not on a number).
    """
    rows = slice(max(0, row - 1), row + 2)
    around = game.glyphs(rows)[:, max(0, col - 1) : col + 2]
    number = int(game.glyphs(slice(row, row + 1))[0, col])
    if not 1 <= number <= MAX_NUMBER:
        return None
    flags = int((around == GLYPH_FLAG).sum())
    if flags == number:
        return None
    return (
        f"{square_name(row, col)} shows {number} but has {plural(flags, 'flag')} around "
        "it: a chord needs as many flags as the number."
    )


def end_text(
    final: Score, record: Record, *, seeded: bool, new_game_key: str, export_key: str
) -> str:
    """The message at a game's end: its score, the player's record, the keys for what next."""
    head = f"Won in {final.time:.1f} s" if final.won else "Lost"
    apart = " A game on a seed you chose is recorded apart, never a best time." if seeded else ""
    return (
        f"{head}: 3BV {final.solved_bbbv}/{final.bbbv}, 3BV/s {final.bbbv_per_second:.2f}, "
        f"efficiency {final.ioe:.0%}.{apart} {record_text(record)} "
        f"Press {new_game_key} for a new game, {export_key} to save the replay."
    )


def status_text(kind: str, game: Game, cursor: tuple[int, int], state: str, assisted: bool) -> str:
    """The status line: the kind of game, mines left, time, the cursor's square, the state."""
    helped = ", assisted" if assisted else ""
    return (
        f"{kind} · {game.mines_left} mines left · {game.elapsed:.1f} s · "
        f"{square_name(*cursor)} · {state}{helped}"
    )


def hint_text(advice: Hint) -> str:
    """A hint in one sentence, its square named as the status line names the cursor's."""
    here = square_name(advice.row, advice.col)
    words = advice.words(square=square_name)
    if here not in words:  # the first-click sentences name no square
        words = f"{here}: {words}"
    return f"Hint: {words}."


def overlay_legend(levels: str, key: str) -> str:
    """What the probability overlay's symbols mean, and the key that hides it."""
    return (
        f"Mine probabilities: S safe, M a mine, {levels[0]} to "
        f"{levels[-1]} from low to high. Press {key} to hide."
    )


def too_big_text(max_squares: int, squares: int) -> str:
    """Why a board of ``squares`` gets no hints or probabilities."""
    return (
        f"No hints or probabilities on boards over {max_squares:,} squares: the "
        f"solver reads every square, which takes seconds on {squares:,}."
    )


def no_save_text(kind: str, saved: Iterable[tuple[str, int]]) -> str:
    """The greeting when no ``kind`` game is saved: which kinds are, with their actions."""
    others = [f"{other} ({plural(count, 'action')})" for other, count in saved]
    return f"No saved {kind} game. Saved: {', '.join(others)}; play that kind of game to resume it."


def resumed_text(kind: str, game: Game, assisted: bool) -> str:
    """The greeting of a saved game resumed: its actions and time so far."""
    return (
        f"Resumed your saved {kind} game: {plural(len(game.history), 'action')}, "
        f"{game.elapsed:.1f} s{', assisted' if assisted else ''}."
    )
