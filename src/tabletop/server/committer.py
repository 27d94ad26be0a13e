"""Group commit: the store's writes leave the event loop, and share waits for the disk.

A commit waits for the disk (``synchronous=FULL``): well under a millisecond on a
quiet machine, but tens of milliseconds while something else writes. On the event
loop, every game on the server waited that long for every move. Here commits run on
a thread of their own; writes that arrive meanwhile go into the next commit
together, so a slow disk costs each move about two waits however many games there
are, and reads, states and every other game go on in the meantime.

>>> import asyncio
>>> from tabletop.server.store import Store
>>> from tabletop.server.writes import Truncate
>>> async def demo():
...     committer = Committer(Store(":memory:"))
...     return await committer.write(Truncate("no-such-game", 0))
>>> asyncio.run(demo()) is None
True
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, cast

from .storage import GameStore, StoreError
from .writes import Write

T = TypeVar("T")


class Committer:
    """The one way the server writes to ``store``: ``await write(CreateGame(...))``."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        # an in-memory store reads through its one connection: never write beside it
        self._inline = store.path == ":memory:"
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tabletop-commit")
        self._waiting: list[tuple[Write[object], asyncio.Future[object]]] = []
        self._draining = False
        self.commits = 0  # how many commits the writes so far took (for tests and figures)

    async def write(self, write: Write[T]) -> T | StoreError:
        """Store one write durably; its result, or a ``StoreError`` returned (not
        raised) if the database refused it."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[object] = loop.create_future()
        self._waiting.append((write, done))
        if not self._draining:
            self._draining = True
            loop.create_task(self._drain())
        return cast("T | StoreError", await done)  # ``write.run``'s result or the error

    async def _drain(self) -> None:
        """Commit everything waiting, batch after batch, until nothing is left."""
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                writes = [write for write, _ in batch]
                results: list[object]
                try:
                    if self._inline:
                        results = self.store.write_many(writes)
                    else:
                        results = await loop.run_in_executor(
                            self._thread, self.store.write_many, writes
                        )
                except Exception as err:  # noqa: BLE001 - every waiting write must hear
                    results = [StoreError(f"the game database failed: {err}")] * len(batch)
                self.commits += 1
                for (_, done), result in zip(batch, results, strict=True):
                    if not done.done():
                        done.set_result(result)
        finally:
            self._draining = False

    async def idle(self, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` seconds) until no write is waiting or under way."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (self._draining or self._waiting) and loop.time() < deadline:
            await asyncio.sleep(0.01)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
