"""``python -m minesweep``: the same as the ``minesweep`` command."""

from .cli import main

raise SystemExit(main())
