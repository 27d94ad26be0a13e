"""Tournaments on the server (issue 47): what a new event may be, and how an event,
its standings and its games are shown (``tournaments_api`` serves them,
``tournament_director`` runs the events; the engine, ``tabletop.tournaments``, works
out points, standings and pairings; docs/web.md, "Tournaments").

Limits: a name of at most ``MAX_NAME`` characters (one line, no control or direction
characters), ``PER_DAY`` events created per account and day, ``MAX_ENTRANTS`` entrants
per event of which at most ``MAX_BOTS`` are our bots, a start at most ``MAX_AHEAD``
ahead."""

from __future__ import annotations

import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from ..core.web import JSON, BotLimits, WebGame, get_web_game, web_games
from ..tournaments import Bye, Entrant, Format, Game, Kind, Standing, points, standings
from .errors import ApiError, reading
from .moderation import check_text
from .rows import Account
from .setup import bot_labels, check_setup
from .storage import GameStore
from .tournament_reads import (
    FINISHED,
    RUNNING,
    UPCOMING,
    EntrantRow,
    EventGame,
    TournamentRow,
)
from .tournament_writes import NewTournament

MAX_NAME = 60
PER_DAY = 5  # events an account creates per day (moderators too: a typo makes many)
MAX_ENTRANTS = 500
MAX_BOTS = 16
MAX_AHEAD = 7 * 24 * 3600  # the latest start, seconds from now
GAMES_SHOWN = 50
KINDS = ("arena", "swiss")
RECURRING = {"daily": 24 * 3600, "weekly": 7 * 24 * 3600}
MAX_ROUNDS = 15
MINUTES = (10, 360)
#: an event's time control when its creator chose none: a real-time clock, so that a
#: player who stops moving loses on time and never stalls the others
DEFAULT_CLOCK = {"clock_base": 300, "clock_increment": 5}
TIME_FIELDS = ("clock_base", "clock_increment", "time_limit")
FIELDS = frozenset(
    {"kind", "type", "name", "players", "rounds", "minutes", "starts_in", "starts"}
    | {"visibility", "recurring", "rated", "options", *TIME_FIELDS}
)


def _whole(body: JSON, field: str, least: int, most: int) -> int:
    value = body.get(field)
    if type(value) is not int or not least <= value <= most:
        raise ApiError(
            400, "'{field}' is a whole number from {least} to {most}",
            field=field, least=least, most=most,
        )  # fmt: skip
    return value


def check_event(
    body: Any, account: Account, moderator: bool, now: float, limits: BotLimits
) -> NewTournament:
    """The event a create request's ``body`` asks for; a 400 (403 for what only
    moderators may) saying what is wrong."""
    if not isinstance(body, dict):
        raise ApiError(400, "send a JSON object describing the event")
    unknown = sorted(set(body) - FIELDS)
    if unknown:
        raise ApiError(400, "unknown field '{field}'", field=unknown[0])
    kind = body.get("kind")
    if kind not in KINDS:
        raise ApiError(400, '\'kind\' is "arena" or "swiss"')
    game_type = _game_type(body.get("type"))
    name = _event_name(body.get("name"))
    players = _whole(body, "players", 2, max(2, game_type.max_seats))
    rounds = _whole(body, "rounds", 1, MAX_ROUNDS) if kind == "swiss" else None
    minutes = _whole(body, "minutes", *MINUTES) if kind == "arena" else None
    if kind == "swiss" and "minutes" in body or kind == "arena" and "rounds" in body:
        raise ApiError(400, "an arena has 'minutes', a Swiss event 'rounds'")
    visibility = body.get("visibility", "private")
    if visibility not in ("private", "public"):
        raise ApiError(400, '\'visibility\' is "private" (a link) or "public"')
    recurring = body.get("recurring")
    if recurring is not None and recurring not in RECURRING:
        raise ApiError(400, '\'recurring\' is "daily", "weekly" or null')
    if (visibility == "public" or recurring) and not moderator:
        raise ApiError(403, "only moderators may create public or recurring events")
    options = game_options(body, account, game_type, players, limits)
    starts = _starts(body, now)
    least = smallest_table(game_type, players)
    return NewTournament(
        *(event_id(), kind, game_type.name, name, players, least, rounds),
        *(minutes, options, starts, visibility, account.id, recurring, now),
    )


def _event_name(raw: object) -> str:
    """One line of at most ``MAX_NAME`` characters, refused as an account's name would
    be (``names.py``) for invisible formatting, private-use or unassigned characters
    besides controls and direction marks: the list and the event page show it."""
    text = " ".join(check_text(raw, "name", MAX_NAME, required=True).split())
    if any(unicodedata.category(char) in ("Cf", "Co", "Cn") for char in text):
        raise ApiError(
            400, "'{field}' holds control or direction characters; send plain text", field="name"
        )
    return text


def _game_type(raw: object) -> WebGame:
    if not isinstance(raw, str) or raw not in web_games():
        raise ApiError(400, "'type' is one of the games: {types}", types=", ".join(web_games()))
    return get_web_game(raw)


def smallest_table(game_type: WebGame, players: int) -> int:
    """The smallest table the engine may form: one fewer than the largest from 3 on
    (so that every entrant can be seated), never fewer than the game allows."""
    return 2 if players < 3 else max(game_type.min_seats, 2, players - 1)


def _starts(body: JSON, now: float) -> float:
    if "starts" in body and "starts_in" in body:
        raise ApiError(400, "send 'starts' or 'starts_in', not both")
    if "starts" in body:
        at = body["starts"]
        # a minute's slack: a client's "now" may lag the server's a little
        if type(at) not in (int, float) or not now - 60 <= at <= now + MAX_AHEAD:
            raise ApiError(400, "'starts' (Unix seconds) is from now to 7 days on")
        return max(float(at), now)
    seconds = body.get("starts_in", 0)
    if type(seconds) is not int or not 0 <= seconds <= MAX_AHEAD:
        raise ApiError(400, "'starts_in' is a number of seconds from 0 to 7 days")
    return now + seconds


def game_options(
    body: JSON, account: Account, game_type: WebGame, players: int, limits: BotLimits
) -> JSON:
    """The options of the event's games, checked as a new game of ``players`` people
    would be (``setup.check_setup``): the time control (``DEFAULT_CLOCK`` if none),
    the game's own options, and whether they are rated."""
    chosen = {k: body[k] for k in TIME_FIELDS if k in body}
    setup_body = {
        "type": game_type.name,
        "seats": [{"kind": "human", "open": True}] * players,
        "options": body.get("options", {}),
        "rated": body.get("rated", True),
        **(chosen or DEFAULT_CLOCK),
    }
    return check_setup(setup_body, account, limits).options


def event_id() -> str:
    """A new event's id: never one that begins with "-", which a command line would
    take for an option (``bot_client.py --tournament ID``)."""
    while (found := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return found


def next_occurrence(row: TournamentRow, now: float) -> NewTournament | None:
    """A recurring event's next one: the same event a day or a week after its start
    (the first such start still ahead)."""
    if row.recurring not in RECURRING:
        return None
    step = RECURRING[row.recurring]
    starts = row.starts + step
    while starts <= now:
        starts += step
    return NewTournament(
        *(event_id(), row.kind, row.type, row.name, row.players),
        *(row.min_players, row.rounds, row.minutes, row.options, starts),
        *(row.visibility, row.creator, row.recurring, now),
    )


def event_format(row: TournamentRow) -> Format:
    kind: Kind = "arena" if row.kind == "arena" else "swiss"
    return Format(kind, row.players, row.min_players, row.rounds, row.minutes)


def engine_games(games: list[EventGame]) -> list[Game]:
    return [Game(g.game_id, g.round, g.entrants, g.ranks, g.ord) for g in games]


def engine_entrants(entrants: list[EntrantRow]) -> list[Entrant]:
    return [Entrant(e.entrant, e.rating, e.withdrawn is None) for e in entrants]


def standings_of(
    row: TournamentRow,
    entrants: list[EntrantRow],
    games: list[EventGame],
    byes: list[tuple[int, int]],
) -> list[Standing]:
    """The standings as the engine works them out from the stored games' results."""
    return standings(
        event_format(row),
        engine_entrants(entrants),
        engine_games(games),
        [Bye(entrant, round_no) for entrant, round_no in byes],
    )


@dataclass(frozen=True)
class Viewer:
    """Who asks: its account (if signed in) and whether it is a moderator."""

    account: Account | None
    moderator: bool = False


def summary(row: TournamentRow) -> JSON:
    return {
        "id": row.id,
        "url": f"/t/{row.id}",
        "name": row.name,
        "kind": row.kind,
        "type": row.type,
        "players": row.players,
        "rounds": row.rounds,
        "minutes": row.minutes,
        "starts": row.starts,
        "ends": row.ends,
        "status": row.status,
        "round": row.round,
        "entrants": row.entrants,
        "visibility": row.visibility,
        "recurring": row.recurring,
        "creator": row.creator_name,
    }


def time_control(options: JSON) -> JSON:
    return {k: options[k] for k in (*TIME_FIELDS, "on_timeout") if k in options}


def can_manage(row: TournamentRow, viewer: Viewer) -> bool:
    account = viewer.account
    return account is not None and (row.creator == account.id or viewer.moderator)


def bots_offered(game_type: str) -> list[str]:
    """Our bots an organiser may add: the game's multi-player bots, by spec."""
    types = web_games()
    if game_type not in types:
        return []
    modes: dict[str, list[JSON]] = types[game_type].describe().get("bots", {})
    mode = modes.get("standard") or next((v for k, v in modes.items() if k != "solo"), [])
    return [bot["spec"] for bot in mode]


def bot_label(game_type: str, spec: str) -> str:
    return bot_labels(get_web_game(game_type)).get(spec, spec)


def entrant_kind(entrant: EntrantRow) -> str:
    if entrant.bot is not None:
        return "bot"
    return "bot_account" if entrant.bot_account else "human"


def playing(games: list[EventGame]) -> dict[int, str]:
    """Each entrant's unfinished game of the event, if any."""
    return {e: g.game_id for g in games if not g.over for e in g.entrants}


def game_ref(game: EventGame, names: dict[int, str]) -> JSON:
    return {
        "id": game.game_id,
        "url": f"/g/{game.game_id}",
        "round": game.round,
        "entrants": list(game.entrants),
        "names": [names.get(e, "?") for e in game.entrants],
        "ranks": None if game.ranks is None else list(game.ranks),
        "points": None if game.ranks is None else list(points(game.ranks)),
    }


def games_shown(games: list[EventGame], names: dict[int, str]) -> list[JSON]:
    """The running games first, then the latest finished ones: ``GAMES_SHOWN`` at most."""
    running = [g for g in reversed(games) if not g.over]
    done = [g for g in reversed(games) if g.over]
    return [game_ref(g, names) for g in (running + done)[:GAMES_SHOWN]]


@dataclass(frozen=True)
class Shown:
    """What every viewer of an event sees alike: worked out at most once a second per
    event and process (``EventCache``), however many pages poll it."""

    entrants: list[EntrantRow]
    busy: dict[int, str]  # each entrant's unfinished game
    standings: list[JSON]
    games: list[JSON]
    results: int  # finished games


def shown(
    row: TournamentRow,
    entrants: list[EntrantRow],
    games: list[EventGame],
    byes: list[tuple[int, int]],
) -> Shown:
    names = {e.entrant: e.name for e in entrants}
    busy = playing(games)
    by_number = {e.entrant: e for e in entrants}
    table = [
        _standing(s, by_number[s.entrant], busy)
        for s in standings_of(row, entrants, games, byes)
        if s.entrant in by_number
    ]
    return Shown(entrants, busy, table, games_shown(games, names), sum(g.over for g in games))


class EventCache:
    """The ``Shown`` of events, kept ``seconds`` (or until the event's version moves:
    a join or a pairing shows at once). A 500-entrant arena's 3,000 games take ~45 ms
    to read and score; a page polls every 3 s."""

    def __init__(self, store: GameStore, seconds: float = 1.0, most: int = 1000) -> None:
        self.store = store
        self.seconds = seconds
        self.most = most
        self._kept: dict[str, tuple[int, float, Shown]] = {}

    def shown(self, row: TournamentRow) -> Shown:
        kept = self._kept.get(row.id)
        now = time.monotonic()
        if kept is not None and kept[0] == row.version and now - kept[1] < self.seconds:
            return kept[2]
        found = shown(
            row,
            reading(self.store.tournament_entrants, row.id),
            reading(self.store.tournament_games, row.id),
            reading(self.store.tournament_byes, row.id),
        )
        if len(self._kept) >= self.most:
            self._kept.clear()
        self._kept[row.id] = (row.version, now, found)
        return found


def event_json(row: TournamentRow, seen: Shown, viewer: Viewer, now: float) -> JSON:
    """``GET /api/tournaments/{id}``: the event with its standings and games."""
    me = _me(seen.entrants, viewer, seen.busy)
    manage = can_manage(row, viewer)
    open_to_join = row.status in (UPCOMING, RUNNING)
    return {
        **summary(row),
        # the page skips re-drawing an unchanged event: the stored version moves with
        # every decision, the finished games' count with every result
        "version": row.version + seen.results,
        "now": now,
        "rated": row.options.get("rated") is not False,
        "time_control": time_control(row.options),
        "standings": seen.standings,
        "games": seen.games,
        "me": me,
        "can_join": viewer.account is not None and open_to_join
        and (me is None or me["withdrawn"]),
        "can_manage": manage,
        "bots": bots_offered(row.type) if manage and open_to_join else [],
    }  # fmt: skip


def _standing(s: Standing, entrant: EntrantRow, busy: dict[int, str]) -> JSON:
    return {
        "entrant": s.entrant,
        "name": entrant.name,
        "kind": entrant_kind(entrant),
        "place": s.place,
        "points": s.points,
        "games": s.games,
        "wins": s.wins,
        "tiebreaks": list(s.tiebreaks),
        "results": list(s.results),
        "withdrawn": entrant.withdrawn is not None,
        "playing": busy.get(s.entrant),
    }


def _me(entrants: list[EntrantRow], viewer: Viewer, busy: dict[int, str]) -> JSON | None:
    if viewer.account is None:
        return None
    mine = next((e for e in entrants if e.account_id == viewer.account.id), None)
    if mine is None:
        return None
    return {
        "entrant": mine.entrant,
        "playing": busy.get(mine.entrant),
        "withdrawn": mine.withdrawn is not None,
    }


def listing(rows: dict[str, list[TournamentRow]]) -> JSON:
    return {status: [summary(row) for row in found] for status, found in rows.items()}


LISTED = (UPCOMING, RUNNING, FINISHED)
