"""The writes of tournaments (issue 47): an event made, joined, left, started, paired,
ended or called off. Every decision of the director is one write, so one transaction:
a pairing stores its games, their entrants and its byes with the event's version moved
on from the one it was worked out from (a compare-and-set: of two processes that
paired the same state, only the first stores), and a kill -9 loses nothing."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .clock import CLOCK
from .sql import Sql
from .tournament_reads import CANCELLED, FINISHED, RUNNING, UPCOMING
from .writebase import Write

if TYPE_CHECKING:  # writes imports account_writes, which imports this module
    from .writes import CreateGame


@dataclass(frozen=True)
class NewTournament:
    """What a new event is, as checked (``tournaments.check_event``)."""

    id: str
    kind: str
    type: str
    name: str
    players: int
    min_players: int
    rounds: int | None
    minutes: int | None
    options: dict[str, Any]
    starts: float
    visibility: str
    creator: int | None
    recurring: str | None
    created: float

    @property
    def ends(self) -> float | None:
        return None if self.minutes is None else self.starts + 60 * self.minutes


@dataclass(frozen=True)
class CreateTournament(Write[None]):
    event: NewTournament

    def run(self, sql: Sql) -> None:
        insert(sql, self.event)


def insert(sql: Sql, e: NewTournament) -> None:
    sql.run(
        "INSERT INTO tournaments (id, kind, type, name, players, min_players, rounds, "
        "minutes, options, starts, status, round, visibility, creator, recurring, created, "
        "ends, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 0)",
        (
            *(e.id, e.kind, e.type, e.name, e.players, e.min_players, e.rounds, e.minutes),
            *(json.dumps(e.options), e.starts, UPCOMING, e.visibility, e.creator),
            *(e.recurring, e.created, e.ends),
        ),
    )


def _bump(sql: Sql, tournament_id: str, expected: int | None = None, **columns: object) -> bool:
    """Move the event's version on (and set ``columns``); False if it was not at
    ``expected`` (another write came first)."""
    sets = ", ".join(["version = version + 1", *(f"{name} = ?" for name in columns)])
    guard = "" if expected is None else " AND version = ?"
    tail = () if expected is None else (expected,)
    changed = sql.run(
        f"UPDATE tournaments SET {sets} WHERE id = ?{guard}",  # names from code, not input
        (*columns.values(), tournament_id, *tail),
    )
    return changed == 1


#: why a join was refused (``JoinTournament``'s answer)
JOINED, FULL, TOO_MANY_BOTS, ALREADY, CLOSED = "joined", "full", "bots", "already", "closed"


@dataclass(frozen=True)
class JoinTournament(Write[str]):
    """An account (``account_id``) or our bot (``bot``) joins an event that is not over:
    ``JOINED``, or why not (the caps are counted in the same transaction, so two joins
    at once cannot both pass them)."""

    tournament_id: str
    account_id: int | None
    bot: str | None
    name: str
    rating: float
    most: int
    most_bots: int

    def run(self, sql: Sql) -> str:
        # lock the event's row (PostgreSQL) so that the caps below are counted once
        sql.run("UPDATE tournaments SET version = version WHERE id = ?", (self.tournament_id,))
        status = sql.row("SELECT status FROM tournaments WHERE id = ?", (self.tournament_id,))
        if status is None or status[0] not in (UPCOMING, RUNNING):
            return CLOSED
        refusal = self._refusal(sql)
        if refusal is not None:
            return refusal
        _bump(sql, self.tournament_id)
        if self._back(sql):
            return JOINED
        last = sql.row(
            "SELECT coalesce(max(entrant), 0) FROM tournament_entrants WHERE tournament_id = ?",
            (self.tournament_id,),
        )
        sql.run(
            "INSERT INTO tournament_entrants (tournament_id, entrant, account_id, bot, name, "
            "rating, joined) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                *(self.tournament_id, (last[0] if last else 0) + 1, self.account_id),
                *(self.bot, self.name, self.rating, now_seconds()),
            ),
        )
        return JOINED

    def _refusal(self, sql: Sql) -> str | None:
        counts = sql.row(
            "SELECT count(*), count(bot) FROM tournament_entrants WHERE tournament_id = ?",
            (self.tournament_id,),
        )
        entrants, bots = (int(counts[0]), int(counts[1])) if counts else (0, 0)
        if self.account_id is not None:
            mine = sql.row(
                "SELECT withdrawn FROM tournament_entrants WHERE tournament_id = ? "
                "AND account_id = ?",
                (self.tournament_id, self.account_id),
            )
            if mine is not None and mine[0] is None:
                return ALREADY
            if mine is not None:
                return None  # it withdrew: it comes back (``_back``)
        if entrants >= self.most:
            return FULL
        if self.bot is not None and bots >= self.most_bots:
            return TOO_MANY_BOTS
        return None

    def _back(self, sql: Sql) -> bool:
        """An account that withdrew joins again: it is an entrant again, with its
        number and its results so far."""
        if self.account_id is None:
            return False
        back = sql.run(
            "UPDATE tournament_entrants SET withdrawn = NULL WHERE tournament_id = ? "
            "AND account_id = ? AND withdrawn IS NOT NULL",
            (self.tournament_id, self.account_id),
        )
        return back == 1


def now_seconds() -> float:
    """Now as a Unix time of the server's clock (tests move it)."""
    return CLOCK.time()


@dataclass(frozen=True)
class Withdraw(Write[bool]):
    """An entrant leaves: before the start it is simply gone (its number is not
    reused); once started it stays in the standings, withdrawn, and is paired no
    more. False if it was not an entrant (or had left already)."""

    tournament_id: str
    entrant: int

    def run(self, sql: Sql) -> bool:
        key = (self.tournament_id, self.entrant)
        status = sql.row("SELECT status FROM tournaments WHERE id = ?", (self.tournament_id,))
        if status is None:
            return False
        if status[0] == UPCOMING:
            left = sql.run(
                "DELETE FROM tournament_entrants WHERE tournament_id = ? AND entrant = ?", key
            )
        else:
            left = sql.run(
                "UPDATE tournament_entrants SET withdrawn = ? WHERE tournament_id = ? "
                "AND entrant = ? AND withdrawn IS NULL",
                (now_seconds(), *key),
            )
        if left:
            _bump(sql, self.tournament_id)
        return left == 1


@dataclass(frozen=True)
class SetStatus(Write[bool]):
    """The event starts, ends or is called off, from ``version`` (False if it moved:
    another process decided first). Ending a recurring event stores its next one
    (``following``) in the same transaction, so it is made once."""

    tournament_id: str
    version: int
    status: str
    following: NewTournament | None = None

    def run(self, sql: Sql) -> bool:
        stamp = now_seconds()
        done = {"finished": stamp} if self.status in (FINISHED, CANCELLED) else {}
        if not _bump(sql, self.tournament_id, self.version, status=self.status, **done):
            return False
        if self.following is not None:
            insert(sql, self.following)
        return True


@dataclass(frozen=True)
class Table:
    """One new game of a pairing: its ``CreateGame`` and its seats' entrants."""

    game: CreateGame
    entrants: tuple[int, ...]


@dataclass(frozen=True)
class Pair(Write[bool]):
    """A pairing: ``tables`` (new games) and ``byes`` of ``round``, stored from the
    event's ``version`` (False, and nothing stored, if it moved meanwhile)."""

    tournament_id: str
    version: int
    round: int
    first_ord: int
    tables: Sequence[Table]
    byes: tuple[int, ...] = ()

    def run(self, sql: Sql) -> bool:
        if not _bump(sql, self.tournament_id, self.version, round=self.round):
            return False
        stamp = now_seconds()
        for number, table in enumerate(self.tables):
            table.game.run(sql)
            sql.run(
                "INSERT INTO tournament_games (tournament_id, game_id, round, ord, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (self.tournament_id, table.game.game_id, self.round, self.first_ord + number,
                 stamp),
            )  # fmt: skip
            sql.run_many(
                "INSERT INTO tournament_seats (game_id, seat, entrant) VALUES (?, ?, ?)",
                [(table.game.game_id, seat, e) for seat, e in enumerate(table.entrants)],
            )
        sql.run_many(
            "INSERT INTO tournament_byes (tournament_id, entrant, round) VALUES (?, ?, ?)",
            [(self.tournament_id, entrant, self.round) for entrant in self.byes],
        )
        return True


def forget_tournaments(sql: Sql, account_id: int, deleted_name: str) -> None:
    """An account goes (``DeleteAccount``): it leaves its events under the name every
    deleted player gets, and the events it created have no creator any more."""
    sql.run("UPDATE tournaments SET creator = NULL WHERE creator = ?", (account_id,))
    sql.run(
        "UPDATE tournament_entrants SET account_id = NULL, name = ?, "
        "withdrawn = coalesce(withdrawn, ?) WHERE account_id = ?",
        (deleted_name, now_seconds(), account_id),
    )
