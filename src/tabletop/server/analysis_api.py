"""The HTTP API of post-game analyses: ask for one (``POST``), read it (``GET``).

A finished game is analysed once, in the background (``analyses.Analyst``); every
later viewer reads the stored analysis, and the best game with hindsight where the
game has one (``GET .../hindsight``: its frames, for the replay page to step through
beside the game). Finished games' records are public to whoever has the game's
address, and so are their analyses.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .jsontext import JSONResponse
from .request import hub_of


async def _request(request: Request) -> Response:
    hub = hub_of(request)
    hub.check_rate("create", request.client.host if request.client else None)
    shown = await hub.analyst.request(request.path_params["game_id"])
    return JSONResponse(shown, status_code=200 if shown["status"] == "done" else 202)


async def _read(request: Request) -> Response:
    return JSONResponse(hub_of(request).analyst.status(request.path_params["game_id"]))


async def _boards(request: Request) -> Response:
    text = request.path_params["index"]
    # isdigit() alone takes "²" and other digits int() refuses
    digits = text.isascii() and text.isdigit() and len(text) < 9
    index: object = int(text) if digits else text
    return JSONResponse(await hub_of(request).analyst.boards(request.path_params["game_id"], index))


async def _hindsight(request: Request) -> Response:
    game_id = request.path_params["game_id"]
    return JSONResponse(await hub_of(request).analyst.hindsight_game(game_id))


ROUTES: list[BaseRoute] = [
    Route("/api/games/{game_id}/analysis", _request, methods=["POST"]),
    Route("/api/games/{game_id}/analysis", _read, methods=["GET"]),
    Route("/api/games/{game_id}/analysis/{index}", _boards, methods=["GET"]),
    Route("/api/games/{game_id}/hindsight", _hindsight, methods=["GET"]),
]
