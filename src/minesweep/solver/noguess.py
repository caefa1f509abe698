"""No-guess boards: fields a player clears from the first click without guessing.

:func:`generate_no_guess` draws fields (first-click rule "opening") until one
passes :func:`clears_without_guessing`, a player that only makes certain
moves (:func:`minesweep.solver.certain.play_until_stuck`): the compiled rules
of :mod:`minesweep.solver._deduce` while they make progress, and the exact
analysis (:func:`minesweep.solver.analyze`, which uses the global mine count)
whenever they stall. A field is accepted only
when that player opens every safe square; a field whose analysis would outgrow
the state budget is skipped like one that needs a guess (rare: a frontier of
about 90 squares in one piece), so one unlucky draw cannot cost seconds or end
the search with an error. When the attempts or the time run out,
:class:`NoGuessBudgetError` says so. It never hands back a field that needs a
guess.

Reproducible: attempt ``i`` of seed ``s`` draws its field with the seed
derived by ``numpy.random.SeedSequence([s, i])``, so the same arguments give
the same field on every machine.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..errors import MinesweepError
from ..field import Minefield
from ..game import Game
from ..generate import check_fits, check_seed, generate_field, new_seed
from ..grid import check_position
from ..presets import FirstClickRule
from .certain import play_until_stuck
from .errors import DEFAULT_MAX_STATES, AnalysisBudgetError

__all__ = [
    "NoGuessBudgetError",
    "NoGuessField",
    "clears_without_guessing",
    "generate_no_guess",
    "no_guess_game",
]


class NoGuessBudgetError(MinesweepError):
    """No no-guess field was found within the attempts or the time allowed."""


@dataclass(frozen=True, slots=True)
class NoGuessField:
    """A no-guess field and how it was found."""

    field: Minefield
    first_click: tuple[int, int]
    #: Which attempt succeeded (from 0), and the seed that attempt drew with.
    attempt: int
    attempt_seed: int


def clears_without_guessing(
    field: Minefield,
    first_click: tuple[int, int],
    *,
    max_states: int | None = DEFAULT_MAX_STATES,
) -> bool:
    """Whether certain moves alone clear ``field`` from ``first_click``.

    Raises AnalysisBudgetError when a position's analysis needs more than
    ``max_states`` partial layouts (see :func:`.analyze`); None counts without
    limit.
    """
    row, col = first_click
    check_position(field.shape, row, col)
    # Checked just above: the mask itself, not is_mine's second check.
    if field.mines[row, col]:
        return False
    state = np.zeros(field.shape, np.uint8)
    opens = np.array([row * field.cols + col], np.int64)
    stuck = play_until_stuck(
        field.numbers, field.mine_count, state, opens, np.zeros(0, np.int64), max_states=max_states
    )
    return stuck is None


def generate_no_guess(
    rows: int,
    cols: int,
    mines: int,
    *,
    first_click: tuple[int, int],
    seed: int,
    max_attempts: int = 100_000,
    max_seconds: float | None = 10.0,
    max_states: int | None = DEFAULT_MAX_STATES,
) -> NoGuessField:
    """A random field that :func:`clears_without_guessing` from ``first_click``.

    The first click always opens (rule "opening"). Raises NoGuessBudgetError
    when ``max_attempts`` fields, or ``max_seconds``, are used up. A field
    whose analysis needs more than ``max_states`` partial layouts is skipped.
    """
    check_fits(rows, cols, mines, FirstClickRule.OPENING)
    seed = check_seed(seed)
    row, col = first_click
    check_position((rows, cols), row, col)
    started = time.perf_counter()
    for attempt in range(max_attempts):
        attempt_seed = _attempt_seed(seed, attempt)
        field = generate_field(
            rows,
            cols,
            mines,
            first_click=(row, col),
            rule=FirstClickRule.OPENING,
            seed=attempt_seed,
        )
        try:
            cleared = clears_without_guessing(field, (row, col), max_states=max_states)
        except AnalysisBudgetError:
            cleared = False
        if cleared:
            return NoGuessField(field, (int(row), int(col)), attempt, attempt_seed)
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            raise NoGuessBudgetError(
                f"no no-guess {rows}x{cols} field with {mines} mines found in "
                f"{max_seconds} s ({attempt + 1} attempt{'' if attempt == 0 else 's'})"
            )
    raise NoGuessBudgetError(
        f"no no-guess {rows}x{cols} field with {mines} mines found in {max_attempts} attempts"
    )


def no_guess_game(
    rows: int,
    cols: int,
    mines: int,
    *,
    first_click: tuple[int, int],
    seed: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    max_seconds: float | None = 10.0,
) -> Game:
    """A new game on a no-guess field laid around ``first_click`` (not yet clicked).

    The front-end layer calls it at the first reveal of a no-guess game
    (:func:`minesweep.frontend.first_reveal`), then replays that reveal, and
    anything the player did before it, on the game it returns. The field, not
    a seed, is what the game records: a seed alone cannot say which attempt
    succeeded. ``max_seconds`` is passed to :func:`generate_no_guess`.
    """
    result = generate_no_guess(
        rows,
        cols,
        mines,
        first_click=first_click,
        seed=new_seed() if seed is None else seed,
        max_seconds=max_seconds,
    )
    return Game(
        rows, cols, mines, rule="opening", field=result.field, first_click=first_click, clock=clock
    )


def _attempt_seed(seed: int, attempt: int) -> int:
    words = np.random.SeedSequence([seed, attempt]).generate_state(4, np.uint32)
    return int.from_bytes(words.astype("<u4").tobytes(), "little")
