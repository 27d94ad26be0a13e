"""Durable writes: each one committed off the event loop (``Committer``), a store's
refusal turned into an ``ApiError``, and the journal copied into the database file
now and then."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from .committer import Committer
from .errors import ApiError, Stale
from .rows import StoreError
from .storage import GameStore, StoreConflict
from .writes import Write

log = logging.getLogger("tabletop.server")
T = TypeVar("T")


class Writer:
    """The one way the server changes the store."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.committer = Committer(store)
        self._unchecked = 0  # commits since the last checkpoint
        self._checkpoints = ThreadPoolExecutor(1, thread_name_prefix="tabletop-checkpoint")

    async def write(self, write: Write[T]) -> T:
        """Store one write and return its result; 503 if refused,
        409 (``Stale``) if another process changed the game first.

        Commits wait for the disk on a thread, several games' writes at once (see
        ``Committer``). Copying the journal into the database file runs on another.
        """
        result = await self.committer.write(write)
        self._unchecked += 1
        if isinstance(result, StoreConflict):
            raise Stale.plain(409, str(result))
        if isinstance(result, StoreError):
            raise ApiError.plain(503, str(result))
        return result

    async def checkpoint_now_and_then(self, every: float = 1.0) -> None:
        """Copy the journal into the database file in the background (see
        ``Store.checkpoint_separately``): commits never wait for it."""
        self.store.checkpoint_separately()
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            if self._unchecked:
                self._unchecked = 0
                try:
                    await loop.run_in_executor(self._checkpoints, self.store.checkpoint)
                except Exception:  # noqa: BLE001 - retried next time; the journal holds all
                    log.exception("checkpoint failed")

    def close(self) -> None:
        self.committer.close()
        self._checkpoints.shutdown(wait=True)
