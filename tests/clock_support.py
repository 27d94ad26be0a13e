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

import httpx

from server_support import ServerProcess

TEST_CLOCK = ("--test-clock",)
HOUR = 3600
DAY = 24 * HOUR


def advance_clock(server: ServerProcess, seconds: float) -> str:
    """Move ``server``'s clock on by ``seconds``; its new time (ISO). A restarted
    server starts again from real time: move it on after the restart."""
    r = httpx.post(f"{server.url}/api/test/clock", json={"seconds": seconds}, timeout=30)
    assert r.status_code == 200, r.text
    return str(r.json()["now"])
