"""Test servers forked from an interpreter that has imported the server once.

A ``python -m tabletop.cli novaluna serve`` spends about 0.3 CPU-s importing the CLI,
the server and the games and reading the page's catalogues before it listens, and the
suite starts some 270 servers: about a minute of a 2-core machine's wall time. So each
test process keeps one *zygote*, a child interpreter that has done that work once, and
each server is forked from it: the fork runs ``tabletop.cli`` as ``__main__`` (as
``python -m`` does, ``runpy``), with the arguments, environment, working directory,
open-file limit and output file the test gave, in a session of its own. What it then
does is the command's own code; only the imports and the cached catalogues are shared.

A server whose environment differs from the zygote's where the imports read it
(``TABLETOP_*``, ``PYTHON*``: the games hosted, the password cost, the module path) is
started as a fresh process instead (``spawn`` returns None), as is every server where
the system lacks ``pidfd_open`` or ``TABLETOP_TEST_FRESH_SERVERS=1`` is set.

The zygote answers two requests, one JSON line each: ``spawn`` (the fork's pid) and
``status`` (its exit code, or null while it runs).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any, Protocol

#: set to 1, every server is started as a fresh process (to compare, or to rule forks out)
FRESH_SERVERS = "TABLETOP_TEST_FRESH_SERVERS"
#: the variables the zygote's imports read (or that change what is imported): a server
#: asked for with other values of them is not forked
IMPORT_VARIABLES = ("TABLETOP_", "PYTHON")
#: ... but for these, which the fork applies itself or Python reads when it uses them
#: (Ray's driver sets PYTHONBREAKPOINT in the test process)
FORK_APPLIES = {"PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE", "PYTHONBREAKPOINT"}


class ServerProc(Protocol):
    """What the tests use of a server's process: ``subprocess.Popen`` or ``Forked``."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


#: the environment the zygote starts with (``remember_environment``)
_base_environment: dict[str, str] | None = None


def remember_environment() -> None:
    """Make this process's environment, as the suite has set it up, the zygote's: not
    the one the first server is started in, which a test that hosts another game may
    have changed."""
    global _base_environment
    _base_environment = dict(os.environ)


def _import_environment(env: dict[str, str]) -> dict[str, str]:
    return {
        k: v for k, v in env.items() if k.startswith(IMPORT_VARIABLES) and k not in FORK_APPLIES
    }


class Zygote:
    """This test process's zygote (``zygote()``); thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._env = dict(os.environ) if _base_environment is None else _base_environment
        self._proc = subprocess.Popen(
            [sys.executable, __file__],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=self._env,
        )

    def spawn(
        self, argv: list[str], env: dict[str, str], log: Path, files: tuple[int, int] | None
    ) -> Forked | None:
        """``python -m tabletop.cli *argv`` forked, its output appended to ``log``; None
        where it must be started as a fresh process (see the module)."""
        if _import_environment(env) != _import_environment(self._env):
            return None
        request: dict[str, Any] = {"spawn": argv, "env": env, "cwd": os.getcwd()}
        request.update(log=str(log), files=files)
        with self._lock:
            answer = self._ask(request)
            if answer is None:
                return None
            pid = answer["pid"]
            # opened before the next request, the only time the zygote reaps it: the pid
            # cannot have been reused
            return Forked(self, pid, os.pidfd_open(pid))

    def status(self, pid: int) -> int | None:
        with self._lock:
            answer = self._ask({"status": pid})
        if answer is None:
            raise RuntimeError(f"the zygote of server {pid} has gone")
        code: int | None = answer["code"]
        return code

    def _ask(self, request: dict[str, Any]) -> dict[str, Any] | None:
        if self._proc.poll() is not None:
            return None
        assert self._proc.stdin is not None and self._proc.stdout is not None
        try:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
            line = self._proc.stdout.readline()
        except OSError:
            return None
        answer: dict[str, Any] | None = json.loads(line) if line else None
        return answer


class Forked:
    """A server forked by the zygote, with the part of ``subprocess.Popen`` the tests use.
    It is not this process's child: ``pidfd`` tells when it has ended, the zygote with
    what code."""

    def __init__(self, zygote: Zygote, pid: int, pidfd: int) -> None:
        self._zygote = zygote
        self._pid = pid
        self._pidfd = pidfd
        self._code: int | None = None

    @property
    def pid(self) -> int:
        return self._pid

    @property
    def returncode(self) -> int | None:
        return self._code

    def poll(self) -> int | None:
        return self._ended(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self._ended(timeout)
        if code is None:
            raise subprocess.TimeoutExpired(f"server {self._pid}", timeout or 0)
        return code

    def _ended(self, timeout: float | None) -> int | None:
        if self._code is None and select.select([self._pidfd], [], [], timeout)[0]:
            self._code = self._zygote.status(self._pid)
            os.close(self._pidfd)
        return self._code

    def __del__(self) -> None:
        if self._code is None:
            os.close(self._pidfd)


def launch(
    args: list[str], log: Path, env: dict[str, str], files: tuple[int, int] | None = None
) -> ServerProc:
    """``python -m tabletop.cli *args`` in a session of its own, its output appended to
    ``log``: forked from the zygote where it can be, else a fresh process."""
    forked = None
    found = zygote()
    if found is not None:
        forked = found.spawn(args, env, log, files)
    if forked is not None:
        return forked

    def limit_files() -> None:
        import resource

        assert files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, files)

    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "tabletop.cli", *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=None if files is None else limit_files,
            env=env,
        )


_zygote: Zygote | None = None
_zygote_lock = threading.Lock()


def zygote() -> Zygote | None:
    """This process's zygote, started on first use; None where forks cannot be watched
    or ``FRESH_SERVERS`` is set."""
    global _zygote
    if not hasattr(os, "pidfd_open") or os.environ.get(FRESH_SERVERS) == "1":
        return None
    with _zygote_lock:
        if _zygote is None:
            _zygote = Zygote()
        return _zygote


# --- the zygote's side ---------------------------------------------------------------


def _preload() -> None:
    """What every server imports and reads before it listens."""
    import uvicorn  # noqa: F401

    import tabletop.cli  # noqa: F401
    import tabletop.server.app  # noqa: F401
    import tabletop.server.main  # noqa: F401
    from tabletop.core.web import web_games
    from tabletop.i18n import LANGUAGES, catalogue

    web_games()  # imports every game and its page
    for lang in LANGUAGES:
        catalogue(lang)


def _serve(requests: IO[bytes], answers: IO[bytes]) -> None:
    """Answer requests until the test process closes the pipe; in a fork, return to run
    the server."""
    ended: dict[int, int] = {}
    for line in requests:
        request = json.loads(line)
        if "status" in request:
            pid = request["status"]
            if pid not in ended:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    ended[pid] = os.waitstatus_to_exitcode(status)
            answer: dict[str, Any] = {"code": ended.get(pid)}
        else:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                requests.close()
                answers.close()
                _become_server(request)
                return
            answer = {"pid": pid}
        answers.write(json.dumps(answer).encode() + b"\n")
        answers.flush()


def _become_server(request: dict[str, Any]) -> None:
    os.setsid()
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    if request["files"] is not None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, tuple(request["files"]))
    os.environ.clear()
    os.environ.update(request["env"])
    os.chdir(request["cwd"])
    sys.argv = ["-m", *request["spawn"]]
    sys.dont_write_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    if os.environ.get("PYTHONUNBUFFERED"):
        sys.stdout.reconfigure(write_through=True)  # type: ignore[union-attr]
        sys.stderr.reconfigure(write_through=True)  # type: ignore[union-attr]


def main() -> None:
    # the requests and answers on descriptors of their own: what the imports or a fork
    # print goes to stderr, not into an answer
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    _preload()
    _serve(requests, answers)
    if sys.argv[:1] == ["-m"]:  # a fork: the command, as ``python -m tabletop.cli`` runs it
        import runpy

        sys.modules.pop("tabletop.cli")  # it runs as __main__ only, as under ``-m``
        runpy.run_module("tabletop.cli", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
