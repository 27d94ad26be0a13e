"""``POST /api/test/clock`` ``{"seconds"}``: move the server's clock on (clock.py).

Only a server started with ``serve --test-clock`` has this route: a test of a time
limit, a session's expiry or an open seat's wait moves the clock past it instead of
waiting, then waits for what the server does (a state, a row). The answer is the
clock's new time, ``{"now": ISO time}``. Its one error is for tests only, so it is
not translated.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .clock import CLOCK
from .errors import ApiError
from .jsontext import JSONResponse
from .request import json_body, json_object

FURTHEST = 10 * 365 * 86400.0  # a move further than ten years is a test's mistake


async def _advance(request: Request) -> Response:
    seconds = json_object(await json_body(request)).get("seconds")
    if not isinstance(seconds, int | float) or isinstance(seconds, bool):
        seconds = -1.0  # not a number: refused below
    if not 0 <= seconds <= FURTHEST:
        raise ApiError.plain(400, "'seconds' is how far to move the clock on: 0 to ten years")
    CLOCK.advance(float(seconds))
    return JSONResponse({"now": CLOCK.stamp()})


ROUTES: list[BaseRoute] = [Route("/api/test/clock", _advance, methods=["POST"])]
