"""The bot API (docs/bot-api.md): bot accounts, their API tokens, and what a program
needs beyond the page's API to play — its games' states as NDJSON, the game so far as
its seat has seen it, moves by the research encoding's action index, resigning.

* ``POST /api/account/bot`` ``{"password"}`` — turn the signed-in account into a bot
  account, for good (only one that has never held a seat as a person);
* ``GET /api/account/tokens``, ``POST /api/account/tokens`` ``{"name", "scopes"}`` (the
  token is in the answer, once), ``POST /api/account/tokens/{id}/revoke`` — signed in
  on the page (a token cannot make tokens); ``POST /api/account/tokens/revoke-all``;
* ``GET /api/bots`` — the bot accounts online (an event stream open here);
* ``GET /api/games/{id}/stream`` — the seat's states as NDJSON, as the game's socket
  sends them; ``GET /api/games/{id}/seat-record`` — the game so far as the seat saw it;
* ``POST /api/games/{id}/resign`` ``{"seat"?}``.

The event stream is the account socket (account_socket.py), opened with the token.
"""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.web import RecordError
from . import accounts, ndjson
from .accounts import AccountError
from .accounts_api import NOT_YOURS, check_password, own_login
from .encoding import Subscriber
from .errors import ApiError
from .jsontext import JSONResponse
from .request import (
    API_TOKEN_PREFIX,
    account_of,
    api_token,
    bearer,
    credential_of,
    hub_of,
    json_body,
    json_object,
    player_seats,
    room_and_seats,
    signed_in,
)
from .room import GONE
from .rows import Account, TokenRow, hash_token
from .sessions import SESSION_ENDED, every_token, only
from .socket_api import ended_line, hold
from .writes import CreateToken, MakeBot, RevokeToken, RevokeTokens

#: what a token may do: "read" its games and events; "play" them too
SCOPES = ("play", "read")
MAX_TOKENS = 20  # per bot account
MAX_TOKEN_NAME = 40


def _on_the_page(request: Request) -> Account:
    """The account signed in with its password on the page: tokens are made there,
    never with another token."""
    if api_token(request) is not None:
        raise ApiError(403, "API tokens are managed on the page, signed in with the password")
    return signed_in(request)


async def _make_bot(request: Request) -> Response:
    account = _on_the_page(request)
    hub = hub_of(request)
    body = json_object(await json_body(request))
    try:
        password = accounts.check_password(body.get("password"))
    except AccountError as err:
        raise ApiError(400, err.key, **err.params) from None
    await check_password(
        hub, own_login(hub, account), accounts.name_key(account.name), password, NOT_YOURS
    )
    if account.bot:
        raise ApiError(409, "this account is a bot account already")
    if not await hub.write(MakeBot(account.id)):
        raise ApiError(
            409,
            "an account that has played as a person cannot become a bot account; "
            "register a new account for your bot",
        )
    return JSONResponse({"account": {"name": account.name, "bot": True}})


def _token_json(row: TokenRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "scopes": list(row.scopes),
        "created": row.created,
        "last_used": row.last_used,
    }


async def _tokens(request: Request) -> Response:
    account = _on_the_page(request)
    rows = hub_of(request).store.tokens_of(account.id)
    return JSONResponse({"tokens": [_token_json(row) for row in rows]})


def _check_token_name(raw: object) -> str:
    if not isinstance(raw, str):
        raise ApiError(400, "'name' must be a text naming the token (where it is used)")
    name = unicodedata.normalize("NFC", raw.strip())
    if not 1 <= len(name) <= MAX_TOKEN_NAME or not name.isprintable():
        raise ApiError(
            400, "a token's name is 1 to {most} printable characters", most=MAX_TOKEN_NAME
        )
    return name


def _check_scopes(raw: object) -> tuple[str, ...]:
    if raw is None:
        return SCOPES
    if (
        not isinstance(raw, list)
        or not raw
        or not all(isinstance(s, str) and s in SCOPES for s in raw)
    ):
        raise ApiError(400, "'scopes' must be a list of {scopes}", scopes=", ".join(SCOPES))
    return tuple(s for s in SCOPES if s in raw)


async def _create_token(request: Request) -> Response:
    account = _on_the_page(request)
    hub = hub_of(request)
    if not account.bot:
        raise ApiError(403, "only a bot account has API tokens; make this account a bot first")
    body = json_object(await json_body(request))
    name, scopes = _check_token_name(body.get("name")), _check_scopes(body.get("scopes"))
    if len(hub.store.tokens_of(account.id)) >= MAX_TOKENS:
        raise ApiError(409, "a bot account has at most {most} tokens", most=MAX_TOKENS)
    token = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token_id = await hub.write(CreateToken(account.id, name, hash_token(token), scopes))
    row = next(r for r in hub.store.tokens_of(account.id) if r.id == token_id)
    return JSONResponse({**_token_json(row), "token": token}, status_code=201)


async def _revoke_token(request: Request) -> Response:
    account = _on_the_page(request)
    hub = hub_of(request)
    text = request.path_params["token_id"]
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise ApiError(404, "you have no API token of that number")
    revoked = await hub.write(RevokeToken(account.id, int(text)))
    if revoked is None:
        raise ApiError(404, "you have no API token of that number")
    hub.sessions.ended(account.id, only(revoked))  # its channels close at once
    return JSONResponse({"id": int(text), "revoked": True})


async def _revoke_all_tokens(request: Request) -> Response:
    """Revoke every API token of the account at once (a leaked laptop, a lost key):
    their channels close; ``{"revoked": n}``."""
    account = _on_the_page(request)
    hub = hub_of(request)
    revoked = await hub.write(RevokeTokens(account.id))
    hub.sessions.ended(account.id, every_token)
    return JSONResponse({"revoked": revoked})


async def _online_bots(request: Request) -> Response:
    """The bot accounts with an event stream open (in this process), opened with an
    API token (not a page of its owner's): the seat picker offers them as opponents."""
    hub = hub_of(request)
    ids = hub.accounts.streaming()
    bots = hub.store.bot_accounts(ids)
    names = hub.store.account_names(bots)
    return JSONResponse({"bots": sorted(({"name": n} for n in names.values()), key=_by_name)})


def _by_name(bot: dict[str, str]) -> str:
    return bot["name"].casefold()


async def _game_stream(request: Request) -> Response:
    """The game's states for the request's seats (a spectator's without), one JSON
    object per line: what the game's WebSocket sends, for clients without one."""
    room, seats = await room_and_seats(request)
    hub = hub_of(request)
    hub.check_crowd(room, seats)
    sub = Subscriber(seats)
    account = account_of(request)
    credential = credential_of(request)

    def start() -> None:  # closed when what opened it ends
        hold(hub, room, bearer(request), account, credential, sub)
        room.watch(sub)
        hub.encoder.send_states(room, [sub])

    async def next_text() -> str:
        return (await sub.outbox.get())[1]

    def stop() -> None:
        hub.sessions.closed(sub)
        for live in {room, hub.rooms.live.get(room.id)}:
            if live is not None:
                live.unwatch(sub)

    def farewell() -> str | None:
        return None if sub.ending is None else ended_line(sub.ending)

    feed = ndjson.Feed(start, next_text, stop, (GONE, SESSION_ENDED), farewell)
    return ndjson.stream(request, feed, account_id=None if account is None else account.id)


async def _seat_record(request: Request) -> Response:
    """The game so far as the request's seat has seen it (``GameType.seat_record``):
    what a client needs to rebuild a state consistent with its view."""
    room, seats = await room_and_seats(request)
    if not seats:
        raise ApiError(403, "only a seat of this game has its seat record")
    seat = min(seats)
    wanted = request.query_params.get("seat")
    if wanted is not None:
        # at most 9 digits: int() refuses over 4,300 (a ValueError, a 500)
        digits = wanted.isascii() and wanted.isdigit() and len(wanted) <= 9
        if not (digits and int(wanted) in seats):
            yours = ", ".join(map(str, sorted(seats)))
            raise ApiError(400, "'seat' must be one of your seats ({seats})", seats=yours)
        seat = int(wanted)
    try:
        record = room.type.seat_record(room.match.recorder, seat)
    except RecordError as err:
        raise ApiError(422, "invalid record: {reason}", reason=err) from None
    record["players"] = [s.name for s in room.seats]  # the match knows seats by number
    return JSONResponse({"seat": seat, "ply": room.ply, "record": record})


async def _resign(request: Request) -> Response:
    body = json_object(await json_body(request))
    room, seats = await player_seats(request)
    hub = hub_of(request)
    room = await hub.authority.resign(room.id, seats, body.get("seat"))
    state = hub.encoder.state(room, seats)
    return JSONResponse({k: v for k, v in state.items() if k != "type"})


ROUTES: list[BaseRoute] = [
    Route("/api/account/bot", _make_bot, methods=["POST"]),
    Route("/api/account/tokens", _tokens),
    Route("/api/account/tokens", _create_token, methods=["POST"]),
    Route("/api/account/tokens/revoke-all", _revoke_all_tokens, methods=["POST"]),
    Route("/api/account/tokens/{token_id}/revoke", _revoke_token, methods=["POST"]),
    Route("/api/bots", _online_bots),
    Route("/api/games/{game_id}/stream", _game_stream),
    Route("/api/games/{game_id}/seat-record", _seat_record),
    Route("/api/games/{game_id}/resign", _resign, methods=["POST"]),
]
