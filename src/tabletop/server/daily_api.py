"""The HTTP API of the daily challenge (``dailies``; docs/web.md, "Daily challenge").

* ``GET  /api/daily`` — today's deal (UTC) of every game: ``{"day", "games": [{"game",
  "title", "day", "seed", "you"}]}``, ``you`` being your counted attempt if any;
* ``POST /api/daily/{game}`` ``{"day"?: "YYYY-MM-DD"}`` — a game of that day's deal
  (today by default): with an account today's counted attempt, the same game on every
  later call; else, or for an earlier day, an uncounted practice game;
* ``GET  /api/daily/{game}/{day}`` (``?game=ID``: your uncounted game of that deal) —
  the day's results, best first, with ``you`` and, once you finished, ``planner`` (the
  game's strongest solo bot on the same deal) and ``hindsight`` (where the game has it);
* ``GET  /api/daily/{game}/{day}/bot?game=ID`` — the bot's game on that deal as replay
  frames, once your game ``ID`` of that deal is over (the replay page shows it beside
  yours).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.web import WebGame, web_games
from ..daily import DayError, parse_day, today
from .errors import ApiError
from .jsontext import JSONResponse
from .request import account_of, hub_of, json_body


def daily_games() -> dict[str, WebGame]:
    """The games with a daily challenge: every game of the page that seats the daily's
    players."""
    return {
        name: game
        for name, game in web_games().items()
        if game.min_seats <= game.daily_players <= game.max_seats
    }


def _game(request: Request) -> WebGame:
    found = daily_games().get(request.path_params["game"])
    if found is None:
        raise ApiError(
            404,
            "there is no daily challenge for that game; choose from {games}",
            games=", ".join(sorted(daily_games())),
        )
    return found


def _day(text: Any, now: date) -> date:
    try:
        return parse_day(text, now)
    except DayError as err:
        raise ApiError.of(400, err) from None


async def _today(request: Request) -> Response:
    dailies, account, now = hub_of(request).dailies, account_of(request), today()
    games = [dailies.today(game, now, account) for game in daily_games().values()]
    return JSONResponse({"day": now.isoformat(), "games": games})


async def _play(request: Request) -> Response:
    hub = hub_of(request)
    game = _game(request)
    body = await json_body(request)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        raise ApiError(400, 'send a JSON object, e.g. {"day": "2026-11-26"}, or nothing')
    unknown = sorted(set(body) - {"day"})
    if unknown:
        raise ApiError(400, "unknown field(s): {names}", names=", ".join(unknown))
    hub.check_rate("create", request.client.host if request.client else None)
    now = today()
    day = now if body.get("day") is None else _day(body["day"], now)
    answer = await hub.dailies.start(game, day, now, account_of(request))
    return JSONResponse(answer, status_code=201 if answer["created"] else 200)


async def _board(request: Request) -> Response:
    game = _game(request)
    day = _day(request.path_params["day"], today())
    own = request.query_params.get("game")
    board = hub_of(request).dailies.board(game, day, account_of(request), own)
    return JSONResponse(board)


async def _bot_game(request: Request) -> Response:
    game = _game(request)
    day = _day(request.path_params["day"], today())
    own = request.query_params.get("game")
    return JSONResponse(await hub_of(request).dailies.bot_game(game, day, own))


ROUTES: list[BaseRoute] = [
    Route("/api/daily", _today),
    Route("/api/daily/{game}", _play, methods=["POST"]),
    Route("/api/daily/{game}/{day}", _board),
    Route("/api/daily/{game}/{day}/bot", _bot_game),
]
