"""The command line's grammar: every command, its options and its help."""

from __future__ import annotations

import argparse
import textwrap
from typing import TypeAlias

from .. import __version__
from ..presets import PRESETS, STRENGTHS, FirstClickRule
from . import _commands as run
from . import _replay
from ._args import (
    GAME_RULE,
    Parser,
    RuleIsRule,
    add_game_options,
    add_preset_option,
    add_rule_option,
    click,
    count,
    factor,
    ipv6_prefix,
    port,
    positive,
    rate,
    seconds,
)

__all__ = ["build_parser"]

#: The subcommands of a parser, as argparse types them.
_Commands: TypeAlias = "argparse._SubParsersAction[Parser]"

_REVEAL_EXAMPLES = """\
examples:
  minesweep reveal examples/example1.json
      the seed's first example; the file holds the board and the click
  printf 'EEEEE\\nEEMEE\\nEEEEE\\nEEEEE\\n' | minesweep reveal --click 3,0
      a text grid on standard input; prints the board after the click

notation: M hidden mine, E hidden square, B revealed blank, 1-8 revealed
number, X exploded mine. Input is LeetCode JSON (a list of rows, or
{"board": [...], "click": [r, c]}) or a text grid (one row per line;
spaces and tabs in a row are ignored, so 'E E M' reads as 'EEM').
"""

_NEW_EXAMPLES = """\
examples:
  minesweep new --preset beginner --seed 7
      a beginner field as text, its middle square kept clear
  minesweep new --size 20x40 --mines 150 --first-click 0,0 --format mbf -o board.mbf
      a custom field in the binary format of Minesweeper Arbiter
  minesweep new --preset expert --no-guess --seed 7 --format json -o game.json
      a field the solver clears without guessing, as a game file; the same seed
      gives the same field, but the file's "seed" is null: the seed starts a
      search over many fields, and a game file's seed must lay its field
      itself, so the file holds the field instead
"""

_BENCH_EXAMPLES = """\
examples:
  minesweep bench play --preset expert --rule safe --first-click corner --games 100000
  minesweep bench play --preset beginner --rule opening --first-click 3,3 --games 1000 --workers 1
  minesweep bench play --strength fast --games 100000
  minesweep bench play --strength strongest --games 20000 --workers 1
  minesweep bench play --games 100000 --dask tcp://scheduler:8786
"""


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="minesweep",
        description="A Minesweeper engine: the LeetCode 529 board update and more.",
    )
    parser.add_argument("--version", action="version", version=f"minesweep {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    _add_reveal(commands)
    _add_new(commands)
    _add_stats(commands)
    _add_solve(commands)
    _add_play(commands)
    _add_serve(commands)
    _add_bench(commands)
    _add_warm(commands)
    _add_replay(commands)
    return parser


def _add_reveal(commands: _Commands) -> None:
    """``minesweep reveal``: one click on a board (LeetCode 529)."""
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
        type=click,
        metavar="R,C",
        help="the square to click, row then column from 0; optional when the JSON holds a click",
    )
    reveal.add_argument(
        "--format",
        choices=("json", "grid"),
        help="how to print the board (default: the input's notation)",
    )
    reveal.set_defaults(run=run.reveal)


#: bench play's first-click rule and first click when none is given.
_BENCH_RULE = "safe"
_BENCH_FIRST_CLICK = "corner"


def _defaults(rule: str) -> str:
    """What a command plays without options: the board and the first-click rule.

    From the one table of presets and rules, so that the help cannot drift
    from the defaults it states (``--preset`` defaults to expert everywhere).
    """
    expert = PRESETS["expert"]
    return (
        f"Without options: an expert board ({expert.rows}x{expert.cols}, {expert.mines} mines), "
        f"first-click rule {rule} ({FirstClickRule(rule).brief})."
    )


def _add_new(commands: _Commands) -> None:
    """``minesweep new``: a random minefield."""
    new = commands.add_parser(
        "new",
        help="generate a random minefield and print or save it",
        description=textwrap.fill(
            "Generate a random minefield, reproducibly from a seed. " + _defaults(GAME_RULE)
        ),
        epilog=_NEW_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_options(new)
    new.add_argument(
        "--first-click",
        type=click,
        metavar="R,C",
        help="the square the rule keeps clear, row then column from 0 as in the JSON formats "
        "(default: the middle of the board)",
    )
    new.add_argument(
        "--format",
        choices=("text", "leetcode", "json", "mbf"),
        help="text: '*' and '.'; leetcode: LeetCode JSON; json: a game file; mbf: binary "
        "(to a file: -o FILE). Default: mbf for -o FILE.mbf, json for -o FILE.json, "
        "else text",
    )
    new.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the screen")
    new.set_defaults(run=run.new)


def _add_stats(commands: _Commands) -> None:
    """``minesweep stats``: what a board asks of a player, and how a game was played."""
    stats = commands.add_parser(
        "stats",
        help="print the 3BV, openings and islands of a board file",
        description=(
            "Print what a minefield asks of a player (3BV, openings, islands), and for a "
            "game file how it was played. Reads MBF, game JSON, LeetCode JSON or grids, "
            "and '*'/'.' text."
        ),
    )
    stats.add_argument(
        "file", metavar="FILE", help="the board or game file; '-' reads standard input"
    )
    stats.set_defaults(run=run.stats)


_REPLAY_EXAMPLES = """\
examples:
  minesweep replay game.evf
      a summary: player, board, time, 3BV, clicks, IOE, ZiNi, STNB, and checks
  minesweep replay --format json replays/ > stats.jsonl
      every replay in a folder (recursively, told by its bytes), one JSON
      object a line
  minesweep replay --format csv --workers 2 replays/ > stats.csv
      one row a file, read on two processes
  minesweep replay --clicks game.evf
      the exact solver's verdict on every click: its mine chance, guesses
      (avoidable or forced), certain only by counting, the game's luck
  minesweep replay --clicks --format csv replays/ > clicks.csv
      one row a click of every file
  minesweep replay --clicks game.evf --svg guesses/
      the verdicts, and a picture of every guess: the heat map before it,
      the click and the best alternative marked (guesses/click-0042.svg)
  minesweep replay game.evf --gif game.gif --speed 2
      the game as an animation, twice as fast (needs minesweep[pictures]);
      --apng game.png and --webp game.webp write the same as APNG or WebP
  minesweep replay game.evf --timeline timeline.svg
      3BV solved against time, each guess marked with its chance, and the luck

formats: AVF (Minesweeper Arbiter), RMV (Viennasweeper v1, v2), EVF
(Metasweeper v0-v4), MVF (Minesweeper Clone) and RawVF text; the
content decides, not the extension: a folder's replays are the files whose
first bytes are a replay's (and any named .avf .rmv .evf .mvf .rawvf, so
that a damaged one is reported). Statistics follow ms-toollib's
definitions and names; the checks compare the header's claims (3BV, time,
won) with what the board and events show.
"""


def _add_where(command: argparse.ArgumentParser, workers_help: str, verb: str) -> None:
    """``--workers N`` or ``--dask ADDRESS`` (with ``--dask-timeout``): where the work runs."""
    where = command.add_mutually_exclusive_group()
    where.add_argument("--workers", type=positive, help=workers_help)
    where.add_argument(
        "--dask", metavar="ADDRESS", help=f"{verb} on an existing Dask cluster (tcp://host:port)"
    )
    command.add_argument(
        "--dask-timeout",
        type=seconds,
        default=5.0,
        metavar="SECONDS",
        help="how long to try to reach the Dask scheduler (default 5)",
    )


def _add_replay(commands: _Commands) -> None:
    """``minesweep replay``: replay files' statistics, one summary (or record) a file."""
    replay = commands.add_parser(
        "replay",
        help="read replay files (AVF, RMV, EVF, MVF, RawVF) and print their statistics",
        description=(
            "Read competitive replay files, or folders of them, and print each game's "
            "statistics as players rank by them, with the checks of the file's own claims. "
            "A file that cannot be read is one line on standard error (exit status 2 at "
            "the end); the others are still printed."
        ),
        epilog=_REPLAY_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    replay.add_argument("files", nargs="+", metavar="FILE", help="replay files or folders")
    replay.add_argument(
        "--format",
        choices=("text", "json", "csv"),
        default="text",
        help="a summary a file (text, the default), JSON Lines, or CSV",
    )
    replay.add_argument(
        "--clicks",
        action="store_true",
        help="the solver's verdict on every click instead of a summary a file",
    )
    replay.add_argument(
        "--gif",
        metavar="OUT",
        help=(
            "write one replay's game as an animated GIF: the board after every event that "
            "changed it, the cursor and a caption (player, time, 3BV, 3BV/s), timed like "
            "the original but with pauses cut to 2 s (needs Pillow: "
            "pip install 'minesweep[pictures]')"
        ),
    )
    replay.add_argument(
        "--apng",
        metavar="OUT.png",
        help="as --gif, written as an animated PNG (the same frames and times)",
    )
    replay.add_argument(
        "--webp",
        metavar="OUT.webp",
        help=(
            "as --gif, written as a lossless animated WebP (the same frames and times; "
            "needs Pillow built with WebP, as its wheels are)"
        ),
    )
    replay.add_argument(
        "--svg",
        metavar="DIR",
        help=(
            "with --clicks, for one file: also write a picture of every guess into DIR, "
            "the view before the click with the heat map of mine chances, the click and "
            "the best alternative marked, and the verdict under it; named "
            "click-NNNN.svg by the click's index (as in --format json)"
        ),
    )
    replay.add_argument(
        "--timeline",
        metavar="OUT.svg",
        help=(
            "write one replay's timeline as an SVG chart: the 3BV solved against time, "
            "each guess marked with its mine chance, and the luck running total"
        ),
    )
    replay.add_argument(
        "--speed",
        type=factor,
        default=1.0,
        metavar="FACTOR",
        help="with --gif, --apng or --webp: play this many times as fast (default 1)",
    )
    _add_where(replay, "local processes to read on (default 1)", "read")
    replay.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="no progress line on standard error (it is shown only on a terminal)",
    )
    replay.set_defaults(run=_replay.replay)


def _add_solve(commands: _Commands) -> None:
    """``minesweep solve``: mine probabilities and a hint."""
    solve = commands.add_parser(
        "solve",
        help="print the mine probability of every hidden square, and a hint",
        description=(
            "Print the exact mine probability of every hidden square of a position, and "
            "where to click next. Reads a LeetCode board (JSON or grid; its M squares give "
            "the mine count), a game file, or a view: '#' hidden, 'F' flag, '?', '.' or "
            "'0' blank, '1'-'8' (then --mines is needed). A minefield (MBF, or '*'/'.' "
            "text, as new writes them) is read as the view it starts from: every square "
            "hidden, with its mines."
        ),
    )
    solve.add_argument("file", metavar="FILE", help="the position; '-' reads standard input")
    solve.add_argument(
        "--mines",
        type=count,
        help="the total number of mines (a board, game or minefield says it: must agree)",
    )
    solve.add_argument(
        "--svg",
        metavar="OUT.svg",
        help=(
            "also write the heat map as an SVG picture, the hint framed and the certain "
            "squares marked"
        ),
    )
    solve.set_defaults(run=run.solve)


def _add_warm(commands: _Commands) -> None:
    """``minesweep warm``: compile the kernels ahead of their first use."""
    warm = commands.add_parser(
        "warm",
        help=(
            "compile the kernels now: engine, solver, autoplay, vector, replays "
            "(once after an install)"
        ),
        description=(
            "Compile the compiled kernels ahead of their first use, part by part, with a "
            "line for each. Without it, the first solve, hint, bench play or RL step after "
            "an install runs uncompiled while one background process compiles every part "
            "(several minutes on a small machine); after warm, each loads them from numba's "
            "cache in about a second."
        ),
    )
    warm.add_argument(
        "parts",
        nargs="*",
        metavar="PART",
        help="engine, solver, autoplay, vector, replays (default: all)",
    )
    warm.set_defaults(run=run.warm)


def _add_play(commands: _Commands) -> None:
    """``minesweep play``: the terminal game."""
    play_game = commands.add_parser(
        "play",
        help="play in the terminal (needs the extra: pip install 'minesweep[tui]')",
        description=(
            "Play Minesweeper in the terminal. "
            + _defaults(GAME_RULE)
            + " Statistics, best times and the game in progress are kept under the "
            "platform's data directory ($MINESWEEP_DATA_DIR). q, or Ctrl-C, saves the "
            "game in progress and quits (Ctrl-C with exit status 130)."
        ),
    )
    add_game_options(play_game)
    play_game.add_argument("--first-click", action=RuleIsRule, help=argparse.SUPPRESS)
    play_game.add_argument("--mono", action="store_true", help="no colours")
    play_game.add_argument(
        "--keys", metavar="FILE", help="a TOML key file (default: tui.toml in the config dir)"
    )
    play_game.set_defaults(run=run.play)


def _add_serve(commands: _Commands) -> None:
    """``minesweep serve``: the web game."""
    serve = commands.add_parser(
        "serve",
        help="serve the web game (needs the extra: pip install 'minesweep[web]')",
        description=(
            "Serve the web game. The server holds the mines and the rules; the page only "
            "draws what the player may see. --db takes an SQLAlchemy URL: the default is a "
            "SQLite file under the platform's data directory; postgresql://user@host/db lets "
            "several server processes share one database."
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help="default 127.0.0.1")
    serve.add_argument("--port", type=port, default=8000, help="default 8000")
    serve.add_argument("--db", metavar="URL", help="database URL (default: a SQLite file)")
    serve.add_argument(
        "--log-level",
        choices=["critical", "error", "warning", "info", "debug", "trace"],
        default="info",
        help="uvicorn's log level; info logs every request (default info)",
    )
    serve.add_argument(
        "--no-guess-workers",
        type=count,
        default=1,
        metavar="N",
        help="processes that make no-guess boards, apart from the server's (0: in the "
        "server's threads; default 1)",
    )
    serve.add_argument(
        "--expire-after",
        type=seconds,
        default=24 * 3600.0,
        metavar="SECONDS",
        help="an unfinished game ends this long after its last action (default 86400)",
    )
    serve.add_argument(
        "--create-rate",
        type=rate,
        default=1.0,
        metavar="PER_SECOND",
        help="new games a second per client address, after a burst of 30 (0: no limit; default 1)",
    )
    serve.add_argument(
        "--action-rate",
        type=rate,
        default=30.0,
        metavar="PER_SECOND",
        help="actions a second per client address, after a burst of 120 (0: no limit; default 30)",
    )
    serve.add_argument(
        "--cpu-rate",
        type=rate,
        default=100.0,
        metavar="MS_PER_SECOND",
        help="milliseconds of server CPU a second per client address, after a burst of 3 s: "
        "each request is charged what it used (0: no limit; default 100)",
    )
    serve.add_argument(
        "--max-in-flight",
        type=count,
        default=4,
        metavar="N",
        help="requests a client address may have running at once (0: no limit; default 4)",
    )
    serve.add_argument(
        "--ipv6-prefix",
        type=ipv6_prefix,
        default=64,
        metavar="BITS",
        help="an IPv6 client is its network of this many leading bits to every limit, so "
        "that one subscriber's addresses share one limit (default 64; 128: per address)",
    )
    serve.add_argument(
        "--trust-proxy",
        nargs="+",
        default=[],
        metavar="ADDR",
        help="addresses (or networks) of proxies whose X-Forwarded-For names the client; "
        "by default none is trusted and the client is the connection's address",
    )
    serve.add_argument(
        "--operator",
        action="append",
        default=[],
        metavar="NAME",
        help="the account NAME reviews records: sees the wins held for review and confirms or "
        "voids them (repeatable; the account must exist: register it first)",
    )
    serve.add_argument(
        "--header-timeout",
        type=seconds,
        default=10.0,
        metavar="SECONDS",
        help="close a connection whose request headers take longer than this (default 10)",
    )
    serve.set_defaults(run=run.serve)


def _add_bench(commands: _Commands) -> None:
    """``minesweep bench play``: the autoplayer's win rate and speed."""
    bench = commands.add_parser(
        "bench",
        help="measure the autoplayer: win rate and speed over many seeded games",
        description="Measure the solver by playing many seeded games.",
    )
    bench_commands = bench.add_subparsers(dest="bench", metavar="WHAT", parser_class=Parser)
    bench_commands.required = True
    play = bench_commands.add_parser(
        "play",
        help="play N seeded games and print the win rate with its 95%% interval",
        # Filled here: the raw formatter keeps the examples' lines, and this too.
        description=textwrap.fill(
            "Play N seeded games with the solver's policy and print the wins, the win rate "
            "with a 95% confidence interval (Wilson), games per second and time per game. "
            "The same seeds give the same results on one process, many, or a Dask cluster. "
            + _defaults(_BENCH_RULE)
            + f" The first click: {_BENCH_FIRST_CLICK}."
        ),
        epilog=_BENCH_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_preset_option(play, default="expert")
    add_rule_option(play, default=_BENCH_RULE)
    play.add_argument(
        "--first-click",
        default=_BENCH_FIRST_CLICK,
        metavar="WHERE",
        help="corner (0,0), center, or R,C, row then column from 0 (default: corner)",
    )
    play.add_argument(
        "--strength",
        choices=STRENGTHS,
        default="default",
        help="the player's tuning, from speed to strength: fast (no lookahead, Tu et al.'s "
        "tie-break: about 3 times the games a second, 1.2 points weaker on expert), "
        "default (default), or strongest (the default's rules with larger searches and "
        "a survival search of depth 3: about 0.17 points stronger on expert at about a "
        "tenth of the games a second; BENCHMARKS.md gives each one's win rate and speed)",
    )
    play.add_argument("--games", type=positive, default=1000, help="how many games (default 1000)")
    play.add_argument("--seed", type=count, default=0, help="the first seed (default 0)")
    _add_where(play, "local processes (default: one per core)", "run")
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    play.set_defaults(run=run.bench_play)
