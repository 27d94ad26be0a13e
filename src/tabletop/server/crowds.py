"""Crowds on a game: who is connected, told to the others at most once a while, and
how many sockets an address or a game may hold.

A join or a leave used to push the whole state to every client of the game: 500
spectators opening cost 500 x 500 states. Now the newcomer alone gets the state,
and the others a small ``presence`` message (the seats connected, the number of
spectators), coalesced: the first change of a quiet room is told at once, the
changes after it together, ``interval`` seconds after the last telling.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import ApiError
from .jsontext import dumps
from .room import Rooms


@dataclass(frozen=True)
class CrowdLimits:
    """The server's settings for crowds (``serve --max-sockets-per-address`` ...)."""

    per_address: int = 50  # WebSockets one address may hold open, all games together
    per_game: int = 1000  # WebSockets one game may have (its players' own always fit)
    presence_interval: float = 1.0  # seconds between two presence messages of a game
    per_account: int = 50  # WebSockets and streams one account may hold, all addresses
    hello_timeout: float = 30.0  # seconds a game socket has to say hello


class Presence:
    """Tells a room's clients who is connected, at most once per ``interval``."""

    def __init__(self, rooms: Rooms, interval: float) -> None:
        self.rooms = rooms
        self.interval = interval
        self._told: dict[str, float] = {}  # per game: when it was last told
        self._due: dict[str, asyncio.TimerHandle] = {}  # per game: the telling to come

    def changed(self, game_id: str) -> None:
        """Someone came or went: tell now if the room was quiet, else once, later."""
        if game_id in self._due:
            return  # the telling to come will say this too
        wait = self._told.get(game_id, float("-inf")) + self.interval - time.monotonic()
        if wait <= 0:
            self._tell(game_id)
        else:
            loop = asyncio.get_running_loop()
            self._due[game_id] = loop.call_later(wait, self._tell, game_id)

    def _tell(self, game_id: str) -> None:
        self._due.pop(game_id, None)
        room = self.rooms.live.get(game_id)
        if room is None or not room.subscribers:
            self._told.pop(game_id, None)  # nobody left: forget the game
            return
        self._told[game_id] = time.monotonic()
        online, spectators = room.presence()
        text = dumps({"type": "presence", "online": online, "spectators": spectators})
        for sub in room.subscribers:
            sub.send_text(text)


class Sockets:
    """How many WebSockets and streams each address and each account holds open."""

    def __init__(self, limits: CrowdLimits) -> None:
        self.limits = limits
        self.per_address: Counter[str | None] = Counter()
        self.per_account: Counter[int] = Counter()
        #: an account's first socket opened or its last closed (friends.OnlineBoard)
        self.account_changed: Callable[[], None] = lambda: None

    def slot(self) -> Slot:
        """A new socket's place, holding nothing yet."""
        return Slot(self)


class Slot:
    """One socket's (or stream's) place in its address's and account's counts.

    Each ``hold_*`` counts and checks in one step, with no ``await`` between: of many
    sockets opening at once, no more than the cap get in (checked, then counted
    after an await, 200 streams of one address got 75 to 169 places of 50).
    ``release`` gives back what is held, once, however often it is called."""

    def __init__(self, sockets: Sockets) -> None:
        self.sockets = sockets
        self.address: str | None = None
        self.account_id: int | None = None
        self._holds_address = False

    def hold_address(self, address: str | None) -> None:
        """Count the socket for ``address``; 429 (and nothing held) past its cap."""
        counts, cap = self.sockets.per_address, self.sockets.limits.per_address
        if counts[address] >= cap:
            raise ApiError(
                429,
                "too many connections from your address (at most {n}); close some tabs",
                n=cap,
            )
        counts[address] += 1
        self.address, self._holds_address = address, True

    def hold_account(self, account_id: int) -> None:
        """Count the socket for the account it is opened by; 429 past its cap."""
        counts, cap = self.sockets.per_account, self.sockets.limits.per_account
        if counts[account_id] >= cap:
            raise ApiError(
                429,
                "too many connections for your account (at most {n}); close some",
                n=cap,
            )
        counts[account_id] += 1
        self.account_id = account_id
        if counts[account_id] == 1:
            self.sockets.account_changed()

    def release(self) -> None:
        if self._holds_address:
            self._holds_address = False
            _take_one(self.sockets.per_address, self.address)
        if self.account_id is not None:
            _take_one(self.sockets.per_account, self.account_id)
            if self.account_id not in self.sockets.per_account:
                self.sockets.account_changed()
            self.account_id = None


def _take_one(counts: Counter[Any], key: object) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
