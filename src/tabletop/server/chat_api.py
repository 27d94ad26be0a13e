"""The HTTP API of games' chat (chat.py says who may write and read what): read a
game's chat, write in it, and mute an account's chat for yourself."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.web import JSON
from .chat import (
    MAX_BODY,
    MAX_PER_CHANNEL,
    PHRASES,
    check_message,
    message_json,
    readable,
    refusal,
    tell_hidden,
    visible,
)
from .chat_reads import ChatRow
from .chat_writes import MuteChat, PostChat, UnmuteChat
from .errors import ApiError
from .jsontext import JSONResponse
from .request import account_of, bearer, hub_of, json_body, json_object, named_account, signed_in
from .room import Room
from .rows import Account


async def _read(request: Request) -> Response:
    """The messages the caller may read (a player: both channels; anyone: the
    spectators'), without those of accounts it hides."""
    hub = hub_of(request)
    account = account_of(request)
    room = await hub.authority.fresh(request.path_params["game_id"])
    seats = hub.authority.seats_for(room, bearer(request), account)
    reader = None if account is None else account.id
    return JSONResponse(
        {
            "channels": list(readable(seats)),
            "phrases": list(PHRASES),
            "messages": visible(hub.store, room, seats, reader),
        }
    )


async def _post(request: Request) -> Response:
    """``{"channel", "text"}`` or ``{"channel", "phrase"}``: a message from the signed-in
    account, sent at once to the game's sockets that may read it."""
    hub = hub_of(request)
    account = account_of(request)
    if account is None:
        raise ApiError(401, "sign in to chat")
    address = request.client.host if request.client else None
    # a flood is refused first, before its body is read or its game looked up (a look
    # only: a message refused below spends nothing); measured with loadtest --chat-floods
    hub.check_rate("chat_address", address, spend=False)
    hub.check_rate("chat", account.id, spend=False)
    channel, text, phrase = check_message(json_object(await json_body(request, MAX_BODY)))
    room = await hub.authority.fresh(request.path_params["game_id"])
    reason = refusal(hub.store, room, account, channel)
    if reason is not None:
        raise ApiError(403, reason)
    # an address's flood is refused before it costs an account's turn
    hub.check_rate("chat_address", address)
    hub.check_rate("chat", account.id)
    stored = await hub.write(PostChat(room.id, account.id, channel, text, phrase, MAX_PER_CHANNEL))
    if stored is None:
        raise ApiError(409, "this game's chat is full ({n} messages)", n=MAX_PER_CHANNEL)
    row = ChatRow(stored[0], room.id, account.id, account.name, channel, text, phrase, stored[1])
    hub.chat.posted(row)
    return JSONResponse({"message": message_json(row)}, status_code=201)


def chat_of_record(request: Request, room: Room) -> list[JSON]:
    """A finished game's chat in its record: what the caller may read of it (its
    players' chat only for its players), every message kept."""
    hub = hub_of(request)
    account = account_of(request)
    seats = hub.authority.seats_for(room, bearer(request), account)
    reader = None if account is None else account.id
    return visible(hub.store, room, seats, reader, 2 * MAX_PER_CHANNEL)


def _muted(request: Request, account: Account) -> list[dict[str, str]]:
    return [{"name": a.name} for a in hub_of(request).store.chat_mutes(account.id)]


async def _mutes(request: Request) -> Response:
    account = signed_in(request)
    return JSONResponse({"muted": _muted(request, account)})


async def _mute(request: Request) -> Response:
    """``{"name"}``: that account's chat no longer reaches you, on any of your pages
    (those open now drop its messages at once)."""
    account = signed_in(request)
    other = await named_account(request, MAX_BODY)
    if other.id == account.id:
        raise ApiError(400, "you cannot mute yourself")
    hub = hub_of(request)
    await hub.write(MuteChat(account.id, other.id))
    tell_hidden(hub, account.id, other.name)
    return JSONResponse({"muted": _muted(request, account)})


async def _unmute(request: Request) -> Response:
    """``{"name"}``: that account's new messages reach you again."""
    account = signed_in(request)
    other = await named_account(request, MAX_BODY)
    await hub_of(request).write(UnmuteChat(account.id, other.id))
    return JSONResponse({"muted": _muted(request, account)})


ROUTES: list[BaseRoute] = [
    Route("/api/games/{game_id}/chat", _read),
    Route("/api/games/{game_id}/chat", _post, methods=["POST"]),
    Route("/api/account/mutes", _mutes),
    Route("/api/account/mutes", _mute, methods=["POST"]),
    Route("/api/account/mutes/remove", _unmute, methods=["POST"]),
]
