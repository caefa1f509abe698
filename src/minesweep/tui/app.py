"""``minesweep play``: the terminal game, a Textual app on the engine and the solver.

Every rule lives in :class:`minesweep.Game`, :mod:`minesweep.solver` and the
front-end layer :mod:`minesweep.frontend`; this module only turns keys and
clicks into calls there, and glyphs into a screen. Its keys are
:mod:`.keys`, its clock :mod:`.clock`, its help screen :mod:`.help`, its
saves :mod:`.saves` (in the :mod:`.store`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from minesweep import Effect, Game, GameStatus, MinesweepError
from minesweep.formats import log_base
from minesweep.frontend import (
    Button,
    LayField,
    Settings,
    act,
    advise,
    click,
    mine_probabilities,
    score,
    undo,
)
from minesweep.generate import new_seed
from minesweep.solver import AnalysisBudgetError, NoGuessBudgetError

from .board_view import OVERLAY_LEVELS, THEMES, BoardView
from .clock import PausableClock
from .help import HelpScreen
from .keys import DEFAULT_KEYS, DESCRIPTIONS, key_label, load_keys
from .saves import Save, action_line, undo_line
from .store import Record, Store

__all__ = ["DEFAULT_KEYS", "MIN_SIZE", "MinesweeperApp", "PausableClock", "load_keys"]

#: Hints and the probability overlay read the whole board (about 0.5 s on
#: 10^7 squares, 7 s on 10^8, measured by benchmarks/bench_tui.py): past
#: this size the game says so instead of freezing.
ADVICE_MAX_SQUARES = 10**7

#: The smallest terminal the game fits in (columns, rows).
MIN_SIZE = (30, 8)


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
    ) -> None:
        super().__init__()
        self.settings = settings
        # Past this many squares the solver's advice takes seconds: not offered.
        self.advice_max_squares = advice_max_squares
        # Lays a no-guess field at the first reveal (None: the solver, in process).
        self.lay_no_guess = lay_no_guess
        self.board_theme = THEMES[theme]
        self.key_map = keys if keys is not None else load_keys(None)
        self.store = store if store is not None else Store()
        self.clock = PausableClock(clock_base)
        self.paused = False
        self.assisted = False
        self.overlay_on = False
        self.game_save = Save(self.store, settings.kind)
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
            yield Static(self._greeting or f"Press {self._key('help')} for help.", id="message")

    def on_mount(self) -> None:
        self.board.focus()
        self._update_status()
        # The clock ticks on the status line's own timer, which Textual stops
        # when the line is removed: an app-level timer can fire during
        # shutdown, after the line is gone.
        self.query_one("#status", Static).set_interval(0.2, self._update_status)
        self._check_size()

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
        # A seed of its own, so that the save need not hold the field: the seed
        # and the first click lay it again.
        settings = self.settings
        if settings.seed is None:
            settings = replace(settings, seed=new_seed())
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
            others = [f"{other} ({count} actions)" for other, count in self.store.saved_kinds()]
            if others:
                self._greeting = (
                    f"No saved {kind} game. Saved: {', '.join(others)}; play that kind of "
                    "game to resume it."
                )
            return None
        game, self.assisted = resumed
        self._greeting = (
            f"Resumed your saved {kind} game: {len(game.history)} actions, "
            f"{game.elapsed:.1f} s{', assisted' if self.assisted else ''}."
        )
        return game

    def _finish(self) -> None:
        final = score(self.game)
        self.store.finish(
            self.settings.kind,
            won=final.won,
            seconds=final.seconds,
            bbbv=final.bbbv,
            assisted=self.assisted,
        )
        self.game_save.ended()

    # --- actions -------------------------------------------------------------------------

    def action_do(self, action: str) -> None:
        if action == "new_game":
            self._new_game_action()
        else:
            getattr(self, f"_{action}")()

    def _up(self) -> None:
        self._move(-1, 0)

    def _down(self) -> None:
        self._move(1, 0)

    def _left(self) -> None:
        self._move(0, -1)

    def _right(self) -> None:
        self._move(0, 1)

    def _move(self, dr: int, dc: int) -> None:
        if not self.paused:
            row, col = self.board.cursor
            self.board.move_cursor(row + dr, col + dc)

    # The keys stand for mouse buttons: what a button does is the front-end layer's rule.

    def _reveal(self) -> None:
        self._click(*self.board.cursor, Button.LEFT)

    def _flag(self) -> None:
        self._click(*self.board.cursor, Button.RIGHT)

    def _chord(self) -> None:
        self._click(*self.board.cursor, Button.MIDDLE)

    def on_board_view_pressed(self, message: BoardView.Pressed) -> None:
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
            self.game, effect = act(
                game,
                click(game, row, col, button),
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
            self.game_save.rewrite(self.game, assisted=self.assisted)
        else:
            line = action_line(self.game.history[-1])
            self.game_save.add(line, assisted=self.assisted, base=base)
        self._after(effect)

    def _after(self, effect: Effect | None) -> None:
        game = self.game
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
            self.game_save.rewrite(self.game, assisted=self.assisted)
        else:
            self.game_save.add(undo_line(), assisted=self.assisted)
        self._after(None)

    def _new_game_action(self) -> None:
        self.game_save.discard()
        self.game = self._new_game()
        self.board.set_hint(None)
        self.board.set_glyphs(self.game.shape, self._glyphs)
        self.overlay_on = False
        self.board.set_overlay(None)
        self._say("New game.")
        self._update_status()

    def _pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self.clock.pause()
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
        self._say(
            f"No hints or probabilities on boards over {self.advice_max_squares:,} squares: the "
            f"solver reads every square, which takes seconds on {rows * cols:,}."
        )
        return True

    def _hint(self) -> None:
        game = self.game
        if self.paused or game.is_over or self._too_big_for_advice():
            return
        try:
            advice = advise(game).hint
        except MinesweepError as error:
            self._say(str(error))
            return
        self._mark_assisted()
        self.board.set_hint((advice.row, advice.col))
        self.board.move_cursor(advice.row, advice.col)
        kind = "safe" if advice.safe else f"mine probability {advice.probability:.1%}"
        self._say(f"Hint: ({advice.row}, {advice.col}), {kind}: {advice.reason}.")
        self._update_status()

    def _overlay(self) -> None:
        if not self.overlay_on and self._too_big_for_advice():
            return
        self.overlay_on = not self.overlay_on
        if self.overlay_on:
            self._mark_assisted()
            self._refresh_overlay()
            self._say(
                f"Mine probabilities: S safe, M a mine, {OVERLAY_LEVELS[0]} to "
                f"{OVERLAY_LEVELS[-1]} from low to high. Press {self._key('overlay')} to hide."
            )
        else:
            self.board.set_overlay(None)
        self._update_status()

    def _refresh_overlay(self) -> None:
        try:
            probability = mine_probabilities(self.game)
        except MinesweepError as error:
            self._say(str(error))
            probability = None
        self.board.set_overlay(probability)

    def _mark_assisted(self) -> None:
        self.assisted = True
        self.game_save.mark_assisted()

    def _help(self) -> None:
        self.push_screen(HelpScreen(self.key_map))

    def _quit(self) -> None:
        # Nothing to write: every action was saved as it was played.
        self.exit()

    # --- the status line --------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.query_one("#message", Static).update(text)

    def _update_status(self) -> None:
        game = self.game
        state = "paused" if self.paused else game.status.value
        assisted = ", assisted" if self.assisted else ""
        self.query_one("#status", Static).update(
            f"{self.settings.kind} · {game.mines_left} mines left · {game.elapsed:.1f} s · "
            f"{state}{assisted}"
        )

    def _end_text(self) -> str:
        final = score(self.game)
        record = self.store.record(self.settings.kind)
        head = f"Won in {final.seconds:.1f} s" if final.won else "Lost"
        return (
            f"{head}: 3BV {final.solved_bbbv}/{final.bbbv}, 3BV/s {final.bbbv_per_second:.2f}, "
            f"efficiency {final.efficiency:.0%}. {_record_text(record)} "
            f"Press {self._key('new_game')} for a new game."
        )


def _record_text(record: Record) -> str:
    """The player's record of this kind of game, in one sentence.

    Counts, streaks and the best time are of unassisted games; assisted ones
    are counted apart, with their own wins, so the line adds up either way.
    """
    share = f" ({record.won / record.played:.0%})" if record.played else ""
    best = f", best time {record.best_time:.1f} s" if record.best_time is not None else ""
    assisted = (
        f"; assisted apart: won {record.assisted_won} of {record.assisted_played}"
        if record.assisted_played
        else ""
    )
    return (
        f"{record.kind}: won {record.won} of {record.played}{share}, streak {record.streak} "
        f"(best {record.best_streak}){best}{assisted}."
    )
