"""Replays of finished games, worked out once and then served from memory.

A finished game's replay (about 1 MB of JSON, tens of milliseconds to work out)
never changes, except for what its seats show: a deleted account's seats become
"deleted player". So each is kept as its bytes (plain and gzip-compressed) with
an ETag, under the seats it was made with; a later request whose seats (read
from the database, cheap) differ works it out again. Working one out runs on a
thread of its own, so that the event loop, and every game's moves with it, never
waits for it; the replays a request works out are rate-limited per address
(``--rate-replays``), the cached ones are not.

>>> cache = ReplayCache(max_bytes=100)
>>> entry = cache.put("g", ("Ann",), b'{"frames": []}')
>>> cache.get("g", ("Ann",)) is entry, cache.get("g", ("deleted player",))
(True, None)
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from ..core.game import GameType

T = TypeVar("T")

# one thread: a replay is CPU work under the GIL, so more threads would not be faster,
# only take more turns from the event loop; the rate limit keeps its queue short
_thread = ThreadPoolExecutor(1, thread_name_prefix="tabletop-replays")


async def off_loop(work: Callable[[], T]) -> T:
    """``work()`` on the replay thread (the event loop switches back every few ms)."""
    return await asyncio.get_running_loop().run_in_executor(_thread, work)


def companion(game: GameType, record: dict[str, Any], score: float) -> dict[str, Any]:
    """The frames of a game the replay page steps through beside a stored one (the
    best game with hindsight, the daily bot's game): like a stored game's replay, its
    seats marked as bots (their names are msgids the page translates) and with the
    ``score`` it is shown for. ``record`` is replayed, so every move is checked again."""
    players = list(record["players"])
    frames = game.replay(record)
    return {
        "game": game.name,
        "players": players,
        "frames": frames,
        "bots": [True] * len(players),
        "score": score,
    }


@dataclass(frozen=True)
class CachedReplay:
    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, body: bytes) -> CachedReplay:
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        return cls(body, gzip.compress(body, compresslevel=6), etag)

    @property
    def size(self) -> int:
        return len(self.body) + len(self.gzipped)


class ReplayCache:
    """The most recently asked replays, at most ``max_bytes`` of them together."""

    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, tuple[object, CachedReplay]] = OrderedDict()
        self._bytes = 0

    def get(self, game_id: str, seats: object) -> CachedReplay | None:
        """The replay kept for ``game_id`` if it was made with these ``seats``."""
        found = self._entries.get(game_id)
        if found is None or found[0] != seats:
            return None
        self._entries.move_to_end(game_id)
        return found[1]

    def put(self, game_id: str, seats: object, body: bytes) -> CachedReplay:
        return self.keep(game_id, seats, CachedReplay.of(body))

    def keep(self, game_id: str, seats: object, entry: CachedReplay) -> CachedReplay:
        old = self._entries.pop(game_id, None)
        if old is not None:
            self._bytes -= old[1].size
        if entry.size <= self.max_bytes:
            self._entries[game_id] = (seats, entry)
            self._bytes += entry.size
        while self._bytes > self.max_bytes:
            _, (_, dropped) = self._entries.popitem(last=False)
            self._bytes -= dropped.size
        return entry
