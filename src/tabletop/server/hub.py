"""The ``Hub``: the parts of one server process, wired together.

``rooms`` (room.py) holds the live games; ``authority`` changes them, one change
per game at a time; ``scheduler`` runs their bots, hints and time limits;
``encoder`` tells their clients; ``analyst`` works out finished games' analyses;
``dailies`` starts daily challenges and reads their boards;
``reads`` answers the lobby, account and
leaderboard pages; ``writer`` stores; and with several processes on one store,
``leases``, ``refresher`` and ``follower`` keep this one in step (sync.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from typing import Any, TypeVar

from ..core.web import DEFAULT_LIMITS, JSON, BotLimits
from .accounts import Passwords
from .analyses import Analyst
from .authority import Authority
from .botpool import BotPool
from .dailies import Dailies
from .encoding import Encoder
from .errors import ApiError, reading
from .ratelimit import RateLimits, check_rate
from .readmodels import ReadModels
from .room import Room, Rooms
from .rows import Account
from .scheduling import Scheduler
from .sessions import SessionLimits, Sessions
from .setup import check_setup, created_seat
from .storage import GameStore
from .sync import Follower, Leases, Refresher
from .writes import CreateGame, Write
from .writing import Writer

log = logging.getLogger("tabletop.server")
T = TypeVar("T")


class Hub:
    """All rooms of one server process, and what acts on them."""

    def __init__(
        self,
        store: GameStore,
        pool: BotPool,
        bot_pause: float = 0.5,
        limits: BotLimits = DEFAULT_LIMITS,
        rates: RateLimits = RateLimits(),  # noqa: B008 - frozen settings
        daily_bots: dict[str, str] | None = None,
        analysis_budget: int | None = None,
        sessions: SessionLimits = SessionLimits(),  # noqa: B008 - frozen settings
        password_queue: int = 8,
    ) -> None:
        self.store = store
        self.limits = limits
        self.rates = rates.limiters()
        self.rooms = Rooms(store)
        self.writer = Writer(store)
        self._write = self.writer.write
        self.sessions = Sessions(sessions, self._write)
        self.passwords = Passwords(password_queue)
        self.encoder = Encoder(store)
        self.reads = ReadModels(store, self.rooms)
        # who holds a lease: unique per process, readable in the table
        owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.leases = Leases(store, owner)
        # ``changed`` calls back into the scheduler, built last: the one loop among the parts
        self.refresher = Refresher(store, self.rooms, self.changed)
        self.authority = Authority(
            store, self.rooms, self.refresher, self._write, self.rates, self.changed, self.broadcast
        )
        self.scheduler = Scheduler(
            self.rooms,
            self.authority,
            self.leases,
            pool,
            limits,
            bot_pause,
            self.rates,
            self.broadcast,
        )
        self.analyst = Analyst(
            store, self.authority, self.leases, pool, self._write, analysis_budget
        )
        self.dailies = Dailies(store, self.rooms, self.scheduler, self._write, limits, daily_bots)
        self.follower = Follower(
            store,
            self.rooms,
            self.authority.fresh,
            self.scheduler.schedule_bots,
            self.analyst.start,
        )

    def broadcast(self, room: Room) -> None:
        """Push the room's state to its clients."""
        self.encoder.broadcast(room)

    def changed(self, room: Room) -> None:
        """After a change: its clients learn it, its bots and time limit go on."""
        self.broadcast(room)
        self.scheduler.schedule_bots(room)

    def check_rate(self, kind: str, key: object, spend: bool = True) -> None:
        """429 when ``key`` has used up its ``kind`` (create, action, hint, message)."""
        check_rate(self.rates, kind, key, spend)

    async def write(self, write: Write[T]) -> T:
        """A durable write outside any game (accounts, sessions); 503 if refused."""
        return await self._write(write)

    async def create(self, body: Any, account: Account | None = None) -> JSON:
        """Store a new game (its seats' links go to its creator only) and start it."""
        setup = check_setup(body, account, self.limits)
        game_id = secrets.token_urlsafe(9)
        creator = account.id if account else None
        game_type, seats, options = setup.type, setup.seats, setup.options
        seed, seed_chosen = setup.seed, setup.seed_chosen
        await self._write(
            CreateGame(game_id, game_type.name, options, seed, seats, seed_chosen, creator)
        )
        room = self.rooms.room(game_id)
        self.scheduler.schedule_bots(room)
        return {
            "id": game_id,
            "url": f"/g/{game_id}",
            "seats": [created_seat(game_id, s) for s in seats],
        }

    async def resume(self) -> None:
        """After a restart: load unfinished games and let their bots move on."""
        for game_id in reading(self.store.unfinished_games):
            try:
                self.scheduler.schedule_bots(self.rooms.room(game_id))
            except ApiError as err:
                log.error("%s", err.message)
        self.analyst.resume()

    def forget_finished(self) -> int:
        """Drop finished games nobody watches from memory (``Rooms.forget_finished``)."""
        return self.rooms.forget_finished()

    async def forget_finished_now_and_then(self, every: float = 10.0) -> None:
        """Drop finished games nobody watches from memory now and then."""
        while True:
            await asyncio.sleep(every)
            self.forget_finished()

    def close(self) -> None:
        self.analyst.close()
        self.dailies.close()
        self.writer.close()
