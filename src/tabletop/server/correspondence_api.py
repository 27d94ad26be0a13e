"""The HTTP API of correspondence reminders (reminders.py): how the signed-in account
wants to be reminded before a correspondence move's time runs out."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .correspondence import DAYS_PER_MOVE, reminder_lead
from .correspondence_writes import SaveReminderChannels
from .errors import ApiError, reading
from .jsontext import JSONResponse
from .request import hub_of, json_body, json_object, signed_in


def _shown(push: bool, mail: bool) -> dict[str, object]:
    return {
        "push": push,
        "mail": mail,
        # seconds before the deadline each offered days per move reminds (the rule)
        "lead": {str(days): reminder_lead(days * 86400) for days in DAYS_PER_MOVE},
    }


async def _channels(request: Request) -> Response:
    account = signed_in(request)
    push, mail = reading(hub_of(request).store.reminder_channels, account.id)
    return JSONResponse(_shown(push, mail))


async def _save(request: Request) -> Response:
    """Save ``push`` and ``mail`` (each true or false; one left out keeps its value)."""
    account = signed_in(request)
    hub = hub_of(request)
    body = json_object(await json_body(request))
    push, mail = reading(hub.store.reminder_channels, account.id)
    push, mail = body.get("push", push), body.get("mail", mail)
    if type(push) is not bool or type(mail) is not bool:
        raise ApiError(400, "'push' and 'mail' are true or false")
    await hub.write(SaveReminderChannels(account.id, push, mail))
    return JSONResponse(_shown(push, mail))


ROUTES: list[BaseRoute] = [
    Route("/api/account/reminders", _channels),
    Route("/api/account/reminders", _save, methods=["POST"]),
]
