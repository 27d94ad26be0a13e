"""The HTTP API of e-mail notifications (notify.py): an account's settings, and the
two links mails carry (verify an address, stop the mails)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..i18n import LANGUAGES
from .clock import CLOCK
from .errors import ApiError, reading
from .jsontext import JSONResponse
from .notify import MODES, Notifier, Signer, check_address
from .request import hub_of, json_body, json_object, signed_in
from .rows import MailRow
from .writes import ForgetMail, SaveMailSettings, StopMail, VerifyMail


def _notifier(request: Request) -> Notifier:
    """The notifier of a server that sends mail; 404 on one that does not."""
    notifier = hub_of(request).notifier
    if not notifier.offered or notifier.signer is None:
        raise ApiError(404, "this server sends no e-mail")
    return notifier


def _shown(found: MailRow | None) -> dict[str, Any]:
    if found is None:
        return {"offered": True, "address": None, "verified": False, "mode": "off", "lang": None}
    return {
        "offered": True,
        "address": found.address,
        "verified": found.verified,
        "mode": found.mode,
        "lang": found.lang,
    }


async def _settings(request: Request) -> Response:
    account = signed_in(request)
    if not hub_of(request).notifier.offered:
        return JSONResponse({"offered": False})
    return JSONResponse(_shown(reading(hub_of(request).store.mail_settings, account.id)))


async def _save(request: Request) -> Response:
    """Save the account's address and choice; a new (or unverified) address gets a
    verification mail, and nothing else until it is verified. ``address: null``
    forgets the address."""
    account = signed_in(request)
    notifier = _notifier(request)
    hub = hub_of(request)
    body = json_object(await json_body(request))
    mode, lang = body.get("mode", "off"), body.get("lang", "en")
    if not isinstance(mode, str) or mode not in MODES:
        raise ApiError(400, '\'mode\' is "off", "turn" or "digest"')
    if not isinstance(lang, str) or lang not in LANGUAGES:  # a list is unhashable
        raise ApiError(400, "'lang' is one of {languages}", languages=", ".join(LANGUAGES))
    if body.get("address") in (None, ""):
        await hub.write(ForgetMail(account.id))
        return JSONResponse({**_shown(None), "verification_sent": False})
    address = check_address(body.get("address"))
    before = reading(hub.store.mail_settings, account.id)
    verified = before is not None and before.address == address and before.verified
    save = SaveMailSettings(account.id, address, verified, mode, lang)
    if verified:
        await hub.write(save)
    else:  # a confirmation mail to any address: as limited as sign-ins, and counted
        hub.check_rate("login", request.client.host if request.client else None)
        await notifier.save_unconfirmed(account, save)
    found = reading(hub.store.mail_settings, account.id)
    return JSONResponse({**_shown(found), "verification_sent": not verified})


async def _verify(request: Request) -> Response:
    notifier = _notifier(request)
    assert notifier.signer is not None
    hub = hub_of(request)
    token = json_object(await json_body(request)).get("token")
    parts = Signer.verify_parts(token)
    found = None if parts is None else reading(hub.store.mail_settings, parts[0])
    if found is None or not notifier.signer.checks_verify(str(token), found.address):
        raise ApiError(
            400,
            "this verification link is not valid (was the address changed since?); "
            "save your address on your account page for a new one",
        )
    if parts is None or parts[1] < CLOCK.time():
        raise ApiError(
            400, "this verification link has expired; save your address again for a new one"
        )
    if not await hub.write(VerifyMail(found.account_id, found.address)):
        raise ApiError(409, "the address was changed meanwhile; look at your account page")
    return JSONResponse({"verified": True, "address": found.address})


async def _unsubscribe(request: Request) -> Response:
    """One click, no sign-in (the link's signature says whose mails stop); also what a
    mail program's "unsubscribe" posts (``List-Unsubscribe-Post``, RFC 8058)."""
    notifier = _notifier(request)
    assert notifier.signer is not None
    hub = hub_of(request)
    token = request.query_params.get("token")
    account = Signer.unsubscribe_account(token)
    found = None if account is None else reading(hub.store.mail_settings, account)
    if (
        token is None
        or found is None
        or not notifier.signer.checks_unsubscribe(token, found.address)
    ):
        raise ApiError(400, "this unsubscribe link is not valid; sign in to change your mails")
    await hub.write(StopMail(found.account_id, found.address))
    return JSONResponse({"unsubscribed": True, "address": found.address})


ROUTES: list[BaseRoute] = [
    Route("/api/account/email", _settings),
    Route("/api/account/email", _save, methods=["POST"]),
    Route("/api/mail/verify", _verify, methods=["POST"]),
    Route("/api/mail/unsubscribe", _unsubscribe, methods=["POST"]),
]
