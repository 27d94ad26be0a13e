"""A throw-away PostgreSQL cluster for the tests: Debian's binaries, run as an
unprivileged user in a temporary directory, reached only through a unix socket in
that directory, so no system service or port is touched."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")
USER = "nobody"  # PostgreSQL refuses to run as root


def available() -> bool:
    return (PG_BIN / "initdb").exists() and (os.geteuid() != 0 or bool(shutil.which("runuser")))


class PgCluster:
    """``start()`` makes and starts a cluster; ``database()`` a new empty database's URL."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="tt-pg-"))  # short: a socket path's limit
        self.data = self.dir / "data"
        self._names = itertools.count()

    def _run(self, *command: str) -> None:
        as_user = ["runuser", "-u", USER, "--"] if os.geteuid() == 0 else []
        # cwd: the unprivileged user may not be allowed into the caller's folder
        done = subprocess.run([*as_user, *command], capture_output=True, text=True, cwd=self.dir)
        if done.returncode:
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}{done.stderr}")

    def start(self) -> PgCluster:
        if os.geteuid() == 0:
            shutil.chown(self.dir, USER)
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")  # fmt: skip
        return self.up()

    def up(self) -> PgCluster:
        # fsync off: the tests stop PostgreSQL cleanly (which writes everything) and
        # never crash the machine; it saves every commit a wait for the shared disk
        options = f"-k {self.dir} -c listen_addresses= -c fsync=off -c max_connections=200"
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"),
                  "-w", "-o", options, "start")  # fmt: skip
        return self

    def down(self) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.dir}"

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self.down()
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
