"""The account socket, ``WS /api/account/ws``: one per tab of a signed-in player, that
pushes every change of their games (account_events.py). Authenticated by the session
cookie and refused from other sites, like the game sockets; the client sends nothing.

Messages (docs/web.md, "The account socket"): first ``{"type": "games", "games":
[...], "waiting": n}`` (as ``GET /api/account``'s games; ``waiting``: how many wait
for you), then ``{"type": "game", "event": ..., "game": {...}, "waiting": n}`` per
change; without a session ``{"type": "error", "status": 401, ...}`` and close 4401.
"""

from __future__ import annotations

import asyncio
import contextlib

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from .account_events import AccountSocket
from .errors import ApiError, reading
from .request import account_of, hub_of, same_origin, session_token
from .socket_api import socket_error


async def _account_socket(ws: WebSocket) -> None:
    hub = hub_of(ws)
    if session_token(ws) is not None and not same_origin(ws):
        await ws.close(code=4403)  # another site must not read its visitor's games
        return
    await ws.accept()
    try:
        account = account_of(ws)
        if account is None:
            raise ApiError(401, "sign in first")
        games = reading(hub.reads.my_games, account)  # loads their rooms: followed from now on
    except ApiError as err:
        await ws.send_json({"type": "error", "status": err.status, **socket_error(err)})
        await ws.close(code=4000 + err.status)
        return
    sock = hub.accounts.open(account.id, games)
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
        hub.accounts.close(sock)


async def _writer(ws: WebSocket, sock: AccountSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            await ws.send_text(await sock.outbox.get())


ROUTES: list[BaseRoute] = [WebSocketRoute("/api/account/ws", _account_socket)]
