"""What runs by itself: bot moves, hints, and the time per move (``time_limit``).

Each bot seat thinks on its own, from its own view, in a worker process
(``BotPool``). A game's time limit is derived from stored times (when the round or
turn began), so it survives restarts too: when it runs out, the game's default
bot plays for every seat still to act (the log says ``"by": "clock"``), or the
game ends there ("abandon"), as its creator chose: then the players still to act
ran out of time (``timed_out``), and in a rated game they lose (ranked last; the
others share first place), so stopping to move never dodges a loss. An unrated
game just ends, unfinished, saying whose time ran out.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from functools import partial
from typing import Any

from ..core.web import JSON, BotLimits
from .acting import acting_seat, check_fresh, check_ply, late_seats, require_player
from .authority import Authority
from .botpool import BotPool
from .clock import CLOCK
from .errors import ApiError
from .rated import check_hint_allowed
from .ratelimit import RateLimit, check_rate
from .room import Room, Rooms
from .sync import Leases

log = logging.getLogger("tabletop.server")


def derived_seed(seed: int, ply: int, purpose: str) -> int:
    """A seed for a bot's move, fixed by the game's seed and the move number."""
    return random.Random(f"{seed}:{ply}:{purpose}").getrandbits(63)


class Scheduler:
    """Starts bot moves and time limits and works out hints; ``shown(room)`` tells a
    room's clients (which bot is thinking)."""

    def __init__(
        self,
        rooms: Rooms,
        authority: Authority,
        leases: Leases,
        pool: BotPool,
        limits: BotLimits,
        bot_pause: float,
        rates: dict[str, RateLimit],
        shown: Callable[[Room], None],
    ) -> None:
        self.rooms = rooms
        self.authority = authority
        self.leases = leases
        self.pool = pool
        self.limits = limits
        self.bot_pause = bot_pause
        self.rates = rates
        self.shown = shown
        self._hints_running: set[tuple[str, int]] = set()  # (game, seat) with a hint coming
        # the correspondence reminder's hook (reminders.Reminders.schedule), set by the hub
        self.remind: Callable[[Room], None] = lambda room: None

    async def hint(self, room: Room, seats: frozenset[int], ply: Any, wanted: Any = None) -> JSON:
        require_player(seats)
        check_hint_allowed(room)
        check_rate(self.rates, "hint", (room.id, seats))
        if not room.simultaneous:
            check_ply(room, ply)
        seat = acting_seat(room, seats, wanted)
        check_fresh(room, seat, ply)
        running = (room.id, seat)
        if running in self._hints_running:  # one search per seat at a time, however asked
            raise ApiError(429, "a hint is already being worked out for this game")
        purpose = f"hint {seat}" if room.simultaneous else "hint"
        job = room.match.hint_job(seat, derived_seed(room.row.seed, room.since(seat), purpose))
        self._hints_running.add(running)
        try:
            result = await self.pool.run(job)
        except Exception:  # a crashed worker: the game itself is unaffected
            log.exception("hint failed in game %s", room.id)
            raise ApiError(503, "the hint could not be worked out just now; try again") from None
        finally:
            self._hints_running.discard(running)
        await self.authority.record_hint(room)  # stored before it is seen: help is never unnoted
        return {**result, "ply": ply}

    # -- bots ---------------------------------------------------------------------------

    def schedule_bots(self, room: Room) -> None:
        """Start a move for every active bot seat that has none under way for its
        current situation, and the game's time limit (and its reminder)."""
        self.remind(room)
        if room.waiting or room.finished:
            return
        for seat in sorted(room.match.active_seats()):
            if room.seat(seat).kind != "bot":
                continue
            since = room.since(seat)
            task = room.bot_tasks.get(seat)
            if task is not None and not task.done() and room.bot_since.get(seat) == since:
                continue
            room.bot_since[seat] = since
            loop = asyncio.get_running_loop()
            room.bot_tasks[seat] = loop.create_task(self._bot_move(room, seat, since))
        self.schedule_time_limit(room)

    def _bot_current(self, room: Room, seat: int, since: int) -> bool:
        """Whether a move worked out for ``seat`` from ``since`` still applies."""
        return (
            self.rooms.live.get(room.id) is room
            and not room.finished  # resigned or abandoned while the move was worked out
            and room.since(seat) == since
            and seat in room.match.active_seats()
        )

    async def _bot_move(self, room: Room, seat: int, since: int) -> None:
        await asyncio.sleep(self.bot_pause)
        # seq too: after an undo the same ply comes again, and is a new task
        task = f"bot {seat} {since} {room.seq}"
        still = partial(self._bot_current, room, seat, since)
        if await self.leases.leased(room.id, task, still):
            async with self.leases.holding(room.id, task):
                await self._bot_move_leased(room, seat, since)

    async def _bot_move_leased(self, room: Room, seat: int, since: int) -> None:
        bot = room.seat(seat).bot or "random"
        # sequential games keep their seeds: one per move; simultaneous ones one per seat too
        purpose = f"bot {seat}" if room.simultaneous else "bot"
        seed = derived_seed(room.row.seed, since, purpose)
        job = room.match.bot_job(seat, bot, seed, self.limits)  # from the seat's view only
        room.thinking.add(seat)
        self.shown(room)
        try:
            action = await self.pool.run(job)
        except Exception:  # a crashed worker must not stall the game: try again shortly
            log.exception("bot %s failed in game %s; retrying", bot, room.id)
            self._bot_done(room, seat)
            await asyncio.sleep(1.0)
            self.schedule_bots(room)
            return
        self._bot_done(room, seat)

        async def change(live: Room) -> None:
            if live is not room or not self._bot_current(room, seat, since):
                return  # an undo, a take-back or the time limit came first
            try:
                await self.authority.apply(room, seat, action)
            except ApiError as err:
                log.error("bot %s in game %s: %s", bot, room.id, err.message)

        if self.rooms.live.get(room.id) is room:
            await self.authority.in_turn(room.id, change)

    def _bot_done(self, room: Room, seat: int) -> None:
        room.thinking.discard(seat)
        if room.bot_tasks.get(seat) is asyncio.current_task():
            del room.bot_tasks[seat]

    # -- time limits ----------------------------------------------------------------------

    def schedule_time_limit(self, room: Room) -> None:
        """Set the game's time limit (if it has one) for the current round or turn."""
        deadline = room.time_limit_deadline()
        start = room.round_start()
        if deadline is None or (
            room.time_limit_start == start
            and room.time_limit_task is not None
            and abs(room.time_limit_due - deadline) < 0.001  # a seat's clock stopped: sooner
        ):
            return
        if room.time_limit_task is not None:
            room.time_limit_task.cancel()
        room.time_limit_start = start
        room.time_limit_due = deadline
        loop = asyncio.get_running_loop()
        room.time_limit_task = loop.create_task(self._time_runs_out(room, start, deadline))

    async def _time_runs_out(self, room: Room, start: int, deadline: float) -> None:
        """At ``deadline``, play the game's default bot for every seat still active in
        the round (or turn) that began at ply ``start``; the log says so (``by``)."""
        await CLOCK.sleep_until(deadline)  # a test's moved clock ends it at once
        # "clock": the lease's name in the store, shared with processes of older versions
        task = f"clock {start} {room.seq}"
        still = partial(self._time_limit_current, room, start)
        if await self.leases.leased(room.id, task, still):
            async with self.leases.holding(room.id, task):
                await self._out_of_time(room, start)

    def _time_limit_current(self, room: Room, start: int) -> bool:
        return self.rooms.live.get(room.id) is room and room.round_start() == start

    async def _out_of_time(self, room: Room, start: int) -> None:
        async def change(live: Room) -> None:
            late = late_seats(room)
            if room.on_timeout == "abandon":
                current = live is room and room.round_start() == start and not room.finished
                if current and late:
                    await self.authority.abandon(room, late)
                return
            # with a clock only the seats whose clocks ran out; with a time per move all
            out = late if room.clock is not None else sorted(room.match.active_seats())
            for seat in out:
                if live is not room or room.round_start() != start:
                    return  # moved on meanwhile
                if seat not in room.match.active_seats():
                    continue
                action = await self._default_move(room, seat, start)
                try:
                    await self.authority.apply(room, seat, action, by="clock")
                except ApiError as err:
                    log.error("clock in game %s: %s", room.id, err.message)
                    return

        if self.rooms.live.get(room.id) is room:
            await self.authority.in_turn(room.id, change)

    async def _default_move(self, room: Room, seat: int, start: int) -> str:
        """The default bot's move for ``seat``; the first legal action if it fails."""
        bot = room.type.default_bot
        seed = derived_seed(room.row.seed, start, f"clock {seat}")
        try:
            return await self.pool.run(room.match.bot_job(seat, bot, seed, self.limits))
        except Exception:  # noqa: BLE001 - the time limit must not stall the game
            log.exception("default bot failed in game %s", room.id)
            first: str = room.match.choices(seat)[0]["action"]
            return first
