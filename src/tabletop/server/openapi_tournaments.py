"""The OpenAPI operations of tournaments (``tournaments_api.py``): ``openapi.OPERATIONS``
gathers them with the others."""

from __future__ import annotations

from .openapi_schemas import (
    ANYONE,
    JSON,
    SIGNED_IN,
    arr,
    boolean,
    integer,
    nullable,
    number,
    obj,
    op,
    text,
)
from .tournaments import KINDS, MAX_AHEAD, MAX_BOTS, MAX_ENTRANTS, MAX_NAME, MAX_ROUNDS, MINUTES

TOURNAMENTS = "tournaments"
AN_EVENT = "/api/tournaments/{tournament_id}"
STATUS = text(enum=["upcoming", "running", "finished", "cancelled"])
SUMMARY = obj(
    ("id", "url", "name", "kind", "type", "players", "starts", "status", "entrants"),
    id=text(),
    url=text(description="the event's page, /t/{id}"),
    name=text(),
    kind=text(enum=list(KINDS)),
    type=text(description="the game"),
    players=integer(minimum=2, description="the largest table"),
    rounds=nullable(integer(minimum=1)),
    minutes=nullable(integer(minimum=1)),
    starts=number(),
    ends=nullable(number()),
    status=STATUS,
    round=integer(minimum=0),
    entrants=integer(minimum=0),
    visibility=text(enum=["private", "public"]),
    recurring=nullable(text(enum=["daily", "weekly"])),
    creator=nullable(text()),
)
GAME_REF = obj(
    ("id", "url", "round", "entrants", "names", "ranks", "points"),
    id=text(),
    url=text(description="/g/{id}: watch it"),
    round=integer(minimum=0, description="a Swiss round; 0 in an arena"),
    entrants=arr(integer(minimum=1)),
    names=arr(text()),
    ranks=nullable(arr(integer(minimum=1))),
    points=nullable(arr(integer(minimum=0))),
)
STANDING = obj(
    ("entrant", "name", "kind", "place", "points", "games", "wins", "tiebreaks", "results"),
    entrant=integer(minimum=1),
    name=text(),
    kind=text(enum=["human", "bot", "bot_account"]),
    place=integer(minimum=1),
    points=integer(minimum=0),
    games=integer(minimum=0),
    wins=integer(minimum=0),
    tiebreaks=arr(number()),
    results=arr(integer(minimum=0)),
    withdrawn=boolean(),
    playing=nullable(text()),
)
EVENT = {
    "allOf": [
        SUMMARY,
        obj(
            ("version", "now", "standings", "games", "me", "can_join", "can_manage", "bots"),
            version=integer(minimum=0, description="moves on with every change"),
            now={"type": "number", "description": "the server time, Unix seconds (countdowns)"},
            rated=boolean(),
            time_control={"type": "object"},
            standings=arr(STANDING),
            games=arr(GAME_REF, description="running first, then the latest finished (50)"),
            me=nullable(
                obj(
                    ("entrant", "playing", "withdrawn"),
                    entrant=integer(minimum=1),
                    playing=nullable(text(description="your game of the event now")),
                    withdrawn=boolean(),
                )
            ),
            can_join=boolean(),
            can_manage=boolean(),
            bots=arr(text(), description="our bots the organiser may add"),
        ),
    ]
}
CREATE = obj(
    ("kind", "type", "name", "players"),
    kind=text(enum=list(KINDS)),
    type=text(),
    name=text(minLength=1, maxLength=MAX_NAME),
    players=integer(minimum=2, maximum=4),
    rounds=integer(minimum=1, maximum=MAX_ROUNDS, description="a Swiss event's"),
    minutes=integer(minimum=MINUTES[0], maximum=MINUTES[1], description="an arena's length"),
    starts_in=integer(minimum=0, maximum=MAX_AHEAD),
    starts={"type": "number", "description": "Unix seconds, instead of starts_in"},
    clock_base=integer(minimum=60),
    clock_increment=integer(minimum=0),
    time_limit=integer(minimum=0),
    visibility=text(enum=["private", "public"]),
    recurring=nullable(text(enum=["daily", "weekly"])),
    rated=boolean(),
    options={"type": "object", "description": "the game's own options"},
)
EMPTY = obj()

TOURNAMENT_OPERATIONS: dict[tuple[str, str], JSON] = {
    ("GET", "/api/tournaments"): op(
        "The events: upcoming, running and finished (public ones, and your own)",
        TOURNAMENTS,
        ANYONE,
        ok=obj(
            ("upcoming", "running", "finished"),
            upcoming=arr(SUMMARY),
            running=arr(SUMMARY),
            finished=arr(SUMMARY),
        ),
    ),
    ("POST", "/api/tournaments"): op(
        "Create an event (private: a link; public or recurring: moderators)",
        TOURNAMENTS,
        SIGNED_IN,
        body=CREATE,
        ok=obj(("id", "url"), id=text(), url=text()),
        status="201",
        description="An arena has 'minutes', a Swiss event 'rounds'. Without a time "
        "control the games have a clock of 5 min + 5 s. At most 5 events per account and "
        "day (429). docs/web.md, 'Tournaments'.",
    ),
    ("GET", AN_EVENT): op(
        "An event: its standings, games and what you may do",
        TOURNAMENTS,
        ANYONE,
        ok=EVENT,
    ),
    ("POST", AN_EVENT + "/join"): op(
        "Join the event (a person, or a bot account by its token)",
        TOURNAMENTS,
        SIGNED_IN,
        body=EMPTY,
        body_optional=True,
        ok=EVENT,
        description=f"409: over, full ({MAX_ENTRANTS}), or joined already. You are paired "
        "while a page, account socket or event stream of yours is open; the event stream "
        "announces each game with 'tournament': {id, name}.",
    ),
    ("POST", AN_EVENT + "/withdraw"): op(
        "Leave the event (your unfinished game of it is resigned)",
        TOURNAMENTS,
        SIGNED_IN,
        body=EMPTY,
        body_optional=True,
        ok=EVENT,
    ),
    ("POST", AN_EVENT + "/bots"): op(
        "Add one of our bots as an entrant (the organiser or a moderator)",
        TOURNAMENTS,
        SIGNED_IN,
        body=obj(("bot",), bot=text()),
        ok=EVENT,
        description=f"At most {MAX_BOTS} of our bots per event.",
    ),
    ("POST", AN_EVENT + "/cancel"): op(
        "Call the event off before its start (the organiser or a moderator)",
        TOURNAMENTS,
        SIGNED_IN,
        body=EMPTY,
        body_optional=True,
        ok=EVENT,
    ),
    ("GET", AN_EVENT + "/entrants/{entrant}/games"): op(
        "An entrant's games of the event",
        TOURNAMENTS,
        ANYONE,
        ok=obj(("games",), games=arr(GAME_REF)),
    ),
}
