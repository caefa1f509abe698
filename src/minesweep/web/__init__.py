"""The web game (``minesweep serve``), an optional extra: ``pip install 'minesweep[web]'``.

Nothing in the core imports this package.
"""

from __future__ import annotations

from .app import Limits, create_app
from .db import Database, default_url

__all__ = ["Database", "Limits", "create_app", "default_url"]
