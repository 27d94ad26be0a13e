"""Tournaments' routes (tournaments_api.py; docs/web.md, "Tournaments"): who may create,
read, join, withdraw, add bots and call off an event; every bad input a clear 4xx that
changes nothing; the caps (events per day, bots per event)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import PASSWORD, client, register
from tabletop.server.pgstore import migrate
from tabletop.server.storage import GameStore, Seat, open_store
from tabletop.server.tournament_writes import (
    ALREADY,
    FULL,
    JOINED,
    TOO_MANY_BOTS,
    CreateTournament,
    JoinTournament,
    NewTournament,
    Pair,
    SetStatus,
    Table,
)
from tabletop.server.tournaments import MAX_BOTS, PER_DAY, event_id
from tabletop.server.writes import AppendAction, Block, CreateAccount, CreateGame

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
    ("invisible name", {"name": "a\u200bb"}),
    ("private-use name", {"name": "a\ue000b"}),
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


def test_a_bot_account_joins_by_its_play_token_and_not_by_a_read_token(
    server: ServerProcess,
) -> None:
    page = register(server, unique("Robo"))
    assert page.post("/api/account/bot", json={"password": PASSWORD}).status_code == 200
    tokens = {}
    for scope in ("play", "read"):
        made = page.post("/api/account/tokens", json={"name": scope, "scopes": [scope]})
        tokens[scope] = {"Authorization": f"Bearer {made.json()['token']}"}
    event_id = created(register(server, unique("Org")))
    reader = client(server).post(f"/api/tournaments/{event_id}/join", headers=tokens["read"])
    assert reader.status_code == 403
    joined = client(server).post(f"/api/tournaments/{event_id}/join", headers=tokens["play"])
    assert joined.status_code == 200, joined.text
    assert joined.json()["standings"][0]["kind"] == "bot_account"


def test_joins_and_withdrawals_are_rate_limited_and_a_refusal_changes_nothing(
    server: ServerProcess,
) -> None:
    who = register(server, unique("Fast"))
    event_id = created(register(server, unique("Org")))
    answers = []
    for _ in range(30):
        answers.append(who.post(f"/api/tournaments/{event_id}/join").status_code)
        if answers[-1] == 429:
            break
        answers.append(who.post(f"/api/tournaments/{event_id}/withdraw").status_code)
        if answers[-1] == 429:
            break
    assert answers[-1] == 429 and set(answers[:-1]) == {200}
    joined = answers.count(200) % 2 == 1  # the last that passed was a join
    assert (event(who, event_id)["me"] is not None) is joined


def event(who: httpx.Client, event_id: str) -> dict[str, Any]:
    found: dict[str, Any] = who.get(f"/api/tournaments/{event_id}").json()
    return found


def test_a_deleted_account_leaves_its_events_as_a_deleted_player(server: ServerProcess) -> None:
    org, ann = register(server, unique("Org")), register(server, unique("Ann"))
    event_id = created(org)
    assert ann.post(f"/api/tournaments/{event_id}/join").status_code == 200
    exported = ann.get("/api/account/data").json()["tournaments"]
    assert [(e["tournament_id"], e["entrant"]) for e in exported] == [(event_id, 1)]
    for who in (ann, org):
        gone = who.post("/api/account/delete", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
    shown = event(client(server), event_id)
    assert shown["creator"] is None
    assert [(s["name"], s["withdrawn"]) for s in shown["standings"]] == [("deleted player", True)]


# -- the store, on both databases ------------------------------------------------------


def open_db(database: Callable[[str], str | Path]) -> GameStore:
    where = database("tournaments.sqlite3")
    if isinstance(where, str):
        migrate(where)
    return open_store(str(where))


def new_event(event_id: str, **more: Any) -> NewTournament:
    fields = {
        "id": event_id,
        "kind": "swiss",
        "type": "nmbr9",
        "name": "E",
        "players": 2,
        "min_players": 2,
        "rounds": 2,
        "minutes": None,
        "options": {},
        "starts": 0.0,
        "visibility": "private",
        "creator": None,
        "recurring": None,
        "created": 0.0,
    }
    return NewTournament(**{**fields, **more})  # fmt: skip


def table(game_id: str, entrants: tuple[int, ...]) -> Table:
    seats = [Seat(n, f"Bot {e}", "bot", "random") for n, e in enumerate(entrants)]
    return Table(CreateGame(game_id, "nmbr9", {"tournament": "ev"}, 7, seats), entrants)


def test_the_store_counts_caps_in_the_join_and_stores_one_pairing_of_a_state(
    database: Callable[[str], str | Path],
) -> None:
    store = open_db(database)
    try:
        store.write(CreateTournament(new_event("ev")))
        joins = [JoinTournament("ev", None, "random", f"B{n}", 0.0, 3, 2) for n in range(4)]
        assert [store.write(j) for j in joins] == [JOINED, JOINED, TOO_MANY_BOTS, TOO_MANY_BOTS]
        ann = store.write(CreateAccount("Ann", "ann", "hash"))
        bob = store.write(CreateAccount("Bob", "bob", "hash"))
        assert store.write(Block(ann, bob))
        for account, name in ((ann, "Ann"), (bob, "Bob")):
            person = JoinTournament("ev", account, None, name, 0.0, 4, 2)
            assert store.write(person) == JOINED
        assert store.write(JoinTournament("ev", ann, None, "Ann", 0.0, 9, 2)) == ALREADY
        assert store.write(JoinTournament("ev", None, "greedy", "G", 0.0, 4, 9)) == FULL
        assert store.tournament_apart("ev") == {frozenset((3, 4))}
        version = store.tournament("ev").version  # type: ignore[union-attr]
        first = Pair("ev", version, 1, 0, [table("g1", (1, 3)), table("g2", (2, 4))])
        second = Pair("ev", version, 1, 0, [table("g3", (1, 2))])  # worked out from the same
        assert store.write(first) and not store.write(second)
        games = store.tournament_games("ev")
        assert [(g.game_id, g.entrants, g.ranks) for g in games] == [
            ("g1", (1, 3), None), ("g2", (2, 4), None)]  # fmt: skip
        store.write(AppendAction("g1", 0, 1, "x", reveals=False, over=True, ranks=(2, 1)))
        assert store.tournament_games("ev")[0].ranks == (2, 1)
        assert store.tournament_of_game("g2") == "ev" and store.tournament_of_game("g9") is None
        row = store.tournament("ev")
        assert row is not None and (row.round, row.entrants) == (1, 4)
        following = new_event("next", recurring="daily")
        assert store.write(SetStatus("ev", row.version, "finished", following))
        assert not store.write(SetStatus("ev", row.version, "finished", following))  # moved on
        assert [r.id for r in store.tournaments_active()] == ["next"]
    finally:
        store.close()


def test_an_event_id_never_begins_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bot_client.py --tournament -Xy3k`` would read the id as an option (argparse):
    an id drawn with a leading "-" is drawn again."""
    drawn = iter(["-Xy3kP9qaAbC", "Xy3kP9qaAbC-"])
    monkeypatch.setattr("secrets.token_urlsafe", lambda n: next(drawn))
    assert event_id() == "Xy3kP9qaAbC-"
