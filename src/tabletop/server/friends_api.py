"""The HTTP API of a signed-in account's friends (friends.py says what they are):

* ``GET /api/account/friends`` — the accounts you follow: each one's name, whether it
  is online and the games it plays (spectator links);
* ``POST /api/account/friends`` ``{"name"}`` — follow that account;
* ``POST /api/account/friends/remove`` ``{"name"}`` — stop following it.

Each answers the list as ``GET`` does. The page reads it again now and then
(``shell/friends.js``), so each account's looks are rate-limited
(``OnlineBoard.limit``); a look is one query.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .errors import ApiError
from .friend_writes import TOO_MANY, Follow, Unfollow
from .friends import MOST_FOLLOWED
from .jsontext import JSONResponse
from .request import hub_of, named_account, signed_in
from .rows import Account


def _answer(request: Request, account: Account) -> Response:
    friends = hub_of(request).online.friends(account)
    return JSONResponse({"friends": friends, "most": MOST_FOLLOWED})


async def _list(request: Request) -> Response:
    account = signed_in(request)
    hub_of(request).online.limit_for(account)
    return _answer(request, account)


async def _follow(request: Request) -> Response:
    """``{"name"}``: follow that account (not yourself; at most ``MOST_FOLLOWED``)."""
    account = signed_in(request)
    hub = hub_of(request)
    hub.online.limit_for(account)
    other = await named_account(request)
    if other.id == account.id:
        raise ApiError(400, "you cannot follow yourself")
    if await hub.write(Follow(account.id, other.id, MOST_FOLLOWED)) == TOO_MANY:
        raise ApiError(
            409,
            "you follow the most players allowed ({n}); stop following some first",
            n=MOST_FOLLOWED,
        )
    return _answer(request, account)


async def _unfollow(request: Request) -> Response:
    """``{"name"}``: stop following that account."""
    account = signed_in(request)
    hub = hub_of(request)
    hub.online.limit_for(account)
    other = await named_account(request)
    await hub.write(Unfollow(account.id, other.id))
    return _answer(request, account)


ROUTES: list[BaseRoute] = [
    Route("/api/account/friends", _list),
    Route("/api/account/friends", _follow, methods=["POST"]),
    Route("/api/account/friends/remove", _unfollow, methods=["POST"]),
]
