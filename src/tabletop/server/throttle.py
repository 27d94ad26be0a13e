"""Password guessing, slowed per account without locking its owner out.

Each sign-in try (and each check of a signed-in player's current password) is
*reserved* in the database before its password is hashed: the try counts as a
failure from the start, so a burst of parallel guesses is refused before any of
them is hashed, and several processes on one PostgreSQL database share the
count. A right password gives the try back (the count starts over).

The first ``free - 1`` failures in a row cost nothing; then each one doubles
the wait before the next try (1 s, 2 s, 4 s, ...), up to ``cap`` (an hour over
``--rate-login-failures``). A day without a try forgets them. So a guesser gets
about as many tries an hour as ``--rate-login-failures`` says, and a mistyping
owner waits seconds, never hours.

A stranger's guesses must not make the owner wait either: a browser that has
signed in to the account before carries a *device cookie* (signed with the
server's secret, naming the account), and its tries are counted on their own,
per account and device. A guesser has no such cookie for the account, so however
slowly or fast he guesses, the owner's own browsers sign in at once (the
"device cookies" defence OWASP describes for this attack).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ..i18n import N_
from .errors import ApiError
from .writes import (
    GiveBackLoginTry,
    PruneLoginTries,
    RefundLoginTry,
    ReserveLoginTry,
    ServerSecret,
    Write,
)

DEVICE_COOKIE = "device"
DEVICE_DAYS = 365
TOO_MANY = N_("too many failed sign-ins for this account; wait {seconds} s and try again")
FORGET = 24 * 3600.0  # a day without a try: past failures no longer count
PRUNE_EVERY = 1000  # reservations between two passes forgetting stale counts

Writer = Callable[[Write[Any]], Awaitable[Any]]


@dataclass(frozen=True)
class TryLimits:
    """How fast one account's password may be guessed (see the module's text)."""

    per_hour: float = 10  # in the long run, when every try fails
    free: int = 5  # failures in a row that cost no wait

    @property
    def cap(self) -> float:
        return 3600.0 / self.per_hour


class LoginThrottle:
    """Reserve a try before hashing (``reserve``), give it back when it was right."""

    def __init__(
        self,
        write: Writer,
        limits: TryLimits = TryLimits(),  # noqa: B008 - frozen settings
        clock: Callable[[], float] = time.time,  # wall time: shared by processes
    ) -> None:
        self._write = write
        self.limits = limits
        self.clock = clock
        self._reserved = 0

    async def reserve(self, key: str) -> None:
        """Take one try for ``key`` or refuse with 429 saying how long to wait."""
        now = self.clock()
        limits = self.limits
        wait = await self._write(ReserveLoginTry(key, now, limits.free, limits.cap, FORGET))
        self._reserved += 1
        if self._reserved % PRUNE_EVERY == 0:
            await self._write(PruneLoginTries(now - FORGET))
        if wait:
            raise ApiError.wait(429, TOO_MANY, wait)

    async def give_back(self, key: str) -> None:
        """The password was right: the failures start over."""
        await self._write(GiveBackLoginTry(key))

    async def refund(self, key: str) -> None:
        """The try was never hashed: it does not count (the wait it set stands)."""
        await self._write(RefundLoginTry(key))


def account_key(name_key: str) -> str:
    """The count of tries from anywhere for the account named ``name_key``."""
    return f"name:{name_key}"


def device_key(account_id: int, device: str) -> str:
    """The count of tries from one known device of an account."""
    return f"device:{account_id}:{device}"


class DeviceCookies:
    """Signed device cookies, ``<account>.<device>.<mac>``, with the server's secret
    ``device-cookies`` (made once, shared by every process through the database)."""

    def __init__(self, write: Writer) -> None:
        self._write = write
        self._key: bytes | None = None
        self._lock = asyncio.Lock()

    async def _secret(self) -> bytes:
        async with self._lock:
            if self._key is None:
                fresh = secrets.token_urlsafe(32)
                self._key = str(await self._write(ServerSecret("device-cookies", fresh))).encode()
            return self._key

    def _mac(self, key: bytes, account_id: int, device: str) -> str:
        digest = hmac.new(key, f"{account_id}|{device}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()

    async def new(self, account_id: int) -> str:
        """A cookie value for this browser and account."""
        device = secrets.token_urlsafe(12)
        return f"{account_id}.{device}.{self._mac(await self._secret(), account_id, device)}"

    async def device_of(self, cookie: str | None, account_id: int) -> str | None:
        """The device ``cookie`` names if it is genuine and ``account_id``'s, else None."""
        if not cookie or len(cookie) > 100:
            return None
        parts = cookie.split(".")
        if len(parts) != 3 or parts[0] != str(account_id):
            return None
        expected = self._mac(await self._secret(), account_id, parts[1])
        return parts[1] if hmac.compare_digest(expected, parts[2]) else None
