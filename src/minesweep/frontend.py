"""What every front end shares: the rules of a game as a player meets it.

The command line, the terminal game and the web game hold no rule of their
own. Each turns its input (options, keys, mouse buttons, JSON) into a call
here and draws what comes back. This module owns, in this order:

- **settings**: a preset or a size, the mines, the first-click rule, a seed,
  no-guess and a first-click square, checked in one place (:class:`Settings`);
- **the first click**: a field laid for the settings (:meth:`Settings.lay_field`),
  and the no-guess first reveal, which lays a field the solver clears from the
  clicked square and replays on it what the player did before (:func:`act`);
- **undo**: the last action taken back, and the field with it when nothing
  is open any more (:func:`undo`);
- **advice**: the solver's hint, before the first click too, and the mine
  probabilities (:func:`advise`, :func:`mine_probabilities`);
- **clicks**: the action a button makes on the square it lands on now
  (:func:`click`; which button means reveal, flag, unflag or chord is
  :mod:`minesweep.mouse`'s, whose :class:`~minesweep.mouse.Button` and
  :func:`~minesweep.mouse.action_for` are re-exported here for the front ends);
- **records**: the key a game's records and leaderboard are filed under
  (:attr:`Settings.kind`; its parts and the ranking rule are
  :mod:`minesweep.records`);
- **scores** shown at the end (:func:`score`). A replay needs no rule here:
  :meth:`Game.replay_views <minesweep.game.Game.replay_views>` steps the game
  itself, and a front end draws the views it yields.

It imports the core, the statistics and the solver (the solver on first use:
it loads compiled kernels), never a front end's libraries; nothing in the core
imports it.

>>> settings = Settings.of(preset="beginner", rule="safe", seed=7)
>>> settings.kind
'beginner/safe'
>>> game, effect = act(settings.new_game(), Action.parse("O4,4"))
>>> action_for(int(game.glyphs()[4, 4]), Button.LEFT)
<ActionKind.CHORD: 'C'>
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, cast

import numpy as np
import numpy.typing as npt

from .actions import Action, Effect
from .errors import GameOverError, SettingsError
from .field import Minefield
from .game import Game
from .generate import check_fits, check_seed, generate_field
from .grid import check_position, middle
from .mouse import Button, action_for
from .presets import FirstClickRule, Preset, first_click_rule
from .records import Kind
from .stats import GameStats, game_stats

if TYPE_CHECKING:
    from .solver import Hint

__all__ = [
    "NO_GUESS_SECONDS",
    "Advice",
    "Button",
    "LayField",
    "Score",
    "Settings",
    "act",
    "action_for",
    "advice_assists",
    "advise",
    "click",
    "first_reveal",
    "mine_probabilities",
    "score",
    "undo",
    "warm_up",
]

#: How long a no-guess first reveal may search for a field, by default.
NO_GUESS_SECONDS: Final = 10.0


# --- settings -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Settings:
    """What kind of game to play, checked when built.

    ``preset`` names the preset the size comes from (None for a custom size);
    ``seed`` None draws a fresh one for each game; ``first_click`` is the
    square a field is laid around before any click (None: wherever the
    player's first reveal lands). Build one from a preset or a size with
    :meth:`of`. Errors are SettingsError (or the generator's own errors, with
    their messages), in the settings' own words: each front end words its
    options (``--size``, a JSON field, a keyword) itself.
    """

    rows: int = 16
    cols: int = 30
    mines: int = 99
    preset: str | None = "expert"
    rule: FirstClickRule = FirstClickRule.OPENING
    seed: int | None = None
    no_guess: bool = False
    first_click: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if self.preset is not None:
            chosen = Preset.from_name(self.preset)
            if (chosen.rows, chosen.cols, chosen.mines) != (self.rows, self.cols, self.mines):
                raise SettingsError(
                    f"preset {self.preset!r} is {chosen.rows}x{chosen.cols} with "
                    f"{chosen.mines} mines, got {self.rows}x{self.cols} with {self.mines}"
                )
        # Before the rule is read: a no-guess request names no other rule.
        if self.no_guess and self.rule != FirstClickRule.OPENING:
            raise SettingsError("no-guess games always open at the first click (rule opening)")
        object.__setattr__(self, "rule", first_click_rule(self.rule))
        if self.seed is not None:
            object.__setattr__(self, "seed", check_seed(self.seed))
        if self.first_click is None:
            check_fits(self.rows, self.cols, self.mines, self.rule)
        # With a first click the generator checks the fit: it knows which
        # squares around that square the rule keeps clear, and says so.

    @classmethod
    def of(
        cls,
        *,
        preset: str | None = None,
        size: tuple[int, int] | None = None,
        mines: int | None = None,
        rule: FirstClickRule | str = FirstClickRule.OPENING,
        seed: int | None = None,
        no_guess: bool = False,
        first_click: tuple[int, int] | Literal["center"] | None = None,
    ) -> Settings:
        """Settings from a preset (expert when neither is given) or a size and its mines.

        ``first_click="center"`` lays the field around the middle square (the word the
        command line's ``--first-click`` uses).

        >>> Settings.of(size=(20, 30), mines=100).kind
        '20x30/100'
        """
        if size is not None:
            if preset is not None:
                raise SettingsError("give a preset or a size, not both")
            if mines is None:
                raise SettingsError("a size needs a mine count")
            rows, cols = size
        else:
            if mines is not None:
                raise SettingsError("a mine count goes with a size; a preset has its own")
            chosen = Preset.from_name(preset if preset is not None else "expert")
            rows, cols, mines, preset = chosen.rows, chosen.cols, chosen.mines, chosen.name
        if isinstance(first_click, str) and first_click != "center":
            raise SettingsError(f"first click must be a square or 'center', got {first_click!r}")
        square = middle((rows, cols)) if first_click == "center" else first_click
        # The rule is read (and checked) in __post_init__, after the no-guess check.
        return cls(rows, cols, mines, preset, cast(FirstClickRule, rule), seed, no_guess, square)

    @classmethod
    def from_dimensions(
        cls,
        *,
        preset: str | None = None,
        rows: int | None = None,
        cols: int | None = None,
        mines: int | None = None,
        default: str = "expert",
        rule: FirstClickRule | str = FirstClickRule.OPENING,
        seed: int | None = None,
        no_guess: bool = False,
    ) -> Settings:
        """:meth:`of` for front ends that take rows, cols and mines apart (JSON, keywords).

        A preset, or all three of rows, cols and mines; ``default`` when none is given.

        >>> Settings.from_dimensions(rows=5, cols=6, mines=4).kind
        '5x6/4'
        >>> Settings.from_dimensions(rows=5)
        Traceback (most recent call last):
        minesweep.errors.SettingsError: give a preset, or rows, cols and mines: got rows alone
        """
        sized = {"rows": rows, "cols": cols, "mines": mines}
        given = [name for name, value in sized.items() if value is not None]
        if preset is not None and given:
            raise SettingsError("give a preset or rows, cols and mines, not both")
        if not given:
            chosen = preset if preset is not None else default
            return cls.of(preset=chosen, rule=rule, seed=seed, no_guess=no_guess)
        if rows is None or cols is None or mines is None:
            alone = " and ".join(given)
            raise SettingsError(f"give a preset, or rows, cols and mines: got {alone} alone")
        return cls.of(size=(rows, cols), mines=mines, rule=rule, seed=seed, no_guess=no_guess)

    @property
    def kind(self) -> str:
        """The key records and leaderboards are filed under: the text of :attr:`kind_of`.

        Stored databases hold these keys: they never change.

        >>> Settings.of(preset="expert", no_guess=True).kind
        'expert/no-guess'
        """
        return str(self.kind_of)

    @property
    def kind_of(self) -> Kind:
        """The kind of game these settings make, in its parts (:class:`minesweep.records.Kind`)."""
        return Kind(self.rows, self.cols, self.mines, self.preset, self.rule, self.no_guess)

    def new_game(
        self,
        *,
        field: Minefield | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> Game:
        """A game of these settings, its mines laid at the first reveal, or on ``field``.

        A no-guess field was drawn by one of many attempts, each from a seed
        of its own: the game records the field alone, not the settings' seed,
        which does not lay it.
        """
        if field is None:
            return Game(
                self.rows, self.cols, self.mines, rule=self.rule, seed=self.seed, clock=clock
            )
        return Game(
            self.rows,
            self.cols,
            self.mines,
            rule=self.rule,
            seed=None if self.no_guess else self.seed,
            field=field,
            first_click=self.first_click,
            clock=clock,
        )

    def lay_field(self, *, no_guess_seconds: float = NO_GUESS_SECONDS) -> Minefield:
        """The field of these settings around ``first_click``, from ``seed``.

        A no-guess field is one the solver clears from the first click; its
        search may take ``no_guess_seconds``, past which it raises
        :class:`minesweep.solver.NoGuessBudgetError`.
        """
        if self.first_click is None or self.seed is None:
            raise SettingsError("laying a field needs a first click and a seed")
        if self.no_guess:
            from .solver import generate_no_guess

            return generate_no_guess(
                self.rows,
                self.cols,
                self.mines,
                first_click=self.first_click,
                seed=self.seed,
                max_seconds=no_guess_seconds,
            ).field
        return generate_field(
            self.rows,
            self.cols,
            self.mines,
            first_click=self.first_click,
            rule=self.rule,
            seed=self.seed,
        )


# --- the first click ------------------------------------------------------------------------

#: Lays a no-guess field: rows, cols, mines, first click, seed, seconds allowed.
LayField = Callable[[int, int, int, tuple[int, int], int | None, float | None], Minefield]


def first_reveal(
    game: Game,
    row: int,
    col: int,
    *,
    clock: Callable[[], float] = time.monotonic,
    max_seconds: float | None = NO_GUESS_SECONDS,
    lay: LayField | None = None,
) -> Game:
    """At the first reveal of a no-guess game: the game on a field the solver clears.

    The field is laid around ``(row, col)`` from the game's seed. What the
    player did before (flags, question marks) is replayed on it at its own
    times, and the clock keeps its start. Raises InvalidClickError for a
    square off the board, NoGuessBudgetError when no field is found in
    ``max_seconds``. ``clock`` is the game's clock. ``lay``, when given, lays
    the field instead (a server passes its pool of worker processes); it
    takes rows, cols, mines, the first click, the seed and ``max_seconds``.
    """
    from .solver import no_guess_game

    rows, cols = game.shape
    check_position((rows, cols), row, col)
    if lay is None:
        field = no_guess_game(
            rows,
            cols,
            game.mine_count,
            first_click=(row, col),
            seed=game.seed,
            clock=clock,
            max_seconds=max_seconds,
        ).field
        assert field is not None  # a no-guess game is made on its field
    else:
        field = lay(rows, cols, game.mine_count, (row, col), game.seed, max_seconds)
    # The game records the field, not the seed: a seed alone cannot say which
    # attempt of the search succeeded (a game file checks that a seeded
    # field is the one its seed lays).
    fresh = Game(
        rows,
        cols,
        game.mine_count,
        rule="opening",
        field=field,
        first_click=(row, col),
        clock=clock,
        question_marks=game.question_marks,
    )
    replayed = Game.replay(fresh, game.history, clock=clock)
    if game.started_at is not None:
        replayed.set_start(game.started_at)
    return replayed


def act(
    game: Game,
    action: Action,
    *,
    no_guess: bool = False,
    clock: Callable[[], float] = time.monotonic,
    no_guess_seconds: float | None = NO_GUESS_SECONDS,
    lay: LayField | None = None,
) -> tuple[Game, Effect]:
    """Apply a player's action; returns the game (a new one after a no-guess first reveal).

    In a no-guess game the reveal that lays the mines first lays a field the
    solver clears from that square (see :func:`first_reveal`), so the game
    returned is not ``game``. A reveal of a flag lays nothing: it is a wasted
    click, and the field waits for the reveal that opens a square.
    """
    if no_guess and game.lays_mines(action):
        game = first_reveal(
            game, action.row, action.col, clock=clock, max_seconds=no_guess_seconds, lay=lay
        )
    return game, game.push(action)


def undo(game: Game, *, clock: Callable[[], float] = time.monotonic) -> tuple[Game, Action]:
    """Take the last action back; returns the game (a new one when the field goes) and it.

    When nothing is open any more (the reveal that laid the mines was undone),
    the field is taken back too, and the next reveal lays one afresh (a seeded
    game lays the same one for the same square): a player cannot undo a first
    click and play on knowing where the mines are. Flags and question marks
    placed before stay, at their times. Raises ActionError with nothing to undo.

    An ended game cannot be undone (GameOverError), in every front end: its
    end is on record, and a loss taken back would be a record withdrawn (or a
    mine's place learnt for free).
    """
    if game.is_over:
        raise GameOverError(f"the game is over ({game.status.value}): an ended game stands")
    action = game.pop()
    if game.field is None or game.outcome().revealed:
        return game, action
    rows, cols = game.shape
    fresh = Game(
        rows,
        cols,
        game.mine_count,
        rule=game.rule,
        seed=game.seed,
        clock=clock,
        question_marks=game.question_marks,
    )
    start = game.started_at
    remaining = game.history
    taken_back = Game.replay(fresh, remaining, clock=clock, undos=game.undos)
    if start is not None and remaining:
        taken_back.set_start(start)
    return taken_back, action


# --- advice ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint, and every square's mine probability (None before the first reveal)."""

    hint: Hint
    probability: npt.NDArray[np.float64] | None


def advice_assists(game: Game) -> bool:
    """Whether advice now (a hint, the probabilities) marks ``game`` assisted, for good.

    Not before the first reveal: the advice is then the first-click rule's
    promise, and no field is laid for it to tell anything about. One rule for
    every front end.
    """
    from .solver import before_first_reveal

    return not before_first_reveal(game)


def advise(game: Game) -> Advice:
    """The solver's hint and the probabilities behind it.

    Before the first reveal the first-click rule, not the view, says what is
    safe (:func:`minesweep.solver.hint`). Raises GameOverError once the game
    is over and the solver's errors (AnalysisBudgetError, a view every
    hidden square of which is flagged).
    """
    from .solver import analyze, before_first_reveal, hint, hint_from_analysis

    if game.is_over or before_first_reveal(game):
        return Advice(hint(game), None)
    glyphs = game.glyphs()
    analysis = analyze(glyphs, game.mine_count)
    return Advice(hint_from_analysis(analysis, glyphs), analysis.probability)


def mine_probabilities(game: Game) -> npt.NDArray[np.float64] | None:
    """Every square's mine probability (NaN where open); None before the field or after the end."""
    from .solver import analyze

    if game.field is None or game.is_over:
        return None
    return analyze(game.glyphs(), game.mine_count).probability


# --- clicks ---------------------------------------------------------------------------------
# Button and action_for come from minesweep.mouse: the one mapping between a
# mouse and the actions, which the replays and the web's trace check read too.


def click(game: Game, row: int, col: int, button: Button) -> Action:
    """What a click of ``button`` on ``(row, col)`` does now; InvalidClickError off the board."""
    check_position(game.shape, row, col)
    # The clicked row's glyphs only: on a huge board the whole view costs more.
    return Action(action_for(int(game.glyphs(slice(row, row + 1))[0, col]), button), row, col)


# --- records and scores -----------------------------------------------------------------------


#: What the end of a game shows (time, 3BV, speed, efficiency as ``ioe``): the game's
#: statistics themselves, one record from the engine up to the web's body
#: (:class:`minesweep.web.models.Stats`), not a copy of them under other names.
Score = GameStats
#: The score of a game (also of one in progress or lost).
score = game_stats


def warm_up() -> None:
    """Load the compiled flood fill now, by opening a small empty board.

    A server calls it at start, so that its first player does not wait for it.
    """
    Game(3, 3, 0, seed=0).reveal(1, 1)
