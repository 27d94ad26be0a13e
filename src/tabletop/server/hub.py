"""The ``Hub``: the parts of one server process, wired together.

``rooms`` (room.py) holds the live games; ``authority`` changes them, one change
per game at a time; ``scheduler`` runs their bots, hints and time limits;
``encoder`` tells their clients; ``coach`` judges coached games' moves;
``analyst`` works out finished games' analyses;
``dailies`` starts daily challenges and reads their boards; ``notifier`` mails
players whose turn it is (notify.py);
``reads`` answers the lobby, account and
leaderboard pages; ``accounts`` pushes what concerns a signed-in player to their
account sockets (account_events.py); ``writer`` stores; and with several processes on one store,
``leases``, ``refresher`` and ``follower`` keep this one in step (sync.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any, TypeVar

from ..core.limits import CoachLimits
from ..core.web import DEFAULT_LIMITS, JSON, BotLimits
from .account_events import AccountEvents
from .accounts import Passwords, legacy_name_key, name_key
from .analyses import Analyst
from .authority import Authority
from .botpool import BotPool
from .chat import ChatRelay
from .clock import CLOCK
from .coaching import Coach, check_coach
from .crowds import CrowdLimits, Presence, Sockets
from .dailies import Dailies
from .encoding import Encoder, seat_bots
from .errors import ApiError, reading
from .friends import OnlineBoard, friends_only_option
from .invitations import check_invitations, newcomers
from .mail import MailSettings
from .notify import Notifier
from .ratelimit import RateLimits, check_rate
from .readmodels import ReadModels
from .reminders import Reminders
from .replays import ReplayCache
from .room import Room, Rooms, room_age
from .rows import Account
from .scheduling import Scheduler
from .sessions import SessionLimits, Sessions
from .setup import can_be_rated, check_setup, created_seat
from .storage import GameStore
from .sync import Follower, Leases, Refresher, Takeover
from .throttle import DeviceCookies, LoginThrottle, TryLimits
from .tournament_director import Director
from .writes import CreateGame, Write
from .writing import Writer

log = logging.getLogger("tabletop.server")
OPEN_SEAT_DAYS = 7.0  # how long an open game waits in the lobby for its players
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
        takeover: Takeover = Takeover(),  # noqa: B008 - frozen settings
        shortest_time_limit: int | None = None,
        mail: MailSettings | None = None,
        crowd: CrowdLimits = CrowdLimits(),  # noqa: B008 - frozen settings
        open_seat_days: float = OPEN_SEAT_DAYS,
        sessions: SessionLimits = SessionLimits(),  # noqa: B008 - frozen settings
        password_queue: int = 8,
        password_threads: int | None = None,
        coach: CoachLimits = CoachLimits(),  # noqa: B008 - frozen settings
    ) -> None:
        self.store = store
        self.clock: Callable[[], float] = CLOCK.time  # claims on time read it (tests move it)
        self.open_seat_seconds = open_seat_days * 24 * 3600
        self.crowd = crowd
        self.sockets = Sockets(crowd)
        self.limits = limits
        self.shortest_time_limit = shortest_time_limit  # None: what the page offers
        self.rates = rates.limiters()
        self.rooms = Rooms(store)
        self.writer = Writer(store)
        self._write = self.writer.write
        self.sessions = Sessions(sessions, self._write, store)
        self.passwords = Passwords(password_queue, password_threads)
        self.throttle = LoginThrottle(self._write, TryLimits(rates.login_failures_per_hour))
        self.devices = DeviceCookies(self._write)
        self.replays = ReplayCache()
        self.encoder = Encoder(store)
        self.reads = ReadModels(store, self.rooms, self.open_seat_seconds)
        self.accounts = AccountEvents(self.reads)
        self.chat = ChatRelay(store, self.rooms)  # chat messages to this process's sockets
        self.presence = Presence(self.rooms, crowd.presence_interval)
        # who holds a lease: unique per process, readable in the table
        owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.leases = Leases(store, owner, takeover)
        self.online = OnlineBoard(store, self.sockets, owner)  # friends online (friends.py)
        self.sockets.account_changed = self.online.changed
        self.takeover = takeover
        # ``changed`` calls back into the scheduler, built last: the one loop among the parts
        self.refresher = Refresher(store, self.rooms, self.changed)
        self.coach = Coach(store, self.rooms, pool, self._write, self.broadcast, coach)
        self.encoder.coach = self.coach.state_part
        self.authority = Authority(
            *(store, self.rooms, self.refresher, self._write, self.rates),
            *(self.changed, self.shown, lambda game, ids: self.accounts.game_gone(game, ids)),
            self.coach.after_move,
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
            self.accounts.watching,
            self.follow_new,
            self.sessions.check_account,
            chat_posted=self.chat.notified,
        )
        self.notifier = Notifier(
            store, self._write, self.authority.fresh, self.reads.my_games, mail
        )
        self.reminders = Reminders(
            store, self._write, self.authority.fresh, self.reads, self.accounts, self.notifier
        )
        self.scheduler.remind = self.reminders.schedule
        self.director = Director(self)  # tournaments (tournament_director.py)
        self.reads.tournament_of = self.director.tag

    def broadcast(self, room: Room) -> None:
        """Push the room's state to its clients."""
        self.encoder.broadcast(room)

    def changed(self, room: Room) -> None:
        """After a change (here, or another process's: sync.Refresher): its clients and
        seated accounts learn it, its bots and time limit go on, and the players it
        now waits for may get a mail."""
        self.broadcast(room)
        self.accounts.game_changed(room)
        self.scheduler.schedule_bots(room)
        self.notifier.changed(room)
        self.director.game_changed(room)

    def shown(self, room: Room) -> None:
        """After an undo or abandoning: its clients and seated accounts learn it."""
        self.broadcast(room)
        self.accounts.game_changed(room)

    async def follow_new(self, game_id: str) -> None:
        """Another process changed a game this one does not hold, of an account with a
        socket here (a new game, a seat taken): hold it from now on, and tell them."""
        room = await self.authority.fresh(game_id)
        self.accounts.game_changed(room)

    def check_rate(self, kind: str, key: object, spend: bool = True) -> None:
        """429 when ``key`` has used up its ``kind`` (create, action, hint, message)."""
        check_rate(self.rates, kind, key, spend)

    def check_crowd(self, room: Room, seats: frozenset[int]) -> None:
        """503 when a spectator would be one too many for the game: its players
        always get in, however many watch."""
        if not seats and len(room.subscribers) >= self.crowd.per_game:
            raise ApiError(
                503,
                "this game has as many spectators as it can take ({n}); try again later",
                n=self.crowd.per_game,
            )

    async def write(self, write: Write[T]) -> T:
        """A durable write outside any game (accounts, sessions); 503 if refused."""
        return await self._write(write)

    async def create(self, body: Any, account: Account | None = None) -> JSON:
        """Store a new game (its seats' links go to its creator only) and start it."""
        shortest = self.shortest_time_limit
        setup = check_setup(body, account, self.limits, shortest, self.account_called)
        game_id = secrets.token_urlsafe(9)
        creator = account.id if account else None
        game_type, seats, options = setup.type, setup.seats, setup.options
        seed, seed_chosen = setup.seed, setup.seed_chosen
        rated = options.get("rated") is not False and not seed_chosen and can_be_rated(seats)
        if check_coach(body, game_type, seats, rated):
            options = {**options, "coach": True}
        options = {**options, **friends_only_option(body, seats)}
        new = newcomers(self.store, game_type.name, seats) if rated else frozenset()
        check_invitations(self.store, account, seats, new)
        await self._write(
            CreateGame(game_id, game_type.name, options, seed, seats, seed_chosen, creator, new)
        )
        room = self.opened(game_id)
        bots = seat_bots(self.store, room)
        return {
            "id": game_id,
            "url": f"/g/{game_id}",
            "seats": [created_seat(game_id, s, bots) for s in seats],
        }

    def opened(self, game_id: str) -> Room:
        """A game just stored (``create``, or a tournament's pairing) starts: its
        accounts' sockets list it, its bots and clock go on."""
        room = self.rooms.room(game_id)
        self.accounts.game_changed(room)  # the creator's other tabs (and invitees) list it
        self.scheduler.schedule_bots(room)
        self.notifier.changed(room)  # an invitee may get a mail
        return room

    def login_of(self, name: str) -> tuple[Account, str] | None:
        """The account a name signs in to, and its password hash. An account registered
        before keys were NFKC keeps its old key if the new one was another's: that key is
        looked for first (for every other account both are the same)."""
        legacy = reading(self.store.account_login, legacy_name_key(name))
        return legacy or reading(self.store.account_login, name_key(name))

    def account_called(self, name: str) -> Account | None:
        """The account a name signs in to (``login_of``): an invitation's."""
        found = self.login_of(name)
        return None if found is None else found[0]

    async def leave_all_games(self, account: Account) -> None:
        """Before an account goes: it resigns every game it plays (a loss where rated,
        so deleting never dodges one; nobody waits for a "deleted player"), and the
        games of it that have not started are withdrawn."""
        for row in reading(self.store.games_of, account.id, 10_000):
            if row.over:
                continue
            try:
                room = await self.authority.fresh(row.id)
                if room.finished:
                    continue
                if room.waiting:
                    await self.authority.withdraw(row.id, None)
                else:
                    await self.authority.resign(row.id, room.seats_of(account))
            except ApiError as err:  # gone or ended meanwhile: nothing to leave
                log.info("leaving game %s: %s", row.id, err.message)

    async def resume(self) -> None:
        """After a restart: load unfinished games and let their bots move on."""
        for game_id in reading(self.store.unfinished_games):
            try:
                self.scheduler.schedule_bots(self.rooms.room(game_id))
            except ApiError as err:
                log.error("%s", err.message)
        self.analyst.resume()

    async def expire_open_games(self) -> int:
        """Withdraw the open games whose seats have waited ``open_seat_days`` (none of
        them started: see ``Authority.withdraw``); how many."""
        expired = 0
        for game_id in reading(self.store.open_games, 10_000, True):
            try:
                if room_age(self.rooms.room(game_id)) >= self.open_seat_seconds:
                    await self.authority.withdraw(game_id, None)
                    expired += 1
            except ApiError:  # gone, or started meanwhile
                continue
        return expired

    async def expire_open_games_now_and_then(self) -> None:
        """Now and then (a minute, or sooner for short settings) withdraw expired games."""
        every = min(60.0, max(0.2, self.open_seat_seconds / 4))
        while True:
            await CLOCK.sleep(every)  # a test's moved clock sweeps at once
            try:
                await self.expire_open_games()
            except Exception:  # a chore must keep going; the next sweep tries again
                log.exception("withdrawing expired open games failed")

    def forget_finished(self) -> int:
        """Drop finished games nobody watches from memory (``Rooms.forget_finished``)."""
        dropped = self.rooms.forget_finished()
        self.coach.forget(set(self.rooms.live))
        return dropped

    async def forget_finished_now_and_then(self, every: float = 10.0) -> None:
        """Drop finished games nobody watches from memory now and then."""
        while True:
            await asyncio.sleep(every)
            self.forget_finished()

    def close(self) -> None:
        self.online.leave()
        self.notifier.close()
        self.reminders.close()
        self.analyst.close()
        self.coach.close()
        self.dailies.close()
        self.writer.close()
