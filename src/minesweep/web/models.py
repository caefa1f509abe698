"""The web API's bodies, declared once as msgspec structs.

Requests are decoded and type-checked by msgspec straight from the bytes
(an unknown field, a wrong type or an out-of-range number is refused with
the field's JSON path in the message); responses are encoded from the same
kind of declarations; and ``/openapi.json`` is generated from them
(:mod:`minesweep.web.openapi`), so the description cannot drift from the
code. What a declaration cannot say (a preset *or* a size, the server's
limits, what a name may contain) is checked by the service, after decoding.

msgspec rather than pydantic: one small compiled package with no
dependencies of its own, decoding and validation in one pass from bytes,
and JSON Schema output; the web game needs nothing more.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct

__all__ = [
    "Account",
    "AccountDeletion",
    "AccountToken",
    "BotEntry",
    "BotLeaderboard",
    "ClickNote",
    "Download",
    "Error",
    "GameState",
    "HintAnswer",
    "HintRequest",
    "HintSquare",
    "Leaderboard",
    "LeaderboardEntry",
    "Move",
    "MoveAnswer",
    "NewGame",
    "PasswordChange",
    "Register",
    "Rename",
    "Replay",
    "ReplayFile",
    "SignIn",
    "SignedIn",
    "SignedOut",
    "Stats",
    "UndoRequest",
    "from_record",
]

# The engine's enums, as the literal values JSON carries (tests/web/test_models.py
# checks that they are the engine's values, so the two cannot drift apart).
Rule = Literal["opening", "safe", "none"]
Status = Literal["ready", "playing", "won", "lost"]
ActionName = Literal["reveal", "flag", "unflag", "chord", "question"]
ButtonName = Literal["left", "middle", "right"]
# The replays' names (tests/web/test_models.py checks them against minesweep.replays).
ReplayFormat = Literal["avf", "rmv", "evf", "mvf", "rawvf"]
ClickKindName = Literal["left", "right", "double"]
GuessGrade = Literal["", "best", "avoidable", "forced", "worse"]
ClickEffectName = Literal["nothing", "flag", "unflag", "open", "chord", "mine"]
Version = Annotated[
    int,
    Meta(
        ge=0,
        description=(
            "The game's version the request was made against (the state's `version`): "
            "a request made against an older version is refused with 409, so a retried "
            "or duplicated request is never applied twice"
        ),
    ),
]
#: A state's own version, as opposed to the one a request names (:data:`Version`).
StateVersion = Annotated[
    int,
    Meta(
        ge=0,
        description=(
            "The game's version: 0 when it is created, one more after every action, undo "
            "or hint; the next request names it as its `version`"
        ),
    ),
]
Square = Annotated[int, Meta(ge=0, description="Counted from 0")]


class NewGame(Struct, forbid_unknown_fields=True, kw_only=True):
    """A request for a new game: a preset, or rows, cols and mines."""

    preset: str | None = None
    rows: Annotated[int, Meta(ge=1)] | None = None
    cols: Annotated[int, Meta(ge=1)] | None = None
    mines: Annotated[int, Meta(ge=0)] | None = None
    rule: Rule = "opening"
    no_guess: bool = False
    seed: Annotated[int, Meta(ge=0)] | None = None
    name: Annotated[
        str | None,
        Meta(
            description=(
                "A guest's name, written only in the game's own replay file (a guest's game "
                "never ranks); refused when it is an account's name or looks like one. Signed "
                "in, leave it out: the game is the account's"
            )
        ),
    ] = None
    bot: Annotated[
        bool,
        Meta(
            description=(
                "A program plays this game: it is ranked on the bot leaderboard "
                "(win rate), never among people"
            )
        ),
    ] = False


# --- accounts -----------------------------------------------------------------------------

Password = Annotated[
    str, Meta(description="Any text of 8 to 1024 characters (NFC); never stored, only its hash")
]


class Register(Struct, forbid_unknown_fields=True, kw_only=True):
    """A new account, signed in at once (the page's session cookie)."""

    name: Annotated[
        str,
        Meta(
            description=(
                "Shown on the leaderboards; refused if it holds an invisible or blank-looking "
                "character, or looks like another account's name"
            )
        ),
    ]
    password: Password
    bot: Annotated[
        bool,
        Meta(
            description=(
                "A program's account: its games rank on the bot leaderboard, never among people"
            )
        ),
    ] = False


class SignIn(Struct, forbid_unknown_fields=True, kw_only=True):
    name: str
    password: str


class PasswordChange(Struct, forbid_unknown_fields=True, kw_only=True):
    password: Annotated[str, Meta(description="The current password")]
    new_password: Password


class Rename(Struct, forbid_unknown_fields=True, kw_only=True):
    name: Annotated[str, Meta(description="Checked as at registration")]


class AccountDeletion(Struct, forbid_unknown_fields=True, kw_only=True):
    password: Annotated[str, Meta(description="The current password, to confirm")]


class Account(Struct, kw_only=True):
    name: str
    bot: bool
    created_at: Annotated[float, Meta(description="Seconds since 1970, on the server's clock")]
    operator: Annotated[
        bool,
        Meta(
            description=(
                "Whether the account reviews held records (named by `minesweep serve "
                "--operator NAME`): GET /api/reviews, POST /api/reviews/{public_id}"
            )
        ),
    ] = False


class SignedIn(Struct, kw_only=True):
    account: Account
    csrf_token: Annotated[
        str | None,
        Meta(
            description=(
                "Send it as the header `X-CSRF-Token` with every state-changing request signed "
                "in by the session cookie; null when signed in by an account token"
            )
        ),
    ]


class AccountToken(Struct, kw_only=True):
    account: Account
    token: Annotated[
        str,
        Meta(
            description=(
                "An API client's credential: send it as `Authorization: Bearer msa_...` to the "
                "account's routes and to POST /api/games (a game's own routes take the game's "
                "token)"
            )
        ),
    ]
    expires_at: Annotated[float, Meta(description="Seconds since 1970, on the server's clock")]


class SignedOut(Struct, kw_only=True):
    message: str


class Move(Struct, forbid_unknown_fields=True, kw_only=True):
    """An action on a square, or a mouse button on it (the rules say what it does there)."""

    row: Square
    col: Square
    version: Version
    action: ActionName | None = None
    click: ButtonName | None = None


class UndoRequest(Struct, forbid_unknown_fields=True, kw_only=True):
    version: Version


class HintRequest(Struct, forbid_unknown_fields=True, kw_only=True):
    # Required, as every write's is: a hint marks the game assisted and bumps
    # its version, and runs the solver, so a repeated one is refused (409)
    # rather than applied, and paid for, again.
    version: Version


class Stats(Struct, kw_only=True):
    bbbv: int
    solved_bbbv: int
    bbbv_per_second: float
    efficiency: float
    clicks: int


class GameState(Struct, kw_only=True, omit_defaults=True):
    """What the player may see. Until the game ends: no mine, no seed, no unopened number."""

    id: Annotated[
        str, Meta(description="The game's secret token: send it as `Authorization: Bearer`")
    ]
    version: StateVersion
    kind: str
    rows: int
    cols: int
    mines: int
    rule: Rule
    no_guess: bool
    bot: bool
    status: Status
    mines_left: int
    elapsed: Annotated[
        float, Meta(description="Seconds charged to the player, by the server's monotonic clock")
    ]
    assisted: bool
    seeded: bool
    actions: Annotated[int, Meta(description="Actions recorded so far (capped per game)")]
    view: Annotated[
        list[str],
        Meta(
            description=(
                "One string a row: '#' hidden, 'F' flag, '?' question mark, '.' blank, "
                "'1'-'8'; after a loss '*' mine, 'X' the exploded one, '!' a wrong flag"
            )
        ),
    ]
    stats: Stats | None = None
    ranked: bool | None = None
    unranked_because: str | None = None
    public_id: str | None = None


class MoveAnswer(Struct, kw_only=True):
    state: GameState
    effective: bool
    opened: int
    changed: Annotated[
        list[tuple[int, int]], Meta(description="The squares that changed, [row, col]")
    ]


class HintSquare(Struct, kw_only=True):
    row: Square
    col: Square
    safe: bool
    probability: float
    reason: Annotated[
        str,
        Meta(
            description=(
                'The hint in a sentence for a person, naming squares from 1 ("row 1, column 4"), '
                "as the page does"
            )
        ),
    ]


class HintAnswer(Struct, kw_only=True):
    state: GameState
    hint: HintSquare
    probabilities: Annotated[
        list[list[float | None]] | None,
        Meta(
            description=(
                "Each square's mine probability (null where it is open); "
                "null before the first reveal"
            )
        ),
    ]


class LeaderboardEntry(Struct, kw_only=True):
    rank: int
    name: str
    seconds: float
    bbbv: int
    bbbv_per_second: float
    replay: str
    finished_at: float
    games: Annotated[
        int, Meta(description="This name's unseeded games of this kind, finished or not")
    ]
    win_rate: Annotated[
        float, Meta(description="Wins over those games: an abandoned game counts as a loss")
    ]


#: The orders a leaderboard lists its wins in: fastest first, or highest 3BV/s first.
LeaderboardOrder = Literal["time", "bbbv_per_second"]


class Leaderboard(Struct, kw_only=True):
    kind: str
    human_limit: Annotated[
        float | None,
        Meta(description="3BV/s above which a win is not ranked among people (null: no limit)"),
    ]
    by: Annotated[
        LeaderboardOrder,
        Meta(
            description="The order: 'time' (fastest first, as competitive sites rank) or "
            "'bbbv_per_second' (highest 3BV/s first); each entry has its board's 3BV"
        ),
    ] = "time"
    scores: list[LeaderboardEntry]


class BotEntry(Struct, kw_only=True):
    rank: int
    name: str
    games: int
    wins: int
    win_rate: float
    low: Annotated[float, Meta(description="Lower end of the 95% Wilson interval of the win rate")]
    high: Annotated[float, Meta(description="Upper end of the 95% Wilson interval")]


class BotLeaderboard(Struct, kw_only=True):
    kind: str
    min_games: int
    bots: list[BotEntry]


class Replay(Struct, kw_only=True):
    public_id: str
    kind: str
    name: str
    rows: int
    cols: int
    mines: int
    field: list[str]
    history: list[dict[str, str | float]]
    views: Annotated[
        list[list[str]],
        Meta(
            description=(
                "The view before the first action, then after each, as the server computed them"
            )
        ),
    ]
    seconds: float | None
    bbbv: int | None


class Download(Struct, kw_only=True):
    """A file the server answers as an attachment, not as JSON: its name and its bytes."""

    filename: str
    data: bytes


#: A chance, or null where the solver gave none (JSON has no NaN or infinity).
Chance = Annotated[float | None, Meta(description="null where the click was not judged")]


class ClickNote(Struct, kw_only=True):
    """One click of an uploaded replay, with the exact solver's verdict where it opened squares.

    The fields are :class:`minesweep.replays.verdict.JudgedClick`'s, with
    null for its NaN and infinity (and for ``safe_squares``' -1).
    """

    index: int
    time: Annotated[
        float, Meta(description="Seconds from the game's start (the first opening click)")
    ]
    kind: ClickKindName
    row: Annotated[int, Meta(description="Counted from 0; -1 off the board")]
    col: Annotated[int, Meta(description="Counted from 0; -1 off the board")]
    effect: ClickEffectName
    effective: bool
    solved: Annotated[int, Meta(description="The 3BV the click solved")]
    view: Annotated[int, Meta(description="Index in `views` of the board just before the click")]
    squares: Annotated[int, Meta(description="The squares it opened (or a chord would have)")]
    judged: Annotated[
        bool, Meta(description="The solver judged it: it opened squares or hit a mine")
    ]
    first: Annotated[bool, Meta(description="The game's first opening click, safe by the rule")]
    mine_chance: Chance
    certain: bool
    by_counting: Annotated[
        bool, Meta(description="Certain, but only by counting layouts, not single numbers")
    ]
    guess: bool
    avoidable: Annotated[bool, Meta(description="A guess while a certainly safe square existed")]
    forced: Annotated[bool, Meta(description="A guess with no certainly safe square anywhere")]
    fifty_fifty: bool
    lowest_chance: Chance
    safe_squares: Annotated[
        int | None, Meta(description="Certainly safe squares on the board; null when not judged")
    ]
    luck: Annotated[
        float | None,
        Meta(
            description=(
                "-log10 of the chance of surviving the click; null for a mine hit (infinite) "
                "or an uncounted chance"
            )
        ),
    ]
    pluck: Annotated[
        float | None,
        Meta(description="The luck of the game so far, this click included; null once infinite"),
    ]
    grade: Annotated[
        GuessGrade,
        Meta(
            description=(
                "A guess's grade: avoidable (a safe square existed), forced (every square as "
                "risky), best (none less risky), worse; empty when not a guess"
            )
        ),
    ]
    over_best: Annotated[
        float | None,
        Meta(description="A guess's mine chance minus the board's lowest; null when uncounted"),
    ]


#: A value of a replay's summary: the statistics are numbers, flags or text.
SummaryValue = str | int | float | bool | list[str] | None


class ReplayFile(Struct, kw_only=True):
    """An uploaded replay file, read and analysed: its board, statistics and every click."""

    format: ReplayFormat
    player: str
    rows: int
    cols: int
    mines: int
    summary: Annotated[
        dict[str, SummaryValue],
        Meta(
            description=(
                "minesweep.replays.summary: what the file says, every statistic under "
                "ms-toollib's names, and `checks`, the header's claims the board contradicts; "
                "null for a value that is not a finite number"
            )
        ),
    ]
    views: Annotated[
        list[list[str]],
        Meta(
            description=(
                "Every board the game went through, the first all hidden: one string a row, "
                "'#' hidden, 'F' flag, '.' blank, '1'-'8', 'X' the exploded mine, '!' a wrong "
                "flag"
            )
        ),
    ]
    clicks: Annotated[
        list[ClickNote],
        Meta(description="Every click, in order; the board before each is `views[click.view]`"),
    ]


class Error(Struct, kw_only=True):
    error: str


T = TypeVar("T")


def decode(raw: bytes, kind: type[T]) -> T:
    """``raw`` as a ``kind``; raises msgspec.ValidationError or DecodeError."""
    return msgspec.json.decode(raw or b"{}", type=kind)


S = TypeVar("S", bound=Struct)


def from_record(kind: type[S], record: Mapping[str, Any] | object, /, **given: Any) -> S:
    """The body ``kind`` built from a core record: each field read by its name, but those ``given``.

    ``record`` is a mapping (read by key) or an object (read by attribute:
    a dataclass's fields and properties alike). A float JSON cannot hold
    (NaN, infinity) becomes null, as every body here declares it. So a
    record reaches the API by one call, and a field added to both sides
    travels without another line.
    """
    read = record.__getitem__ if isinstance(record, Mapping) else record.__getattribute__
    values = {}
    for name in kind.__struct_fields__:
        value = given[name] if name in given else read(name)
        values[name] = None if isinstance(value, float) and not math.isfinite(value) else value
    return kind(**values)


# --- review: the records an operator checks before they rank (minesweep.web.review) ----------

#: Where a reviewed record stands: waiting for an operator, confirmed (ranked), or voided.
ReviewState = Literal["pending", "confirmed", "voided"]


class ReviewEntry(Struct, kw_only=True):
    public_id: Annotated[
        str, Meta(description="The record's id: GET /api/reviews/{public_id} for its replay")
    ]
    kind: str
    name: Annotated[str, Meta(description="The player's current name ('anonymous': deleted)")]
    seconds: float
    bbbv: int
    bbbv_per_second: float
    finished_at: float
    state: ReviewState
    why: Annotated[
        str,
        Meta(
            description="Why it is reviewed: a place in the top 10, or a speed past the "
            "board's review threshold"
        ),
    ]
    reason: Annotated[
        str | None, Meta(description="A voided record's reason, as the operator gave it")
    ] = None
    decided_at: float | None = None
    flag: Annotated[
        str | None,
        Meta(
            description="For operators: why the player's wins look like a program's play "
            "(every guess the solver's best, no wasted click or misflag, a steady 3BV/s); "
            "a reason to look closer, not a verdict. Null when they do not"
        ),
    ] = None


class ReviewList(Struct, kw_only=True):
    records: list[ReviewEntry]


class ReviewDecision(Struct, forbid_unknown_fields=True, kw_only=True):
    verdict: Annotated[
        Literal["confirm", "void"],
        Meta(description="'confirm' ranks the record; 'void' keeps it off the leaderboards"),
    ]
    reason: Annotated[
        str,
        Meta(
            max_length=200,
            description="Why a record is voided (its owner reads it); required to void",
        ),
    ] = ""
