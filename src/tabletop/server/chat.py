"""Chat in a game: two channels, who may write and read each, and how a message
reaches the game's sockets.

``players``: written by the accounts seated in the game, read by its players'
sockets only (a spectator's socket never gets a frame of it). ``spectators``: written
by any signed-in account watching (players too), read by every socket of the game;
the page shows it to players only if they ask. A message is a text (at most
``MAX_TEXT`` characters after NFC normalisation, one line, no control or bidirectional
formatting characters: refused, never stripped) or a quick phrase's id (``PHRASES``),
which each reader's page shows in its own language.

Who may write now is decided in one place, ``refusal``; whose messages a reader
never gets (accounts it muted or blocked) in one place, ``hidden_speakers``: both
read the store each time, so a change made in another process or tab holds at once.

A new account (no game finished yet) cannot write in a game with strangers: a
*stranger* is another account seated in the game that it neither invited by name nor
was invited by (``invitations_sent``); everybody reading the spectators' chat counts
as one. Guests without an account cannot write at all.
"""

from __future__ import annotations

import logging
import unicodedata
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..core.web import JSON
from ..i18n import N_
from .chat_reads import ChatRow
from .errors import ApiError, reading
from .jsontext import dumps
from .moderation import muted_until
from .room import Room, Rooms
from .rows import Account, StoreError
from .storage import GameStore

log = logging.getLogger("tabletop.server")

if TYPE_CHECKING:
    from .encoding import Subscriber
    from .hub import Hub

PLAYERS = "players"
SPECTATORS = "spectators"
CHANNELS = (PLAYERS, SPECTATORS)
MAX_TEXT = 300  # characters of a message, after normalisation
MAX_BODY = 4 * 1024  # bytes of a request that posts one
MAX_PER_CHANNEL = 500  # messages kept per game and channel: then the channel is full
HISTORY = 200  # the last messages a socket gets when it (re)connects

#: quick phrases: id to English text (each page shows it in its reader's language)
PHRASES = {
    "hello": N_("Hello"),
    "good-luck": N_("Good luck"),
    "thinking": N_("Thinking…"),
    "well-played": N_("Well played"),
    "thanks": N_("Thanks"),
    "sorry": N_("Sorry"),
    "good-game": N_("Good game"),
}

#: formatting characters that reorder what is shown (a name or link read backwards)
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def check_text(value: Any) -> str:
    """A message's text as stored: NFC, trimmed; 400 for anything else."""
    if not isinstance(value, str):
        raise ApiError(400, "'text' is the message, as text")
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise ApiError(400, "the message is empty")
    if len(text) > MAX_TEXT:
        raise ApiError(400, "a message has at most {n} characters", n=MAX_TEXT)
    if any(_unfit(c) for c in text):
        raise ApiError(
            400, "the message holds control or text-direction characters, which chat refuses"
        )
    return text


def _unfit(char: str) -> bool:
    """Control characters (line breaks too: a message is one line), surrogates, and
    the bidirectional overrides and isolates."""
    return unicodedata.category(char) in ("Cc", "Cs") or char in _BIDI_CONTROLS


def check_message(body: dict[str, Any]) -> tuple[str, str | None, str | None]:
    """``(channel, text, phrase)`` of a posted message; 400 if it is not one."""
    channel = body.get("channel", PLAYERS)
    if channel not in CHANNELS:
        raise ApiError(400, "'channel' is players or spectators")
    phrase = body.get("phrase")
    if phrase is not None:
        if "text" in body:
            raise ApiError(400, "send a 'text' or a 'phrase', not both")
        if phrase not in PHRASES:
            raise ApiError(400, "'phrase' is one of {phrases}", phrases=", ".join(PHRASES))
        return channel, None, phrase
    return channel, check_text(body.get("text")), None


def seat_accounts(room: Room) -> set[int]:
    return {s.account_id for s in room.seats if s.account_id is not None}


def refusal(store: GameStore, room: Room, account: Account, channel: str) -> str | None:
    """Why ``account`` may not write in ``channel`` of ``room`` now (a msgid), or
    ``None``: it may. The one place that decides it: a moderator's mute comes first."""
    if muted_until(store, account.id) is not None:
        return N_("the moderators have muted your chat for now")
    if room.waiting:
        return N_("the chat opens once every seat is taken")
    if channel == PLAYERS and account.id not in seat_accounts(room):
        return N_("only the players of this game write in its players' chat")
    if _with_strangers(store, room, account, channel) and not reading(
        store.finished_a_game, account.id
    ):
        return N_("you can chat with players you do not know once you have finished a game")
    return None


def _with_strangers(store: GameStore, room: Room, account: Account, channel: str) -> bool:
    """Whether someone reading ``channel`` is a stranger to ``account`` (module docs)."""
    if channel == SPECTATORS:
        return True
    others = sorted(seat_accounts(room) - {account.id})
    return bool(set(others) - reading(store.invited_either, account.id, others))


def hidden_speakers(store: GameStore, reader: int) -> frozenset[int]:
    """The accounts whose messages ``reader`` never gets: those it muted in chat and
    those it blocked. The one place that decides it (a moderator's mute belongs here)."""
    return frozenset(store.muted_or_blocked(reader))


def readable(seats: frozenset[int]) -> tuple[str, ...]:
    """The channels a socket (or request) playing ``seats`` may read."""
    return CHANNELS if seats else (SPECTATORS,)


def message_json(row: ChatRow) -> JSON:
    return {
        "id": row.id,
        "channel": row.channel,
        "name": row.name,
        "text": row.text,
        "phrase": row.phrase,
        "at": row.at,
    }


def visible(
    store: GameStore,
    room: Room,
    seats: frozenset[int],
    reader: int | None,
    limit: int = HISTORY,
) -> list[JSON]:
    """The last ``limit`` messages a reader playing ``seats`` gets (a socket on
    connecting, a request, a record's export: the same ones)."""
    rows = reading(store.chat_messages, room.id, readable(seats), limit)
    hidden = frozenset() if reader is None else reading(hidden_speakers, store, reader)
    return [message_json(row) for row in rows if row.account_id not in hidden]


def send_history(store: GameStore, room: Room, sub: Subscriber) -> None:
    """A socket that (re)connects gets the messages it may read, replacing any it had;
    nothing while there are none (a game nobody chats in sends what it always sent)."""
    messages = visible(store, room, sub.seats, sub.account_id)
    if messages:
        sub.send({"type": "chat", "history": True, "messages": messages})


def deliver(store: GameStore, subscribers: Iterable[Subscriber], row: ChatRow) -> None:
    """Send a new message to the sockets that may read it and do not hide its writer;
    one text for all of them. A reader whose hidden speakers cannot be read now (the
    database is down) gets nothing rather than what it hid."""
    text = dumps({"type": "chat", "messages": [message_json(row)]})
    hides: dict[int, bool] = {}
    for sub in subscribers:
        if row.channel == PLAYERS and not sub.seats:
            continue  # a spectator never gets the players' chat
        reader = sub.account_id
        if reader is not None:
            if reader not in hides:
                try:
                    hides[reader] = row.account_id in hidden_speakers(store, reader)
                except StoreError:
                    hides[reader] = True
            if hides[reader]:
                continue
        sub.send_text(text)


def tell_hidden(hub: Hub, reader: int, name: str) -> None:
    """Every open game socket of ``reader`` drops ``name``'s messages at once."""
    text = dumps({"type": "chat_hidden", "names": [name]})
    for room in list(hub.rooms.live.values()):
        for sub in room.subscribers:
            if sub.account_id == reader:
                sub.send_text(text)


class ChatRelay:
    """Sends each stored message once to this process's sockets of its game: the one a
    request here stored at once, and one another process stored when its notice comes
    (``pgstore.SharedSql.announce_chat``; this process hears its own notices too)."""

    REMEMBERED = 10_000  # message ids sent here, to skip a second sending

    def __init__(self, store: GameStore, rooms: Rooms) -> None:
        self.store = store
        self.rooms = rooms
        self._sent: set[int] = set()
        self._order: deque[int] = deque()

    def posted(self, row: ChatRow) -> None:
        """A message stored now: to the sockets of its game held here (once)."""
        if row.id in self._sent:
            return
        self._sent.add(row.id)
        self._order.append(row.id)
        if len(self._order) > self.REMEMBERED:
            self._sent.discard(self._order.popleft())
        room = self.rooms.live.get(row.game_id)
        if room is not None:
            deliver(self.store, list(room.subscribers), row)

    def notified(self, game_id: str, message_id: int) -> None:
        """Another process stored a message: read it if this process holds the game."""
        if game_id not in self.rooms.live or message_id in self._sent:
            return
        try:
            row = self.store.chat_message(message_id)
        except StoreError as err:  # the sockets read it on reconnecting
            log.warning("reading chat message %s: %s", message_id, err)
            return
        if row is not None:
            self.posted(row)
