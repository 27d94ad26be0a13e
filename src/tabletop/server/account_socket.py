"""The account socket, ``WS /api/account/ws``: one per tab of a signed-in player, that
pushes every change of their games (account_events.py). Authenticated by the session
cookie and refused from other sites, like the game sockets; the client sends nothing.

Messages (docs/web.md, "The account socket"): first ``{"type": "games", "games":
[...], "waiting": n}`` (as ``GET /api/account``'s games; ``waiting``: how many wait
for you), then ``{"type": "game", "event": ..., "game": {...}, "waiting": n}`` per
change; without a session ``{"type": "error", "status": 401, ...}`` and close 4401.

A bot account opens it with its API token (``Authorization: Bearer``), or reads the
same messages as NDJSON from ``GET /api/account/events``: its event stream
(docs/bot-api.md). While one is open the bot account is online (``GET /api/bots``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import ndjson
from .account_events import ENDED, AccountSocket
from .crowds import Slot
from .errors import ApiError, reading
from .jsontext import dumps
from .request import credential_of, hub_of, own_account, same_origin, session_token
from .rows import Account
from .socket_api import close_ended, ended_line, socket_error

if TYPE_CHECKING:
    from .hub import Hub


async def _account_socket(ws: WebSocket) -> None:
    hub = hub_of(ws)
    if session_token(ws) is not None and not same_origin(ws):
        await ws.close(code=4403)  # another site must not read its visitor's games
        return
    await ws.accept()
    slot = hub.sockets.slot()  # counted as a socket of its address and its account
    try:
        await _serve(ws, hub, slot)
    finally:
        slot.release()


async def _serve(ws: WebSocket, hub: Hub, slot: Slot) -> None:
    try:
        slot.hold_address(ws.client.host if ws.client else None)
        account, sock = _open(ws, slot)
    except ApiError as err:
        await ws.send_text(dumps({"type": "error", "status": err.status, **socket_error(err)}))
        await ws.close(code=4000 + err.status)
        return
    writer = asyncio.create_task(_writer(ws, sock))
    try:
        while True:  # the client says nothing; this notices when it goes
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        writer.cancel()
        _close(hub, account, sock)


def _open(conn: Request | WebSocket, slot: Slot | None = None) -> tuple[Account, AccountSocket]:
    """The signed-in account's new stream of its games' changes (401 if none): it
    closes when the session or API token it was opened with ends. ``slot``: the
    socket's place, to count for the account too (429 past its cap)."""
    hub = hub_of(conn)
    account = own_account(conn)
    credential = credential_of(conn)
    if account is None or credential is None:
        raise ApiError(401, "sign in first")
    if slot is not None:
        slot.hold_account(account.id)
    games = reading(hub.reads.my_games, account)  # loads their rooms: followed from now on
    sock = hub.accounts.open(account.id, games, by_token=credential.by_token)
    hub.sessions.opened(account.id, credential, sock)
    return account, sock


def _close(hub: Hub, account: Account, sock: AccountSocket) -> None:
    hub.sessions.closed(sock)
    hub.accounts.close(sock)


async def _writer(ws: WebSocket, sock: AccountSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            text = await sock.outbox.get()
            if text is ENDED:
                await close_ended(ws, sock.ending)
                return
            await ws.send_text(text)


async def _account_events(request: Request) -> Response:
    """``GET /api/account/events``: the account socket's messages as NDJSON, for
    clients without WebSocket (ndjson.py)."""
    hub = hub_of(request)
    account = own_account(request)
    if account is None:
        raise ApiError(401, "sign in first")
    opened: list[AccountSocket] = []

    def start() -> None:
        opened.append(_open(request)[1])

    def stop() -> None:
        if opened:
            _close(hub, account, opened[0])

    async def next_text() -> str:
        return await opened[0].outbox.get()

    def farewell() -> str | None:
        return ended_line(opened[0].ending) if opened else None

    feed = ndjson.Feed(start, next_text, stop, (ENDED,), farewell)
    return ndjson.stream(request, feed, account_id=account.id)


ROUTES: list[BaseRoute] = [
    WebSocketRoute("/api/account/ws", _account_socket),
    Route("/api/account/events", _account_events),
]
