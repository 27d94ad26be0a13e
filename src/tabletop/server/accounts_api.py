"""The HTTP API of accounts: register, sign in and out (a session cookie), your
games, and a player's profile."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from . import accounts
from .accounts import COOKIE, AccountError
from .errors import ApiError
from .request import account_of, hub_of, json_body, json_object, session_token, signed_in
from .rows import Account, hash_token
from .writes import CreateAccount, CreateSession, EndSession, EndSessions


async def _credentials(request: Request) -> tuple[str, str]:
    """The checked name and password of a register or login request (rate-limited)."""
    hub_of(request).check_rate("login", request.client.host if request.client else None)
    body = json_object(await json_body(request))
    try:
        return accounts.check_name(body.get("name")), accounts.check_password(body.get("password"))
    except AccountError as err:
        raise ApiError(400, str(err)) from None


async def _register(request: Request) -> Response:
    name, password = await _credentials(request)
    hub = hub_of(request)
    key = accounts.name_key(name)
    if hub.store.account_named(key) is not None:
        raise ApiError(409, "that name is taken; choose another")
    password_hash = await accounts.hash_password(password)
    try:
        account_id = await hub.write(CreateAccount(name, key, password_hash))
    except ApiError:
        if hub.store.account_named(key) is None:
            raise  # not a race for the name: the database is down (503)
        raise ApiError(409, "that name is taken; choose another") from None
    return await _start_session(request, Account(account_id, name), 201)


async def _login(request: Request) -> Response:
    name, password = await _credentials(request)
    found = hub_of(request).store.account_login(accounts.name_key(name))
    if not await accounts.verify_password(found and found[1], password) or found is None:
        raise ApiError(401, accounts.WRONG)
    return await _start_session(request, found[0], 200)


async def _start_session(request: Request, account: Account, status: int) -> Response:
    """A new session in the cookie; the one it replaces (if any) ends."""
    hub = hub_of(request)
    old = session_token(request)
    if old is not None:
        await hub.write(EndSession(hash_token(old)))
    token, token_hash = accounts.new_token()
    await hub.write(CreateSession(token_hash, account.id))
    response = JSONResponse({"account": {"name": account.name}}, status_code=status)
    response.set_cookie(
        COOKIE,
        token,
        max_age=accounts.COOKIE_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


async def _logout(request: Request) -> Response:
    token = session_token(request)
    account_of(request)  # refuses other sites
    if token is not None:
        await hub_of(request).write(EndSession(hash_token(token)))
    return _signed_out()


async def _logout_everywhere(request: Request) -> Response:
    account = signed_in(request)
    ended = await hub_of(request).write(EndSessions(account.id))
    return _signed_out({"sessions_ended": ended})


def _signed_out(extra: dict[str, Any] | None = None) -> Response:
    response = JSONResponse({"account": None, **(extra or {})})
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def _account_info(request: Request) -> Response:
    account = account_of(request)
    if account is None:
        return JSONResponse({"account": None, "games": []})
    games = hub_of(request).reads.my_games(account)
    return JSONResponse({"account": {"name": account.name}, "games": games})


async def _player(request: Request) -> Response:
    hub = hub_of(request)
    try:  # a name no account can have (say with a NUL, which PostgreSQL refuses) is unknown
        key = accounts.name_key(accounts.check_name(request.path_params["name"]))
    except AccountError:
        raise ApiError(404, "there is no player of that name") from None
    account = hub.store.account_named(key)
    if account is None:
        raise ApiError(404, "there is no player of that name")
    return JSONResponse(hub.reads.profile(account))


ROUTES: list[BaseRoute] = [
    Route("/api/account", _account_info),
    Route("/api/account/register", _register, methods=["POST"]),
    Route("/api/account/login", _login, methods=["POST"]),
    Route("/api/account/logout", _logout, methods=["POST"]),
    Route("/api/account/logout-everywhere", _logout_everywhere, methods=["POST"]),
    Route("/api/players/{name}", _player),
]
