"""The HTTP API's OpenAPI 3.1 document, served at ``GET /api/openapi.json``.

Each route of the app is one entry of ``OPERATIONS`` (``(method, path)`` to its
operation, grouped like the modules that serve them), each WebSocket one entry of
``WEBSOCKETS`` (OpenAPI has no WebSockets: they are listed under the extension
``x-websockets`` so that client generators and fuzzers do not call them as HTTP),
and the pages under ``PAGES``. tests/platform/test_openapi.py fails when a route of
the app is missing here or an entry here names no route, and fuzzes every operation
against a live server with schemathesis (docs/web.md, "The OpenAPI document").

The operations are kept by area: those of games, analyses and
the daily challenge in ``openapi_games``, of accounts, fair play, the bot API and e-mail
in ``openapi_accounts``, the helpers and shared schemas in ``openapi_schemas``.

Adding a route: its ``Route`` in its module, and in its area's operations one line such as

    ("POST", "/api/games/{game_id}/claim"): op("Tie a seat to your account",
        GAMES, SEAT, body=obj(), ok=JOINED),

``op`` fills in the error answers every route has (``{"error", "key", "args"}``);
``obj``/``arr``/``text``/... are the JSON schemas of its body and answer.
"""

from __future__ import annotations

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .. import __version__ as VERSION
from .openapi_accounts import ACCOUNT_OPERATIONS
from .openapi_chat import CHAT_OPERATIONS
from .openapi_games import GAME_OPERATIONS, OF_A_NEW_GAME
from .openapi_moderation import MODERATION_OPERATIONS
from .openapi_schemas import (
    DAY,
    GAME_TYPES,
    JSON,
    NOBODY,
    SCHEMAS,
    SEAT_OR_NOT,
    SECURITY_SCHEMES,
    SIGNED_IN,
    game_links,
    integer,
    json_content,
    operation_id,
    ref,
    text,
)
from .openapi_tournaments import TOURNAMENT_OPERATIONS

#: Every route's operation, ``(method, path)`` to it, grouped like the modules that serve
#: them: those of games in ``openapi_games``, of accounts in ``openapi_accounts``
OPERATIONS: dict[tuple[str, str], JSON] = {
    **GAME_OPERATIONS,
    **ACCOUNT_OPERATIONS,
    **MODERATION_OPERATIONS,
    **CHAT_OPERATIONS,
    **TOURNAMENT_OPERATIONS,
}

#: The pages: one shell page for every address (the page's script draws it).
PAGES = (
    "/",
    "/g/{game_id}",
    "/replay",
    "/replay/{game_id}",
    "/lobby",
    "/daily",
    "/learn/{game}",
    "/me",
    "/leaderboard",
    "/leaderboard/{type}",
    "/u/{name}",
    "/mail/verify",
    "/mail/unsubscribe",
    "/friends",
    "/moderation",
    "/tournaments",
    "/t/{tournament_id}",
)

#: The WebSockets (``x-websockets``): OpenAPI describes none.
WEBSOCKETS: dict[str, JSON] = {
    "/api/games/{game_id}/ws": {
        "summary": "A game's socket: states as they change; act, undo and hint",
        "security": SEAT_OR_NOT,
        "description": 'Send {"type": "hello", "tokens": [seat tokens]} first; then '
        '{"type": "act"|"undo"|"hint", "ply", "action"?, "index"?, "seat"?, "id"?}. '
        'The server sends {"type": "state", ...}, {"type": "presence", ...}, '
        '{"type": "ack"|"error"|"hint", "id", ...}, and the chat: {"type": "chat", '
        '"messages", "history"?} and {"type": "chat_hidden", "names"} (docs/web.md, '
        "'Chat'). A refused hello or a session that "
        "ended: an error message, then close code 4000 + status (4401, 4403, 4410 "
        "withdrawn); 1001 when the server stops. docs/web.md, 'WebSocket'.",
    },
    "/api/account/ws": {
        "summary": "The account socket: every change of your games (the event stream)",
        "security": SIGNED_IN,
        "description": '{"type": "games", ...} first, then {"type": "game", "event", ...} '
        'per change and {"type": "gone", "id"}; without a credential an error and close '
        "4401; from another site close 4403. docs/web.md, 'The account socket'.",
    },
}

#: The mounted files (``x-static``): the page's scripts and styles.
STATIC = "/static"


def _page(path: str) -> JSON:
    params = [
        {"name": name, "in": "path", "required": True, "schema": text()}
        for name in _path_names(path)
    ]
    operation: JSON = {
        "summary": "The page (one shell for every address; Accept-Language picks its language)",
        "tags": ["pages"],
        "security": NOBODY,
        "responses": {
            "200": {"description": "the page", "content": {"text/html": {"schema": text()}}},
            "304": {"description": "If-None-Match holds the current ETag"},
        },
    }
    if params:
        operation["parameters"] = params
    return operation


def _path_names(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{")]


def _path_parameters(path: str) -> list[JSON]:
    return [
        {"name": name, "in": "path", "required": True, "schema": _PATH_SCHEMAS.get(name, text())}
        for name in _path_names(path)
    ]


_PATH_SCHEMAS: dict[str, JSON] = {
    "game_id": text(minLength=1, description="a game's id (its page: /g/{game_id})"),
    "token_id": text(description="a token's id (a whole number)"),
    "index": text(description="a decision's index: 0, 1, 2, ..."),
    "ply": text(description="a move's number in the game (its ply): 0, 1, 2, ..."),
    "day": DAY,
    "type": text(description="a game type: " + ", ".join(GAME_TYPES)),
    "game": text(description="a game type: " + ", ".join(GAME_TYPES)),
    "lang": text(description="en, de, nl"),
    "name": text(minLength=1, description="an account's name"),
    "warning_id": text(description="a warning's id (a whole number)"),
    "report_id": text(description="a report's id (a whole number)"),
    "tournament_id": text(minLength=1, description="an event's id (its page: /t/{id})"),
    "entrant": text(description="an entrant's number in the event: 1, 2, ..."),
}


def document() -> JSON:
    """The whole document (a new dict: callers may change it)."""
    paths: JSON = {}
    for (method, path), operation in OPERATIONS.items():
        entry = paths.setdefault(path, {})
        if path_params := _path_parameters(path):
            entry["parameters"] = path_params
        entry[method.lower()] = {"operationId": operation_id(method, path), **operation}
    for path in PAGES:
        paths[path] = {"get": _page(path)}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tabletop: board games in the browser",
            "version": VERSION,
            "description": "The HTTP API of a tabletop server (docs/web.md, 'HTTP API'; "
            "the bot API: docs/bot-api.md). Every refusal is a 4xx (5xx: the server's "
            'fault) with {"error", "key", "args"}. Integers beyond 2^53 - 1 (seeds are 62-bit) '
            "are sent as decimal strings, everywhere (JSON, sockets, streams), since a "
            "JavaScript number would round them; input takes a number or such a string.",
        },
        "paths": paths,
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": SECURITY_SCHEMES,
            "responses": {
                "Error": {"description": "refused", "content": json_content(ref("Error"))},
                "Unavailable": {
                    "description": "the database or the password hasher is busy: "
                    "try again after Retry-After seconds",
                    "headers": {"Retry-After": {"schema": integer(minimum=1)}},
                    "content": json_content(ref("Error")),
                },
            },
        },
        "x-websockets": WEBSOCKETS,
        "x-static": {
            "path": STATIC + "/{file}",
            "description": "the page's files; under /static/<content version>/ immutable",
        },
    }


_SERVED = orjson.dumps(document())


async def _openapi(request: Request) -> Response:
    return Response(_SERVED, media_type="application/json", headers={"Cache-Control": "no-cache"})


ROUTES: list[BaseRoute] = [Route("/api/openapi.json", _openapi)]

# what the document's tests read of it, wherever it lives
__all__ = [
    "OF_A_NEW_GAME",
    "OPERATIONS",
    "PAGES",
    "ROUTES",
    "STATIC",
    "WEBSOCKETS",
    "document",
    "game_links",
    "operation_id",
]
