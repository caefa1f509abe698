"""The web API's routes, declared once.

Each :class:`Endpoint` says everything about one route: its method and path,
what it takes and answers, its errors, which rate limit it draws on, whether
it needs the game's token, and what it calls on the service. The server's
routes (:mod:`minesweep.web.app`) and the OpenAPI description
(:mod:`minesweep.web.openapi`) are both built from :data:`ENDPOINTS`, so a
route cannot be served without being described, or described without being
served.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec

from . import models
from .accounts import Credentials

if TYPE_CHECKING:
    from .accounts import WithCookie
    from .service import Service

__all__ = ["ENDPOINTS", "Call", "Endpoint"]

#: A path parameter, with Starlette's converter if it has one: ``{kind:path}``.
_PARAMETER: Final = re.compile(r"\{(\w+)(?::\w+)?\}")


@dataclass(frozen=True, slots=True)
class Call:
    """What a handler is given: the game's token (for routes that need one, else
    empty), the path's parameters, the query's (those the route takes, when
    sent), the decoded body (None without one; the bytes of a file), and what
    may sign the request in to an account (for routes that read one, else nothing)."""

    token: str = ""
    params: Mapping[str, str] = field(default_factory=dict)
    body: Any = None
    query: Mapping[str, str] = field(default_factory=dict)
    credentials: Credentials = field(default_factory=Credentials)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One route of the JSON API.

    ``path`` is Starlette's, converters included (``{kind:path}`` matches a
    kind's slashes); :attr:`described_path` is OpenAPI's. ``request`` is the
    JSON body's model, ``bytes`` for a route that takes a file's raw bytes,
    or None. An ``answer`` of :class:`models.Download` is a file, sent as an
    attachment; any other is JSON. ``bucket`` names the rate limit the route
    draws on: creations, actions (a game changes), or reads; ``cost`` is how
    many of its tokens a request takes before it runs (what its work cost is
    charged after: :class:`minesweep.web.app.Guards`). ``token`` routes read the game's token
    from the Authorization header. ``query`` names the optional query
    parameters the route reads, with their descriptions. ``account`` says
    whether the route reads the account a request is signed in to (the
    page's session cookie, or an account token): "optional" (a guest may
    call it too) or "required". ``errors`` are the service's own;
    :attr:`error_statuses` adds those the HTTP layer gives every route of its kind.
    """

    method: Literal["GET", "POST", "DELETE"]
    path: str
    summary: str
    request: type[msgspec.Struct] | type[bytes] | None
    answer: type[msgspec.Struct]
    status: int
    errors: tuple[int, ...]
    #: What the service answers: a model, or one already encoded as JSON (a
    #: cached replay's bytes, sent as they are), or a model with the session
    #: cookie to set or clear.
    handler: Callable[[Service, Call], msgspec.Struct | msgspec.Raw | WithCookie]
    bucket: Literal["creations", "actions", "reads"]
    token: bool = False
    cost: int = 1
    query: tuple[tuple[str, str], ...] = ()
    account: Literal["none", "optional", "required"] = "none"

    @property
    def error_statuses(self) -> tuple[int, ...]:
        """Every error status the route can answer, in order.

        Each route draws on a rate limit (429); a route with a body refuses a
        malformed one (400), one too large (413) or, for a JSON body, one not
        JSON (415: a file's bytes are told apart by their content, whatever
        the header says); a route with a token refuses a request without one (401).
        A route that reads the account refuses a session or an account token
        that has ended (401), and a request signed in by the session cookie
        without its CSRF token (403).
        """
        derived = {429}
        if self.request is bytes:
            derived |= {400, 413}
        elif self.request is not None:
            derived |= {400, 413, 415}
        if self.token:
            derived.add(401)
        if self.account != "none":
            derived |= {401, 403}
        return tuple(sorted(set(self.errors) | derived))

    @property
    def sends_file(self) -> bool:
        """Whether the answer is a file (an attachment), not JSON."""
        return self.answer is models.Download

    @property
    def described_path(self) -> str:
        """The path as OpenAPI writes it: ``{kind}``, without the converter."""
        return _PARAMETER.sub(r"{\1}", self.path)

    @property
    def parameters(self) -> tuple[str, ...]:
        """The names of the path's parameters, in order."""
        return tuple(_PARAMETER.findall(self.path))


#: Every route of the JSON API. (The page, its files and /openapi.json are
#: not part of the API: the app adds them, and the description leaves them out.)
ENDPOINTS: Final[tuple[Endpoint, ...]] = (
    Endpoint(
        "POST", "/api/games",
        "Create a game: the signed-in account's (only those rank), or a guest's",
        models.NewGame, models.GameState, 201, (409, 422),
        lambda service, call: service.create(call.body, call.credentials),
        "creations", account="optional",
    ),
    # Accounts. Each route that checks a password (argon2id: a fifth of a
    # second of a core) draws on the creations' bucket; signing in is limited
    # per name and per address besides (minesweep.web.accounts).
    Endpoint(
        "POST", "/api/accounts",
        "Register an account, signed in at once by the page's session cookie",
        models.Register, models.SignedIn, 201, (403, 409, 422, 503),
        lambda service, call: service.accounts.register(call.body, call.credentials),
        "creations", account="optional",
    ),
    Endpoint(
        "POST", "/api/session",
        "Sign in: the page's session cookie, and its CSRF token in the answer",
        models.SignIn, models.SignedIn, 200, (401, 403, 503),
        lambda service, call: service.accounts.sign_in(call.body, call.credentials),
        "creations", account="optional",
    ),
    Endpoint(
        "DELETE", "/api/session", "Sign out: the session (or the account token) ends",
        None, models.SignedOut, 200, (),
        lambda service, call: service.accounts.sign_out(call.credentials),
        "actions", account="required",
    ),
    Endpoint(
        "POST", "/api/tokens",
        "An account token for an API client (no cookie): 'Authorization: Bearer msa_...'",
        models.SignIn, models.AccountToken, 201, (401, 403, 503),
        lambda service, call: service.accounts.token(call.body, call.credentials),
        "creations", account="optional",
    ),
    Endpoint(
        "GET", "/api/account", "The signed-in account, and the session's CSRF token",
        None, models.SignedIn, 200, (),
        lambda service, call: service.accounts.whoami(call.credentials),
        "reads", account="required",
    ),
    Endpoint(
        "POST", "/api/account/password",
        "Change the password (give the current one): every other session ends",
        models.PasswordChange, models.SignedIn, 200, (422, 503),
        lambda service, call: service.accounts.change_password(call.body, call.credentials),
        "creations", account="required",
    ),
    Endpoint(
        "POST", "/api/account/name",
        "Rename the account: its games, ranks and win rates follow the new name",
        models.Rename, models.SignedIn, 200, (409, 422),
        lambda service, call: service.accounts.rename(call.body, call.credentials),
        "creations", account="required",
    ),
    Endpoint(
        "DELETE", "/api/account",
        "Delete the account (give its password): its sessions, name and unranked games go; "
        "its ranked games stay on the leaderboards, anonymous",
        models.AccountDeletion, models.SignedOut, 200, (503,),
        lambda service, call: service.accounts.delete(call.body, call.credentials),
        "creations", account="required",
    ),
    Endpoint(
        "GET", "/api/game", "Read the game the token names", None, models.GameState, 200,
        (404, 410),
        lambda service, call: service.state(call.token),
        "reads", token=True,
    ),
    Endpoint(
        "POST", "/api/game/actions",
        "Act on a square: name the action, or the mouse button ('click') and the server's rules "
        "say what it does there (right flags or unflags, middle chords, left chords on a number "
        "and reveals anything else)",
        models.Move, models.MoveAnswer, 200, (404, 409, 410, 422, 503),
        lambda service, call: service.act(call.token, call.body),
        "actions", token=True,
    ),
    Endpoint(
        "POST", "/api/game/undo", "Undo the last action (the game becomes assisted)",
        models.UndoRequest, models.GameState, 200, (404, 409, 410),
        lambda service, call: service.undo(call.token, call.body),
        "actions", token=True,
    ),
    Endpoint(
        "POST", "/api/game/hint",
        "A hint and every square's mine probability (the game becomes assisted); before the "
        "first reveal, only the first-click rule's promise, no probabilities, and the game "
        "stays unassisted",
        models.HintRequest, models.HintAnswer, 200, (404, 409, 410, 503),
        lambda service, call: service.hint(call.token, call.body),
        "actions", token=True,
    ),
    # The page's record of a finished game: a person's win ranks only with one
    # that matches its actions (minesweep.web.trace). Reading it runs the
    # replay's click machine over up to 120,000 events: priced as ten reads.
    Endpoint(
        "POST", "/api/game/trace",
        "Send the page's record of the game once it is over: its mouse events over the board "
        "as JSON ({\"cell_px\": 16, \"events\": [[ms, \"mv\"|\"lc\"|\"lr\"|\"rc\"|"
        "\"rr\"|\"mc\"|\"mr\", x, y], ...]}, pixels from the board's top-left corner) or "
        "an EVF file; a person's win ranks only if it matches the actions and is a hand's",
        bytes, models.GameState, 200, (404, 409, 410, 422),
        lambda service, call: service.trace(call.token, call.body),
        "actions", token=True, cost=10,
    ),
    Endpoint(
        "GET", "/api/leaderboards/{kind:path}",
        "The best ranked wins of a kind of game, fastest first or by 3BV/s, each with its "
        "board's 3BV and its name's win rate",
        None, models.Leaderboard, 200, (404, 422),
        lambda service, call: service.leaderboard(call.params["kind"], call.query.get("by")),
        "reads",
        query=(("by", "The order: 'time' (the default: fastest first) or 'bbbv_per_second' "
                      "(highest 3BV/s first)"),),
    ),
    Endpoint(
        "GET", "/api/bots/{kind:path}",
        "Declared bots by win rate (the low end of its 95% interval)",
        None, models.BotLeaderboard, 200, (404,),
        lambda service, call: service.bots(call.params["kind"]),
        "reads",
    ),
    Endpoint(
        "GET", "/api/game.evf",
        "The game the token names as an EVF replay file (Metasweeper's), once it is over: "
        "the file holds the mines",
        None, models.Download, 200, (404, 409, 410),
        lambda service, call: service.game_evf(call.token),
        "reads", token=True,
    ),
    # Before the JSON replay's route: that one's {public_id} would match "ID.evf" too.
    Endpoint(
        "GET", "/api/replays/{public_id}.evf", "A ranked game as an EVF replay file",
        None, models.Download, 200, (404, 409),
        lambda service, call: service.replay_evf(call.params["public_id"]),
        "reads",
    ),
    Endpoint(
        "GET", "/api/replays/{public_id}", "A ranked game, with every view it showed",
        None, models.Replay, 200, (404,),
        # Made once and sent from the cache: a ranked game never changes.
        lambda service, call: service.replay_json(call.params["public_id"]),
        "reads",
    ),
    # Review (minesweep.web.review): the wins held before they rank, and the
    # operators' decisions. Every route needs an account; the writes its CSRF token.
    Endpoint(
        "GET", "/api/reviews", "The records waiting for review, oldest first (operators only)",
        None, models.ReviewList, 200, (),
        lambda service, call: service.reviews.pending(call.credentials),
        "reads", account="required",
    ),
    Endpoint(
        "GET", "/api/account/reviews",
        "The signed-in account's records held for review: pending, confirmed, or voided "
        "with the operator's reason",
        None, models.ReviewList, 200, (),
        lambda service, call: service.reviews.mine(call.credentials),
        "reads", account="required",
    ),
    # The solver judges every click, as for an uploaded file: priced as one.
    Endpoint(
        "GET", "/api/reviews/{public_id}",
        "A record held for review, for its player or an operator: its replay (the page's "
        "record of the mouse) with the exact solver's verdict on every click",
        None, models.ReplayFile, 200, (404, 409, 422),
        lambda service, call: service.review_replay(call.params["public_id"], call.credentials),
        "reads", cost=120, account="required",
    ),
    Endpoint(
        "POST", "/api/reviews/{public_id}",
        "Confirm a pending record (it ranks) or void it with a reason its player reads "
        "(operators only)",
        models.ReviewDecision, models.ReviewEntry, 200, (404, 409, 422),
        lambda service, call: service.reviews.decide(
            call.params["public_id"], call.body, call.credentials
        ),
        "actions", account="required",
    ),
    # The exact solver judges every click: a file costs a hundred and twenty
    # reads, one a second at the default rates.
    Endpoint(
        "POST", "/api/replay-files",
        "Read a replay file (AVF, RMV, EVF, MVF or RawVF, sent as its raw bytes): its "
        "statistics, every board it went through, and every click with the exact solver's "
        "verdict",
        bytes, models.ReplayFile, 200, (422,),
        lambda service, call: service.replay_file(call.body, call.query.get("name")),
        "reads", cost=120,
        query=(("name", "The file's name: its extension picks the reader when the bytes do "
                        "not tell the format, and messages name it"),),
    ),
)  # fmt: skip
