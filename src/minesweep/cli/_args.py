"""The pieces every command's options are made of: value types, failing, and the game settings.

A failure the user can cause ends here, in :func:`fail`: exit status 2 and
exactly one line on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, NoReturn

from ..presets import PRESETS, FirstClickRule

if TYPE_CHECKING:
    from ..frontend import Settings

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_USAGE",
    "GAME_RULE",
    "Parser",
    "add_game_options",
    "add_preset_option",
    "add_rule_option",
    "click",
    "count",
    "factor",
    "fail",
    "interrupted",
    "ipv6_prefix",
    "join_negative_squares",
    "port",
    "positive",
    "rate",
    "seconds",
    "settings_from",
    "size",
]

EXIT_USAGE: Final = 2
#: The first-click rule of a command that starts a game (new, play) when none is given.
GAME_RULE: Final = "opening"
#: How long a no-guess search may take by default: the front-end layer's
#: figure (minesweep.frontend.NO_GUESS_SECONDS, a test checks), not imported
#: so that every command does not load that layer to build its help.
NO_GUESS_SECONDS: Final = 10.0
#: The status of a command stopped by Ctrl-C, as a shell reports a process SIGINT ended (128 + 2).
EXIT_INTERRUPTED: Final = 128 + 2

#: The choices of ``--preset`` and ``--rule``, from the one table of each.
PRESET_NAMES: Final = tuple(PRESETS)
RULE_NAMES: Final = tuple(rule.value for rule in FirstClickRule)
_PRESET_HELP: Final = ", ".join(
    f"{preset.name} {preset.rows}x{preset.cols}/{preset.mines}" for preset in PRESETS.values()
)


def fail(message: str) -> NoReturn:
    """End the command: ``message`` as one line on standard error, exit status 2."""
    sys.stderr.write(f"{message}\n")
    raise SystemExit(EXIT_USAGE)


def interrupted(message: str, *, after_progress: bool = False) -> NoReturn:
    """End a command Ctrl-C stopped: ``message`` as one line on standard error, exit status 130.

    A second Ctrl-C meanwhile is ignored: it would print a traceback instead.
    ``after_progress`` first ends the line a progress bar was drawn on.
    """
    import signal

    with contextlib.suppress(ValueError):  # only the main thread sets handlers
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stderr.write(("\n" if after_progress else "") + message + "\n")
    sys.stderr.flush()
    raise SystemExit(EXIT_INTERRUPTED)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors fit on one line."""

    def error(self, message: str) -> NoReturn:
        fail(f"{self.prog}: {message} (see --help)")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        # A word no option takes is refused by the command that was given it,
        # so that the message names that command ("minesweep reveal: ..."),
        # not only the program, whose parser would otherwise say it last.
        arguments, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return arguments, extra


#: A whole number as the command line takes one: ASCII digits only, where
#: ``int`` and ``str.isdigit`` take any script's digits too ("５").
_DIGITS: Final = re.compile(r"[0-9]+")
#: A square's row or column: a sign is read, so that the board can say what is
#: wrong with a negative one.
_SIGNED: Final = re.compile(r"[+-]?[0-9]+")


def _whole(text: str) -> int | None:
    """``text`` as a non-negative whole number in ASCII digits, or None."""
    return int(text) if _DIGITS.fullmatch(text) else None


def _ascii_note(text: str) -> str:
    """What to add to a refusal of ``text`` that holds digits other than 0-9."""
    if any(char.isdigit() and not char.isascii() for char in text):
        return " (numbers are written in the digits 0-9)"
    return ""


def click(text: str) -> tuple[int, int]:
    """``R,C`` as a square; the board decides whether it is on the board."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) == 2 and all(_SIGNED.fullmatch(part) for part in parts):
        return int(parts[0]), int(parts[1])
    raise argparse.ArgumentTypeError(
        f"expected ROW,COL such as 3,0, got {text!r}{_ascii_note(text)}"
    )


def size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) == 2:
        rows, cols = (_whole(part) for part in parts)
        if rows is not None and cols is not None:
            return rows, cols
        if any(part[:1] == "-" and _whole(part[1:]) is not None for part in parts):
            raise argparse.ArgumentTypeError(
                f"expected ROWSxCOLS such as 16x30, got {text!r}: a board has no negative "
                "number of rows or columns"
            )
    raise argparse.ArgumentTypeError(
        f"expected ROWSxCOLS such as 16x30, got {text!r}{_ascii_note(text)}"
    )


def count(text: str) -> int:
    value = _whole(text)
    if value is not None:
        return value
    raise argparse.ArgumentTypeError(
        f"expected a non-negative whole number, got {text!r}{_ascii_note(text)}"
    )


def ipv6_prefix(text: str) -> int:
    value = _whole(text)
    if value is not None and value <= 128:
        return value
    raise argparse.ArgumentTypeError(
        f"expected a prefix length of 0 to 128 bits, got {text!r}{_ascii_note(text)}"
    )


def positive(text: str) -> int:
    value = _whole(text)
    if value is not None and value > 0:
        return value
    raise argparse.ArgumentTypeError(
        f"expected a whole number of at least 1, got {text!r}{_ascii_note(text)}"
    )


def _finite(text: str) -> float:
    """``text`` as a finite number, or NaN (which every range test refuses)."""
    if not text.isascii():  # float() takes any script's digits too
        return math.nan
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value if math.isfinite(value) else math.nan


def seconds(text: str) -> float:
    value = _finite(text)
    if value > 0:
        return value
    raise argparse.ArgumentTypeError(
        f"expected a positive number of seconds, got {text!r}{_ascii_note(text)}"
    )


def factor(text: str) -> float:
    value = _finite(text)
    if value > 0:
        return value
    raise argparse.ArgumentTypeError(f"expected a positive factor, got {text!r}{_ascii_note(text)}")


def rate(text: str) -> float:
    value = _finite(text)
    if value >= 0:
        return value
    raise argparse.ArgumentTypeError(
        f"expected requests a second (0 for no limit), got {text!r}{_ascii_note(text)}"
    )


def port(text: str) -> int:
    value = _whole(text)
    if value is not None and 1 <= value <= 65535:
        return value
    raise argparse.ArgumentTypeError(
        f"expected a port from 1 to 65535, got {text!r}{_ascii_note(text)}"
    )


def add_preset_option(
    parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup, *, default: str | None
) -> None:
    """``--preset``, its choices and their sizes from the one table of presets."""
    parser.add_argument(
        "--preset",
        choices=PRESET_NAMES,
        default=default,
        help=f"{_PRESET_HELP} (default: {default or 'expert'})",
    )


def add_rule_option(parser: argparse.ArgumentParser, *, default: str) -> None:
    """``--rule``: what the first click is promised."""
    parser.add_argument(
        "--rule",
        choices=RULE_NAMES,
        default=default,
        help="; ".join(f"{rule.value}: {rule.brief}" for rule in FirstClickRule)
        + f" (default: {default})",
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """The settings of a game, the same for every command that starts one.

    A preset or a size with its mines, the seed, the first-click rule and
    whether the board must be solvable without guessing.
    """
    board = parser.add_mutually_exclusive_group()
    add_preset_option(board, default=None)
    board.add_argument(
        "--size", type=size, metavar="ROWSxCOLS", help="a custom size, such as 20x40"
    )
    parser.add_argument("--mines", type=count, help="the number of mines (with --size)")
    parser.add_argument("--seed", type=count, help="the seed; the same seed gives the same field")
    add_rule_option(parser, default=GAME_RULE)
    parser.add_argument(
        "--no-guess",
        action="store_true",
        help="a field the solver clears from the first click without guessing (rule opening)",
    )
    parser.add_argument(
        "--no-guess-seconds",
        type=seconds,
        metavar="SECONDS",
        help="with --no-guess: how long to search for such a field before giving up "
        f"(default {NO_GUESS_SECONDS:g})",
    )


def settings_from(
    arguments: argparse.Namespace,
    command: str,
    *,
    draw_seed: bool = False,
    first_click: tuple[int, int] | Literal["center"] | None = None,
) -> Settings:
    """The game settings the options of :func:`add_game_options` name, for ``command``.

    With ``draw_seed``, a seed is drawn when ``--seed`` gives none, so that
    what the command writes records one. ``first_click`` is the square the
    rule keeps clear, where the command lays the field itself.

    What argparse cannot say ("this option needs that one") is refused here,
    in the command line's words: the settings would refuse it too, but in
    words that name no option.
    """
    from ..frontend import Settings

    if arguments.size is not None and arguments.mines is None:
        fail(f"minesweep {command}: --size needs --mines")
    if arguments.size is None and arguments.mines is not None:
        fail(f"minesweep {command}: --mines goes with --size; a preset has its own")
    if arguments.no_guess_seconds is not None and not arguments.no_guess:
        fail(f"minesweep {command}: --no-guess-seconds goes with --no-guess")
    seed = arguments.seed
    if seed is None and draw_seed:
        from ..generate import new_seed

        seed = new_seed()
    return Settings.of(
        preset=arguments.preset,
        size=arguments.size,
        mines=arguments.mines,
        rule=arguments.rule,
        seed=seed,
        no_guess=arguments.no_guess,
        first_click=first_click,
    )


#: Options whose value is a square or a size: a negative row ("-1,0") or size
#: ("-3x5") must reach our check, which says what is wrong with it.
_SQUARE_OPTIONS: Final = ("--click", "--first-click", "--size")


def join_negative_squares(argv: Sequence[str]) -> list[str]:
    """Write ``--click -1,0`` as ``--click=-1,0`` (and ``--size -3x5`` as ``--size=-3x5``).

    argparse takes any word starting with "-" that is not a plain negative
    number for an option, so "-1,0" would be reported as a missing value.
    """
    joined: list[str] = []
    words = list(argv)
    index = 0
    while index < len(words):
        word = words[index]
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in _SQUARE_OPTIONS and following[:1] == "-" and following[1:2].isdigit():
            joined.append(f"{word}={following}")
            index += 2
        else:
            joined.append(word)
            index += 1
    return joined


class RuleIsRule(argparse.Action):
    """``play --first-click`` once named the rule; it is a square in every other command.

    Refused with a pointer to ``--rule`` rather than read as a square the
    terminal game has no use for, so that an old command line cannot silently
    mean something else.
    """

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        parser.error(
            f"--first-click {values} is not an option of play: the first-click rule is "
            "--rule (opening, safe or none); --first-click is a square, in new and bench"
        )
