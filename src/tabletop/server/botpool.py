"""Worker processes for bots and hints, so that the event loop never waits on a search."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..core.web import Job


def _warm_up() -> None:
    """Import the games in a new worker before the first real job needs them."""
    from ..core.game import game_types

    game_types()


class BotPool:
    """A process pool that runs ``Job``s; a crashed pool is replaced on the next job."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2)))
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # forkserver: never fork the server process itself, which runs threads.
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_warm_up
            )
        return self._executor

    async def run(self, job: Job) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), job.run)
        except BrokenProcessPool:
            self._executor = None  # a worker died (e.g. killed): start afresh
            raise

    def start(self) -> None:
        """Start the workers now rather than on the first bot move."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(_warm_up)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)  # no leaked worker state
            self._executor = None
