"""The HTTP API of games: create, state, act, undo, hint, records and replays,
the lobby and its seats (join, claim), and the leaderboards."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.web import RecordError, web_games
from .errors import ApiError, reading
from .jsontext import JSONResponse, dumps_bytes
from .readmodels import LEADERBOARDS
from .replays import CachedReplay, off_loop
from .request import (
    MAX_RECORD,
    account_of,
    bearer,
    hub_of,
    json_body,
    json_object,
    player_seats,
    room_and_seats,
)
from .room import Room


def action_of(message: dict[str, Any]) -> Any:
    """The action of an act: ``"action"`` in the game's notation, or ``"index"``, the
    research encoding's action index (docs/bot-api.md)."""
    if "index" not in message:
        action = message.get("action")
        if action is not None and not isinstance(action, str):
            raise ApiError(
                400,
                "'action' is a move in the game's notation, a text such as \"3@1,0\" "
                "(the legal ones are the state's choices); an action index goes in 'index'",
            )
        return action
    if "action" in message:
        raise ApiError(400, "send 'action' or 'index', not both")
    index = message["index"]
    if type(index) is not int or not 0 <= index < 2**31:
        raise ApiError(400, "'index' must be a whole number (an action index)")
    return index


def _without_type(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "type"}


async def _types(request: Request) -> Response:
    return JSONResponse({"types": [t.describe() for t in web_games().values()]})


async def _create(request: Request) -> Response:
    hub = hub_of(request)
    hub.check_rate("create", request.client.host if request.client else None)
    body = await json_body(request)
    return JSONResponse(await hub.create(body, account_of(request)), status_code=201)


async def _get_state(request: Request) -> Response:
    room, seats = await room_and_seats(request)
    return JSONResponse(_without_type(hub_of(request).encoder.state(room, seats)))


async def _act(request: Request) -> Response:
    body = json_object(await json_body(request))
    room, seats = await player_seats(request)
    hub = hub_of(request)
    action, ply, seat = action_of(body), body.get("ply"), body.get("seat")
    change = hub.authority.act(room.id, seats, action, ply, seat)
    return await _changed(request, room, seats, change)


async def _undo(request: Request) -> Response:
    body = json_object(await json_body(request))
    room, seats = await player_seats(request)
    hub = hub_of(request)
    change = hub.authority.undo(room.id, seats, body.get("ply"), body.get("seat"))
    return await _changed(request, room, seats, change)


async def _changed(
    request: Request, room: Room, seats: frozenset[int], change: Awaitable[Room]
) -> Response:
    """The seats' state after ``change``; a refusal because the game is not where
    the client saw it (409: moved on, another process first, over) carries the fresh
    state under ``"state"``, so the client need not ask again."""
    hub = hub_of(request)
    try:
        room = await change
    except ApiError as err:
        if err.status != 409:
            raise
        fresh = await hub.authority.fresh(room.id)
        state = _without_type(hub.encoder.state(fresh, seats))
        return JSONResponse({**err.body(), "state": state}, status_code=409)
    return JSONResponse(_without_type(hub.encoder.state(room, seats)))


async def _claim_timeout(request: Request) -> Response:
    """A waiting player ends a game whose opponent ran out of time (they lose)."""
    room, seats = await room_and_seats(request)
    hub = hub_of(request)
    change = hub.authority.claim_timeout(room.id, seats, hub.clock())
    return await _changed(request, room, seats, change)


async def _hint(request: Request) -> Response:
    body = json_object(await json_body(request))
    room, seats = await player_seats(request)
    return JSONResponse(
        await hub_of(request).scheduler.hint(room, seats, body.get("ply"), body.get("seat"))
    )


async def _finished_room(request: Request) -> Room:
    room = await hub_of(request).authority.fresh(request.path_params["game_id"])
    if not room.match.is_over():
        raise ApiError(
            409, "the record is available once the game is over (it shows what is hidden)"
        )
    return room


async def _record(request: Request) -> Response:
    room = await _finished_room(request)
    record = room.match.record([s.name for s in room.seats])
    name = f"{room.type.name}-{room.id}.json"
    return JSONResponse(record, headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def _stored_replay(request: Request) -> Response:
    """A finished game's frames: from the cache, or worked out on the replay thread
    (rate-limited per address) and kept (replays.py)."""
    hub = hub_of(request)
    game_id = request.path_params["game_id"]
    seats = _finished_seats(request, game_id)
    cached = None if seats is None else hub.replays.get(game_id, seats)
    if cached is None:
        hub.check_rate("replay", _address(request))
        room = await _finished_room(request)
        record = room.match.record([s.name for s in room.seats])
        kind = room.type.name
        # which players are bots: the page shows a bot's name (its label) in its language
        extra = {
            "bots": [s.kind == "bot" for s in room.seats],
            "analysable": room.type.analysis is not None and not room.row.abandoned,
        }
        made = await off_loop(
            lambda: CachedReplay.of(dumps_bytes({**_frames(kind, record), **extra}))
        )
        cached = made if seats is None else hub.replays.keep(game_id, seats, made)
    return _cached(request, cached)


def _finished_seats(request: Request, game_id: str) -> object | None:
    """What a finished game's replay depends on besides its moves (its seats' names
    change when an account is deleted); ``None`` while it is not finished."""
    store = hub_of(request).store
    row = reading(store.game, game_id)
    if row is None or not row.over:
        return None
    return row.abandoned, tuple((s.name, s.kind) for s in reading(store.seats, game_id))


def _cached(request: Request, replay: CachedReplay) -> Response:
    """The kept bytes, compressed when the browser takes gzip; 304 when it has them."""
    headers = {"ETag": replay.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if replay.etag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(replay.gzipped, media_type="application/json", headers=headers)
    return Response(replay.body, media_type="application/json", headers=headers)


async def _upload_replay(request: Request) -> Response:
    hub_of(request).check_rate("replay", _address(request))
    record = await json_body(request, MAX_RECORD)
    if not isinstance(record, dict):
        raise ApiError(400, "a record is a JSON object (see docs/records.md)")
    kind = record.get("game")
    types = web_games()
    if not isinstance(kind, str) or kind not in types:  # a list or object is unhashable
        raise ApiError(
            422, "not a record of a game this server knows ({games})", games=", ".join(types)
        )
    body = await off_loop(lambda: dumps_bytes(_frames(kind, record)))
    return Response(body, media_type="application/json")


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


def _frames(kind: str, record: dict[str, Any]) -> dict[str, Any]:
    try:
        frames = web_games()[kind].replay(record)
    except RecordError as err:
        raise ApiError(422, "invalid record: {reason}", reason=err) from None
    return {"game": kind, "players": record.get("players"), "frames": frames}


async def _lobby(request: Request) -> Response:
    query = request.query_params
    kind, limit = query.get("type"), query.get("time_limit")
    if kind is not None and kind not in web_games():
        raise ApiError(400, "'type' must be one of {games}", games=", ".join(web_games()))
    digits = limit is not None and limit.isascii() and limit.isdigit() and len(limit) <= 9
    if limit is not None and limit != "none" and not digits:
        raise ApiError(400, "'time_limit' is a number of seconds, or none")
    shown = None if limit is None else 0 if limit == "none" else int(limit)
    hub, reader = hub_of(request), account_of(request)
    hidden = frozenset() if reader is None else reading(hub.store.kept_apart, reader.id)
    return JSONResponse({"games": hub.reads.lobby(kind, shown, reader, hidden)})


async def _cancel(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    account = account_of(request)
    if account is None:
        raise ApiError(401, "sign in to withdraw a game you created")
    await hub_of(request).authority.withdraw(game_id, account)
    return JSONResponse({"id": game_id, "withdrawn": True})


async def _join(request: Request) -> Response:
    body = json_object(await json_body(request))
    account = account_of(request)
    return JSONResponse(
        await hub_of(request).authority.join(
            request.path_params["game_id"], account, body.get("seat")
        )
    )


async def _invitation(request: Request) -> Response:
    body = json_object(await json_body(request))
    game_id = request.path_params["game_id"]
    authority = hub_of(request).authority
    return JSONResponse(
        await authority.answer_invitation(game_id, account_of(request), body.get("accept"))
    )


async def _claim(request: Request) -> Response:
    account = account_of(request)
    tokens = bearer(request)
    return JSONResponse(
        await hub_of(request).authority.claim(request.path_params["game_id"], account, tokens)
    )


async def _leaderboard(request: Request) -> Response:
    kind = request.path_params["type"]
    if kind not in web_games():
        raise ApiError(404, "this server hosts no such game")
    offset = _query_int(request, "offset", 0, 0, 10**9)
    limit = _query_int(request, "limit", LEADERBOARD_PAGE, 1, LEADERBOARD_MAX)
    players = request.query_params.get("players", "people")
    if players not in LEADERBOARDS:
        raise ApiError(400, "'players' must be one of {names}", names=", ".join(LEADERBOARDS))
    account = account_of(request)
    board = hub_of(request).reads.leaderboard(kind, offset, limit, account, players)
    return JSONResponse(board)


LEADERBOARD_PAGE = 50  # players per page unless ``limit`` says otherwise
LEADERBOARD_MAX = 100


def _query_int(request: Request, name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter within ``low``..``high``; 400 otherwise."""
    text = request.query_params.get(name)
    if text is None:
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 10 or not low <= int(text) <= high:
        raise ApiError(
            400,
            "'{name}' must be a whole number from {low} to {high}",
            name=name,
            low=low,
            high=high,
        )
    return int(text)


ROUTES: list[BaseRoute] = [
    Route("/api/lobby", _lobby),
    Route("/api/leaderboard/{type}", _leaderboard),
    Route("/api/games/{game_id}/join", _join, methods=["POST"]),
    Route("/api/games/{game_id}/claim", _claim, methods=["POST"]),
    Route("/api/games/{game_id}/cancel", _cancel, methods=["POST"]),
    Route("/api/games/{game_id}/invitation", _invitation, methods=["POST"]),
    Route("/api/types", _types),
    Route("/api/games", _create, methods=["POST"]),
    Route("/api/games/{game_id}", _get_state),
    Route("/api/games/{game_id}/actions", _act, methods=["POST"]),
    Route("/api/games/{game_id}/undo", _undo, methods=["POST"]),
    Route("/api/games/{game_id}/hint", _hint, methods=["POST"]),
    Route("/api/games/{game_id}/timeout", _claim_timeout, methods=["POST"]),
    Route("/api/games/{game_id}/record", _record),
    Route("/api/games/{game_id}/replay", _stored_replay),
    Route("/api/replay", _upload_replay, methods=["POST"]),
]
