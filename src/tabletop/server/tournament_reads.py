"""The reads of tournaments (issue 47; tournaments_api.py, tournament_director.py): an
event, its entrants, its games with their results and its byes (``sqlstore.SqlStore``
has them, on both stores). A game's result is read from the game's own seats
(``seats.rank``, written when it ended), so standings are always a recomputation from
the stored games."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .sql import Sql
from .sqlreader import SqlReader

#: an event's states: before its start, under way, over, called off before its start
UPCOMING, RUNNING, FINISHED, CANCELLED = "upcoming", "running", "finished", "cancelled"


#: tournaments (issue 47; tournament_director.py): an event, its entrants (accounts or
#: our bots, numbered per event in joining order), the games the director created for
#: it (their seats' entrants; results come from the games' own ``seats.rank``) and the
#: byes it gave. Times are Unix seconds of the server's clock.
TOURNAMENT_TABLES = """
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    type TEXT NOT NULL,
    name TEXT NOT NULL,
    players INTEGER NOT NULL,
    min_players INTEGER NOT NULL,
    rounds INTEGER,
    minutes INTEGER,
    options TEXT NOT NULL,
    starts {real} NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    visibility TEXT NOT NULL,
    creator {big} REFERENCES accounts(id),
    recurring TEXT,
    created {real} NOT NULL,
    ends {real},
    finished {real},
    version INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tournaments_status ON tournaments (status, starts);
CREATE INDEX tournaments_creator ON tournaments (creator, created);
CREATE TABLE tournament_entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    entrant INTEGER NOT NULL,
    account_id {big} REFERENCES accounts(id),
    bot TEXT,
    name TEXT NOT NULL,
    rating {real} NOT NULL,
    joined {real} NOT NULL,
    withdrawn {real},
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, account_id)
);
CREATE INDEX tournament_entrants_account ON tournament_entrants (account_id);
CREATE TABLE tournament_games (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    round INTEGER NOT NULL,
    ord INTEGER NOT NULL,
    created {real} NOT NULL
);
CREATE INDEX tournament_games_event ON tournament_games (tournament_id, ord);
CREATE TABLE tournament_seats (
    game_id TEXT NOT NULL REFERENCES tournament_games(game_id),
    seat INTEGER NOT NULL,
    entrant INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    entrant INTEGER NOT NULL,
    round INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, entrant, round)
);
"""


@dataclass(frozen=True)
class TournamentRow:
    """One stored event (``TOURNAMENT_TABLES``); ``entrants``: how many joined."""

    id: str
    kind: str  # "arena" or "swiss"
    type: str  # the game type's name
    name: str
    players: int
    min_players: int
    rounds: int | None
    minutes: int | None
    options: dict[str, Any]  # the games' options: the time control, "rated"
    starts: float
    status: str
    round: int
    visibility: str  # "public" or "private"
    creator: int | None
    creator_name: str | None
    recurring: str | None  # "daily", "weekly" or None
    created: float
    ends: float | None
    finished: float | None
    version: int
    entrants: int


@dataclass(frozen=True)
class EntrantRow:
    """One entrant of an event: an account (a person or a bot account) or our bot."""

    entrant: int
    account_id: int | None
    bot: str | None  # our bot's spec, for our bots
    name: str
    rating: float
    joined: float
    withdrawn: float | None
    bot_account: bool  # the account is a bot account (plays through the bot API)


@dataclass(frozen=True)
class EventGame:
    """A game of an event: its entrants in seat order, and each seat's rank once over."""

    game_id: str
    round: int
    ord: int
    entrants: tuple[int, ...]
    ranks: tuple[int, ...] | None
    over: bool


_EVENT = (
    "t.id, t.kind, t.type, t.name, t.players, t.min_players, t.rounds, t.minutes, "
    "t.options, t.starts, t.status, t.round, t.visibility, t.creator, a.name, t.recurring, "
    "t.created, t.ends, t.finished, t.version, "
    "(SELECT count(*) FROM tournament_entrants e WHERE e.tournament_id = t.id)"
)
_FROM = "tournaments t LEFT JOIN accounts a ON a.id = t.creator"


def _event(row: Sequence[Any]) -> TournamentRow:
    values = list(row)
    values[8] = json.loads(values[8])
    return TournamentRow(*values)


class TournamentReads(SqlReader):
    """What the store reads of tournaments (a mixin of ``SqlStore``)."""

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        row = self._read(
            lambda sql: sql.row(f"SELECT {_EVENT} FROM {_FROM} WHERE t.id = ?", (tournament_id,))
        )
        return None if row is None else _event(row)

    def tournaments_listed(
        self, viewer: int | None, status: str, limit: int = 50
    ) -> list[TournamentRow]:
        """The events of a status the list shows ``viewer`` (public ones, and its own
        private ones: created or joined), the soonest first (the latest when over)."""
        order = "t.starts" if status in (UPCOMING, RUNNING) else "t.starts DESC"
        rows = self._read(
            lambda sql: sql.rows(
                f"SELECT {_EVENT} FROM {_FROM} WHERE t.status = ? AND (t.visibility = 'public' "
                "OR t.creator = ? OR EXISTS (SELECT 1 FROM tournament_entrants m WHERE "
                f"m.tournament_id = t.id AND m.account_id = ?)) ORDER BY {order} LIMIT ?",
                (status, viewer, viewer, limit),
            )
        )
        return [_event(row) for row in rows]

    def tournaments_active(self) -> list[TournamentRow]:
        """Every event not over yet (upcoming or running): the director's work."""
        rows = self._read(
            lambda sql: sql.rows(
                f"SELECT {_EVENT} FROM {_FROM} WHERE t.status IN (?, ?) ORDER BY t.starts",
                (UPCOMING, RUNNING),
            )
        )
        return [_event(row) for row in rows]

    def tournaments_created_since(self, account_id: int, since: float) -> int:
        row = self._read(
            lambda sql: sql.row(
                "SELECT count(*) FROM tournaments WHERE creator = ? AND created >= ?",
                (account_id, since),
            )
        )
        return int(row[0]) if row else 0

    def tournament_entrants(self, tournament_id: str) -> list[EntrantRow]:
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT e.entrant, e.account_id, e.bot, e.name, e.rating, e.joined, "
                "e.withdrawn, coalesce(a.bot, ?) FROM tournament_entrants e "
                "LEFT JOIN accounts a ON a.id = e.account_id "
                "WHERE e.tournament_id = ? ORDER BY e.entrant",
                (False, tournament_id),
            )
        )
        return [_entrant(row) for row in rows]

    def tournament_games(self, tournament_id: str) -> list[EventGame]:
        """The event's games in creation order, each seat's entrant and rank."""
        rows = self._read(lambda sql: _game_rows(sql, tournament_id))
        games: dict[str, tuple[int, int, bool, str | None, list[tuple[int, int | None]]]] = {}
        for game_id, round_no, ord_, over, late, _seat, entrant, rank in rows:
            game = games.setdefault(game_id, (round_no, ord_, bool(over), late, []))
            game[4].append((entrant, rank))
        found = []
        for game_id, (round_no, ord_, over, late, seats) in games.items():
            ranks = _ranks([rank for _, rank in seats], over, late)
            entrants = tuple(e for e, _ in seats)
            found.append(EventGame(game_id, round_no, ord_, entrants, ranks, over))
        return sorted(found, key=lambda g: g.ord)

    def tournament_byes(self, tournament_id: str) -> list[tuple[int, int]]:
        """``(entrant, round)`` of every bye the event gave."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT entrant, round FROM tournament_byes WHERE tournament_id = ? "
                "ORDER BY round, entrant",
                (tournament_id,),
            )
        )
        return [(int(e), int(r)) for e, r in rows]

    def tournament_results(self, tournament_id: str) -> int:
        """How many of the event's games are over (the director's cheap look)."""
        row = self._read(
            lambda sql: sql.row(
                "SELECT count(*) FROM tournament_games g JOIN games x ON x.id = g.game_id "
                "WHERE g.tournament_id = ? AND x.over",
                (tournament_id,),
            )
        )
        return int(row[0]) if row else 0

    def tournament_of_game(self, game_id: str) -> str | None:
        row = self._read(
            lambda sql: sql.row(
                "SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,)
            )
        )
        return None if row is None else str(row[0])


def _entrant(row: Sequence[Any]) -> EntrantRow:
    entrant, account_id, bot, name, rating, joined, withdrawn, bot_account = row
    return EntrantRow(
        int(entrant), account_id, bot, name, float(rating), joined, withdrawn, bool(bot_account)
    )


def _ranks(stored: list[int | None], over: bool, late: str | None) -> tuple[int, ...] | None:
    """A finished game's ranks: as stored at its end, or for an unrated game ended by a
    resignation or a timeout (which stores none) those of ``rated.timeout_ranks``."""
    if not over:
        return None
    if all(rank is not None for rank in stored):
        return tuple(int(rank) for rank in stored if rank is not None)
    out = {int(seat) for seat in (late or "").split(",") if seat}
    if not out or len(out) == len(stored):  # as ``rated.timeout_ranks``: no order
        return None
    last = len(stored) - len(out) + 1
    return tuple(last if seat in out else 1 for seat in range(len(stored)))


def _game_rows(sql: Sql, tournament_id: str) -> list[tuple[Any, ...]]:
    return sql.rows(
        "SELECT g.game_id, g.round, g.ord, x.over, x.timed_out, s.seat, s.entrant, p.rank "
        "FROM tournament_games g JOIN tournament_seats s ON s.game_id = g.game_id "
        "JOIN games x ON x.id = g.game_id "
        "JOIN seats p ON p.game_id = g.game_id AND p.seat = s.seat "
        "WHERE g.tournament_id = ? ORDER BY g.ord, s.seat",
        (tournament_id,),
    )


class TournamentPairs(SqlReader):
    """What pairing reads besides the event (a mixin of ``SqlStore``)."""

    def tournament_apart(self, tournament_id: str) -> set[frozenset[int]]:
        """The pairs of the event's entrants kept apart by a block (either way): never
        seated at one table (``apart.py``)."""
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT x.entrant, y.entrant FROM blocks b "
                "JOIN tournament_entrants x ON x.account_id = b.account_id "
                "JOIN tournament_entrants y ON y.account_id = b.blocked "
                "AND y.tournament_id = x.tournament_id WHERE x.tournament_id = ?",
                (tournament_id,),
            )
        )
        return {frozenset((int(a), int(b))) for a, b in rows}


class SharedPresenceReads(SqlReader):
    """Who of some accounts is online in any process (the ``presence`` table of a
    shared store: friends.OnlineBoard writes it): a mixin of ``PgStore``."""

    def present_among(self, account_ids: list[int]) -> set[int]:
        if not account_ids:
            return set()
        rows = self._read(
            lambda sql: sql.rows(
                "SELECT DISTINCT account_id FROM presence WHERE account_id = ANY(?) "
                "AND expires > now()",
                (account_ids,),
            )
        )
        return {int(row[0]) for row in rows}
