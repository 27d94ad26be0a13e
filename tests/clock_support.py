"""The server's clock, moved on by a test (``serve --test-clock``; docs/web.md, "The
server's clock in tests").

A test of anything that happens at a time (a move's time limit, a session's expiry,
an open seat's wait) starts its server with ``options=TEST_CLOCK``, moves the clock
past that time with ``advance_clock`` and then waits for what the server does (a
WebSocket message, a state, a row), never for wall time: on a loaded machine it
passes the same, and at once. Time keeps flowing too, so choose times far longer
than a test could take (an hour, a day): only the moves of the clock reach them.
"""

from __future__ import annotations

import time
from typing import Any

import httpx

from server_support import ServerProcess

TEST_CLOCK = ("--test-clock",)
HOUR = 3600
DAY = 24 * HOUR


def advance_clock(server: ServerProcess | str, seconds: float) -> str:
    """Move the clock of ``server`` (or of the server at a base URL) on by ``seconds``;
    its new time (ISO). A restarted server starts again from real time: move it on
    after the restart."""
    base = server if isinstance(server, str) else server.url
    r = httpx.post(f"{base}/api/test/clock", json={"seconds": seconds}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["now"])


def until_a_person_acts(base: str, game_id: str, people: set[int]) -> dict[str, Any]:
    """The game's state once one of the seats ``people`` is to act: a move's time runs
    out for people only (bots never wait), so a test moves the clock on after this.
    The deadline only bounds a hang."""
    deadline = time.monotonic() + 60
    while True:
        state: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}", timeout=30).json()
        if people & set(state["active"]):
            return state
        assert time.monotonic() < deadline, f"no person's turn came: {state['active']}"
        time.sleep(0.05)
