"""Sessions that end: each has an idle limit (refreshed whenever it is used) and an
absolute one (counted from sign-in, used or not); and the game sockets each session
opened, closed the moment the session ends (log out, log out everywhere, a new
password, a deleted account), so that an old cookie plays no further move.

Another process on the same PostgreSQL database cannot reach this process's
sockets: every message that would act checks its session again
(``socket_api._handle``), so a socket whose session ended elsewhere is refused and
closed at its next move.

>>> sessions = Sessions(SessionLimits(idle=60.0), write=None)
>>> row = SessionRow(Account(1, "Ann"), "2026-01-01T00:00:00+00:00", None)
>>> [sessions.alive(row, _at(f"2026-01-01T00:0{minutes}:00+00:00")) for minutes in (1, 2)]
[True, False]
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

from .errors import ApiError
from .rows import Account, SessionRow, TokenRow, hash_token

if TYPE_CHECKING:
    from .writes import Write

log = logging.getLogger("tabletop.server")

DAY = 24 * 3600.0
SESSION_ENDED = "\x00session ended"  # an outbox item no state can be: close with 4401


@dataclass(frozen=True)
class SessionLimits:
    """``serve --session-idle`` and ``--session-max``, in seconds."""

    idle: float = 30 * DAY  # unused this long, a session ends
    absolute: float = 365 * DAY  # this long after sign-in, a session ends however used

    @property
    def refresh_after(self) -> float:
        """How stale ``last_used`` may get before a use stores a new one: a write per
        minute at most, not one per request."""
        return min(60.0, self.idle / 10)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


class Closable(Protocol):
    """A socket or stream a session or API token holds open: ``end`` closes it."""

    def end(self) -> None: ...


class Sessions:
    """Which sessions are alive, and the sockets each one holds open."""

    def __init__(
        self, limits: SessionLimits, write: Callable[[Write[Any]], Awaitable[Any]] | None
    ) -> None:
        self.limits = limits
        self._write = write
        self._sockets: dict[int, dict[Closable, str]] = {}  # account: {socket: token hash}
        self._tasks: set[asyncio.Task[None]] = set()

    def alive(self, row: SessionRow, at: datetime) -> bool:
        used = _at(row.last_used or row.created)
        return (at - _at(row.created)).total_seconds() <= self.limits.absolute and (
            at - used
        ).total_seconds() <= self.limits.idle

    def account(self, row: SessionRow | None, token: str) -> Account | None:
        """The account of a live session (``None`` for an ended one, which is deleted
        now); a use refreshes its idle limit."""
        if row is None:
            return None
        from .writes import EndSession, TouchSession  # here: ``serve --help`` stays light

        at = datetime.now(UTC)
        if not self.alive(row, at):
            self._later(EndSession(hash_token(token)))
            return None
        if (at - _at(row.last_used or row.created)).total_seconds() > self.limits.refresh_after:
            self._later(TouchSession(hash_token(token), at.isoformat(timespec="milliseconds")))
        return row.account

    def token_used(self, row: TokenRow, token: str) -> None:
        """An API token was used: store when, now and then (as a session's last use)."""
        from .writes import TouchToken

        at = datetime.now(UTC)
        if (at - _at(row.last_used or row.created)).total_seconds() > self.limits.refresh_after:
            self._later(TouchToken(hash_token(token), at.isoformat(timespec="milliseconds")))

    def _later(self, write: Write[Any]) -> None:
        """Store ``write`` without waiting for it (a failed one is only logged: the
        session is refreshed or deleted at its next use)."""
        store = self._write
        if store is None:
            return

        async def run() -> None:
            try:
                await store(write)
            except ApiError as err:
                log.warning("a session write failed: %s", err.message)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- sockets ------------------------------------------------------------------------

    def opened(self, account: Account, token: str, sub: Closable) -> None:
        self._sockets.setdefault(account.id, {})[sub] = hash_token(token)

    def closed(self, account: Account, sub: Closable) -> None:
        mine = self._sockets.get(account.id, {})
        mine.pop(sub, None)
        if not mine:
            self._sockets.pop(account.id, None)

    def ended(self, account_id: int, only: str | None = None, keep: str | None = None) -> None:
        """Close the sockets of an account's sessions that ended: ``only`` that one
        (a token hash), or every one but ``keep``, or all."""
        for sub, token_hash in list(self._sockets.get(account_id, {}).items()):
            if (only is None or token_hash == only) and token_hash != keep:
                sub.end()
