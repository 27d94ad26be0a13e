"""The server's clock: the time its rules go by.

A move's time limit, a session's expiry, an open seat's wait, a confirmation link's
life, the times stored with every change: all read ``CLOCK`` (``time``, ``utc``,
``stamp``), and what waits for such a time waits with ``CLOCK.sleep_until`` (or
``sleep``), never with ``asyncio.sleep``. It is real time, unless a test moves it on:
``serve --test-clock`` lets ``POST /api/test/clock`` (``clock_api``) call
``advance``, and whatever waits for a time now past happens at once. So a test of a
time limit never waits an hour, or a second: it moves the clock and waits for what
the server does then (a state, a row). Time still flows as well, so the stored times
keep their order; a moved clock never goes back.

Timers about processes rather than rules (leases between processes, a bot's search
budget, rate limits, retries) stay on real time: moving the clock does not touch them.

>>> clock = Clock()
>>> before = clock.time()
>>> clock.advance(3600)
>>> 3600 <= clock.time() - before < 3660
True
>>> asyncio.run(clock.sleep_until(before + 3000))  # already past: returns at once
>>> clock.stamp() > datetime.fromtimestamp(before + 3000, UTC).isoformat()
True
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import UTC, datetime


class Clock:
    """Real time plus however far tests have moved it on (``advance``)."""

    def __init__(self) -> None:
        self._ahead = 0.0  # seconds moved on so far
        self._sleepers: set[asyncio.Future[None]] = set()

    def time(self) -> float:
        """Now, as a Unix time."""
        return time.time() + self._ahead

    def utc(self) -> datetime:
        """Now, in UTC."""
        return datetime.fromtimestamp(self.time(), UTC)

    def stamp(self) -> str:
        """Now as stored with a change: UTC, ISO 8601, to the millisecond (sorts as text)."""
        return self.utc().isoformat(timespec="milliseconds")

    async def sleep_until(self, when: float) -> None:
        """Return once ``time()`` has reached ``when`` (a Unix time): by time passing, or
        at once when the clock is moved past it."""
        loop = asyncio.get_running_loop()
        while (left := when - self.time()) > 0:
            woken = loop.create_future()
            timer = loop.call_later(left, _wake, woken)
            self._sleepers.add(woken)
            try:
                await woken
            finally:
                timer.cancel()
                self._sleepers.discard(woken)

    async def sleep(self, seconds: float) -> None:
        """``sleep_until`` ``seconds`` from now: a chore's pause that a moved clock ends."""
        await self.sleep_until(self.time() + seconds)

    def advance(self, seconds: float) -> None:
        """Move the clock on by ``seconds`` (for tests; never back) and wake every
        ``sleep_until`` to look again (in whichever event loop it waits)."""
        if not seconds >= 0:
            raise ValueError(f"a clock only moves on, not by {seconds!r} s")
        self._ahead += seconds
        for woken in list(self._sleepers):
            with contextlib.suppress(RuntimeError):  # its loop has closed: nobody waits
                woken.get_loop().call_soon_threadsafe(_wake, woken)


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


#: the clock of this process: one for the whole server, as its stored times need
CLOCK = Clock()
