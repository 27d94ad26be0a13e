"""The HTTP API of accounts: register, sign in and out (a session cookie), your
games, a new password, your data, deleting your account, and a player's profile."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..i18n import N_
from . import accounts
from .accounts import COOKIE, AccountError
from .errors import ApiError, reading
from .jsontext import JSONResponse
from .request import (
    account_of,
    hub_of,
    json_body,
    json_object,
    own_account,
    session_token,
    signed_in,
)
from .rows import Account, hash_token
from .sessions import every_session, everything, only, sessions_but
from .throttle import DEVICE_COOKIE, DEVICE_DAYS, account_key, device_key
from .writes import (
    DELETED_PLAYER,
    ChangePassword,
    CreateAccount,
    CreateSession,
    DeleteAccount,
    EndSession,
    EndSessions,
    RekeyNames,
)

if TYPE_CHECKING:
    from .hub import Hub

NOT_YOURS = N_("that is not your current password")


def _checked(check: Callable[[object], str], raw: object) -> str:
    try:
        return check(raw)
    except AccountError as err:
        raise ApiError(400, err.key, **err.params) from None


async def _credentials(request: Request) -> tuple[str, str]:
    """The checked name and password of a register or login request (rate-limited)."""
    hub_of(request).check_rate("login", request.client.host if request.client else None)
    body = json_object(await json_body(request))
    return _checked(accounts.check_name, body.get("name")), _checked(
        accounts.check_password, body.get("password")
    )


async def _register(request: Request) -> Response:
    name, password = await _credentials(request)
    hub = hub_of(request)
    key = accounts.name_key(name)
    if hub.store.account_named(key) is not None:
        raise ApiError(409, "that name is taken; choose another")
    password_hash = await hub.passwords.hash(password, _address(request))
    try:
        account_id = await hub.write(CreateAccount(name, key, password_hash))
    except ApiError:
        if hub.store.account_named(key) is None:
            raise  # not a race for the name: the database is down (503)
        raise ApiError(409, "that name is taken; choose another") from None
    response = await _start_session(request, Account(account_id, name), 201)
    await _remember_device(request, response, Account(account_id, name))
    return response


async def check_password(
    hub: Hub,
    found: tuple[Account, str] | None,
    key: str,
    password: str,
    wrong: str = accounts.WRONG,
    request: Request | None = None,
) -> None:
    """401 unless ``password`` is ``found``'s. Each try is reserved per account (``key``)
    before it is hashed, so that guessing from many addresses, or many guesses at once, is
    throttled too (429 while the account's tries wait, see throttle.py); a browser that
    signed in to the account before has tries of its own."""
    device = await _known_device(hub, found, request)
    tries = device_key(found[0].id, device) if found and device else account_key(key)
    address = _address(request)
    rank = accounts.KNOWN_DEVICE if device else accounts.ACCOUNT if found else accounts.OTHER
    hub.passwords.check_room(address, rank)  # a flood's 503 costs no reservation
    await hub.throttle.reserve(tries)
    try:
        right = await hub.passwords.verify(found and found[1], password, address, rank)
    except BaseException:
        await hub.throttle.refund(tries)  # not hashed (503, the client left): no try
        raise
    if not right or found is None:
        raise ApiError(401, wrong)
    await hub.throttle.give_back(tries)


async def _known_device(
    hub: Hub, found: tuple[Account, str] | None, request: Request | None
) -> str | None:
    if found is None or request is None:
        return None
    return await hub.devices.device_of(request.cookies.get(DEVICE_COOKIE), found[0].id)


def _address(request: Request | None) -> str | None:
    return request.client.host if request is not None and request.client else None


async def _login(request: Request) -> Response:
    name, password = await _credentials(request)
    hub = hub_of(request)
    found = hub.login_of(name)
    await check_password(hub, found, accounts.name_key(name), password, request=request)
    assert found is not None
    if reading(hub.store.account_closed, found[0].id):  # by a moderator (moderation.py)
        raise ApiError(403, "this account has been closed")
    response = await _start_session(request, found[0], 200)
    if await _known_device(hub, found, request) is None:
        await _remember_device(request, response, found[0])
    return response


async def _remember_device(request: Request, response: Response, account: Account) -> None:
    """This browser signed in: its later tries are counted apart from strangers'."""
    response.set_cookie(
        DEVICE_COOKIE,
        await hub_of(request).devices.new(account.id),
        max_age=DEVICE_DAYS * 24 * 3600,
        path="/api/account",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


async def _start_session(request: Request, account: Account, status: int) -> Response:
    """A new session in the cookie; the one it replaces (if any) ends."""
    hub = hub_of(request)
    old = session_token(request)
    if old is not None:
        await _end_session(hub, old)
    token, token_hash = accounts.new_token()
    await hub.write(CreateSession(token_hash, account.id))
    response = JSONResponse({"account": {"name": account.name}}, status_code=status)
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(hub.sessions.limits.absolute),
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def _end_session(hub: Hub, token: str) -> None:
    """End one session, and close the game sockets it opened."""
    ended = hub.store.session_of(token)
    await hub.write(EndSession(hash_token(token)))
    if ended is not None:
        hub.sessions.ended(ended.account.id, only(hash_token(token)))


async def _logout(request: Request) -> Response:
    token = session_token(request)
    account_of(request)  # refuses other sites
    if token is not None:
        await _end_session(hub_of(request), token)
    return _signed_out()


async def _logout_everywhere(request: Request) -> Response:
    account = signed_in(request)
    hub = hub_of(request)
    ended = await hub.write(EndSessions(account.id))
    hub.sessions.ended(account.id, every_session)
    return _signed_out({"sessions_ended": ended})


def _signed_out(extra: dict[str, Any] | None = None) -> Response:
    response = JSONResponse({"account": None, **(extra or {})})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def _change_password(request: Request) -> Response:
    """``{"password", "new_password", "keep_tokens"?}``: the current password, then the
    new one; every other session ends (and its channels close), this one goes on; the
    account's API tokens are revoked too unless ``keep_tokens`` is true."""
    account = signed_in(request)
    hub = hub_of(request)
    body = json_object(await json_body(request))
    current = _checked(accounts.check_password, body.get("password"))
    new = _checked(accounts.check_password, body.get("new_password"))
    keep_tokens = body.get("keep_tokens", False)
    if not isinstance(keep_tokens, bool):
        raise ApiError(400, "'keep_tokens' must be true or false")
    await check_password(
        hub, own_login(hub, account), accounts.name_key(account.name), current, NOT_YOURS
    )
    keep = hash_token(session_token(request) or "")
    new_hash = await hub.passwords.hash(new, _address(request), accounts.ACCOUNT)
    ended, revoked = await hub.write(ChangePassword(account.id, new_hash, keep, not keep_tokens))
    hub.sessions.ended(account.id, sessions_but(keep, tokens=not keep_tokens))
    return JSONResponse(
        {"account": {"name": account.name}, "sessions_ended": ended, "tokens_revoked": revoked}
    )


async def _delete_account(request: Request) -> Response:
    """``{"password"}``: the account resigns its running games (a loss where rated) and
    goes; its games stay with a "deleted player" in its seats, its ratings and sessions
    go with it."""
    account = signed_in(request)
    hub = hub_of(request)
    body = json_object(await json_body(request))
    password = _checked(accounts.check_password, body.get("password"))
    await check_password(
        hub, own_login(hub, account), accounts.name_key(account.name), password, NOT_YOURS
    )
    await hub.leave_all_games(account)  # resigned: deleting never dodges a loss
    await hub.write(DeleteAccount(account.id))
    hub.sessions.ended(account.id, everything)
    _forget_seats(hub, account)
    return _signed_out({"deleted": True})


def own_login(hub: Hub, account: Account) -> tuple[Account, str] | None:
    """The signed-in account and its password hash (by id: its name may have an old key)."""
    stored = hub.store.password_of(account.id)
    return None if stored is None else (account, stored)


def _forget_seats(hub: Hub, account: Account) -> None:
    """Live games show a deleted account's seats as the database now has them."""
    for room in hub.rooms.live.values():
        if room.seats_of(account):
            room.seats = [
                replace(s, name=DELETED_PLAYER, account_id=None)
                if s.account_id == account.id
                else s
                for s in room.seats
            ]
            hub.broadcast(room)


async def _my_data(request: Request) -> Response:
    """Everything stored of the signed-in account, as a JSON file to download."""
    account = signed_in(request)
    hub = hub_of(request)
    profile = hub.reads.profile(account)
    records = hub.store.account_records(account.id)
    email = records.pop("email")
    data = {
        "account": {
            "name": account.name,
            "created": hub.store.account_created(account.id),
            "bot": account.bot,
            "sessions": hub.store.sessions_of(account.id),
        },
        # the e-mail address and what the account asked for (null: none given)
        "email": email[0] if email else None,
        **records,  # mails sent, confirmation mails, API tokens, sessions, daily attempts
        **hub.store.moderation_records(account.id),  # warnings given, reports filed
        "ratings": profile["ratings"],
        "games": hub.reads.my_games(account, limit=100_000),
        "chat": hub.store.chat_of(account.id),  # its own messages, in every game
        "chat_muted": [a.name for a in hub.store.chat_mutes(account.id)],
    }
    filename = f"tabletop-{account.id}.json"
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def rekey_names(hub: Hub) -> None:
    """At start: accounts registered before name keys were NFKC get their new key
    (unless another account holds it already; see ``Hub.login_of``)."""
    keys = tuple(
        (id_, accounts.name_key(name))
        for id_, name, key in hub.store.account_keys()
        if key != accounts.name_key(name)
    )
    if keys:
        await hub.write(RekeyNames(keys))


async def _account_info(request: Request) -> Response:
    account = own_account(request)
    if account is None:
        return JSONResponse({"account": None, "games": []})
    hub = hub_of(request)
    games = hub.reads.my_games(account)
    if account.bot:
        return JSONResponse({"account": {"name": account.name, "bot": True}, "games": games})
    # the page offers the conversion only where POST /api/account/bot would allow it
    may_become_bot = not reading(hub.store.holds_seats, account.id)
    answer = {"account": {"name": account.name}, "games": games, "may_become_bot": may_become_bot}
    if reading(hub.store.is_moderator, account.id):
        answer["moderator"] = True  # the top bar links to the moderators' page
    return JSONResponse(answer)


async def _player(request: Request) -> Response:
    hub = hub_of(request)
    try:  # a name no account can have (say with a NUL, which PostgreSQL refuses) is unknown
        found = hub.login_of(accounts.check_name(request.path_params["name"]))
    except AccountError:
        raise ApiError(404, "there is no player of that name") from None
    account = found and found[0]
    if account is None:
        raise ApiError(404, "there is no player of that name")
    return JSONResponse(hub.reads.profile(account))


ROUTES: list[BaseRoute] = [
    Route("/api/account", _account_info),
    Route("/api/account/register", _register, methods=["POST"]),
    Route("/api/account/login", _login, methods=["POST"]),
    Route("/api/account/logout", _logout, methods=["POST"]),
    Route("/api/account/logout-everywhere", _logout_everywhere, methods=["POST"]),
    Route("/api/account/password", _change_password, methods=["POST"]),
    Route("/api/account/delete", _delete_account, methods=["POST"]),
    Route("/api/account/data", _my_data),
    Route("/api/players/{name}", _player),
]
