"""The ``minesweep`` command line. It imports only minesweep's public API.

Every failure the user can cause (a missing file, a malformed board, a bad
click) ends with exit status 2 and exactly one line on standard error; Ctrl-C
ends a command with one line too, and exit status 130. Output piped into a
reader that stops early (``| head``) ends the command quietly, as a Unix tool
does.

The package is a map of its jobs: ``_args`` the option types and the game
settings every command shares (:func:`~._args.settings_from`), ``_input``
reading the user's files (the only place that does) and wording what
:func:`minesweep.formats.sniff` finds in them, ``_parser`` the commands and
their help, ``_commands`` what each command does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from ..errors import MinesweepError
from ._args import EXIT_USAGE, fail, interrupted, join_negative_squares
from ._parser import build_parser

__all__ = ["EXIT_USAGE", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    Ctrl-C ends a command with one line too, and exit status 130.
    """
    words = sys.argv[1:] if argv is None else argv
    command = "minesweep"
    try:
        arguments = build_parser().parse_args(join_negative_squares(words))
        command += f" {arguments.command}" + (
            f" {arguments.bench}" if arguments.command == "bench" else ""
        )
        arguments.run(arguments)
    except MinesweepError as error:
        fail(f"{command}: {error}")
    except KeyboardInterrupt:
        interrupted(f"{command}: interrupted")
    except BrokenPipeError:
        # The reader of our output has gone: nothing more can be said. Point
        # standard output at nothing, so that the interpreter's own flush at
        # exit does not fail again, and end as a pipe's writer is ended.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _EXIT_BROKEN_PIPE
    return 0


# 128 + SIGPIPE, what a shell reports for a writer stopped by a closed pipe.
_EXIT_BROKEN_PIPE = 141
