"""Issue 47's "Done when", end to end: an arena and a Swiss in each game (NMBR 9 and
Nova Luna), run at once on one server, each with a person in Chromium, the example
bot-API client (examples/bot_client.py --tournament, a separate process) and two of
our bots (added by the organiser) among its entrants.

Each person joins on the event page with its Join button; at the start (the test moves
the server's clock, ``--test-clock``) the page sends them to their game, where they
make a real move with the page's own controls and then let their clock run out (the
clock moved on again). The arena pairs them again, the Swiss starts its second round,
and each page goes on to that game by itself; the last move of the clock ends the
arena and times out the second games. Every event ends (``finished``) with standings
equal to a recomputation from the stored games' records (tests/tournament_support.py).
The tests wait for what the server and the pages do; deadlines only bound a hang.
Screenshot: test-output/screenshots/tournament-e2e-finished.jpg."""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import PASSWORD, register, unique
from tournament_support import add_bots, create, event, finished, recomputed, shown_standings

from browser_support import (
    REPO,
    SIZES,
    checked_page,
    play_one_turn,
    register_on_page,
    shot,
    wait_for_my_turn_or_end,
)
from clock_support import HOUR, TEST_CLOCK, advance_clock, until_a_person_acts
from nmbr9_pages import confirm_by_hand, wait_for_placing_or_end
from server_support import ServerProcess

sync_api = pytest.importorskip("playwright.sync_api")
GAME_URL = re.compile(r".*/g/([A-Za-z0-9_-]+)$")
#: past a game's whole clock (the events' default: 5 min + 5 s) but not an arena's end
TIME_OUT = 400
#: past the arena's end (10 minutes after the start), and past a second game's clock
ARENA_OVER = 600
EVENTS = [
    ("nmbr9", "arena", {"minutes": 10}),
    ("nmbr9", "swiss", {"rounds": 2}),
    ("nova-luna", "arena", {"minutes": 10}),
    ("nova-luna", "swiss", {"rounds": 2}),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("tournament-e2e")
    options = (*TEST_CLOCK, "--bot-max-iterations", "20")  # tiny bot budgets
    proc = ServerProcess(folder / "games.sqlite3", options=options).start()
    yield proc
    proc.stop()


@dataclass
class Entry:
    """One event, with its person's page and its bot client."""

    game: str
    event_id: str
    page: Any
    client: subprocess.Popen[bytes]
    log: Path
    first_game: str = ""
    second_game: str = ""


def bot_account(server: ServerProcess) -> tuple[str, str]:
    """A new bot account's name and a play token of it."""
    name = unique("Agent")
    owner = register(server, name)
    assert owner.post("/api/account/bot", json={"password": PASSWORD}).status_code == 200
    made = owner.post("/api/account/tokens", json={"name": "e2e", "scopes": ["play", "read"]})
    assert made.status_code == 201, made.text
    return name, str(made.json()["token"])


def launch(server: ServerProcess, token: str, event_id: str, log: Path) -> subprocess.Popen[bytes]:
    """The example client, entering ``event_id`` and playing its games (a process)."""
    command = [sys.executable, str(REPO / "examples" / "bot_client.py"), "--server", server.url]
    command += ["--token", token, "--bot", "random", "--tournament", event_id]
    with log.open("wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)


def until(what: Any, entries: list[Entry], hang: float = 120) -> Any:
    """``what()`` once truthy; fails at once, with its log, if a client failed."""
    deadline = time.monotonic() + hang
    while not (found := what()):
        for entry in entries:
            if entry.client.poll() not in (None, 0):
                raise AssertionError(f"a bot client failed: {entry.log.read_text()[-3000:]}")
        assert time.monotonic() < deadline, "the server never got there"
        time.sleep(0.1)
    return found


def join_on_the_page(page: Any, server: ServerProcess, event_id: str) -> None:
    page.goto(f"{server.url}/t/{event_id}")
    page.get_by_test_id("tournament-join").click()
    page.get_by_test_id("tournament-withdraw").wait_for()


def sent_to_a_game(page: Any, other_than: str = "") -> str:
    """The id of the game the page went to by itself (not ``other_than``)."""
    page.wait_for_url(lambda url: bool(GAME_URL.match(url)) and not url.endswith(f"/{other_than}"))
    found = GAME_URL.match(page.url)
    assert found is not None
    return found.group(1)


def move_on_the_page(page: Any, game: str) -> None:
    """One real move by the page's own controls: NMBR 9's Confirm on the tile where it
    begins (a legal spot), Nova Luna's first takeable tile on its first legal cell."""
    if game == "nmbr9":
        assert wait_for_placing_or_end(page), "the game ended before the person's turn"
        confirm_by_hand(page, "desktop")
    else:
        assert wait_for_my_turn_or_end(page), "the game ended before the person's turn"
        play_one_turn(page)


def person_to_act(server: ServerProcess, game_id: str, name: str) -> None:
    """Wait until ``name``'s seat is to act (their clock runs), so that moving the clock
    on times them out; a move the opponent made as the clock jumped would otherwise
    still be in time and start the person's clock afresh after the jump."""
    state = httpx.get(f"{server.url}/api/games/{game_id}", timeout=30).json()
    seat = next(n for n, s in enumerate(state["game"]["seats"]) if s["name"] == name)
    until_a_person_acts(server.url, game_id, {seat})


def check_the_end(
    server: ServerProcess, org: httpx.Client, entry: Entry, person: str, agent: str
) -> None:
    """The event finished with standings recomputed from its stored games; the
    person played both games the page took them to, the agent and our bots played."""
    done = finished(org, entry.event_id)
    assert shown_standings(done) == recomputed(server, org, done)
    lines = {s["name"]: s for s in done["standings"]}
    assert lines[person]["kind"] == "human" and lines[person]["games"] >= 2
    path = f"/api/tournaments/{entry.event_id}/entrants/{lines[person]['entrant']}/games"
    assert {entry.first_game, entry.second_game} <= {g["id"] for g in org.get(path).json()["games"]}
    assert lines[agent]["kind"] == "bot_account" and lines[agent]["games"] >= 1
    assert [s["kind"] for s in done["standings"]].count("bot") == 2
    if done["kind"] == "swiss":
        assert done["round"] == 2 and lines[person]["games"] == 2


def test_an_arena_and_a_swiss_in_each_game_run_to_their_end_with_people_agents_and_bots(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    org = register(server, unique("Org"))
    with contextlib.ExitStack() as stack:
        entries: list[Entry] = []
        agents: list[str] = []
        people: list[str] = []
        for number, (game, kind, more) in enumerate(EVENTS):
            event_id = create(org, kind=kind, type=game, players=2, **more)
            add_bots(org, event_id, ["random", "greedy"])  # with two entrants: 4, no bye
            page = stack.enter_context(checked_page(browser, **SIZES["desktop"]))
            people.append(unique(f"P{number}"))
            register_on_page(page, server.url, people[-1])
            join_on_the_page(page, server, event_id)
            name, token = bot_account(server)
            agents.append(name)
            log = tmp_path / f"client-{number}.log"
            client = launch(server, token, event_id, log)
            stack.callback(stop, client)
            entries.append(Entry(game, event_id, page, client, log))

        def all_entered() -> bool:  # each client entered, its event stream open
            online = str(httpx.get(f"{server.url}/api/bots", timeout=30).json())
            return all(
                name in str(event(org, e.event_id)["standings"]) and name in online
                for name, e in zip(agents, entries, strict=True)
            )

        until(all_entered, entries)
        advance_clock(server, HOUR + 1)  # all four start
        for entry in entries:
            entry.first_game = sent_to_a_game(entry.page)
            move_on_the_page(entry.page, entry.game)
        for entry, person in zip(entries, people, strict=True):
            person_to_act(server, entry.first_game, person)
        advance_clock(server, TIME_OUT)  # the people's first games: out of time
        for entry in entries:  # the arena's next pairing, the Swiss's second round
            entry.second_game = sent_to_a_game(entry.page, other_than=entry.first_game)
        for entry, person in zip(entries, people, strict=True):
            person_to_act(server, entry.second_game, person)
        advance_clock(server, ARENA_OVER)  # the arenas' end; the second games time out

        for entry, person, agent in zip(entries, people, agents, strict=True):
            check_the_end(server, org, entry, person, agent)
            assert until(lambda e=entry: e.client.poll() is not None, entries) is not None
            assert entry.client.returncode == 0, entry.log.read_text()[-3000:]
        page = entries[0].page
        page.goto(f"{server.url}/t/{entries[0].event_id}")
        page.get_by_test_id("standing-4").wait_for()
        shot(page, "tournament-e2e-finished")


def stop(client: subprocess.Popen[bytes]) -> None:
    if client.poll() is None:
        client.kill()
        client.wait()
