"""How the terminal game words what it shows: squares, counts, a player's record."""

from __future__ import annotations

from ..squares import square_name
from .store import Record

__all__ = ["plural", "record_text", "square_name"]


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
