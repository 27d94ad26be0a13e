"""Live games: one ``Room`` per game in memory, kept in step with the store.

The ``Hub`` is the single authority. The changes to one game (moves, undos)
run one at a time, from the checks to the durable write and the change in
memory, so two submissions for the same turn can never both be applied: the
second one sees a different ``ply`` and is refused. Meanwhile other games go
on: writes are committed off the event loop (``Committer``), and bots think in
worker processes.

In a simultaneous game (NMBR 9) several seats act at once, so a submission is
stale only if something changed *for its seat* since the state it saw: its own
earlier action or take-back, or a resolved round (``Room.since``). Each bot seat
thinks on its own, from its own view; each action is stored, one at a time and
with its seat, before anyone hears of it, and the round resolves when the last
one is applied, so replaying the stored actions rebuilds the same hidden
pending actions after a crash. A game's optional move clock (``clock`` option)
is derived from stored times, so it survives restarts too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar, cast

import orjson

from ..core.web import (
    DEFAULT_LIMITS,
    JSON,
    SIMULTANEOUS,
    TAKE_BACK,
    ActionRejected,
    BotLimits,
    Match,
    OptionsError,
    WebGame,
    get_web_game,
    web_games,
)
from ..i18n import N_, fill
from .botpool import BotPool
from .committer import Committer
from .names import BadName, clean_name
from .ratelimit import RateLimits
from .ratings import MODEL, RatedEnd, bot_seeds, ranks_of
from .storage import GameStore, SharedStore, StoreConflict
from .store import Account, AccountGame, ActionRow, GameRow, Seat, StoreError

log = logging.getLogger("tabletop.server")
T = TypeVar("T")
#: how long a process holds a bot move or clock of a shared store without renewing it
LEASE_SECONDS = 5.0

#: The longest time per move a game may have: turn-based games run over days.
MAX_TIME_LIMIT = 14 * 24 * 3600
ON_TIMEOUT = ("bot", "abandon")  # what happens when a move's time runs out
OPEN_NAME = "Open seat"


class ApiError(Exception):
    """A request the server refuses: an HTTP status and a message for the user.

    The message is a msgid with ``{name}`` placeholders filled from ``args``
    (tabletop.i18n): the answer carries the English ``message``, and the ``key`` and
    ``args`` the page translates. A ``key`` of ``None`` is a text from elsewhere (a
    game's rules) the page shows as it is."""

    def __init__(self, status: int, key: str | None, /, **args: Any) -> None:
        params = {k: v if isinstance(v, int | str) else str(v) for k, v in args.items()}
        message = fill(key, params) if key is not None else str(params.pop("text", ""))
        super().__init__(message)
        self.status = status
        self.message = message
        self.key = key
        self.params = params  # not ``args``: an exception's own

    @classmethod
    def of(cls, status: int, err: Exception) -> ApiError:
        """A game's refusal (``OptionsError``, ``ActionRejected``): with its msgid when it
        has one (``tabletop.core.errors.KeyedError``), else its text as it is."""
        key = getattr(err, "key", None)
        if key is None:
            return cls.plain(status, str(err))
        return cls(status, key, **getattr(err, "params", {}))

    @classmethod
    def plain(cls, status: int, text: str) -> ApiError:
        """An error whose text has no msgid (a game's own words): shown as it is."""
        return cls(status, None, text=text)

    def body(self) -> JSON:
        """``{"error", "key", "args"}``: the English text, and what translates it."""
        return {"error": self.message, "key": self.key, "args": self.params}


class Stale(ApiError):
    """Another process changed the game first: 409, and the room is reloaded."""


@dataclass(eq=False)
class Subscriber:
    """One WebSocket connection watching a room; ``seats`` are those it may play.

    States carry only the log entries the client lacks (a late-game log is most
    of a state): ``log_of`` and ``log_known`` are the log the client will hold
    once its outbox is sent — the room's list (a new one after an undo) and how
    many of its entries. Likewise ``choices_known`` names the choices it will
    hold (in a simultaneous round a seat's hundreds of placements stay the same
    while the others place): a state repeating them says ``"choices": null``.
    """

    seats: frozenset[int]
    # (log start of a state, or None for an answer; the text; choices known before it)
    outbox: asyncio.Queue[tuple[int | None, str, Any]] = field(default_factory=asyncio.Queue)
    log_of: list[JSON] | None = None
    log_known: int = 0
    choices_known: Any = None

    def send(self, message: JSON) -> None:
        """Queue an answer (ack, error, hint) for this client."""
        self.outbox.put_nowait((None, _dumps(message), None))

    def send_state(
        self, log: list[JSON], build: Callable[[int, bool], str], choices: Any = None
    ) -> None:
        """Queue a state, ``build(start, kept)`` with the entries of ``log`` from
        ``start`` on, and its choices unless ``kept`` (the client has them: they are
        named ``choices``, and ``None`` names none).

        An older state still waiting is superseded (only the newest matters); the
        new one then starts the log where the superseded one did, and counts only
        on the choices the client had before it.
        """
        start = self.log_known if self.log_of is log else 0
        known = self.choices_known
        waiting = []
        while not self.outbox.empty():
            waiting.append(self.outbox.get_nowait())
        superseded = False
        for item in waiting:
            if item[0] is None:
                self.outbox.put_nowait(item)
            else:
                start = min(start, item[0])
                if not superseded:
                    known, superseded = item[2], True
        kept = choices is not None and choices == known
        self.outbox.put_nowait((start, build(start, kept), known))
        self.log_of, self.log_known = log, len(log)
        self.choices_known = choices


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
    clock_task: asyncio.Task[None] | None = None
    clock_start: int = -1  # the ``round_start`` the clock task runs for
    _cache: dict[Any, Any] = field(default_factory=dict)  # per-move views and logs
    _cache_ply: int = -1
    _choices: dict[int, tuple[int, str]] = field(default_factory=dict)  # seat: (since, text)
    _ratings: list[JSON | None] | None = None  # per seat, once over: its rating change
    seq: int = 0  # the game's stored changes (a shared store's compare-and-set counter)

    def cached(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, once per move: views and choices only change when a move is made."""
        if self._cache_ply != self.ply:
            self._cache.clear()
            self._cache_ply = self.ply
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def choices_text(self, seat: int) -> str:
        """``match.choices(seat)`` as JSON text, kept while nothing changes for the seat
        (``since``): in a simultaneous round, the others' placements leave it as it is."""
        since = self.since(seat)
        kept = self._choices.get(seat)
        if kept is None or kept[0] != since:
            kept = (since, _dumps(self.match.choices(seat)))
            self._choices[seat] = kept
        return kept[1]

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
    def clock(self) -> float:
        """The game's move clock in seconds (0: none)."""
        seconds = self.row.options.get("clock", 0)
        return float(seconds) if type(seconds) in (int, float) and seconds > 0 else 0.0

    def clock_deadline(self) -> float | None:
        """When the current round's (or turn's) clock runs out, as a Unix time."""
        if not self.clock or self.finished or self.waiting:
            return None
        started = datetime.fromisoformat(self.started_at(self.round_start())).timestamp()
        return started + self.clock


def derived_seed(seed: int, ply: int, purpose: str) -> int:
    """A seed for a bot's move, fixed by the game's seed and the move number."""
    return random.Random(f"{seed}:{ply}:{purpose}").getrandbits(63)


class Hub:
    """All rooms of one server process."""

    def __init__(
        self,
        store: GameStore,
        pool: BotPool,
        bot_pause: float = 0.5,
        limits: BotLimits = DEFAULT_LIMITS,
        rates: RateLimits = RateLimits(),  # noqa: B008 - frozen settings
    ) -> None:
        self.store = store
        self.pool = pool
        self.bot_pause = bot_pause
        self.limits = limits
        self.rates = rates.limiters()
        self._hints_running: set[tuple[str, int]] = set()  # (game, seat) with a hint coming
        self.rooms: dict[str, Room] = {}
        self._turns: dict[str, asyncio.Lock] = {}  # per game: its changes one at a time
        self.committer = Committer(store)
        self._unchecked = 0  # commits since the last checkpoint
        self._checkpoints = ThreadPoolExecutor(1, thread_name_prefix="tabletop-checkpoint")
        # who holds a lease (see ``_leased``): unique per process, readable in the table
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"

    @property
    def shared(self) -> SharedStore:
        """The store, as shared by several processes; only when ``store.shared``."""
        assert self.store.shared
        return cast(SharedStore, self.store)

    async def checkpoint_now_and_then(self, every: float = 1.0) -> None:
        """Copy the journal into the database file in the background (see
        ``Store.checkpoint_separately``): commits never wait for it."""
        self.store.checkpoint_separately()
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            if self._unchecked:
                self._unchecked = 0
                try:
                    await loop.run_in_executor(self._checkpoints, self.store.checkpoint)
                except Exception:  # noqa: BLE001 - retried next time; the journal holds all
                    log.exception("checkpoint failed")

    async def forget_finished_now_and_then(self, every: float = 10.0) -> None:
        """Drop finished games nobody watches from memory now and then (``forget_finished``)."""
        while True:
            await asyncio.sleep(every)
            self.forget_finished()

    async def listen(self, every: float = 2.0) -> None:
        """A shared store: follow the changes other processes make. Each notice
        (``pgstore.CHANNEL``) reloads a game held here that is behind; every ``every``
        seconds the games held are checked anyway (a notice can be lost, e.g. while
        the database restarts), and games whose bot or clock lease ran out (a dead
        process's) are taken over."""
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
        game_id, _, seq = payload.rpartition(" ")
        room = self.rooms.get(game_id)
        if room is not None and seq.isdigit() and room.seq < int(seq):
            self._refresh_soon(game_id)

    def _refresh_soon(self, game_id: str) -> None:
        async def refresh() -> None:
            try:
                await self.fresh(game_id)
            except ApiError as err:
                log.warning("reloading game %s: %s", game_id, err.message)

        asyncio.get_running_loop().create_task(refresh())

    def catch_up(self) -> None:
        """Reload every game held here that another process has changed."""
        if not self.rooms:
            return
        try:
            seqs = _reading(self.shared.seqs, list(self.rooms))
        except ApiError as err:
            log.warning("catching up: %s", err.message)
            return
        for game_id, seq in seqs.items():
            room = self.rooms.get(game_id)
            if room is not None and room.seq != seq:
                self._refresh_soon(game_id)

    def take_over_orphans(self) -> None:
        """Load the games whose bot move or clock lost its process, and let their
        bots and clocks go on here."""
        try:
            orphans = _reading(self.shared.orphaned)
        except ApiError as err:
            log.warning("looking for orphaned bot moves: %s", err.message)
            return
        for game_id in orphans:
            log.info("taking over the bots and clock of game %s", game_id)
            try:
                self.schedule_bots(self.room(game_id))
            except ApiError as err:
                log.warning("game %s: %s", game_id, err.message)

    def forget_finished(self) -> int:
        """Drop finished games nobody watches from memory; they are rebuilt from the
        store if asked for again. Returns how many were dropped."""
        idle = [
            game_id
            for game_id, room in self.rooms.items()
            if room.finished and not room.subscribers
        ]
        for game_id in idle:
            del self.rooms[game_id]
        for game_id in [g for g, turn in self._turns.items() if g not in self.rooms]:
            if not self._turns[game_id].locked():
                del self._turns[game_id]
        return len(idle)

    def close(self) -> None:
        self.committer.close()
        self._checkpoints.shutdown(wait=True)

    async def write(self, name: str, *args: Any) -> Any:
        """A durable write outside any game (accounts, sessions); 503 if refused."""
        return await self._write(name, *args)

    async def _write(self, name: str, *args: Any) -> Any:
        """Store one write (a ``Store`` write method and its arguments); 503 if refused.

        Commits wait for the disk on a thread, several games' writes at once (see
        ``Committer``). Copying the journal into the database file runs on another.
        """
        result = await self.committer.write(name, *args)
        self._unchecked += 1
        if isinstance(result, StoreConflict):
            raise Stale.plain(409, str(result))
        if isinstance(result, StoreError):
            raise ApiError.plain(503, str(result))
        return result

    async def _in_turn(self, game_id: str, change: Callable[[Room], Awaitable[T]]) -> T:
        """``change(room)`` for the game's live room once the game's earlier changes
        are done; it runs to its end even if the caller goes away (a stored move must
        also reach memory)."""
        turn = self._turns.setdefault(game_id, asyncio.Lock())

        async def alone() -> T:
            async with turn:
                room = self._fresh_room(game_id)
                try:
                    return await change(room)
                except Stale:
                    self.reload(game_id)
                    raise

        return await asyncio.shield(asyncio.ensure_future(alone()))

    def _fresh_room(self, game_id: str) -> Room:
        """The room, reloaded first if another process has changed the game (only a
        shared store: one query by primary key). Only in the game's turn."""
        room = self.room(game_id)
        if self.store.shared:
            changes = _reading(self.shared.changes_since, game_id, room.ply)
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
                entries.append((_entry(applied.log, action.ply, action.at, action.by), applied))
        except ActionRejected:
            return False
        room.match, room.seq = match, seq
        for (entry, applied), action in zip(entries, newer, strict=True):
            room.log.append(entry)
            room.reveals.append(applied.reveals)
            room.action_seats.append(action.seat)
        self.broadcast(room)
        self.schedule_bots(room)
        return True

    async def fresh(self, game_id: str) -> Room:
        """The room, up to date with changes other processes stored (their notices
        can be late or lost); with one process simply the room."""
        if not self.store.shared:
            return self.room(game_id)

        async def same(room: Room) -> Room:
            return room

        return await self._in_turn(game_id, same)

    def reload(self, game_id: str) -> Room:
        """Rebuild a room from the store (another process changed the game): its
        clients get the new state, its bots and clock start over."""
        old = self.rooms.pop(game_id, None)
        new = self.room(game_id)
        if old is not None:
            self._move_subscribers(old, new)
        self.broadcast(new)
        self.schedule_bots(new)
        return new

    # -- loading ------------------------------------------------------------------

    def room(self, game_id: str) -> Room:
        """The live room of a game, rebuilt from the store if needed; 404 if unknown."""
        room = self.rooms.get(game_id)
        if room is None:
            room = self._load(game_id)
            self.rooms[game_id] = room
        return room

    def _load(self, game_id: str) -> Room:
        row = _reading(self.store.game, game_id) if _plausible_id(game_id) else None
        if row is None:
            raise ApiError(404, "there is no game with that link")
        game_type = get_web_game(row.type)
        seats = _reading(self.store.seats, game_id)
        match = game_type.new_match(len(seats), row.options, row.seed)
        # seq is read before the actions: if a move lands in between, the room is
        # ahead of its seq and its next write's compare-and-set fails (and reloads)
        room = Room(row, game_type, match, seats, [], [], [], seq=row.seq)
        for action in _reading(self.store.actions, game_id):
            try:
                applied = match.apply(action.seat, action.action)
            except ActionRejected as err:  # only if the rules changed under a stored game
                raise ApiError(
                    500, "stored game {game} no longer replays: {reason}", game=game_id, reason=err
                ) from None
            room.log.append(_entry(applied.log, action.ply, action.at, action.by))
            room.reveals.append(applied.reveals)
            room.action_seats.append(action.seat)
        return room

    async def resume(self) -> None:
        """After a restart: load unfinished games and let their bots move on."""
        for game_id in _reading(self.store.unfinished_games):
            try:
                self.schedule_bots(self.room(game_id))
            except ApiError as err:
                log.error("%s", err.message)

    # -- creating -----------------------------------------------------------------

    async def create(self, body: Any, account: Account | None = None) -> JSON:
        if not isinstance(body, dict):
            raise ApiError(400, "send a JSON object describing the game")
        try:
            game_type = get_web_game(body.get("type", next(iter(web_games()))))
        except OptionsError as err:
            raise ApiError.of(400, err) from None
        raw_seats = body.get("seats")
        if not isinstance(raw_seats, list) or not all(isinstance(s, dict) for s in raw_seats):
            raise ApiError(400, '\'seats\' must be a list of seats like {"kind": "human"}')
        if not game_type.min_seats <= len(raw_seats) <= game_type.max_seats:
            raise ApiError(
                400,
                "{game} is for {least} to {most} seats, not {n}",
                game=game_type.title,
                least=game_type.min_seats,
                most=game_type.max_seats,
                n=len(raw_seats),
            )
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise ApiError(400, "'options' must be a JSON object")
        seed = body.get("seed")
        seed_chosen = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif type(seed) is not int or not 0 <= seed < 2**63:
            raise ApiError(400, "'seed' must be a whole number from 0 to 2^63 - 1")
        labels = _bot_labels(game_type)
        seats = [_seat(number, raw, labels, account) for number, raw in enumerate(raw_seats)]
        if sum(s.account_id is not None for s in seats) > 1:
            raise ApiError(400, "only one seat can be yours ('me') when you create a game")
        turn_based = _time_limit(body)
        try:
            options = game_type.check_setup(_plain_seats(raw_seats), options, self.limits)
        except OptionsError as err:
            raise ApiError.of(400, err) from None
        options = {**options, **turn_based}
        game_id = secrets.token_urlsafe(9)
        creator = account.id if account else None
        await self._write(
            "create_game", game_id, game_type.name, options, seed, seats, seed_chosen, creator
        )
        room = self.room(game_id)
        self.schedule_bots(room)
        return {
            "id": game_id,
            "url": f"/g/{game_id}",
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "bot": s.bot,
                    "open": s.open,
                    **(
                        {"token": s.token, "link": f"/g/{game_id}#seat={s.token}"}
                        if s.token
                        else {}
                    ),
                }
                for s in seats
            ],
        }

    # -- accounts' seats ------------------------------------------------------------

    async def join(self, game_id: str, account: Account | None, wanted: Any) -> JSON:
        """Give ``account`` an open seat of the game (``wanted``, or the first)."""
        if account is None:
            raise ApiError(401, "sign in to take a seat in an open game")
        if wanted is not None and type(wanted) is not int:
            raise ApiError(400, "'seat' must be the number of an open seat")
        room = self.room(game_id)

        async def change(room: Room) -> JSON:
            if room.seats_of(account):
                raise ApiError(409, "you already have a seat in this game")
            open_seats = [s.seat for s in room.seats if s.open]
            if not open_seats:
                raise ApiError(409, "this game has no open seat left")
            if wanted is not None and wanted not in open_seats:
                raise ApiError(409, "that seat is not open")
            seat = open_seats[0] if wanted is None else wanted
            await self._claim(room, seat, account)
            return {"id": room.id, "seat": seat, "url": f"/g/{room.id}"}

        return await self._in_turn(room.id, change)

    async def claim(self, game_id: str, account: Account | None, tokens: list[str]) -> JSON:
        """Tie the seat of a seat link to ``account`` (its name becomes the seat's)."""
        if account is None:
            raise ApiError(401, "sign in to claim a seat for your account")
        room = self.room(game_id)
        seats = self.seats_for(room, tokens)
        if len(seats) != 1:
            raise ApiError(400, "send one seat token as 'Authorization: Bearer <token>'")
        (seat,) = seats

        async def change(room: Room) -> JSON:
            owner = room.seat(seat).account_id
            if owner is not None and owner != account.id:
                raise ApiError(409, "that seat belongs to another account")
            if owner is None:
                if room.seats_of(account):
                    raise ApiError(409, "you already have a seat in this game")
                await self._claim(room, seat, account)
            return {"id": room.id, "seat": seat, "url": f"/g/{room.id}"}

        return await self._in_turn(room.id, change)

    async def _claim(self, room: Room, seat: int, account: Account) -> None:
        if room.finished:
            raise ApiError(409, "the game is over")
        claimed = await self._write("claim_seat", room.id, seat, account.id, account.name, room.seq)
        room.seq += 1  # a shared store counts the claim as a change of the game
        if not claimed:
            raise ApiError(409, "someone else took that seat first")
        try:
            room.seats = _reading(self.store.seats, room.id)
            room.row = _reading(self.store.game, room.id) or room.row  # its start, once seated
        except ApiError:  # stored but not read back: rebuild the room
            room.seq = -1  # a shared store's next check reloads it (its clients move along)
            if not self.store.shared:
                self.rooms.pop(room.id, None)
            raise
        self.broadcast(room)
        self.schedule_bots(room)

    def lobby(self) -> list[JSON]:
        """The open games, newest first."""
        games = []
        for game_id in self.store.open_games():
            try:
                room = self.room(game_id)
            except ApiError:
                continue
            games.append(
                {
                    "id": room.id,
                    "type": room.type.name,
                    "title": room.type.title,
                    "created": room.row.created,
                    "options": room.row.options,
                    "time_limit": room.clock or None,
                    "on_timeout": _on_timeout(room),
                    "seats": [_public_seat(s) for s in room.seats],
                }
            )
        return games

    def my_games(self, account: Account) -> list[JSON]:
        """The account's games: ongoing with its turn first, then ongoing, then finished."""
        games = []
        for row in self.store.games_of(account.id):
            if row.over:  # from the store alone: finished games are not replayed for this
                games.append(self._finished_summary(row))
                continue
            try:
                room = self.room(row.id)
            except ApiError:
                continue
            your_turn = (
                not room.finished and not room.waiting and row.seat in room.match.active_seats()
            )
            games.append(self._summary(row, room.seats, your_turn, room.waiting))
        order = {True: 0, False: 1}
        games.sort(key=lambda g: (g["over"], order[g["your_turn"]]))
        return games

    def _finished_summary(self, row: AccountGame) -> JSON:
        seats = self.store.seats(row.id)
        summary = self._summary(row, seats, False, False)
        changes = self.store.rating_changes(row.id)
        mine = changes.get(_player_key(seats[row.seat]))
        summary.update(
            rank=seats[row.seat].rank,
            rated=bool(changes),
            rating=None if mine is None else {"before": mine[1], "after": mine[2]},
        )
        return summary

    @staticmethod
    def _summary(row: AccountGame, seats: list[Seat], your_turn: bool, waiting: bool) -> JSON:
        game = get_web_game(row.type)
        return {
            "id": row.id,
            "type": row.type,
            "title": game.title,
            "url": f"/g/{row.id}",
            "seat": row.seat,
            "seats": [_public_seat(s) for s in seats],
            "updated": row.updated,
            "over": row.over,
            "abandoned": row.abandoned,
            "waiting": waiting,
            "your_turn": your_turn,
            "rank": None,
            "rated": False,
            "rating": None,
        }

    def leaderboard(self, game_type: str) -> JSON:
        """Every rated account and every bot strength of ``game_type``, best first."""
        rows = {
            player: (mu, sigma, games) for player, mu, sigma, games in self.store.ratings(game_type)
        }
        seeds = bot_seeds().get(game_type, {})
        for spec in seeds:
            rows.setdefault(f"b:{spec}", self.store.rating(game_type, f"b:{spec}"))
        ids = [int(p[2:]) for p in rows if p.startswith("a:")]
        names = self.store.account_names(ids)
        labels = _bot_labels(get_web_game(game_type))
        players = []
        for player, (mu, sigma, games) in rows.items():
            is_bot, key = player.startswith("b:"), player[2:]
            # a bot as its seats are named: the label without its note ("MCTS hard")
            name = _without_note(labels.get(key, key)) if is_bot else names.get(int(key))
            entry = {
                "name": name,
                "kind": "bot" if is_bot else "account",
                "rating": round(MODEL.rating(mu=mu, sigma=sigma).ordinal(), 2),
                "mu": round(mu, 2),
                "sigma": round(sigma, 2),
                "games": games,
            }
            if is_bot:  # the games of the tournament its rating started from
                entry["seeded_games"] = seeds.get(key, {}).get("games", 0)
            players.append(entry)
        players.sort(key=lambda p: -p["rating"])
        return {"type": game_type, "title": get_web_game(game_type).title, "players": players}

    def profile(self, account: Account) -> JSON:
        """An account's ratings per game and its finished games."""
        ratings = {}
        for name, game in web_games().items():
            mu, sigma, games = self.store.rating(name, f"a:{account.id}")
            ratings[name] = {
                "title": game.title,
                "rating": round(MODEL.rating(mu=mu, sigma=sigma).ordinal(), 2),
                "games": games,
            }
        history = [g for g in self.my_games(account) if g["over"]]
        return {"name": account.name, "ratings": ratings, "history": history}

    # -- seats ----------------------------------------------------------------------

    def check_rate(self, kind: str, key: object) -> None:
        """429 when ``key`` has used up its ``kind`` (create, action, hint, message)."""
        limit = self.rates[kind]
        wait = limit.wait(key)
        if wait:
            raise ApiError(429, limit.what, seconds=f"{wait:.0f}")

    def seats_for(
        self, room: Room, tokens: list[str], account: Account | None = None
    ) -> frozenset[int]:
        """The seats these tokens (and the signed-in ``account``) play; 403 if any token
        is not one of this game's."""
        seats = set(room.seats_of(account))
        for token in tokens:
            valid = isinstance(token, str)
            seat = _reading(self.store.seat_for_token, room.id, token) if valid else None
            if seat is None:
                raise ApiError(403, "that seat link is not valid for this game")
            seats.add(seat)
        return frozenset(seats)

    def acting_seat(self, room: Room, seats: frozenset[int], wanted: Any = None) -> int:
        """The seat among ``seats`` (a player's, see ``_require_player``) that may act
        now — ``wanted`` if given, else the lowest — or a 409 saying why not."""
        if room.row.abandoned:
            raise ApiError(409, "the game was abandoned: a move's time limit ran out")
        if room.waiting:
            raise ApiError(409, "the game waits for players to take its open seats")
        active = room.match.active_seats()
        if not active:
            raise ApiError(409, "the game is over")
        mine = sorted(active & seats)
        if wanted is not None:
            _check_wanted(wanted, seats)
            mine = [wanted] if wanted in active else []
        if not mine:
            waiting = " and ".join(room.seat(s).name for s in sorted(active))
            if any(room.match.has_pending(s) for s in seats):
                raise ApiError(409, "you have acted this round: waiting for {names}", names=waiting)
            raise ApiError(409, "it is not your turn: waiting for {names}", names=waiting)
        return mine[0]

    def pending_seat(self, room: Room, seats: frozenset[int], wanted: Any = None) -> int:
        """The seat among ``seats`` with a pending action to take back, or a 409."""
        if room.match.is_over():
            raise ApiError(409, "the game is over")
        if wanted is not None:
            _check_wanted(wanted, seats)
            seats = frozenset({wanted})
        pending = sorted(s for s in seats if room.match.has_pending(s))
        if not pending:
            raise ApiError(
                409, "you have nothing to take back: no action of yours is waiting this round"
            )
        return pending[0]

    # -- acting -----------------------------------------------------------------------

    async def act(
        self, game_id: str, seats: frozenset[int], action: Any, ply: Any, seat: Any = None
    ) -> Room:
        """Apply ``action`` for the acting seat among ``seats`` (``seat`` if given: a
        hot-seat client of a simultaneous game holds several), store it, tell everyone.

        The checks, the stored write and the change run in the game's turn (see
        ``_in_turn``), so of two submissions for the same move exactly one applies.
        """
        if not isinstance(action, str):
            raise ApiError(400, "'action' must be a string such as \"3@1,0\"")
        room = self.room(game_id)
        _require_player(seats)
        self.check_rate("action", (room.id, seats))

        async def change(room: Room) -> Room:
            if not room.simultaneous:
                self._check_ply(room, ply)
                await self._apply(room, self.acting_seat(room, seats, seat), action)
            elif action == TAKE_BACK:
                await self._take_back(room, seats, ply, seat)
            else:
                acting = self.acting_seat(room, seats, seat)
                self._check_fresh(room, acting, ply)
                await self._apply(room, acting, action)
            return room

        return await self._in_turn(room.id, change)

    async def _take_back(self, room: Room, seats: frozenset[int], ply: Any, wanted: Any) -> None:
        """Withdraw a pending action of a simultaneous round: stored as an action
        (``TAKE_BACK``), so a restart rebuilds the round without it."""
        if type(ply) is not int:
            raise ApiError(400, "'ply' (the number of moves made in the state you saw) is needed")
        seat = self.pending_seat(room, seats, wanted)
        self._check_fresh(room, seat, ply)
        await self._apply(room, seat, TAKE_BACK)

    async def _apply(self, room: Room, seat: int, action: str, by: str | None = None) -> None:
        """Apply to a copy, store, then make the copy the game (nothing half-done on
        failure). Only in the game's turn (``_in_turn``)."""
        match = room.match.clone()
        try:
            applied = match.apply(seat, action)
        except ActionRejected as err:
            raise ApiError.of(422, err) from None
        ply = room.ply
        over = match.is_over()
        rated = _rated_end(room, match) if over else None
        ranks = _ranks(match, len(room.seats)) if over else None
        at = await self._write(
            "append_action",
            *(room.id, ply, seat, action, applied.reveals, over, by, rated, ranks, room.seq),
        )
        room.seq += 1
        room.match = match
        room.log.append(_entry(applied.log, ply, at, by))
        room.reveals.append(applied.reveals)
        room.action_seats.append(seat)
        self.broadcast(room)
        self.schedule_bots(room)

    def _check_ply(self, room: Room, ply: Any) -> None:
        if type(ply) is not int:
            raise ApiError(400, "'ply' (the number of moves made in the state you saw) is needed")
        if ply != room.ply:
            raise ApiError(
                409,
                "the game has moved on (move {now}, not {seen}); look again",
                now=room.ply,
                seen=ply,
            )

    def _check_fresh(self, room: Room, seat: int, ply: Any) -> None:
        """409 unless the state seen (``ply``) is current for ``seat`` (``Room.since``)."""
        if type(ply) is not int:
            raise ApiError(400, "'ply' (the number of moves made in the state you saw) is needed")
        if not room.since(seat) <= ply <= room.ply:
            raise ApiError(
                409,
                "the game has moved on (move {now}, not {seen}); look again",
                now=room.ply,
                seen=ply,
            )

    def undo_blocker(self, room: Room, seat: int | None) -> str | None:
        """Why ``seat`` may not undo now, or ``None`` if it may."""
        if room.finished:
            return "the game is over"
        if room.simultaneous:
            if seat is None or not room.match.has_pending(seat):
                return N_("you have no action waiting this round to take back")
            return None
        if seat is None:
            return N_("only a player can undo")
        if room.humans != [seat]:
            return N_("undo is only for games without other human players")
        mine = [i for i, s in enumerate(room.action_seats) if s == seat]
        if not mine:
            return N_("you have not moved yet")
        if any(room.reveals[mine[-1] :]):
            return N_(
                "a refill has revealed new tiles since your last move, so it cannot be undone"
            )
        return None

    async def undo(self, game_id: str, seats: frozenset[int], ply: Any, wanted: Any = None) -> Room:
        """Take back the player's last move and every bot move after it; in a
        simultaneous game, the player's pending action of this round (``TAKE_BACK``)."""
        room = self.room(game_id)
        _require_player(seats)
        self.check_rate("action", (room.id, seats))

        async def change(room: Room) -> Room:
            if room.simultaneous:
                await self._take_back(room, seats, ply, wanted)
                return room
            self._check_ply(room, ply)
            seat = next(iter(seats)) if len(seats) == 1 else None
            blocker = self.undo_blocker(room, seat)
            if blocker:
                raise ApiError(409, blocker)
            last = max(i for i, s in enumerate(room.action_seats) if s == seat)
            await self._write("truncate", room.id, last, room.seq)
            self.rooms.pop(room.id, None)
            new_room = self.room(room.id)
            self._move_subscribers(room, new_room)
            self.broadcast(new_room)
            return new_room

        return await self._in_turn(room.id, change)

    def _move_subscribers(self, old: Room, new: Room) -> None:
        for task in [*old.bot_tasks.values(), old.clock_task]:
            if task is not None:
                task.cancel()
        new.subscribers |= old.subscribers
        old.subscribers.clear()

    async def hint(self, room: Room, seats: frozenset[int], ply: Any, wanted: Any = None) -> JSON:
        _require_player(seats)
        self.check_rate("hint", (room.id, seats))
        if not room.simultaneous:
            self._check_ply(room, ply)
        seat = self.acting_seat(room, seats, wanted)
        self._check_fresh(room, seat, ply)
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
        return {**result, "ply": ply}

    # -- bots and clocks -----------------------------------------------------------------

    def schedule_bots(self, room: Room) -> None:
        """Start a move for every active bot seat that has none under way for its
        current situation, and the game's clock."""
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
        self.schedule_clock(room)

    def _bot_current(self, room: Room, seat: int, since: int) -> bool:
        """Whether a move worked out for ``seat`` from ``since`` still applies."""
        return (
            self.rooms.get(room.id) is room
            and room.since(seat) == since
            and seat in room.match.active_seats()
        )

    async def _bot_move(self, room: Room, seat: int, since: int) -> None:
        await asyncio.sleep(self.bot_pause)
        # seq too: after an undo the same ply comes again, and is a new task
        task = f"bot {seat} {since} {room.seq}"
        still = partial(self._bot_current, room, seat, since)
        if await self._leased(room.id, task, still):
            async with self._holding(room.id, task):
                await self._bot_move_leased(room, seat, since)

    async def _bot_move_leased(self, room: Room, seat: int, since: int) -> None:
        bot = room.seat(seat).bot or "random"
        # sequential games keep their seeds: one per move; simultaneous ones one per seat too
        purpose = f"bot {seat}" if room.simultaneous else "bot"
        seed = derived_seed(room.row.seed, since, purpose)
        job = room.match.bot_job(seat, bot, seed, self.limits)  # from the seat's view only
        room.thinking.add(seat)
        self.broadcast(room)
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
                return  # an undo, a take-back or the clock came first
            try:
                await self._apply(room, seat, action)
            except ApiError as err:
                log.error("bot %s in game %s: %s", bot, room.id, err.message)

        if self.rooms.get(room.id) is room:
            await self._in_turn(room.id, change)

    def _bot_done(self, room: Room, seat: int) -> None:
        room.thinking.discard(seat)
        if room.bot_tasks.get(seat) is asyncio.current_task():
            del room.bot_tasks[seat]

    def schedule_clock(self, room: Room) -> None:
        """Set the game's clock (if it has one) for the current round or turn."""
        deadline = room.clock_deadline()
        start = room.round_start()
        if deadline is None or (room.clock_start == start and room.clock_task is not None):
            return
        if room.clock_task is not None:
            room.clock_task.cancel()
        room.clock_start = start
        loop = asyncio.get_running_loop()
        room.clock_task = loop.create_task(self._clock_runs_out(room, start, deadline))

    async def _clock_runs_out(self, room: Room, start: int, deadline: float) -> None:
        """At ``deadline``, play the game's default bot for every seat still active in
        the round (or turn) that began at ply ``start``; the log says so (``by``)."""
        await asyncio.sleep(max(0.0, deadline - time.time()))
        task = f"clock {start} {room.seq}"
        still = partial(self._clock_current, room, start)
        if await self._leased(room.id, task, still):
            async with self._holding(room.id, task):
                await self._clock_moves(room, start)

    def _clock_current(self, room: Room, start: int) -> bool:
        return self.rooms.get(room.id) is room and room.round_start() == start

    async def _clock_moves(self, room: Room, start: int) -> None:
        async def change(live: Room) -> None:
            if _on_timeout(room) == "abandon":
                if live is room and room.round_start() == start and not room.finished:
                    await self._abandon(room)
                return
            for seat in sorted(room.match.active_seats()):
                if live is not room or room.round_start() != start:
                    return  # moved on meanwhile
                if seat not in room.match.active_seats():
                    continue
                action = await self._default_move(room, seat, start)
                try:
                    await self._apply(room, seat, action, by="clock")
                except ApiError as err:
                    log.error("clock in game %s: %s", room.id, err.message)
                    return

        if self.rooms.get(room.id) is room:
            await self._in_turn(room.id, change)

    async def _abandon(self, room: Room) -> None:
        """End the game unfinished and unrated: its creator chose so for a move out of time."""
        await self._write("abandon", room.id, room.seq)
        room.seq += 1
        room.row = replace(room.row, over=True, abandoned=True)
        for task in room.bot_tasks.values():
            task.cancel()
        self.broadcast(room)

    async def _leased(self, game_id: str, task: str, wanted: Callable[[], bool]) -> bool:
        """Wait until this process holds the lease on ``task`` (True), or the task is
        no longer ``wanted()`` (False). Only a shared store has leases: one process
        works out each bot move and clock; the others wait in case it dies."""
        while wanted():
            if not self.store.shared:
                return True
            try:
                claimed = self.shared.claim(game_id, task, self.owner, LEASE_SECONDS)
            except StoreError as err:
                log.warning("lease on %s of game %s: %s", task, game_id, err)
                claimed = False
            if claimed:
                return True
            await asyncio.sleep(LEASE_SECONDS / 2)
        return False

    @contextlib.asynccontextmanager
    async def _holding(self, game_id: str, task: str) -> AsyncIterator[None]:
        """Renew the lease on ``task`` while the body runs; mark it done when the
        body ends, unless this process is stopping (then another one takes over)."""
        if not self.store.shared:
            yield
            return
        store = self.shared

        async def renew() -> None:
            while True:
                await asyncio.sleep(LEASE_SECONDS / 3)
                with contextlib.suppress(StoreError):
                    store.claim(game_id, task, self.owner, LEASE_SECONDS)

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

    async def _default_move(self, room: Room, seat: int, start: int) -> str:
        """The default bot's move for ``seat``; the first legal action if it fails."""
        bot = room.type.default_bot
        seed = derived_seed(room.row.seed, start, f"clock {seat}")
        try:
            return await self.pool.run(room.match.bot_job(seat, bot, seed, self.limits))
        except Exception:  # noqa: BLE001 - the clock must not stall the game
            log.exception("default bot failed in game %s", room.id)
            return room.match.choices(seat)[0]["action"]

    # -- what clients see -------------------------------------------------------------

    def state(self, room: Room, seats: frozenset[int]) -> JSON:
        """The message a client playing ``seats`` (none: a spectator) gets."""
        return json.loads(self.state_text(room, seats))

    def state_text(
        self, room: Room, seats: frozenset[int], log_start: int = 0, choices_kept: bool = False
    ) -> str:
        """``state`` as JSON text with the log entries from ``log_start`` on (the
        client has the others), and ``"choices": null`` if ``choices_kept`` (the
        client has them: see ``Subscriber``).

        The large parts are encoded once per move, not per client, and only their
        text is kept: kept as objects, thousands of lists and dicts per move piled
        up for the garbage collector, whose young-generation passes then took up
        to 100 ms under load.
        """
        head, viewer, acting = self._state_head(room, seats)
        view = room.cached(("view", viewer), lambda: _dumps(room.match.view(viewer)))
        choices = "[]" if acting is None else "null" if choices_kept else room.choices_text(acting)
        log = room.cached(("log", log_start), lambda: _dumps(room.log[log_start:]))
        return (
            f'{_dumps(head)[:-1]},"view":{view},"choices":{choices},'
            f'"log_start":{log_start},"log":{log}}}'
        )

    def _state_head(self, room: Room, seats: frozenset[int]) -> tuple[JSON, int | None, int | None]:
        """The small, per-client part of a state; and the seat viewing and the seat acting."""
        # an abandoned game has nobody to move, though its match never reached its end
        active = frozenset() if room.row.abandoned else room.match.active_seats()
        to_move = next(iter(active)) if len(active) == 1 else None
        mine = sorted(active & seats)
        acting = mine[0] if mine else None
        viewer = acting if acting is not None else (min(seats) if seats else None)
        if not room.type.view_depends_on_seat:
            viewer = None  # one view, built once per move, serves everyone
        online = set().union(*(s.seats for s in room.subscribers)) if room.subscribers else set()
        if room.simultaneous:
            undo_seat = next((s for s in sorted(seats) if room.match.has_pending(s)), None)
        else:
            undo_seat = next(iter(seats)) if len(seats) == 1 else None
        deadline = room.clock_deadline()
        head = {
            "type": "state",
            "game": {
                "id": room.id,
                "type": room.type.name,
                "title": room.type.title,
                "dynamics": room.type.dynamics,
                "created": room.row.created,
                # a seed the creator chose lets them know the pile: every seat must see it
                "fixed_seed": room.row.seed if room.row.seed_chosen else None,
                "seats": [{**_public_seat(s), "online": s.seat in online} for s in room.seats],
                "time_limit": room.clock or None,
                "on_timeout": _on_timeout(room),
                "waiting": room.waiting,
            },
            "ply": room.ply,
            "to_move": to_move,  # the one seat to act, if only one is
            "active": sorted(active),  # every seat that must act now
            "over": room.finished,
            "abandoned": room.row.abandoned,
            "you": sorted(seats),
            "acting": acting,  # the (first) seat of yours that must act now
            "thinking": min(room.thinking) if room.thinking else None,
            "thinking_seats": sorted(room.thinking),
            "clock": None
            if deadline is None
            else {
                "seconds": room.clock,
                "deadline": _iso(deadline),
                "left": round(max(0.0, deadline - time.time()), 1),  # for skewed client clocks
            },
            "result": room.match.result(),
            "undo": self.undo_blocker(room, undo_seat) is None,
            "record": f"/api/games/{room.id}/record" if room.match.is_over() else None,
            "ratings": self._rating_changes(room),
        }
        return head, viewer, acting

    def _rating_changes(self, room: Room) -> list[JSON | None] | None:
        """Per seat, ``{"before", "after"}`` (ordinals) once a rated game is over; read
        from the store once per room."""
        if not room.match.is_over():
            return None
        if room._ratings is None:
            changes = self.store.rating_changes(room.id)
            room._ratings = [
                None
                if (c := changes.get(_player_key(s))) is None
                else {"before": round(c[1], 2), "after": round(c[2], 2)}
                for s in room.seats
            ]
        return room._ratings if any(room._ratings) else None

    def broadcast(self, room: Room) -> None:
        active = room.match.active_seats() if room.simultaneous else frozenset()
        for sub in list(room.subscribers):
            acting = min(active & sub.seats, default=None)
            # what the choices depend on: the seat acting and what happened to it
            choices = None if acting is None else (acting, room.since(acting))
            sub.send_state(room.log, partial(self.state_text, room, sub.seats), choices)


def _dumps(value: Any) -> str:
    """Compact JSON text. orjson, not ``json``: encoding states and choices was a fifth
    of the server's time under load (an NMBR 9 seat's choices are hundreds of
    placements), and orjson encodes them about ten times faster."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an echoed client id beyond 64 bits or 254 levels deep
        return json.dumps(value, separators=(",", ":"))


def _iso(unix_time: float) -> str:
    return datetime.fromtimestamp(unix_time, UTC).isoformat(timespec="milliseconds")


def _entry(log: JSON, ply: int, at: str, by: str | None) -> JSON:
    """A log entry as clients get it: the game's, with its move number and time, and
    who acted when the seat did not (``"by": "clock"``)."""
    entry = {**log, "ply": ply, "at": at}
    if by == "clock":
        entry["by"] = by
        entry["text"] = f"ran out of time; the default bot played for them: {log.get('text', '')}"
    return entry


def _check_wanted(wanted: Any, seats: frozenset[int]) -> None:
    """400 unless ``wanted`` (a ``seat`` field) names one of ``seats``."""
    if type(wanted) is not int or wanted not in seats:
        yours = ", ".join(map(str, sorted(seats)))
        raise ApiError(400, "'seat' must be one of your seats ({seats})", seats=yours)


def _created(game_id: str, seat: Seat) -> JSON:
    """A seat as the game's creator learns it: human seats with their secret link."""
    out: JSON = {"seat": seat.seat, "name": seat.name, "kind": seat.kind, "bot": seat.bot}
    if seat.token:
        out.update(token=seat.token, link=f"/g/{game_id}#seat={seat.token}")
    return out


def _require_player(seats: frozenset[int]) -> None:
    """401 for a spectator (no seat token): checked before anything about the game."""
    if not seats:
        raise ApiError(401, "to play, open your seat link (spectators cannot act)")


def _reading(read: Callable[..., T], *args: Any) -> T:
    """A store read; 503 if the database is unavailable."""
    try:
        return read(*args)
    except StoreError as err:
        raise ApiError.plain(503, f"{err}; try again shortly") from None


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 40 and all(c.isalnum() or c in "-_" for c in game_id)


def _bot_labels(game_type: WebGame) -> dict[str, str]:
    """``{"mcts:easy": "MCTS easy", ...}``: names for bot seats nobody named (where
    modes label a bot differently, the shorter label wins)."""
    bots = game_type.describe().get("bots", {})
    labels: dict[str, str] = {}
    for bot in (b for mode in bots.values() for b in mode):
        labels[bot["spec"]] = min(labels.get(bot["spec"], bot["label"]), bot["label"], key=len)
    return labels


def _without_note(label: str) -> str:
    """A bot's label without the note in brackets at its end, as the page names a bot
    seat: "MCTS hard (3 s a move)" -> "MCTS hard" (a msgid of the game's ``BOT_NAMES``)."""
    return re.sub(r"\s*\(.*\)$", "", label) or label


def _seat(number: int, raw: JSON, labels: dict[str, str], account: Account | None) -> Seat:
    kind = raw.get("kind")
    if kind not in ("human", "bot"):
        raise ApiError(400, 'seat {seat}: \'kind\' must be "human" or "bot"', seat=number + 1)
    is_open, me = raw.get("open", False), raw.get("me", False)
    if type(is_open) is not bool or type(me) is not bool:
        raise ApiError(400, "'open' and 'me' of a seat are true or false")
    if (is_open or me) and kind != "human":
        raise ApiError(400, "only a human seat can be open or yours")
    if (is_open or me) and account is None:
        raise ApiError(401, "sign in to open seats to the lobby or to take a seat as yourself")
    if is_open and me:
        raise ApiError(400, "a seat is either open or yours, not both")
    if is_open:
        return Seat(number, OPEN_NAME, "human", None, None, None, True)
    if me:
        assert account is not None
        return Seat(number, account.name, "human", None, secrets.token_urlsafe(24), account.id)
    name = raw.get("name")
    if name is None or (isinstance(name, str) and not name.strip()):
        bot = str(raw.get("bot", "bot"))
        name = f"Player {number + 1}" if kind == "human" else labels.get(bot, bot)
    if not isinstance(name, str):
        raise ApiError(400, "seat {seat}: 'name' must be text", seat=number + 1)
    try:
        name = clean_name(name)
    except BadName as err:
        raise ApiError.plain(400, f"seat {number + 1}: the name {err}") from None
    if kind == "bot":
        return Seat(number, name, "bot", str(raw.get("bot")))
    return Seat(number, name, "human", None, secrets.token_urlsafe(24))


def _public_seat(seat: Seat) -> JSON:
    """A seat as everyone sees it; ``account``: the seat is claimed by an account."""
    return {
        "seat": seat.seat,
        "name": seat.name,
        "kind": seat.kind,
        "bot": seat.bot,
        "open": seat.open,
        "account": seat.account_id is not None,
    }


def _plain_seats(raw_seats: list[JSON]) -> list[JSON]:
    """Seats as the game checks them: without the server's own fields."""
    return [{k: v for k, v in raw.items() if k not in ("open", "me")} for raw in raw_seats]


def _time_limit(body: JSON) -> JSON:
    """The options of a turn-based game: ``time_limit`` (seconds per move, kept as the
    game's ``clock``) and ``on_timeout``; none if no limit is asked for."""
    limit = body.get("time_limit")
    on_timeout = body.get("on_timeout", "bot")
    if limit is None or limit == 0:
        if "on_timeout" in body:
            raise ApiError(400, "'on_timeout' needs a 'time_limit'")
        return {}
    if type(limit) is not int or not 1 <= limit <= MAX_TIME_LIMIT:
        raise ApiError(400, "'time_limit' is a number of seconds, at most 14 days")
    if on_timeout not in ON_TIMEOUT:
        raise ApiError(400, '\'on_timeout\' is "bot" or "abandon"')
    return {"clock": limit, "on_timeout": on_timeout}


def _on_timeout(room: Room) -> str | None:
    if not room.clock:
        return None
    return "abandon" if room.row.options.get("on_timeout") == "abandon" else "bot"


def _player_key(seat: Seat) -> str:
    """A seat's player in the ratings: its account or its bot."""
    return f"a:{seat.account_id}" if seat.kind == "human" else f"b:{seat.bot}"


def _ranks(match: Match, seats: int) -> tuple[int, ...] | None:
    """Each seat's rank (1 best, ties shared) in a finished game: the game's ``Outcome``,
    whatever its result looks like; a solo game's as its result says (``None`` if it
    ranks nobody)."""
    if seats == 1:
        return ranks_of(match.result(), seats)
    outcome = match.outcome()
    return None if outcome is None else outcome.ranks


def _rated_end(room: Room, match: Match) -> RatedEnd | None:
    """The rating update for a game ending now, or ``None`` if it is unrated: with a
    fixed seed, undo used, fewer than two seats or a seat without an account."""
    if room.row.seed_chosen or room.row.undone or len(room.seats) < 2:
        return None
    accounts = [s.account_id for s in room.seats if s.kind == "human"]
    if None in accounts or len(set(accounts)) != len(accounts):
        return None
    ranks = _ranks(match, len(room.seats))
    if ranks is None:
        return None
    return RatedEnd(room.type.name, tuple(_player_key(s) for s in room.seats), ranks)
