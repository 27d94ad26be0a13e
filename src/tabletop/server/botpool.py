"""Worker processes for bots and hints, so that the event loop never waits on a search.

Two lanes: searches (``mcts``, the planners, hints) share ``workers`` processes,
and quick jobs (random, greedy: milliseconds) have a process of their own, so a
greedy bot in one game never waits behind another game's searches. A third lane,
started when first used, runs work nobody waits on to move (the coach of a casual
game, ``coaching.py``) in ``background`` processes of a lower priority (``nice``):
on a busy machine the server's own loop and the live bots get the CPU first. Each game
has at most one bot move (and one hint) in flight at a time (the hub schedules
them one by one), so the pool's first-come, first-served queue makes the games
take turns: a game's next move queues behind every other game's; and every
search is bounded in time (``BotLimits``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from ..core.web import Job
from .testgate import through_gate

T = TypeVar("T")


def _exit_with_server() -> None:
    """Exit this worker as soon as the server that started it is gone, however it died.

    Nothing else stops a worker: after a SIGKILL of the server a search runs on to its
    end and an idle worker waits for work forever (and keeps the forkserver alive).
    The worker's parent is the forkserver, not the server, so PR_SET_PDEATHSIG would
    not fire; ``parent_process()`` is the server, and its sentinel (a pipe only the
    server holds open) reads EOF the moment the server dies — no polling, no pid
    reuse. A search never blocks this thread for long: Python code lets other threads
    run every few milliseconds, and the C kernel releases the GIL while it searches."""
    server = multiprocessing.parent_process()
    if server is not None:

        def exit_when_gone() -> None:
            server.join()
            os._exit(1)

        threading.Thread(target=exit_when_gone, daemon=True).start()


def _warm_up() -> None:
    """Import the games in a new worker before the first real job needs them."""
    from ..core.game import game_types

    game_types()


def _start_worker() -> None:
    _exit_with_server()
    _warm_up()


#: How much lower the background lane's priority is (``os.nice``'s increment).
BACKGROUND_NICE = 10


def _start_background_worker() -> None:
    os.nice(BACKGROUND_NICE)
    _start_worker()


class _Lane:
    """A process pool that is replaced when one of its workers dies."""

    def __init__(self, workers: int, start: Callable[[], None] = _start_worker) -> None:
        self.workers = workers
        self._start = start  # each worker's initializer
        self._executor: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # forkserver: never fork the server process itself, which runs threads.
            context = multiprocessing.get_context("forkserver")
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=self._start
            )
        return self._executor

    async def run(self, job: Job[T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.pool(), job.run)
        except BrokenProcessPool:
            self._executor = None  # a worker died (e.g. killed): start afresh
            raise

    def start(self) -> None:
        pool = self.pool()
        for _ in range(self.workers):
            pool.submit(_warm_up)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)  # no leaked worker state
            self._executor = None


class BotPool:
    """Runs ``Job``s in worker processes: searches and quick jobs in separate lanes."""

    def __init__(
        self, workers: int | None = None, gate: Path | None = None, background: int | None = None
    ) -> None:
        self.workers = workers or max(1, min(4, (os.cpu_count() or 2)))
        self.background_workers = background or max(1, self.workers // 2)
        self._searches = _Lane(self.workers)
        self._quick = _Lane(1)
        self._background = _Lane(self.background_workers, _start_background_worker)
        self._gate = gate  # tests only: testgate.py

    async def run(self, job: Job[T]) -> T:
        if job.quick:
            return await self._quick.run(job)
        return await self._searches.run(through_gate(self._gate, job))

    async def run_background(self, job: Job[T]) -> T:
        """``job`` in the background lane (see the module), first come, first served."""
        return await self._background.run(through_gate(self._gate, job))

    def start(self) -> None:
        """Start the workers now rather than on the first bot move."""
        self._searches.start()
        self._quick.start()

    def close(self) -> None:
        self._searches.close()
        self._quick.close()
        self._background.close()
