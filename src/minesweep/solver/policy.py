"""How to guess when nothing is certain: choices that aim to win the game.

The lowest mine probability is where to start, not the whole answer. When
several squares are about as safe, the one more likely to open the board
(a blank square, which reveals its neighbours) gives more information for
the next moves; a forced 50/50 that no later information can resolve is
best taken at once, while the other risks may still disappear; and when few
layouts remain, an exhaustive search over them finds the guess with the best
chance of winning outright.

Every function here sees only the view (glyphs) and the analysis of it.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from ..errors import InvalidBoardError
from .probability import Analysis, _around

if TYPE_CHECKING:
    from ._whatif import Lookahead

__all__ = [
    "ENDGAME_LAYOUTS",
    "ENDGAME_SQUARES",
    "Guess",
    "choose_guess",
    "endgame_guess",
    "fifty_fifty_or_safe",
    "forced_fifty_fifty",
    "isolated_guess",
    "lookahead_guess",
]

#: The exhaustive endgame search runs when at most this many squares are in
#: doubt (hidden and not certainly mines) and at most this many layouts remain.
ENDGAME_SQUARES: Final = 60
ENDGAME_LAYOUTS: Final = 2000
#: and gives up (leaving the guess to the lookahead) past this many positions.
ENDGAME_NODES: Final = 200_000
#: A part of the board nothing else can inform is searched on its own
#: (:func:`isolated_guess`) when it has at most this many layouts.
ISOLATED_LAYOUTS: Final = 200

HIDDEN: Final = 9
FLAG: Final = 10
QUESTION: Final = 11

#: Squares within this much of the lowest probability count as equally safe.
TOLERANCE = 0.005
#: How much a square's chance of opening (being a blank) weighs against its risk.
OPENING_WEIGHT = 1.0
#: Lookahead candidates: squares with at least this share of the best safety,
LOOKAHEAD_CUT: Final = 0.9
#: at most this many interior squares next to the frontier among them,
LOOKAHEAD_INTERIOR: Final = 3
#: and at most this many in all (the choice without lookahead always first).
LOOKAHEAD_CANDIDATES: Final = 10
#: Weigh each candidate by the 50/50s it may settle early (:class:`_FiftyFifties`):
LONG_TERM = True
#: by this much of its 50/50 influence over its safety,
INFLUENCE_WEIGHT: Final = 0.9
#: counting pairs with at most this many outside squares not known mines,
PAIR_MISSING: Final = 3
#: 2x2 blocks with at most this many,
BLOCK_MISSING: Final = 3
#: and only structures whose least likely square has at least this chance.
STRUCTURE_FLOOR: Final = 0.02


@dataclass(frozen=True, slots=True)
class Guess:
    row: int
    col: int
    probability: float
    reason: str


def choose_guess(
    analysis: Analysis,
    glyphs: npt.NDArray[np.uint8],
    mines: int | None = None,
    *,
    lookahead: bool = True,
) -> Guess:
    """The square to open when none is certainly safe.

    In order: with the total ``mines`` given, a small endgame is searched
    exhaustively (:func:`endgame_guess`); a forced 50/50 is taken at once
    (:func:`forced_fifty_fifty`); a part of the board cut off from the rest
    is searched on its own (:func:`isolated_guess`); then, with ``mines``
    and ``lookahead``, a square that can only be a mine as one side of a
    future 50/50 is taken (:func:`fifty_fifty_or_safe`), or else the
    safest candidates are weighed by how safe the next guess would be after
    each number they could show (:func:`lookahead_guess`); otherwise the
    lowest risk, ties broken by the chance of opening. ``glyphs`` must be
    the view ``analysis`` was made of (another shape raises
    InvalidBoardError).
    """
    _check_shape(analysis, glyphs)
    # The analysis has counted the layouts: search only when few enough.
    if mines is not None and analysis.log_layouts <= math.log(ENDGAME_LAYOUTS) + 1e-9:
        exhaustive = endgame_guess(glyphs, mines, analysis.mines)
        if exhaustive is not None:
            return exhaustive
    forced = forced_fifty_fifty(analysis, glyphs)
    if forced is not None:
        # A guess is unavoidable there; others may still be avoided. Take it first.
        row, col = forced
        return Guess(row, col, 0.5, "a forced 50/50 no later move can resolve: take it now")
    isolated = isolated_guess(analysis, glyphs)
    if isolated is not None:
        return isolated
    if lookahead and mines is not None:
        early = fifty_fifty_or_safe(analysis, glyphs)
        if early is not None:
            return early
    probability = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    lowest = float(probability.min())
    candidates = np.argwhere(probability <= lowest + TOLERANCE)
    # Among the about-as-safe squares, the one most likely to be a blank,
    # which opens its neighbours: its own safety times its neighbours'.
    opening = _chance_of_blank(probability)
    scores = (1.0 - probability[tuple(candidates.T)]) * (
        1.0 + OPENING_WEIGHT * opening[tuple(candidates.T)]
    )
    best = candidates[int(np.argmax(scores))]
    row, col = int(best[0]), int(best[1])
    own = Guess(
        row,
        col,
        float(probability[row, col]),
        "the lowest risk, and among equally safe squares the likeliest to open",
    )
    if lookahead and mines is not None:
        return lookahead_guess(analysis, glyphs, own) or own
    return own


def lookahead_guess(analysis: Analysis, glyphs: npt.NDArray[np.uint8], own: Guess) -> Guess | None:
    """The candidate whose outcomes leave the safest next guess (None: none could be weighed).

    Surviving this click is not the whole aim: after it, the number the
    square shows decides how safe the next guess can be. The candidates are
    the frontier squares within :data:`LOOKAHEAD_CUT` of the best safety, a
    few interior squares next to the frontier (likeliest to open first), and
    ``own`` (the choice without lookahead). Each scores the sum, over the
    numbers it could show, of that number's chance times the best safety
    after it (1 when a square becomes certain), worked out by
    :class:`minesweep.solver._whatif.Lookahead`, times (with
    :data:`LONG_TERM`) its factor for the 50/50s it may settle early
    (:class:`_FiftyFifties`). ``own`` is weighed first (if it cannot be, it
    is kept: None), then the others safest first; a score is at most the
    candidate's safety times a bound on its factor that needs no counting,
    so one that cannot beat the best found is not weighed. A candidate
    without a cheap answer (a component too tangled for the compiled
    counter) is left out. This follows the "secondary safety" of David
    Hill's JSMinesweeper solver.
    """
    from ._whatif import Lookahead

    _check_shape(analysis, glyphs)
    view = np.asarray(glyphs)
    risk = _risk(analysis)
    hidden = view >= HIDDEN
    doubtful = np.isfinite(risk)
    seen = ~hidden | (_around(~hidden) > 0)  # revealed, or next to a revealed square
    frontier = doubtful & seen
    good = (1.0 - risk) >= (1.0 - risk.min()) * LOOKAHEAD_CUT
    blank = _chance_of_blank(np.where(np.isinf(risk), 1.0, risk))
    interior_near = doubtful & ~seen & (_around(frontier) > 0) & good
    near = sorted(
        (tuple(cell) for cell in np.argwhere(interior_near).tolist()),
        key=lambda cell: (-blank[cell], cell),
    )
    cells = [tuple(cell) for cell in np.argwhere(frontier & good).tolist()]
    mine = (own.row, own.col)
    others = sorted(
        {*cells, *near[:LOOKAHEAD_INTERIOR]} - {mine}, key=lambda cell: (risk[cell], cell)
    )
    candidates = [mine, *others[: LOOKAHEAD_CANDIDATES - 1]]
    mines_left = analysis._mine_count - len(analysis.mines)
    if len(candidates) == 1:
        return own
    ask = Lookahead(analysis)
    fifty_fifties = _FiftyFifties(view, risk, mines_left)
    best: tuple[float, int, int] | None = None
    survival, weight = 0.0, 1.0  # the best's score without and with its 50/50 factor
    for r, c in candidates:
        safe = 1.0 - float(risk[r, c])
        # A score is at most the square's safety times its 50/50 factor,
        # whose bound (from single squares' chances) costs no counting.
        bound = 1.0
        if LONG_TERM and safe > 0:
            bound = fifty_fifties.factor((r, c))
        if best is not None and safe * bound < best[0] - 1e-12:
            continue
        factor = 1.0
        if bound > 1.0:
            factor = fifty_fifties.factor((r, c), ask)
            if best is not None and safe * factor < best[0] - 1e-12:
                continue
        outcomes = ask.outcomes(r, c)
        if outcomes is None:
            if best is None:
                return None  # the plain choice could not be weighed: keep it
            continue  # no cheap answer: the candidate is left out
        plain = sum(outcome.chance * outcome.safest for outcome in outcomes)
        if best is None or factor * plain > best[0] + 1e-12:
            best = (factor * plain, r, c)
            survival, weight = plain, factor
    assert best is not None
    _, r, c = best
    if (r, c) == (own.row, own.col):
        return own
    reason = f"the best chance of surviving this guess and the next: {survival:.1%}"
    if weight > 1.0:
        reason += f", weighed {weight:.2f}x for the 50/50s it may settle early"
    return Guess(r, c, float(risk[r, c]), reason)


_Structure = tuple[list[tuple[int, int]], list[tuple[int, int]]]


class _FiftyFifties:
    """The 50/50s that could still form around the squares of one view.

    Two squares side by side (or a 2x2 block, mines on one diagonal) become
    a 50/50 that no number will ever settle when every square that sees one
    of them but not the other holds a mine. A square's *influence* sums,
    over such structures around it that could still form, the chance that
    it forms with the square on its safe side: then opening the square now
    settles a guess that would otherwise come later at even odds. (A sum
    of overlapping chances, so it can pass 1; :meth:`factor` caps it.)
    This is David Hill's "50/50 influence"
    (JSMinesweeper's long-term risk). ``risk`` is the mine probability,
    infinite for revealed squares and known mines.
    """

    def __init__(
        self, view: npt.NDArray[np.uint8], risk: npt.NDArray[np.float64], mines_left: int
    ) -> None:
        self.rows, self.cols = view.shape
        # Lists, not arrays: they are read one square at a time.
        self._revealed: list[list[bool]] = (view < HIDDEN).tolist()
        self._doubtful: list[list[bool]] = np.isfinite(risk).tolist()
        self._risk: list[list[float]] = risk.tolist()
        self._mines_left = mines_left
        self._found: dict[tuple[int, int], tuple[list[_Structure], list[_Structure]]] = {}

    def factor(self, cell: tuple[int, int], ask: Lookahead | None = None) -> float:
        """How much more a guess at ``cell`` is worth for the 50/50s it may settle early.

        1 + :data:`INFLUENCE_WEIGHT` times its influence over its safety,
        the influence capped at its chances of being a mine and safe. With
        ``ask`` None, an upper bound that needs no counting.
        """
        safe = 1.0 - self._risk[cell[0]][cell[1]]
        influence = self.influence(cell, ask)
        return 1.0 + INFLUENCE_WEIGHT * min(influence, safe, 1.0 - safe) / safe

    def influence(self, cell: tuple[int, int], ask: Lookahead | None = None) -> float:
        """How likely ``cell`` is the safe side of 50/50s that could still form, summed.

        For each structure around it whose outside squares are all hidden
        and at most a few are not yet known mines: the chance that those
        are mines, the partner (or the other diagonal) mines and ``cell``
        (with its diagonal) safe, by ``ask.joint``. Pairs add up; of the
        blocks the likeliest counts. With ``ask`` None, each chance is
        bounded by the least likely of its squares.
        """
        pairs, blocks = self.structures(cell)
        return sum(self._chance(s, ask) for s in pairs) + max(
            (self._chance(s, ask) for s in blocks), default=0.0
        )

    def _chance(self, structure: _Structure, ask: Lookahead | None) -> float:
        mines, safe = structure
        risk = self._risk
        # The least likely square bounds them all.
        bound = min(
            min((risk[r][c] for r, c in mines), default=1.0),
            min((1.0 - risk[r][c] for r, c in safe), default=1.0),
        )
        if ask is None:
            return bound
        if bound < STRUCTURE_FLOOR:
            return 0.0  # not worth a count
        joint = ask.joint(mines, safe)
        return 0.0 if joint is None else float(joint)

    def structures(self, cell: tuple[int, int]) -> tuple[list[_Structure], list[_Structure]]:
        """The pairs and the blocks around ``cell``, each as (squares to be mines, to be safe)."""
        if cell in self._found:
            return self._found[cell]
        r, c = cell
        pairs: list[_Structure] = []
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            partner = (r + dr, c + dc)
            if not self._is_doubtful(partner):
                continue
            if dc:
                low, high = min(c, c + dc) - 1, max(c, c + dc) + 1
                walls = [(rr, cc) for cc in (low, high) for rr in (r - 1, r, r + 1)]
            else:
                low, high = min(r, r + dr) - 1, max(r, r + dr) + 1
                walls = [(rr, cc) for rr in (low, high) for cc in (c - 1, c, c + 1)]
            missing = self._outside(walls, min(PAIR_MISSING, self._mines_left - 1))
            if missing is not None:
                pairs.append(([*missing, partner], [cell]))
        blocks: list[_Structure] = []
        for top, left in ((r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c)):
            squares = [(top, left), (top, left + 1), (top + 1, left), (top + 1, left + 1)]
            if not all(self._is_doubtful(square) for square in squares):
                continue
            corners = [(rr, cc) for rr in (top - 1, top + 2) for cc in (left - 1, left + 2)]
            missing = self._outside(corners, min(BLOCK_MISSING, self._mines_left - 2))
            if missing is None:
                continue
            on_main = squares.index(cell) in (0, 3)
            main, other = [squares[0], squares[3]], [squares[1], squares[2]]
            blocks.append(([*missing, *other], main) if on_main else ([*missing, *main], other))
        self._found[cell] = (pairs, blocks)
        return pairs, blocks

    def _is_doubtful(self, square: tuple[int, int]) -> bool:
        r, c = square
        return 0 <= r < self.rows and 0 <= c < self.cols and self._doubtful[r][c]

    def _outside(self, squares: list[tuple[int, int]], limit: int) -> list[tuple[int, int]] | None:
        """The outside squares not yet known mines, or None when one is revealed or too many."""
        missing = []
        for r, c in squares:
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                continue
            if self._revealed[r][c]:
                return None
            if self._doubtful[r][c]:
                missing.append((r, c))
        return missing if len(missing) <= limit else None


def fifty_fifty_or_safe(analysis: Analysis, glyphs: npt.NDArray[np.uint8]) -> Guess | None:
    """A square that can be a mine only as one side of a 50/50 to come, or None.

    Say square *s* is a mine only in layouts where it makes, with a
    neighbour (or, in a 2x2 block, with its diagonal against the other), a
    pair that no number will ever tell apart: every square that sees more
    of one side than of the other holds a mine (see :class:`_FiftyFifties`).
    Those walls are all hidden, so every number shown sees as much of one
    side as of the other, and swapping the sides turns each layout where
    the 50/50 forms one way into one where it forms the other. No play can
    tell such a pair of layouts apart but by opening a side, so any play
    loses at least one of each pair: at least *s*'s own risk. Opening *s*
    now pays that risk and no more, and tells its number at once. This is
    a rule of thumb, not a proof that *s* is the best guess: another
    square (the other side, say) may tell more. On small random positions
    where it applies, opening *s* first won less than the best first move
    in about 0.3% of them; in expert games it won more games than the
    lookahead alone (BENCHMARKS.md). Of such squares on the frontier, the
    least likely mine, checked exactly
    (:meth:`minesweep.solver._whatif.Lookahead.joint`) within the
    structures' limits of :class:`_FiftyFifties`. None when there is none,
    or nothing cheap to count with. David Hill's JSMinesweeper plays such a
    square ("50/50 or safe") before weighing other guesses.
    """
    from ._whatif import Lookahead

    _check_shape(analysis, glyphs)
    view = np.asarray(glyphs)
    risk = _risk(analysis)
    hidden = view >= HIDDEN
    doubtful = np.isfinite(risk)
    seen = _around(~hidden) > 0
    cells = np.argwhere(doubtful & (risk > 0) & hidden & seen & _could_pair(~hidden, doubtful))
    if not len(cells):
        return None
    order = np.argsort(risk[tuple(cells.T)], kind="stable")
    fifty_fifties = _FiftyFifties(view, risk, analysis._mine_count - len(analysis.mines))
    ask: Lookahead | None = None
    for index in order.tolist():
        cell = (int(cells[index, 0]), int(cells[index, 1]))
        chance = float(risk[cell])
        pairs, blocks = fifty_fifties.structures(cell)
        # As _FiftyFifties lists them: the walls, then the side facing ``cell``'s.
        sides = [(are_mines[:-1], [cell], are_mines[-1:]) for are_mines, _ in pairs]
        sides += [(are_mines[:-2], own, are_mines[-2:]) for are_mines, own in blocks]
        for walls, mine_side, safe_side in sides:
            # Were ``cell`` a mine, the walls and its side would be mines and
            # the other side safe: none of these can be less likely (a test
            # that needs no counting).
            if any(risk[square] < chance - 1e-12 for square in [*walls, *mine_side]) or any(
                1.0 - risk[square] < chance - 1e-12 for square in safe_side
            ):
                continue
            if ask is None:
                ask = Lookahead(analysis)
            forming = ask.joint([*walls, *mine_side], safe_side)
            if forming is None or forming < chance * (1.0 - 1e-9):
                continue  # a mine at ``cell`` need not make this 50/50
            return Guess(
                cell[0],
                cell[1],
                chance,
                "a mine here only as one side of a 50/50 to come: as well open it now",
            )
    return None


def _could_pair(
    revealed: npt.NDArray[np.bool_], doubtful: npt.NDArray[np.bool_]
) -> npt.NDArray[np.bool_]:
    """The squares with a pair or 2x2 block of :class:`_FiftyFifties` around them.

    That is, a neighbour in doubt beside, above or below (or a 2x2 block of
    squares in doubt) with no revealed square among the walls, which
    :meth:`_FiftyFifties.structures` looks for one square at a time; here,
    for the whole board at once, so that only these squares are looked at
    (the limit on walls in doubt is left to it).
    """
    rows, cols = revealed.shape
    pad = 2
    shown = np.zeros((rows + 2 * pad, cols + 2 * pad), np.bool_)
    shown[pad:-pad, pad:-pad] = revealed
    open_ = np.zeros_like(shown)
    open_[pad:-pad, pad:-pad] = doubtful

    def at(grid: npt.NDArray[np.bool_], dr: int, dc: int) -> npt.NDArray[np.bool_]:
        return grid[pad + dr : pad + dr + rows, pad + dc : pad + dc + cols]

    found = np.zeros((rows, cols), np.bool_)
    # A pair: the partner beside (or above, below), walls in the two lines past its ends.
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        ends = (min(0, dr + dc) - 1, max(0, dr + dc) + 1)  # along the pair
        walled = np.zeros((rows, cols), np.bool_)
        for end in ends:
            for side in (-1, 0, 1):
                walled |= at(shown, end, side) if dr else at(shown, side, end)
        found |= at(open_, dr, dc) & ~walled
    # A block: its four squares in doubt, no revealed square at its corners.
    for top, left in ((-1, -1), (-1, 0), (0, -1), (0, 0)):
        squares = at(open_, top, left) & at(open_, top, left + 1)
        squares &= at(open_, top + 1, left) & at(open_, top + 1, left + 1)
        corners = at(shown, top - 1, left - 1) | at(shown, top - 1, left + 2)
        corners |= at(shown, top + 2, left - 1) | at(shown, top + 2, left + 2)
        found |= squares & ~corners
    return found


def _risk(analysis: Analysis) -> npt.NDArray[np.float64]:
    """Each square's mine probability, infinite where revealed or certainly a mine."""
    risk = np.where(np.isnan(analysis.probability), np.inf, analysis.probability)
    if len(analysis.mines):
        risk[tuple(analysis.mines.T)] = np.inf
    return risk


def _check_shape(analysis: Analysis, glyphs: npt.NDArray[np.uint8]) -> None:
    """Refuse a view of another shape than the one analysed (InvalidBoardError)."""
    shape = np.shape(glyphs)
    if shape != analysis.probability.shape:
        rows, cols = analysis.probability.shape
        raise InvalidBoardError(
            f"the view is {'x'.join(map(str, shape))} but the analysis is of a {rows}x{cols} one"
        )


def _chance_of_blank(probability: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For each square, the product of its hidden neighbours' chances of being safe.

    A rough estimate (it takes the neighbours as independent) of the chance
    that the square, if safe, shows a blank.
    """
    safe = np.where(np.isfinite(probability), 1.0 - probability, 1.0)
    padded = np.ones((safe.shape[0] + 2, safe.shape[1] + 2))
    padded[1:-1, 1:-1] = safe
    product = np.ones(safe.shape)
    rows, cols = safe.shape
    for dr, dc in itertools.product((-1, 0, 1), repeat=2):
        if dr or dc:
            product *= padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
    return product


def forced_fifty_fifty(analysis: Analysis, glyphs: npt.NDArray[np.uint8]) -> tuple[int, int] | None:
    """A square of a 50/50 that nothing left on the board can ever resolve, or None.

    Two hidden squares at probability one half, next to each other or both
    next to the same numbers, whose other neighbours are all revealed or
    certain mines: no future reveal can tell them apart, so the guess is
    forced whatever happens elsewhere.
    """
    _check_shape(analysis, glyphs)
    view = np.asarray(glyphs)
    hidden = view >= HIDDEN
    rows, cols = view.shape
    sure_mine = np.zeros(view.shape, np.bool_)
    if len(analysis.mines):
        sure_mine[tuple(analysis.mines.T)] = True
    halves = np.argwhere(np.abs(analysis.probability - 0.5) < 1e-12)
    if len(halves) < 2 or len(halves) > 64:
        return None
    for (r1, c1), (r2, c2) in itertools.combinations(halves.tolist(), 2):
        if max(abs(r1 - r2), abs(c1 - c2)) > 2:
            continue
        pair = {(r1, c1), (r2, c2)}
        unresolved = False
        for r, c in pair:
            for rr in range(max(0, r - 1), min(rows, r + 2)):
                for cc in range(max(0, c - 1), min(cols, c + 2)):
                    if (rr, cc) in pair or not hidden[rr, cc] or sure_mine[rr, cc]:
                        continue
                    unresolved = True  # a hidden neighbour that might still inform
        if unresolved:
            continue
        # Both squares must see the same numbers, so nothing distinguishes them.
        if _numbers_around(view, r1, c1) == _numbers_around(view, r2, c2):
            return r1, c1
    return None


def _enumerate_layouts(
    squares: list[int],
    constraints: list[tuple[list[int], int]],
    mines: int,
    limit: int,
) -> npt.NDArray[np.bool_] | None:
    """Every set of ``mines`` squares meeting the constraints, or None past ``limit``.

    One row per layout, one column per square of ``squares`` (True: a mine).
    A backtracking search (compiled: :func:`minesweep.solver._search.layouts`):
    squares next to numbers come first, so a wrong choice fails at the number
    it breaks rather than after every square is placed.
    """
    from ._search import layouts

    touching: dict[int, list[int]] = {square: [] for square in squares}
    for c, (around, _) in enumerate(constraints):
        for square in around:
            touching[square].append(c)
    order = sorted(range(len(squares)), key=lambda i: (not touching[squares[i]], squares[i]))
    touch = [c for i in order for c in touching[squares[i]]]
    touch_start = np.cumsum([0] + [len(touching[squares[i]]) for i in order])
    need = np.array([value for _, value in constraints], np.int64)
    free = np.array([len(around) for around, _ in constraints], np.int64)
    if np.any(need < 0) or np.any(need > free):
        return np.zeros((0, len(squares)), np.bool_)
    found = layouts(touch_start, np.array(touch, np.int64), need, free, mines, limit)
    if found is None:
        return None
    by_square = np.empty_like(found)
    by_square[:, order] = found
    return by_square


def _numbers_around(view: npt.NDArray[np.uint8], row: int, col: int) -> set[tuple[int, int]]:
    rows, cols = view.shape
    return {
        (r, c)
        for r in range(max(0, row - 1), min(rows, row + 2))
        for c in range(max(0, col - 1), min(cols, col + 2))
        if view[r, c] <= 8
    }


@functools.lru_cache(maxsize=8)
def _neighbour_table(rows: int, cols: int) -> dict[int, tuple[int, ...]]:
    """For every square (as ``row * cols + col``), its neighbours', built once per shape.

    Shared between calls (hence tuples, which no caller can change).
    """
    return {
        index: tuple(
            rr * cols + cc
            for rr in range(max(0, index // cols - 1), min(rows, index // cols + 2))
            for cc in range(max(0, index % cols - 1), min(cols, index % cols + 2))
            if rr * cols + cc != index
        )
        for index in range(rows * cols)
    }


def endgame_guess(
    glyphs: npt.NDArray[np.uint8],
    mines: int,
    known_mines: npt.ArrayLike = (),
) -> Guess | None:
    """The guess with the best chance of winning, by searching every remaining layout.

    ``known_mines`` lists squares (row, col) certainly holding mines (a square
    that is not hidden in the view raises InvalidBoardError): they are set
    aside, so that the search sees only the squares still in doubt (in an
    expert endgame the 99 mines alone are more hidden squares than any search
    could take). Runs only in small endgames (at most
    :data:`ENDGAME_SQUARES` squares in doubt and :data:`ENDGAME_LAYOUTS`
    layouts); returns None otherwise. A move opens a square (and, as the game
    does, the blank region around it); what it shows splits the layouts, and
    the search takes, at every step, the move whose outcomes win most often.
    """
    view = np.asarray(glyphs)
    rows, cols = view.shape
    known = set()
    for r, c in np.asarray(known_mines, np.int64).reshape(-1, 2).tolist():
        if not (0 <= r < rows and 0 <= c < cols and view[r, c] >= HIDDEN):
            raise InvalidBoardError(
                f"known mine ({r}, {c}) is not a hidden square of the {rows}x{cols} view"
            )
        known.add(r * cols + c)
    hidden = [
        r * cols + c for r, c in np.argwhere(view >= HIDDEN).tolist() if r * cols + c not in known
    ]
    if not hidden or len(hidden) > ENDGAME_SQUARES or len(known) > mines:
        return None
    sure = np.zeros(rows * cols, np.bool_)
    sure[list(known)] = True
    sure = sure.reshape(rows, cols)
    settled = (view <= 8) & (_around((view >= HIDDEN) & ~sure) == 0)
    if np.any(view[settled] != _around(sure)[settled]):
        return None  # the known mines do not add up to a number with no doubt around it
    return _search_part(
        view,
        hidden,
        known,
        mines - len(known),
        ENDGAME_LAYOUTS,
        lambda count, chance: (
            f"an exhaustive search of the {count} layouts left: "
            f"this square wins {chance:.1%} of them"
        ),
    )


def _search_part(
    view: npt.NDArray[np.uint8],
    squares: list[int],
    known: set[int],
    mines: int,
    limit: int,
    reason: Callable[[int, float], str],
) -> Guess | None:
    """The best first square among ``squares`` (as ``row * cols + col``), by exhaustive search.

    ``squares`` hold ``mines`` mines between them, the ``known`` squares
    are mines, and nothing else hidden touches a number next to
    ``squares``. The guess's reason is ``reason(layouts, chance of clearing
    squares)``. None past ``limit`` layouts or :data:`ENDGAME_NODES`
    positions, or with nothing to guess.
    """
    rows, cols = view.shape
    neighbours = _neighbour_table(rows, cols)
    # Only the numbers next to a square in doubt constrain the layouts; each
    # needs its count, less the known mines it touches, among those squares.
    doubtful = set(squares)
    constraints = []
    for index in sorted({n for square in squares for n in neighbours[square]}):
        value = int(view[divmod(index, cols)])
        if value <= 8:
            around = [n for n in neighbours[index] if n in doubtful]
            constraints.append((around, value - sum(n in known for n in neighbours[index])))
    chosen = _enumerate_layouts(squares, constraints, mines, limit)
    if chosen is None or not len(chosen):
        return None
    # Mines by layout over the whole board, plus one square that is never a
    # mine (the padding of squares with fewer than eight neighbours).
    layouts = np.zeros((len(chosen), rows * cols + 1), np.bool_)
    layouts[:, list(known)] = True
    layouts[:, squares] = chosen
    searched = _search_layouts(layouts, squares, neighbours)
    if searched is None or searched[1] < 0:
        return None
    chance, cell = searched
    row, col = divmod(cell, cols)
    risk = float(layouts[:, cell].mean())
    return Guess(row, col, risk, reason(len(chosen), chance))


def isolated_guess(analysis: Analysis, glyphs: npt.NDArray[np.uint8]) -> Guess | None:
    """The best guess in a part of the board nothing else can inform, by exhaustive search.

    A frontier component is isolated when every hidden neighbour of its
    squares is one of them or a certain mine, and all its layouts hold the
    same number of mines. Then no square elsewhere can ever tell anything
    about it, nor it about them (not even through the mine total): clearing
    it is a game of its own, whose guesses no move elsewhere can spare, and
    the game is won only if both are. So when one has at most
    :data:`ISOLATED_LAYOUTS` layouts, the search of :func:`endgame_guess`
    finds the square that clears it most often, and that square is played
    now (a part with a square certainly safe is left until it is opened).
    None when there is no such part (or the analysis is exact, with no
    counts by component). David Hill's JSMinesweeper searches an "isolated
    edge" the same way.
    """
    _check_shape(analysis, glyphs)
    frontier = analysis._frontier
    if frontier is None or len(analysis._counts) != len(frontier.components):
        return None
    view = np.asarray(glyphs)
    rows, cols = view.shape
    hidden = (view >= HIDDEN).ravel().tolist()
    known = {r * cols + c for r, c in analysis.mines.tolist()}
    safe = {r * cols + c for r, c in analysis.safe.tolist()}
    neighbours = _neighbour_table(rows, cols)
    most = math.log(ISOLATED_LAYOUTS) + 1e-9
    for members, counts in zip(frontier.components, analysis._counts, strict=True):
        possible = np.flatnonzero(counts.layouts > 0)
        if len(possible) != 1 or math.log(counts.layouts[possible[0]]) + counts.log_scale > most:
            continue
        cells = [r * cols + c for index in members for r, c in frontier.groups[index].cells]
        inside = set(cells)
        if safe.intersection(cells):
            continue  # nothing to guess there yet
        if any(
            hidden[n] and n not in inside and n not in known
            for cell in cells
            for n in neighbours[cell]
        ):
            continue  # a hidden square outside it could inform it
        squares = [cell for cell in cells if cell not in known]
        mines = int(possible[0]) - (len(cells) - len(squares))
        guess = _search_part(
            view,
            squares,
            known,
            mines,
            ISOLATED_LAYOUTS,
            lambda count, chance: (
                f"an exhaustive search of the {count} layouts of a part of the board nothing "
                f"else can inform: this square clears it {chance:.1%} of the time"
            ),
        )
        if guess is not None:
            return guess
    return None


def _search_layouts(
    mines: npt.NDArray[np.bool_],
    hidden: list[int],
    neighbours: dict[int, tuple[int, ...]],
) -> tuple[float, int] | None:
    """The best chance of winning and the square to open (-1: already won), or None.

    ``mines[layout, square]`` tells where the mines are in each layout still
    possible (all equally likely; no two alike), over the board's squares
    in board order plus a last one that is never a mine; ``hidden`` are the
    squares in doubt. Opening a square splits the layouts by the number it
    shows; the squares opened so far need no bookkeeping (each shows the
    same number in every layout left, so opening it again would tell
    nothing), and a square safe in every layout left is opened at no risk
    (which is how a blank's neighbours open). The search itself is compiled
    (:mod:`minesweep.solver._search`). None past :data:`ENDGAME_NODES`
    positions.
    """
    from ._search import MINE, TOO_LARGE, search

    hidden = sorted(hidden)  # of squares alike, the first in board order is played
    size = mines.shape[1] - 1
    around = np.full((len(hidden), 8), size, np.int64)
    for index, cell in enumerate(hidden):
        around[index, : len(neighbours[cell])] = neighbours[cell]
    shown = mines[:, around].sum(axis=2)
    shown[mines[:, hidden]] = MINE
    chance, square = search(shown, ENDGAME_NODES)
    if chance == TOO_LARGE:
        return None
    if square < 0:
        # One layout left: nothing to guess, but a safe square still to open.
        safe = [cell for cell in hidden if not mines[0, cell]]
        return chance, min(safe, default=-1)
    return chance, hidden[square]
