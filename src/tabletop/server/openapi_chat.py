"""The OpenAPI operations of games' chat (``chat_api.py``): ``openapi.OPERATIONS``
gathers them with the others."""

from __future__ import annotations

from .chat import CHANNELS, MAX_TEXT, PHRASES
from .openapi_schemas import (
    ACCOUNTS,
    GAMES,
    JSON,
    ON_THE_PAGE,
    SEAT_OR_NOT,
    SIGNED_IN,
    arr,
    integer,
    nullable,
    obj,
    op,
    text,
)

A_GAME_CHAT = "/api/games/{game_id}/chat"
CHANNEL = text(enum=list(CHANNELS), description="players (its players only) or spectators")
MESSAGE = obj(
    ("id", "channel", "name", "text", "phrase", "at"),
    id=integer(minimum=1),
    channel=CHANNEL,
    name=text(description="the writer's account"),
    text=nullable(text(description="shown as plain text, never as HTML or a link")),
    phrase=nullable(
        text(
            enum=list(PHRASES),
            description="a quick phrase: the reader's page shows it in its own language",
        )
    ),  # fmt: skip
    at=text(description="when, UTC ISO 8601"),
)
POSTED = {
    "anyOf": [
        obj(("text",), channel=CHANNEL, text=text(minLength=1, maxLength=MAX_TEXT)),
        obj(("phrase",), channel=CHANNEL, phrase=text(enum=list(PHRASES))),
    ]
}
MUTED = obj(("muted",), muted=arr(obj(("name",), name=text())))
NAMED = obj(("name",), name=text())

CHAT_OPERATIONS: dict[tuple[str, str], JSON] = {
    ("GET", A_GAME_CHAT): op(
        "The game's chat you may read (its players': both channels; anyone: spectators')",
        GAMES,
        SEAT_OR_NOT,
        ok=obj(
            ("channels", "phrases", "messages"),
            channels=arr(CHANNEL),
            phrases=arr(text()),
            messages=arr(MESSAGE),
        ),
        description="Without the messages of accounts you muted or blocked. Live, the game's "
        'socket sends {"type": "chat", "messages": [...]} ("history": true on connecting, '
        "when there are any). docs/web.md, 'Chat'.",
    ),
    ("POST", A_GAME_CHAT): op(
        "Write in the game's chat (signed in; the players' channel: its players only)",
        GAMES,
        SIGNED_IN,
        body=POSTED,
        ok=obj(("message",), message=MESSAGE),
        status="201",
        description=f"A text of at most {MAX_TEXT} characters, one line: control and "
        "text-direction characters are refused (400). 403 with the reason: not a player, "
        "a new account among strangers, the game not started; 409: the channel is full; "
        "429: too many messages from the account or the address.",
    ),
    ("GET", "/api/account/mutes"): op(
        "The accounts whose chat you muted", ACCOUNTS, ON_THE_PAGE, ok=MUTED
    ),
    ("POST", "/api/account/mutes"): op(
        "Mute an account's chat for yourself (at once, on every page of yours)",
        ACCOUNTS,
        ON_THE_PAGE,
        body=NAMED,
        ok=MUTED,
    ),
    ("POST", "/api/account/mutes/remove"): op(
        "Unmute an account's chat", ACCOUNTS, ON_THE_PAGE, body=NAMED, ok=MUTED
    ),
}
