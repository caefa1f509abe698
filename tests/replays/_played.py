"""Random games played through :class:`minesweep.Game`, for the replay writer's property tests.

Games are played on random fields (small boards and ms-toollib's three levels
8x8/10, 16x16/40, 16x30/99, on a given field or laid at the first reveal), at
random times in whole milliseconds, and won, lost or left unfinished; with
clicks that change nothing and question marks if asked.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from minesweep import Action, ActionKind, Game, Minefield
from minesweep.presets import FirstClickRule
from minesweep.squares import (
    STATE_FLAGGED,
    STATE_HIDDEN,
    STATE_QUESTIONED,
    STATE_REVEALED,
)

from ..helpers import Clock

#: ms-toollib's levels (its STNB constants are for these), and random small boards.
LEVELS = ((8, 8, 10), (16, 16, 40), (16, 30, 99))

#: Gaps between actions in ms: the same ms, EVF's one-byte steps, its pauses (over
#: 255 ms) and pauses of more than one record (over 65,535 ms).
GAPS = (0, 0, 1, 7, 40, 120, 255, 256, 900, 2500, 65_535, 65_536, 200_000)


# --- playing random games -------------------------------------------------------------------------


class _Player:
    """Plays one random game: every choice from ``rng``, the times on ``clock`` in whole ms."""

    def __init__(
        self, game: Game, clock: Clock, rng: random.Random, *, wasted: bool, questions: bool
    ) -> None:
        self.game, self.clock, self.rng = game, clock, rng
        self.wasted, self.questions = wasted, questions
        self.ms = 0

    def act(self, kind: ActionKind, square: tuple[int, int]) -> None:
        if self.game.steps:
            self.ms += self.rng.choice(GAPS)
        # The game's clock starts at its first action, at 0 here: every time is ms / 1000.
        self.clock.now = self.ms / 1000
        self.game.push(Action(kind, *square))

    def squares(self, *states: int, mines: bool | None = None) -> list[tuple[int, int]]:
        """Squares in one of ``states`` (only mines, or only safe ones, if told)."""
        mask = np.isin(self.game.state, states)
        field = self.game.field
        if mines is not None and field is not None:
            mask &= field.mines if mines else ~field.mines
        return [(int(r), int(c)) for r, c in np.argwhere(mask)]

    def pick(self, *states: int, lean: bool | None = None) -> tuple[int, int] | None:
        """A square in one of ``states``; most often a mine (lean True) or a safe one (False)."""
        if lean is not None and self.rng.random() < 0.85:
            leaning = self.squares(*states, mines=lean)
            if leaning:
                return self.rng.choice(leaning)
        found = self.squares(*states)
        return self.rng.choice(found) if found else None

    def numbers(self, *, satisfied: bool) -> list[tuple[int, int]]:
        """Open numbers with a closed neighbour; with as many flags around as their number."""
        game, field = self.game, self.game.field
        assert field is not None
        state = game.state
        found = []
        for r, c in np.argwhere((state == STATE_REVEALED) & (field.numbers > 0)).tolist():
            around = state[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
            closed = np.isin(around, (STATE_HIDDEN, STATE_QUESTIONED)).any()
            flags = int(np.count_nonzero(around == STATE_FLAGGED))
            if closed and (flags == field.numbers[r, c]) == satisfied:
                found.append((r, c))
        return found

    def mark(self) -> None:
        """A flag, an unflag or (with question marks) a question mark that changes the square."""
        roll = self.rng.random()
        if roll < 0.55:
            square = self.pick(STATE_HIDDEN, STATE_QUESTIONED, lean=True)
            kind = ActionKind.FLAG
        elif roll < 0.8 or not self.questions:
            square = self.pick(STATE_FLAGGED, *((STATE_QUESTIONED,) if self.questions else ()))
            kind = ActionKind.UNFLAG
        else:
            square = self.pick(STATE_HIDDEN, STATE_FLAGGED)
            kind = ActionKind.QUESTION
        if square is not None:
            self.act(kind, square)

    def waste(self) -> None:
        """A click that changes nothing."""
        rows, cols = self.game.shape
        anywhere = (self.rng.randrange(rows), self.rng.randrange(cols))
        roll = self.rng.random()
        if roll < 0.25:
            kind, square = ActionKind.REVEAL, self.pick(STATE_REVEALED, STATE_FLAGGED)
        elif roll < 0.45:
            kind = self.rng.choice((ActionKind.FLAG, ActionKind.QUESTION, ActionKind.UNFLAG))
            square = self.pick(STATE_REVEALED)
        elif roll < 0.55:
            kind, square = ActionKind.FLAG, self.pick(STATE_FLAGGED)
        elif roll < 0.65:
            kind, square = ActionKind.UNFLAG, self.pick(STATE_HIDDEN)
        else:
            kind, square = ActionKind.CHORD, anywhere  # on a closed square, a 0, a number ...
            if self.game.field is not None and self.game.steps:
                unsatisfied = self.numbers(satisfied=False)
                if unsatisfied and self.rng.random() < 0.5:
                    square = self.rng.choice(unsatisfied)
        if square is None:
            return
        before = self.game.state.copy()
        self.act(kind, square)
        if not (self.game.state == before).all():
            self.game.pop()  # it did something after all (a chord): not a waste

    def chord(self) -> None:
        """Flag (most of) the mines around an open number, then chord it."""
        field = self.game.field
        assert field is not None
        candidates = self.numbers(satisfied=True) or self.numbers(satisfied=False)
        if not candidates:
            return
        r, c = self.rng.choice(candidates)
        rows, cols = self.game.shape
        for i in range(max(r - 1, 0), min(r + 2, rows)):
            for j in range(max(c - 1, 0), min(c + 2, cols)):
                unflagged = self.game.state[i, j] in (STATE_HIDDEN, STATE_QUESTIONED)
                if field.mines[i, j] and unflagged and self.rng.random() < 0.95:
                    self.act(ActionKind.FLAG, (i, j))
        if (r, c) in self.numbers(satisfied=True):
            self.act(ActionKind.CHORD, (r, c))

    def has_opened(self) -> bool:
        return any(s.action.kind is ActionKind.REVEAL and s.effective for s in self.game.steps)

    def play(self, ending: str, moves: int) -> None:
        game, rng = self.game, self.rng
        # Before the first reveal: flags, unflags, marks (and wasted clicks).
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            if self.wasted and rng.random() < 0.3:
                self.waste()
            else:
                self.mark()
        square = self.pick(STATE_HIDDEN, STATE_QUESTIONED, lean=False)
        if square is None:
            return  # every square flagged: nothing to reveal
        self.act(ActionKind.REVEAL, square)
        for _ in range(moves):
            if game.is_over:
                break
            roll = rng.random()
            if roll < 0.4:
                square = self.pick(STATE_HIDDEN, STATE_QUESTIONED, lean=False)
                if square is not None:
                    self.act(ActionKind.REVEAL, square)
            elif roll < 0.6:
                self.mark()
            elif roll < 0.8:
                self.chord()
            elif roll < 0.9 and self.wasted:
                self.waste()
            elif len(game.history) > 1:
                game.pop()  # an undo (never of the first action: its time is the clock's 0)
        if game.is_over:
            return
        if ending == "won":
            for square in self.squares(STATE_HIDDEN, STATE_QUESTIONED, STATE_FLAGGED, mines=False):
                if game.is_over:
                    break
                if game.state[square] == STATE_FLAGGED:
                    self.act(ActionKind.UNFLAG, square)
                if game.state[square] != STATE_REVEALED:
                    self.act(ActionKind.REVEAL, square)
        elif ending == "lost":
            square = self.pick(STATE_HIDDEN, STATE_QUESTIONED, lean=True)
            field = game.field
            if square is None or field is None or not field.mines[square]:
                flagged = self.squares(STATE_FLAGGED, mines=True)
                if not flagged:
                    return
                square = flagged[0]
                self.act(ActionKind.UNFLAG, square)
            self.act(ActionKind.REVEAL, square)
        elif not self.has_opened():
            square = self.pick(STATE_HIDDEN, STATE_QUESTIONED, lean=False)
            if square is not None:
                self.act(ActionKind.REVEAL, square)


@st.composite
def games(draw: st.DrawFn, *, wasted: bool = False, questions: bool = False) -> Game:
    """A game played through :class:`Game`: won, lost or unfinished, with at least one opening.

    ``wasted`` adds clicks that change nothing; ``questions`` turns question
    marks on and uses them. The structure is drawn; each click's square and
    time come from a seeded ``random.Random``, so that a game of 400 clicks
    costs Hypothesis a few draws.
    """
    if draw(st.booleans()):
        rows, cols, mines = draw(st.sampled_from(LEVELS))
    else:
        rows, cols = draw(st.integers(1, 9)), draw(st.integers(2, 14))
        mines = draw(st.integers(1, rows * cols - 1))
    clock = Clock()
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    laid_at_first_reveal = draw(st.booleans())
    if laid_at_first_reveal:
        rules = [r for r in FirstClickRule if _fits(rows, cols, mines, r)]
        game = Game(
            rows,
            cols,
            mines,
            rule=draw(st.sampled_from(rules)),
            seed=rng.randrange(2**32),
            clock=clock,
            question_marks=questions,
        )
    else:
        mask = np.zeros(rows * cols, np.bool_)
        mask[rng.sample(range(rows * cols), mines)] = True
        game = Game.from_field(
            Minefield(mask.reshape(rows, cols)), clock=clock, question_marks=questions
        )
    player = _Player(game, clock, rng, wasted=wasted, questions=questions)
    player.play(draw(st.sampled_from(("won", "lost", "unfinished"))), draw(st.integers(0, 60)))
    assume(player.has_opened())
    return game


def _fits(rows: int, cols: int, mines: int, rule: FirstClickRule) -> bool:
    kept = {FirstClickRule.OPENING: min(3, rows) * min(3, cols), FirstClickRule.SAFE: 1}
    return mines <= rows * cols - kept.get(rule, 0)
