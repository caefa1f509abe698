"""``minesweep play``: the terminal game, a Textual app on the engine and the solver.

Every rule lives in :class:`minesweep.Game`, :mod:`minesweep.solver` and the
front-end layer :mod:`minesweep.frontend`; this module only turns keys and
clicks into calls there, and glyphs into a screen.
"""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.keys import _character_to_key
from textual.screen import ModalScreen
from textual.widgets import Static

from minesweep import Action, Effect, Game, GameStatus, Minefield, MinesweepError, ParseError
from minesweep.frontend import (
    Button,
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
from .store import Record, Store

__all__ = ["DEFAULT_KEYS", "MIN_SIZE", "MinesweeperApp", "PausableClock", "load_keys"]

#: Hints and the probability overlay read the whole board (about 0.5 s on
#: 10^7 squares, 7 s on 10^8, measured by benchmarks/bench_tui.py): past
#: this size the game says so instead of freezing.
ADVICE_MAX_SQUARES = 10**7

#: The smallest terminal the game fits in (columns, rows).
MIN_SIZE = (30, 8)

#: Actions and their default keys (Textual key names); remap them in a TOML
#: file with a ``[keys]`` table, for example ``flag = ["f", "m"]``. hjkl move
#: the cursor as in vi, so "h" cannot also be the hint: the hint is on "H"
#: (shift+h) and "i".
DEFAULT_KEYS: dict[str, list[str]] = {
    "up": ["up", "k"],
    "down": ["down", "j"],
    "left": ["left", "h"],
    "right": ["right", "l"],
    "reveal": ["space", "enter"],
    "flag": ["f"],
    "chord": ["c"],
    "undo": ["u"],
    "new_game": ["n"],
    "pause": ["p"],
    "hint": ["H", "i"],
    "overlay": ["o"],
    "help": ["question_mark"],
    "quit": ["q"],
}

_DESCRIPTIONS = {
    "up": "move up",
    "down": "move down",
    "left": "move left",
    "right": "move right",
    "reveal": "reveal (chords on a satisfied number)",
    "flag": "flag / unflag",
    "chord": "chord",
    "undo": "undo (marks the game assisted)",
    "new_game": "new game",
    "pause": "pause / resume (hides the board)",
    "hint": "hint (marks the game assisted)",
    "overlay": "mine probabilities on/off (assisted)",
    "help": "this help",
    "quit": "quit (the game is saved)",
}


def load_keys(path: Path | None) -> dict[str, list[str]]:
    """The key map: the defaults, with a TOML file's ``[keys]`` table on top."""
    keys = {action: list(names) for action, names in DEFAULT_KEYS.items()}
    if path is None or not path.exists():
        return keys
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ParseError(f"cannot read key file {str(path)!r}: {error}") from None
    table = document.get("keys", {})
    if not isinstance(table, dict):
        raise ParseError(f"key file {str(path)!r}: [keys] must be a table")
    for action, names in table.items():
        if action not in keys:
            raise ParseError(
                f"key file {str(path)!r}: unknown action {action!r}; "
                f"expected one of {', '.join(sorted(keys))}"
            )
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
            raise ParseError(f"key file {str(path)!r}: {action} must be a key or a list of keys")
        keys[action] = names
    # One key, one action: Textual would silently give a key bound twice to
    # whichever binding comes first (the README's example once bound "?" to
    # the hint while help kept it, and the hint was unreachable).
    bound: dict[str, tuple[str, str]] = {}
    for action, names in keys.items():
        for name in names:
            key = _character_to_key(name) if len(name) == 1 else name
            first, written = bound.setdefault(key, (action, name))
            if first != action:
                raise ParseError(
                    f"key file {str(path)!r}: key {written!r} is bound to both "
                    f"{first} and {action}; bind each key to one action"
                )
    return keys


class PausableClock:
    """A monotonic clock that stands still while the game is paused."""

    def __init__(self, base: Callable[[], float] = time.monotonic) -> None:
        self._base = base
        self._paused_at: float | None = None
        self._lost = 0.0

    def __call__(self) -> float:
        now = self._paused_at if self._paused_at is not None else self._base()
        return now - self._lost

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self._base()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._lost += self._base() - self._paused_at
            self._paused_at = None


class HelpScreen(ModalScreen[None]):
    """The keys, and how to play."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape,question_mark,q", "dismiss", "close")
    ]

    def __init__(self, keys: dict[str, list[str]]) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        lines = ["minesweep: keys (remap them in the key file, see the README)", ""]
        pretty = {"question_mark": "?", "space": "space", "enter": "enter"}
        for action, names in self.keys.items():
            shown = " / ".join(pretty.get(name, name) for name in names)
            lines.append(f"  {shown:18} {_DESCRIPTIONS[action]}")
        lines += [
            "",
            "mouse: left reveals (chords on a satisfied number), right flags, middle chords",
            "press ? or escape to close",
        ]
        yield Static("\n".join(lines), id="help")


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
    ) -> None:
        super().__init__()
        self.settings = settings
        self.board_theme = THEMES[theme]
        self.key_map = keys if keys is not None else load_keys(None)
        self.store = store if store is not None else Store()
        self.clock = PausableClock(clock_base)
        self.paused = False
        self.assisted = False
        self.overlay_on = False
        # The store's record of the game just ended, while undo can take it back.
        self._record_id: int | None = None
        # Whether the game's save has its header yet (written at its first action).
        self._begun = False
        self._greeting = ""
        resumed = self._resume() if resume else None
        self.game = resumed if resumed is not None else self._new_game()
        for action, names in self.key_map.items():
            self.bind(",".join(names), f"do('{action}')", description=_DESCRIPTIONS[action])

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
        names = self.key_map[action]
        return {"question_mark": "?", "space": "space"}.get(names[0], names[0])

    # --- games ---------------------------------------------------------------------

    def _new_game(self) -> Game:
        self.assisted = False
        self._begun = False
        # A seed of its own, so that the save need not hold the field: the seed
        # and the first click lay it again.
        settings = self.settings
        if settings.seed is None:
            settings = replace(settings, seed=new_seed())
        return settings.new_game(clock=self.clock)

    def _glyphs(self, rows: slice) -> Any:
        """Rows of the current game's glyphs (the board reads the rows on screen)."""
        return self.game.glyphs(rows)

    def _header(self) -> str:
        game = self.game
        return json.dumps(
            {
                "format": "minesweep-save",
                "version": 1,
                "rows": game.shape[0],
                "cols": game.shape[1],
                "mines": game.mine_count,
                "rule": game.rule.value,
                "seed": game.seed,
                "no_guess": self.settings.no_guess,
                "question_marks": game.question_marks,
            }
        )

    def _resume(self) -> Game | None:
        """The saved game of this kind, if any; the greeting says what was found."""
        kind = self.settings.kind
        saved = self.store.saved(kind)
        if saved is None:
            others = [f"{other} ({count} actions)" for other, count in self.store.saved_kinds()]
            if others:
                self._greeting = (
                    f"No saved {kind} game. Saved: {', '.join(others)}; play that kind of "
                    "game to resume it."
                )
            return None
        try:
            game = _replay_save(saved.header, saved.records, self.clock)
        except (MinesweepError, ValueError, KeyError, TypeError, IndexError):
            self.store.discard(kind)  # an unreadable save is of no use to anyone
            self._greeting = f"The saved {kind} game could not be read; a new game starts."
            return None
        self.assisted = saved.assisted
        self._begun = True
        self._greeting = (
            f"Resumed your saved {kind} game: {len(game.history)} actions, "
            f"{game.elapsed:.1f} s{', assisted' if saved.assisted else ''}."
        )
        return game

    def _save_record(self, record: dict[str, Any]) -> None:
        """Append one record to this game's save, writing its header first if need be."""
        kind = self.settings.kind
        if not self._begun:
            self.store.begin(kind, self._header(), assisted=self.assisted)
            self._begun = True
        self.store.append(kind, json.dumps(record), assisted=self.assisted)

    def _rewrite_save(self) -> None:
        """The whole save again, from the game: after an undo took the field or the end back.

        One transaction: a kill midway leaves the old save or the new one.
        """
        game = self.game
        records: list[dict[str, Any]] = []
        field = game.field
        if self.settings.no_guess and field is not None:
            records.append(_field_record(field, game.first_click))
        records += [{"action": str(action), "time": action.time} for action in game.history]
        self.store.rewrite(
            self.settings.kind,
            self._header(),
            [json.dumps(record) for record in records],
            assisted=self.assisted,
        )
        self._begun = True

    def _finish(self) -> None:
        final = score(self.game)
        self._record_id = self.store.finish(
            self.settings.kind,
            won=final.won,
            seconds=final.seconds,
            bbbv=final.bbbv,
            assisted=self.assisted,
        )

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
        try:
            self.game, effect = act(
                game,
                click(game, row, col, button),
                no_guess=self.settings.no_guess,
                clock=self.clock,
            )
        except (NoGuessBudgetError, AnalysisBudgetError) as error:
            self._say(f"{error}: try fewer mines or a larger board.")
            return
        except MinesweepError as error:
            self._say(str(error))
            return
        field = self.game.field
        if self.settings.no_guess and not had_field and field is not None:
            # A no-guess field comes from a search, not from the seed alone: keep it.
            self._save_record(_field_record(field, self.game.first_click))
        last = self.game.history[-1]
        self._save_record({"action": str(last), "time": last.time})
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
        was_over = game.is_over
        had_field = game.field is not None
        try:
            self.game, _ = undo(game, clock=self.clock)
        except MinesweepError as error:
            self._say(str(error))
            return
        if was_over and self._record_id is not None:
            # Taking the end back takes its record back too: the game is
            # recorded once, when it ends for good.
            self.store.withdraw(self._record_id)
            self._record_id = None
        self.assisted = True
        if was_over or (had_field and self.game.field is None):
            # The save was dropped at the end, or its field is taken back.
            self._rewrite_save()
        else:
            self._save_record({"undo": True})
        self._after(None)

    def _new_game_action(self) -> None:
        self.store.discard(self.settings.kind)
        self._record_id = None
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
        if rows * cols <= ADVICE_MAX_SQUARES:
            return False
        self._say(
            f"No hints or probabilities on boards over {ADVICE_MAX_SQUARES:,} squares: the "
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
        if self._begun:
            self.store.mark_assisted(self.settings.kind)

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


def _field_record(field: Minefield, first_click: tuple[int, int] | None) -> dict[str, Any]:
    return {
        "field": field.to_text().splitlines(),
        "first_click": list(first_click) if first_click is not None else None,
    }


def _replay_save(header_text: str, records: list[str], clock: Callable[[], float]) -> Game:
    """A saved game again: its header's game, then its records (actions, undos, a field)."""
    header = json.loads(header_text)
    if header.get("format") != "minesweep-save" or header.get("version") != 1:
        raise ValueError("not a minesweep save of version 1")
    rows, cols, mines = int(header["rows"]), int(header["cols"]), int(header["mines"])
    template = Game(
        rows,
        cols,
        mines,
        rule=header["rule"],
        seed=header["seed"],
        clock=clock,
        question_marks=bool(header["question_marks"]),
    )
    played: list[Action] = []
    undos = 0
    for text in records:
        record = json.loads(text)
        if "field" in record:
            # A no-guess field, as the front-end layer lays one at the first reveal.
            square = record["first_click"]
            template = Game(
                rows,
                cols,
                mines,
                rule="opening",
                field=Minefield.from_text("\n".join(record["field"])),
                first_click=(int(square[0]), int(square[1])) if square else None,
                clock=clock,
            )
        elif "undo" in record:
            played.pop()
            undos += 1
        else:
            played.append(Action.parse(record["action"], float(record["time"])))
    return Game.replay(template, played, clock=clock, undos=undos)
