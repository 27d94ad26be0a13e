"""NDJSON streams (``application/x-ndjson``) for clients without WebSocket: the same
messages as a socket, one JSON object per line, an empty line every 20 s when quiet;
a stream whose session or API token ends says so in a last error line, then ends.

A stream counts as a socket of its address and of its account (``crowds.Slot``: 429
past either cap), from the request until its response ends, however it ends; what it
follows is registered only once the response is being sent, so that a client gone
before the first byte leaves nothing behind.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from .crowds import Slot
from .request import hub_of

KEEP_ALIVE = 20.0  # seconds: an empty line now and then keeps proxies from closing a stream
MEDIA_TYPE = "application/x-ndjson"


@dataclass(frozen=True)
class Feed:
    """What a stream sends: ``start`` registers it, ``next`` waits for the next message,
    ``stop`` unregisters it (also after a ``start`` that failed); a message that is one
    of ``ends`` (by identity) ends it."""

    start: Callable[[], None]
    next: Callable[[], Awaitable[str]]
    stop: Callable[[], None]
    ends: tuple[str, ...]
    #: the last line when it ends that way (why: its session or API token ended)
    farewell: Callable[[], str | None] = lambda: None


def stream(request: Request, feed: Feed, account_id: int | None = None) -> StreamingResponse:
    """The response that sends ``feed`` line by line; 429 at once if the request's
    address, or the account it is opened by (``account_id``), holds as many sockets
    and streams as it may."""
    slot = hub_of(request).sockets.slot()
    slot.hold_address(request.client.host if request.client else None)
    try:
        if account_id is not None:
            slot.hold_account(account_id)
    except Exception:
        slot.release()
        raise

    async def lines() -> AsyncIterator[str]:
        try:
            feed.start()
            while True:
                try:
                    text = await asyncio.wait_for(feed.next(), KEEP_ALIVE)
                except TimeoutError:
                    yield "\n"
                    continue
                if any(text is end for end in feed.ends):
                    if (last := feed.farewell()) is not None:
                        yield last + "\n"
                    return
                yield text + "\n"
        finally:
            feed.stop()

    return _Stream(slot, lines(), media_type=MEDIA_TYPE)


class _Stream(StreamingResponse):
    """A streaming response that gives its place back when it ends, also when the
    client went before its first line (its lines then never even start)."""

    def __init__(self, slot: Slot, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.slot = slot

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.slot.release()
