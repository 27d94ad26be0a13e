"""Telling an event's entrants that it starts (docs/web.md, "The account socket").

``TournamentNotices.schedule(event_id, starts)`` is called by the director of every
process for each event not over yet, each time it looks (a repeat changes nothing
unless the start moved; a start more than ``NOTICE_MINUTES`` past is no news). It
waits, on ``CLOCK``, until ``NOTICE_MINUTES`` before the start, and then until the
start; each time every entrant that is an account (our own bots need no telling) gets
one notice, by the channels it chose for reminders (``reminder_channels``: push, mail,
both by default):

* push: ``{"type": "tournament", "event": "soon" | "started", "tournament": {...},
  "left": seconds}`` on each of its account sockets of the sending process; the page
  shows it, and as a browser notification where notifications are on
  (tournament_notices.js); a bot account's event stream gets it too;
* mail: to its confirmed address unless it turned mails off, with the unsubscribe link.

Who sends is decided by a key stored once, as the correspondence reminders do
(``ClaimMail``'s ``mails_sent``): ``tournament:<event>:<stage>:<account>``. So however
many processes look after the event, and across restarts, an entrant is told at most
once per stage. The event is read afresh when the time comes: a cancelled event, or
one whose start moved, sends nothing (the new start has its own wait); a "soon" notice
whose start has passed (the server was down) is skipped, the "started" one still goes
if a process comes to it within ``NOTICE_MINUTES`` of the start. Somebody who enters
in the last five minutes gets the "started" notice only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..core.game import get_game
from ..core.web import JSON
from .account_events import AccountEvents
from .clock import CLOCK
from .compose import Composer, Texts
from .encoding import iso
from .errors import ApiError, reading
from .mail import Mail, plain_text
from .notify import Notifier
from .rows import MailRow
from .storage import GameStore
from .writes import ClaimMail, Write

log = logging.getLogger("tabletop.tournaments")

WriteFn = Callable[[Write[Any]], Awaitable[Any]]

NOTICE_MINUTES = 5  # how long before the start the entrants are told
SOON, STARTED = "soon", "started"


@dataclass(frozen=True)
class EventNotice:
    """What the notices need to know of an event, read afresh from the store."""

    id: str
    name: str
    title: str  # the game's
    starts: float
    status: str  # 'upcoming', 'running', 'finished' or 'cancelled'
    accounts: tuple[int, ...]  # the entrants that are accounts and have not withdrawn


def event_notice(store: GameStore, event_id: str) -> EventNotice | None:
    """The event as the notices need it (``None``: no such event)."""
    event = store.tournament(event_id)
    if event is None:
        return None
    accounts = tuple(
        e.account_id
        for e in store.tournament_entrants(event_id)
        if e.account_id is not None and e.withdrawn is None
    )
    title = get_game(event.type).title
    return EventNotice(event.id, event.name, title, event.starts, event.status, accounts)


def notice_key(event_id: str, stage: str, account_id: int) -> str:
    return f"tournament:{event_id}:{stage}:{account_id}"


def due(event: EventNotice, stage: str, now: float) -> bool:
    """Whether ``stage``'s notice is still worth sending at ``now``."""
    if stage == SOON:
        return event.status == "upcoming" and now < event.starts
    return event.status in ("upcoming", "running")  # the director may not have started it yet


class TournamentNotices:
    """Waits for each upcoming event's notices and sends them (see the module)."""

    def __init__(
        self,
        store: GameStore,
        write: WriteFn,
        accounts: AccountEvents,
        notifier: Notifier,
    ) -> None:
        self.store = store
        self._write = write
        self.accounts = accounts
        self.notifier = notifier
        self._tasks: dict[str, tuple[float, asyncio.Task[None]]] = {}  # per event: its start

    def schedule(self, event_id: str, starts: float) -> None:
        """Wait for the event's notices, unless that is under way (or done) for this
        start; nothing once the start is ``NOTICE_MINUTES`` past (no news any more)."""
        current = self._tasks.get(event_id)
        if CLOCK.time() > starts + NOTICE_MINUTES * 60:
            if current is not None and current[1].done():
                del self._tasks[event_id]  # the event goes on without its notices
            return
        if current is not None and current[0] == starts:
            return
        if current is not None:
            current[1].cancel()  # the start moved
        task = asyncio.get_running_loop().create_task(self._notify(event_id, starts))
        self._tasks[event_id] = (starts, task)

    def close(self) -> None:
        for _, task in self._tasks.values():
            task.cancel()
        self._tasks.clear()

    async def _notify(self, event_id: str, starts: float) -> None:
        await CLOCK.sleep_until(starts - NOTICE_MINUTES * 60)  # a moved clock ends it at once
        await self._send(event_id, SOON, starts)
        await CLOCK.sleep_until(starts)
        await self._send(event_id, STARTED, starts)

    async def _send(self, event_id: str, stage: str, starts: float) -> None:
        try:
            event = reading(event_notice, self.store, event_id)
            if event is None or event.starts != starts or not due(event, stage, CLOCK.time()):
                return  # cancelled, moved, or too late for this one
            for account_id in event.accounts:
                await self._tell(event, stage, account_id)
        except ApiError as err:  # the database is down: this notice goes unsent
            log.warning("no %s notice of event %s: %s", stage, event_id, err.message)

    async def _tell(self, event: EventNotice, stage: str, account_id: int) -> None:
        """Tell one entrant, by its channels, if nobody did for this stage yet."""
        push, mail = reading(self.store.reminder_channels, account_id)
        if not (push or mail):
            return
        if not await self._write(ClaimMail(notice_key(event.id, stage, account_id), account_id)):
            log.info(
                "account %s had the %s notice of event %s already", account_id, stage, event.id
            )
            return
        log.info("account %s: sent the %s notice of event %s", account_id, stage, event.id)
        if push:
            self._push(event, stage, account_id)
        if mail:
            self._mail(event, stage, account_id)

    def _push(self, event: EventNotice, stage: str, account_id: int) -> None:
        self.accounts.tell(account_id, push_message(event, stage, CLOCK.time()))

    def _mail(self, event: EventNotice, stage: str, account_id: int) -> None:
        self.notifier.mail_to(
            account_id, lambda composer, to: notice_mail(composer, to, event, stage)
        )


def push_message(event: EventNotice, stage: str, now: float) -> JSON:
    """The account socket's notice (the page words it itself)."""
    return {
        "type": "tournament",
        "event": stage,
        "tournament": {
            "id": event.id,
            "name": event.name,
            "title": event.title,
            "url": f"/t/{event.id}",
            "starts": iso(event.starts),
        },
        "left": round(max(0.0, event.starts - now)),
    }


def notice_mail(composer: Composer, to: MailRow, event: EventNotice, stage: str) -> Mail:
    """The notice mail to ``to``, with the unsubscribe link every mail has."""
    t = Texts(to.lang)
    name = plain_text(event.name)
    when = datetime.fromtimestamp(event.starts, UTC).strftime("%Y-%m-%d %H:%M UTC")
    if stage == SOON:
        subject = t("{event} starts in {minutes} min", event=name, minutes=NOTICE_MINUTES)
        line = t(
            "the {game} tournament {event} that you entered starts at {time}.",
            game=event.title,
            event=name,
            time=when,
        )
    else:
        subject = t("{event} has started", event=name)
        line = t(
            "the {game} tournament {event} that you entered has started: "
            "keep its page open to be paired.",
            game=event.title,
            event=name,
        )
    body = [
        t("Hello {name},", name=plain_text(to.name)),
        "",
        line,
        "",
        t("Open the tournament:"),
        composer.link(f"/t/{event.id}"),
    ]
    return composer.message(to, subject, body)
