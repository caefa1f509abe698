"""The web game's refusals: what a request was refused for, without HTTP.

The service turns an engine's error into one of these where the same error
means different things in different requests (nothing to undo is a conflict
with the game's state; an unknown preset in a new game's body is a malformed
request, an impossible size a refused one). The HTTP layer gives every error
its status in one table (:data:`minesweep.web.app.STATUSES`); the body is
``{"error": message}`` whatever the status.
"""

from __future__ import annotations

from minesweep.errors import MinesweepError

__all__ = ["ConflictError", "MalformedError", "RefusedError", "RequestError"]


class RequestError(MinesweepError):
    """A request the web game refuses; the message is the answer's ``error``."""


class MalformedError(RequestError):
    """A request that cannot be read as one: a body of the wrong shape (400)."""


class ConflictError(RequestError):
    """A well-formed request that the game's state refuses now: nothing to undo (409)."""


class RefusedError(RequestError):
    """A well-formed request that the rules refuse: a click outside the board (422)."""
