"""The pieces of the OpenAPI document (``openapi``): JSON schema helpers (``obj``,
``arr``, ``text``, ...), the shared schemas and components, the security schemes, the
tags, and ``op``, which makes an operation with the error answers every route has."""

from __future__ import annotations

from typing import Any

from ..core.web import web_games

#: A JSON object (a schema, an operation): any JSON
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
#: What the server sends for an integer that may pass 2^53 - 1 (a seed): a number up to
#: there, beyond it its decimal string (server/jsontext.py)
SENT_SEED: JSON = {
    "anyOf": [
        integer(minimum=0, maximum=2**53 - 1),
        text(pattern="^[0-9]{16,19}$", description="a seed beyond 2^53 - 1, as a string"),
    ],
    "description": "a seed: a number, or beyond 2^53 - 1 its decimal string",
}
#: A seed as a client may send it: a number, or its decimal string (as it was sent)
TAKEN_SEED: JSON = {
    "anyOf": [
        integer(minimum=0, maximum=2**63 - 1),
        text(pattern="^[0-9]{1,19}$", description="0 to 2^63 - 1 as a decimal string"),
    ]
}
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
        game=obj(fixed_seed=nullable(SENT_SEED)),
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
        coach=nullable(ref("Coach")),
        clocks=nullable(ref("Clocks")),
    ),
    # a real-time game's clocks (clocks.py): each seat's time left as of the server's
    # time of the frame; a client counts the running ones down from when it got it
    "Clocks": obj(
        ("base", "increment", "left_ms", "running", "flagged", "now_ms"),
        base=number(),
        increment=number(),
        left_ms=arr(nullable(integer(minimum=0)), description="per seat; null: a bot's"),
        running=arr(integer(minimum=0), description="the seats whose clocks run"),
        flagged=arr(integer(minimum=0), description="out of time: the bot plays for them"),
        now_ms=integer(description="the server's time of the frame, ms since 1970"),
    ),
    # a coached game's notes (coaching.py): all but the seat only for the coached
    # player's clients, or anyone's once the game is over
    "Coach": obj(
        ("seat",),
        seat=integer(minimum=0),
        scale=ANY_OBJECT,
        notes=arr(
            obj(
                ("ply", "played", "best", "loss", "mark"),
                ply=integer(minimum=0),
                played=text(),
                best=text(),
                loss={"type": "number"},
                mark=text(enum=["inaccuracy", "mistake", "blunder"]),
            )
        ),
        judged=integer(minimum=0),
        waiting=arr(integer(minimum=0)),
        busy=arr(integer(minimum=0)),
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
    "Record": obj(
        ("game",),
        game=text(description="nova-luna, nmbr9"),
        players=arr(),
        seed=nullable(TAKEN_SEED),
    ),
    "DailyDeal": obj(("game", "day", "seed"), game=text(), day=text(), seed=SENT_SEED),
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
    # "none": nobody asked for the game's analysis yet (GET answers 200, not 404)
    "Analysis": obj(
        ("status",),
        status=text(enum=["none", "running", "done", "failed"]),
        game=text(),
        budget=integer(minimum=1),
        done=integer(minimum=0, description="decisions judged so far"),
        total=nullable(integer(minimum=0, description="decisions to judge (once counted)")),
        analysis={
            "type": "object",
            "description": "done: the analysis (docs/analysis.md): scale, seats and their "
            "judged moves, hindsight",
        },
        partial={
            "type": "object",
            "description": "running, once a decision is judged: the analysis of the "
            "decisions judged so far, in the record's order (the same shape as analysis, "
            "without hindsight); each poll sends it whole, no larger than the finished one",
        },
        error=text(description="failed: why"),
    ),
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


def game_options() -> dict[str, JSON]:
    """Every web game's options as a new game's request takes them, from the games'
    declarations (``GameType.declared_options``), old names included."""
    schemas: dict[str, list[JSON]] = {}
    for game in web_games().values():
        for option in game.declared_options:
            for name in (option.name, *option.old_names):
                found = schemas.setdefault(name, [])
                if option.json_schema() not in found:
                    found.append(option.json_schema())
    return {name: s[0] if len(s) == 1 else {"anyOf": s} for name, s in sorted(schemas.items())}


GAME_OPTIONS = game_options()
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
    seed=TAKEN_SEED,
    time_limit=nullable(integer(minimum=1)),
    on_timeout=text(enum=["bot", "abandon"]),
    # a correspondence game (correspondence.py): its days per move, instead of time_limit
    days_per_move=integer(enum=[1, 2, 3, 5, 7, 14]),
    # a real-time clock (not with a time_limit): seconds each seat starts with and
    # seconds added after each of its moves
    clock_base=integer(minimum=60, maximum=3 * 3600),
    clock_increment=integer(minimum=0, maximum=180),
    rated=boolean(),  # false: a casual game (hints and undo allowed, nobody rated)
    # a coach notes your costly moves (docs/web.md): an unrated game of one person
    # against bots or alone only (else 400)
    coach=boolean(),
    # only accounts you follow see the game in the lobby and take its open seats
    friends_only=boolean(),
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
FRIEND_GAME = obj(("id", "type", "title", "url"), id=text(), type=text(), title=text(), url=text())
FRIEND = obj(("name", "online", "games"), name=text(), online=boolean(), games=arr(FRIEND_GAME))
FRIENDS = obj(("friends", "most"), friends=arr(FRIEND), most=integer())
SIGNED_IN_ANSWER = obj(("account",), account=ref("Account"))
SIGNED_OUT = obj(
    ("account",), account={"type": "null"}, sessions_ended=integer(), deleted=boolean()
)
LEADERBOARD_QUERY = (
    query("offset", integer(minimum=0, maximum=10**9)),
    query("limit", integer(minimum=1, maximum=100)),
    query("players", text(enum=["people", "bots"])),
    query(
        "pool",
        text(enum=["live", "correspondence"]),
        "the rating pool: live games (real-time clock, seconds per move or none; the "
        "default) or correspondence games (days per move)",
    ),
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
