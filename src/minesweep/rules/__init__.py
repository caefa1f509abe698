"""The rules of Minesweeper, each written once, as functions over arrays.

One small module a rule; the one-board engine (:mod:`minesweep.board`,
:mod:`minesweep.field`, :mod:`minesweep.generate`, :mod:`minesweep.leetcode`,
:mod:`minesweep.moves`, :mod:`minesweep.stats`), the batched vector engine
(:mod:`minesweep.rl`, :mod:`minesweep.solver._play`) and the replay machine
(:mod:`minesweep.replays._kernels`) call them:

- :mod:`.counts`: adjacent-mine counts (a whole field; one more mine);
- :mod:`.flood`: the flood of a reveal on one board of any size (scanline);
- :mod:`.small_flood`: the same flood on many small boards (depth first);
- :mod:`.chord`: when a chord is ready, what it opens, which mine goes off;
- :mod:`.marks`: a right click's mark (the flag toggle, question marks);
- :mod:`.openings`: openings, lone numbers, islands: what 3BV counts;
- :mod:`.ends`: the views of a loss and of a win;
- :mod:`.first_click`: the box a first-click rule keeps clear;
- :mod:`.lay`: the field the first reveal lays behind that box;
- :mod:`.draw`: the seeded draw (numpy's ``SeedSequence`` and ``PCG64``);
- :mod:`.distinct`: the engine's compiled pass over a long draw;
- :mod:`.masks`: which actions change a board (both RL environments);
- :mod:`.codes`: the ints a status and a first-click rule are known by.

The kernels take C-contiguous arrays and plain ints (a square's row and
column), so any machine that keeps a board as arrays can call them.
Importing the package loads only :mod:`minesweep._jit`; importing a rule,
only what it needs (numba only for :mod:`.flood` and :mod:`.distinct`, which
are compiled eagerly). Python calls a lazily compiled kernel through
:func:`entry`, or, for a rule of one click that must not load numba (the
one-board engine's chord, right click and first-click box), as plain Python
through :func:`plain`; :func:`kernel` declares one (as the vector
environment's step does, over these rules).
"""

from __future__ import annotations

from .._jit import entry, kernel, plain

__all__ = ["entry", "kernel", "plain"]
