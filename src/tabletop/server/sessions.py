"""Sessions that end: each has an idle limit (refreshed whenever it is used) and an
absolute one (counted from sign-in, used or not); and every channel that a session or
API token holds open — game sockets and streams, account sockets and event streams —
registered here, in one place, and closed the moment what opened it ends (log out,
log out everywhere, a new password, a deleted account, a revoked token, expiry), so
that an old cookie or token neither plays nor reads any further. A game channel
opened with the seat link of an account's seat is held for that account too, and
closes when the account is deleted.

Expiry, and endings in another process on the same PostgreSQL database, are caught
by ``Sessions.check``: every ``SessionLimits.check`` seconds (and at once when
another process announces an ending: ``sync.Follower``) the credentials of the
channels open here are looked up again, a read per kind rather than per channel.

>>> sessions = Sessions(SessionLimits(idle=60.0), write=None)
>>> row = SessionRow(Account(1, "Ann"), "2026-01-01T00:00:00+00:00", None)
>>> [sessions.alive(row, _at(f"2026-01-01T00:0{minutes}:00+00:00")) for minutes in (1, 2)]
[True, False]
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from ..i18n import N_
from .clock import CLOCK
from .errors import ApiError
from .rows import Account, SessionRow, StoreError, TokenRow, hash_token

if TYPE_CHECKING:
    from .storage import GameStore
    from .writes import Write

log = logging.getLogger("tabletop.server")

DAY = 24 * 3600.0
SESSION_ENDED = "\x00session ended"  # an outbox item no state can be: close with 4401
#: what a channel is told when what opened it ends (then it closes with 4401)
SESSION_GONE = N_("your session has ended; sign in again")
TOKEN_GONE = N_("this API token is unknown or was revoked")


@dataclass(frozen=True)
class SessionLimits:
    """``serve --session-idle``, ``--session-max`` and ``--session-check``, in seconds."""

    idle: float = 30 * DAY  # unused this long, a session ends
    absolute: float = 365 * DAY  # this long after sign-in, a session ends however used
    check: float = 5.0  # how often open channels' sessions and tokens are looked up again

    @property
    def refresh_after(self) -> float:
        """How stale ``last_used`` may get before a use stores a new one: a write per
        minute at most, not one per request."""
        return min(60.0, self.idle / 10)


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _now() -> datetime:
    return CLOCK.utc()


class Closable(Protocol):
    """A channel a session or API token holds open: ``end`` closes it, telling why."""

    def end(self, reason: ApiError) -> None: ...


SESSION, TOKEN, LINK = "session", "token", "link"  # what opened a channel


@dataclass(frozen=True)
class Credential:
    """What opened a channel (hashed): a session cookie's token, an API token, or the
    seat link of a seat an account holds (it ends with the account)."""

    token_hash: str
    kind: str  # SESSION, TOKEN or LINK

    @classmethod
    def of(cls, token: str, kind: str) -> Credential:
        return cls(hash_token(token), kind)

    @property
    def by_token(self) -> bool:
        return self.kind == TOKEN

    def reason(self) -> ApiError:
        """What its channels are told when it ends."""
        return ApiError(401, _GONE[self.kind])


_GONE = {
    SESSION: SESSION_GONE,
    TOKEN: TOKEN_GONE,
    LINK: N_("this seat's account was deleted: its seat link plays no more"),
}

#: which of an account's credentials an ending ends (``Sessions.ended``)
Which = Callable[[Credential], bool]


def everything(_: Credential) -> bool:
    """The account is gone: every session and token, and the links of its seats."""
    return True


def every_session(credential: Credential) -> bool:
    """Log out everywhere: the sessions, not the API tokens (which are no sessions)."""
    return credential.kind == SESSION


def every_token(credential: Credential) -> bool:
    """Revoke all tokens."""
    return credential.kind == TOKEN


def only(token_hash: str) -> Which:
    """One session (log out) or one token (revoke)."""
    return lambda credential: credential.token_hash == token_hash and credential.kind != LINK


def sessions_but(keep: str, tokens: bool) -> Which:
    """A new password: every session but ``keep`` (the one that asked), and the API
    tokens too unless kept."""

    def which(credential: Credential) -> bool:
        if credential.kind == TOKEN:
            return tokens
        return credential.kind == SESSION and credential.token_hash != keep

    return which


class Sessions:
    """Which sessions are alive, and the channels each session or token holds open."""

    def __init__(
        self,
        limits: SessionLimits,
        write: Callable[[Write[Any]], Awaitable[Any]] | None,
        store: GameStore | None = None,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        self.limits = limits
        self._write = write
        self._store = store
        self._clock = clock  # injectable: tests expire sessions without waiting
        self._channels: dict[int, dict[Closable, Credential]] = {}  # per account
        self._held: dict[Closable, set[int]] = {}  # per channel: its accounts
        self._tasks: set[asyncio.Task[None]] = set()

    def alive(self, row: SessionRow, at: datetime) -> bool:
        return self._alive(row.created, row.last_used, at)

    def _alive(self, created: str, last_used: str | None, at: datetime) -> bool:
        used = _at(last_used or created)
        return (at - _at(created)).total_seconds() <= self.limits.absolute and (
            at - used
        ).total_seconds() <= self.limits.idle

    def account(self, row: SessionRow | None, token: str) -> Account | None:
        """The account of a live session (``None`` for an ended one, which is deleted
        now); a use refreshes its idle limit."""
        if row is None:
            return None
        from .writes import EndSession, TouchSession  # here: ``serve --help`` stays light

        at = self._clock()
        if not self.alive(row, at):
            self._later(EndSession(hash_token(token)))
            return None
        if (at - _at(row.last_used or row.created)).total_seconds() > self.limits.refresh_after:
            self._later(TouchSession(hash_token(token), at.isoformat(timespec="milliseconds")))
        return row.account

    def token_used(self, row: TokenRow, token: str) -> None:
        """An API token was used: store when, now and then (as a session's last use)."""
        from .writes import TouchToken

        at = self._clock()
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

    # -- channels -----------------------------------------------------------------------

    def opened(self, account_id: int, credential: Credential, channel: Closable) -> None:
        """A channel opened by ``credential`` of an account: closed when it ends (one
        channel may be held for several accounts: a link of each one's seat)."""
        self._channels.setdefault(account_id, {})[channel] = credential
        self._held.setdefault(channel, set()).add(account_id)

    def closed(self, channel: Closable) -> None:
        """The channel has gone: forget it for every account it was held for."""
        for account_id in self._held.pop(channel, ()):
            mine = self._channels.get(account_id, {})
            mine.pop(channel, None)
            if not mine:
                self._channels.pop(account_id, None)

    def ended(self, account_id: int, which: Which = everything) -> int:
        """Close the account's channels whose credential ``which`` names (it ended);
        how many."""
        return self._end(
            (channel, credential)
            for channel, credential in list(self._channels.get(account_id, {}).items())
            if which(credential)
        )

    @staticmethod
    def _end(channels: Iterable[tuple[Closable, Credential]]) -> int:
        count = 0
        for channel, credential in channels:
            channel.end(credential.reason())
            count += 1
        return count

    def check(self, account_ids: Iterable[int] | None = None) -> int:
        """Look up the credentials of the channels open here (of ``account_ids``, or
        all) and close the channels of those that expired or ended, maybe in another
        process; how many closed. A read per kind of credential (and 500 of them),
        not per channel."""
        if self._store is None:
            return 0
        wanted = self._channels if account_ids is None else set(account_ids)
        held = [
            (channel, credential)
            for account_id in wanted
            for channel, credential in list(self._channels.get(account_id, {}).items())
        ]
        if not held:
            return 0
        credentials = {credential for _, credential in held}
        hashes = {kind: [c.token_hash for c in credentials if c.kind == kind] for kind in _GONE}
        sessions, others = self._store.credentials_alive(
            hashes[SESSION], hashes[TOKEN], hashes[LINK]
        )
        at = self._clock()

        def ended(credential: Credential) -> bool:
            if credential.kind != SESSION:
                return credential.token_hash not in others
            times = sessions.get(credential.token_hash)
            return times is None or not self._alive(*times, at)

        gone = {c for c in credentials if ended(c)}
        self._forget_expired(gone, sessions)
        return self._end((channel, c) for channel, c in held if c in gone)

    def _forget_expired(self, gone: set[Credential], sessions: dict[str, Any]) -> None:
        """Delete the sessions that expired (as their next use would)."""
        from .writes import EndSession

        for credential in gone:
            if credential.kind == SESSION and credential.token_hash in sessions:
                self._later(EndSession(credential.token_hash))

    def check_account(self, account_id: int) -> None:
        """Another process ended some of the account's sessions or tokens: ``check``
        its channels here now (a failed read is only logged: the next check retries)."""
        try:
            self.check([account_id])
        except StoreError as err:
            log.warning("checking an account's channels: %s", err)

    async def check_now_and_then(self) -> None:
        """``check`` every ``limits.check`` seconds (a failed read is only logged)."""
        while True:
            await CLOCK.sleep(self.limits.check)  # a test's moved clock checks at once
            try:
                self.check()
            except Exception:  # a chore must keep going; the next check tries again
                log.exception("checking open channels' sessions failed")
