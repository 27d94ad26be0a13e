"""One live game (``Room``) and the rooms this process holds (``Rooms``).

A room is rebuilt from the store by replaying its stored actions, so memory is
only a cache of the store: finished games nobody watches are dropped and come
back whole when asked for again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..core.web import (
    JSON,
    SIMULTANEOUS,
    TAKE_BACK,
    ActionRejected,
    Match,
    Step,
    WebGame,
    get_web_game,
)
from .clock import CLOCK
from .clocks import Clocks, Control, Event, control_of, reckon
from .errors import ApiError, reading
from .rows import Account, ActionRow, GameRow, Seat
from .storage import GameStore

if TYPE_CHECKING:
    from .encoding import Subscriber


#: An outbox item no state or answer can be: the game is gone, close the socket (4410).
GONE = "\x00gone"


@dataclass(eq=False)
class Room:
    row: GameRow
    type: WebGame
    match: Match
    seats: list[Seat]
    log: list[JSON]
    reveals: list[bool]  # per ply: whether that action revealed hidden information
    action_seats: list[int]  # per ply: who acted
    subscribers: set[Subscriber] = field(default_factory=set)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # per bot seat
    bot_since: dict[int, int] = field(default_factory=dict)  # the ``since`` each task is for
    thinking: set[int] = field(default_factory=set)  # bot seats working out a move
    time_limit_task: asyncio.Task[None] | None = None
    time_limit_start: int = -1  # the ``round_start`` the time limit task runs for
    time_limit_due: float = 0.0  # the deadline it runs for (a stopped clock moves it)
    actions: list[str] = field(default_factory=list)  # per ply: the action itself
    _clock_events: tuple[int, list[Event]] = (-1, [])  # (ply, the actions as clocks see them)
    _cache: dict[tuple[str, int | None], str] = field(default_factory=dict)  # views, logs
    _cache_ply: int = -1
    choices_cache: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat: (since, text)
    ratings_cache: list[JSON | None] | None = None  # per seat, once over: its rating change
    daily_cache: tuple[JSON | None] | None = None  # (the daily it is of, or None), once read
    # the seats' accounts when last read, and which of them are bot accounts
    bot_accounts_cache: tuple[tuple[int | None, ...], frozenset[int]] | None = None
    seq: int = 0  # the game's stored changes (a shared store's compare-and-set counter)
    _presence: tuple[list[int], int] | None = None  # (seats connected, spectators)

    def watch(self, sub: Subscriber) -> None:
        """A client starts watching (or playing) this game."""
        self.subscribers.add(sub)
        self._presence = None

    def unwatch(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
        self._presence = None

    def presence(self) -> tuple[list[int], int]:
        """The seats with a client connected, and how many spectators watch; worked
        out once per change of the crowd, not once per client's state (with 500
        spectators that was 500 x 500 steps a move)."""
        if self._presence is None:
            online: set[int] = set()
            spectators = 0
            for sub in self.subscribers:
                online |= sub.seats
                spectators += not sub.seats
            self._presence = (sorted(online), spectators)
        return self._presence

    def cached(self, key: tuple[str, int | None], compute: Callable[[], str]) -> str:
        """``compute()``, once per move: views and choices only change when a move is made."""
        if self._cache_ply != self.ply:
            self._cache.clear()
            self._cache_ply = self.ply
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def ply(self) -> int:
        return len(self.log)

    def seat(self, number: int) -> Seat:
        return self.seats[number]

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    @property
    def waiting(self) -> bool:
        """Some seat is still open in the lobby: nothing moves until it is taken."""
        return any(s.open for s in self.seats)

    @property
    def finished(self) -> bool:
        return self.row.abandoned or self.match.is_over()

    def seats_of(self, account: Account | None) -> frozenset[int]:
        if account is None:
            return frozenset()
        return frozenset(s.seat for s in self.seats if s.account_id == account.id)

    @property
    def simultaneous(self) -> bool:
        return self.type.dynamics == SIMULTANEOUS

    def since(self, seat: int) -> int:
        """The first ply of the state ``seat`` must have seen to act: in a sequential
        game every move changes everything (the current ply); in a simultaneous game
        only the seat's own actions and resolved rounds (``reveals``) change what it
        may do, so the others' pending actions never make its submission stale."""
        if not self.simultaneous:
            return self.ply
        for ply in range(self.ply - 1, -1, -1):
            if self.action_seats[ply] == seat or self.reveals[ply]:
                return ply + 1
        return 0

    def steps(self) -> list[Step]:
        """Each action so far as an undo sees it (``Match.undo``)."""
        return [Step(s, r) for s, r in zip(self.action_seats, self.reveals, strict=True)]

    def round_start(self) -> int:
        """The ply at which the current turn (sequential) or round (simultaneous) began."""
        if not self.simultaneous:
            return self.ply
        for ply in range(self.ply - 1, -1, -1):
            if self.reveals[ply]:
                return ply + 1
        return 0

    def started_at(self, ply: int) -> str:
        """When ply ``ply`` became possible: the time of the action before it, or of the
        game's creation."""
        return self.log[ply - 1]["at"] if ply else self.row.started or self.row.created

    @property
    def time_limit(self) -> float:
        """The game's time per move in seconds (0: none). Stored as the option
        ``time_limit``; games stored before said ``clock``, as NMBR 9's own move clock
        option still does (either is the time per move)."""
        options = self.row.options
        return _seconds(options.get("time_limit")) or _seconds(options.get("clock"))

    @property
    def on_timeout(self) -> str | None:
        """What happens when a move's time (or a seat's clock) runs out: ``"bot"`` or
        ``"abandon"``."""
        if not self.time_limit and self.clock is None:
            return None
        return "abandon" if self.row.options.get("on_timeout") == "abandon" else "bot"

    @property
    def clock(self) -> Control | None:
        """The game's real-time clock (``clocks``), if it has one."""
        return control_of(self.row.options)

    def clocks(self, now: float | None = None) -> Clocks | None:
        """Every seat's clock at ``now`` (the server's time by default), worked out from
        the stored actions' times (``clocks.reckon``); ``None`` without a clock."""
        control = self.clock
        if control is None:
            return None
        now = CLOCK.time() if now is None else now
        finished = self.finished or self.waiting
        active = frozenset() if finished else self.match.active_seats()
        undo_at = self.row.clock_from
        clocks = reckon(
            control,
            [s.seat for s in self.seats if s.kind == "human"],
            self.simultaneous,
            _unix(self.started_at(0)),
            self._events(),
            active,
            None if undo_at is None else _unix(undo_at),
            now,
            len(self.seats),
        )
        if self.row.abandoned and not self.row.resigned:  # they ran out of time
            left = [0.0 if s in self.row.timed_out else v for s, v in enumerate(clocks.left)]
            clocks = Clocks(tuple(left), (), clocks.flagged | set(self.row.timed_out))
        return clocks

    def clock_frame(self, now: float | None = None) -> JSON | None:
        """The clocks as state frames carry them (``Clocks.frame``)."""
        now = CLOCK.time() if now is None else now
        clocks, control = self.clocks(now), self.clock
        return None if clocks is None or control is None else clocks.frame(control, now)

    def _events(self) -> list[Event]:
        """The actions as the clocks see them, parsed once per move."""
        if self._clock_events[0] != self.ply:
            events = [
                Event(
                    seat, _unix(log["at"]), reveals, action == TAKE_BACK, log.get("by") == "clock"
                )
                for seat, log, reveals, action in zip(
                    self.action_seats, self.log, self.reveals, self.actions, strict=True
                )
            ]
            self._clock_events = (self.ply, events)
        return self._clock_events[1]

    def time_limit_deadline(self) -> float | None:
        """When the current round's (or turn's) time runs out, as a Unix time: its time
        per move after the round began, or after the last undo if that came later (an
        undo gives the turn back with its full time). With a clock: when the first
        running clock reaches zero."""
        if self.clock is not None and not self.finished and not self.waiting:
            now = CLOCK.time()
            clocks = self.clocks(now)
            return None if clocks is None else clocks.deadline(now)
        if not self.time_limit or self.finished or self.waiting:
            return None
        started = datetime.fromisoformat(self.started_at(self.round_start())).timestamp()
        if self.row.clock_from is not None:
            started = max(started, datetime.fromisoformat(self.row.clock_from).timestamp())
        return started + self.time_limit


def room_age(room: Room) -> float:
    """Seconds since the game was created."""
    return CLOCK.time() - datetime.fromisoformat(room.row.created).timestamp()


def _unix(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def _seconds(value: Any) -> float:
    return float(value) if type(value) in (int, float) and value > 0 else 0.0


def entry(log: JSON, ply: int, at: str, by: str | None) -> JSON:
    """A log entry as clients get it: the game's, with its move number and time, and
    who acted when the seat did not (``"by": "clock"``: its time ran out)."""
    entry = {**log, "ply": ply, "at": at}
    if by == "clock":
        entry["by"] = by
        entry["text"] = f"ran out of time; the default bot played for them: {log.get('text', '')}"
    return entry


def move_subscribers(old: Room, new: Room) -> None:
    """Hand ``old``'s clients to ``new`` (the same game, rebuilt); ``old``'s bots and
    time limit stop."""
    for task in [*old.bot_tasks.values(), old.time_limit_task]:
        if task is not None:
            task.cancel()
    for sub in list(old.subscribers):
        new.watch(sub)
        old.unwatch(sub)


class Rooms:
    """The rooms of one server process, loaded from the store when first asked for;
    and per game a lock, so that its changes run one at a time (``Authority.in_turn``)."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.live: dict[str, Room] = {}
        self.turns: dict[str, asyncio.Lock] = {}  # per game: its changes one at a time

    def room(self, game_id: str) -> Room:
        """The live room of a game, rebuilt from the store if needed; 404 if unknown."""
        room = self.live.get(game_id)
        if room is None:
            room = self._load(game_id)
            self.live[game_id] = room
        return room

    def _load(self, game_id: str) -> Room:
        row = reading(self.store.game, game_id) if _plausible_id(game_id) else None
        if row is None:
            raise ApiError(404, "there is no game with that link")
        seats = reading(self.store.seats, game_id)
        # seq is read before the actions: if a move lands in between, the room is
        # ahead of its seq and its next write's compare-and-set fails (and reloads)
        try:
            return build_room(row, seats, reading(self.store.actions, game_id))
        except ActionRejected as err:  # only if the rules changed under a stored game
            raise ApiError(
                500, "stored game {game} no longer replays: {reason}", game=game_id, reason=err
            ) from None

    def forget_finished(self) -> int:
        """Drop finished games nobody watches from memory; they are rebuilt from the
        store if asked for again. Returns how many were dropped."""
        idle = [
            game_id for game_id, room in self.live.items() if room.finished and not room.subscribers
        ]
        for game_id in idle:
            del self.live[game_id]
        for game_id in [g for g, turn in self.turns.items() if g not in self.live]:
            if not self.turns[game_id].locked():
                del self.turns[game_id]
        return len(idle)


def build_room(row: GameRow, seats: list[Seat], actions: list[ActionRow]) -> Room:
    """A game's room made by applying ``actions`` (``ActionRejected`` if one fails)."""
    game_type = get_web_game(row.type)
    match = game_type.new_match(len(seats), row.options, row.seed)
    match.recorder.created = row.created  # the game's, not this process's load time
    room = Room(row, game_type, match, seats, [], [], [], seq=row.seq)
    for action in actions:
        applied = match.apply(action.seat, action.action)
        room.log.append(entry(applied.log, action.ply, action.at, action.by))
        room.reveals.append(applied.reveals)
        room.action_seats.append(action.seat)
        room.actions.append(action.action)
    return room


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 40 and all(c.isalnum() or c in "-_" for c in game_id)
