"""The pieces every command's options are made of: value types, failing, and the game settings.

A failure the user can cause ends here, in :func:`fail`: exit status 2 and
exactly one line on standard error.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, NoReturn

from ..presets import PRESETS, FirstClickRule

if TYPE_CHECKING:
    from ..frontend import Settings

__all__ = [
    "EXIT_USAGE",
    "Parser",
    "add_game_options",
    "add_preset_option",
    "add_rule_option",
    "click",
    "count",
    "fail",
    "join_negative_squares",
    "port",
    "positive",
    "rate",
    "seconds",
    "settings_from",
    "size",
]

EXIT_USAGE: Final = 2

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


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors fit on one line."""

    def error(self, message: str) -> NoReturn:
        fail(f"{self.prog}: {message} (see --help)")


def click(text: str) -> tuple[int, int]:
    """``R,C`` as a square; the board decides whether it is on the board."""
    parts = text.split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL such as 3,0, got {text!r}") from None
    return row, col


def size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) == 2 and all(part.isdigit() for part in parts):
        return int(parts[0]), int(parts[1])
    raise argparse.ArgumentTypeError(f"expected ROWSxCOLS such as 16x30, got {text!r}")


def count(text: str) -> int:
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a non-negative whole number, got {text!r}")


def positive(text: str) -> int:
    if text.isdigit() and int(text) > 0:
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {text!r}")


def _finite(text: str) -> float:
    """``text`` as a finite number, or NaN (which every range test refuses)."""
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value if math.isfinite(value) else math.nan


def seconds(text: str) -> float:
    value = _finite(text)
    if value > 0:
        return value
    raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")


def rate(text: str) -> float:
    value = _finite(text)
    if value >= 0:
        return value
    raise argparse.ArgumentTypeError(f"expected requests a second (0 for no limit), got {text!r}")


def port(text: str) -> int:
    if text.isdigit() and 1 <= int(text) <= 65535:
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")


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
    add_rule_option(parser, default="opening")
    parser.add_argument(
        "--no-guess",
        action="store_true",
        help="a field the solver clears from the first click without guessing (rule opening)",
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


#: Options whose value is a square: a negative row ("-1,0") must reach our
#: check, which says what is wrong with it.
_SQUARE_OPTIONS: Final = ("--click", "--first-click")


def join_negative_squares(argv: Sequence[str]) -> list[str]:
    """Write ``--click -1,0`` as ``--click=-1,0``.

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
