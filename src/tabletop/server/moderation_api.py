"""The HTTP API of the moderators (issue 46; the page is ``/moderation``): the open
reports with their context and the log, and the actions on a reported account: warn,
mute its chat for a time, close it; or dismiss a report. Every route asks
``moderation.moderator`` first (401 signed out, 403 for anyone but a moderator)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .account_events import AccountEvents
from .clock import CLOCK
from .errors import ApiError, reading
from .jsontext import JSONResponse
from .moderation import check_text, close_account, details, moderator
from .moderation_writes import DismissReport, Logged, MuteChat, Warn
from .request import hub_of, json_body, json_object
from .rows import Account

MAX_WARNING = 1000  # characters of a warning's text
MAX_NOTE = 500  # characters of a note with a close or a dismissal
MAX_MUTE_HOURS = 24 * 365  # the longest mute: a year (longer: close the account)
SHOWN = 100  # reports and log lines the page lists


async def _overview(request: Request) -> Response:
    """The open reports (oldest first) and the latest log lines (newest first)."""
    account = moderator(request)
    store = hub_of(request).store
    log = [{**line, "details": json.loads(line["details"])} for line in store.moderation_log(SHOWN)]
    return JSONResponse(
        {"moderator": account.name, "reports": store.open_reports(SHOWN), "log": log}
    )


async def _action(request: Request) -> tuple[Account, dict[str, Any], Account, int | None]:
    """The moderator, the body, the account acted on (``"account"``: its name) and the
    report acted on (``"report"``, optional: it is closed with the action)."""
    me = moderator(request)
    body = json_object(await json_body(request))
    hub = hub_of(request)
    name = body.get("account")
    if not isinstance(name, str) or len(name) > 200:
        raise ApiError(400, "'account' is the name of an account")
    target = hub.account_called(name)
    if target is None:
        raise ApiError(404, "there is no player of that name")
    if target.id == me.id:
        raise ApiError(400, "a moderator does not act on their own account")
    return me, body, target, _report(request, body.get("report"), target)


def _report(request: Request, raw: object, target: Account) -> int | None:
    """The open report ``raw`` names, which must be about ``target``."""
    if raw is None:
        return None
    if type(raw) is not int or not 0 < raw < 2**63:
        raise ApiError(400, "'report' is the number of a report")
    found = reading(hub_of(request).store.report_account, raw)
    if found is None or found[0] != target.id:
        raise ApiError(409, "that report is not open, or not about this account")
    return raw


def _logged(me: Account, target: Account, report: int | None, note: str) -> Logged:
    return Logged(me.id, me.name, target.id, target.name, report, note)


async def _warn(request: Request) -> Response:
    """``{"account", "text", "report"?}``: the account sees ``text`` until it
    acknowledges it (its open pages at once, through the account socket)."""
    me, body, target, report = await _action(request)
    text = check_text(body.get("text"), "text", MAX_WARNING, required=True)
    hub = hub_of(request)
    await hub.write(Warn(_logged(me, target, report, details(text=text)), text))
    _tell(hub.accounts, target.id)
    return JSONResponse({"account": target.name, "warned": True})


def _tell(events: AccountEvents, account_id: int) -> None:
    """The account's sockets here learn of a new warning (the page then shows it)."""
    events.tell(account_id, {"type": "warning"})


async def _mute(request: Request) -> Response:
    """``{"account", "hours", "report"?}``: no chat from the account for ``hours`` (0
    lifts a mute) from now, by the server's clock."""
    me, body, target, report = await _action(request)
    hours: Any = body.get("hours")
    if type(hours) not in (int, float) or not 0 <= hours <= MAX_MUTE_HOURS:
        raise ApiError(400, "'hours' is a number of hours from 0 to {most}", most=MAX_MUTE_HOURS)
    until = CLOCK.time() + float(hours) * 3600 if hours else 0.0
    note = details(hours=hours, until=until or None)
    await hub_of(request).write(MuteChat(_logged(me, target, report, note), until))
    return JSONResponse({"account": target.name, "muted_until": until or None})


async def _close(request: Request) -> Response:
    """``{"account", "note"?, "report"?}``: the account is closed at once."""
    me, body, target, report = await _action(request)
    note = check_text(body.get("note"), "note", MAX_NOTE)
    closed = await close_account(
        hub_of(request), target, _logged(me, target, report, details(note=note))
    )
    return JSONResponse({"account": target.name, "closed": True, "was_open": closed})


async def _dismiss(request: Request) -> Response:
    """``{"note"?}``: the report is closed with no action on the account."""
    me = moderator(request)
    body = json_object(await json_body(request))
    note = check_text(body.get("note"), "note", MAX_NOTE)
    raw = request.path_params["report_id"]
    hub = hub_of(request)
    found = None
    if raw.isascii() and raw.isdigit() and len(raw) <= 18:
        found = reading(hub.store.report_account, int(raw))
    if found is None:
        raise ApiError(404, "there is no open report of that number")
    target = Account(found[0], found[1])
    logged = _logged(me, target, int(raw), details(note=note))
    if not await hub.write(DismissReport(logged)):
        raise ApiError(404, "there is no open report of that number")
    return JSONResponse({"report": int(raw), "dismissed": True})


ROUTES: list[BaseRoute] = [
    Route("/api/moderation", _overview),
    Route("/api/moderation/warn", _warn, methods=["POST"]),
    Route("/api/moderation/mute", _mute, methods=["POST"]),
    Route("/api/moderation/close", _close, methods=["POST"]),
    Route("/api/moderation/reports/{report_id}/dismiss", _dismiss, methods=["POST"]),
]
