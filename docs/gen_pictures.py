"""Draw the guides' pictures with the code of this checkout, each time the site is built.

mkdocs-gen-files runs this script at build time (mkdocs.yml lists it beside
gen_reference.py): the pictures are written into the build's virtual docs
folder, under ``pictures/``, and never into the repository, so a guide
cannot show a picture older than the code. ``mkdocs build --strict`` fails
when a guide links a picture this script did not make.

:func:`pictures` makes them without mkdocs (tests/test_docs.py calls it):

- ``board.svg``: an intermediate game after its first click and every move
  the solver is certain of (the game guide);
- ``heat-map.svg``: the same position as the solver sees it, each hidden
  square's mine probability, the certain squares and the hint marked (the
  solver guide);
- ``replay-final.svg``, ``replay-timeline.svg`` and ``replay.gif``: the
  expert EVF in tests/replays/data, its final board with its statistics,
  its timeline, and the game as an animated GIF (the replays guide).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from minesweep import Game
    from minesweep.solver import Analysis

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
#: The replay the replays guide draws: Metasweeper's expert game, won in 69.6 s.
EXPERT_EVF = ROOT / "tests" / "replays" / "data" / "test_subject.evf"
#: The seed of the game the game and solver guides draw.
SEED = 4


def _position() -> tuple[Game, Analysis]:
    """The game guide's game, and the solver's analysis of it.

    An intermediate game (16 by 16, 40 mines) after a first click in the
    middle, then the solver's certain moves until it has none: every square
    it knows to be safe opened, every mine it knows flagged. What is left
    needs a guess, which is where a heat map says most.
    """
    from minesweep import Game
    from minesweep.solver import analyze
    from minesweep.squares import GLYPH_HIDDEN

    game = Game.new("intermediate", rule="opening", seed=SEED)
    game.reveal(7, 7)
    while True:
        view = game.glyphs()
        analysis = analyze(view, 40)
        safe = [(row, col) for row, col in analysis.safe.tolist() if view[row, col] == GLYPH_HIDDEN]
        if not safe or game.is_over:
            return game, analysis
        for row, col in safe:
            if not game.is_over:
                game.reveal(row, col)
        for row, col in analysis.mines.tolist():
            if game.glyphs()[row, col] == GLYPH_HIDDEN:
                game.flag(row, col)


def pictures() -> dict[str, bytes]:
    """Each picture's file name and contents."""
    if str(SOURCE) not in sys.path:
        sys.path.insert(0, str(SOURCE))
    from minesweep import svg
    from minesweep.replays import picture, read
    from minesweep.replays.animation import gif
    from minesweep.replays.timeline import timeline
    from minesweep.replays.verdict import judge_clicks
    from minesweep.solver import hint_from_analysis

    game, analysis = _position()
    view = game.glyphs()
    board = svg.board(
        view,
        title="An intermediate game after its first click and every certain move",
    )
    advice = hint_from_analysis(analysis, view)
    marks = [svg.Mark(int(row), int(col), "safe") for row, col in analysis.safe]
    marks += [svg.Mark(int(row), int(col), "mine") for row, col in analysis.mines]
    marks.append(svg.Mark(advice.row, advice.col, "hint"))
    heat_map = svg.board(
        view,
        probabilities=analysis.probability,
        marks=marks,
        title="The same game as the solver sees it: mine probabilities, the hint framed",
        caption=f"hint: {advice.reason}",
    )
    replay = read(EXPERT_EVF)
    table = judge_clicks(replay)
    return {
        "board.svg": board.encode(),
        "heat-map.svg": heat_map.encode(),
        "replay-final.svg": picture(replay, size=20).encode(),
        "replay-timeline.svg": timeline(replay, table).encode(),
        "replay.gif": gif(replay, size=16),
    }


def main() -> None:
    """Write :func:`pictures` where the build reads its docs (mkdocs-gen-files' files)."""
    import os

    import mkdocs_gen_files

    # Five small pictures need no compiled solver: a docs build should not
    # start the background compiler (minesweep warm) and leave it running.
    os.environ.setdefault("MINESWEEP_JIT", "interpret")
    for name, data in pictures().items():
        with mkdocs_gen_files.open(f"pictures/{name}", "wb") as handle:
            handle.write(data)


# mkdocs-gen-files runs the script with runpy.run_path, whose module name is
# "<run_path>"; a test that imports the module for pictures() writes nothing.
if __name__ in {"<run_path>", "__main__"}:
    main()
