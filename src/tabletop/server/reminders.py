"""Reminders before a correspondence move's time runs out (docs/web.md, "Time controls").

``Reminders.schedule(room)`` runs wherever the game's time limit is set
(``Scheduler.schedule_bots``: every change, a restart's ``Hub.resume``, another
process's change followed). For a correspondence game (``correspondence.days_per_move``)
it waits, on ``CLOCK``, until ``reminder_lead`` before the current round's (or turn's)
deadline; then every seated account still to act in that round gets one reminder, by
the channels it chose (``reminder_channels``: push, mail, both by default):

* push: ``{"type": "reminder", "game": {...}, "deadline": ..., "left": seconds}`` on
  each of its account sockets of the process sending it; the page shows it, and as a
  browser notification where notifications are on (live.js, correspondence.js);
* mail: to its confirmed address unless it turned mails off (``mode`` "off", as the
  unsubscribe link does), with that link.

Who sends is decided by a key stored once (``ClaimMail``'s ``mails_sent``, as "your
turn" mails are): ``remind:<game>:<account>:<round start>``, so however many
processes hold the game and however often it changes, an account gets at most one
reminder per move; a move made before the time comes (or the game ending) cancels it.
Everything is derived from stored times, so a restart reminds as if nothing happened:
the deadline is the time limit's own. Blocks play no part: a reminder is about your own
game.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from ..core.web import JSON
from .account_events import AccountEvents
from .clock import CLOCK
from .compose import Composer, Texts
from .correspondence import days_per_move, reminder_lead
from .encoding import iso
from .errors import ApiError, reading
from .mail import Mail, plain_text
from .notify import Notifier
from .readmodels import ReadModels
from .room import Room
from .rows import MailRow
from .storage import GameStore
from .writes import ClaimMail, Write

log = logging.getLogger("tabletop.reminders")

WriteFn = Callable[[Write[Any]], Awaitable[Any]]


def reminder_key(room: Room, account_id: int) -> str:
    """The key of the account's reminder for the game's current round (or turn)."""
    return f"remind:{room.id}:{account_id}:{room.round_start()}"


def reminded_at(room: Room) -> float | None:
    """When the players still to act in the current round are reminded (Unix time);
    ``None`` for a game that is not correspondence, or has no deadline now."""
    deadline = room.time_limit_deadline()
    if days_per_move(room.row.options) is None or deadline is None:
        return None
    return deadline - reminder_lead(room.time_limit)


class Reminders:
    """Schedules each correspondence game's next reminder and sends it (see the module)."""

    def __init__(
        self,
        store: GameStore,
        write: WriteFn,
        fresh: Callable[[str], Awaitable[Room]],
        reads: ReadModels,
        accounts: AccountEvents,
        notifier: Notifier,
    ) -> None:
        self.store = store
        self._write = write
        self._fresh = fresh
        self.reads = reads
        self.accounts = accounts
        self.notifier = notifier
        # per game: (round start, reminder time) and the task waiting for it
        self._tasks: dict[str, tuple[tuple[int, float], asyncio.Task[None]]] = {}

    def schedule(self, room: Room) -> None:
        """Wait for the current round's reminder, unless that is already under way."""
        at = reminded_at(room)
        current = self._tasks.get(room.id)
        due = None if at is None else (room.round_start(), at)
        if current is not None and current[0] == due and not current[1].done():
            return
        if current is not None:
            current[1].cancel()
            del self._tasks[room.id]
        if due is None:
            return
        task = asyncio.get_running_loop().create_task(self._remind_at(room.id, due))
        self._tasks[room.id] = (due, task)
        task.add_done_callback(lambda done: self._forget(room.id, done))

    def _forget(self, game_id: str, done: asyncio.Task[None]) -> None:
        current = self._tasks.get(game_id)
        if current is not None and current[1] is done:
            del self._tasks[game_id]

    def close(self) -> None:
        for _, task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _remind_at(self, game_id: str, due: tuple[int, float]) -> None:
        await CLOCK.sleep_until(due[1])  # a test's moved clock ends it at once
        try:
            room = await self._fresh(game_id)
            deadline = room.time_limit_deadline()
            if (room.round_start(), reminded_at(room)) != due or deadline is None:
                return  # moved on meanwhile: the next round has its own reminder
            if CLOCK.time() >= deadline:
                return  # the time ran out already (the server was down): too late to help
            for seat in sorted(room.match.active_seats()):
                account_id = room.seat(seat).account_id
                if account_id is not None:
                    await self._remind(room, seat, account_id, deadline)
        except ApiError as err:  # the database is down: this reminder goes unsent
            log.warning("no reminder in game %s: %s", game_id, err.message)

    async def _remind(self, room: Room, seat: int, account_id: int, deadline: float) -> None:
        """Remind one account, by its channels, if nobody did for this round yet."""
        push, mail = reading(self.store.reminder_channels, account_id)
        if not (push or mail):
            return
        if not await self._write(ClaimMail(reminder_key(room, account_id), account_id)):
            # another process (or an earlier try) reminded it (said: tests count these)
            log.info("account %s had its reminder in game %s already", account_id, room.id)
            return
        log.info("account %s: sent a reminder in game %s", account_id, room.id)
        if push:
            self._push(room, seat, account_id, deadline)
        if mail:
            self._mail(room, account_id, deadline)

    def _push(self, room: Room, seat: int, account_id: int, deadline: float) -> None:
        if not self.accounts.sockets.get(account_id):
            return  # no socket here: the game summary is not worth reading
        message: JSON = {
            "type": "reminder",
            "game": self.reads.game_summary(room, seat),
            "deadline": iso(deadline),
            "left": round(max(0.0, deadline - CLOCK.time())),
        }
        self.accounts.tell(account_id, message)

    def _mail(self, room: Room, account_id: int, deadline: float) -> None:
        others = [(s.name, s.kind) for s in room.seats if s.account_id != account_id]
        self.notifier.mail_to(
            account_id,
            lambda composer, to: reminder_mail(composer, to, room, others, deadline),
        )


def reminder_mail(
    composer: Composer, to: MailRow, room: Room, others: list[tuple[str, str]], deadline: float
) -> Mail:
    """The reminder mail to ``to``, with the unsubscribe link every mail has."""
    t = Texts(to.lang)
    when = datetime.fromtimestamp(deadline, UTC).strftime("%Y-%m-%d %H:%M UTC")
    title = room.type.title
    body = [
        t("Hello {name},", name=plain_text(to.name)),
        "",
        t(
            "your move in {game} with {players} is waiting: its time runs out at {time}.",
            game=title,
            players=t.names(others),
            time=when,
        ),
        "",
        t("Open the game:"),
        composer.link(f"/g/{room.id}"),
    ]
    return composer.message(to, t("Reminder: your move in {game}", game=title), body)
