"""The HTTP API's OpenAPI 3.1 document, served at ``GET /api/openapi.json``.

Each route of the app is one entry of ``OPERATIONS`` (``(method, path)`` to its
operation, grouped like the modules that serve them), each WebSocket one entry of
``WEBSOCKETS`` (OpenAPI has no WebSockets: they are listed under the extension
``x-websockets`` so that client generators and fuzzers do not call them as HTTP),
and the pages under ``PAGES``. tests/platform/test_openapi.py fails when a route of
the app is missing here or an entry here names no route, and fuzzes every operation
against a live server with schemathesis (docs/web.md, "The OpenAPI document").

Adding a route: its ``Route`` in its module, and beside it here one line such as

    ("POST", "/api/games/{game_id}/claim"): op("Tie a seat to your account",
        GAMES, SEAT, body=obj(), ok=JOINED),

``op`` fills in the error answers every route has (``{"error", "key", "args"}``);
``obj``/``arr``/``text``/... are the JSON schemas of its body and answer.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .. import __version__ as VERSION
from ..core.web import web_games

JSON = dict[str, Any]

# -- JSON schemas ----------------------------------------------------------------------


def ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def text(**more: Any) -> JSON:
    return {"type": "string", **more}


def integer(**more: Any) -> JSON:
    return {"type": "integer", **more}


def boolean() -> JSON:
    return {"type": "boolean"}


def number() -> JSON:
    return {"type": "number"}


def nullable(schema: JSON) -> JSON:
    return {"anyOf": [schema, {"type": "null"}]}


def arr(items: JSON | None = None, **more: Any) -> JSON:
    return {"type": "array", "items": items or {}, **more}


def obj(required: tuple[str, ...] = (), closed: bool = False, **properties: JSON) -> JSON:
    """An object of ``properties``; ``closed``: the server refuses any other field."""
    schema: JSON = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    if closed:
        schema["additionalProperties"] = False
    return schema


ANY_OBJECT: JSON = {"type": "object"}
PLY = integer(minimum=0, description="the move count of the state you saw (a stale one: 409)")
SEAT_NUMBER = integer(minimum=0, description="which of your seats (a hot-seat client's)")

SCHEMAS: JSON = {
    "Error": obj(
        ("error", "key", "args"),
        error=text(description="the message in English"),
        key=nullable(text(description="its msgid, with {name} placeholders (docs/web.md)")),
        args={"type": "object", "description": "the placeholders' values"},
        state={"type": "object", "description": "409 of a move: the fresh state"},
    ),
    "State": obj(
        ("game", "ply", "over"),
        game=ANY_OBJECT,
        ply=integer(minimum=0),
        over=boolean(),
        you=arr(integer()),
        acting=nullable(integer()),
        active=arr(integer()),
        to_move=nullable(integer()),
        choices=nullable(arr(ANY_OBJECT)),
        view=ANY_OBJECT,
        log=arr(),
        log_start=integer(minimum=0),
    ),
    "Account": obj(("name",), name=text(), bot=boolean()),
    "AccountGame": obj(("id", "type"), id=text(), type=text(), seat=nullable(integer())),
    "Seated": obj(("id", "seat", "url"), id=text(), seat=integer(), url=text()),
    "Token": obj(
        ("id", "name", "scopes", "created"),
        id=integer(),
        name=text(),
        scopes=arr(text(enum=["play", "read"])),
        created=text(),
        last_used=nullable(text()),
    ),
    "Record": obj(("game",), game=text(description="nova-luna, nmbr9"), players=arr()),
    "Frames": obj(("game", "frames"), game=text(), players=nullable(arr()), frames=arr()),
    "MailSettings": obj(
        ("offered",),
        offered=boolean(),
        address=nullable(text()),
        verified=boolean(),
        mode=text(enum=["off", "turn", "digest"]),
        lang=nullable(text()),
        verification_sent=boolean(),
    ),
    "Analysis": obj(("status",), status=text()),
}

# -- security ----------------------------------------------------------------------------

SECURITY_SCHEMES: JSON = {
    "session": {
        "type": "apiKey",
        "in": "cookie",
        "name": "session",
        "description": "a person signed in on the page (POST /api/account/login); "
        "refused from other sites (Origin)",
    },
    "botToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "a bot account's API token, 'Authorization: Bearer tbt_...' "
        "(docs/bot-api.md); scopes play and read",
    },
    "seatToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "a seat link's secret, 'Authorization: Bearer <token>': plays that seat",
    },
}

ANYONE: list[JSON] = [{}, {"session": []}, {"botToken": []}]  # reads more when signed in
SIGNED_IN: list[JSON] = [{"session": []}, {"botToken": []}]
ON_THE_PAGE: list[JSON] = [{"session": []}]  # with the password, never with a token
SEAT: list[JSON] = [{"seatToken": []}, {"session": []}, {"botToken": []}]
SEAT_OR_NOT: list[JSON] = [{}, *SEAT]  # a spectator without one
NOBODY: list[JSON] = [{}]  # a link's own signature, or nothing secret

# -- tags (the modules) -----------------------------------------------------------------

GAMES, ACCOUNTS, BOTS, ANALYSIS, DAILY, MAIL, META = (
    "games",
    "accounts",
    "bot API",
    "analysis",
    "daily",
    "mail",
    "meta",
)

# -- operations -------------------------------------------------------------------------

ERRORS = {
    "400": "malformed: not JSON, a wrong type, a missing or bad field",
    "401": "a credential is needed, or is unknown or revoked",
    "403": "not yours, a read-only token, another site's request",
    "404": "no such thing",
    "409": "not now: the state changed, the game is (not) over, taken",
    "413": "the body is too large (64 KB; records 2 MB)",
    "422": "well formed but refused by the game's rules, or a broken record",
    "429": "too many requests: wait Retry-After seconds",
}


def json_content(schema: JSON) -> JSON:
    return {"application/json": {"schema": schema}}


def op(
    summary: str,
    tag: str,
    security: list[JSON],
    *,
    body: JSON | None = None,
    ok: JSON | None = None,
    status: str = "200",
    more: dict[str, JSON] | None = None,
    params: tuple[JSON, ...] = (),
    description: str | None = None,
    body_optional: bool = False,
    links: JSON | None = None,
) -> JSON:
    """One operation: its ``ok`` answer (JSON of that schema) under ``status``, ``more``
    answers as they are, and the error answers every route may give; ``links``: the
    operations the ``ok`` answer leads to (OpenAPI links: schemathesis follows them)."""
    done: JSON = {"description": "done", "content": json_content(ok or ANY_OBJECT)}
    if links:
        done["links"] = links
    responses: JSON = {status: done}
    responses.update(more or {})
    error = {"$ref": "#/components/responses/Error"}
    for code in ERRORS:
        responses.setdefault(code, error)
    responses["503"] = {"$ref": "#/components/responses/Unavailable"}
    operation: JSON = {"summary": summary, "tags": [tag], "security": security}
    if description:
        operation["description"] = description
    if params:
        operation["parameters"] = list(params)
    if body is not None:
        operation["requestBody"] = {"required": not body_optional, "content": json_content(body)}
    operation["responses"] = responses
    return operation


def query(name: str, schema: JSON, description: str = "") -> JSON:
    return {"name": name, "in": "query", "required": False, "schema": schema,
            "description": description}  # fmt: skip


NDJSON = {
    "description": "one JSON object per line, as long as the connection stays open "
    "(an empty line every 20 s when quiet)",
    "content": {"application/x-ndjson": {"schema": text()}},
}
DOWNLOAD = "a download: Content-Disposition: attachment"

GAME_TYPES = sorted(web_games())
#: every game's options (``GameType.check_options``): a new game adds its own here
GAME_OPTIONS: dict[str, JSON] = {
    "first_game": boolean(),  # Nova Luna
    "remove": {"anyOf": [integer(minimum=0, maximum=19), {"const": "random"}]},  # NMBR 9
    "time_limit": nullable(integer(minimum=1)),  # NMBR 9's own move clock
    "clock": nullable(integer(minimum=1)),  # its old name
}
CREATE_SEAT = obj(
    ("kind",),
    kind=text(enum=["human", "bot"]),
    name=text(description="a human seat's name"),
    bot=text(description="a bot seat's bot, e.g. greedy, mcts:normal (GET /api/types)"),
    me=boolean(),
    open=boolean(),
    invite=text(description="an account invited to the seat"),
)
CREATE = obj(
    ("seats",),
    type=text(enum=GAME_TYPES, description="a game type (default: the first)"),
    seats=arr(CREATE_SEAT, minItems=1, maxItems=max(g.max_seats for g in web_games().values())),
    # each game refuses the options it does not know
    options={"type": "object", "properties": GAME_OPTIONS, "additionalProperties": False},
    seed=integer(minimum=0, maximum=2**63 - 1),
    time_limit=nullable(integer(minimum=1)),
    on_timeout=text(enum=["bot", "abandon"]),
    rated=boolean(),  # false: a casual game (hints and undo allowed, nobody rated)
)
CREATED = obj(("id", "url", "seats"), id=text(), url=text(), seats=arr(ANY_OBJECT))
ACT = {
    **obj(
        ("ply",),
        action=text(description="the move in the game's notation, e.g. 3@1,0 (docs/records.md)"),
        index=integer(minimum=0, maximum=2**31 - 1, description="the research encoding's index"),
        ply=PLY,
        seat=SEAT_NUMBER,
    ),
    "oneOf": [{"required": ["action"]}, {"required": ["index"]}],  # one, not both
}
PLIED = obj(("ply",), ply=PLY, seat=SEAT_NUMBER)
PASSWORD = text(minLength=8, maxLength=200)
CREDENTIALS = obj(
    ("name", "password"),
    name=text(minLength=2, description="2 to 24 visible characters"),
    password=PASSWORD,
)
BLOCKED = obj(("blocked",), blocked=arr(obj(("name",), name=text())))
SIGNED_IN_ANSWER = obj(("account",), account=ref("Account"))
SIGNED_OUT = obj(
    ("account",), account={"type": "null"}, sessions_ended=integer(), deleted=boolean()
)
LEADERBOARD_QUERY = (
    query("offset", integer(minimum=0, maximum=10**9)),
    query("limit", integer(minimum=1, maximum=100)),
    query("players", text(enum=["people", "bots"])),
)
DAY = text(pattern=r"^\d{4}-\d{2}-\d{2}$", description="YYYY-MM-DD (UTC)")


def game_links(*operations: tuple[str, str]) -> JSON:
    """Links from an answer holding a game's ``id`` to ``operations`` of that game."""
    return {
        operation_id(method, path): {
            "operationId": operation_id(method, path),
            "parameters": {"game_id": "$response.body#/id"},
        }
        for method, path in operations
    }


def operation_id(method: str, path: str) -> str:
    """``post_api_games_game_id_actions``: the method and the path's words."""
    words = "".join(c if c.isalnum() else " " for c in path).split()
    return "_".join([method.lower(), *words])


A_GAME = "/api/games/{game_id}"
OF_A_NEW_GAME = (
    ("GET", A_GAME),
    ("POST", A_GAME + "/actions"),
    ("POST", A_GAME + "/undo"),
    ("POST", A_GAME + "/hint"),
    ("POST", A_GAME + "/resign"),
    ("POST", A_GAME + "/cancel"),
    ("POST", A_GAME + "/join"),
    ("POST", A_GAME + "/invitation"),
    ("GET", A_GAME + "/seat-record"),
    ("GET", A_GAME + "/record"),
    ("GET", A_GAME + "/replay"),
    ("POST", A_GAME + "/analysis"),
)

OPERATIONS: dict[tuple[str, str], JSON] = {
    # -- meta
    ("GET", "/api/openapi.json"): op("This document", META, NOBODY, ok=ANY_OBJECT),
    ("GET", "/i18n/{lang}.json"): op(
        "The page's messages in a language (en, de, nl); ETag revalidation",
        META,
        NOBODY,
        ok={"type": "object", "additionalProperties": True},
        more={"304": {"description": "If-None-Match holds the current ETag"}},
    ),
    # -- games (games_api.py)
    ("GET", "/api/types"): op(
        "The games hosted: bots per mode, options, each game's static facts",
        GAMES,
        NOBODY,
        ok=obj(("types",), types=arr(obj(("name",), name=text()))),
    ),
    ("POST", "/api/games"): op(
        "Create a game; each human seat's secret link is in the answer",
        GAMES,
        ANYONE,
        body=CREATE,
        ok=CREATED,
        status="201",
        links=game_links(*OF_A_NEW_GAME),
        description="`me`, `open` and `invite` seats need an account (401).",
    ),
    ("GET", "/api/games/{game_id}"): op(
        "A game's state (as a seat with its credential, else a spectator)",
        GAMES,
        SEAT_OR_NOT,
        ok=ref("State"),
    ),
    ("POST", "/api/games/{game_id}/actions"): op(
        "Act: a move by notation ('action') or action index ('index')",
        GAMES,
        SEAT,
        body=ACT,
        ok=ref("State"),
        description="401 for a spectator, 403 for another game's token or a bot account "
        "without a seat here, 409 stale ply or not your turn (the fresh state under "
        "`state`), 422 illegal.",
    ),
    ("POST", "/api/games/{game_id}/undo"): op(
        "Take back your last move", GAMES, SEAT, body=PLIED, ok=ref("State")
    ),
    ("POST", "/api/games/{game_id}/hint"): op(
        "A hint from the hint bot (a casual game only: 409 in a rated one)",
        GAMES,
        SEAT,
        body=PLIED,
        ok=obj(("action",), action=text(), reason=ANY_OBJECT, ply=integer()),
    ),
    ("POST", "/api/games/{game_id}/timeout"): op(
        "Claim a stalled game: the opponents out of time lose",
        GAMES,
        SEAT,
        ok=ref("State"),
        description="409 (the fresh state under `state`) while no opponent is out of time, "
        "when you are out of time too, the game is over, or running out plays a bot.",
    ),
    ("GET", "/api/games/{game_id}/record"): op(
        "A finished game's record (docs/records.md), " + DOWNLOAD,
        GAMES,
        NOBODY,
        ok=ref("Record"),
    ),
    ("GET", "/api/games/{game_id}/replay"): op(
        "A finished game's frames for the replay page (cached: ETag, If-None-Match)",
        GAMES,
        NOBODY,
        ok=obj(("game", "frames", "bots"), game=text(), frames=arr(), bots=arr(boolean())),
        more={"304": {"description": "If-None-Match holds the current ETag"}},
    ),
    ("POST", "/api/replay"): op(
        "The frames of an uploaded record (at most 2 MB)",
        GAMES,
        NOBODY,
        body=ref("Record"),
        ok=ref("Frames"),
    ),
    ("GET", "/api/lobby"): op(
        "The open games",
        GAMES,
        NOBODY,
        params=(
            query("type", text(), "a game type"),
            query("time_limit", text(pattern=r"^(none|\d{1,9})$"), "seconds per move, or none"),
        ),
        ok=obj(("games",), games=arr(ANY_OBJECT)),
    ),
    ("POST", "/api/games/{game_id}/cancel"): op(
        "Its creator withdraws an open game",
        GAMES,
        SIGNED_IN,
        ok=obj(("id", "withdrawn"), id=text(), withdrawn=boolean()),
    ),
    ("POST", "/api/games/{game_id}/join"): op(
        "Take an open seat", GAMES, SIGNED_IN, body=obj(seat=integer()), ok=ref("Seated")
    ),
    ("POST", "/api/games/{game_id}/claim"): op(
        "Tie a seat link's seat to your account",
        GAMES,
        [{"seatToken": [], "session": []}],
        ok=ref("Seated"),
    ),
    ("POST", "/api/games/{game_id}/invitation"): op(
        "The invited account accepts or declines",
        GAMES,
        SIGNED_IN,
        body=obj(("accept",), accept=boolean()),
        ok=obj(("id",), id=text(), seat=integer(), url=text(), declined=boolean()),
    ),
    ("GET", "/api/leaderboard/{type}"): op(
        "A page of a game's leaderboard",
        GAMES,
        ANYONE,
        params=LEADERBOARD_QUERY,
        ok=obj(("players", "total"), players=arr(ANY_OBJECT), total=integer()),
    ),
    # -- accounts (accounts_api.py)
    ("GET", "/api/account"): op(
        "You and your games (signed out: account null)",
        ACCOUNTS,
        ANYONE,
        ok=obj(
            ("account", "games"),
            account=nullable(ref("Account")),
            games=arr(ref("AccountGame")),
            may_become_bot=boolean(),
        ),
        description="401 for an Authorization header that holds no API token.",
    ),
    ("POST", "/api/account/register"): op(
        "A new account, signed in (the session cookie)",
        ACCOUNTS,
        NOBODY,
        body=CREDENTIALS,
        ok=SIGNED_IN_ANSWER,
        status="201",
    ),
    ("POST", "/api/account/login"): op(
        "Sign in (the session cookie)", ACCOUNTS, NOBODY, body=CREDENTIALS, ok=SIGNED_IN_ANSWER
    ),
    ("POST", "/api/account/logout"): op(
        "End this session", ACCOUNTS, [{}, {"session": []}], ok=SIGNED_OUT
    ),
    ("POST", "/api/account/logout-everywhere"): op(
        "End every session of the account", ACCOUNTS, SIGNED_IN, ok=SIGNED_OUT
    ),
    ("POST", "/api/account/password"): op(
        "A new password; every other session ends, and the API tokens unless kept",
        ACCOUNTS,
        SIGNED_IN,
        body=obj(
            ("password", "new_password"),
            password=PASSWORD,
            new_password=PASSWORD,
            keep_tokens=boolean(),  # else the account's API tokens are revoked too
        ),
        ok=obj(
            ("account", "sessions_ended"),
            account=ref("Account"),
            sessions_ended=integer(),
            tokens_revoked=integer(),
        ),
    ),
    ("POST", "/api/account/delete"): op(
        "Delete the account (its running games resigned first)",
        ACCOUNTS,
        SIGNED_IN,
        body=obj(("password",), password=PASSWORD),
        ok=SIGNED_OUT,
    ),
    ("GET", "/api/account/data"): op(
        "Everything stored of the account, " + DOWNLOAD,
        ACCOUNTS,
        SIGNED_IN,
        ok=obj(
            ("account", "ratings", "games"),
            account=ANY_OBJECT,
            ratings=ANY_OBJECT,
            games=arr(ANY_OBJECT),
        ),  # fmt: skip
    ),
    # -- fair play (invitations_api.py)
    ("GET", "/api/account/blocks"): op("The accounts you blocked", ACCOUNTS, SIGNED_IN, ok=BLOCKED),
    ("POST", "/api/account/blocks"): op(
        "Block an account: its waiting invitations declined, no new ones",
        ACCOUNTS,
        SIGNED_IN,
        body=obj(("name",), name=text()),
        ok=obj(
            ("blocked", "declined"), blocked=BLOCKED["properties"]["blocked"], declined=arr(text())
        ),  # fmt: skip
    ),
    ("POST", "/api/account/blocks/remove"): op(
        "Unblock an account", ACCOUNTS, SIGNED_IN, body=obj(("name",), name=text()), ok=BLOCKED
    ),
    ("POST", "/api/account/invitations/decline"): op(
        "Decline every invitation waiting for you",
        ACCOUNTS,
        SIGNED_IN,
        ok=obj(("declined",), declined=arr(text())),
    ),
    ("GET", "/api/players/{name}"): op(
        "A player's profile: ratings and finished games",
        ACCOUNTS,
        NOBODY,
        ok=obj(("name", "ratings"), name=text(), bot=boolean(), ratings=ANY_OBJECT),
    ),
    # -- the bot API (bot_api.py, account_socket.py; docs/bot-api.md)
    ("POST", "/api/account/bot"): op(
        "Turn the signed-in account into a bot account, for good",
        BOTS,
        ON_THE_PAGE,
        body=obj(("password",), password=PASSWORD),
        ok=obj(("account",), account=ref("Account")),
    ),
    ("GET", "/api/account/tokens"): op(
        "The bot account's API tokens (never the secrets)",
        BOTS,
        ON_THE_PAGE,
        ok=obj(("tokens",), tokens=arr(ref("Token"))),
    ),
    ("POST", "/api/account/tokens"): op(
        "A new API token: the secret is in the answer, this once",
        BOTS,
        ON_THE_PAGE,
        body=obj(
            ("name",),
            name=text(minLength=1, maxLength=40),
            scopes=arr(text(enum=["play", "read"]), minItems=1),
        ),
        ok={"allOf": [ref("Token"), obj(("token",), token=text(pattern="^tbt_"))]},
        status="201",
        links={
            "revoke": {
                "operationId": operation_id("POST", "/api/account/tokens/{token_id}/revoke"),
                "parameters": {"token_id": "$response.body#/id"},
            }
        },
    ),
    ("POST", "/api/account/tokens/revoke-all"): op(
        "Revoke every API token of the account (on the page: 403 with a token)",
        BOTS,
        ON_THE_PAGE,
        ok=obj(("revoked",), revoked=integer()),
    ),
    ("POST", "/api/account/tokens/{token_id}/revoke"): op(
        "Revoke a token: its requests get 401, its streams close",
        BOTS,
        ON_THE_PAGE,
        ok=obj(("id", "revoked"), id=integer(), revoked=boolean()),
    ),
    ("GET", "/api/bots"): op(
        "The bot accounts online (an event stream open)",
        BOTS,
        NOBODY,
        ok=obj(("bots",), bots=arr(obj(("name",), name=text()))),
    ),
    ("GET", "/api/account/events"): op(
        "The account's events as NDJSON (the account socket's messages)",
        BOTS,
        SIGNED_IN,
        ok=text(),
        more={"200": NDJSON},
    ),
    ("GET", "/api/games/{game_id}/stream"): op(
        "The game's states for your seats as NDJSON (the game socket's)",
        BOTS,
        SEAT_OR_NOT,
        ok=text(),
        more={"200": NDJSON},
    ),
    ("GET", "/api/games/{game_id}/seat-record"): op(
        "The game so far as your seat has seen it",
        BOTS,
        SEAT,
        params=(query("seat", text(pattern=r"^\d{1,9}$"), "which of your seats"),),
        ok=obj(("seat", "ply", "record"), seat=integer(), ply=integer(), record=ANY_OBJECT),
    ),
    ("POST", "/api/games/{game_id}/resign"): op(
        "Resign: you lose as a seat out of time would",
        BOTS,
        SEAT,
        body=obj(seat=SEAT_NUMBER),
        ok=ref("State"),
    ),
    # -- analysis (analysis_api.py)
    ("POST", "/api/games/{game_id}/analysis"): op(
        "Ask for a finished game's analysis (202 while it runs)",
        ANALYSIS,
        NOBODY,
        ok=ref("Analysis"),
        more={
            "202": {"description": "queued or running", "content": json_content(ref("Analysis"))}
        },  # fmt: skip
    ),
    ("GET", "/api/games/{game_id}/analysis"): op(
        "A game's analysis, or how far it is", ANALYSIS, NOBODY, ok=ref("Analysis")
    ),
    ("GET", "/api/games/{game_id}/analysis/{index}"): op(
        "The board after a decision as played and with the best move",
        ANALYSIS,
        NOBODY,
        ok=ANY_OBJECT,
    ),
    # -- the daily challenge (daily_api.py)
    ("GET", "/api/daily"): op(
        "Today's deal of every game",
        DAILY,
        ANYONE,
        ok=obj(("day", "games"), day=text(), games=arr(ANY_OBJECT)),
    ),
    ("POST", "/api/daily/{game}"): op(
        "A game of a day's deal (today: counted, with an account)",
        DAILY,
        ANYONE,
        body=nullable(obj(closed=True, day=nullable(DAY))),
        body_optional=True,
        ok=obj(("created",), created=boolean()),
        status="201",
        more={
            "200": {
                "description": "your counted game of the day, again",
                "content": json_content(obj(("created",), created=boolean())),
            }
        },  # fmt: skip
    ),
    ("GET", "/api/daily/{game}/{day}"): op(
        "A day's results board",
        DAILY,
        ANYONE,
        params=(query("game", text(), "your uncounted game of that deal"),),
        ok=ANY_OBJECT,
    ),
    # -- e-mail (mail_api.py)
    ("GET", "/api/account/email"): op(
        "Your e-mail notifications", MAIL, SIGNED_IN, ok=ref("MailSettings")
    ),
    ("POST", "/api/account/email"): op(
        "Save your address and choice (a new address gets a verification mail)",
        MAIL,
        SIGNED_IN,
        body=obj(
            address=nullable(text()),
            mode=text(enum=["off", "turn", "digest"]),
            lang=text(enum=["en", "de", "nl"]),
        ),
        ok=ref("MailSettings"),
        description="404 on a server that sends no mail.",
    ),
    ("POST", "/api/mail/verify"): op(
        "Verify an address (the link in the mail)",
        MAIL,
        NOBODY,
        body=obj(("token",), token=text()),
        ok=obj(("verified", "address"), verified=boolean(), address=text()),
    ),
    ("POST", "/api/mail/unsubscribe"): op(
        "Stop the mails in one click (RFC 8058)",
        MAIL,
        NOBODY,
        params=({**query("token", text()), "required": True},),
        ok=obj(("unsubscribed", "address"), unsubscribed=boolean(), address=text()),
    ),
}

#: The pages: one shell page for every address (the page's script draws it).
PAGES = (
    "/",
    "/g/{game_id}",
    "/replay",
    "/replay/{game_id}",
    "/lobby",
    "/daily",
    "/me",
    "/leaderboard",
    "/leaderboard/{type}",
    "/u/{name}",
    "/mail/verify",
    "/mail/unsubscribe",
)

#: The WebSockets (``x-websockets``): OpenAPI describes none.
WEBSOCKETS: dict[str, JSON] = {
    "/api/games/{game_id}/ws": {
        "summary": "A game's socket: states as they change; act, undo and hint",
        "security": SEAT_OR_NOT,
        "description": 'Send {"type": "hello", "tokens": [seat tokens]} first; then '
        '{"type": "act"|"undo"|"hint", "ply", "action"?, "index"?, "seat"?, "id"?}. '
        'The server sends {"type": "state", ...}, {"type": "presence", ...}, '
        '{"type": "ack"|"error"|"hint", "id", ...}. A refused hello or a session that '
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
    "day": DAY,
    "type": text(description="a game type: " + ", ".join(GAME_TYPES)),
    "game": text(description="a game type: " + ", ".join(GAME_TYPES)),
    "lang": text(description="en, de, nl"),
    "name": text(minLength=1, description="an account's name"),
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
            'fault) with {"error", "key", "args"}.',
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
