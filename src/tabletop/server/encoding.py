"""What each client receives: its state (secrets stripped: the view of its own
seat), as JSON text encoded once per move and shared by clients, and pushed to
every WebSocket (``Subscriber``) with only the log entries and choices it lacks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial

from ..core.web import JSON
from .acting import takes_back, undo_blocker, undoing_seat
from .clock import CLOCK
from .daily_state import daily_of
from .errors import ApiError
from .jsontext import dumps
from .rated import unrated_reason
from .ratings import player_key
from .room import Room
from .rows import Seat
from .storage import GameStore

#: Seconds the spectators' states wait after the players' (``Encoder.broadcast``).
SPECTATOR_DELAY = 0.05

#: What a seat's choices depend on: the seat acting and what happened to it (``since``).
ChoicesKey = tuple[int, int]


def iso(unix_time: float) -> str:
    return datetime.fromtimestamp(unix_time, UTC).isoformat(timespec="milliseconds")


def public_seat(seat: Seat, bots: frozenset[int] = frozenset()) -> JSON:
    """A seat as everyone sees it; ``account``: the seat is claimed by an account;
    ``bot_account``: that account (or the one invited) is a bot account, one of
    ``bots`` (``bot`` is taken: it names a seat's own bot)."""
    return {
        "seat": seat.seat,
        "name": seat.name,
        "kind": seat.kind,
        "bot": seat.bot,
        "open": seat.open,
        "account": seat.account_id is not None,
        "invited": seat.invited is not None,  # an open seat kept for the account named
        "bot_account": seat_account(seat) in bots,
    }


def seat_account(seat: Seat) -> int | None:
    """The account of a seat: the one that holds it, else the one invited to it."""
    return seat.account_id if seat.account_id is not None else seat.invited


def seat_bots(store: GameStore, room: Room) -> frozenset[int]:
    """Which of the room's seat accounts are bot accounts: read when they change, not
    per state (an account that ever held a seat cannot become a bot account, so the
    answer for an account stays true while it sits here)."""
    key = tuple(seat_account(s) for s in room.seats)
    cached = room.bot_accounts_cache
    if cached is None or cached[0] != key:
        ids = sorted({a for a in key if a is not None})
        cached = room.bot_accounts_cache = (key, frozenset(store.bot_accounts(ids)))
    return cached[1]


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
    outbox: asyncio.Queue[tuple[int | None, str, ChoicesKey | None]] = field(
        default_factory=asyncio.Queue
    )
    log_of: list[JSON] | None = None
    log_known: int = 0
    choices_known: ChoicesKey | None = None
    read_only: bool = False  # opened with an API token that may only read
    ending: ApiError | None = None  # why it closes: its session or token ended (``end``)
    account_id: int | None = None  # the signed-in reader: whose chat it hides (chat.py)

    def send(self, message: JSON) -> None:
        """Queue an answer (ack, error, hint) for this client."""
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Queue a message other than a state, already encoded (one text for many)."""
        self.outbox.put_nowait((None, text, None))

    def end(self, reason: ApiError) -> None:
        """The session or API token it was opened with has ended: close it (4401),
        saying ``reason``; nothing queued after this is sent."""
        from .sessions import SESSION_ENDED

        self.ending = reason
        self.outbox.put_nowait((None, SESSION_ENDED, None))

    def send_state(
        self, log: list[JSON], build: Callable[[int, bool], str], choices: ChoicesKey | None = None
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


def choices_text(room: Room, seat: int) -> str:
    """``match.choices(seat)`` as JSON text, kept while nothing changes for the seat
    (``since``): in a simultaneous round, the others' placements leave it as it is."""
    since = room.since(seat)
    kept = room.choices_cache.get(seat)
    if kept is None or kept[0] != since:
        kept = (since, dumps(room.match.choices(seat)))
        room.choices_cache[seat] = kept
    return kept[1]


class Encoder:
    """The states clients get; the store gives a finished game's rating changes."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        # per room, not per game: an undo rebuilds the room, and the new one's spectators
        # must not wait on a send still due for the old one (whose clients it handed on)
        self._spectators_due: dict[Room, asyncio.TimerHandle] = {}
        # a coached game's notes for these seats (``coaching.Coach.state_part``)
        self.coach: Callable[[Room, frozenset[int]], JSON | None] = lambda room, seats: None

    def state(self, room: Room, seats: frozenset[int]) -> JSON:
        """The message a client playing ``seats`` (none: a spectator) gets."""
        message: JSON = json.loads(self.state_text(room, seats))
        return message

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
        view = room.cached(("view", viewer), lambda: dumps(room.match.view(viewer)))
        choices = "[]" if acting is None else "null" if choices_kept else choices_text(room, acting)
        log = room.cached(("log", log_start), lambda: dumps(room.log[log_start:]))
        return (
            f'{dumps(head)[:-1]},"view":{view},"choices":{choices},'
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
        online, spectators = room.presence()
        bots = seat_bots(self.store, room)
        undo_seat = undoing_seat(room, seats)
        # a clock's deadline (its first to run out) is in ``clocks``, per seat
        deadline = room.time_limit_deadline() if room.clock is None else None
        move_time = (
            None
            if deadline is None
            else {
                "seconds": room.time_limit,
                "deadline": iso(deadline),
                "left": round(max(0.0, deadline - CLOCK.time()), 1),  # for skewed client clocks
            }
        )
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
                # a daily challenge's game: its day, and whether it counts on the board
                "daily": daily_of(room, self.store),
                "seats": [{**public_seat(s, bots), "online": s.seat in online} for s in room.seats],
                "time_limit": room.time_limit or None,
                "on_timeout": room.on_timeout,
                "waiting": room.waiting,
                "spectators": spectators,
            },
            "ply": room.ply,
            "to_move": to_move,  # the one seat to act, if only one is
            "active": sorted(active),  # every seat that must act now
            "over": room.finished,
            "abandoned": room.row.abandoned,
            "timed_out": list(room.row.timed_out),  # the seats whose time ran out
            "resigned": room.row.resigned,  # ended by a resignation: timed_out resigned
            # why it does not count for the ratings ("hint", "undo", "seed", "players")
            "unrated": unrated_reason(room),
            "you": sorted(seats),
            "acting": acting,  # the (first) seat of yours that must act now
            "thinking": min(room.thinking) if room.thinking else None,
            "thinking_seats": sorted(room.thinking),
            "time_left": move_time,  # the time limit of the current move and what is left
            "clock": move_time,  # its name before: kept for the API's older clients
            # a real-time game's clocks: ms left per seat as of the server's now_ms
            "clocks": room.clock_frame(),
            "result": room.match.result(),
            "undo": undo_blocker(room, undo_seat) is None,
            # whether that undo makes the game unrated (a pending action's take-back does not)
            "undo_unrates": not takes_back(room, undo_seat),
            "record": f"/api/games/{room.id}/record" if room.match.is_over() else None,
            "ratings": self._rating_changes(room),
            "coach": self.coach(room, seats),  # a casual game's coach: its notes
        }
        return head, viewer, acting

    def _rating_changes(self, room: Room) -> list[JSON | None] | None:
        """Per seat, ``{"before", "after"}`` (ordinals) once a rated game is over; read
        from the store once per room."""
        if not room.finished:
            return None
        if room.ratings_cache is None:
            changes = self.store.rating_changes(room.id)
            room.ratings_cache = [
                None
                if (c := changes.get(player_key(s))) is None
                else {"before": round(c[1], 2), "after": round(c[2], 2), "weight": c[3]}
                for s in room.seats
            ]
        return room.ratings_cache if any(room.ratings_cache) else None

    def broadcast(self, room: Room) -> None:
        """Push the room's state to each of its clients: the players' at once, the
        spectators' a moment later (``SPECTATOR_DELAY``), so that a crowd's hundreds of
        sends come after the players' states and the mover's ack, and moves made
        within that moment reach the crowd as one state."""
        players = [sub for sub in room.subscribers if sub.seats]
        self.send_states(room, players)
        if len(players) < len(room.subscribers) and room not in self._spectators_due:
            loop = asyncio.get_running_loop()
            self._spectators_due[room] = loop.call_later(
                SPECTATOR_DELAY, self._tell_spectators, room
            )

    def _tell_spectators(self, room: Room) -> None:
        self._spectators_due.pop(room, None)
        self.send_states(room, [sub for sub in room.subscribers if not sub.seats])

    def send_states(self, room: Room, subscribers: list[Subscriber]) -> None:
        """Push the room's state to each of ``subscribers``."""
        active = room.match.active_seats() if room.simultaneous else frozenset()
        # clients alike (every spectator, mostly) share one text: a crowd costs one encoding
        texts: dict[tuple[frozenset[int], int, bool], str] = {}

        def build(seats: frozenset[int], start: int, kept: bool) -> str:
            key = (seats, start, kept)
            if key not in texts:
                texts[key] = self.state_text(room, seats, start, kept)
            return texts[key]

        for sub in subscribers:
            acting = min(active & sub.seats, default=None)
            # what the choices depend on: the seat acting and what happened to it
            choices = None if acting is None else (acting, room.since(acting))
            sub.send_state(room.log, partial(build, sub.seats), choices)
