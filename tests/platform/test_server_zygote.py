"""The zygote the test servers are forked from (tests/server_zygote.py): a fork runs the
command as ``python -m tabletop.cli`` would, and tells how it ended; a server whose
environment changes what the imports read starts as a fresh process."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from server_support import ServerProcess
from server_zygote import FRESH_SERVERS, Forked, launch, zygote

pytestmark = pytest.mark.skipif(
    zygote() is None, reason=f"no pidfd_open here, or {FRESH_SERVERS}=1: nothing is forked"
)


def test_a_forked_command_writes_to_its_log_and_reports_its_exit_code(tmp_path: Path) -> None:
    log = tmp_path / "out.log"
    usage = launch(["no-such-game"], log, dict(os.environ))
    assert isinstance(usage, Forked)
    assert usage.wait(60) == 2 and usage.returncode == 2 and usage.poll() == 2
    assert "usage: python -m tabletop.cli {" in log.read_text()
    listed = launch(["nmbr9", "--help"], log, dict(os.environ))
    assert listed.wait(60) == 0
    assert "solo-bench" in log.read_text()  # appended to what the first one wrote


def test_a_forked_server_runs_in_a_session_of_its_own_until_it_is_stopped(
    tmp_path: Path,
) -> None:
    server = ServerProcess(tmp_path / "games.sqlite3").start()
    try:
        assert isinstance(server.proc, Forked)
        assert os.getsid(server.pid) == server.pid
        assert server.proc.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            server.proc.wait(0.01)
    finally:
        server.stop()
    assert server.proc.returncode is not None
    assert "Nova Luna and NMBR 9: http://localhost:" in server.log.read_text()


def test_a_killed_fork_reports_its_signal(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "games.sqlite3").start()
    os.kill(server.pid, signal.SIGKILL)
    assert server.proc is not None and server.proc.wait(60) == -signal.SIGKILL
    server.stop()


@pytest.mark.parametrize(
    "change",
    [
        {"TABLETOP_GAMES": ""},  # read when the games are registered
        {"TABLETOP_INSECURE_FAST_HASHES": "0"},  # read when accounts.py is imported
        {"PYTHONPATH": "/nowhere"},  # where the imports came from
    ],
)
def test_an_environment_the_imports_read_differently_starts_a_fresh_process(
    tmp_path: Path, change: dict[str, str]
) -> None:
    started = launch(["no-such-game"], tmp_path / "out.log", {**os.environ, **change})
    assert isinstance(started, subprocess.Popen)
    assert started.wait(60) == 2


def test_a_variable_the_fork_applies_itself_is_still_forked(tmp_path: Path) -> None:
    log = tmp_path / "out.log"
    started = launch(["no-such-game"], log, {**os.environ, "PYTHONUNBUFFERED": "1"})
    assert isinstance(started, Forked) and started.wait(60) == 2
