"""The HTTP API of tournaments (issue 47; tournaments.py says what an event may be,
tournament_director.py runs them; docs/web.md, "Tournaments"): list and create events,
read one, join and withdraw, add our bots, call one off before its start, and read an
entrant's games."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from ..core.web import JSON
from ..i18n import N_
from .errors import ApiError, reading
from .jsontext import JSONResponse
from .ratelimit import RateLimit
from .ratings import rating_key
from .request import account_of, hub_of, json_body, signed_in
from .rows import Account
from .tournament_reads import CANCELLED, RUNNING, UPCOMING, TournamentRow
from .tournament_writes import (
    ALREADY,
    FULL,
    JOINED,
    TOO_MANY_BOTS,
    CreateTournament,
    JoinTournament,
    SetStatus,
    Withdraw,
)
from .tournaments import (
    LISTED,
    MAX_BOTS,
    MAX_ENTRANTS,
    PER_DAY,
    Viewer,
    bot_label,
    bots_offered,
    can_manage,
    check_event,
    event_json,
    game_ref,
    listing,
)

#: joins and withdrawals per account (a page's double click is fine; a loop is not)
ENTRY_LIMIT = RateLimit(
    N_("too many joins and withdrawals; wait {seconds} s and try again"),
    per_minute=20,
    burst=10,
)
REFUSED = {
    FULL: N_("this event has no room for more entrants (at most {n})"),
    ALREADY: N_("you are an entrant of this event already"),
    TOO_MANY_BOTS: N_("this event has as many of our bots as it may ({n})"),
}


def _viewer(request: Request) -> Viewer:
    account = account_of(request)
    moderator = account is not None and reading(hub_of(request).store.is_moderator, account.id)
    return Viewer(account, moderator)


def _event_row(request: Request) -> TournamentRow:
    tournament_id = request.path_params["tournament_id"]
    row = None
    if len(tournament_id) <= 40:
        row = reading(hub_of(request).store.tournament, tournament_id)
    if row is None:
        raise ApiError(404, "there is no such event")
    return row


def event_answer(request: Request, row: TournamentRow, viewer: Viewer) -> JSON:
    store = hub_of(request).store
    return event_json(
        row,
        reading(store.tournament_entrants, row.id),
        reading(store.tournament_games, row.id),
        reading(store.tournament_byes, row.id),
        viewer,
        hub_of(request).clock(),
    )


async def _empty_body(request: Request) -> None:
    """The body of join, withdraw and cancel: nothing, or ``{}``."""
    body = await json_body(request)
    if body is not None and not isinstance(body, dict):
        raise ApiError(400, "send a JSON object")


async def _list(request: Request) -> Response:
    """The public events by status, and the caller's own private ones."""
    account = account_of(request)
    viewer = None if account is None else account.id
    store = hub_of(request).store
    found = {status: reading(store.tournaments_listed, viewer, status) for status in LISTED}
    return JSONResponse(listing(found))


async def _create(request: Request) -> Response:
    hub = hub_of(request)
    account = signed_in(request)
    body = await json_body(request)
    moderator = reading(hub.store.is_moderator, account.id)
    now = hub.clock()
    event = check_event(body, account, moderator, now, hub.limits)
    made = reading(hub.store.tournaments_created_since, account.id, now - 24 * 3600)
    if made >= PER_DAY:
        raise ApiError(
            429, "you have created as many events today as an account may ({n})", n=PER_DAY
        )
    await hub.write(CreateTournament(event))
    hub.director.wake()
    return JSONResponse({"id": event.id, "url": f"/t/{event.id}"}, status_code=201)


async def _read(request: Request) -> Response:
    row = _event_row(request)
    return JSONResponse(event_answer(request, row, _viewer(request)))


def _spend_entry(account: Account) -> None:
    wait = ENTRY_LIMIT.wait(account.id)
    if wait > 0:
        raise ApiError.wait(429, ENTRY_LIMIT.what, wait)


def _open(row: TournamentRow) -> None:
    if row.status not in (UPCOMING, RUNNING):
        raise ApiError(409, "this event is over")


async def _join(request: Request) -> Response:
    """The caller (a person, or a bot account by its token) joins; a withdrawn entrant
    comes back."""
    hub = hub_of(request)
    account = signed_in(request)
    await _empty_body(request)
    row = _event_row(request)
    _open(row)
    _spend_entry(account)
    rating = reading(hub.store.rating, rating_key(row.type, "live"), f"a:{account.id}")[0]
    joined = await hub.write(
        JoinTournament(row.id, account.id, None, account.name, rating, MAX_ENTRANTS, MAX_BOTS)
    )
    _refused(joined)
    hub.director.wake()
    return await _fresh(request, row.id)


def _refused(answer: str) -> None:
    if answer == JOINED:
        return
    if answer in REFUSED:
        most = MAX_BOTS if answer == TOO_MANY_BOTS else MAX_ENTRANTS
        raise ApiError(409, REFUSED[answer], n=most)
    raise ApiError(409, "this event is over")


async def _fresh(request: Request, tournament_id: str) -> Response:
    row = reading(hub_of(request).store.tournament, tournament_id)
    if row is None:
        raise ApiError(404, "there is no such event")
    return JSONResponse(event_answer(request, row, _viewer(request)))


async def _withdraw(request: Request) -> Response:
    """The caller leaves: before the start it is simply gone; after, it keeps its
    points, is paired no more, and its unfinished game of the event is resigned (so
    that nobody waits for it)."""
    hub = hub_of(request)
    account = signed_in(request)
    await _empty_body(request)
    row = _event_row(request)
    _open(row)
    entrants = reading(hub.store.tournament_entrants, row.id)
    mine = next((e for e in entrants if e.account_id == account.id), None)
    if mine is None or mine.withdrawn is not None:
        raise ApiError(409, "you are not an entrant of this event")
    _spend_entry(account)
    await hub.write(Withdraw(row.id, mine.entrant))
    await hub.director.resign_game_of(row.id, mine.entrant, account)
    hub.director.wake()
    return await _fresh(request, row.id)


async def _add_bot(request: Request) -> Response:
    """``{"bot": spec}``: the organiser adds one of our bots as an entrant."""
    hub = hub_of(request)
    viewer = _viewer(request)
    if viewer.account is None:
        raise ApiError(401, "sign in first")
    body = await json_body(request)
    row = _event_row(request)
    if not can_manage(row, viewer):
        raise ApiError(403, "only the event's organiser or a moderator may do this")
    spec = body.get("bot") if isinstance(body, dict) else None
    offered = bots_offered(row.type)
    if not isinstance(spec, str) or spec not in offered:
        raise ApiError(400, "'bot' is one of this game's bots: {bots}", bots=", ".join(offered))
    _open(row)  # (no rate limit: at most ``MAX_BOTS`` per event)
    name = _bot_name(request, row, bot_label(row.type, spec))
    rating = reading(hub.store.rating, rating_key(row.type, "live"), f"b:{spec}")[0]
    _refused(
        await hub.write(JoinTournament(row.id, None, spec, name, rating, MAX_ENTRANTS, MAX_BOTS))
    )
    hub.director.wake()
    return await _fresh(request, row.id)


def _bot_name(request: Request, row: TournamentRow, label: str) -> str:
    """A bot entrant's name: its label, numbered from the second of the same label on."""
    names = {e.name for e in reading(hub_of(request).store.tournament_entrants, row.id)}
    if label not in names:
        return label
    number = 2
    while f"{label} {number}" in names:
        number += 1
    return f"{label} {number}"


async def _cancel(request: Request) -> Response:
    """The organiser (or a moderator) calls the event off before its start."""
    hub = hub_of(request)
    viewer = _viewer(request)
    if viewer.account is None:
        raise ApiError(401, "sign in first")
    await _empty_body(request)
    row = _event_row(request)
    if not can_manage(row, viewer):
        raise ApiError(403, "only the event's organiser or a moderator may do this")
    if row.status != UPCOMING:
        raise ApiError(409, "only an event that has not started can be called off")
    if not await hub.write(SetStatus(row.id, row.version, CANCELLED)):
        raise ApiError(409, "the event changed meanwhile; look again")
    return await _fresh(request, row.id)


async def _entrant_games(request: Request) -> Response:
    row = _event_row(request)
    raw = request.path_params["entrant"]
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 7 else 0
    store = hub_of(request).store
    entrants = reading(store.tournament_entrants, row.id)
    names = {e.entrant: e.name for e in entrants}
    if number not in names:
        raise ApiError(404, "this event has no such entrant")
    games = [g for g in reading(store.tournament_games, row.id) if number in g.entrants]
    return JSONResponse({"games": [game_ref(g, names) for g in games]})


ROUTES: list[BaseRoute] = [
    Route("/api/tournaments", _list),
    Route("/api/tournaments", _create, methods=["POST"]),
    Route("/api/tournaments/{tournament_id}", _read),
    Route("/api/tournaments/{tournament_id}/join", _join, methods=["POST"]),
    Route("/api/tournaments/{tournament_id}/withdraw", _withdraw, methods=["POST"]),
    Route("/api/tournaments/{tournament_id}/bots", _add_bot, methods=["POST"]),
    Route("/api/tournaments/{tournament_id}/cancel", _cancel, methods=["POST"]),
    Route("/api/tournaments/{tournament_id}/entrants/{entrant}/games", _entrant_games),
]
