"""What a request carries: its JSON body, its seat tokens, its session's account
(refused from other sites), and the hub serving it."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.websockets import WebSocket

from ..i18n import N_
from .accounts import COOKIE, AccountError, check_name
from .errors import ApiError
from .room import Room
from .rows import Account, StoreError
from .sessions import SESSION, TOKEN, Credential

if TYPE_CHECKING:
    from .hub import Hub

API_TOKEN_PREFIX = "tbt_"  # a bot account's API token; a seat token never starts so
MAX_BODY = 64 * 1024  # actions, game setups
MAX_RECORD = 2 * 1024 * 1024  # uploaded records for the replay page
# after parsing, a surrogate pair is one character: any surrogate left is a lone one
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def hub_of(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub  # set at start (``app.py``); Starlette's state is untyped
    return hub


async def json_body(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON body; 413 if larger than ``limit``, 400 if not JSON."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not (declared.isascii() and declared.isdigit()):
            raise ApiError(400, "the Content-Length header is not a number")
        if len(declared) > 12 or int(declared) > limit:
            raise ApiError(413, "the request is too large (at most {kb} KB)", kb=limit // 1024)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "the request is too large (at most {kb} KB)", kb=limit // 1024)
        chunks.append(chunk)
    return loads(b"".join(chunks) or b"null", N_("the request body"))


def loads(data: str | bytes, what: str) -> Any:
    """Parsed JSON; a 400 naming ``what`` for anything the parser refuses, including
    integers too long to convert and nesting too deep for the parser's recursion."""
    try:
        value = json.loads(data)
    except RecursionError:
        raise ApiError(400, "{what} is nested too deep to be a request", what=what) from None
    except json.JSONDecodeError as err:
        raise ApiError(400, "{what} is not valid JSON ({reason})", what=what, reason=err) from None
    except UnicodeDecodeError:
        raise ApiError(400, "{what} is not UTF-8 text", what=what) from None
    except ValueError:  # Python's limit on integer digits, not a JSON error
        raise ApiError(400, "{what} holds a number with too many digits", what=what) from None
    if _has_lone_surrogate(value):
        raise ApiError(400, "{what} holds a lone surrogate, which is not valid Unicode", what=what)
    return value


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a text anywhere in ``value`` (keys too) holds a lone surrogate, which JSON's
    ``\\u`` escapes can carry but no UTF-8 encoder, database or page accepts."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def json_object(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ApiError(400, "send a JSON object")
    return body


async def named_account(request: Request, limit: int = MAX_BODY) -> Account:
    """The account named by the body's ``"name"`` (found as at sign-in); 400 for no
    name an account could have, 404 for none of that name. What blocks, mutes and
    follows are about."""
    body = json_object(await json_body(request, limit))
    try:
        name = check_name(body.get("name"))
    except AccountError:
        raise ApiError(400, "'name' is the name of an account") from None
    found = hub_of(request).account_called(name)
    if found is None:
        raise ApiError(404, "there is no player of that name")
    return found


def bearer(request: Request) -> list[str]:
    """The seat token of ``Authorization: Bearer`` (none for a bot account's API token)."""
    header = request.headers.get("authorization")
    if header is None:
        return []
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "send the seat token as 'Authorization: Bearer <token>'")
    return [] if token.strip().startswith(API_TOKEN_PREFIX) else [token.strip()]


def api_token(conn: Request | WebSocket) -> str | None:
    """A bot account's API token sent as ``Authorization: Bearer tbt_...``, if any."""
    scheme, _, token = conn.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() == "bearer" and token.startswith(API_TOKEN_PREFIX):  # any length: 401
        return token
    return None


def credential_of(conn: Request | WebSocket) -> Credential | None:
    """What signs the request in: an API token, else the session cookie's token (what
    a channel it opens is registered under: ``Sessions.opened``)."""
    api = api_token(conn)
    if api is not None:
        return Credential.of(api, TOKEN)
    token = session_token(conn)
    return None if token is None else Credential.of(token, SESSION)


async def room_and_seats(request: Request) -> tuple[Room, frozenset[int]]:
    hub = hub_of(request)
    room = await hub.authority.fresh(request.path_params["game_id"])
    return room, hub.authority.seats_for(room, bearer(request), account_of(request))


def same_origin(conn: Request | WebSocket) -> bool:
    """Whether the request comes from our own page (or from no browser at all): a
    session cookie must not let another site act for its holder. Scheme, host and
    port must all match: ``https://host`` is another origin than ``http://host``."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
    own = _origin_parts(f"{scheme}://{conn.headers.get('host', '')}")
    return own is not None and _origin_parts(origin) == own


def _origin_parts(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin, the port filled in; ``None`` if malformed."""
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    except ValueError:
        return None
    if port is None or not parts.hostname:
        return None
    return parts.scheme.lower(), parts.hostname.lower(), port


def session_token(conn: Request | WebSocket) -> str | None:
    token = conn.cookies.get(COOKIE)
    return token if token and len(token) <= 100 else None


def account_of(conn: Request | WebSocket) -> Account | None:
    """The signed-in account of a request, if any: by a bot account's API token (then
    the cookie is not read, and any site may send it), else by the session cookie (a
    session past its limits is none, and a use refreshes it); 403 for a cross-site
    request carrying a session cookie, and for a bot account playing on the page."""
    api = api_token(conn)
    if api is not None:
        return _token_account(conn, api)
    token = session_token(conn)
    if token is None:
        return None
    if not same_origin(conn):
        raise ApiError(403, "requests from other sites cannot use your session")
    hub = hub_of(conn)
    try:
        account = hub.sessions.account(hub.store.session_of(token), token)
    except StoreError as err:  # a WebSocket has no exception handlers: say 503 here
        raise ApiError.plain(503, f"{err}; try again shortly") from None
    if account is not None and account.bot and _plays(conn):
        if isinstance(conn, WebSocket):  # a game's socket: it looks on, as a spectator
            return None
        raise ApiError(
            403, "a bot account plays through the bot API with a token (docs/bot-api.md)"
        )
    return account


def _token_account(conn: Request | WebSocket, token: str) -> Account:
    """The bot account of an API token; 401 if it is unknown (or revoked), 403 if its
    scope does not allow the request."""
    hub = hub_of(conn)
    try:
        row = hub.store.token_of(token)
    except StoreError as err:
        raise ApiError.plain(503, f"{err}; try again shortly") from None
    if row is None:
        raise ApiError(401, "this API token is unknown or was revoked")
    if _manages_account(conn):
        raise ApiError(
            403,
            "an API token cannot manage its account; sign in on the page with the password",
        )
    if row.account.read_only and isinstance(conn, Request) and conn.method not in READS:
        raise ApiError(403, "this API token may only read; playing needs the 'play' scope")
    hub.sessions.token_used(row, token)
    return row.account


READS = ("GET", "HEAD")
#: what a token may use under /api/account: its event stream (socket or NDJSON), and
#: what concerns its games (declining invitations, the block list against them)
TOKEN_ACCOUNT_PATHS = (
    "/api/account",
    "/api/account/events",
    "/api/account/ws",
    "/api/account/invitations/decline",
    "/api/account/blocks",
    "/api/account/blocks/remove",
)


def _manages_account(conn: Request | WebSocket) -> bool:
    """Whether the request manages the account (log out, a password, deleting it, its
    data, its mail settings, its tokens): what no API token may do, whatever its
    scopes."""
    path = conn.url.path.rstrip("/") or "/"
    return path.startswith("/api/account/") and path not in TOKEN_ACCOUNT_PATHS


def _plays(conn: Request | WebSocket) -> bool:
    """Whether the request plays a game (what a bot account's page session may not):
    asking for a finished game's analysis is looking, not playing."""
    path = conn.url.path
    playing = path.startswith(("/api/games", "/api/daily")) and not path.endswith("/analysis")
    return playing and (isinstance(conn, WebSocket) or conn.method not in READS)


def signed_in(request: Request) -> Account:
    account = own_account(request)
    if account is None:
        raise ApiError(401, "sign in first")
    return account


def own_account(conn: Request | WebSocket) -> Account | None:
    """``account_of`` for the account's own routes, where only an API token or the
    session cookie signs in: 401 for an ``Authorization`` header holding anything
    else (a seat token, a typo), which would otherwise be answered as signed out."""
    if "authorization" in conn.headers and api_token(conn) is None:
        raise ApiError(
            401,
            "the Authorization header holds no API token: send 'Authorization: Bearer tbt_...' "
            "(or no header, and the session cookie)",
        )
    return account_of(conn)


def require_seat(seats: frozenset[int], by_token: bool) -> None:
    """403 for a bot account's API token (``by_token``) acting in a game it holds no
    seat of: a program is told so, not to open a seat link as a spectating person is."""
    if not seats and by_token:
        raise ApiError(
            403, "this bot account has no seat in this game (its games: GET /api/account)"
        )


async def player_seats(request: Request) -> tuple[Room, frozenset[int]]:
    """``room_and_seats`` of a request that acts (act, undo, hint, resign)."""
    room, seats = await room_and_seats(request)
    require_seat(seats, api_token(request) is not None)
    return room, seats
