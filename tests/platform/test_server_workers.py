"""Bot workers die with the server, however it dies: none keeps computing after a crash."""

from __future__ import annotations

import contextlib
import os
import signal
import time

from server_support import Api, ServerProcess

#: At the iteration cap, and with no time cap of its own: it searches for the
#: server's --bot-max-seconds (30 s here), far longer than the test waits.
LONG_SEARCH = {"kind": "bot", "bot": "mcts:20000"}


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of a process, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name in (...) may hold spaces
    return int(fields[1]), fields[0], int(fields[19])


def _descendants(root: int) -> dict[int, tuple[str, int]]:
    """Every process below ``root``: pid -> (state, start time)."""
    stats = {int(e): _stat(int(e)) for e in os.listdir("/proc") if e.isdigit()}
    found: dict[int, tuple[str, int]] = {}
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, stat in stats.items():
            if stat is not None and stat[0] == parent:
                found[pid] = stat[1:]
                todo.append(pid)
    return found


def _running(pids: dict[int, tuple[str, int]]) -> list[int]:
    """Those of ``pids`` still alive (a zombie is dead; a new process on the pid is not it)."""
    alive = []
    for pid, (_, started) in pids.items():
        stat = _stat(pid)
        if stat is not None and stat[2] == started and stat[1] not in "ZX":
            alive.append(pid)
    return alive


def test_no_worker_outlives_a_killed_server(tmp_path) -> None:
    server = ServerProcess(
        tmp_path / "games.sqlite3", workers=1, options=("--bot-max-seconds", "30")
    ).start()
    assert server.proc is not None
    api = Api(server)
    below: dict[int, tuple[str, int]] = {}
    try:
        api.create([LONG_SEARCH, LONG_SEARCH])
        deadline = time.monotonic() + 30
        while not any(state == "R" for state, _ in below.values()):  # a worker searches
            assert time.monotonic() < deadline, f"no busy worker among {below}"
            time.sleep(0.05)
            below = _descendants(server.proc.pid)
        below = _descendants(server.proc.pid)  # both lanes, the forkserver, the tracker

        os.kill(server.proc.pid, signal.SIGKILL)  # the server only, as a crash would
        server.proc.wait()
        deadline = time.monotonic() + 60  # only bounds a hang: they go as soon as they see it
        while _running(below) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(below), f"outlived the server: {_running(below)} of {below}"
    finally:
        api.http.close()
        for pid in _running(below):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        server.stop()
