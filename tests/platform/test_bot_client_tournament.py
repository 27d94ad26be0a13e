"""The example bot client (examples/bot_client.py --tournament) as one entrant of an
event among our bots (issue 47): a separate process on a real server, it enters a
two-round Swiss of Nova Luna before the start (the test clock starts it), plays each
game of it that its event stream announces, and stops by itself once the event is
finished; its standing is the points of its stored games."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import PASSWORD, unique
from tabletop.tournaments import points

from browser_support import REPO
from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("botclient-event")
    proc = ServerProcess(folder / "games.sqlite3", options=TEST_CLOCK).start()
    yield proc
    proc.stop()


def account(server: ServerProcess, name: str) -> httpx.Client:
    page = httpx.Client(base_url=server.url, timeout=30)
    made = page.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    return page


def bot_token(server: ServerProcess, name: str) -> str:
    page = account(server, name)
    assert page.post("/api/account/bot", json={"password": PASSWORD}).status_code == 200
    made = page.post("/api/account/tokens", json={"name": "test"})
    assert made.status_code == 201, made.text
    return str(made.json()["token"])


def wait_until(what: str, check: Any, client: subprocess.Popen[bytes], log: Path) -> Any:
    """``check()``'s answer once it is true (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 300
    while not (found := check()):
        if client.poll() is not None and client.returncode != 0:
            raise AssertionError(f"the client failed: {log.read_text()[-3000:]}")
        assert time.monotonic() < deadline, f"{what}: {log.read_text()[-3000:]}"
        time.sleep(0.2)
    return found


def test_the_example_client_plays_a_swiss_among_our_bots_to_its_end(
    server: ServerProcess, tmp_path: Path
) -> None:
    organiser = account(server, unique("Org"))
    body = {"kind": "swiss", "type": "nova-luna", "name": "Agents' Swiss", "players": 2,
            "rounds": 2, "starts_in": HOUR}  # fmt: skip
    made = organiser.post("/api/tournaments", json=body)
    assert made.status_code == 201, made.text
    event_id = made.json()["id"]
    for bot in ("random", "random", "greedy"):  # with the client: four, so no bye
        added = organiser.post(f"/api/tournaments/{event_id}/bots", json={"bot": bot})
        assert added.status_code == 200, added.text

    name = unique("Agent")
    token = bot_token(server, name)
    log = tmp_path / "client.log"
    command = [sys.executable, str(REPO / "examples" / "bot_client.py"), "--server", server.url]
    command += ["--token", token, "--bot", "random", "--tournament", event_id]
    with log.open("wb") as out:
        client = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:

        def event() -> dict[str, Any]:
            answer: dict[str, Any] = organiser.get(f"/api/tournaments/{event_id}").json()
            return answer

        def online() -> bool:
            bots = httpx.get(f"{server.url}/api/bots").json()
            return name in str(bots)

        # it entered, and its event stream is open: it will be paired at the start
        wait_until(
            "the client never entered", lambda: name in str(event()["standings"]), client, log
        )
        wait_until("the client never came online", online, client, log)
        advance_clock(server, HOUR)
        assert client.wait(300) == 0, log.read_text()[-3000:]  # it stopped by itself
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()

    final = event()
    assert final["status"] == "finished", final
    (mine,) = [s for s in final["standings"] if s["name"] == name]
    assert mine["kind"] == "bot_account" and mine["games"] == 2
    games = organiser.get(f"/api/tournaments/{event_id}/entrants/{mine['entrant']}/games")
    refs = games.json()["games"]
    assert len(refs) == 2 and {g["round"] for g in refs} == {1, 2}
    earned = 0
    for ref in refs:  # the standing is a recomputation from the stored games
        stored = organiser.get(f"/api/games/{ref['id']}").json()
        assert stored["over"], stored
        seat = ref["entrants"].index(mine["entrant"])
        earned += points(tuple(ref["ranks"]))[seat]
    assert mine["points"] == earned
    assert f"entered Agents' Swiss ({event_id})" in log.read_text()
