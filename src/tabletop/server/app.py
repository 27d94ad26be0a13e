"""The ASGI application: pages, a JSON HTTP API and a WebSocket per game.

HTTP API (every error is ``{"error": message, "key": msgid, "args": {...}}`` with a
4xx/5xx status: the English text, and what the page translates, tabletop.i18n):

* ``GET  /i18n/{lang}.json`` — the page's messages in ``lang`` (en, de, nl);
* ``GET  /api/types`` — the games hosted, with bots and options;
* ``POST /api/games`` — create a game; the answer holds each human seat's secret link;
* ``GET  /api/games/{id}`` — the state (``Authorization: Bearer <seat token>`` for a seat);
* ``POST /api/games/{id}/actions`` ``{"action", "ply"}`` — act; ``ply`` is the move
  count of the state you saw, so a stale or repeated submission is refused (in a
  simultaneous game only if something changed for your seat since); an optional
  ``"seat"`` picks which of a hot-seat client's seats acts;
* ``POST /api/games/{id}/undo`` ``{"ply"}`` (in a simultaneous game: take back your
  pending action of this round), ``POST /api/games/{id}/hint`` ``{"ply"}``;
* ``GET  /api/games/{id}/record`` and ``/replay`` — once the game is over;
* ``POST /api/replay`` — the frames of an uploaded record;
* ``POST /api/games/{id}/join`` ``{"seat"?}`` — take an open seat (signed in);
  ``POST /api/games/{id}/claim`` with a seat token — tie that seat to your account;
* ``GET  /api/lobby`` — the open games; ``GET /api/leaderboard/{type}``;
  ``GET /api/players/{name}`` — a profile: ratings and finished games;
* ``POST /api/account/register`` and ``/login`` ``{"name", "password"}``, ``POST
  /api/account/logout`` and ``/logout-everywhere``, ``GET /api/account`` — you and
  your games (a session cookie; see ``accounts``);
* ``WS   /api/games/{id}/ws`` — send ``{"type": "hello", "tokens": [...]}`` first, then
  ``act``/``undo``/``hint`` messages like the HTTP bodies (plus an optional ``id``
  echoed in the ``ack``/``error``/``hint`` answer); every change arrives as a
  ``{"type": "state", ...}`` message.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import signal
import time
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.web import DEFAULT_LIMITS, BotLimits, RecordError, web_games
from ..i18n import LANGUAGES, N_, catalogue
from . import accounts
from .accounts import COOKIE, AccountError
from .assets import Assets
from .botpool import BotPool
from .headers import SecurityHeaders
from .ratelimit import RateLimits
from .rooms import ApiError, Hub, Room, Subscriber
from .storage import Account, StoreError, hash_token, open_store
from .writes import CreateAccount, CreateSession, EndSession, EndSessions

log = logging.getLogger("tabletop.server")

MAX_BODY = 64 * 1024  # actions, game setups
MAX_RECORD = 2 * 1024 * 1024  # uploaded records for the replay page
HELLO_TIMEOUT = 30.0
GOING_AWAY = "\x00going away"  # an outbox item no state or answer can be: close with 1001

STATIC = resources.files("tabletop").joinpath("web")


def create_app(
    db_path: str,
    *,
    bot_pause: float = 0.5,
    bot_workers: int | None = None,
    bot_limits: BotLimits = DEFAULT_LIMITS,
    rate_limits: RateLimits = RateLimits(),  # noqa: B008 - frozen settings
) -> Starlette:
    """The app for the games stored in ``db_path`` (a SQLite file or a PostgreSQL URL)."""
    store = open_store(db_path)
    pool = BotPool(bot_workers)
    hub = Hub(store, pool, bot_pause, bot_limits, rate_limits)
    assets = Assets(STATIC, {name: game.assets for name, game in web_games().items()})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        _going_away_on_sigterm(hub)
        pool.start()
        await hub.resume()
        chores = [
            asyncio.create_task(hub.checkpoint_now_and_then()),
            asyncio.create_task(hub.forget_finished_now_and_then()),
        ]
        if store.shared:  # other processes change games too: follow them
            chores.append(asyncio.create_task(hub.listen()))
        yield
        for chore in chores:
            chore.cancel()
        await hub.committer.idle()  # writes under way reach the database
        pool.close()
        hub.close()
        store.close()

    routes = [
        Route("/", _page),
        Route("/g/{game_id}", _page),
        Route("/replay", _page),
        Route("/replay/{game_id}", _page),
        Route("/i18n/{lang}.json", _catalogue),
        Route("/lobby", _page),
        Route("/me", _page),
        Route("/leaderboard", _page),
        Route("/leaderboard/{type}", _page),
        Route("/u/{name}", _page),
        Route("/api/account", _account_info),
        Route("/api/account/register", _register, methods=["POST"]),
        Route("/api/account/login", _login, methods=["POST"]),
        Route("/api/account/logout", _logout, methods=["POST"]),
        Route("/api/account/logout-everywhere", _logout_everywhere, methods=["POST"]),
        Route("/api/lobby", _lobby),
        Route("/api/leaderboard/{type}", _leaderboard),
        Route("/api/players/{name}", _player),
        Route("/api/games/{game_id}/join", _join, methods=["POST"]),
        Route("/api/games/{game_id}/claim", _claim, methods=["POST"]),
        Route("/api/types", _types),
        Route("/api/games", _create, methods=["POST"]),
        Route("/api/games/{game_id}", _get_state),
        Route("/api/games/{game_id}/actions", _act, methods=["POST"]),
        Route("/api/games/{game_id}/undo", _undo, methods=["POST"]),
        Route("/api/games/{game_id}/hint", _hint, methods=["POST"]),
        Route("/api/games/{game_id}/record", _record),
        Route("/api/games/{game_id}/replay", _stored_replay),
        Route("/api/replay", _upload_replay, methods=["POST"]),
        WebSocketRoute("/api/games/{game_id}/ws", _socket),
        *assets.routes(),
    ]
    app = Starlette(
        routes=routes,
        # Outermost first; GZip leaves WebSockets and small or already encoded bodies alone.
        middleware=[Middleware(SecurityHeaders), Middleware(GZipMiddleware)],
        lifespan=lifespan,
        exception_handlers={
            ApiError: _api_error,
            StoreError: _store_error,
            HTTPException: _http_error,
            500: _crash,
        },
    )
    app.state.hub = hub
    app.state.assets = assets
    app.state.catalogues = {lang: _catalogue_response(lang) for lang in LANGUAGES}
    return app


# -- helpers -----------------------------------------------------------------------


def _going_away_on_sigterm(hub: Hub) -> None:
    """On SIGTERM, close this process's WebSockets with 1001 (going away: reconnect,
    perhaps to another process) before uvicorn's own shutdown, which would say 1012;
    then let uvicorn's handler go on (it waits for requests and writes under way)."""
    loop = asyncio.get_running_loop()
    uvicorn_handler = signal.getsignal(signal.SIGTERM)
    if not callable(uvicorn_handler):
        return

    async def go_away(sig: int, frame: Any) -> None:
        await _close_sockets(hub, timeout=1.5)
        uvicorn_handler(sig, frame)

    def handler(sig: int, frame: Any) -> None:
        loop.call_soon_threadsafe(lambda: loop.create_task(go_away(sig, frame)))

    with contextlib.suppress(ValueError):  # not the main thread (an embedded app): skip
        signal.signal(signal.SIGTERM, handler)


async def _close_sockets(hub: Hub, timeout: float) -> None:
    subscribers = [sub for room in hub.rooms.values() for sub in room.subscribers]
    for sub in subscribers:
        sub.outbox.put_nowait((None, GOING_AWAY, None))
    deadline = time.monotonic() + timeout
    while any(room.subscribers for room in hub.rooms.values()) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


def _hub(request: Request | WebSocket) -> Hub:
    return request.app.state.hub


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status)


async def _store_error(request: Request, exc: Exception) -> Response:
    return JSONResponse(ApiError.plain(503, f"{exc}; try again shortly").body(), status_code=503)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {
        404: N_("there is nothing at this address"),
        405: N_("that method is not allowed here"),
    }
    key = messages.get(exc.status_code)
    error = ApiError(exc.status_code, key) if key else ApiError.plain(exc.status_code, exc.detail)
    return JSONResponse(error.body(), status_code=exc.status_code)


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path, exc_info=exc)
    return JSONResponse(
        ApiError(500, "the server failed; nothing was changed").body(), status_code=500
    )


async def _json_body(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON body; 413 if larger than ``limit``, 400 if not JSON."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise ApiError(400, "the Content-Length header is not a number")
        if len(declared) > 12 or int(declared) > limit:
            raise ApiError(413, "the request is too large (at most {kb} KB)", kb=limit // 1024)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "the request is too large (at most {kb} KB)", kb=limit // 1024)
        chunks.append(chunk)
    return _loads(b"".join(chunks) or b"null", N_("the request body"))


def _loads(data: str | bytes, what: str) -> Any:
    """Parsed JSON; a 400 naming ``what`` for anything the parser refuses, including
    integers too long to convert and nesting too deep for the parser's recursion."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ApiError(400, "{what} is nested too deep to be a request", what=what) from None
    except json.JSONDecodeError as err:
        raise ApiError(400, "{what} is not valid JSON ({reason})", what=what, reason=err) from None
    except UnicodeDecodeError:
        raise ApiError(400, "{what} is not UTF-8 text", what=what) from None
    except ValueError:  # Python's limit on integer digits, not a JSON error
        raise ApiError(400, "{what} holds a number with too many digits", what=what) from None


def _object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ApiError(400, "send a JSON object")
    return body


def _bearer(request: Request) -> list[str]:
    header = request.headers.get("authorization")
    if header is None:
        return []
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "send the seat token as 'Authorization: Bearer <token>'")
    return [token.strip()]


async def _room_and_seats(request: Request) -> tuple[Room, frozenset[int]]:
    hub = _hub(request)
    room = await hub.fresh(request.path_params["game_id"])
    return room, hub.seats_for(room, _bearer(request), _account(request))


def _same_origin(conn: Request | WebSocket) -> bool:
    """Whether the request comes from our own page (or from no browser at all): a
    session cookie must not let another site act for its holder."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def _session_token(conn: Request | WebSocket) -> str | None:
    token = conn.cookies.get(COOKIE)
    return token if token and len(token) <= 100 else None


def _account(conn: Request | WebSocket) -> Account | None:
    """The signed-in account of a request, if any; 403 for a cross-site request
    carrying a session cookie."""
    token = _session_token(conn)
    if token is None:
        return None
    if not _same_origin(conn):
        raise ApiError(403, "requests from other sites cannot use your session")
    try:
        return _hub(conn).store.account_for_session(token)
    except StoreError as err:  # a WebSocket has no exception handlers: say 503 here
        raise ApiError.plain(503, f"{err}; try again shortly") from None


def _signed_in(request: Request) -> Account:
    account = _account(request)
    if account is None:
        raise ApiError(401, "sign in first")
    return account


def _socket_error(err: ApiError) -> dict[str, Any]:
    """An error over the WebSocket: ``message`` (English), and ``key``/``args``."""
    return {"message": err.message, "key": err.key, "args": err.params}


def _without_type(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "type"}


# -- pages -------------------------------------------------------------------------


async def _page(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    return assets.page_response(request)


def _catalogue_response(lang: str) -> tuple[bytes, str]:
    body = orjson.dumps(catalogue(lang))
    return body, f'W/"{hashlib.sha256(body).hexdigest()[:16]}"'


async def _catalogue(request: Request) -> Response:
    """The page's messages in one language (tabletop.i18n), revalidated by ETag."""
    found = request.app.state.catalogues.get(request.path_params["lang"])
    if found is None:
        raise ApiError(
            404,
            "there is no such language; the page speaks {languages}",
            languages=", ".join(LANGUAGES),
        )
    body, etag = found
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if etag.removeprefix("W/") in {
        t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")
    }:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


# -- HTTP API ----------------------------------------------------------------------


async def _types(request: Request) -> Response:
    return JSONResponse({"types": [t.describe() for t in web_games().values()]})


async def _create(request: Request) -> Response:
    hub = _hub(request)
    hub.check_rate("create", request.client.host if request.client else None)
    body = await _json_body(request)
    return JSONResponse(await hub.create(body, _account(request)), status_code=201)


async def _get_state(request: Request) -> Response:
    room, seats = await _room_and_seats(request)
    return JSONResponse(_without_type(_hub(request).state(room, seats)))


async def _act(request: Request) -> Response:
    body = _object(await _json_body(request))
    room, seats = await _room_and_seats(request)
    hub = _hub(request)
    room = await hub.act(room.id, seats, body.get("action"), body.get("ply"), body.get("seat"))
    return JSONResponse(_without_type(hub.state(room, seats)))


async def _undo(request: Request) -> Response:
    body = _object(await _json_body(request))
    room, seats = await _room_and_seats(request)
    hub = _hub(request)
    room = await hub.undo(room.id, seats, body.get("ply"), body.get("seat"))
    return JSONResponse(_without_type(hub.state(room, seats)))


async def _hint(request: Request) -> Response:
    body = _object(await _json_body(request))
    room, seats = await _room_and_seats(request)
    return JSONResponse(await _hub(request).hint(room, seats, body.get("ply"), body.get("seat")))


async def _finished_room(request: Request) -> Room:
    room = await _hub(request).fresh(request.path_params["game_id"])
    if not room.match.is_over():
        raise ApiError(409, "the record is available once the game is over (it shows the pile)")
    return room


async def _record(request: Request) -> Response:
    room = await _finished_room(request)
    record = room.match.record([s.name for s in room.seats])
    name = f"{room.type.name}-{room.id}.json"
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def _stored_replay(request: Request) -> Response:
    room = await _finished_room(request)
    record = room.match.record([s.name for s in room.seats])
    # which players are bots: the page shows a bot's name (its label) in its language
    return JSONResponse(
        {**_frames(room.type.name, record), "bots": [s.kind == "bot" for s in room.seats]}
    )


async def _upload_replay(request: Request) -> Response:
    record = await _json_body(request, MAX_RECORD)
    if not isinstance(record, dict):
        raise ApiError(400, "a record is a JSON object (see docs/records.md)")
    kind = record.get("game")
    types = web_games()
    if kind not in types:
        raise ApiError(
            422, "not a record of a game this server knows ({games})", games=", ".join(types)
        )
    return JSONResponse(_frames(kind, record))


def _frames(kind: str, record: dict[str, Any]) -> dict[str, Any]:
    try:
        frames = web_games()[kind].replay(record)
    except RecordError as err:
        raise ApiError(422, "invalid record: {reason}", reason=err) from None
    return {"game": kind, "players": record.get("players"), "frames": frames}


# -- accounts ------------------------------------------------------------------------


async def _credentials(request: Request) -> tuple[str, str]:
    """The checked name and password of a register or login request (rate-limited)."""
    _hub(request).check_rate("login", request.client.host if request.client else None)
    body = _object(await _json_body(request))
    try:
        return accounts.check_name(body.get("name")), accounts.check_password(body.get("password"))
    except AccountError as err:
        raise ApiError(400, str(err)) from None


async def _register(request: Request) -> Response:
    name, password = await _credentials(request)
    hub = _hub(request)
    key = accounts.name_key(name)
    if hub.store.account_named(key) is not None:
        raise ApiError(409, "that name is taken; choose another")
    password_hash = await accounts.hash_password(password)
    try:
        account_id = await hub.write(CreateAccount(name, key, password_hash))
    except ApiError:
        if hub.store.account_named(key) is None:
            raise  # not a race for the name: the database is down (503)
        raise ApiError(409, "that name is taken; choose another") from None
    return await _start_session(request, Account(account_id, name), 201)


async def _login(request: Request) -> Response:
    name, password = await _credentials(request)
    found = _hub(request).store.account_login(accounts.name_key(name))
    if not await accounts.verify_password(found and found[1], password) or found is None:
        raise ApiError(401, accounts.WRONG)
    return await _start_session(request, found[0], 200)


async def _start_session(request: Request, account: Account, status: int) -> Response:
    """A new session in the cookie; the one it replaces (if any) ends."""
    hub = _hub(request)
    old = _session_token(request)
    if old is not None:
        await hub.write(EndSession(hash_token(old)))
    token, token_hash = accounts.new_token()
    await hub.write(CreateSession(token_hash, account.id))
    response = JSONResponse({"account": {"name": account.name}}, status_code=status)
    response.set_cookie(
        COOKIE,
        token,
        max_age=accounts.COOKIE_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def _logout(request: Request) -> Response:
    token = _session_token(request)
    _account(request)  # refuses other sites
    if token is not None:
        await _hub(request).write(EndSession(hash_token(token)))
    return _signed_out()


async def _logout_everywhere(request: Request) -> Response:
    account = _signed_in(request)
    ended = await _hub(request).write(EndSessions(account.id))
    return _signed_out({"sessions_ended": ended})


def _signed_out(extra: dict[str, Any] | None = None) -> Response:
    response = JSONResponse({"account": None, **(extra or {})})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def _account_info(request: Request) -> Response:
    account = _account(request)
    if account is None:
        return JSONResponse({"account": None, "games": []})
    games = _hub(request).my_games(account)
    return JSONResponse({"account": {"name": account.name}, "games": games})


async def _lobby(request: Request) -> Response:
    return JSONResponse({"games": _hub(request).lobby()})


async def _join(request: Request) -> Response:
    body = _object(await _json_body(request))
    account = _account(request)
    return JSONResponse(
        await _hub(request).join(request.path_params["game_id"], account, body.get("seat"))
    )


async def _claim(request: Request) -> Response:
    account = _account(request)
    tokens = _bearer(request)
    return JSONResponse(await _hub(request).claim(request.path_params["game_id"], account, tokens))


async def _leaderboard(request: Request) -> Response:
    kind = request.path_params["type"]
    if kind not in web_games():
        raise ApiError(404, "this server hosts no such game")
    return JSONResponse(_hub(request).leaderboard(kind))


async def _player(request: Request) -> Response:
    hub = _hub(request)
    try:  # a name no account can have (say with a NUL, which PostgreSQL refuses) is unknown
        key = accounts.name_key(accounts.check_name(request.path_params["name"]))
    except AccountError:
        raise ApiError(404, "there is no player of that name") from None
    account = hub.store.account_named(key)
    if account is None:
        raise ApiError(404, "there is no player of that name")
    return JSONResponse(hub.profile(account))


# -- WebSocket -----------------------------------------------------------------------


async def _socket(ws: WebSocket) -> None:
    hub = _hub(ws)
    if _session_token(ws) is not None and not _same_origin(ws):
        await ws.close(code=4403)  # another site must not play with its visitor's session
        return
    await ws.accept()
    try:
        tokens = await _hello(ws)
        room = await hub.fresh(ws.path_params["game_id"])  # a reconnect misses nothing
        seats = hub.seats_for(room, tokens, _account(ws))
    except ApiError as err:
        await ws.send_json({"type": "error", "status": err.status, **_socket_error(err)})
        await ws.close(code=4000 + err.status)
        return
    except (WebSocketDisconnect, TimeoutError):
        return
    sub = Subscriber(seats)
    room.subscribers.add(sub)
    hub.broadcast(hub.room(room.id))  # everyone sees who is online; the newcomer its state
    writer = asyncio.create_task(_writer(ws, sub))
    try:
        while (text := await _next_text(ws)) is not None:
            await _handle(hub, room.id, sub, text)
    finally:
        writer.cancel()
        hub.rates["message"].forget(id(sub))
        for live in {room, hub.rooms.get(room.id)}:
            if live is not None:
                live.subscribers.discard(sub)
        if room.id in hub.rooms:
            hub.broadcast(hub.rooms[room.id])


async def _next_text(ws: WebSocket) -> str | None:
    """The next message as text; ``None`` once the client has gone."""
    try:
        message = await ws.receive()
    except RuntimeError:  # the socket was closed meanwhile (e.g. a failed send)
        return None
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return message["text"]
    return (message.get("bytes") or b"").decode("utf-8", "replace")


async def _hello(ws: WebSocket) -> list[str]:
    """The tokens of the client's hello (none: a spectator)."""
    text = await asyncio.wait_for(_next_text(ws), HELLO_TIMEOUT)
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
    return _object(_loads(text, N_("the message")))


async def _handle(hub: Hub, game_id: str, sub: Subscriber, text: str) -> None:
    """One client message; answers go through the subscriber's outbox, in order."""
    ref = None
    try:
        hub.check_rate("message", id(sub))  # before any parsing: a flood costs only this
        message = _parse_message(text)
        ref = message.get("id")
        kind = message.get("type")
        room = hub.room(game_id)
        if kind == "act":
            room = await hub.act(
                game_id, sub.seats, message.get("action"), message.get("ply"), message.get("seat")
            )
            sub.send({"type": "ack", "id": ref, "ply": room.ply})
        elif kind == "undo":
            room = await hub.undo(game_id, sub.seats, message.get("ply"), message.get("seat"))
            sub.send({"type": "ack", "id": ref, "ply": room.ply})
        elif kind == "hint":
            asyncio.get_running_loop().create_task(_hint_over_socket(hub, room, sub, message, ref))
        else:
            raise ApiError(400, "unknown message type; use act, undo or hint")
    except ApiError as err:
        sub.send({"type": "error", "id": ref, "status": err.status, **_socket_error(err)})


async def _hint_over_socket(
    hub: Hub, room: Room, sub: Subscriber, message: dict[str, Any], ref: Any
) -> None:
    try:
        hint = await hub.hint(room, sub.seats, message.get("ply"), message.get("seat"))
        sub.send({"type": "hint", "id": ref, **hint})
    except ApiError as err:
        sub.send({"type": "error", "id": ref, "status": err.status, **_socket_error(err)})


async def _writer(ws: WebSocket, sub: Subscriber) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            _, text, _ = await sub.outbox.get()
            if text is GOING_AWAY:
                await ws.close(code=1001, reason="the server is stopping; reconnect")
                return
            await ws.send_text(text)
