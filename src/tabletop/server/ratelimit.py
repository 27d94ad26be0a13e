"""Rate limits: one client's flood is refused at once instead of slowing everyone.

Token buckets: each key (an address, a seat, a connection) may spend ``burst``
at once and earns ``per_minute`` back over a minute. A refused request costs
nothing but the check, and is answered 429 (HTTP) or with an error message
(WebSocket) that says how long to wait.

>>> clock = iter([0.0, 0.0, 0.0, 30.0]).__next__
>>> limit = RateLimit("hints", per_minute=2, burst=2, clock=clock)
>>> limit.wait("ann"), limit.wait("ann"), round(limit.wait("ann"))
(0.0, 0.0, 30)
>>> limit.wait("ann")  # half a minute later: one more
0.0
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..i18n import N_
from .errors import ApiError


@dataclass(frozen=True)
class RateLimits:
    """The server's settings; the load test raises them for itself."""

    creates_per_minute: float = 30  # per address
    actions_per_minute: float = 240  # moves and undos, per seat
    hints_per_minute: float = 20  # per seat
    messages_per_minute: float = 600  # WebSocket messages, per connection
    logins_per_minute: float = 10  # registrations and logins, per address
    login_failures_per_hour: float = 10  # failed sign-ins per account in the long run (throttle)
    replays_per_minute: float = 30  # replays worked out (not cached), per address
    chats_per_minute: float = 10  # chat messages, per account (chat.py)
    chat_addresses_per_minute: float = 30  # chat messages, per address

    def limiters(self) -> dict[str, RateLimit]:
        def limit(what: str, per_minute: float, least: float, share: float) -> RateLimit:
            return RateLimit(what, per_minute, burst=max(least, per_minute * share))

        return {
            "create": limit(
                N_("too many new games at once; wait {seconds} s and try again"),
                self.creates_per_minute,
                5,
                1 / 3,
            ),
            "action": limit(
                N_("too many moves at once; wait {seconds} s and try again"),
                self.actions_per_minute,
                10,
                1 / 4,
            ),
            "hint": limit(
                N_("too many hints at once; wait {seconds} s and try again"),
                self.hints_per_minute,
                3,
                1 / 4,
            ),
            "message": limit(
                N_("too many messages at once; wait {seconds} s and try again"),
                self.messages_per_minute,
                20,
                1 / 10,
            ),
            "login": limit(
                N_("too many sign-in attempts at once; wait {seconds} s and try again"),
                self.logins_per_minute,
                5,
                1 / 2,
            ),
            "replay": limit(
                N_("too many replays at once; wait {seconds} s and try again"),
                self.replays_per_minute,
                5,
                1 / 3,
            ),
            "chat": limit(
                N_("too many chat messages at once; wait {seconds} s and try again"),
                self.chats_per_minute,
                3,
                1 / 2,
            ),
            "chat_address": limit(
                N_("too many chat messages from your address; wait {seconds} s and try again"),
                self.chat_addresses_per_minute,
                5,
                1 / 2,
            ),
        }


class RateLimit:
    """A token bucket per key; ``what`` is the msgid of the refusal (``{seconds}``: the wait)."""

    MAX_KEYS = 100_000  # beyond this, full buckets are forgotten (they cost nothing)

    def __init__(
        self,
        what: str,
        per_minute: float,
        burst: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self._prune_at = self.MAX_KEYS
        self.rate = per_minute / 60.0
        self.burst = burst
        self.clock = clock
        self._buckets: dict[object, tuple[float, float]] = {}  # key: (tokens, when)

    def wait(self, key: object) -> float:
        """Spend one token for ``key`` and return 0.0, or return the seconds until
        one is earned (spending nothing)."""
        now = self.clock()
        tokens, when = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > self._prune_at:
            self._forget_full(now)
        return 0.0

    def peek(self, key: object) -> float:
        """The seconds until ``key`` may spend a token (0.0: now), spending nothing."""
        tokens, when = self._buckets.get(key, (self.burst, self.clock()))
        tokens = min(self.burst, tokens + (self.clock() - when) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def forget(self, key: object) -> None:
        """Drop ``key``'s bucket (a connection that closed)."""
        self._buckets.pop(key, None)

    def _forget_full(self, now: float) -> None:
        self._buckets = {
            k: (t, w)
            for k, (t, w) in self._buckets.items()
            if t + (now - w) * self.rate < self.burst
        }
        # if most keys are busy, prune again only after the map has doubled: never a
        # full pass on every request
        self._prune_at = max(self.MAX_KEYS, 2 * len(self._buckets))


def check_rate(
    limiters: Mapping[str, RateLimit], kind: str, key: object, spend: bool = True
) -> None:
    """429 when ``key`` has used up its ``kind`` (create, action, hint, message); with
    ``spend=False`` only check (a failed sign-in spends afterwards)."""
    limit = limiters[kind]
    wait = limit.wait(key) if spend else limit.peek(key)
    if wait:
        raise ApiError.wait(429, limit.what, wait)
