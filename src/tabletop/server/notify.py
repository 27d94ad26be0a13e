"""E-mail notifications: "your turn" mails, daily digests and verification mails.

The hook is ``Notifier.changed(room)``, called wherever a game's change is made
known (``Hub.changed``: this process's own changes, and with PostgreSQL those of
other processes as they are followed). For each seated account it is now waiting
for, the turn is named by a key: the game, the account and how many moves the
account has made. After ``turn_delay`` seconds the turn is looked at again; if it
is still the same and nobody watches the game from that account in this process,
the key is stored (``ClaimMail``) and whoever stored it first sends the mail. So
there is at most one mail per game per turn, however often the game changes
meanwhile and however many processes learn of it; a new one only after the
player has moved and it is their turn again.

Links in mails are signed with the server's secret (``server_secrets``, made
once and shared by every process): a verification link names the account, the
address and when it expires; an unsubscribe link the account and the address,
and works without signing in.

>>> signer = Signer(b"key")
>>> token = signer.unsubscribe_token(7, "ann@example.org")
>>> signer.unsubscribe_account(token), signer.unsubscribe_account("garbage")
(7, None)
>>> signer.checks_unsubscribe(token, "ann@example.org"), signer.checks_unsubscribe(token, "b@x.org")
(True, False)
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import math
import re
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from ..i18n import N_
from .apart import kept_apart
from .clock import CLOCK
from .compose import Composer
from .errors import ApiError, reading
from .mail import Mail, Mailer, MailSettings
from .room import Room
from .rows import Account, MailRow
from .storage import GameStore
from .writes import (
    ClaimMail,
    MailRefusal,
    PruneMails,
    ReserveConfirmation,
    SaveMailSettings,
    ServerSecret,
    Write,
)

log = logging.getLogger("tabletop.mail")

MODES = ("off", "turn", "digest")
KEEP_SENT = 31 * 86400  # seconds a sent mail's key is kept (``PruneMails``)
VERIFY_SECONDS = 3 * 24 * 3600  # how long a verification link works
CONFIRMATIONS_PER_ADDRESS = 3  # confirmation mails one address gets in a day, from anyone
CONFIRMATIONS_PER_ACCOUNT = 5  # confirmation mails one account asks for in a day
CONFIRMATION_DAY = 86400.0  # the day those count in (rolling), seconds
#: the refusals' msgids (``{hours}``: until one more may go, rounded up)
REFUSALS = {
    "address": N_(
        "this address was sent enough confirmation mails for today; try again in {hours} h"
    ),
    "account": N_("you asked for enough confirmation mails for today; try again in {hours} h"),
}
MAX_ADDRESS = 254  # the longest address SMTP carries (RFC 5321)
# an address as mails carry it: ASCII, no quoting, no comments (nothing a header could misread)
ADDRESS = re.compile(
    r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+"
)

WriteFn = Callable[[Write[Any]], Awaitable[Any]]


def check_address(raw: object) -> str:
    """An e-mail address as given (spaces around it dropped), or a 400 saying what is wrong."""
    if not isinstance(raw, str):
        raise ApiError(400, "'address' must be text: an e-mail address such as ann@example.org")
    address = raw.strip()
    if len(address) > MAX_ADDRESS or not ADDRESS.fullmatch(address):
        raise ApiError(
            400, "that is not an e-mail address this server can write to (like ann@example.org)"
        )
    return address


class Signer:
    """Signed links: HMAC-SHA256 with the server's secret key."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def _mac(self, *parts: object) -> str:
        digest = hmac.new(self.key, "|".join(map(str, parts)).encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")

    def verify_token(self, account_id: int, address: str, expires: int) -> str:
        return f"{account_id}.{expires}.{self._mac('verify', account_id, address, expires)}"

    def unsubscribe_token(self, account_id: int, address: str) -> str:
        return f"{account_id}.{self._mac('unsubscribe', account_id, address)}"

    @staticmethod
    def verify_parts(token: object) -> tuple[int, int] | None:
        """``(account, expires)`` of a verification token's form; ``None`` if it has none."""
        if not isinstance(token, str) or len(token) > 200:
            return None
        parts = token.split(".")
        if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts[:2]):
            return None
        if len(parts[0]) >= 19:  # no account id: a database cannot even look it up
            return None
        return int(parts[0]), int(parts[1])

    def checks_verify(self, token: str, address: str) -> bool:
        found = self.verify_parts(token)
        if found is None:
            return False
        expected = self.verify_token(found[0], address, found[1])
        return hmac.compare_digest(expected.encode(), token.encode())

    @staticmethod
    def unsubscribe_account(token: object) -> int | None:
        """The account an unsubscribe token names, if it has the form of one."""
        if not isinstance(token, str) or len(token) > 200:
            return None
        account, _, mac = token.partition(".")
        if not (account.isascii() and account.isdigit() and len(account) < 19 and mac):
            return None
        return int(account)

    def address_key(self, address: str) -> str:
        """What the limits store of an address: not the address (the HMAC of it, any
        case), so the count of a stranger's address keeps no readable trace of it."""
        return self._mac("address", address.lower())

    def checks_unsubscribe(self, token: str, address: str) -> bool:
        account = self.unsubscribe_account(token)
        if account is None:
            return False
        expected = self.unsubscribe_token(account, address)
        return hmac.compare_digest(expected.encode(), token.encode())


def turn_key(room: Room, account_id: int) -> str | None:
    """The name of the account's turn in the game now, or ``None`` when it is not its
    turn (or its own move just made it its turn again: it is at the board)."""
    if room.finished or room.waiting:
        return None
    seats = {s.seat for s in room.seats if s.account_id == account_id}
    if not seats & room.match.active_seats():
        return None
    if room.action_seats and room.action_seats[-1] in seats:
        return None
    moves = sum(1 for seat in room.action_seats if seat in seats)
    return f"turn:{room.id}:{account_id}:{moves}"


def invitation_key(room: Room, account_id: int) -> str | None:
    """The name of the account's invitation to a seat of the game, while it stands."""
    if room.finished or not any(s.open and s.invited == account_id for s in room.seats):
        return None
    return f"invite:{room.id}:{account_id}"


def watched(room: Room, account_id: int) -> bool:
    """Whether a page of this process shows the game to one of the account's seats."""
    seats = {s.seat for s in room.seats if s.account_id == account_id}
    return any(seats & subscriber.seats for subscriber in room.subscribers)


class Notifier:
    """Decides when mails go and hands them to the mailer (see the module; what each
    says: compose.py); limits the confirmation mails (``save_unconfirmed``)."""

    def __init__(
        self,
        store: GameStore,
        write: WriteFn,
        fresh: Callable[[str], Awaitable[Room]],
        my_games: Callable[[Account], list[dict[str, Any]]],
        settings: MailSettings | None,
    ) -> None:
        self.store = store
        self._write = write
        self._fresh = fresh
        self._my_games = my_games
        self.settings = settings
        self.mailer = Mailer(settings.server) if settings else None
        self.signer: Signer | None = None  # once ``start`` has read the key
        self.composer: Composer | None = None  # with the signer
        self.clock: Callable[[], float] = CLOCK.time  # the day confirmation mails count in
        self._pending: set[str] = set()  # turn keys waiting out their delay
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def offered(self) -> bool:
        return self.mailer is not None

    async def start(self) -> list[asyncio.Task[None]]:
        """Read (or make) the signing key, start the sender; the chores to cancel at the end."""
        if self.mailer is None or self.settings is None:
            return []
        key = await self._write(ServerSecret("mail-links", secrets.token_urlsafe(32)))
        self.signer = Signer(key.encode())
        self.composer = Composer(self.settings, self.signer.unsubscribe_token)
        self.mailer.start()
        return [asyncio.create_task(self.digests_now_and_then(self.settings.digest_check))]

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self.mailer is not None:
            self.mailer.close()

    # -- "your turn" ------------------------------------------------------------------

    def changed(self, room: Room) -> None:
        """The hook: after any change of ``room``, mail the seated accounts it now waits
        for (after the delay, once per turn)."""
        if self.signer is None or room.finished:
            return
        for seat in room.seats:
            if seat.invited is not None:  # a seat kept for an account: an invitation
                self._later(room.id, seat.invited, invitation_key(room, seat.invited))
            elif seat.account_id is not None and not room.waiting:
                self._later(room.id, seat.account_id, turn_key(room, seat.account_id))

    def _later(self, game_id: str, account_id: int, key: str | None) -> None:
        """Mail ``key`` (a turn or an invitation) after the delay, if it still stands."""
        if key is None or key in self._pending:
            return
        self._pending.add(key)
        task = asyncio.get_running_loop().create_task(self._mail_later(game_id, account_id, key))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _mail_later(self, game_id: str, account_id: int, key: str) -> None:
        assert self.settings is not None
        invitation = key.startswith("invite:")
        try:
            await asyncio.sleep(self.settings.turn_delay)
            room = await self._fresh(game_id)
            now_key = (invitation_key if invitation else turn_key)(room, account_id)
            if now_key != key or (not invitation and watched(room, account_id)):
                return  # moved (or answered) meanwhile, or at the board
            if invitation and kept_apart(self.store, account_id, [room.row.creator or 0]):
                return  # a block since the invitation: no mail of the blocked (apart.py)
            found = reading(self.store.mail_settings, account_id)
            if found is None or not found.verified or found.mode != "turn":
                return
            if await self._write(ClaimMail(key, account_id)):
                self._send(self._room_mail(found, room, invitation))
        except ApiError as err:  # the database is down: this turn goes unmailed
            log.warning("no turn mail for game %s: %s", game_id, err.message)
        finally:
            self._pending.discard(key)

    def _room_mail(self, to: MailRow, room: Room, invitation: bool) -> Mail:
        """The turn or invitation mail of ``room`` to ``to``."""
        assert self.composer is not None
        others = [
            (s.name, s.kind)
            for s in room.seats
            if (s.invited if invitation else s.account_id) != to.account_id
        ]
        if not invitation:
            return self.composer.turn_mail(to, room.id, room.type.title, others)
        creator = room.row.creator
        names = reading(self.store.account_names, [creator] if creator is not None else [])
        inviter = names.get(creator, "?") if creator is not None else "?"
        return self.composer.invitation_mail(to, inviter, room.type.title, others)

    # -- the daily digest ---------------------------------------------------------------

    async def digests_now_and_then(self, every: float) -> None:
        """Send the day's digests whenever some are due (each once a day, by its key),
        and forget the keys of mails older than ``KEEP_SENT`` (else one row per mail,
        for ever)."""
        while True:
            try:
                await self.send_digests()
                old = datetime.fromtimestamp(CLOCK.time() - KEEP_SENT, UTC)
                await self._write(PruneMails(old.isoformat(timespec="milliseconds")))
            except ApiError as err:
                log.warning("digests put off: %s", err.message)
            await asyncio.sleep(every)

    async def send_digests(self) -> int:
        """Mail each digest reader the games waiting for it, once a (UTC) day; how many."""
        day = CLOCK.utc().date().isoformat()
        sent = 0
        for reader in reading(self.store.digest_readers):
            games = self._my_games(Account(reader.account_id, reader.name))
            waiting = [g for g in games if g["your_turn"]]
            if not waiting:
                continue
            if await self._write(ClaimMail(f"digest:{reader.account_id}:{day}", reader.account_id)):
                assert self.composer is not None
                self._send(self.composer.digest_mail(reader, waiting))
                sent += 1
        return sent

    # -- verification ---------------------------------------------------------------------

    async def save_unconfirmed(self, account: Account, save: SaveMailSettings) -> None:
        """Save settings with an address not confirmed yet and mail it a link that
        confirms it, if the limits allow; else a 429 that changed nothing. An address
        gets at most ``CONFIRMATIONS_PER_ADDRESS`` such mails a day from however many
        accounts, and an account asks for at most ``CONFIRMATIONS_PER_ACCOUNT``; they are
        counted in the database, so every process of a shared one keeps the same count."""
        assert self.signer is not None and self.composer is not None
        now = self.clock()
        refusal = await self._write(
            ReserveConfirmation(
                save.account_id,
                self.signer.address_key(save.address),
                _iso(now),
                _iso(now - CONFIRMATION_DAY),
                CONFIRMATIONS_PER_ADDRESS,
                CONFIRMATIONS_PER_ACCOUNT,
                save,
            )
        )
        if refusal is not None:
            raise _refused(refusal)
        expires = int(now) + VERIFY_SECONDS
        token = self.signer.verify_token(save.account_id, save.address, expires)
        to = MailRow(account.id, account.name, save.address, False, "off", save.lang)
        self._send(self.composer.verification_mail(to, token))

    def mail_to(self, account_id: int, compose: Callable[[Composer, MailRow], Mail]) -> None:
        """Mail the account what ``compose`` writes, if it has a confirmed address with
        mails on and this server sends mail (reminders, tournaments' notices)."""
        found = reading(self.store.mail_settings, account_id)
        if found is None or not found.verified or found.mode == "off":
            return
        if self.composer is None or self.mailer is None:
            return  # this server sends no mail
        self.mailer.send(compose(self.composer, found))

    def _send(self, mail: Mail) -> None:
        assert self.mailer is not None
        self.mailer.send(mail)


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")


def _refused(refusal: MailRefusal) -> ApiError:
    """The 429 of a confirmation mail the limits refuse, with ``Retry-After``."""
    seconds = max(1, math.ceil(refusal.seconds))
    err = ApiError(429, REFUSALS[refusal.limit], hours=math.ceil(seconds / 3600))
    err.retry_after = seconds
    return err
