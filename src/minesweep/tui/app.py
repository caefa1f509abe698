"""``minesweep play``: the terminal game, a Textual app on the engine and the solver.

Every rule lives in :class:`minesweep.Game`, :mod:`minesweep.solver` and the
front-end layer :mod:`minesweep.frontend`; this module only turns keys and
clicks into calls there, and glyphs into a screen. Its keys are
:mod:`.keys` (the cursor's moves :mod:`.cursor`), its sentences :mod:`.words`,
its clock :mod:`.clock`, its help screen :mod:`.help`, its saves
:mod:`.saves` (in the :mod:`.store`), its replays :mod:`.export`.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from minesweep import ActionKind, Effect, Game, GameStatus, MinesweepError, StorageError
from minesweep.formats import log_base
from minesweep.frontend import (
    Button,
    LayField,
    Settings,
    act,
    advice_assists,
    advise,
    click,
    mine_probabilities,
    score,
    undo,
)
from minesweep.generate import new_seed as draw_seed
from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError
from minesweep.warm import is_compiled

from .board_view import OVERLAY_LEVELS, THEMES, BoardView
from .clock import PausableClock
from .cursor import MOVES, cursor_after
from .export import replay_folder, write_replay
from .help import HelpScreen
from .keys import DEFAULT_KEYS, DESCRIPTIONS, key_label, load_keys
from .saves import Save, action_line, undo_line
from .store import Store
from .words import (
    chord_refusal,
    end_text,
    hint_text,
    no_save_text,
    overlay_legend,
    resumed_text,
    status_text,
    too_big_text,
)

__all__ = [
    "DEFAULT_KEYS",
    "MIN_SIZE",
    "MinesweeperApp",
    "PausableClock",
    "load_keys",
]

#: Hints and the probability overlay read the whole board (about 0.5 s on
#: 10^7 squares, 7 s on 10^8, measured by benchmarks/bench_tui.py): past
#: this size the game says so instead of freezing.
ADVICE_MAX_SQUARES = 10**7

#: The smallest terminal the game fits in (columns, rows).
MIN_SIZE = (30, 8)

#: While a game runs its elapsed seconds are written this often (besides at
#: each action, a pause and a quit), so that a kill loses at most this much.
ELAPSED_EVERY = 5.0


class MinesweeperApp(App[None]):
    """The terminal game of ``settings``, drawn in ``theme`` ("color" or "mono")."""

    CSS = """
    #status { dock: top; height: 1; padding: 0 1; background: $panel; }
    #message { dock: bottom; height: auto; max-height: 3; padding: 0 1; color: $text-muted; }
    #too-small { display: none; padding: 1 2; }
    #paused { display: none; padding: 1 2; }
    #help { padding: 1 2; border: round $accent; background: $surface; width: auto; height: auto; }
    HelpScreen { align: center middle; }
    """

    # Textual reads Ctrl-C as a key (the terminal is in raw mode) and only
    # says "press ctrl+q to quit": here it stops the game, as it stops every
    # other command, saved as the quit key saves it.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "interrupt", show=False, priority=True, system=True)
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        theme: str = "color",
        keys: dict[str, list[str]] | None = None,
        store: Store | None = None,
        clock_base: Callable[[], float] = time.monotonic,
        resume: bool = True,
        advice_max_squares: int = ADVICE_MAX_SQUARES,
        lay_no_guess: LayField | None = None,
        key_file: Path | None = None,
        new_seed: Callable[[], int] = draw_seed,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__()
        self.settings = settings
        # The key file the keys came from (or would, were it there): the help names it.
        self.key_file = key_file
        # Draws the seed of a game whose settings have none (the player chose none).
        self.new_seed = new_seed
        # Past this many squares the solver's advice takes seconds: not offered.
        self.advice_max_squares = advice_max_squares
        # Lays a no-guess field at the first reveal (None: the solver, in process).
        self.lay_no_guess = lay_no_guess
        self.board_theme = THEMES[theme]
        self.key_map = keys if keys is not None else load_keys(None)
        self.store = store if store is not None else Store()
        self.clock = PausableClock(clock_base)
        # Seconds since 1970: when a game ended, which names and dates its replay.
        self.wall_clock = wall_clock
        self._ended_at: float | None = None
        # The replay file written of the game on screen (one file a game).
        self._replay: Path | None = None
        self.paused = False
        # Set when Ctrl-C (the key, or SIGINT) ended the game: the command
        # then ends with one line and status 130, as every command does.
        self.interrupted = False
        # A write the data directory refused (a full disk, a read-only
        # database): the game ends and the command says it in one line.
        self.failure: StorageError | None = None
        self.assisted = False
        # A seed the player chose: a known field, recorded apart from the rest.
        self.seeded = settings.seed is not None
        self.overlay_on = False
        # The first press of "new game" on a game in progress only asks.
        self.abandon_asked = False
        self.game_save = Save(self.store, settings.kind)
        self._elapsed_saved = 0.0
        self._greeting = ""
        resumed = self._resume() if resume else None
        self.game = resumed if resumed is not None else self._new_game()
        for action, names in self.key_map.items():
            self.bind(",".join(names), f"do('{action}')", description=DESCRIPTIONS[action])

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="status")
            yield BoardView(self.game.shape, self._glyphs, self.board_theme, id="board")
            yield Static(
                f"Paused: the board is hidden. Press {self._key('pause')} to resume.", id="paused"
            )
            yield Static(
                f"The terminal is too small: at least {MIN_SIZE[0]}x{MIN_SIZE[1]} is needed.",
                id="too-small",
            )
            yield Static(self._greeting or self._idle_text(), id="message")

    def on_mount(self) -> None:
        # A SIGINT from outside the terminal (kill -INT, a supervisor) stops
        # the game as the key does, saved, instead of raising a
        # KeyboardInterrupt in the middle of Textual's loop.
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGINT, self.action_interrupt)
        self.board.focus()
        self._update_status()
        # The clock ticks on the status line's own timer, which Textual stops
        # when the line is removed: an app-level timer can fire during
        # shutdown, after the line is gone.
        self.query_one("#status", Static).set_interval(0.2, self._tick)
        self._check_size()
        rows, cols = self.game.shape
        if rows * cols <= self.advice_max_squares:
            # On a cold cache this starts the solver compiling in a process of
            # its own; until it is done, advice is computed uncompiled, which
            # takes milliseconds on boards of this size (minesweep/_jit.py).
            is_compiled("solver")

    def on_unmount(self) -> None:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            asyncio.get_running_loop().remove_signal_handler(signal.SIGINT)

    def on_resize(self) -> None:
        self._check_size()

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def _check_size(self) -> None:
        width, height = self.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.query_one("#too-small").display = small
        self.board.display = not small and not self.paused
        self.query_one("#paused").display = self.paused and not small

    def _key(self, action: str) -> str:
        return key_label(self.key_map[action][0])

    # --- games ---------------------------------------------------------------------

    def _new_game(self) -> Game:
        self.assisted = False
        self.abandon_asked = False
        self._elapsed_saved = 0.0
        self._ended_at = None
        self._replay = None
        # A seed of its own, so that the save need not hold the field: the seed
        # and the first click lay it again.
        settings = self.settings
        self.seeded = settings.seed is not None
        if settings.seed is None:
            settings = replace(settings, seed=self.new_seed())
        return settings.new_game(clock=self.clock)

    def _glyphs(self, rows: slice) -> Any:
        """Rows of the current game's glyphs (the board reads the rows on screen)."""
        return self.game.glyphs(rows)

    def _resume(self) -> Game | None:
        """The saved game of this kind, if any; the greeting says what was found."""
        kind = self.settings.kind
        try:
            resumed = self.game_save.load(self.clock)
        except MinesweepError:  # a ParseError: the save cannot be read
            self.game_save.discard()  # an unreadable save is of no use to anyone
            self._greeting = f"The saved {kind} game could not be read; a new game starts."
            return None
        if resumed is None:
            others = self.store.saved_kinds()
            if others:
                self._greeting = no_save_text(kind, others)
            return None
        game, self.assisted = resumed.game, resumed.assisted
        # A save that does not say (an older one): the seed of these settings says.
        if resumed.seeded is not None:
            self.seeded = resumed.seeded
        self._elapsed_saved = game.elapsed
        self._greeting = resumed_text(kind, game, self.assisted)
        return game

    def _finish(self) -> None:
        self._ended_at = self.wall_clock()
        final = score(self.game)
        self.store.finish(
            self.settings.kind,
            won=final.won,
            seconds=final.time,
            bbbv=final.bbbv,
            assisted=self.assisted,
            seeded=self.seeded,
        )
        self.game_save.ended()

    def _save_elapsed(self) -> None:
        """Write the game's elapsed seconds beside its save (a game in progress only)."""
        if not self.game.is_over and self.game_save.begun:
            self._elapsed_saved = self.game.elapsed
            self.game_save.set_elapsed(self._elapsed_saved)

    # --- actions -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _storing(self) -> Iterator[None]:
        """Around what may write the store: a refused write ends the app, kept in ``failure``."""
        try:
            yield
        except StorageError as error:
            # Played on, every later move would be lost without a word.
            self.failure = error
            self.exit(return_code=2)

    def action_do(self, action: str) -> None:
        with self._storing():
            if action == "new_game":
                self._new_game_action()
            elif action in MOVES:
                self._move(action)
            else:
                getattr(self, f"_{action}")()

    def on_key(self, event: events.Key) -> None:
        # Any key but "new game" answers its question with "play on".
        if self.abandon_asked and event.key not in self.key_map["new_game"]:
            self._play_on()

    def _page(self) -> int:
        """The rows of the board on screen (a page), at least one."""
        return max(1, self.board.scrollable_content_region.height)

    def _move(self, move: str) -> None:
        """A movement key: the cursor to the square it aims at (clamped to the board)."""
        if not self.paused:
            row, col = cursor_after(move, self.board.cursor, self.game.shape, page=self._page())
            self.board.move_cursor(row, col)
            self._update_status()

    # The keys stand for mouse buttons: what a button does is the front-end layer's rule.

    def _reveal(self) -> None:
        self._click(*self.board.cursor, Button.LEFT)

    def _flag(self) -> None:
        self._click(*self.board.cursor, Button.RIGHT)

    def _chord(self) -> None:
        self._click(*self.board.cursor, Button.MIDDLE)

    def on_board_view_pressed(self, message: BoardView.Pressed) -> None:
        if self.abandon_asked:
            self._play_on()
        with self._storing():
            self._click(message.row, message.col, message.button)

    def _click(self, row: int, col: int, button: Button) -> None:
        game = self.game
        if self.paused or game.is_over:
            return
        had_field = game.field is not None
        # The base is the game before its first action: a seeded game's field
        # is laid again by its seed and first click, and is not saved.
        base = None if self.game_save.begun else log_base(game)
        try:
            action = click(game, row, col, button)
            refused = (
                chord_refusal(self.game, row, col) if action.kind is ActionKind.CHORD else None
            )
            self.game, effect = act(
                game,
                action,
                no_guess=self.settings.no_guess,
                clock=self.clock,
                lay=self.lay_no_guess,
            )
        except (NoGuessBudgetError, AnalysisBudgetError) as error:
            self._say(f"{error}: try fewer mines or a larger board.")
            return
        except MinesweepError as error:
            self._say(str(error))
            return
        if self.settings.no_guess and not had_field and self.game.field is not None:
            # A no-guess field comes from a search, not from the seed alone: the
            # save starts again on a base that holds it.
            self.game_save.rewrite(self.game, assisted=self.assisted, seeded=self.seeded)
        else:
            line = action_line(self.game.history[-1])
            self.game_save.add(
                line,
                assisted=self.assisted,
                elapsed=self.game.elapsed,
                base=base,
                seeded=self.seeded,
            )
        self._elapsed_saved = self.game.elapsed
        self._after(effect)
        if refused is not None:
            self._say(refused)

    def _after(self, effect: Effect | None) -> None:
        game = self.game
        # The game changed: what the message said of it (a hint, an error)
        # no longer holds. The overlay's legend does while the overlay is on.
        self._say(self._overlay_legend() if self.overlay_on else self._idle_text())
        self.board.set_hint(None)
        if effect is not None and not game.is_over and effect.status is not GameStatus.READY:
            rows = effect.cells[:, 0].tolist()
            self.board.set_glyphs(game.shape, self._glyphs, rows)
        else:
            self.board.set_glyphs(game.shape, self._glyphs)
        if self.overlay_on:
            self._refresh_overlay()
        if game.is_over:
            self._finish()
            self._say(self._end_text())
        self._update_status()

    def _undo(self) -> None:
        game = self.game
        if self.paused:
            return
        had_field = game.field is not None
        try:
            # An ended game stands (GameOverError): its end is on record.
            self.game, _ = undo(game, clock=self.clock)
        except MinesweepError as error:
            self._say(str(error))
            return
        self.assisted = True
        if had_field and self.game.field is None:
            # The field is taken back: the save starts again on a base without it.
            self.game_save.rewrite(self.game, assisted=self.assisted, seeded=self.seeded)
        else:
            self.game_save.add(undo_line(), assisted=self.assisted, elapsed=self.game.elapsed)
        self._elapsed_saved = self.game.elapsed
        self._after(None)

    def _new_game_action(self) -> None:
        game = self.game
        if game.history and not game.is_over:
            if not self.abandon_asked:
                # A game in progress is not thrown away on one key: it counts.
                self.abandon_asked = True
                self._say(
                    f"A game is in progress: press {self._key('new_game')} again to abandon "
                    "it (it counts as a loss), any other key to play on."
                )
                return
            # Abandoned: a loss, as the web game counts it (the save goes with it).
            final = score(game)
            self.store.finish(
                self.settings.kind,
                won=False,
                seconds=final.time,
                bbbv=final.bbbv,
                assisted=self.assisted,
                seeded=self.seeded,
            )
            self.game_save.ended()
            said = "The game was abandoned and counted as a loss. New game."
        else:
            # Nothing played (or over, and on record already): nothing to count.
            self.game_save.discard()
            said = "New game."
        self.game = self._new_game()
        self.board.set_hint(None)
        self.board.set_glyphs(self.game.shape, self._glyphs)
        self.overlay_on = False
        self.board.set_overlay(None)
        self._say(said)
        self._update_status()

    def _play_on(self) -> None:
        """The player kept the game in progress: the question is gone."""
        self.abandon_asked = False
        self._say(self._idle_text())

    def _pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self.clock.pause()
            # A player may walk away from a paused game: its time is kept now.
            self._save_elapsed()
        else:
            self.clock.resume()
        self.board.hidden_board = self.paused
        self._check_size()
        self.board.refresh()
        self._update_status()

    def _too_big_for_advice(self) -> bool:
        """Whether the board is past what a hint may read; if so, say so."""
        rows, cols = self.game.shape
        if rows * cols <= self.advice_max_squares:
            return False
        self._say(too_big_text(self.advice_max_squares, rows * cols))
        return True

    def _hint(self) -> None:
        game = self.game
        if self.paused or game.is_over or self._too_big_for_advice():
            return
        assists = advice_assists(game)
        try:
            advice = advise(game).hint
        except MinesweepError as error:
            self._say(str(error))
            return
        if assists:
            self._mark_assisted()
        self.board.set_hint((advice.row, advice.col))
        self.board.move_cursor(advice.row, advice.col)
        self._say(hint_text(advice))
        self._update_status()

    def _overlay(self) -> None:
        if not self.overlay_on and self._too_big_for_advice():
            return
        self.overlay_on = not self.overlay_on
        if self.overlay_on and advice_assists(self.game):
            self._mark_assisted()
            self._say(self._overlay_legend())
            self._refresh_overlay()
        else:
            self.board.set_overlay(None)
            self._say(self._idle_text())
        self._update_status()

    def _overlay_legend(self) -> str:
        return overlay_legend(OVERLAY_LEVELS, self._key("overlay"))

    def _refresh_overlay(self) -> None:
        try:
            probability = mine_probabilities(self.game)
        except MinesweepError as error:
            self._say(str(error))
            probability = None
        if probability is not None and not self.assisted:
            # The overlay was on before the first reveal: it shows the field's
            # probabilities from now on, and that assists.
            self._mark_assisted()
        self.board.set_overlay(probability)

    def _mark_assisted(self) -> None:
        self.assisted = True
        self.game_save.mark_assisted()

    def _export(self) -> None:
        """Write the finished game as an EVF replay file, and say where."""
        game = self.game
        if not game.is_over:
            self._say(
                f"Press {self._key('export')} once the game is over: a replay holds the mines, "
                "which a game in progress keeps hidden."
            )
            return
        if self._replay is not None:
            self._say(f"This game's replay is saved already: {self._replay}")
            return
        ended = self._ended_at if self._ended_at is not None else self.wall_clock()
        try:
            self._replay = write_replay(
                game, replay_folder(self.store), kind=self.settings.kind, ended=ended
            )
        except (MinesweepError, OSError) as error:
            # A board over 255 squares a side (EVF's limit), a folder not writable.
            self._say(f"The replay could not be saved: {error}")
            return
        self._say(f"Replay saved (EVF, for Metasweeper or ms-toollib): {self._replay}")

    def _help(self) -> None:
        self.push_screen(HelpScreen(self.key_map, self.key_file, replay_folder(self.store)))

    def _quit(self) -> None:
        # Every action was saved as it was played; the time since the last
        # one is the game's too.
        self._save_elapsed()
        self.exit()

    async def action_quit(self) -> None:
        """Textual's own quit (ctrl+q): the time is saved as by the game's quit key."""
        with self._storing():
            self._quit()

    def action_interrupt(self) -> None:
        """Ctrl-C or SIGINT: the game is saved as by the quit key, and the app ends interrupted."""
        self.interrupted = True
        with self._storing():
            self._quit()

    # --- the status line --------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def _idle_text(self) -> str:
        """The message line when nothing else holds: where the help is."""
        return f"Press {self._key('help')} for help."

    def _tick(self) -> None:
        self._update_status()
        game = self.game
        if (
            not self.paused
            and game.status is GameStatus.PLAYING
            and game.elapsed - self._elapsed_saved >= ELAPSED_EVERY
        ):
            with self._storing():
                self._save_elapsed()

    def _update_status(self) -> None:
        game = self.game
        state = "paused" if self.paused else game.status.value
        line = status_text(self.settings.kind, game, self.board.cursor, state, self.assisted)
        self.query_one("#status", Static).update(line)

    def _end_text(self) -> str:
        return end_text(
            score(self.game),
            self.store.record(self.settings.kind),
            seeded=self.seeded,
            new_game_key=self._key("new_game"),
            export_key=self._key("export"),
        )
