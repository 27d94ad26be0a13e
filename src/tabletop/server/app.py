"""The ASGI application: pages, a JSON HTTP API and a WebSocket per game.

HTTP API (described by the OpenAPI document ``openapi.py`` serves at ``GET
/api/openapi.json``; every error is ``{"error": message, "key": msgid, "args": {...}}`` with a
4xx/5xx status: the English text, and what the page translates, tabletop.i18n):

* ``GET  /i18n/{lang}.json`` — the page's messages in ``lang`` (en, de, nl);
* ``GET  /api/types`` — the games hosted, with bots and options;
* ``POST /api/games`` — create a game; the answer holds each human seat's secret link;
* ``GET  /api/games/{id}`` — the state (``Authorization: Bearer <seat token>`` for a seat);
* ``POST /api/games/{id}/actions`` ``{"action", "ply"}`` — act; ``ply`` is the move
  count of the state you saw, so a stale or repeated submission is refused (in a
  simultaneous game only if something changed for your seat since); an optional
  ``"seat"`` picks which of a hot-seat client's seats acts;
* ``POST /api/games/{id}/undo`` ``{"ply"}`` (in a simultaneous game: take back your
  pending action of this round), ``POST /api/games/{id}/hint`` ``{"ply"}``;
* ``GET  /api/games/{id}/record`` and ``/replay`` — once the game is over;
* ``POST /api/replay`` — the frames of an uploaded record;
* ``POST /api/games/{id}/join`` ``{"seat"?}`` — take an open seat (signed in);
  ``POST /api/games/{id}/claim`` with a seat token — tie that seat to your account;
* ``GET  /api/daily``, ``POST /api/daily/{game}`` ``{"day"?}``, ``GET
  /api/daily/{game}/{day}`` — the daily challenge: today's deals, a game of one,
  a day's results board (docs/web.md, "Daily challenge");
* ``GET  /api/lobby`` ``?type=&time_limit=`` — the open games (filtered);
  ``POST /api/games/{id}/cancel`` — its creator withdraws an open game;
  ``GET /api/leaderboard/{type}?offset=&limit=`` (a page of players);
  ``GET /api/players/{name}`` — a profile: ratings and finished games;
* ``POST /api/account/register`` and ``/login`` ``{"name", "password"}``, ``POST
  /api/account/logout`` and ``/logout-everywhere``, ``GET /api/account`` — you and
  your games (a session cookie; see ``accounts``); ``POST /api/account/password``
  ``{"password", "new_password"}``, ``POST /api/account/delete`` ``{"password"}``,
  ``GET /api/account/data`` — a new password, deleting the account, your data;
* ``GET/POST /api/account/email`` — your e-mail notifications (docs/web.md, "E-mail");
  ``POST /api/mail/verify`` ``{"token"}`` and ``POST /api/mail/unsubscribe?token=`` —
  the links in the mails;
* ``WS   /api/games/{id}/ws`` — send ``{"type": "hello", "tokens": [...]}`` first, then
  ``act``/``undo``/``hint`` messages like the HTTP bodies (plus an optional ``id``
  echoed in the ``ack``/``error``/``hint`` answer); every change arrives as a
  ``{"type": "state", ...}`` message;
* ``WS   /api/account/ws`` — signed in: every change of your games as it happens
  (``account_socket``; docs/web.md, "The account socket").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from types import FrameType

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import DEFAULT_EXCLUDED_CONTENT_TYPES, GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from ..core.limits import CoachLimits
from ..core.web import DEFAULT_LIMITS, BotLimits, web_games
from ..i18n import LANGUAGES, N_
from . import (
    account_socket,
    accounts_api,
    analysis_api,
    bot_api,
    chat_api,
    clock_api,
    coach_api,
    correspondence_api,
    daily_api,
    friends_api,
    games_api,
    invitations_api,
    mail_api,
    moderation_api,
    openapi,
    pages,
    reports_api,
    socket_api,
    tournaments_api,
    tutorial_api,
)
from .assets import Assets
from .botpool import BotPool
from .crowds import CrowdLimits
from .errors import ApiError
from .headers import SecurityHeaders
from .hub import OPEN_SEAT_DAYS, Hub
from .jsontext import JSONResponse
from .mail import MailSettings
from .pages import catalogue_response
from .ratelimit import RateLimits
from .sessions import SessionLimits
from .socket_api import close_sockets
from .storage import StoreError, open_store
from .sync import Takeover

log = logging.getLogger("tabletop.server")

STATIC = resources.files("tabletop").joinpath("web")
# NDJSON streams (bot_api): a line must reach the client when it is written, not when
# the compressor's buffer fills
UNCOMPRESSED = (*DEFAULT_EXCLUDED_CONTENT_TYPES, "application/x-ndjson")


def create_app(
    db_path: str,
    *,
    bot_pause: float = 0.5,
    bot_workers: int | None = None,
    bot_limits: BotLimits = DEFAULT_LIMITS,
    rate_limits: RateLimits = RateLimits(),  # noqa: B008 - frozen settings
    daily_bots: dict[str, str] | None = None,
    analysis_budget: int | None = None,
    coach: CoachLimits = CoachLimits(),  # noqa: B008 - frozen settings
    takeover: Takeover = Takeover(),  # noqa: B008 - frozen settings
    shortest_time_limit: int | None = None,
    mail: MailSettings | None = None,
    crowd: CrowdLimits = CrowdLimits(),  # noqa: B008 - frozen settings
    open_seat_days: float = OPEN_SEAT_DAYS,
    session_limits: SessionLimits = SessionLimits(),  # noqa: B008 - frozen settings
    password_queue: int = 8,
    password_threads: int | None = None,
    test_clock: bool = False,
    test_gate: Path | None = None,
) -> Starlette:
    """The app for the games stored in ``db_path`` (a SQLite file or a PostgreSQL URL);
    ``daily_bots`` overrides the bot each game's daily board compares with,
    ``analysis_budget`` the search work per move of post-game analyses, ``coach``
    what a casual game's coach may take of the server (coaching.py),
    ``shortest_time_limit`` the shortest time per move a new game may have (seconds;
    by default the shortest the lobby page offers: ``setup.shortest_time_limit``);
    ``mail``, if given, lets players ask for e-mail notifications (notify.py);
    ``crowd`` the WebSocket caps and how often a game's clients learn who is
    connected, ``open_seat_days`` how long an open game waits in the lobby;
    ``test_clock`` lets tests move the server's clock on (clock_api.py), ``test_gate``
    hold its searches (testgate.py)."""
    store = open_store(db_path)
    pool = BotPool(bot_workers, test_gate, coach.running)
    hub = Hub(
        *(store, pool, bot_pause, bot_limits, rate_limits, daily_bots, analysis_budget),
        *(takeover, shortest_time_limit, mail, crowd, open_seat_days),
        *(session_limits, password_queue, password_threads),
        coach=coach,
    )
    assets = Assets(STATIC, {name: game.assets for name, game in web_games().items()})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        _going_away_on_sigterm(hub)
        pool.start()
        await accounts_api.rekey_names(hub)
        await hub.resume()
        chores = [
            asyncio.create_task(hub.writer.checkpoint_now_and_then()),
            asyncio.create_task(hub.forget_finished_now_and_then()),
            *await hub.notifier.start(),
            asyncio.create_task(hub.expire_open_games_now_and_then()),
            asyncio.create_task(hub.sessions.check_now_and_then()),
            asyncio.create_task(hub.director.run()),
        ]
        if store.shared:  # other processes change games too: follow them
            chores.append(asyncio.create_task(hub.follower.listen(takeover.check_seconds)))
            chores.append(asyncio.create_task(hub.online.renew_now_and_then()))
        yield
        for chore in chores:
            chore.cancel()
        await hub.writer.committer.idle()  # writes under way reach the database
        pool.close()
        hub.close()
        store.close()

    routes = [
        *pages.ROUTES,
        *accounts_api.ROUTES,
        *games_api.ROUTES,
        *invitations_api.ROUTES,
        *chat_api.ROUTES,
        *friends_api.ROUTES,
        *bot_api.ROUTES,
        *analysis_api.ROUTES,
        *coach_api.ROUTES,
        *daily_api.ROUTES,
        *tutorial_api.ROUTES,
        *mail_api.ROUTES,
        *reports_api.ROUTES,
        *moderation_api.ROUTES,
        *correspondence_api.ROUTES,
        *tournaments_api.ROUTES,
        *openapi.ROUTES,
        *socket_api.ROUTES,
        *account_socket.ROUTES,
        *assets.routes(),
        *(clock_api.ROUTES if test_clock else []),
    ]
    app = Starlette(
        routes=routes,
        # Outermost first; GZip leaves WebSockets and small or already encoded bodies alone.
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(GZipMiddleware, exclude_content_types=UNCOMPRESSED),
        ],
        lifespan=lifespan,
        exception_handlers={
            ApiError: _api_error,
            StoreError: _store_error,
            HTTPException: _http_error,
            ClientDisconnect: _client_gone,
            500: _crash,
        },
    )
    app.state.hub = hub
    app.state.assets = assets
    app.state.catalogues = {lang: catalogue_response(lang) for lang in LANGUAGES}
    return app


def _going_away_on_sigterm(hub: Hub) -> None:
    """On SIGTERM, close this process's WebSockets with 1001 (going away: reconnect,
    perhaps to another process) before uvicorn's own shutdown, which would say 1012;
    then let uvicorn's handler go on (it waits for requests and writes under way)."""
    loop = asyncio.get_running_loop()
    uvicorn_handler = signal.getsignal(signal.SIGTERM)
    if not callable(uvicorn_handler):
        return

    async def go_away(sig: int, frame: FrameType | None) -> None:
        await close_sockets(hub, timeout=1.5)
        uvicorn_handler(sig, frame)

    def handler(sig: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(lambda: loop.create_task(go_away(sig, frame)))

    with contextlib.suppress(ValueError):  # not the main thread (an embedded app): skip
        signal.signal(signal.SIGTERM, handler)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return JSONResponse(exc.body(), status_code=exc.status, headers=exc.headers())


async def _store_error(request: Request, exc: Exception) -> Response:
    error = ApiError.plain(503, f"{exc}; try again shortly")
    return JSONResponse(error.body(), status_code=503, headers=error.headers())


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    messages = {
        404: N_("there is nothing at this address"),
        405: N_("that method is not allowed here"),
    }
    key = messages.get(exc.status_code)
    error = ApiError(exc.status_code, key) if key else ApiError.plain(exc.status_code, exc.detail)
    return JSONResponse(error.body(), status_code=exc.status_code)


async def _client_gone(request: Request, exc: Exception) -> Response:
    """A client that went before sending all of its request: nothing was done, and
    nothing failed here; one line, not two tracebacks (a flood wrote 5.8 MB of them)."""
    client = request.client.host if request.client else "a client"
    log.info("%s went away before sending all of %s %s", client, request.method, request.url.path)
    return Response(status_code=400)  # nobody reads it: the connection is gone


async def _crash(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path, exc_info=exc)
    return JSONResponse(
        ApiError(500, "the server failed; nothing was changed").body(), status_code=500
    )
