"""The OpenAPI operations of games (``games_api.py``), their analyses
(``analysis_api.py``), a casual game's coach (``coach_api.py``), the daily challenge
(``daily_api.py``) and the document itself: ``openapi.OPERATIONS`` gathers them with
those of accounts (``openapi_accounts``)."""

from __future__ import annotations

from .openapi_schemas import (
    ACT,
    ANALYSIS,
    ANY_OBJECT,
    ANYONE,
    CREATE,
    CREATED,
    DAILY,
    DAY,
    DOWNLOAD,
    GAMES,
    JSON,
    LEADERBOARD_QUERY,
    META,
    NOBODY,
    PLIED,
    SEAT,
    SEAT_OR_NOT,
    SENT_SEED,
    SIGNED_IN,
    arr,
    boolean,
    game_links,
    integer,
    json_content,
    nullable,
    obj,
    op,
    query,
    ref,
    text,
)

A_GAME = "/api/games/{game_id}"
TUTORIAL = "tutorials"
#: A tutorial's script (``core.tutorial.describe_steps``).
LESSON_SCRIPT = obj(
    ("game", "title", "seat", "players", "steps"),
    game=text(),
    title=text(),
    seat=integer(minimum=0),
    players=arr(ANY_OBJECT),
    steps=arr(
        obj(
            ("key", "say", "ask", "highlight"),
            key=text(),
            say=ANY_OBJECT,
            ask=nullable(text()),
            highlight=ANY_OBJECT,
        )
    ),
)
#: Where a tutorial is: the step, and your moves of the steps before it.
LESSON_FIELDS = {
    "step": integer(minimum=0, description="the step's index, from 0"),
    "played": arr(text(maxLength=40), description="your moves of the action steps before it"),
}
LESSON_AT = obj(("step", "played"), closed=True, **LESSON_FIELDS)
LESSON_TRY = obj(
    ("correct",),
    correct=boolean(),
    kind=nullable(text()),
    explanation=nullable(ANY_OBJECT),
    step=integer(minimum=0),
    played=arr(text()),
    state=ANY_OBJECT,
)
#: A game the replay page steps through beside a stored one (``replays.companion``).
COMPANION = obj(
    ("game", "frames", "bots", "score"),
    game=text(),
    players=arr(text()),
    frames=arr(),
    bots=arr(boolean()),
    score={"type": "number"},
)
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


#: A daily game started (or your counted one again): its deal, id and links
DAILY_STARTED = obj(("created", "seed"), created=boolean(), seed=SENT_SEED, id=text(), url=text())

GAME_OPERATIONS: dict[tuple[str, str], JSON] = {
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
        "The open games (a friends-only one: to the accounts its creator follows)",
        GAMES,
        ANYONE,
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
        "A game's analysis, how far it is, or status none if nobody asked for it yet",
        ANALYSIS,
        NOBODY,
        ok=ref("Analysis"),
    ),
    ("GET", "/api/games/{game_id}/analysis/{index}"): op(
        "The board after a decision as played and with the best move",
        ANALYSIS,
        NOBODY,
        ok=ANY_OBJECT,
    ),
    ("GET", "/api/games/{game_id}/analysis/{index}/position"): op(
        "The position before a decision as its seat saw it, with its legal moves",
        ANALYSIS,
        NOBODY,
        ok=obj(
            ("index", "seat", "view", "choices"),
            index=integer(),
            seat=integer(),
            view=ANY_OBJECT,
            choices=arr(ANY_OBJECT),
        ),
        description="Where 'learn from your mistakes' asks for a better move: the seat's "
        "own view (no hidden information). 404 before an analysis, 409 while it runs.",
    ),
    ("POST", "/api/games/{game_id}/analysis/{index}/try"): op(
        "Judge another move tried in a decision's position (learn from your mistakes)",
        ANALYSIS,
        NOBODY,
        body=obj(("action",), closed=True, action=text(minLength=1, maxLength=200)),
        ok=obj(
            ("index", "action", "value", "value_best", "loss", "mark", "solved"),
            index=integer(),
            action=text(),
            value={"type": "number"},
            value_best={"type": "number"},
            loss={"type": "number"},
            mark=nullable(text(enum=["inaccuracy", "mistake", "blunder"])),
            solved=boolean(),
            words=ANY_OBJECT,
        ),
        description="The analyser searches the position again with the try in the played "
        "move's place, at the analysis's budget: solved when the try is within the "
        "search's noise of the best. 422 for a move that is not legal there; 429 while "
        "a try of yours is still being judged.",
    ),
    ("GET", "/api/games/{game_id}/hindsight"): op(
        "The best game with hindsight as replay frames, from a finished analysis",
        ANALYSIS,
        NOBODY,
        ok=COMPANION,
        description="404 where the game's analysis has no hindsight game (Nova Luna) "
        "or nobody asked for an analysis, 409 while the analysis runs.",
    ),
    # -- the coach of a casual game (coach_api.py)
    ("GET", "/api/games/{game_id}/coach/{ply}"): op(
        "The board after a coached move as played and with the better move",
        GAMES,
        SEAT_OR_NOT,
        ok=obj(
            ("index", "seat", "played", "best"),
            index=integer(minimum=0),
            seat=integer(minimum=0),
            played=ANY_OBJECT,
            best=ANY_OBJECT,
        ),
        description="For the coached player while the game runs (403 for others), "
        "anyone once it is over; 404 where the coach left no note on that move. The "
        "better move's `view` is null where playing it would show more of the hidden "
        "game than the move played did.",
    ),
    # -- the daily challenge (daily_api.py)
    ("GET", "/api/daily"): op(
        "Today's deal of every game",
        DAILY,
        ANYONE,
        ok=obj(("day", "games"), day=text(), games=arr(ref("DailyDeal"))),
    ),
    ("POST", "/api/daily/{game}"): op(
        "A game of a day's deal (today: counted, with an account)",
        DAILY,
        ANYONE,
        body=nullable(obj(closed=True, day=nullable(DAY))),
        body_optional=True,
        ok=DAILY_STARTED,
        status="201",
        more={
            "200": {
                "description": "your counted game of the day, again",
                "content": json_content(DAILY_STARTED),
            }
        },  # fmt: skip
    ),
    ("GET", "/api/daily/{game}/{day}"): op(
        "A day's results board",
        DAILY,
        ANYONE,
        params=(query("game", text(), "your uncounted game of that deal"),),
        ok=obj(("game", "day", "seed", "results"), seed=SENT_SEED, results=arr(ANY_OBJECT)),
    ),
    # -- the tutorials (tutorial_api.py)
    ("GET", "/api/tutorials/{game}"): op(
        "A game's tutorial: its steps' texts, asked actions and highlights",
        TUTORIAL,
        NOBODY,
        ok=LESSON_SCRIPT,
        description="404 for a game without a tutorial (docs/adding-a-game.md, 'Tutorial').",
    ),
    ("POST", "/api/tutorials/{game}/position"): op(
        "The tutorial's game at a step, your moves so far replayed",
        TUTORIAL,
        NOBODY,
        body=LESSON_AT,
        ok=obj(("step", "state"), step=integer(minimum=0), state=ANY_OBJECT),
        description="422 for a step out of range or moves the steps did not ask for.",
    ),
    ("POST", "/api/tutorials/{game}/try"): op(
        "Check your try at a tutorial step: right (the next position) or why not",
        TUTORIAL,
        NOBODY,
        body=obj(
            ("step", "played", "action"), closed=True, **LESSON_FIELDS, action=text(maxLength=40)
        ),
        ok=LESSON_TRY,
        description="422 for an info step, a step out of range, moves the steps did not "
        "ask for, or an action in no notation.",
    ),
    ("GET", "/api/daily/{game}/{day}/bot"): op(
        "The daily bot's game on a day's deal as replay frames, once yours is over",
        DAILY,
        ANYONE,
        params=({**query("game", text(), "your finished game of that deal"), "required": True},),
        ok=COMPANION,
        description="409 while your game or the bot's is not over.",
    ),
}
