"""The coach of a casual game: after each move of the coached seat, the move judged
in the background and, where it cost more than the analysis's inaccuracy threshold,
a note the page shows beside the game (what it cost, and the better move on request).

* **Only where it cannot help anyone against someone**: a game created unrated, with
  one person, every other seat a bot (or alone). ``check_coach`` refuses the rest.
* **From what the player knew**: the job gets the seat's ``View`` just before the move
  (``analysis.coach``), and its search seed is worked out from what is visible (the
  move's number and notation), never from the game's seed: two deals that look alike
  to the player so far get the same note, however their hidden futures differ.
* **Never in the way**: the move is applied and everyone told before the coach
  starts; the note comes later over the same live channel (the next state carries
  it) and is stored with the game, attached to its move.
* **Bounded**: coach jobs run in the bot pool's background lane (``botpool``: its own
  ``CoachLimits.running`` workers, at a lower priority, so live bots, hints and
  analyses never wait for a coach, and on a busy machine get the CPU first); each game
  has one move being judged at a time (the games take turns at the lane, first come,
  first served), and at most ``CoachLimits.waiting`` moves wait on the whole server: a
  move beyond that is not judged (the page says the server was busy).

A restart forgets the moves still waiting (their notes never come); undone moves'
notes stop being shown, and a move played again in their place is judged afresh.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..analysis.coach import coach_budget, coach_move
from ..analysis.run import check_available
from ..core.analysis import Analyser
from ..core.errors import RecordError, Unavailable
from ..core.limits import CoachLimits
from ..core.match import Job, Match
from ..core.page import page_view
from ..core.web import JSON, TAKE_BACK, ActionRejected, WebGame
from .botpool import BotPool
from .errors import ApiError, reading
from .room import Room, Rooms, build_room
from .rows import Seat, now
from .sql import Sql
from .storage import GameStore
from .writebase import Write

log = logging.getLogger("tabletop.server")


def check_coach(body: Any, game: WebGame, seats: list[Seat], rated: bool) -> bool:
    """Whether a create request's ``body`` asks for the coach (``"coach": true``); a
    400 where the game may not have one: rated, or with people other than its creator
    (a coach would help one player against another); 422 for a game without analysis."""
    coach = body.get("coach", False) if isinstance(body, dict) else False
    if type(coach) is not bool:
        raise ApiError(400, "'coach' is true (a coach notes your costly moves) or false")
    if not coach:
        return False
    if rated:
        raise ApiError(
            400, 'the coach is for unrated games: add "rated": false (or play without the coach)'
        )
    people = [s for s in seats if s.kind == "human"]
    if len(people) != 1 or people[0].open or people[0].invited is not None:
        raise ApiError(
            400, "the coach is for a game against bots or alone: one person, every other seat a bot"
        )
    analyser = game.analyser()
    if analyser is None:
        raise ApiError(422, "{title} games have no coach", title=game.title)
    try:
        check_available(analyser, None)
    except Unavailable as err:
        refusal = ApiError.of(503, err)
        refusal.retry_after = None
        raise refusal from None
    return True


def coached_seat(room: Room) -> int | None:
    """The seat a game's coach watches (its one person), or None: no coach."""
    if room.row.options.get("coach") is not True or len(room.humans) != 1:
        return None
    return room.humans[0]


def coach_seed(ply: int, action: str) -> int:
    """The search's seed for a coached move: from what the player sees (the move's
    number and notation), never from the deal's seed (see the module)."""
    digest = hashlib.sha256(f"coach {ply} {action}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


@dataclass(frozen=True)
class StoreCoachNote(Write[None]):
    """A coached move's judgement (``note``: the judged move as JSON), by its ply; one
    stored before for that ply (a move an undo replaced) is replaced."""

    game_id: str
    ply: int
    seat: int
    played: str
    note: JSON

    def run(self, sql: Sql) -> None:
        sql.run(
            "INSERT INTO coach_notes (game_id, ply, seat, played, note, created) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, ply) DO UPDATE SET "
            "seat = excluded.seat, played = excluded.played, note = excluded.note, "
            "created = excluded.created",
            (
                self.game_id,
                self.ply,
                self.seat,
                self.played,
                json.dumps(self.note, separators=(",", ":")),
                now(),
            ),
        )


@dataclass(eq=False)
class _Notes:
    """What the coach holds of one game: read for ``room`` (an undo or a reload makes
    a new room: then they are read again), the coached seat's moves by ply, and the
    judgements of those that are still the game's."""

    room: Room
    scale: JSON  # the analysis's scale for this game (solo or not)
    played: dict[int, str]
    judged: dict[int, JSON]
    waiting: set[int] = field(default_factory=set)  # plies queued or being judged
    busy: set[int] = field(default_factory=set)  # plies not judged: the server was busy
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)  # one move judged at a time


class Coach:
    """Judges coached games' moves in the bot pool and keeps their notes."""

    def __init__(
        self,
        store: GameStore,
        rooms: Rooms,
        pool: BotPool,
        write: Callable[[Write[Any]], Awaitable[Any]],
        shown: Callable[[Room], None],
        limits: CoachLimits = CoachLimits(),  # noqa: B008 - frozen settings
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.pool = pool
        self._write = write
        self.shown = shown
        self.limits = limits
        # as many at once as the pool's background lane has workers: FIFO, games take turns
        self._running = asyncio.Semaphore(pool.background_workers)
        self._waiting = 0  # moves queued or being judged on this server
        self._games: dict[str, _Notes] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # -- what clients see ------------------------------------------------------------

    def state_part(self, room: Room, seats: frozenset[int]) -> JSON | None:
        """The ``coach`` of a state: None where the game has none; else its seat and,
        for that seat's clients (anyone's once the game is over), ``notes`` (the judged
        moves that cost more than the inaccuracy threshold, by ply), how many moves
        were ``judged``, the plies still ``waiting`` and those not judged (``busy``)."""
        seat = coached_seat(room)
        if seat is None:
            return None
        shown: JSON = {"seat": seat}
        if seat not in seats and not room.finished:
            return shown
        notes = self._notes(room, seat)
        marked = [n for _, n in sorted(notes.judged.items()) if n.get("mark")]
        return {
            **shown,
            "scale": notes.scale,
            "notes": marked,
            "judged": len(notes.judged),
            "waiting": sorted(notes.waiting),
            "busy": sorted(notes.busy),
        }

    async def boards(self, room: Room, seats: frozenset[int], ply: Any) -> JSON:
        """The board after a noted move as played and with the better move instead, as
        the coached seat saw it (``{"seat", "index", "played", "best"}``, each ``{"action",
        "view"}``, like the analysis's boards): for that seat's clients, or anyone's
        once the game is over."""
        if type(ply) is not int or ply < 0:
            raise ApiError(400, "the move is a ply: 0, 1, 2, ...")
        seat = coached_seat(room)
        if seat is None:
            raise ApiError(404, "this game has no coach")
        if seat not in seats and not room.finished:
            raise ApiError(403, "the coach's notes are for the coached player until the game ends")
        note = self._notes(room, seat).judged.get(ply)
        if note is None or not note.get("mark"):
            raise ApiError(404, "the coach has no note on move {ply}", ply=ply)
        actions = reading(self.store.actions, room.id)
        return await asyncio.to_thread(_boards, room, actions[:ply], seat, note)

    # -- judging ----------------------------------------------------------------------

    def after_move(self, room: Room, seat: int, ply: int, before: Match, action: str) -> None:
        """A move was applied (``before``: the game just before it): judge it in the
        background if it is the coached seat's own."""
        if coached_seat(room) != seat or action == TAKE_BACK:
            return
        notes = self._notes(room, seat)
        notes.played[ply] = action
        if self._waiting >= self.limits.waiting:
            notes.busy.add(ply)
            return
        view = before.state.view(seat)  # what the seat knew: never the state itself
        self._waiting += 1
        notes.waiting.add(ply)
        task = asyncio.get_running_loop().create_task(self._judge(room, seat, ply, view, action))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _judge(self, room: Room, seat: int, ply: int, view: Any, action: str) -> None:
        notes = self._notes(room, seat)
        try:
            async with notes.turn, self._running:
                budget = self.limits.budget or coach_budget(_analyser(room.type))
                args = (room.type.name, notes.scale, view, seat, action, ply, budget)
                job = Job(coach_move, (*args, coach_seed(ply, action)))
                note = await self.pool.run_background(job)
            await self._keep(room.id, seat, ply, action, note)
        except asyncio.CancelledError:
            raise
        except Exception:  # the game goes on without this note
            log.exception("coach of game %s, move %s", room.id, ply)
            notes.busy.add(ply)
        finally:
            self._waiting -= 1
            notes.waiting.discard(ply)
            live = self.rooms.live.get(room.id)
            if live is not None:
                self.shown(live)

    async def _keep(self, game_id: str, seat: int, ply: int, action: str, note: JSON) -> None:
        """Store a judgement unless an undo took its move back meanwhile."""
        live = self.rooms.live.get(game_id)
        if live is not None and self._notes(live, seat).played.get(ply) != action:
            return
        await self._write(StoreCoachNote(game_id, ply, seat, action, note))
        if live is not None:
            self._notes(live, seat).judged[ply] = note

    # -- holding -------------------------------------------------------------------------

    def _notes(self, room: Room, seat: int) -> _Notes:
        """The game's notes, read again when its room was rebuilt (an undo, a reload)."""
        held = self._games.get(room.id)
        if held is None or held.room is not room:
            actions = reading(self.store.actions, room.id)
            played = {a.ply: a.action for a in actions if a.seat == seat}
            stored = reading(self.store.coach_notes, room.id)
            judged = {ply: note for ply, text, note in stored if played.get(ply) == text}
            fresh = _Notes(room, _scale(room), played, judged)
            if held is not None:  # moves still being judged stay waiting
                fresh.waiting, fresh.turn = held.waiting, held.turn
            self._games[room.id] = held = fresh
        return held

    def forget(self, game_ids: set[str]) -> None:
        """Drop what is held of games no longer in memory (read again if they come back)."""
        for game_id in [g for g in self._games if g not in game_ids]:
            if not self._games[game_id].waiting:
                del self._games[game_id]

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()


def _scale(room: Room) -> JSON:
    """The game's scale (solo or not), as the analysis of this game would use."""
    record = room.match.record([s.name for s in room.seats])
    return _analyser(room.type).scale(record).to_json()


def _analyser(game: WebGame) -> Analyser:
    found = game.analyser()
    if found is None:  # check_coach refused such a game
        raise RecordError(f"{game.title} games have no coach")
    return found


def _boards(room: Room, before: list[Any], seat: int, note: JSON) -> JSON:
    """The boards after the move played and after the better one, each drawn as
    ``seat`` sees it. The better move's board is drawn only where playing it shows no
    more of the hidden game than the move played did (a Nova Luna refill instead of a
    placement would show the pile's next tiles): otherwise ``best`` has no ``view``."""
    page = room.type.page
    assert page is not None  # a live game has a page
    shown: JSON = {"index": note["ply"], "seat": seat}
    reveals: dict[str, bool] = {}
    for key in ("played", "best"):
        match = build_room(room.row, room.seats, before).match
        try:
            reveals[key] = match.apply(seat, note[key]).reveals
        except ActionRejected as err:
            raise ApiError(
                404,
                "the board of move {ply} cannot be drawn: {reason}",
                ply=note["ply"],
                reason=err,
            ) from None
        shown[key] = {"action": note[key], "view": page_view(page, match.state, seat)}
    if reveals["best"] and not reveals["played"] and not room.finished:
        shown["best"] = {"action": note["best"], "view": None}
    return shown
