"""The pages (one shell page for every address) and their messages per language."""

from __future__ import annotations

import hashlib

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..i18n import LANGUAGES, catalogue
from .assets import Assets
from .errors import ApiError


async def _page(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    return assets.page_response(request)


def catalogue_response(lang: str) -> tuple[bytes, str]:
    body = orjson.dumps(catalogue(lang))
    return body, f'W/"{hashlib.sha256(body).hexdigest()[:16]}"'


async def _catalogue(request: Request) -> Response:
    """The page's messages in one language (tabletop.i18n), revalidated by ETag."""
    found = request.app.state.catalogues.get(request.path_params["lang"])
    if found is None:
        raise ApiError(
            404,
            "there is no such language; the page speaks {languages}",
            languages=", ".join(LANGUAGES),
        )
    body, etag = found
    headers = {"Cache-Control": "no-cache", "ETag": etag}
    if etag.removeprefix("W/") in {
        t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")
    }:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


ROUTES: list[BaseRoute] = [
    Route("/", _page),
    Route("/g/{game_id}", _page),
    Route("/replay", _page),
    Route("/replay/{game_id}", _page),
    Route("/i18n/{lang}.json", _catalogue),
    Route("/lobby", _page),
    Route("/daily", _page),
    Route("/learn/{game}", _page),  # a game's tutorial (shell/tutorial.js)
    Route("/me", _page),
    Route("/leaderboard", _page),
    Route("/leaderboard/{type}", _page),
    Route("/u/{name}", _page),
    Route("/friends", _page),  # the players you follow (shell/friends.js)
    Route("/mail/verify", _page),  # the links in mails (notify.py)
    Route("/mail/unsubscribe", _page),
    Route("/moderation", _page),  # the moderators' page (shell/moderation.js)
    Route("/tournaments", _page),  # the tournaments and the form (shell/tournaments.js)
    Route("/t/{tournament_id}", _page),  # one tournament (shell/tournament_event.js)
]
