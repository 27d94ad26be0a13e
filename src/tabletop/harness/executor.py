"""Where the harness plays its games: processes on this machine, or a Ray cluster.

``Executor("local", jobs)`` plays on ``jobs`` processes here (``--jobs``);
``Executor("ray", jobs, address)`` sends the games to a Ray cluster (``--executor ray``,
the optional extra ``ray``): the one at ``address`` (``ray start --head`` prints it;
``"auto"``: the one running on this machine), or one started on this machine for the
run (``jobs`` CPUs, on 127.0.0.1, stopped at the end). Both give the same games: a game
is fixed by its ``Fixture``, whichever process plays it, and the results come back in
schedule order (docs/cluster.md).

Ray plays the games in chunks (one task plays several fixtures, as the process pool
does), at most ``jobs`` chunks at once (default: one per CPU of the cluster), and holds
at most a few finished chunks per worker while an earlier one runs, so a schedule of
millions of games neither floods the cluster with tasks nor holds every result.
"""

from __future__ import annotations

import argparse
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.errors import OptionsError

if TYPE_CHECKING:
    from .tournament import Fixture

EXECUTORS = ("local", "ray")
RAY_MISSING = "--executor ray needs Ray: pip install 'tabletop[ray]' (or: pip install ray)"
#: Chunks played or waiting to be yielded, per parallel slot: a slow chunk holds back at
#: most this many finished ones (they are yielded in schedule order).
AHEAD = 4

T = TypeVar("T")


class ExecutorError(OptionsError):
    """The executor cannot run (Ray missing, no cluster at the address); one line."""


@dataclass(frozen=True)
class Executor:
    """Where games run. ``jobs``: games at once (local: processes, default 1; Ray: the
    CPUs of a cluster started here, or how many of the CPUs of the one at ``address``
    to use, default all)."""

    kind: str = "local"
    jobs: int | None = None
    address: str | None = None

    @property
    def workers(self) -> int:
        """Local processes (1: play in this one)."""
        return self.jobs or 1


def executor_from_args(args: argparse.Namespace) -> Executor:
    """The executor of ``--executor``, ``--jobs`` and ``--address``; ``ExecutorError``
    for an address without Ray, or Ray asked for and not installed."""
    kind = getattr(args, "executor", "local") or "local"
    address = getattr(args, "address", None)
    if address is not None and kind != "ray":
        raise ExecutorError("--address names a Ray cluster: use it with --executor ray")
    if kind == "ray":
        import_ray()  # missing, or no cluster there: say so before anything is written
        if address is not None:
            reachable(address)
    return Executor(kind, getattr(args, "jobs", None), address)


def chunksize(count: int, workers: int) -> int:
    """Fixtures per task: a few per worker at most 16, so that short games do not pay
    the per-task cost each and long schedules still spread evenly.

    >>> chunksize(10, 2), chunksize(2000, 2), chunksize(100_000, 8)
    (1, 16, 16)
    """
    return max(1, min(16, count // (workers * 16)))


def _play_chunk(play: Callable[[Fixture], T], fixtures: Sequence[Fixture]) -> list[T]:
    return [play(fixture) for fixture in fixtures]


def _worker_version() -> str:
    from .. import __version__

    return __version__


def import_ray() -> Any:
    """The ``ray`` module; ``ExecutorError`` with the install line if it is missing."""
    try:
        import ray
    except ImportError:
        raise ExecutorError(RAY_MISSING) from None
    return ray


def ray_map(
    play: Callable[[Fixture], T], fixtures: Sequence[Fixture], executor: Executor
) -> Iterator[T]:
    """``play`` every fixture on Ray; the results in schedule order. Starts a local
    cluster if no address is given and Ray is not running in this process yet (and
    stops it when done). At most ``parallel`` chunks run at once (``--jobs``, else the
    cluster's CPUs), and finished chunks wait for the ones before them within a bounded
    window (``AHEAD``), so neither the cluster's queue nor this process's memory grows
    with the schedule."""
    ray = import_ray()
    started = connect(ray, executor)
    running: dict[Any, int] = {}  # object ref -> chunk number
    try:
        check_workers(ray)
        parallel = executor.jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = chunksize(len(fixtures), parallel)
        chunks = [fixtures[i : i + size] for i in range(0, len(fixtures), size)]
        task = ray.remote(num_cpus=1, max_retries=0)(_play_chunk)
        finished: dict[int, list[T]] = {}
        sent = given = 0
        while given < len(chunks):
            while (
                len(running) < parallel and sent < len(chunks) and sent - given < AHEAD * parallel
            ):
                running[task.remote(play, chunks[sent])] = sent
                sent += 1
            if given in finished:
                yield from finished.pop(given)
                given += 1
                continue
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                finished[running.pop(ref)] = ray.get(ref)
    finally:
        for ref in running:  # interrupted: stop what still runs
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


def connect(ray: Any, executor: Executor) -> bool:
    """Join the cluster at ``executor.address``, or start one here; whether this call
    started Ray in this process (and so should stop it)."""
    import logging

    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if executor.address is not None:
        reachable(executor.address)
        try:
            ray.init(address=executor.address, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as err:
            raise ExecutorError(
                f"cannot reach a Ray cluster at {executor.address!r}: {first_line(err)}"
            ) from None
        return True
    cpus = executor.jobs or os.cpu_count() or 1
    ray.init(num_cpus=cpus, include_dashboard=False, **quiet)
    return True


def reachable(address: str, timeout: float = 5.0) -> None:
    """Fail with one line unless something listens at a ``HOST:PORT`` address
    (``ray.init`` would wait for minutes); ``auto`` and ``ray://`` addresses pass."""
    if address == "auto" or "://" in address:
        return
    host, _, port = address.rpartition(":")
    if not host or not (port.isascii() and port.isdigit()):
        raise ExecutorError(f"--address is HOST:PORT (or 'auto'), not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout).close()
    except OSError as err:
        raise ExecutorError(
            f"cannot reach a Ray cluster at {address!r}: {err.strerror or err}"
        ) from None


def check_workers(ray: Any) -> None:
    """Fail with one line unless the cluster's workers run this version of tabletop
    (every node needs it installed: the games run there)."""
    from .. import __version__

    try:
        theirs = ray.get(ray.remote(num_cpus=0)(_worker_version).remote())
    except Exception as err:  # the worker could not import tabletop (RayTaskError)
        raise ExecutorError(
            f"the Ray workers cannot run tabletop ({first_line(err)}): install it on every "
            "node (docs/cluster.md)"
        ) from None
    if theirs != __version__:
        raise ExecutorError(
            f"the Ray workers run tabletop {theirs}, this is {__version__}: install the same "
            "version on every node"
        )


def first_line(err: BaseException) -> str:
    """An exception's message, one line (Ray's carry whole tracebacks)."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return lines[-1] if lines else type(err).__name__
