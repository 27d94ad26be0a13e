"""For tests only: hold the server's searches until the test lets them go.

A test that must catch a bot's search or an analysis *in progress* (to kill the
process doing it, or to show that other games move meanwhile) would otherwise race
the search's length against the machine's speed: on a loaded machine the search is
over before the test looks, on a fast one the test is too late. ``serve --test-gate
FOLDER`` makes every job of the search lane (``botpool``: strong bots, hints,
analyses; never the quick lane of random and greedy) pass through a gate first:

- no file ``FOLDER/closed``: the job runs at once, as on a real server;
- ``closed`` holds a number N > 0: N more jobs pass (across every process sharing the
  folder), then it reads 0;
- ``closed`` holds 0: the job waits in its worker process, occupying it as a long
  search would, and says so with a file ``waiting-<pid>-<n>`` that it removes once it
  passes. A worker whose server is killed exits while it waits, as during a search.

``tests/gate_support.py`` is the test's side. A real server never has the option.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..core.web import Job

T = TypeVar("T")

#: How often a held job looks at the gate again (only ever with --test-gate).
LOOK_SECONDS = 0.02

_numbers = itertools.count()


def through_gate(folder: Path | None, job: Job[T]) -> Job[T]:
    """``job``, made to wait at the gate in ``folder`` first (in its worker process,
    which it occupies meanwhile, as a long search would); ``job`` itself without one."""
    if folder is None or job.quick:
        return job
    return Job(_run_after_gate, (folder, job.function, *job.args))


def _run_after_gate(folder: Path, function: Callable[..., T], *args: object) -> T:
    waiting = folder / f"waiting-{os.getpid()}-{next(_numbers)}"
    try:
        while not _take_pass(folder):
            waiting.touch()
            time.sleep(LOOK_SECONDS)
    finally:
        waiting.unlink(missing_ok=True)
    return function(*args)


def _take_pass(folder: Path) -> bool:
    """Whether one more job may pass now, counting it (under a lock: several server
    processes may share the folder)."""
    with open(folder / "lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        closed = folder / "closed"
        try:
            passes = int(closed.read_text() or "0")
        except FileNotFoundError:
            return True
        except ValueError:
            passes = 0
        if passes <= 0:
            return False
        closed.write_text(str(passes - 1))
        return True
