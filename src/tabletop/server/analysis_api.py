"""The HTTP API of post-game analyses: ask for one (``POST``), read it (``GET``).

A finished game is analysed once, in the background (``analyses.Analyst``); every
later viewer reads the stored analysis, and the best game with hindsight where the
game has one (``GET .../hindsight``: its frames, for the replay page to step through
beside the game). "Learn from your mistakes" reads a decision's position (``GET
.../analysis/{index}/position``) and has a move tried there judged (``POST
.../analysis/{index}/try``). Finished games' records are public to whoever has the game's
address, and so are their analyses.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..i18n import N_
from .errors import ApiError
from .jsontext import JSONResponse
from .request import hub_of, json_body, json_object

#: The longest action text a try may be (every game's notation is far shorter).
MAX_ACTION = 200
TRY_BODY = N_("a try is an object with one field, action: the move in the game's notation")


async def _request(request: Request) -> Response:
    hub = hub_of(request)
    hub.check_rate("create", request.client.host if request.client else None)
    shown = await hub.analyst.request(request.path_params["game_id"])
    return JSONResponse(shown, status_code=200 if shown["status"] == "done" else 202)


async def _read(request: Request) -> Response:
    return JSONResponse(hub_of(request).analyst.status(request.path_params["game_id"]))


def _index(request: Request) -> object:
    """The path's decision index as a number where it is one (else as it came: the
    analyst refuses it)."""
    text: str = request.path_params["index"]
    # isdigit() alone takes "²" and other digits int() refuses
    digits = text.isascii() and text.isdigit() and len(text) < 9
    return int(text) if digits else text


async def _boards(request: Request) -> Response:
    analyst = hub_of(request).analyst
    return JSONResponse(await analyst.boards(request.path_params["game_id"], _index(request)))


async def _position(request: Request) -> Response:
    analyst = hub_of(request).analyst
    return JSONResponse(await analyst.position(request.path_params["game_id"], _index(request)))


async def _try(request: Request) -> Response:
    """``{"action"}``: a move tried instead of decision ``index``'s, judged."""
    hub = hub_of(request)
    body = json_object(await json_body(request))
    action = body.get("action")
    if not isinstance(action, str) or not action or len(action) > MAX_ACTION or len(body) != 1:
        raise ApiError(400, TRY_BODY)
    address = request.client.host if request.client else None
    hub.check_rate("hint", ("try", address))
    game_id = request.path_params["game_id"]
    return JSONResponse(await hub.analyst.try_move(game_id, _index(request), action, address))


async def _hindsight(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return JSONResponse(await hub_of(request).analyst.hindsight_game(game_id))


ROUTES: list[BaseRoute] = [
    Route("/api/games/{game_id}/analysis", _request, methods=["POST"]),
    Route("/api/games/{game_id}/analysis", _read, methods=["GET"]),
    Route("/api/games/{game_id}/analysis/{index}", _boards, methods=["GET"]),
    Route("/api/games/{game_id}/analysis/{index}/position", _position, methods=["GET"]),
    Route("/api/games/{game_id}/analysis/{index}/try", _try, methods=["POST"]),
    Route("/api/games/{game_id}/hindsight", _hindsight, methods=["GET"]),
]
