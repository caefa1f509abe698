"""What a web game's request may ask for, and the error a request is refused with.

No HTTP here: the game service raises :class:`ApiError`, and the HTTP layer
(:mod:`minesweep.web.app`) turns it into a JSON answer.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from minesweep.records import HUMAN_LIMITS

from . import models

__all__ = ["REVIEW_SPEEDS", "ApiError", "Limits", "network"]

#: The 3BV/s past which any person's win of a board is held for an operator's
#: review wherever it would place (minesweep.web.review): each board's review
#: threshold. Chosen, not measured: well under the hard limits past which a
#: win is no person's (minesweep.records.HUMAN_LIMITS: 20, 12 and 10), a pace
#: that only strong players reach. A bot paced under it (issue 53's took
#: beginner's places 1 to 5 at 14 3BV/s) is caught by the top 10 instead.
REVIEW_SPEEDS: Final[Mapping[str, float]] = {
    "beginner": 8.0,
    "intermediate": 5.0,
    "expert": 4.0,
}


@dataclass(frozen=True)
class Limits:
    """What a request may ask for, and what the server spends on it.

    Rates are tokens a second per client address, after a burst (a token is
    a request, or a millisecond of CPU for ``cpu_rate``); None turns a limit
    off. Behind a proxy, serve with ``minesweep serve --trust-proxy ADDR`` so
    the client's address is the player's, not the proxy's.

    A client, to every limit (the routes' buckets, the CPU's, requests in
    flight, sign-in attempts), is its network (:func:`network`): an IPv4
    address (``ipv4_prefix`` bits of it), or the IPv6 network of its first
    ``ipv6_prefix`` bits, a /64 by default, which is what one subscriber is
    given; an IPv4-mapped IPv6 address is its IPv4 one. So the holder of a
    /64 gets one share, not one for each of its 2**64 addresses.
    """

    max_rows: int = 64
    max_cols: int = 128
    max_body: int = 4096
    max_name: int = 40
    max_no_guess_squares: int = 1024
    no_guess_seconds: float = 3.0
    #: Worker processes that lay no-guess fields (0: in the request's thread),
    #: and how many more requests may wait for one before 503.
    no_guess_workers: int = 0
    no_guess_queue: int = 4
    retries: int = 50
    #: Actions a game may hold (undos count): a game's replay stays cheap.
    max_actions: int = 3000
    #: Seconds an unfinished game lives after its last action.
    expire_after: float = 24 * 3600.0
    create_rate: float | None = 1.0
    create_burst: int = 30
    action_rate: float | None = 30.0
    action_burst: int = 120
    #: What a request's work costs, charged once it has run (a bucket may go
    #: into debt; the address's next requests then wait). CPU: milliseconds of
    #: the server's CPU a second per address, after a burst, measured on every
    #: request (the solver's, a replay's, a big board's, a no-guess field's in
    #: its worker): a request is refused while its address is in debt. Like
    #: the reads' bucket, on only while actions are limited.
    cpu_rate: float | None = 100.0
    cpu_burst: int = 3000
    #: An answer takes one more token of its route's bucket for each of these
    #: many bytes past the first (a long game's replay: about a hundred reads).
    answer_bytes_per_token: int = 16384
    #: Requests one address may have in flight at once (None: no cap).
    max_in_flight: int | None = 4
    #: The bits of a client's address that name it to the limits (see above).
    ipv4_prefix: int = 32
    ipv6_prefix: int = 64
    #: Bytes of ranked games' encoded replays (JSON and EVF) kept in memory.
    replay_cache_bytes: int = 64 * 1024 * 1024
    #: The 3BV/s above which a win of each preset is not ranked among people
    #: (None: no limit); by default the engine's, which say where they come from.
    human_limits: Mapping[str, float] | None = field(
        default_factory=lambda: {
            name: limit.bbbv_per_second for name, limit in HUMAN_LIMITS.items()
        }
    )
    #: Whether a person's win that would enter the top ``review_top`` of its
    #: board (0: none), or is faster than its board's ``review_speeds`` (3BV/s;
    #: None: no threshold), is held for an operator's review before it ranks
    #: (minesweep.web.review). Off only for tests of other things.
    require_review: bool = True
    review_top: int = 10
    review_speeds: Mapping[str, float] | None = field(default_factory=lambda: dict(REVIEW_SPEEDS))
    #: Games a bot must have played to appear on the bot leaderboard.
    bot_min_games: int = 20
    #: Whether a person's win needs the page's record of the game (its mouse
    #: trace, POST /api/game/trace: minesweep.web.trace) to rank. Off only for
    #: tests of other things, which play through the API with no mouse.
    require_trace: bool = True
    #: Bytes of an uploaded replay file: an expert game's AVF or EVF is tens of
    #: kilobytes, and the largest RawVF text of a long game a few hundred.
    max_upload: int = 2 * 1024 * 1024
    #: The largest board the replay viewer analyses (the exact solver runs on
    #: every click: about a second for a game of 50x50) and sends back.
    max_replay_squares: int = 2500
    #: Clicks of an uploaded replay: the answer holds a board for each.
    max_replay_clicks: int = 3000

    def __post_init__(self) -> None:
        if not 0 <= self.ipv4_prefix <= 32 or not 0 <= self.ipv6_prefix <= 128:
            raise ValueError(
                "the limits' prefix lengths are 0 to 32 bits for IPv4 and 0 to 128 for IPv6, "
                f"got {self.ipv4_prefix!r} and {self.ipv6_prefix!r}"
            )

    def client(self, address: str) -> str:
        """The key the limits count ``address`` by: :func:`network` with these prefixes."""
        return network(address, ipv4_prefix=self.ipv4_prefix, ipv6_prefix=self.ipv6_prefix)


def network(address: str, *, ipv4_prefix: int = 32, ipv6_prefix: int = 64) -> str:
    """The client that ``address`` is to the rate limits, as text.

    An IPv4 address is itself (``"203.0.113.5"``), or its network past a
    prefix shorter than 32 bits (``"203.0.113.0/24"``); an IPv6 address is the
    network of its first ``ipv6_prefix`` bits (``"2001:db8:1:2::/64"``), and
    itself at 128; an IPv4-mapped one (``::ffff:203.0.113.5``) is the IPv4
    address it maps. A zone (``fe80::1%eth0``) is dropped. What is no address
    (a test client's ``"testclient"``, a Unix socket's path) is itself.
    """
    text = address.partition("%")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        if ipv4_prefix == 32:
            return str(ip)
        return str(ipaddress.IPv4Network((ip, ipv4_prefix), strict=False))
    if ipv6_prefix == 128:
        return str(ip)
    return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))


class ApiError(Exception):
    """A client error: status code, a message for the JSON body, and optional extras.

    Not one of the engine's errors on purpose: the service raises it inside
    blocks that turn the engine's errors into a 422 or a 409, and it must pass
    through them unchanged.
    """

    def __init__(
        self,
        status: int,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        state: models.GameState | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        self.state = state
