"""The ``minesweep`` command line. It imports only minesweep's public API.

Every failure the user can cause (a missing file, a malformed board, a bad
click) ends with exit status 2 and exactly one line on standard error.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import Any, Final, NoReturn, TypeAlias

from . import __version__
from .errors import MinesweepError
from .leetcode import update_board
from .notation import parse_board, parse_leetcode_json, to_leetcode_json, to_text_grid
from .presets import PRESETS, FirstClickRule

#: The choices of ``--preset`` and ``--rule``, from the one table of each.
_PRESET_NAMES: Final = tuple(PRESETS)
_RULE_NAMES: Final = tuple(rule.value for rule in FirstClickRule)
_PRESET_HELP: Final = ", ".join(
    f"{preset.name} {preset.rows}x{preset.cols}/{preset.mines}" for preset in PRESETS.values()
)

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
{"board": [...], "click": [r, c]}) or a text grid (one row per line;
spaces and tabs in a row are ignored, so 'E E M' reads as 'EEM').
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


class _RuleIsRule(argparse.Action):
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


#: The subcommands of a parser, as argparse types them.
_Commands: TypeAlias = "argparse._SubParsersAction[_Parser]"


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="minesweep",
        description="A Minesweeper engine: the LeetCode 529 board update and more.",
    )
    parser.add_argument("--version", action="version", version=f"minesweep {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    _add_reveal(commands)
    _add_new(commands)
    _add_stats(commands)
    _add_solve(commands)
    _add_play(commands)
    _add_serve(commands)
    _add_bench(commands)
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


def _add_new(commands: _Commands) -> None:
    """``minesweep new``: a random minefield."""
    new = commands.add_parser(
        "new",
        help="generate a random minefield and print or save it",
        description="Generate a random minefield, reproducibly from a seed.",
        epilog=_NEW_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    size = new.add_mutually_exclusive_group()
    size.add_argument(
        "--preset",
        choices=_PRESET_NAMES,
        help=f"{_PRESET_HELP} (the default: expert)",
    )
    size.add_argument(
        "--size", type=_size, metavar="ROWSxCOLS", help="a custom size, such as 20x40"
    )
    new.add_argument("--mines", type=_count, help="the number of mines (with --size)")
    new.add_argument("--seed", type=_count, help="the seed; the same seed gives the same field")
    new.add_argument(
        "--first-click",
        type=_click,
        metavar="R,C",
        help="the square the rule keeps clear (default: the middle of the board)",
    )
    new.add_argument(
        "--rule",
        choices=_RULE_NAMES,
        default="opening",
        help="opening: the first click opens; safe: it holds no mine; none: no promise",
    )
    new.add_argument(
        "--format",
        choices=("text", "leetcode", "json", "mbf"),
        default="text",
        help="text: '*' and '.'; leetcode: LeetCode JSON; json: a game file; mbf: binary",
    )
    new.add_argument(
        "--no-guess",
        action="store_true",
        help="a field the solver clears from the first click without guessing (rule opening)",
    )
    new.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the screen")
    new.set_defaults(run=_run_new)


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
    stats.set_defaults(run=_run_stats)


def _add_solve(commands: _Commands) -> None:
    """``minesweep solve``: mine probabilities and a hint."""
    solve = commands.add_parser(
        "solve",
        help="print the mine probability of every hidden square, and a hint",
        description=(
            "Print the exact mine probability of every hidden square of a position, and "
            "where to click next. Reads a LeetCode board (JSON or grid; its M squares give "
            "the mine count), a game file, or a view: '#' hidden, 'F' flag, '?', '.' or "
            "'0' blank, '1'-'8' (then --mines is needed)."
        ),
    )
    solve.add_argument("file", metavar="FILE", help="the position; '-' reads standard input")
    solve.add_argument("--mines", type=_count, help="the total number of mines")
    solve.set_defaults(run=_run_solve)


def _add_play(commands: _Commands) -> None:
    """``minesweep play``: the terminal game."""
    play_game = commands.add_parser(
        "play",
        help="play in the terminal (needs the extra: pip install 'minesweep[tui]')",
        description=(
            "Play Minesweeper in the terminal. Statistics, best times and the game in "
            "progress are kept under the platform's data directory ($MINESWEEP_DATA_DIR)."
        ),
    )
    kind = play_game.add_mutually_exclusive_group()
    kind.add_argument("--preset", choices=_PRESET_NAMES)
    kind.add_argument("--size", type=_size, metavar="ROWSxCOLS", help="a custom size")
    play_game.add_argument("--mines", type=_count, help="the number of mines (with --size)")
    play_game.add_argument("--seed", type=_count, help="lay the mines from this seed")
    play_game.add_argument(
        "--rule",
        choices=_RULE_NAMES,
        default="opening",
        help="opening: the first click opens (default); safe: it holds no mine; none",
    )
    play_game.add_argument("--first-click", action=_RuleIsRule, help=argparse.SUPPRESS)
    play_game.add_argument(
        "--no-guess", action="store_true", help="boards the solver clears without guessing"
    )
    play_game.add_argument("--mono", action="store_true", help="no colours")
    play_game.add_argument(
        "--keys", metavar="FILE", help="a TOML key file (default: tui.toml in the config dir)"
    )
    play_game.set_defaults(run=_run_play)


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
    serve.add_argument("--port", type=_port, default=8000, help="default 8000")
    serve.add_argument("--db", metavar="URL", help="database URL (default: a SQLite file)")
    serve.add_argument(
        "--log-level",
        choices=["critical", "error", "warning", "info", "debug", "trace"],
        default="info",
        help="uvicorn's log level; info logs every request (default info)",
    )
    serve.add_argument(
        "--no-guess-workers",
        type=_count,
        default=1,
        metavar="N",
        help="processes that make no-guess boards, apart from the server's (0: in the "
        "server's threads; default 1)",
    )
    serve.add_argument(
        "--expire-after",
        type=_seconds,
        default=24 * 3600.0,
        metavar="SECONDS",
        help="an unfinished game ends this long after its last action (default 86400)",
    )
    serve.add_argument(
        "--create-rate",
        type=_rate,
        default=1.0,
        metavar="PER_SECOND",
        help="new games a second per client address, after a burst of 30 (0: no limit; default 1)",
    )
    serve.add_argument(
        "--action-rate",
        type=_rate,
        default=30.0,
        metavar="PER_SECOND",
        help="actions a second per client address, after a burst of 120 (0: no limit; default 30)",
    )
    serve.set_defaults(run=_run_serve)


def _add_bench(commands: _Commands) -> None:
    """``minesweep bench play``: the autoplayer's win rate and speed."""
    bench = commands.add_parser(
        "bench",
        help="measure the autoplayer: win rate and speed over many seeded games",
        description="Measure the solver by playing many seeded games.",
    )
    bench_commands = bench.add_subparsers(dest="bench", metavar="WHAT", parser_class=_Parser)
    bench_commands.required = True
    play = bench_commands.add_parser(
        "play",
        help="play N seeded games and print the win rate with its 95%% interval",
        description=(
            "Play N seeded games with the solver's policy and print the wins, the win rate "
            "with a 95% confidence interval (Wilson), games per second and time per game. "
            "The same seeds give the same results on one process, many, or a Dask cluster."
        ),
        epilog=_BENCH_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    play.add_argument(
        "--preset", choices=_PRESET_NAMES, default="expert", help="the board (default: expert)"
    )
    play.add_argument(
        "--rule",
        choices=_RULE_NAMES,
        default="safe",
        help="what the first click is promised (default: safe)",
    )
    play.add_argument(
        "--first-click",
        default="corner",
        metavar="WHERE",
        help="corner (0,0), center, or R,C (default: corner)",
    )
    play.add_argument("--games", type=_positive, default=1000, help="how many games (default 1000)")
    play.add_argument("--seed", type=_count, default=0, help="the first seed (default 0)")
    where = play.add_mutually_exclusive_group()
    where.add_argument("--workers", type=_positive, help="local processes (default: one per core)")
    where.add_argument(
        "--dask", metavar="ADDRESS", help="run on an existing Dask cluster (tcp://host:port)"
    )
    play.add_argument(
        "--dask-timeout",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="how long to try to reach the Dask scheduler (default 5)",
    )
    play.add_argument("--quiet", action="store_true", help="no progress bar")
    play.set_defaults(run=_run_bench_play)


_BENCH_EXAMPLES = """\
examples:
  minesweep bench play --preset expert --rule safe --first-click corner --games 100000
  minesweep bench play --preset beginner --rule opening --first-click 3,3 --games 1000 --workers 1
  minesweep bench play --games 100000 --dask tcp://scheduler:8786
"""


_NEW_EXAMPLES = """\
examples:
  minesweep new --preset beginner --seed 7
      a beginner field as text, its middle square kept clear
  minesweep new --size 20x40 --mines 150 --first-click 0,0 --format mbf -o board.mbf
      a custom field in the binary format of Minesweeper Arbiter
"""


def _size(text: str) -> tuple[int, int]:
    parts = text.lower().split("x")
    if len(parts) == 2 and all(part.isdigit() for part in parts):
        return int(parts[0]), int(parts[1])
    raise argparse.ArgumentTypeError(f"expected ROWSxCOLS such as 16x30, got {text!r}")


def _count(text: str) -> int:
    if text.isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a non-negative whole number, got {text!r}")


def _positive(text: str) -> int:
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


def _seconds(text: str) -> float:
    seconds = _finite(text)
    if seconds > 0:
        return seconds
    raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {text!r}")


def _rate(text: str) -> float:
    rate = _finite(text)
    if rate >= 0:
        return rate
    raise argparse.ArgumentTypeError(f"expected requests a second (0 for no limit), got {text!r}")


def _port(text: str) -> int:
    if text.isdigit() and 1 <= int(text) <= 65535:
        return int(text)
    raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")


def _read(path: str, command: str) -> str:
    # utf-8-sig: a byte-order mark some editors write is not part of the board.
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:  # a text stream with no bytes underneath
            return sys.stdin.read().removeprefix("\ufeff")
        try:
            return bytes(buffer.read()).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            _fail(
                f"minesweep {command}: cannot read standard input: not UTF-8 text ({error.reason})"
            )
    try:
        with open(path, encoding="utf-8-sig") as stream:
            return stream.read()
    except OSError as error:
        _fail(f"minesweep {command}: cannot read {path!r}: {error.strerror or error}")
    except UnicodeDecodeError as error:
        _fail(f"minesweep {command}: cannot read {path!r}: not UTF-8 text ({error.reason})")


def _run_reveal(arguments: argparse.Namespace) -> None:
    board, click, notation = parse_board(_read(arguments.file, "reveal"))
    if arguments.click is not None:
        click = arguments.click
    if click is None:
        _fail("minesweep reveal: no click given; pass --click R,C or put one in the JSON")
    update_board(board, click)
    notation = arguments.format or notation
    sys.stdout.write(to_leetcode_json(board) + "\n" if notation == "json" else to_text_grid(board))


def _run_new(arguments: argparse.Namespace) -> None:
    from .formats import to_game_json, to_mbf
    from .frontend import Settings
    from .generate import new_seed

    settings = Settings.of(
        preset=arguments.preset,
        size=arguments.size,
        mines=arguments.mines,
        rule=arguments.rule,
        seed=arguments.seed if arguments.seed is not None else new_seed(),
        no_guess=arguments.no_guess,
        first_click=arguments.first_click or "middle",
    )
    field = settings.lay_field()
    data: bytes
    if arguments.format == "mbf":
        data = to_mbf(field)
    elif arguments.format == "json":
        data = (to_game_json(settings.new_game(field=field)) + "\n").encode()
    elif arguments.format == "leetcode":
        data = (to_leetcode_json(field.to_leetcode()) + "\n").encode()
    else:
        data = field.to_text().encode()
    _write(arguments.output, data, "new")


def _write(path: str | None, data: bytes, command: str) -> None:
    if path is None or path == "-":
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    try:
        with open(path, "wb") as stream:
            stream.write(data)
    except OSError as error:
        _fail(f"minesweep {command}: cannot write {path!r}: {error.strerror or error}")


def _run_stats(arguments: argparse.Namespace) -> None:
    from . import board_stats, game_stats

    field, game = _load_field_or_game(arguments.file)
    board = board_stats(field)
    rows = [
        ("size", f"{board.rows}x{board.cols}"),
        ("mines", f"{board.mines} ({board.density:.1%})"),
        ("3BV", f"{board.bbbv}"),
        ("openings", f"{board.openings}"),
        ("islands", f"{board.islands}"),
    ]
    if game is not None:
        played = game_stats(game)
        rows += [
            ("status", played.status.value),
            ("time", f"{played.time:.3f} s"),
            ("solved 3BV", f"{played.solved_bbbv}"),
            (
                "clicks",
                f"{played.clicks} (left {played.left_clicks}, right {played.right_clicks}, "
                f"chord {played.chord_clicks}, wasted {played.wasted_clicks})",
            ),
            ("IOE", f"{played.ioe:.3f}"),
            ("throughput", f"{played.throughput:.3f}"),
            ("correctness", f"{played.correctness:.3f}"),
            ("3BV/s", f"{played.bbbv_per_second:.3f}"),
        ]
    # One column for the values, after the longest label ("correctness"), for a
    # board and a game alike.
    width = len("correctness") + 1
    sys.stdout.write("".join(f"{label:<{width}}{value}\n" for label, value in rows))


def _run_play(arguments: argparse.Namespace) -> None:
    try:
        from .tui import MinesweeperApp, load_keys
    except ImportError:
        _fail("minesweep play: the terminal game needs its extra: pip install 'minesweep[tui]'")
    from pathlib import Path

    if arguments.keys is not None:
        key_file = Path(arguments.keys)
        if not key_file.exists():
            _fail(f"minesweep play: no key file {arguments.keys!r}")
    else:
        from platformdirs import user_config_dir

        key_file = Path(user_config_dir("minesweep", appauthor=False)) / "tui.toml"
    from .frontend import Settings

    keys = load_keys(key_file)
    settings = Settings.of(
        preset=arguments.preset,
        size=arguments.size,
        mines=arguments.mines,
        rule=arguments.rule,
        seed=arguments.seed,
        no_guess=arguments.no_guess,
    )
    MinesweeperApp(settings, theme="mono" if arguments.mono else "color", keys=keys).run()


def _run_serve(arguments: argparse.Namespace) -> None:
    try:
        import uvicorn

        from .web import create_app
    except ImportError:
        _fail("minesweep serve: the web game needs its extra: pip install 'minesweep[web]'")
    from .web import Limits

    limits = Limits(
        no_guess_workers=arguments.no_guess_workers,
        expire_after=arguments.expire_after,
        create_rate=arguments.create_rate or None,
        action_rate=arguments.action_rate or None,
    )
    try:
        app = create_app(arguments.db, limits=limits)
    except Exception as error:  # a bad URL or an unreachable database
        _fail(f"minesweep serve: cannot open the database: {str(error).splitlines()[0]}")
    _check_listen(arguments.host, arguments.port)
    host = f"[{arguments.host}]" if ":" in arguments.host else arguments.host
    database = app.state.service.db.engine.url.render_as_string(hide_password=True)
    print(
        f"minesweep serve: listening on http://{host}:{arguments.port} (database {database})",
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(app, host=arguments.host, port=arguments.port, log_level=arguments.log_level)


def _check_listen(host: str, port: int) -> None:
    """Fail in one line if the address cannot be listened on (a bad host, a port in use).

    uvicorn would report it in its own log format and exit with status 3.
    """
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as error:
        reason = error.strerror or str(error)
        _fail(f"minesweep serve: cannot listen on {host}:{port}: {reason}")


def _run_bench_play(arguments: argparse.Namespace) -> None:
    import time

    from .autoplay import PlayConfig, default_workers, play_games, summarize

    config = PlayConfig.preset(
        arguments.preset, rule=arguments.rule, first_click=arguments.first_click
    )
    seeds = range(arguments.seed, arguments.seed + arguments.games)
    workers = arguments.workers or (1 if arguments.dask else default_workers())
    started = time.perf_counter()

    def progress(done: int, total: int, wins: int) -> None:
        if arguments.quiet or not sys.stderr.isatty():
            return
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.perf_counter() - started
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
            f"{wins / max(done, 1):.2%} won, {done / max(elapsed, 1e-9):.0f} games/s"
        )
        sys.stderr.flush()

    records = play_games(
        config,
        seeds,
        workers=workers,
        dask_address=arguments.dask,
        dask_timeout=arguments.dask_timeout,
        progress=progress,
    )
    if not arguments.quiet and sys.stderr.isatty():
        sys.stderr.write("\n")
    summary = summarize(records, time.perf_counter() - started)
    where = f"Dask at {arguments.dask}" if arguments.dask else f"{workers} process(es)"
    sys.stdout.write(
        f"{arguments.preset} {config.rows}x{config.cols}/{config.mines}, rule {config.rule}, "
        f"first click {config.first_click}, seeds {arguments.seed}..."
        f"{arguments.seed + arguments.games - 1}, {where}\n"
        f"wins       {summary.wins} of {summary.games}\n"
        f"win rate   {summary.win_rate:.2%} (95% CI {summary.low:.2%} to {summary.high:.2%})\n"
        f"speed      {summary.games_per_second:.1f} games/s\n"
        f"per game   median {summary.median_game * 1e3:.1f} ms, "
        f"p99 {summary.p99_game * 1e3:.1f} ms\n"
    )


def _run_solve(arguments: argparse.Namespace) -> None:
    from .solver import analyze, before_first_reveal, hint, hint_from_analysis

    glyphs, mines, game = _load_view(arguments.file)
    if arguments.mines is not None:
        mines = arguments.mines
    if mines is None:
        _fail("minesweep solve: a view does not say how many mines there are; pass --mines N")
    analysis = analyze(glyphs, mines)
    lines = [
        "".join(_square(glyphs, analysis, r, c) for c in range(glyphs.shape[1]))
        for r in range(glyphs.shape[0])
    ]
    if game is not None and before_first_reveal(game):
        advice = hint(game)
    else:
        advice = hint_from_analysis(analysis, glyphs)
    lines.append("")
    lines.append(
        "mine probability in % of each hidden square; S certainly safe, * certainly a mine"
    )
    if game is not None and before_first_reveal(game):
        # The table is the mines' density: it does not know the first click is
        # promised. Say what the rule guarantees, so a 12% and "certainly safe"
        # do not read as a contradiction.
        lines.append(_first_click_promise(game.rule.value))
    lines.append(f"hint: click ({advice.row}, {advice.col}): {advice.reason}")
    sys.stdout.write("\n".join(lines) + "\n")


def _first_click_promise(rule: str) -> str:
    promise = {
        "opening": "whichever square you click first holds no mine, and nor do its neighbours",
        "safe": "whichever square you click first holds no mine",
        "none": "nothing: the first click may hit a mine",
    }[rule]
    return (
        f"no square is revealed yet; the '{rule}' rule promises {promise} (the mines are "
        "laid after that click); the percentages are for squares you do not click first"
    )


def _square(glyphs: Any, analysis: Any, row: int, col: int) -> str:
    """A square of ``solve``'s table, four columns wide: its number, or its mine probability."""
    from .squares import MAX_NUMBER

    glyph = glyphs[row, col]
    if glyph <= MAX_NUMBER:
        return f"{'.12345678'[glyph]:>4}"
    value = analysis.probability[row, col]
    exact = analysis.exact(row, col)
    if exact == 0:
        return "   S"
    if exact == 1:
        return "   *"
    if value < 0.01:
        return "  <1"
    if value > 0.99:
        return " >99"
    return f"{round(value * 100):>4}"


def _load_view(path: str) -> tuple[Any, int | None, Any]:
    """A position to solve: (glyphs, total mines or None when the file does not say, game).

    The game is None unless the file is a game file.
    """
    import numpy as np

    from .formats import parse_game_json, parse_view
    from .notation import parse_text_grid

    text = _read(path, "solve")
    start = text.lstrip()[:1]
    if start == "{" and '"format"' in text:
        game = parse_game_json(text)
        return game.glyphs(), game.mine_count, game
    if start in ("[", "{"):
        board, _ = parse_leetcode_json(text)
    elif text.strip() and not text.strip().strip("MEBXme12345678\n\r\t "):
        board = parse_text_grid(text)
    else:
        return parse_view(text), None, None
    flat = "".join("".join(row) for row in board)
    if "X" in flat:
        _fail("minesweep solve: the board shows an exploded mine: the game is over")
    from . import Board
    from .squares import GLYPH_FLAG, GLYPH_HIDDEN, STATE_FLAGGED, STATE_REVEALED

    position = Board.from_leetcode(board)
    glyphs = np.full(position.shape, GLYPH_HIDDEN, np.uint8)
    state = position.state
    revealed = state == STATE_REVEALED
    glyphs[revealed] = position.field.numbers[revealed]
    glyphs[state == STATE_FLAGGED] = GLYPH_FLAG
    return glyphs, position.field.mine_count, None


def _load_field_or_game(path: str) -> tuple[Any, Any]:
    """A board file in any format minesweep reads: (minefield, game or None)."""
    from . import Minefield
    from .formats import parse_game_json, parse_mbf
    from .notation import parse_text_grid

    data = _read_bytes(path, "stats")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return parse_mbf(data), None
    start = text.lstrip()[:1]
    if start == "{" and '"format"' in text:
        game = parse_game_json(text)
        if game.field is None:
            _fail("minesweep stats: the game's mines are not laid yet (no reveal so far)")
        return game.field, game
    if start in ("[", "{"):
        board, _ = parse_leetcode_json(text)
        return Minefield.from_leetcode(_unflagged(board)), None
    if text.strip() and not text.strip().strip("*.\n\r\t "):
        return Minefield.from_text(text), None
    if text.strip() and not text.strip().strip("MEBXme12345678\n\r\t "):
        return Minefield.from_leetcode(_unflagged(parse_text_grid(text))), None
    if not data.strip():
        _fail("minesweep stats: the input is empty")
    if "".join(text.split()).isprintable():
        # MBF is binary: its first bytes (the size) are control characters.
        _fail(
            "minesweep stats: not a board minesweep reads: expected MBF, a game file, "
            "LeetCode JSON or grid, or '*'/'.' text"
        )
    return parse_mbf(data), None


def _unflagged(board: list[list[str]]) -> list[list[str]]:
    """A LeetCode board with its flags (lowercase ``m``/``e``, see Board) taken off."""
    return [[cell.upper() if cell in ("m", "e") else cell for cell in row] for row in board]


def _read_bytes(path: str, command: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError as error:
        _fail(f"minesweep {command}: cannot read {path!r}: {error.strerror or error}")


#: Options whose value is a square: a negative row ("-1,0") must reach our
#: check, which says what is wrong with it.
_SQUARE_OPTIONS: Final = ("--click", "--first-click")


def _join_negative_squares(argv: Sequence[str]) -> list[str]:
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    words = sys.argv[1:] if argv is None else argv
    arguments = _build_parser().parse_args(_join_negative_squares(words))
    try:
        arguments.run(arguments)
    except MinesweepError as error:
        command = arguments.command + (
            f" {arguments.bench}" if arguments.command == "bench" else ""
        )
        _fail(f"minesweep {command}: {error}")
    return 0
