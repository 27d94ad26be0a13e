"""The HTTP API of reports (issue 46): a signed-in player reports an account, or one of
its chat messages, to the moderators; and the warnings a moderator gave the account,
which it sees until it acknowledges them.

A report keeps a snapshot of what it is about as it stood when filed (``context``):
the account's name and when it was made, the game if one is named, and for a message
that message with the ones before it in its channel (``moderation_reads.chat_context``),
so deleting or editing later changes nothing of what the moderators read."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from . import accounts
from .accounts import AccountError
from .errors import ApiError, reading
from .jsontext import JSONResponse, dumps
from .moderation import check_text
from .moderation_writes import AcknowledgeWarning, FileReport
from .request import hub_of, json_body, json_object, own_account, signed_in
from .rows import Account, days_ago

REASONS = ("spam", "abuse", "cheating", "other")
MAX_TEXT = 500  # characters of a report's own words
PER_DAY = 10  # reports one account files in a day (rolling)
GAME_ID_MAX = 64


async def _file(request: Request) -> Response:
    """``{"account", "reason", "text"?, "game"?, "message"?}``: a report; 201 ``{"report"}``."""
    reporter = signed_in(request)
    body = json_object(await json_body(request))
    hub = hub_of(request)
    reported = _reported(request, body.get("account"))
    if reported.id == reporter.id:
        raise ApiError(400, "you cannot report yourself")
    reason = body.get("reason")
    if not isinstance(reason, str) or reason not in REASONS:
        raise ApiError(400, "'reason' must be one of {reasons}", reasons=", ".join(REASONS))
    text = check_text(body.get("text"), "text", MAX_TEXT)
    game_id = _game(request, body.get("game"))
    message_id = _message(body.get("message"))
    context = _context(request, reported, game_id, message_id)
    report = await hub.write(
        FileReport(
            *(reporter.id, reported.id, reported.name, reason, text, game_id, message_id),
            *(dumps(context), days_ago(1), PER_DAY),
        )
    )
    if report is None:
        raise ApiError(429, "you filed {n} reports today, the most a day", n=PER_DAY)
    return JSONResponse({"report": report}, status_code=201)


def _reported(request: Request, raw: object) -> Account:
    if not isinstance(raw, str):
        raise ApiError(400, "'account' is the name of an account")
    try:
        name = accounts.check_name(raw)
    except AccountError:
        raise ApiError(404, "there is no player of that name") from None
    found = hub_of(request).account_called(name)
    if found is None:
        raise ApiError(404, "there is no player of that name")
    return found


def _game(request: Request, raw: object) -> str | None:
    """The id of a game the report names (it must exist), or ``None``."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not 0 < len(raw) <= GAME_ID_MAX or not raw.isascii():
        raise ApiError(400, "'game' is the id of a game")
    if reading(hub_of(request).store.game, raw) is None:
        raise ApiError(400, "'game' is the id of a game")
    return raw


def _message(raw: object) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int or not 0 < raw < 2**63:
        raise ApiError(400, "'message' is the number of a chat message")
    return raw


def _context(
    request: Request, reported: Account, game_id: str | None, message_id: int | None
) -> dict[str, Any]:
    """What the moderators will read of the report, as it stands now."""
    store = hub_of(request).store
    context: dict[str, Any] = {
        "account": reported.name,
        "created": reading(store.account_created, reported.id),
        "game": game_id,
    }
    if message_id is not None:
        messages = reading(store.chat_context, message_id)
        if messages and messages[-1].get("account_id") != reported.id:
            raise ApiError(400, "that chat message is not by {name}", name=reported.name)
        context["messages"] = messages
    return context


# -- the account's warnings ------------------------------------------------------------


async def _warnings(request: Request) -> Response:
    account = own_account(request)
    if account is None:
        return JSONResponse({"warnings": []})
    return JSONResponse({"warnings": reading(hub_of(request).store.warnings_of, account.id)})


async def _acknowledge(request: Request) -> Response:
    account = signed_in(request)
    raw = request.path_params["warning_id"]
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ApiError(404, "there is no such warning")
    if not await hub_of(request).write(AcknowledgeWarning(account.id, int(raw))):
        raise ApiError(404, "there is no such warning")
    return JSONResponse({"warnings": reading(hub_of(request).store.warnings_of, account.id)})


ROUTES: list[BaseRoute] = [
    Route("/api/reports", _file, methods=["POST"]),
    Route("/api/account/warnings", _warnings),
    Route("/api/account/warnings/{warning_id}/acknowledge", _acknowledge, methods=["POST"]),
]
