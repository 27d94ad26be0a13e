"""Friends (issue 46): an account follows others, sees which of them are online and
what they play, and may open a game to them alone.

* **Following** is one-sided and private: the followed account is not told. An account
  follows at most ``MOST_FOLLOWED`` others.
* **Online**: an account with a game socket, account socket or event stream open in
  any server process (``crowds.Sockets`` counts them per account). With one process
  that count is the answer. Several processes on PostgreSQL each write their accounts
  to the ``presence`` table (``OnlineBoard``): when an account's first socket opens or
  its last closes (coalesced: at most one write per ``Presence.gap`` seconds, however
  many sockets come and go), and renewed every ``renew`` seconds, each row expiring
  ``ttl`` seconds on unless renewed; so a killed process's accounts go offline by
  themselves. Writes are therefore bounded by the transitions, and at most one a gap.
* **Privacy**: an account that blocked its follower reads, to that follower, as offline
  and playing nothing (as a stranger's would, not "blocked").
* **Friends-only open games** (the option ``friends_only``): listed in the lobby only
  to the accounts their creator follows, and joined by nobody else; a stranger is
  refused as for a full game (``NO_SEAT``), so it does not learn the game is there.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.web import JSON, web_games
from ..i18n import N_
from .errors import ApiError, reading
from .friend_reads import FriendRow
from .ratelimit import RateLimit
from .rows import Account, Seat, StoreError
from .storage import GameStore, SharedStore
from .sync import shared

if TYPE_CHECKING:
    from .crowds import Sockets
    from .room import Room

log = logging.getLogger("tabletop.server")

MOST_FOLLOWED = 500  # accounts one account may follow
GAMES_SHOWN = 5  # games shown per friend, the newest
#: the answer to joining a game with no open seat: a friends-only game's to a stranger too
NO_SEAT = N_("this game has no open seat left")
OPTION = "friends_only"


@dataclass(frozen=True)
class Presence:
    """How a shared store's processes tell each other who is online (seconds)."""

    ttl: float = 60.0  # a row counts this long after its last write
    renew: float = 20.0  # each process renews its rows this often
    gap: float = 1.0  # at most one write of transitions per gap


class OnlineBoard:
    """Which accounts are online: those with a socket in this process (``sockets``),
    and with a shared store those another process wrote to ``presence``."""

    def __init__(
        self, store: GameStore, sockets: Sockets, owner: str, times: Presence = Presence()
    ) -> None:
        self.store = store
        self.sockets = sockets
        self.owner = owner  # this process in the table (as its leases)
        self.times = times
        self.limit = RateLimit(
            N_("too many looks at your friends at once; wait {seconds} s and try again"),
            per_minute=30,
            burst=10,
        )
        self._written: set[int] = set()  # the accounts this process last wrote as present
        self._last_write = float("-inf")
        self._due: asyncio.TimerHandle | None = None

    def local(self) -> set[int]:
        return set(self.sockets.per_account)

    def changed(self) -> None:
        """An account's first socket here opened or its last closed: a shared store
        learns it now if the last write was a gap ago, else once, a gap after it."""
        if not self.store.shared or self._due is not None:
            return
        wait = self._last_write + self.times.gap - time.monotonic()
        if wait <= 0:
            self._write()
        else:
            self._due = asyncio.get_running_loop().call_later(wait, self._write)

    def _write(self) -> None:
        self._due = None
        self._last_write = time.monotonic()
        now = self.local()
        present, gone = sorted(now - self._written), sorted(self._written - now)
        if not present and not gone:
            return
        try:
            self._shared().mark_present(self.owner, present, gone, self.times.ttl)
            self._written = now
        except StoreError as err:  # the next renewal writes it all again
            log.warning("telling other processes who is online: %s", err)

    async def renew_now_and_then(self) -> None:
        """A shared store: renew this process's rows before they expire, and sweep out
        the expired ones."""
        while True:
            await asyncio.sleep(self.times.renew)
            self.renew()

    def renew(self) -> None:
        now = self.local()
        try:
            self._shared().mark_present(self.owner, sorted(now), [], self.times.ttl)
            self._shared().sweep_presence(self.owner, sorted(now))
            self._written = now
        except StoreError as err:
            log.warning("renewing who is online: %s", err)

    def leave(self) -> None:
        """This process stops: its rows go (a killed one's expire)."""
        if self.store.shared:
            try:
                self._shared().sweep_presence(self.owner, [])
            except StoreError as err:
                log.warning("leaving the presence table: %s", err)

    def _shared(self) -> SharedStore:
        return shared(self.store)

    def friends(self, account: Account) -> list[JSON]:
        """The accounts ``account`` follows, as its friends list shows them (one
        query; the caller spent the look: ``limit_for``)."""
        rows = reading(self.store.friends_of, account.id)
        here = self.local()
        return [_shown(row, row.online or row.id in here) for row in rows]

    def limit_for(self, account: Account) -> None:
        """429 when the account looks at its friends too often (a page polls)."""
        wait = self.limit.wait(account.id)
        if wait > 0:
            raise ApiError.wait(429, self.limit.what, wait)


def _shown(row: FriendRow, online: bool) -> JSON:
    """A friend as its follower sees it: one that blocked the follower is offline and
    plays nothing; a game links to its spectator view (``/g/<id>``: no seat link)."""
    if row.blocks_you:
        return {"name": row.name, "online": False, "games": []}
    types = web_games()
    return {
        "name": row.name,
        "online": online,
        "games": [
            {"id": game_id, "type": kind, "title": types[kind].title, "url": f"/g/{game_id}"}
            for game_id, kind in row.games[:GAMES_SHOWN]
            if kind in types
        ],
    }


# -- friends-only open games ---------------------------------------------------------


def friends_only_option(body: Any, seats: list[Seat]) -> JSON:
    """The option a create request's ``friends_only`` asks for: ``{}`` or
    ``{"friends_only": True}``; 400 unless a boolean, or true without an open seat."""
    if not isinstance(body, dict) or OPTION not in body:
        return {}
    wanted = body[OPTION]
    if type(wanted) is not bool:
        raise ApiError(
            400,
            "'friends_only' is true (only accounts you follow see and join the game) or false",
        )
    if not wanted:
        return {}
    if not any(s.open and s.invited is None for s in seats):
        raise ApiError(400, "'friends_only' needs an open seat: it limits who may take one")
    return {OPTION: True}


def welcome(store: GameStore, room: Room, account: Account) -> bool:
    """Whether ``account`` may see and take the game's open seats: any game but a
    friends-only one, whose creator (or an account it follows) it must be."""
    creator = room.row.creator
    if not room.row.options.get(OPTION) or creator is None or creator == account.id:
        return True
    return reading(store.follows_account, creator, account.id)


def visible(store: GameStore, rooms: Iterable[Room], reader: Account | None) -> list[Room]:
    """The open games ``reader`` may see in the lobby: friends-only ones only if their
    creator follows it (one read for the whole list)."""
    rooms = list(rooms)
    limited = {r.row.creator for r in rooms if r.row.options.get(OPTION) and r.row.creator}
    if reader is None:
        friends: set[int] = set()
    else:
        limited.discard(reader.id)
        friends = reading(store.following, sorted(c for c in limited if c is not None), reader.id)
    return [
        r
        for r in rooms
        if not r.row.options.get(OPTION)
        or (reader is not None and r.row.creator == reader.id)
        or r.row.creator in friends
    ]
