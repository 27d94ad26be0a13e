"""Tournaments' routes (tournaments_api.py; docs/web.md, "Tournaments"): who may create,
read, join, withdraw, add bots and call off an event; every bad input a clear 4xx that
changes nothing; the caps (events per day, bots per event)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import client, register
from tabletop.server.tournaments import MAX_BOTS, PER_DAY

from clock_support import TEST_CLOCK
from server_support import ServerProcess

_SERIAL = itertools.count()
HOUR = 3600


def unique(prefix: str) -> str:
    return f"{prefix}{os.getpid() % 1000}x{next(_SERIAL)}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("tournaments")
    proc = ServerProcess(folder / "games.sqlite3", options=TEST_CLOCK).start()
    yield proc
    proc.stop()


def arena(**more: Any) -> dict[str, Any]:
    body = {"kind": "arena", "type": "nmbr9", "name": "Evening arena", "players": 2,
            "minutes": 30, "starts_in": HOUR}  # fmt: skip
    return {k: v for k, v in {**body, **more}.items() if v is not None}


def created(who: httpx.Client, **more: Any) -> str:
    made = who.post("/api/tournaments", json=arena(**more))
    assert made.status_code == 201, made.text
    assert made.json()["url"] == f"/t/{made.json()['id']}"
    return str(made.json()["id"])


def grant_moderator(server: ServerProcess, name: str) -> None:
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "moderator", "grant"]
    done = subprocess.run([*command, name, "--db", str(server.db)], capture_output=True,
                          text=True, env=os.environ.copy())  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_a_private_event_is_made_read_joined_and_left_by_its_link(server: ServerProcess) -> None:
    ann_name, bob_name = unique("Ann"), unique("Bob")
    ann, bob = register(server, ann_name), register(server, bob_name)
    event_id = created(ann, kind="swiss", rounds=3, minutes=None)  # no minutes: dropped below
    event = ann.get(f"/api/tournaments/{event_id}").json()
    assert (event["kind"], event["rounds"], event["status"], event["creator"]) == (
        "swiss", 3, "upcoming", ann_name)  # fmt: skip
    assert event["can_manage"] and event["can_join"] and event["me"] is None
    assert event["time_control"]["clock_base"] == 300 and event["rated"] is True
    assert 0 < event["starts"] - event["now"] <= HOUR
    # private: not listed to strangers, listed to its creator
    assert event_id not in ids(client(server).get("/api/tournaments").json()["upcoming"])
    assert event_id in ids(ann.get("/api/tournaments").json()["upcoming"])
    joined = bob.post(f"/api/tournaments/{event_id}/join", json={})
    assert joined.status_code == 200, joined.text
    assert joined.json()["me"] == {"entrant": 1, "playing": None, "withdrawn": False}
    assert [s["name"] for s in joined.json()["standings"]] == [bob_name]
    assert event_id in ids(bob.get("/api/tournaments").json()["upcoming"])  # joined: listed
    again = bob.post(f"/api/tournaments/{event_id}/join")
    assert again.status_code == 409
    assert not bob.get(f"/api/tournaments/{event_id}").json()["can_manage"]
    left = bob.post(f"/api/tournaments/{event_id}/withdraw", json={})
    assert left.status_code == 200 and left.json()["me"] is None  # before the start: gone
    assert left.json()["entrants"] == 0
    assert bob.post(f"/api/tournaments/{event_id}/withdraw").status_code == 409


def ids(events: list[dict[str, Any]]) -> list[str]:
    return [e["id"] for e in events]


BAD_EVENTS = [
    ("not an object", ["arena"]),
    ("kind", {"kind": "knockout"}),
    ("type", {"type": "chess"}),
    ("empty name", {"name": "  "}),
    ("long name", {"name": "x" * 61}),
    ("bidi name", {"name": "evil\u202eevent"}),
    ("control name", {"name": "a\x07b"}),
    ("players", {"players": 9}),
    ("players as text", {"players": "2"}),
    ("minutes", {"minutes": 5}),
    ("rounds in an arena", {"rounds": 3}),
    ("start too late", {"starts_in": 8 * 24 * HOUR}),
    ("start in the past", {"starts": 1000}),
    ("both starts", {"starts": 1e12, "starts_in": 5}),
    ("clock", {"clock_base": 5}),
    ("rated", {"rated": "yes"}),
    ("unknown field", {"prize": 100}),
    ("visibility", {"visibility": "secret"}),
]


@pytest.mark.parametrize(("why", "change"), BAD_EVENTS, ids=[b[0] for b in BAD_EVENTS])
def test_a_bad_event_is_a_clear_400_and_makes_nothing(
    server: ServerProcess, why: str, change: Any
) -> None:
    who = register(server, unique("Bad"))
    body = change if isinstance(change, list) else arena(**change)
    answer = who.post("/api/tournaments", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]
    assert who.get("/api/tournaments").json()["upcoming"] == []


def test_who_may_do_what(server: ServerProcess) -> None:
    assert client(server).post("/api/tournaments", json=arena()).status_code == 401
    org, other = register(server, unique("Org")), register(server, unique("Oth"))
    public = org.post("/api/tournaments", json=arena(visibility="public"))
    assert public.status_code == 403
    assert org.post("/api/tournaments", json=arena(recurring="daily")).status_code == 403
    event_id = created(org)
    assert client(server).get(f"/api/tournaments/{event_id}").status_code == 200
    assert client(server).post(f"/api/tournaments/{event_id}/join").status_code == 401
    assert (
        other.post(f"/api/tournaments/{event_id}/bots", json={"bot": "greedy"}).status_code == 403
    )
    assert other.post(f"/api/tournaments/{event_id}/cancel").status_code == 403
    assert org.get("/api/tournaments/nope").status_code == 404
    assert org.get(f"/api/tournaments/{event_id}/entrants/1/games").status_code == 404
    assert org.get(f"/api/tournaments/{event_id}/entrants/x/games").status_code == 404
    bad_bot = org.post(f"/api/tournaments/{event_id}/bots", json={"bot": "mcts:easy"})
    assert bad_bot.status_code == 400 and "greedy" in bad_bot.json()["error"]
    assert org.post(f"/api/tournaments/{event_id}/join", json=[1]).status_code == 400
    cancelled = org.post(f"/api/tournaments/{event_id}/cancel")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert other.post(f"/api/tournaments/{event_id}/join").status_code == 409
    assert org.post(f"/api/tournaments/{event_id}/cancel").status_code == 409


def test_a_moderator_makes_public_recurring_events_listed_to_everyone(
    server: ServerProcess,
) -> None:
    name = unique("Mod")
    mod = register(server, name)
    grant_moderator(server, name)
    event_id = created(mod, visibility="public", recurring="daily", name="Daily NMBR 9")
    listed = client(server).get("/api/tournaments").json()
    shown = next(e for e in listed["upcoming"] if e["id"] == event_id)
    assert (shown["recurring"], shown["visibility"], shown["creator"]) == ("daily", "public", name)
    # a moderator manages anyone's event
    someone = register(server, unique("Some"))
    theirs = created(someone)
    assert mod.post(f"/api/tournaments/{theirs}/bots", json={"bot": "random"}).status_code == 200


def test_caps_on_events_per_day_and_bots_per_event(server: ServerProcess) -> None:
    org = register(server, unique("Cap"))
    made = [created(org) for _ in range(PER_DAY)]
    too_many = org.post("/api/tournaments", json=arena())
    assert too_many.status_code == 429
    event_id = made[0]
    names = []
    for _ in range(MAX_BOTS):
        added = org.post(f"/api/tournaments/{event_id}/bots", json={"bot": "greedy"})
        assert added.status_code == 200, added.text
        names = [s["name"] for s in added.json()["standings"]]
    assert len(set(names)) == MAX_BOTS  # "Greedy", "Greedy 2", ...
    refused = org.post(f"/api/tournaments/{event_id}/bots", json={"bot": "random"})
    assert refused.status_code == 409
    event = org.get(f"/api/tournaments/{event_id}").json()
    assert event["entrants"] == MAX_BOTS
    assert {s["kind"] for s in event["standings"]} == {"bot"}
