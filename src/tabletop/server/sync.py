"""Several processes on one shared store (PostgreSQL): staying in step with them.

``Leases``: one process works out each bot move and time limit, the others wait in
case it dies. ``Refresher``: a room another process changed is brought up to date
before a change (its appended actions applied, or the game reloaded).
``Follower``: the background loops that follow the other processes' changes
(``LISTEN``/``NOTIFY``, and a periodic check) and take over orphaned games.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import cast

from ..core.web import ActionRejected
from .errors import ApiError, reading
from .room import Room, Rooms, entry, move_subscribers
from .rows import ActionRow, StoreError
from .storage import GameStore, SharedStore

log = logging.getLogger("tabletop.server")

#: the lease's task name of a game's analysis (``analyses.Analyst``)
ANALYSIS = "analysis"
#: an event's pairing (tournament_director.py): no game's task; every process's director
#: claims an expired one by itself
TOURNAMENT = "tournament"


@dataclass(frozen=True)
class Takeover:
    """How soon another process takes over a dead one's task (a bot move, a time
    limit, an analysis) on a shared store: a lease runs out ``lease_seconds`` after
    its holder last renewed it, and every ``check_seconds`` each process looks for
    such leases (and a waiting one tries again). So a task is taken up again at most
    ``lease_seconds + check_seconds`` after its process died (then a bot searches
    its move from the start)."""

    lease_seconds: float = 5.0
    check_seconds: float = 1.0


def shared(store: GameStore) -> SharedStore:
    """The store, as shared by several processes; only when ``store.shared``."""
    assert store.shared
    return cast(SharedStore, store)


class Leases:
    """Who works out a game's bot move or time limit when several processes hold it."""

    def __init__(self, store: GameStore, owner: str, times: Takeover = Takeover()) -> None:
        self.store = store
        self.owner = owner  # unique per process, readable in the table
        self.times = times

    async def leased(self, game_id: str, task: str, wanted: Callable[[], bool]) -> bool:
        """Wait until this process holds the lease on ``task`` (True), or the task is
        no longer ``wanted()`` (False). Only a shared store has leases: one process
        works out each bot move and time limit; the others wait in case it dies."""
        while wanted():
            if not self.store.shared:
                return True
            try:
                claimed = shared(self.store).claim(
                    game_id, task, self.owner, self.times.lease_seconds
                )
            except StoreError as err:
                log.warning("lease on %s of game %s: %s", task, game_id, err)
                claimed = False
            if claimed:
                return True
            await asyncio.sleep(min(self.times.check_seconds, self.times.lease_seconds / 2))
        return False

    @contextlib.asynccontextmanager
    async def holding(self, game_id: str, task: str) -> AsyncIterator[None]:
        """Renew the lease on ``task`` while the body runs; mark it done when the
        body ends, unless this process is stopping (then another one takes over)."""
        if not self.store.shared:
            yield
            return
        store, seconds = shared(self.store), self.times.lease_seconds

        async def renew() -> None:
            while True:
                await asyncio.sleep(seconds / 3)
                with contextlib.suppress(StoreError):
                    store.claim(game_id, task, self.owner, seconds)

        renewer = asyncio.get_running_loop().create_task(renew())
        try:
            yield
        except asyncio.CancelledError:
            raise  # cancelled: a reload or shutdown; the lease runs out by itself
        else:
            with contextlib.suppress(StoreError):
                store.finish(game_id, task, self.owner)
        finally:
            renewer.cancel()


class Refresher:
    """Brings a room up to date with what other processes stored; ``changed(room)``
    tells its clients and starts its bots and time limit."""

    def __init__(self, store: GameStore, rooms: Rooms, changed: Callable[[Room], None]) -> None:
        self.store = store
        self.rooms = rooms
        self.changed = changed

    def fresh_room(self, game_id: str) -> Room:
        """The room, reloaded first if another process has changed the game (only a
        shared store: one query by primary key). Only in the game's turn."""
        room = self.rooms.room(game_id)
        if self.store.shared:
            changes = reading(shared(self.store).changes_since, game_id, room.ply)
            if changes is not None and changes[0] != room.seq and not self._extend(room, *changes):
                room = self.reload(game_id)
        return room

    def _extend(self, room: Room, seq: int, newer: list[ActionRow]) -> bool:
        """Bring ``room`` up to ``seq`` by applying the actions another process
        appended (``newer``), much cheaper than replaying the whole game; False if
        more than appends happened (an undo: reload instead)."""
        if seq - room.seq != len(newer) or [a.ply for a in newer] != [
            room.ply + i for i in range(len(newer))
        ]:
            return False
        match = room.match.clone()
        entries = []
        try:
            for action in newer:
                applied = match.apply(action.seat, action.action)
                entries.append((entry(applied.log, action.ply, action.at, action.by), applied))
        except ActionRejected:
            return False
        room.match, room.seq = match, seq
        for (new_entry, applied), action in zip(entries, newer, strict=True):
            room.log.append(new_entry)
            room.reveals.append(applied.reveals)
            room.action_seats.append(action.seat)
            room.actions.append(action.action)
        self.changed(room)
        return True

    def reload(self, game_id: str) -> Room:
        """Rebuild a room from the store (another process changed the game): its
        clients get the new state, its bots and time limit start over."""
        old = self.rooms.live.pop(game_id, None)
        new = self.rooms.room(game_id)
        if old is not None:
            move_subscribers(old, new)
        self.changed(new)
        return new


class Follower:
    """Follows the changes other processes make to the games held here: ``fresh``
    brings one up to date (in its turn), ``schedule`` starts a game's bots here."""

    def __init__(
        self,
        store: GameStore,
        rooms: Rooms,
        fresh: Callable[[str], Awaitable[Room]],
        schedule: Callable[[Room], None],
        analyse: Callable[[str], None],
        watching: Callable[[list[int]], bool],
        follow_new: Callable[[str], Awaitable[None]],
        sessions_ended: Callable[[int], object] = lambda _: None,
        chat_posted: Callable[[str, int], object] = lambda game, message: None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.fresh = fresh
        self.schedule = schedule
        self.analyse = analyse  # takes up a game's unfinished analysis
        self.watching = watching  # whether any of these accounts has a socket here
        self.follow_new = follow_new  # hold a game not held here, and tell its accounts
        # some of an account's sessions or tokens ended elsewhere: close its channels here
        self.sessions_ended = sessions_ended
        # a chat message stored elsewhere: this process's sockets of the game get it
        self.chat_posted = chat_posted

    async def listen(self, every: float = Takeover.check_seconds) -> None:
        """A shared store: follow the changes other processes make. Each notice
        (``pgstore.CHANNEL``) reloads a game held here that is behind; every ``every``
        seconds the games held are checked anyway (a notice can be lost, e.g. while
        the database restarts), and games whose bot or time limit lease ran out (a
        dead process's) are taken over."""
        import psycopg  # a shared store is a PostgreSQL one

        from .pgstore import CHANNEL, CONNECT_TIMEOUT

        loop = asyncio.get_running_loop()
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.store.path, autocommit=True, connect_timeout=CONNECT_TIMEOUT
                ) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    self.catch_up()  # what was missed while not listening
                    checker = loop.create_task(self._check_now_and_then(every))
                    try:
                        async for notice in db.notifies():
                            self._notified(notice.payload)
                    finally:
                        checker.cancel()
            except (psycopg.Error, OSError) as err:
                log.warning("listening for other processes' moves: %s; retrying", err)
            await asyncio.sleep(1.0)

    async def _check_now_and_then(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            self.catch_up()
            self.take_over_orphans()

    def _notified(self, payload: str) -> None:
        """A notice ``'<game> <seq> <account ids>'`` (``pgstore.SharedSql.announce``):
        reload a game held here that is behind; load a game not held here whose
        accounts have an account socket here (they learn of new games and seats). A
        notice ``'sessions <account id>'`` (``SharedSql.announce_account``): some of
        the account's sessions or API tokens ended in another process. A notice
        ``'chat <game> <message id>'`` (``SharedSql.announce_chat``): a chat message."""
        from .pgstore import CHAT_NOTICE, SESSIONS_NOTICE

        game_id, seq, *rest = payload.split(" ") + [""]
        if game_id == CHAT_NOTICE:  # 'chat <game> <message id>'
            if rest[0].isascii() and rest[0].isdigit():
                self.chat_posted(seq, int(rest[0]))
            return
        if game_id == SESSIONS_NOTICE:
            if seq.isascii() and seq.isdigit():
                self.sessions_ended(int(seq))
            return
        room = self.rooms.live.get(game_id)
        if room is not None:
            if seq.isascii() and seq.isdigit() and room.seq < int(seq):
                self._refresh_soon(game_id)
            return
        accounts = [int(a) for a in rest[0].split(",") if a.isascii() and a.isdigit()]
        if self.watching(accounts):
            self._refresh_soon(game_id, self.follow_new)

    def _refresh_soon(
        self, game_id: str, refresh: Callable[[str], Awaitable[object]] | None = None
    ) -> None:
        async def run() -> None:
            try:
                await (refresh or self.fresh)(game_id)
            except ApiError as err:
                log.warning("reloading game %s: %s", game_id, err.message)

        asyncio.get_running_loop().create_task(run())

    def catch_up(self) -> None:
        """Reload every game held here that another process has changed."""
        if not self.rooms.live:
            return
        try:
            seqs = reading(shared(self.store).seqs, list(self.rooms.live))
        except ApiError as err:
            log.warning("catching up: %s", err.message)
            return
        for game_id, seq in seqs.items():
            room = self.rooms.live.get(game_id)
            if room is not None and room.seq != seq:
                self._refresh_soon(game_id)

    def take_over_orphans(self) -> None:
        """Take up here the tasks whose process died: a game's bot move or time
        limit (its bots and clock go on here), or its analysis."""
        try:
            orphans = reading(shared(self.store).orphaned)
        except ApiError as err:
            log.warning("looking for orphaned bot moves: %s", err.message)
            return
        for game_id, task in orphans:
            if task == TOURNAMENT:
                continue
            log.info("taking over the %s of game %s", task, game_id)
            try:
                if task == ANALYSIS:
                    self.analyse(game_id)
                else:
                    self.schedule(self.rooms.room(game_id))
            except ApiError as err:
                log.warning("game %s: %s", game_id, err.message)
