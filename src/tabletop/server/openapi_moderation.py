"""The OpenAPI operations of reports and warnings (``reports_api.py``) and of the
moderators (``moderation_api.py``): ``openapi.OPERATIONS`` gathers them with the others."""

from __future__ import annotations

from .openapi_schemas import (
    ANY_OBJECT,
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

MODERATION = "moderation"
MODERATORS = "Moderators only: 401 signed out, 403 for anyone else (asked before anything else)."
WARNINGS = obj(
    ("warnings",),
    warnings=arr(obj(("id", "text", "at"), id=integer(), text=text(), at=text())),
)
ACTED_ON: JSON = {
    "account": text(description="the account's name"),
    "report": integer(minimum=1, description="the open report acted on (it is closed with it)"),
}


def acting(required: tuple[str, ...], **more: JSON) -> JSON:
    """The body of an action on an account: ``account``, ``report``? and ``more``."""
    schema = obj(("account", *required))
    schema["properties"] = {**ACTED_ON, **more}
    return schema


def closed_answer() -> JSON:
    """What closing answers (``closed`` is also ``obj``'s own keyword: set by hand)."""
    schema = obj(("account", "closed", "was_open"))
    schema["properties"] = {"account": text(), "closed": boolean(), "was_open": boolean()}
    return schema


MODERATION_OPERATIONS: dict[tuple[str, str], JSON] = {
    ("POST", "/api/reports"): op(
        "Report an account or one of its chat messages to the moderators",
        MODERATION,
        SIGNED_IN,
        body=obj(
            ("account", "reason"),
            account=text(description="the reported account's name (404: no such account)"),
            reason=text(enum=["spam", "abuse", "cheating", "other"]),
            text=nullable(text(description="your words: 500 characters, no control characters")),
            game=nullable(text(description="the game it happened in")),
            message=nullable(integer(minimum=1, description="the reported chat message's id")),
        ),
        ok=obj(("report",), report=integer()),
        status="201",
        description="400 for yourself or bad input; 429 past 10 reports a day.",
    ),
    ("GET", "/api/account/warnings"): op(
        "The moderators' warnings you have not acknowledged (signed out: none)",
        MODERATION,
        ANYONE,
        ok=WARNINGS,
    ),
    ("POST", "/api/account/warnings/{warning_id}/acknowledge"): op(
        "Acknowledge a warning you read", MODERATION, SIGNED_IN, ok=WARNINGS
    ),
    ("GET", "/api/moderation"): op(
        "The open reports with their context, and the moderators' log",
        MODERATION,
        SIGNED_IN,
        ok=obj(
            ("moderator", "reports", "log"),
            moderator=text(),
            reports=arr(ANY_OBJECT),
            log=arr(ANY_OBJECT),
        ),
        description=MODERATORS,
    ),
    ("POST", "/api/moderation/warn"): op(
        "Warn an account: it sees the text until it acknowledges it",
        MODERATION,
        SIGNED_IN,
        body=acting(("text",), text=text(description="1000 characters at most")),
        ok=obj(("account", "warned"), account=text(), warned=boolean()),
        description=MODERATORS,
    ),
    ("POST", "/api/moderation/mute"): op(
        "Mute an account's chat for a number of hours (0 lifts a mute)",
        MODERATION,
        SIGNED_IN,
        body=acting(("hours",), hours=number()),
        ok=obj(("account", "muted_until"), account=text(), muted_until=nullable(number())),
        description=MODERATORS,
    ),
    ("POST", "/api/moderation/close"): op(
        "Close an account: its games resigned, its sessions and channels ended, no sign-in",
        MODERATION,
        SIGNED_IN,
        body=obj(
            ("account",), note=nullable(text(description="500 characters at most")), **ACTED_ON
        ),
        ok=closed_answer(),
        description=MODERATORS,
    ),
    ("POST", "/api/moderation/reports/{report_id}/dismiss"): op(
        "Close a report with no action on the account",
        MODERATION,
        SIGNED_IN,
        body=obj(note=nullable(text(description="500 characters at most"))),
        ok=obj(("report", "dismissed"), report=integer(), dismissed=boolean()),
        description=MODERATORS,
    ),
}
