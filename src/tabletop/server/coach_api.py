"""The HTTP API of a casual game's coach: the boards of a noted move (``GET``).

The notes themselves come with the game's state (``"coach"``, see ``coaching``), over
the socket as they are worked out; this draws one on request: the board after the
move played and after the better move, as the coached seat saw them. For the coached
player (their seat link or session) while the game runs, for anyone once it is over.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .jsontext import JSONResponse
from .request import hub_of, room_and_seats


async def _boards(request: Request) -> Response:
    text = request.path_params["ply"]
    # isdigit() alone takes "²" and other digits int() refuses
    digits = text.isascii() and text.isdigit() and len(text) < 9
    ply: object = int(text) if digits else text
    room, seats = await room_and_seats(request)
    return JSONResponse(await hub_of(request).coach.boards(room, seats, ply))


ROUTES: list[BaseRoute] = [
    Route("/api/games/{game_id}/coach/{ply}", _boards, methods=["GET"]),
]
