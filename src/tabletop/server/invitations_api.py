"""The HTTP API of a signed-in account's defences against unwanted invitations: its
block list, and declining every invitation at once (invitations.py says why)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .chat import tell_hidden
from .errors import ApiError
from .jsontext import JSONResponse
from .request import hub_of, named_account, signed_in
from .rows import Account
from .writes import Block, Unblock


def _blocked(request: Request, account: Account) -> list[dict[str, str]]:
    return [{"name": a.name} for a in hub_of(request).store.blocked_by(account.id)]


async def _list(request: Request) -> Response:
    account = signed_in(request)
    return JSONResponse({"blocked": _blocked(request, account)})


async def _block(request: Request) -> Response:
    """``{"name"}``: the two accounts are kept apart (apart.py): the invitations
    waiting between them are declined, either way (the other is not told why)."""
    account = signed_in(request)
    other = await named_account(request)
    if other.id == account.id:
        raise ApiError(400, "you cannot block yourself")
    hub = hub_of(request)
    await hub.write(Block(account.id, other.id))
    tell_hidden(hub, account.id, other.name)  # its chat leaves this account's pages at once
    declined = await hub.authority.decline_all(account, creator=other.id)
    await hub.authority.decline_all(other, creator=account.id)  # not this account's to list
    return JSONResponse({"blocked": _blocked(request, account), "declined": declined})


async def _unblock(request: Request) -> Response:
    """``{"name"}``: that account may invite this one again."""
    account = signed_in(request)
    other = await named_account(request)
    await hub_of(request).write(Unblock(account.id, other.id))
    return JSONResponse({"blocked": _blocked(request, account)})


async def _decline_all(request: Request) -> Response:
    """Every invitation waiting for this account is declined (its seats open)."""
    account = signed_in(request)
    return JSONResponse({"declined": await hub_of(request).authority.decline_all(account)})


ROUTES: list[BaseRoute] = [
    Route("/api/account/blocks", _list),
    Route("/api/account/blocks", _block, methods=["POST"]),
    Route("/api/account/blocks/remove", _unblock, methods=["POST"]),
    Route("/api/account/invitations/decline", _decline_all, methods=["POST"]),
]
