"""The HTTP API of the interactive tutorials (``core.tutorial``; docs/web.md, "Tutorials").

* ``GET  /api/tutorials/{game}`` — the lesson's script: its steps' texts (parts to
  translate), the action each asks for and what it highlights;
* ``POST /api/tutorials/{game}/position`` ``{"step", "played"}`` — the game at the start
  of ``step``, the learner's moves ``played`` replayed with every scripted one, as a
  state the game's own board draws;
* ``POST /api/tutorials/{game}/try`` ``{"step", "played", "action"}`` — the learner's
  try checked against the step and the rules: right (and the next step's position), or
  the kind of wrong try and one sentence why.

The server keeps nothing: each request replays the lesson from its scripted deal (a
few dozen moves at most), so a page resumes a lesson from what it stored itself, and a
bad request changes nothing. Every call spends one of the address's moves
(``RateLimits.actions_per_minute``): a lesson is played by hand.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.errors import ActionRejected
from ..core.tutorial import Lesson, TutorialError, describe_steps, lesson_state
from ..core.web import web_games
from .errors import ApiError
from .jsontext import JSONResponse
from .request import hub_of, json_body


def _lesson(request: Request) -> Lesson:
    games = {name: game for name, game in web_games().items() if game.tutorial is not None}
    found = games.get(request.path_params["game"])
    if found is None:
        raise ApiError(
            404,
            "there is no tutorial for that game; choose from {games}",
            games=", ".join(sorted(games)),
        )
    return Lesson(found)


async def _fields(request: Request, names: tuple[str, ...]) -> dict[str, Any]:
    """The request's JSON object, holding exactly ``names``; 400 otherwise."""
    hub_of(request).check_rate("action", ("tutorial", _address(request)))
    body = await json_body(request)
    if not isinstance(body, dict):
        raise ApiError(400, 'send a JSON object, e.g. {"step": 0, "played": []}')
    unknown = sorted(set(body) - set(names))
    if unknown:
        raise ApiError(400, "unknown field(s): {names}", names=", ".join(unknown))
    missing = [name for name in names if name not in body]
    if missing:
        raise ApiError(400, "missing field(s): {names}", names=", ".join(missing))
    return body


def _address(request: Request) -> str | None:
    return request.client.host if request.client else None


async def _script(request: Request) -> Response:
    return JSONResponse(describe_steps(_lesson(request)))


async def _position(request: Request) -> Response:
    lesson = _lesson(request)
    body = await _fields(request, ("step", "played"))
    try:
        at = lesson.position(body["step"], body["played"])
    except (TutorialError, ActionRejected) as err:
        raise ApiError.of(422, err) from None
    return JSONResponse({"step": body["step"], "state": lesson_state(lesson, body["step"], at)})


async def _try(request: Request) -> Response:
    lesson = _lesson(request)
    body = await _fields(request, ("step", "played", "action"))
    step, played = body["step"], body["played"]
    try:
        verdict = lesson.attempt(step, played, body["action"])
        if not verdict.correct:
            answer = {"correct": False, "kind": verdict.kind, "explanation": verdict.explanation}
            return JSONResponse(answer)
        moves = [*played, str(lesson.game.parse_action(body["action"]))]
        at = lesson.position(step + 1, moves)
    except (TutorialError, ActionRejected) as err:
        raise ApiError.of(422, err) from None
    state = lesson_state(lesson, step + 1, at)
    return JSONResponse({"correct": True, "step": step + 1, "played": moves, "state": state})


ROUTES: list[BaseRoute] = [
    Route("/api/tutorials/{game}", _script, methods=["GET"]),
    Route("/api/tutorials/{game}/position", _position, methods=["POST"]),
    Route("/api/tutorials/{game}/try", _try, methods=["POST"]),
]
