"""The single authority over each game: who may act, and every change (moves,
take-backs, undos, seats taken, abandoning) applied one at a time.

The changes to one game run one at a time (``Authority.in_turn``), from the
checks to the durable write and the change in memory, so two submissions for the
same turn can never both be applied: the second one sees a different ``ply`` and
is refused. Meanwhile other games go on: writes are committed off the event loop.

In a simultaneous game (NMBR 9) several seats act at once, so a submission is
stale only if something changed *for its seat* since the state it saw: its own
earlier action or take-back, or a resolved round (``Room.since``). Each action is
stored, one at a time and with its seat, before anyone hears of it, and the
round resolves when the last one is applied, so replaying the stored actions
rebuilds the same hidden pending actions after a crash.

Which seat may act and the checks of a submission are ``acting``'s, what a game's end
means for the ratings ``rated``'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from ..core.web import JSON, TAKE_BACK, ActionRejected, Match, Undo
from .acting import (
    _check_wanted,
    acting_seat,
    check_fresh,
    check_ply,
    check_seen,
    late_seats,
    notation,
    pending_seat,
    require_player,
    rewind,
    takes_back,
    undoing_seat,
)
from .apart import SEAT_GONE, accounts_in, kept_apart
from .errors import ApiError, Stale, reading
from .friends import NO_SEAT, welcome
from .rated import (
    rated_end,
    rated_timeout,
    seat_ranks,
    timeout_ranks,
)
from .ratelimit import RateLimit, check_rate
from .room import GONE, Room, Rooms, build_room, entry, move_subscribers
from .rows import OPEN_NAME, Account, ActionRow
from .storage import GameStore
from .sync import Refresher
from .writes import (
    Abandon,
    AppendAction,
    ClaimSeat,
    DeclineInvitation,
    MarkHinted,
    Truncate,
    WithdrawGame,
    Write,
)

T = TypeVar("T")
#: told of each move a seat made itself once it is stored, just before everyone hears
#: of it: ``(room, seat, ply, the match just before it, the action)``; it must not wait
Acted = Callable[[Room, int, int, Match, str], None]
#: a durable write (``writing.Writer.write``): stores one typed write, returns its result
WriteFn = Callable[[Write[Any]], Awaitable[Any]]


class Authority:
    """Applies the changes to games. ``changed(room)`` tells a changed room's clients
    and starts its bots and time limit; ``shown(room)`` only tells its clients;
    ``gone(game_id, account_ids)`` tells accounts a game is no longer theirs."""

    def __init__(
        self,
        store: GameStore,
        rooms: Rooms,
        refresher: Refresher,
        write: WriteFn,
        rates: dict[str, RateLimit],
        changed: Callable[[Room], None],
        shown: Callable[[Room], None],
        gone: Callable[[str, list[int]], None] = lambda game_id, accounts: None,
        acted: Acted = lambda room, seat, ply, before, action: None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.refresher = refresher
        self._write = write
        self.rates = rates
        self.changed = changed
        self.shown = shown
        self.gone = gone  # a game left these accounts' lists: withdrawn, or declined
        self.acted = acted  # after a seat's own move is stored (the coach)

    async def in_turn(self, game_id: str, change: Callable[[Room], Awaitable[T]]) -> T:
        """``change(room)`` for the game's live room once the game's earlier changes
        are done; it runs to its end even if the caller goes away (a stored move must
        also reach memory)."""
        turn = self.rooms.turns.setdefault(game_id, asyncio.Lock())

        async def alone() -> T:
            async with turn:
                room = self.refresher.fresh_room(game_id)
                try:
                    return await change(room)
                except Stale:
                    self.refresher.reload(game_id)
                    raise

        return await asyncio.shield(asyncio.ensure_future(alone()))

    async def fresh(self, game_id: str) -> Room:
        """The room, up to date with changes other processes stored (their notices
        can be late or lost); with one process simply the room."""
        if not self.store.shared:
            return self.rooms.room(game_id)

        async def same(room: Room) -> Room:
            return room

        return await self.in_turn(game_id, same)

    # -- accounts' seats ------------------------------------------------------------

    async def join(self, game_id: str, account: Account | None, wanted: Any) -> JSON:
        """Give ``account`` an open seat of the game (``wanted``, or the first)."""
        if account is None:
            raise ApiError(401, "sign in to take a seat in an open game")
        if wanted is not None and type(wanted) is not int:
            raise ApiError(400, "'seat' must be the number of an open seat")
        room = self.rooms.room(game_id)

        async def change(room: Room) -> JSON:
            if room.seats_of(account):
                raise ApiError(409, "you already have a seat in this game")
            open_seats = [s.seat for s in room.seats if s.open and s.invited is None]
            if not open_seats or not welcome(self.store, room, account):
                raise ApiError(409, NO_SEAT)  # a friends-only game: as if full
            if wanted is not None and wanted not in open_seats:
                raise ApiError(409, "that seat is not open")
            if kept_apart(self.store, account.id, accounts_in(room)):
                raise ApiError(409, "this game has no open seat left")  # as if it were full
            seat = open_seats[0] if wanted is None else wanted
            await self._claim(room, seat, account)
            return {"id": room.id, "seat": seat, "url": f"/g/{room.id}"}

        return await self.in_turn(room.id, change)

    async def claim(self, game_id: str, account: Account | None, tokens: list[str]) -> JSON:
        """Tie the seat of a seat link to ``account`` (its name becomes the seat's)."""
        if account is None:
            raise ApiError(401, "sign in to claim a seat for your account")
        room = self.rooms.room(game_id)
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
                if kept_apart(self.store, account.id, accounts_in(room)):
                    raise ApiError(409, SEAT_GONE)
                await self._claim(room, seat, account)
            return {"id": room.id, "seat": seat, "url": f"/g/{room.id}"}

        return await self.in_turn(room.id, change)

    async def answer_invitation(self, game_id: str, account: Account | None, accept: Any) -> JSON:
        """The invited ``account`` takes the seat kept for it (``accept``), or leaves it
        open to the lobby."""
        if account is None:
            raise ApiError(401, "sign in to answer an invitation")
        if type(accept) is not bool:
            raise ApiError(400, "'accept' is true (take the seat) or false (decline)")
        room = self.rooms.room(game_id)

        async def change(room: Room) -> JSON:
            seat = next((s.seat for s in room.seats if s.open and s.invited == account.id), None)
            if seat is None or room.finished:
                raise ApiError(409, "you have no invitation to this game (any more)")
            if accept:
                if kept_apart(self.store, account.id, accounts_in(room, invited=False)):
                    raise ApiError(409, SEAT_GONE)
                await self._claim(room, seat, account)
                return {"id": room.id, "seat": seat, "url": f"/g/{room.id}"}
            write = DeclineInvitation(room.id, seat, account.id, OPEN_NAME, room.seq)
            declined = await self._write(write)
            room.seq += 1
            room.seats = reading(self.store.seats, room.id)
            if not declined:
                raise ApiError(409, "you have no invitation to this game (any more)")
            self.changed(room)
            self.gone(room.id, [account.id])
            return {"id": room.id, "declined": True}

        return await self.in_turn(room.id, change)

    async def decline_all(self, account: Account, creator: int | None = None) -> list[str]:
        """Decline every invitation ``account`` has waiting (only ``creator``'s, if
        given); the games declined. One that was withdrawn meanwhile is skipped."""
        declined = []
        for row in reading(self.store.invitations_of, account.id):
            try:
                if creator is not None and self.rooms.room(row.id).row.creator != creator:
                    continue
                await self.answer_invitation(row.id, account, False)
            except ApiError:  # withdrawn or answered meanwhile
                continue
            declined.append(row.id)
        return declined

    async def withdraw(self, game_id: str, account: Account | None) -> None:
        """Withdraw an open game that has not started: by its creator (``account``),
        or by the server when its open seats expire (``None``). The game is deleted
        (nothing was played in it); its watchers are told and disconnected."""
        room = self.rooms.room(game_id)
        if account is not None and room.row.creator != account.id:
            raise ApiError(403, "only the creator of a game can withdraw it")

        async def change(room: Room) -> None:
            if not room.waiting or room.finished or not await self._write(WithdrawGame(room.id)):
                raise ApiError(409, "the game has started; it can no longer be withdrawn")
            self.rooms.live.pop(room.id, None)
            self.gone(room.id, [a for s in room.seats for a in (s.account_id, s.invited) if a])
            gone = ApiError(410, "the game was withdrawn (cancelled, or its open seats expired)")
            for sub in list(room.subscribers):
                sub.send({"type": "error", "status": 410, "message": gone.message, "key": gone.key})
                sub.send_text(GONE)  # then the socket closes with 4410
                room.unwatch(sub)

        await self.in_turn(room.id, change)

    async def _claim(self, room: Room, seat: int, account: Account) -> None:
        if room.finished:
            raise ApiError(409, "the game is over")
        claimed = await self._write(ClaimSeat(room.id, seat, account.id, account.name, room.seq))
        room.seq += 1  # a shared store counts the claim as a change of the game
        if not claimed:
            raise ApiError(409, "someone else took that seat first")
        try:
            room.seats = reading(self.store.seats, room.id)
            room.row = reading(self.store.game, room.id) or room.row  # its start, once seated
        except ApiError:  # stored but not read back: rebuild the room
            room.seq = -1  # a shared store's next check reloads it (its clients move along)
            if not self.store.shared:
                self.rooms.live.pop(room.id, None)
            raise
        self.changed(room)

    def seats_for(
        self, room: Room, tokens: list[str], account: Account | None = None
    ) -> frozenset[int]:
        """The seats these tokens (and the signed-in ``account``) play; 403 if any token
        is not one of this game's, or is the link of a bot account's seat: a bot
        account plays only through its API tokens (revoking them stops it for good)."""
        mine = room.seats_of(account)
        seats = set(mine)
        for token in tokens:
            valid = isinstance(token, str)
            seat = reading(self.store.seat_for_token, room.id, token) if valid else None
            if seat is None:
                raise ApiError(403, "that seat link is not valid for this game")
            if seat not in mine and self._bot_account_seat(room, seat):
                raise ApiError(
                    403,
                    "this seat belongs to a bot account, which plays only with its API "
                    "token (docs/bot-api.md)",
                )
            seats.add(seat)
        return frozenset(seats)

    def _bot_account_seat(self, room: Room, seat: int) -> bool:
        """Whether a bot account holds ``seat``."""
        from .encoding import seat_bots  # encoding builds on this module

        owner = next((s.account_id for s in room.seats if s.seat == seat), None)
        return owner is not None and owner in reading(seat_bots, self.store, room)

    # -- acting -----------------------------------------------------------------------

    async def act(
        self, game_id: str, seats: frozenset[int], action: Any, ply: Any, seat: Any = None
    ) -> Room:
        """Apply ``action`` for the acting seat among ``seats`` (``seat`` if given: a
        hot-seat client of a simultaneous game holds several), store it, tell everyone.

        The checks, the stored write and the change run in the game's turn (see
        ``in_turn``), so of two submissions for the same move exactly one applies.
        """
        if not isinstance(action, str) and type(action) is not int:
            raise ApiError(400, "'action' must be a string such as \"3@1,0\"")
        room = self.rooms.room(game_id)
        require_player(seats)
        check_rate(self.rates, "action", (room.id, seats))

        async def change(room: Room) -> Room:
            if not room.simultaneous:
                check_ply(room, ply)
                acting = acting_seat(room, seats, seat)
                await self.apply(room, acting, notation(room, acting, action))
            elif action == TAKE_BACK:
                await self._take_back(room, seats, ply, seat)
            else:
                acting = acting_seat(room, seats, seat)
                check_fresh(room, acting, ply)
                await self.apply(room, acting, notation(room, acting, action))
            return room

        return await self.in_turn(room.id, change)

    async def _take_back(self, room: Room, seats: frozenset[int], ply: Any, wanted: Any) -> None:
        """Withdraw a pending action of a simultaneous round: stored as an action
        (``TAKE_BACK``), so a restart rebuilds the round without it."""
        if type(ply) is not int:
            raise ApiError(400, "'ply' (the number of moves made in the state you saw) is needed")
        seat = pending_seat(room, seats, wanted)
        check_fresh(room, seat, ply)
        await self.apply(room, seat, TAKE_BACK)

    async def apply(self, room: Room, seat: int, action: str, by: str | None = None) -> None:
        """Apply to a copy, store, then make the copy the game (nothing half-done on
        failure). Only in the game's turn (``in_turn``)."""
        if room.finished:  # an abandoned game's match is not over: no move may follow it
            raise ApiError(409, "the game is over")
        before = room.match
        match = before.clone()
        try:
            applied = match.apply(seat, action)
        except ActionRejected as err:
            raise ApiError.of(422, err) from None
        ply = room.ply
        over = match.is_over()
        rated = rated_end(room, match) if over else None
        ranks = seat_ranks(match, len(room.seats)) if over else None
        at = await self._write(
            AppendAction(
                room.id, ply, seat, action, applied.reveals, over, by, rated, ranks, room.seq
            )
        )
        room.seq += 1
        room.match = match
        room.log.append(entry(applied.log, ply, at, by))
        room.reveals.append(applied.reveals)
        room.action_seats.append(seat)
        room.actions.append(action)
        if by is None:
            self.acted(room, seat, ply, before, action)
        self.changed(room)

    async def undo(self, game_id: str, seats: frozenset[int], ply: Any, wanted: Any = None) -> Room:
        """In a simultaneous game, the player's pending action of this round, if it
        has one (``TAKE_BACK``); otherwise what the game says undoing the player's
        last move leaves (``Match.undo``: Nova Luna, the move and the bots' replies;
        NMBR 9, the placement of the last resolved round)."""
        room = self.rooms.room(game_id)
        require_player(seats)
        check_rate(self.rates, "action", (room.id, seats))

        async def change(room: Room) -> Room:
            seat = undoing_seat(room, seats, wanted)
            if takes_back(room, seat):
                await self._take_back(room, seats, ply, wanted)
                return room
            check_seen(room, seat, ply)
            plan = rewind(room, seat)
            if isinstance(plan, str):
                raise ApiError(409, plan)
            return await self._rewind(room, plan)

        return await self.in_turn(room.id, change)

    async def _rewind(self, room: Room, plan: Undo) -> Room:
        """Store what an undo leaves (the game unrated from now on); the room rebuilt."""
        again = self._kept(room, plan)
        await self._write(Truncate(room.id, plan.start, room.seq, again))
        self.rooms.live.pop(room.id, None)
        new_room = self.rooms.room(room.id)
        move_subscribers(room, new_room)
        self.changed(new_room)  # told, and its move clock set again (from now)
        return new_room

    def _kept(self, room: Room, plan: Undo) -> tuple[ActionRow, ...]:
        """The actions ``plan`` applies again, numbered from its ``start``, each with
        what it reveals there; a 409 (nothing stored) if one no longer applies."""
        if not plan.keep:
            return ()
        stored = reading(self.store.actions, room.id)
        kept = [replace(stored[p], ply=plan.start + i) for i, p in enumerate(plan.keep)]
        try:
            rebuilt = build_room(room.row, room.seats, stored[: plan.start] + kept)
        except ActionRejected as err:
            raise ApiError.of(409, err) from None
        return tuple(replace(a, reveals=rebuilt.reveals[a.ply]) for a in kept)

    async def resign(self, game_id: str, seats: frozenset[int], wanted: Any = None) -> Room:
        """End the game with the seat among ``seats`` (``wanted`` if given) resigning: it
        loses as a seat out of time would (last, the others first; rated if the game is)."""
        room = self.rooms.room(game_id)
        require_player(seats)

        async def change(room: Room) -> Room:
            if room.finished:
                raise ApiError(409, "the game is over")
            if room.waiting:
                raise ApiError(409, "the game has not started: withdraw it instead")
            if wanted is not None:
                _check_wanted(wanted, seats)
            seat = wanted if wanted is not None else min(seats)
            await self.abandon(room, (seat,), resigned=True)
            return room

        return await self.in_turn(room.id, change)

    async def claim_timeout(self, game_id: str, seats: frozenset[int], now: float) -> Room:
        """A waiting player ends the game whose players to act are out of time (``now``
        past the deadline): they lose, as when the server's own timer ends it. The claim
        makes that certain whatever happened to the timer (a restart, a lost lease)."""
        room = self.rooms.room(game_id)
        require_player(seats)

        async def change(room: Room) -> Room:
            if room.finished:
                raise ApiError(409, "the game is over")
            deadline = room.time_limit_deadline()
            if deadline is None or room.on_timeout != "abandon":
                raise ApiError(409, "this game cannot be won on time: running out plays a bot")
            late = late_seats(room)
            # a clock's late seats are out of time by now already
            if (room.clock is None and now < deadline) or not late or seats & set(late):
                raise ApiError(409, "no opponent of yours is out of time (yet)")
            await self.abandon(room, late)
            return room

        return await self.in_turn(room.id, change)

    async def record_hint(self, room: Room) -> None:
        """Store that a seat of the game asked for a hint (it survives restarts; a daily
        board marks such an attempt "with help"; the game is unrated from now on). Not
        a change of the game: no turn."""
        await self._write(MarkHinted(room.id))
        room.row = replace(room.row, hinted=True)
        self.shown(room)  # the page says the game is unrated now

    async def abandon(
        self, room: Room, timed_out: tuple[int, ...] = (), resigned: bool = False
    ) -> None:
        """End the game unfinished: its creator chose so for a move out of time, or a
        seat resigned. ``timed_out``: the seats whose time ran out (or the one that
        resigned); in a rated game they lose."""
        ranks = timeout_ranks(len(room.seats), timed_out)
        rated = rated_timeout(room, ranks)
        ranked = ranks if rated else None
        await self._write(Abandon(room.id, room.seq, timed_out, ranked, rated, resigned))
        room.seq += 1
        room.row = replace(
            room.row, over=True, abandoned=True, timed_out=timed_out, resigned=resigned
        )
        room.ratings_cache = None
        for task in room.bot_tasks.values():
            task.cancel()
        self.shown(room)
