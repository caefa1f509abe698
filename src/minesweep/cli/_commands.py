"""What each command does, once its options are read: one function a command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import StorageError
from ..leetcode import check_leetcode_board, update_board
from ..notation import parse_board, to_leetcode_json, to_text_grid
from ..presets import FirstClickRule
from ..squares import square_name
from ..warm import compile_under_way, is_compiled, never_compiles, notice_when_slow
from ..warm import warm as warm_parts
from ._args import fail, interrupted, settings_from
from ._input import load_field_or_game, load_view, read_text

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ..solver import Analysis, Hint

__all__ = ["bench_play", "new", "play", "reveal", "serve", "solve", "stats", "warm"]


def reveal(arguments: argparse.Namespace) -> None:
    board, click, notation = parse_board(read_text(arguments.file, "reveal"))
    if arguments.click is not None:
        click = arguments.click
    if click is None:
        # A file that is no board says so first: the click is not what is wrong with it.
        check_leetcode_board(board, allow_exploded=True)
        where = (
            'or in the JSON, as {"board": [...], "click": [3, 0]}'
            if notation == "json"
            else "(a text grid holds no click)"
        )
        fail(
            "minesweep reveal: no click given; pass one as --click R,C, row then column "
            f"from 0, such as --click 3,0 {where}"
        )
    update_board(board, click)
    notation = arguments.format or notation
    sys.stdout.write(to_leetcode_json(board) + "\n" if notation == "json" else to_text_grid(board))


def new(arguments: argparse.Namespace) -> None:
    from ..formats import to_game_json, to_mbf

    if arguments.format is None:
        # A file named board.mbf is meant to be MBF: the name says the format.
        suffix = Path(arguments.output or "").suffix.lower()
        arguments.format = {".mbf": "mbf", ".json": "json"}.get(suffix, "text")
    if arguments.format == "mbf" and arguments.output is None and sys.stdout.isatty():
        # As curl does with binary output: the bytes would garble the terminal.
        fail(
            "minesweep new: MBF is binary, not for a terminal; write it to a file with "
            "-o FILE (or -o - to send it to standard output anyway)"
        )
    settings = settings_from(
        arguments, "new", draw_seed=True, first_click=arguments.first_click or "center"
    )
    field = _lay(settings, arguments.no_guess_seconds)
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


def _lay(settings: Any, no_guess_seconds: float | None) -> Any:
    """The field ``new`` writes; a no-guess search gets ``no_guess_seconds`` (None: its default).

    A search out of time ends the command, saying how to give it more.
    """
    if not settings.no_guess:
        return settings.lay_field()
    from ..solver import NoGuessBudgetError

    try:
        if no_guess_seconds is None:
            return settings.lay_field()
        return settings.lay_field(no_guess_seconds=no_guess_seconds)
    except NoGuessBudgetError as error:
        fail(
            f"minesweep new: {error}; give it longer with --no-guess-seconds, "
            "or try fewer mines or a larger board"
        )


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
        fail(f"minesweep {command}: cannot write {path!r}: {error.strerror or error}")


def stats(arguments: argparse.Namespace) -> None:
    from .. import board_stats, game_stats

    field, game = load_field_or_game(arguments.file)
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


def play(arguments: argparse.Namespace) -> None:
    try:
        from ..tui import MinesweeperApp, load_keys, parse_keys
    except ImportError:
        fail("minesweep play: the terminal game needs its extra: pip install 'minesweep[tui]'")
    from pathlib import Path

    if arguments.keys is not None:
        key_file = Path(arguments.keys)
        if not key_file.exists():
            fail(f"minesweep play: no key file {arguments.keys!r}")
    else:
        from platformdirs import user_config_dir

        key_file = Path(user_config_dir("minesweep", appauthor=False)) / "tui.toml"
    # The user's files are read by the command line's one reader (a
    # byte-order mark dropped, a failure worded once); the terminal game
    # reads the key map from the text.
    if key_file.exists():
        keys = parse_keys(read_text(str(key_file), "play"), where=str(key_file))
    else:
        keys = load_keys(None)
    settings = settings_from(arguments, "play")
    options: dict[str, Any] = {}
    if arguments.no_guess_seconds is not None:
        options["lay_no_guess"] = _no_guess_layer(arguments.no_guess_seconds)
    app = MinesweeperApp(
        settings,
        theme="mono" if arguments.mono else "color",
        keys=keys,
        key_file=key_file,
        **options,
    )
    app.run()
    if app.failure is not None:
        raise app.failure  # a write refused mid-game: one line, as at the start
    if app.interrupted:
        # Said once the terminal is restored: the game was saved as by its quit key.
        raise KeyboardInterrupt


def _no_guess_layer(seconds: float) -> Any:
    """What lays a no-guess field at the terminal game's first reveal, searching ``seconds``."""
    from ..solver import no_guess_game

    def lay(
        rows: int,
        cols: int,
        mines: int,
        first_click: tuple[int, int],
        seed: int | None,
        _default_seconds: float | None,
    ) -> Any:
        game = no_guess_game(
            rows, cols, mines, first_click=first_click, seed=seed, max_seconds=seconds
        )
        return game.field

    return lay


def serve(arguments: argparse.Namespace) -> None:
    try:
        from ..web import create_app
        from ..web.server import serve_app
    except ImportError:
        fail("minesweep serve: the web game needs its extra: pip install 'minesweep[web]'")
    from ..web import Limits
    from ..web.review import UnknownOperatorError

    limits = Limits(
        no_guess_workers=arguments.no_guess_workers,
        expire_after=arguments.expire_after,
        create_rate=arguments.create_rate or None,
        action_rate=arguments.action_rate or None,
        cpu_rate=arguments.cpu_rate or None,
        max_in_flight=arguments.max_in_flight or None,
        ipv6_prefix=arguments.ipv6_prefix,
    )
    try:
        app = create_app(arguments.db, limits=limits, operators=arguments.operator)
    except StorageError:
        raise  # the data directory: said by main in one line, as play says it
    except UnknownOperatorError as error:
        fail(f"minesweep serve: {error}")
    except Exception as error:  # a bad URL or an unreachable database
        fail(f"minesweep serve: cannot open the database: {str(error).splitlines()[0]}")
    _check_listen(arguments.host, arguments.port)
    host = f"[{arguments.host}]" if ":" in arguments.host else arguments.host
    database = app.state.service.db.engine.url.render_as_string(hide_password=True)
    print(
        f"minesweep serve: listening on http://{host}:{arguments.port} (database {database})",
        file=sys.stderr,
        flush=True,
    )
    serve_app(
        app,
        host=arguments.host,
        port=arguments.port,
        log_level=arguments.log_level,
        trust_proxy=arguments.trust_proxy,
        header_timeout=arguments.header_timeout,
    )


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
        fail(f"minesweep serve: cannot listen on {host}:{port}: {reason}")


class _Progress:
    """``bench play``'s progress bar on standard error (a terminal's only), and what it counted."""

    def __init__(self, shown: bool) -> None:
        import time

        self.shown = shown
        self.started = time.perf_counter()
        #: The games played so far, as the last report said.
        self.done = 0

    def __call__(self, done: int, total: int, wins: int) -> None:
        import time

        self.done = done
        if not self.shown:
            return
        width = 30
        filled = width * done // max(total, 1)
        elapsed = time.perf_counter() - self.started
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
            f"{wins / max(done, 1):.2%} won, {done / max(elapsed, 1e-9):.0f} games/s"
        )
        sys.stderr.flush()


def bench_play(arguments: argparse.Namespace) -> None:
    """Play the games; Ctrl-C, from the start on, ends it with one line and status 130."""
    progress = _Progress(shown=not arguments.quiet and sys.stderr.isatty())
    try:
        _bench_play(arguments, progress)
    except KeyboardInterrupt as interrupt:
        # A PlayInterrupted holds the games played; an interrupt before the
        # games began holds none, and the progress bar's count (0) says it.
        played = getattr(interrupt, "records", None)
        done = progress.done if played is None else len(played)
        games = arguments.games
        interrupted(
            f"minesweep bench play: interrupted after {done:,} of {games:,} "
            f"game{'s' if games != 1 else ''}",
            after_progress=progress.shown and progress.done > 0,
        )


def _bench_play(arguments: argparse.Namespace, progress: _Progress) -> None:
    import time

    from ..autoplay import PlayConfig, default_workers, play_games, summarize

    config = PlayConfig.preset(
        arguments.preset,
        rule=arguments.rule,
        first_click=arguments.first_click,
        strength=arguments.strength,
    )
    seeds = range(arguments.seed, arguments.seed + arguments.games)
    workers = arguments.workers or (1 if arguments.dask else default_workers())
    # Loaded once here, so that a compile (MINESWEEP_JIT=compile, or a ready
    # mark whose cache is gone) is not run in every worker at once. On a cold
    # cache is_compiled starts the background compile instead, and the first
    # games run uncompiled (minesweep/_jit.py).
    compiled = is_compiled("autoplay")
    # Told to interpret (MINESWEEP_JIT=interpret), nothing compiles: no notice.
    compiling = not compiled and not never_compiles()
    if compiled:
        with notice_when_slow(_COMPILING.format(what="the autoplayer's kernels"), after=2.0):
            warm_parts(["autoplay"])
    elif compiling and config.policy.survival_depth:
        # Uncompiled, a survival search takes seconds to minutes a game: say
        # why the first games crawl, and what spares it the next time.
        sys.stderr.write(_SURVIVAL_UNCOMPILED.format(strength=arguments.strength))
        sys.stderr.flush()
    started = progress.started = time.perf_counter()
    records = play_games(
        config,
        seeds,
        workers=workers,
        dask_address=arguments.dask,
        dask_timeout=arguments.dask_timeout,
        progress=progress,
    )
    if progress.shown:
        sys.stderr.write("\n")
    summary = summarize(records, time.perf_counter() - started)
    where = f"Dask at {arguments.dask}" if arguments.dask else f"{workers} process(es)"
    sys.stdout.write(
        f"{arguments.preset} {config.rows}x{config.cols}/{config.mines}, rule {config.rule}, "
        f"first click {square_name(*config.first_click)}, strength {arguments.strength}, "
        f"seeds {arguments.seed}..."
        f"{arguments.seed + arguments.games - 1}, {where}\n"
        f"wins       {summary.wins} of {summary.games}\n"
        f"win rate   {summary.win_rate:.2%} (95% CI {summary.low:.2%} to {summary.high:.2%})\n"
        f"speed      {summary.games_per_second:.1f} games/s\n"
        f"per game   median {summary.median_game * 1e3:.1f} ms, "
        f"p99 {summary.p99_game * 1e3:.1f} ms\n"
    )
    if compiling:
        sys.stderr.write(_RAN_UNCOMPILED)


#: What an answer that waits on numba says, once it has waited two seconds:
#: loading the kernels from the cache takes about one; compiling them, the
#: first time after an install, up to a minute on a small machine.
_COMPILING = (
    "minesweep: loading {what} (compiled the first time after an install: up to a minute "
    "on a small machine; `minesweep warm` does it ahead)"
)


def _wait_for_the_background_compile() -> None:
    """Wait while a background warmer compiles (a first use started it): a second
    compile beside it, on the same cores, would take both twice as long."""
    import time

    pid = compile_under_way()
    if pid is None:
        return
    started = time.perf_counter()
    sys.stderr.write(f"waiting for the background compile (process {pid}) ... ")
    sys.stderr.flush()
    while compile_under_way() == pid:
        time.sleep(_WAIT_STEP)
    sys.stderr.write(f"{time.perf_counter() - started:.1f} s\n")
    sys.stderr.flush()


#: How often warm looks again whether the background compile is done, in seconds.
_WAIT_STEP = 0.5


#: What bench play says after a run that began before the kernels were compiled.
_RAN_UNCOMPILED = (
    "minesweep: loading the autoplayer's kernels took part of this run: its first games ran "
    "uncompiled, so the speed above is low; after `minesweep warm` it is the compiled speed\n"
)

#: What bench play says when a survival search must start uncompiled.
_SURVIVAL_UNCOMPILED = (
    "minesweep: loading the autoplayer's kernels in the background (a few minutes after an "
    "install; `minesweep warm` does it ahead): until then {strength}'s survival search runs "
    "uncompiled, and its first games are slow\n"
)


def warm(arguments: argparse.Namespace) -> None:
    from ..warm import PARTS

    unknown = [part for part in arguments.parts if part not in PARTS]
    if unknown:
        fail(f"minesweep warm: no part {unknown[0]!r}; expected one of {', '.join(PARTS)}")

    def progress(part: str, seconds: float | None) -> None:
        if seconds is None:
            sys.stderr.write(f"{part} ... ")
        else:
            sys.stderr.write(f"{seconds:.1f} s\n")
        sys.stderr.flush()

    _wait_for_the_background_compile()
    seconds = warm_parts(arguments.parts or list(PARTS), progress=progress)
    sys.stdout.write(f"warm: {', '.join(seconds)} ready in {sum(seconds.values()):.1f} s\n")


def solve(arguments: argparse.Namespace) -> None:
    from ..solver import analyze, before_first_reveal, hint, hint_from_analysis

    glyphs, mines, game, kind = load_view(arguments.file)
    if arguments.mines is not None:
        if mines is not None and arguments.mines != mines:
            fail(
                f"minesweep solve: {_HOLDS[kind].format(_mines(mines))}, but --mines says "
                f"{arguments.mines}; leave --mines out, or give {mines}"
            )
        mines = arguments.mines
    if mines is None:
        fail("minesweep solve: a view does not say how many mines there are; pass --mines N")
    with notice_when_slow(_COMPILING.format(what="the solver's kernels"), after=2.0):
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
    if kind == "field":
        # A minefield is no position: what a player has of it is its start.
        lines.append(
            f"a minefield, not a position: this is the view it starts from, every square "
            f"hidden, with its {_mines(mines)}"
        )
    if game is not None and before_first_reveal(game):
        # The table is the mines' density: it does not know the first click is
        # promised. Say what the rule guarantees, so a 12% and "certainly safe"
        # do not read as a contradiction.
        lines.append(_first_click_promise(game.rule.value))
    here = square_name(advice.row, advice.col)
    words = advice.words(square_name)
    # The first-click sentences name no square: the hint says which first.
    said = f"hint: {words}" if here in words else f"hint: click {here}: {words}"
    lines.append(said)
    sys.stdout.write("\n".join(lines) + "\n")
    if arguments.svg is not None:
        picture = _solve_picture(glyphs, analysis, advice, said)
        _write(arguments.svg, picture.encode(), "solve")


def _solve_picture(
    glyphs: npt.NDArray[np.uint8], analysis: Analysis, advice: Hint, said: str
) -> str:
    """The heat map of ``analysis`` with the hint framed and the certain squares marked."""
    from .. import svg

    marks = [svg.Mark(int(row), int(col), "safe") for row, col in analysis.safe]
    marks += [svg.Mark(int(row), int(col), "mine") for row, col in analysis.mines]
    marks.append(svg.Mark(advice.row, advice.col, "hint"))
    title = f"Mine probabilities, {glyphs.shape[0]} by {glyphs.shape[1]}; {said}"
    return svg.board(glyphs, probabilities=analysis.probability, marks=marks, title=title)


#: What says the mine count, in each kind of file that says one.
_HOLDS = {
    "board": "the board shows {} (its M squares)",
    "game": "the game has {}",
    "field": "the minefield holds {}",
}


def _mines(count: int) -> str:
    return f"{count} mine{'s' if count != 1 else ''}"


def _first_click_promise(rule: str) -> str:
    promise = FirstClickRule(rule).promise
    return (
        f"no square is revealed yet; the '{rule}' rule promises {promise} (the mines are "
        "laid after that click); the percentages are for squares you do not click first"
    )


def _square(glyphs: Any, analysis: Any, row: int, col: int) -> str:
    """A square of ``solve``'s table, four columns wide: its number, or its mine probability."""
    from ..squares import MAX_NUMBER, VIEW_SYMBOLS

    glyph = glyphs[row, col]
    if glyph <= MAX_NUMBER:
        return f"{VIEW_SYMBOLS[glyph]:>4}"
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
