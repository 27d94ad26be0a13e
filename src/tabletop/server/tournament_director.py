"""The director: runs the events (issue 47; docs/web.md, "Tournaments").

Every process has one; for each event under way, the one process holding its lease
(``sync.Leases``'s table, task ``"tournament"`` keyed by the event's id) decides: it
starts the event at its time (server ``CLOCK``), pairs (an arena: whoever is free, at
once and on every look; a Swiss: the next round once every game of the round is over),
creates the games through the hub's creation path, ends an arena at its end once the
games started before it are over, ends a Swiss after its last round, and stores a
recurring event's next one. It looks when a game of an event ends here (``game_changed``),
when someone joins, and every ``EVERY`` seconds (other processes' games, starts).

Each decision is one write from the event's version (``tournament_writes``): the
pairing's games, their entrants and the byes together, so a kill -9 loses nothing,
and after a restart whichever process takes the lease carries on from the store. An
account entrant is paired only while present (any socket of it open, in any process:
``friends.OnlineBoard``); our bots are always present. Blocks keep two accounts apart
(never at one table: the engine gets the pairs, ``apart.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..core.web import JSON
from ..tournaments import Bye, Entrant, arena_tables, swiss_round
from .clock import CLOCK
from .errors import ApiError, reading
from .rows import Account, Seat, StoreError
from .sync import shared
from .tournament_reads import (
    CANCELLED,
    FINISHED,
    RUNNING,
    UPCOMING,
    EntrantRow,
    EventGame,
    TournamentRow,
)
from .tournament_writes import Pair, SetStatus, Table
from .tournaments import (
    engine_entrants,
    engine_games,
    event_format,
    next_occurrence,
    playing,
    standings_of,
)
from .writes import CreateGame

if TYPE_CHECKING:
    from .hub import Hub
    from .room import Room

log = logging.getLogger("tabletop.server")
TASK = "tournament"  # the lease's task: one process pairs each event
EVERY = 1.0  # seconds between looks when nothing wakes the director


class Director:
    """Runs this process's share of the events (those whose lease it holds)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        self._woken = asyncio.Event()
        self.names: dict[str, str] = {}  # event id -> name, for the games' summaries

    def wake(self) -> None:
        """Look at the events now (a game ended, someone joined)."""
        self._woken.set()

    def game_changed(self, room: Room) -> None:
        """A game ended here: if it is an event's, its entrants are free at once."""
        if room.finished and room.row.options.get("tournament"):
            self.wake()

    def tag(self, options: JSON) -> JSON | None:
        """``{"id", "name"}`` of the event a game belongs to (its options say which):
        added to the game's summary on the account socket and event stream."""
        tournament_id = options.get("tournament")
        if not isinstance(tournament_id, str):
            return None
        name = self.names.get(tournament_id)
        if name is None:
            row = self.store.tournament(tournament_id)
            name = self.names[tournament_id] = row.name if row else ""
        return {"id": tournament_id, "name": name}

    async def run(self) -> None:
        """Look at the events whenever woken, or every ``EVERY`` seconds (a moved
        test clock counts: a start or an arena's end comes at once)."""
        while True:
            self._woken.clear()
            try:
                await self.look()
            except Exception:  # a chore must go on; the next look tries again
                log.exception("running the tournaments failed")
            sleeper = asyncio.ensure_future(CLOCK.sleep(EVERY))
            woken = asyncio.ensure_future(self._woken.wait())
            try:
                await asyncio.wait((sleeper, woken), return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeper.cancel()
                woken.cancel()

    async def look(self) -> None:
        now = self.hub.clock()
        for row in reading(self.store.tournaments_active):
            if row.status == UPCOMING and now < row.starts:
                continue
            if self._leased(row.id):
                await self.step(row, now)

    def _leased(self, tournament_id: str) -> bool:
        """Whether this process runs the event now: always with one process; on a
        shared store while it holds (and so renews) the event's lease."""
        if not self.store.shared:
            return True
        leases = self.hub.leases
        try:
            return shared(self.store).claim(
                tournament_id, TASK, leases.owner, leases.times.lease_seconds
            )
        except StoreError as err:
            log.warning("lease on tournament %s: %s", tournament_id, err)
            return False

    async def step(self, row: TournamentRow, now: float) -> None:
        """One decision on the event, if one is due."""
        entrants = reading(self.store.tournament_entrants, row.id)
        games = reading(self.store.tournament_games, row.id)
        if row.status == UPCOMING:
            await self._start(row, entrants, now)
        elif row.kind == "arena":
            await self._arena(row, entrants, games, now)
        else:
            await self._swiss(row, entrants, games, now)

    async def _start(self, row: TournamentRow, entrants: list[EntrantRow], now: float) -> None:
        active = [e for e in entrants if e.withdrawn is None]
        if row.kind == "swiss" and len(active) < 2:  # nobody to play: called off
            await self._end(row, CANCELLED, now)
            return
        if await self.hub.write(SetStatus(row.id, row.version, RUNNING)):
            log.info("tournament %s started with %d entrants", row.id, len(active))
            self.wake()  # pair at once

    async def _end(self, row: TournamentRow, status: str, now: float) -> None:
        following = next_occurrence(row, now)
        if await self.hub.write(SetStatus(row.id, row.version, status, following)):
            log.info("tournament %s %s", row.id, status)
            if self.store.shared:
                with contextlib.suppress(StoreError):
                    shared(self.store).finish(row.id, TASK, self.hub.leases.owner)

    async def _arena(
        self, row: TournamentRow, entrants: list[EntrantRow], games: list[EventGame], now: float
    ) -> None:
        busy = playing(games)
        if row.ends is not None and now >= row.ends:
            if not busy:  # games started before the end count: wait for them
                await self._end(row, FINISHED, now)
            return
        active = [e for e in entrants if e.withdrawn is None]
        free = self._present([e for e in active if e.entrant not in busy])
        if len(free) < row.min_players:
            return
        table = standings_of(row, entrants, games, reading(self.store.tournament_byes, row.id))
        waiting = [e.entrant for e in sorted(free, key=lambda e: _free_since(e, games))]
        tables = arena_tables(
            event_format(row),
            waiting,
            table,
            _last_tables(games),
            len(active),
            apart=reading(self.store.tournament_apart, row.id),
        )
        await self._pair(row, entrants, games, [tuple(t) for t in tables], (), row.round)

    async def _swiss(
        self, row: TournamentRow, entrants: list[EntrantRow], games: list[EventGame], now: float
    ) -> None:
        if playing(games):
            return  # the round goes on
        if row.round >= (row.rounds or 0):
            await self._end(row, FINISHED, now)
            return
        present = {e.entrant for e in self._present(entrants)}
        pairable = [
            Entrant(e.entrant, e.rating, e.active and e.entrant in present)
            for e in engine_entrants(entrants)
        ]
        byes = [Bye(e, r) for e, r in reading(self.store.tournament_byes, row.id)]
        chosen = swiss_round(
            event_format(row),
            pairable,
            engine_games(games),
            byes,
            row.round + 1,
            apart=reading(self.store.tournament_apart, row.id),
        )
        tables = [tuple(t) for t in chosen.tables]
        await self._pair(row, entrants, games, tables, tuple(chosen.byes), row.round + 1)

    def _present(self, entrants: list[EntrantRow]) -> list[EntrantRow]:
        """The entrants that can be paired now: our bots, and accounts with a socket
        open here or (a shared store) in another process."""
        accounts = [e.account_id for e in entrants if e.account_id is not None]
        here = set(self.hub.sockets.per_account)
        away = [a for a in accounts if a not in here]
        if away and self.store.shared:
            here |= reading(shared(self.store).present_among, away)
        return [e for e in entrants if e.bot is not None or e.account_id in here]

    async def _pair(
        self,
        row: TournamentRow,
        entrants: list[EntrantRow],
        games: list[EventGame],
        tables: list[tuple[int, ...]],
        byes: tuple[int, ...],
        round_no: int,
    ) -> None:
        """Store the new games and byes in one write, then start the games."""
        if not tables:  # nobody to seat yet (too few present): wait
            return
        by_number = {e.entrant: e for e in entrants}
        options = {**row.options, "tournament": row.id}
        made = [
            Table(
                CreateGame(
                    secrets.token_urlsafe(9), row.type, options, secrets.randbits(62),
                    [_seat(n, by_number[e]) for n, e in enumerate(table)],
                ),
                table,
            )
            for table in tables
        ]  # fmt: skip
        first = max((g.ord for g in games), default=-1) + 1
        pairing = Pair(row.id, row.version, round_no, first, made, byes)
        if not await self.hub.write(pairing):
            return  # the event moved on meanwhile: the next look pairs afresh
        self.names[row.id] = row.name
        for table in made:
            try:
                self.hub.opened(table.game.game_id)
            except ApiError as err:
                log.warning("starting tournament game %s: %s", table.game.game_id, err.message)

    async def resign_game_of(self, tournament_id: str, entrant: int, account: Account) -> None:
        """A withdrawn entrant's unfinished game of the event is resigned: its
        opponents go on (and are paired again) without waiting for it."""
        games = reading(self.store.tournament_games, tournament_id)
        game_id = playing(games).get(entrant)
        if game_id is None:
            return
        try:
            room = await self.hub.authority.fresh(game_id)
            seats = room.seats_of(account)
            if seats and not room.finished:
                await self.hub.authority.resign(game_id, seats)
        except ApiError as err:  # ended meanwhile: nothing to resign
            log.info("resigning tournament game %s: %s", game_id, err.message)


def _seat(number: int, entrant: EntrantRow) -> Seat:
    """A table's seat: kept for the entrant's account, or our bot's."""
    if entrant.bot is not None:
        return Seat(number, entrant.name, "bot", entrant.bot)
    token = secrets.token_urlsafe(24)  # stored hashed; the account plays by its session
    return Seat(number, entrant.name, "human", None, token, entrant.account_id)


def _free_since(entrant: EntrantRow, games: list[EventGame]) -> tuple[int, int]:
    """When the entrant became free, as an order: those whose last game is the
    oldest (or who have none) wait longest and are paired first."""
    last = max((g.ord for g in games if entrant.entrant in g.entrants), default=-1)
    return last, entrant.entrant


def _last_tables(games: list[EventGame]) -> Mapping[int, frozenset[int]]:
    """The others at each entrant's previous table (no immediate rematch)."""
    last: dict[int, frozenset[int]] = {}
    for game in games:  # in creation order: the last one wins
        for entrant in game.entrants:
            last[entrant] = frozenset(game.entrants) - {entrant}
    return last
