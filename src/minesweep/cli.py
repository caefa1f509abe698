"""The ``minesweep`` command line. It imports only minesweep's public API.

Every failure the user can cause (a missing file, a malformed board, a bad
click) ends with exit status 2 and exactly one line on standard error.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from . import __version__
from .errors import MinesweepError
from .leetcode import update_board
from .notation import parse_board, to_leetcode_json, to_text_grid

__all__ = ["main"]

EXIT_USAGE = 2

_REVEAL_EXAMPLES = """\
examples:
  minesweep reveal examples/example1.json
      the seed's first example; the file holds the board and the click
  printf 'EEEEE\\nEEMEE\\nEEEEE\\nEEEEE\\n' | minesweep reveal --click 3,0
      a text grid on standard input; prints the board after the click

notation: M hidden mine, E hidden square, B revealed blank, 1-8 revealed
number, X exploded mine. Input is LeetCode JSON (a list of rows, or
{"board": [...], "click": [r, c]}) or a text grid (one row per line).
"""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors fit on one line."""

    def error(self, message: str) -> NoReturn:
        _fail(f"{self.prog}: {message} (see --help)")


def _fail(message: str) -> NoReturn:
    sys.stderr.write(f"{message}\n")
    raise SystemExit(EXIT_USAGE)


def _click(text: str) -> tuple[int, int]:
    parts = text.split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected ROW,COL such as 3,0, got {text!r}") from None
    return row, col


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="minesweep",
        description="A Minesweeper engine: the LeetCode 529 board update and more.",
    )
    parser.add_argument("--version", action="version", version=f"minesweep {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    reveal = commands.add_parser(
        "reveal",
        help="apply one click to a board and print the board after it",
        description="Apply one click to a board (LeetCode 529) and print the result.",
        epilog=_REVEAL_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reveal.add_argument(
        "file",
        nargs="?",
        default="-",
        metavar="FILE",
        help="the board, as LeetCode JSON or a text grid; '-' or nothing reads standard input",
    )
    reveal.add_argument(
        "--click",
        type=_click,
        metavar="R,C",
        help="the square to click, row then column from 0; optional when the JSON holds a click",
    )
    reveal.add_argument(
        "--format",
        choices=("json", "grid"),
        help="how to print the board (default: the input's notation)",
    )
    reveal.set_defaults(run=_run_reveal)
    return parser


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except OSError as error:
        _fail(f"minesweep: cannot read {path!r}: {error.strerror or error}")
    except UnicodeDecodeError as error:
        _fail(f"minesweep: cannot read {path!r}: not UTF-8 text ({error.reason})")


def _run_reveal(arguments: argparse.Namespace) -> None:
    board, click, notation = parse_board(_read(arguments.file))
    if arguments.click is not None:
        click = arguments.click
    if click is None:
        _fail("minesweep reveal: no click given; pass --click R,C or put one in the JSON")
    update_board(board, click)
    notation = arguments.format or notation
    sys.stdout.write(to_leetcode_json(board) + "\n" if notation == "json" else to_text_grid(board))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    arguments = _build_parser().parse_args(argv)
    try:
        arguments.run(arguments)
    except MinesweepError as error:
        _fail(f"minesweep {arguments.command}: {error}")
    return 0
