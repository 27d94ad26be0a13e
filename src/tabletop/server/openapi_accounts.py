"""The OpenAPI operations of accounts (``accounts_api.py``), fair play
(``invitations_api.py``), the bot API (``bot_api.py``, ``account_socket.py``) and e-mail
(``mail_api.py``): ``openapi.OPERATIONS`` gathers them with those of games
(``openapi_games``)."""

from __future__ import annotations

from .openapi_schemas import (
    ACCOUNTS,
    ANY_OBJECT,
    ANYONE,
    BLOCKED,
    BOTS,
    CREDENTIALS,
    DOWNLOAD,
    FRIENDS,
    JSON,
    MAIL,
    NDJSON,
    NOBODY,
    ON_THE_PAGE,
    PASSWORD,
    SEAT,
    SEAT_NUMBER,
    SEAT_OR_NOT,
    SIGNED_IN,
    SIGNED_IN_ANSWER,
    SIGNED_OUT,
    arr,
    boolean,
    integer,
    nullable,
    obj,
    op,
    operation_id,
    query,
    ref,
    text,
)

#: an account's reminder channels, and how long before the deadline each offered days
#: per move reminds (seconds)
REMINDERS = obj(
    ("push", "mail", "lead"),
    push=boolean(),
    mail=boolean(),
    lead={"type": "object", "additionalProperties": integer(minimum=0)},
)

ACCOUNT_OPERATIONS: dict[tuple[str, str], JSON] = {
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
            moderator=boolean(),  # only there (true) for a moderator
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
    # -- friends (friends_api.py): a page's, never an API token's
    ("GET", "/api/account/friends"): op(
        "The players you follow: online or not, and the games they play",
        ACCOUNTS,
        ON_THE_PAGE,
        ok=FRIENDS,
    ),
    ("POST", "/api/account/friends"): op(
        "Follow a player", ACCOUNTS, ON_THE_PAGE, body=obj(("name",), name=text()), ok=FRIENDS
    ),
    ("POST", "/api/account/friends/remove"): op(
        "Stop following a player",
        ACCOUNTS,
        ON_THE_PAGE,
        body=obj(("name",), name=text()),
        ok=FRIENDS,
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
    # -- correspondence reminders (correspondence_api.py)
    ("GET", "/api/account/reminders"): op(
        "How you are reminded before a correspondence move's time runs out",
        MAIL,
        SIGNED_IN,
        ok=REMINDERS,
    ),
    ("POST", "/api/account/reminders"): op(
        "Choose how you are reminded (push: your open pages; mail: your confirmed address)",
        MAIL,
        SIGNED_IN,
        body=obj(push=boolean(), mail=boolean()),
        ok=REMINDERS,
    ),
}
