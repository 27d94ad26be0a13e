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
from dataclasses import dataclass

from .encoding import dumps
from .room import Rooms


@dataclass(frozen=True)
class CrowdLimits:
    """The server's settings for crowds (``serve --max-sockets-per-address`` ...)."""

    per_address: int = 50  # WebSockets one address may hold open, all games together
    per_game: int = 1000  # WebSockets one game may have (its players' own always fit)
    presence_interval: float = 1.0  # seconds between two presence messages of a game


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
    """How many WebSockets each address holds open."""

    def __init__(self) -> None:
        self.per_address: Counter[str | None] = Counter()

    def open(self, address: str | None) -> None:
        self.per_address[address] += 1

    def close(self, address: str | None) -> None:
        self.per_address[address] -= 1
        if self.per_address[address] <= 0:
            del self.per_address[address]
