"""A game's WebSocket: a hello with the seat tokens, then ``act``/``undo``/``hint``
messages; every change of the game arrives as a state (``Subscriber``)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..i18n import N_
from .chat import send_history
from .crowds import Slot
from .encoding import Subscriber
from .errors import ApiError, reading
from .games_api import action_of
from .jsontext import dumps
from .request import (
    MAX_BODY,
    account_of,
    api_token,
    credential_of,
    hub_of,
    json_object,
    loads,
    require_seat,
    same_origin,
    session_token,
)
from .room import GONE, Room
from .rows import Account
from .sessions import LINK, SESSION_ENDED, SESSION_GONE, Closable, Credential

if TYPE_CHECKING:
    from .hub import Hub

GOING_AWAY = "\x00going away"  # an outbox item no state or answer can be: close with 1001


async def close_sockets(hub: Hub, timeout: float) -> None:
    subscribers = [sub for room in hub.rooms.live.values() for sub in room.subscribers]
    for sub in subscribers:
        sub.outbox.put_nowait((None, GOING_AWAY, None))
    deadline = time.monotonic() + timeout
    while any(room.subscribers for room in hub.rooms.live.values()) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def _socket(ws: WebSocket) -> None:
    hub = hub_of(ws)
    if session_token(ws) is not None and not same_origin(ws):
        await ws.close(code=4403)  # another site must not play with its visitor's session
        return
    await ws.accept()
    slot = hub.sockets.slot()
    try:
        await _serve(ws, hub, slot)
    finally:
        slot.release()


async def _serve(ws: WebSocket, hub: Hub, slot: Slot) -> None:
    """One accepted socket: its hello, then its messages until it goes."""
    try:
        slot.hold_address(ws.client.host if ws.client else None)
        tokens = await _hello(ws, hub.crowd.hello_timeout)
        room = await hub.authority.fresh(ws.path_params["game_id"])  # a reconnect misses nothing
        account = account_of(ws)
        if account is not None:
            slot.hold_account(account.id)
        seats = hub.authority.seats_for(room, tokens, account)
        hub.check_crowd(room, seats)
    except ApiError as err:
        await _refuse(ws, err)
        return
    except TimeoutError:  # a client that never says hello is told why it is dropped
        wait = f"{hub.crowd.hello_timeout:g}"
        await _refuse(ws, ApiError(408, "say hello within {seconds} seconds", seconds=wait))
        return
    except WebSocketDisconnect:
        return
    sub = Subscriber(seats, read_only=account is not None and account.read_only)
    sub.account_id = None if account is None else account.id
    try:
        hold(hub, room, tokens, account, credential_of(ws), sub)
    except ApiError as err:  # the database is down
        hub.sessions.closed(sub)
        await _refuse(ws, err)
        return
    room.watch(sub)
    hub.encoder.send_states(room, [sub])  # the newcomer's state; the others, who is here
    try:
        send_history(hub.store, room, sub)  # the chat it may read, after its state
    except ApiError as err:  # the database is down: the game goes on without it
        sub.send({"type": "error", "status": err.status, **socket_error(err)})
    hub.presence.changed(room.id)
    writer = asyncio.create_task(_writer(ws, sub))
    try:
        while (text := await _next_text(ws)) is not None:
            if account is not None and sub.seats and not _session_lives(ws, account):
                await _session_ended(ws)  # ended in another process, or expired
                return
            await _handle(hub, room.id, sub, text, by_token=api_token(ws) is not None)
    finally:
        hub.sessions.closed(sub)
        writer.cancel()
        hub.rates["message"].forget(id(sub))
        for live in {room, hub.rooms.live.get(room.id)}:
            if live is not None:
                live.unwatch(sub)
        hub.presence.changed(room.id)


def hold(
    hub: Hub,
    room: Room,
    links: list[str],
    account: Account | None,
    credential: Credential | None,
    channel: Closable,
) -> None:
    """Register a game's channel with what opened it (``Sessions.opened``): the session
    or API token of ``account``, and the seat links of seats another account holds
    (they end with that account)."""
    if account is not None and credential is not None:
        hub.sessions.opened(account.id, credential, channel)
    for link in links:
        seat = reading(hub.store.seat_for_token, room.id, link)
        owner = next((s.account_id for s in room.seats if s.seat == seat), None)
        if owner is not None and (account is None or owner != account.id):
            hub.sessions.opened(owner, Credential.of(link, LINK), channel)


async def _refuse(ws: WebSocket, err: ApiError) -> None:
    """Say why in an error message, then close with 4000 + its status and the reason."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await ws.send_text(dumps({"type": "error", "status": err.status, **socket_error(err)}))
        await ws.close(code=4000 + err.status, reason=_close_reason(err))


async def _next_text(ws: WebSocket) -> str | None:
    """The next message as text; ``None`` once the client has gone."""
    try:
        message = await ws.receive()
    except RuntimeError:  # the socket was closed meanwhile (e.g. a failed send)
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text: str | None = message.get("text")
    if text is not None:
        return text
    return (message.get("bytes") or b"").decode("utf-8", "replace")


async def _hello(ws: WebSocket, timeout: float) -> list[str]:
    """The tokens of the client's hello (none: a spectator)."""
    text = await asyncio.wait_for(_next_text(ws), timeout)
    if text is None:
        raise WebSocketDisconnect()
    message = _parse_message(text)
    if message.get("type") != "hello":
        raise ApiError(400, 'say hello first: {"type": "hello", "tokens": [...]}')
    tokens = message.get("tokens", [])
    if not isinstance(tokens, list) or len(tokens) > 8:
        raise ApiError(400, "'tokens' must be a list of seat tokens")
    return tokens


def _parse_message(text: str) -> dict[str, Any]:
    if len(text) > MAX_BODY:
        raise ApiError(413, "the message is too large (at most {kb} KB)", kb=MAX_BODY // 1024)
    return json_object(loads(text, N_("the message")))


async def _handle(
    hub: Hub, game_id: str, sub: Subscriber, text: str, *, by_token: bool = False
) -> None:
    """One client message; answers go through the subscriber's outbox, in order
    (``by_token``: the socket was opened with a bot account's API token)."""
    ref = None
    try:
        hub.check_rate("message", id(sub))  # before any parsing: a flood costs only this
        message = _parse_message(text)
        ref = message.get("id")
        kind = message.get("type")
        room = hub.rooms.room(game_id)
        if kind in ("act", "undo") and sub.read_only:
            raise ApiError(403, "this API token may only read; playing needs the 'play' scope")
        if kind in ("act", "undo", "hint"):
            require_seat(sub.seats, by_token)
        if kind == "act":
            action = action_of(message)
            room = await hub.authority.act(
                game_id, sub.seats, action, message.get("ply"), message.get("seat")
            )
            sub.send({"type": "ack", "id": ref, "ply": room.ply})
        elif kind == "undo":
            room = await hub.authority.undo(
                game_id, sub.seats, message.get("ply"), message.get("seat")
            )
            sub.send({"type": "ack", "id": ref, "ply": room.ply})
        elif kind == "hint":
            asyncio.get_running_loop().create_task(_hint_over_socket(hub, room, sub, message, ref))
        else:
            raise ApiError(400, "unknown message type; use act, undo or hint")
    except ApiError as err:
        sub.send({"type": "error", "id": ref, "status": err.status, **socket_error(err)})


async def _hint_over_socket(
    hub: Hub, room: Room, sub: Subscriber, message: dict[str, Any], ref: Any
) -> None:
    try:
        hint = await hub.scheduler.hint(room, sub.seats, message.get("ply"), message.get("seat"))
        sub.send({"type": "hint", "id": ref, **hint})
    except ApiError as err:
        sub.send({"type": "error", "id": ref, "status": err.status, **socket_error(err)})


async def _writer(ws: WebSocket, sub: Subscriber) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            _, text, _ = await sub.outbox.get()
            if text is GOING_AWAY:
                await ws.close(code=1001, reason="the server is stopping; reconnect")
                return
            if text is GONE:
                await ws.close(code=4410, reason="the game was withdrawn")
                return
            if text is SESSION_ENDED:
                await close_ended(ws, sub.ending)
                return
            await ws.send_text(text)


def _session_lives(ws: WebSocket, account: Account) -> bool:
    """Whether the session the socket was opened with is still the account's (checked
    before each message of a socket that may play: another process may have ended it)."""
    try:
        return account_of(ws) == account
    except ApiError:  # the database is down: the move itself will say so
        return True


async def _session_ended(ws: WebSocket) -> None:
    """The session this socket was opened with has ended: say so, and close it (4401)."""
    await close_ended(ws, ApiError(401, SESSION_GONE))


async def close_ended(ws: WebSocket, reason: ApiError | None) -> None:
    """What opened the socket (a session, an API token) has ended: say so in an error
    message, and close it with 4401 and the reason."""
    err = reason or ApiError(401, SESSION_GONE)
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await ws.send_text(dumps({"type": "error", "status": 401, **socket_error(err)}))
        await ws.close(code=4401, reason=_close_reason(err))


def ended_line(reason: ApiError | None) -> str | None:
    """The last line of a stream whose session or API token ended: the error."""
    err = reason or ApiError(401, SESSION_GONE)
    return dumps({"type": "error", "status": 401, **socket_error(err)})


def _close_reason(err: ApiError) -> str:
    """A close frame's reason: the message, cut to the 123 bytes a frame holds."""
    return err.message.encode()[:123].decode("utf-8", "ignore")


def socket_error(err: ApiError) -> dict[str, Any]:
    """An error over the WebSocket: ``message`` (English), and ``key``/``args``."""
    return {"message": err.message, "key": err.key, "args": err.params}


ROUTES: list[BaseRoute] = [WebSocketRoute("/api/games/{game_id}/ws", _socket)]
