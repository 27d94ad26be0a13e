"""A real ``novaluna serve`` process for tests, and small clients for its API."""

from __future__ import annotations

import fcntl
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from server_zygote import ServerProc, launch

# The test servers' ports. The suite runs in several processes (pytest-xdist), and other
# runs may share the machine: a port is taken only after a lock on its file in PORT_LOCKS
# (released by the system when the process ends, even by a crash), so no two processes
# pick the same one in the time between the pick and the server's bind. A process keeps
# its last HELD_PORTS locks: long after the bind, a listening port is refused by the bind
# check anyway. The range lies below the kernel's ephemeral ports, which clients'
# connections take.
PORT_LOCKS = Path(tempfile.gettempdir()) / "tabletop-test-ports"
PORTS = range(20000, 32000)
HELD_PORTS = 64
_held: dict[int, int] = {}  # port: the descriptor of its locked file, oldest first


def free_port() -> int:
    """A free port of 127.0.0.1 that no other process of this machine's test runs picks."""
    PORT_LOCKS.mkdir(mode=0o777, exist_ok=True)
    for _ in range(1000):
        port = random.choice(PORTS)
        if port not in _held and _lock(port) and _bindable(port):
            return port
    raise RuntimeError(f"no free port among {PORTS} (locks in {PORT_LOCKS})")


def _lock(port: int) -> bool:
    """Whether this process now holds the lock of ``port`` (kept until it exits)."""
    fd = os.open(PORT_LOCKS / str(port), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _held[port] = fd
    if len(_held) > HELD_PORTS:
        os.close(_held.pop(next(iter(_held))))  # closing it releases the lock
    return True


def _bindable(port: int) -> bool:
    """Whether nothing listens on ``port`` (nor holds it: a process outside the tests)."""
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class ServerProcess:
    """``novaluna serve`` on a free port and the given database, in a subprocess."""

    def __init__(
        self,
        db: Path | str,
        *,
        bot_pause: float = 0.0,
        workers: int = 1,
        rates: bool = False,
        options: tuple[str, ...] = (),
        log: Path | None = None,
        files: tuple[int, int] | None = None,
        env: dict[str, str | None] | None = None,
    ) -> None:
        self.db = db  # a SQLite file or a PostgreSQL URL (then ``log`` is needed)
        self.files = files  # its RLIMIT_NOFILE (soft, hard); None: this process's
        self.options = options  # more ``serve`` options, e.g. ("--bot-max-seconds", "30")
        self.env = env or {}  # changes to this process's environment (None: unset)
        self.rates = rates  # False: limits far above what any test sends
        self.port = free_port()
        self.bot_pause = bot_pause
        self.workers = workers
        self.proc: ServerProc | None = None
        if log is None and isinstance(db, str):
            raise ValueError("a server on a PostgreSQL URL needs log=PATH for its output")
        self.log = log or Path(db).with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The server's process id (the one its leases name)."""
        assert self.proc is not None
        return self.proc.pid

    def start(self) -> ServerProcess:
        args = ["novaluna", "serve", "--port", str(self.port), "--db", str(self.db)]
        args += ["--bot-pause", str(self.bot_pause), "--bot-workers", str(self.workers)]
        if not self.rates:
            for name in ("creates", "actions", "hints", "messages", "logins", "replays"):
                args += [f"--rate-{name}", "1000000"]
        args += self.options
        # a session of its own (either way), so that kill() can take the bot workers down too
        self.proc = launch(args, self.log, self._environment(), self.files)
        # generous: on a machine loaded twentyfold a server took over 8 s to answer
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/types", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start:\n{self.log.read_text()}")

    def _environment(self) -> dict[str, str]:
        environment = dict(os.environ)
        for name, value in self.env.items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        return environment

    def query_one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        """One row of ``sql`` (``?`` placeholders) run on the server's database."""
        if isinstance(self.db, str) and self.db.startswith("postgresql://"):
            import psycopg

            with psycopg.connect(self.db) as db:
                return db.execute(sql.replace("?", "%s"), args).fetchone()
        with closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)) as db:
            row: tuple[Any, ...] | None = db.execute(sql, args).fetchone()  # a row of any columns
            return row

    def kill9(self) -> None:
        """Kill the server and its workers at once, as a crash would."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def new_db(storage: str, request: Any, folder: Path, name: str = "games.sqlite3") -> str | Path:
    """A new empty database of the kind ``storage``: a file in ``folder``, or a URL
    on the session's PostgreSQL cluster (``request``: a pytest fixture request)."""
    if storage == "sqlite":
        return folder / name
    url: str = request.getfixturevalue("pg_cluster").database()
    return url


class Api:
    """A thin HTTP client for one server."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.seen: list[str] = []  # every response body, for secrecy checks

    def request(
        self, method: str, path: str, token: str | None = None, **kw: Any
    ) -> httpx.Response:
        headers = kw.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response = self.http.request(method, path, headers=headers, **kw)
        self.seen.append(response.text)
        return response

    def create(self, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
        response = self.request("POST", "/api/games", json={"seats": seats, **extra})
        assert response.status_code == 201, response.text
        game: dict[str, Any] = response.json()
        return game

    def state(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        response = self.request("GET", f"/api/games/{game_id}", token)
        assert response.status_code == 200, response.text
        state: dict[str, Any] = response.json()
        return state

    def act(self, game_id: str, token: str, action: str, ply: int) -> httpx.Response:
        return self.request(
            "POST", f"/api/games/{game_id}/actions", token, json={"action": action, "ply": ply}
        )

    def wait(
        self, game_id: str, token: str | None, until: Any, timeout: float = 60
    ) -> dict[str, Any]:
        """Poll the state until ``until(state)`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.state(game_id, token)
            if until(state):
                return state
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting; last state: ply {state['ply']}")
            time.sleep(0.05)


def open_socket(server: ServerProcess, game_id: str, tokens: list[str]) -> ClientConnection:
    # Entered like a context manager (callers close it), as websockets asks.
    ws = connect(f"{server.ws_url}/api/games/{game_id}/ws", open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "tokens": tokens}))
    return ws


def receive(ws: ClientConnection, until: Any, timeout: float = 30) -> dict[str, Any]:
    """Read messages until one satisfies ``until``; return it."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError("no matching WebSocket message arrived")
        message: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if until(message):
            return message


def assert_strangers_are_refused(
    api: Api, server: ServerProcess, game_id: str, posts: list[tuple[str, Any]], act: str
) -> None:
    """Without a seat link each POST (``(verb, body)``) gets 401 and with a forged one 403;
    a spectator's undo and act (``act``) over the WebSocket get an error with status 401."""
    base = f"/api/games/{game_id}"
    for verb, body in posts:
        assert api.request("POST", f"{base}/{verb}", json=body).status_code == 401
        assert api.request("POST", f"{base}/{verb}", "forged", json=body).status_code == 403
    spectator = open_socket(server, game_id, [])
    receive(spectator, lambda m: m["type"] == "state")
    for message in ({"type": "undo", "ply": 0}, {"type": "act", "action": act, "ply": 0}):
        spectator.send(json.dumps(message))
        assert receive(spectator, lambda m: m["type"] == "error")["status"] == 401
    spectator.close()
