"""The director (tournament_director.py) runs events to their end: an arena and a Swiss
in each game, with our bots as entrants, end with standings equal to a recomputation
from the stored games' records; a recurring event makes its next one; an account is
paired only while present, learns its pairing on its account socket, and a withdrawal
mid-event resigns its game; two accounts kept apart by a block never share a table.

The server's clock is moved on (``--test-clock``) to start and end events; the tests
wait for what the server does, never for wall time (deadlines only bound a hang)."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import account_socket, register
from tournament_support import (
    HANG,
    HOUR,
    add_bots,
    all_games,
    byes_of,
    create,
    event,
    recomputed,
    run_to_end,
    shown_standings,
    until,
)

from clock_support import TEST_CLOCK, advance_clock
from server_support import ServerProcess

_SERIAL = itertools.count()


def unique(prefix: str) -> str:
    return f"{prefix}{os.getpid() % 1000}x{next(_SERIAL)}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("director")
    options = (*TEST_CLOCK, "--bot-max-iterations", "20")  # tiny bot budgets
    proc = ServerProcess(folder / "games.sqlite3", options=options).start()
    yield proc
    proc.stop()


CASES = [
    ("nmbr9", "arena", 2, {"minutes": 10}),
    ("nova-luna", "arena", 3, {"minutes": 10}),
    ("nmbr9", "swiss", 2, {"rounds": 3}),
    ("nova-luna", "swiss", 3, {"rounds": 2}),
]


@pytest.mark.parametrize(("game", "kind", "players", "more"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES])  # fmt: skip
def test_an_event_of_our_bots_runs_to_its_end_with_standings_from_the_stored_games(
    server: ServerProcess, game: str, kind: str, players: int, more: dict[str, Any]
) -> None:
    org = register(server, unique("Org"))
    event_id = create(org, kind=kind, type=game, players=players, **more)
    add_bots(org, event_id, ["random", "greedy", "random", "greedy", "random"])
    done = run_to_end(server, org, event_id)
    assert done["round"] == more.get("rounds", 0)
    assert shown_standings(done) == recomputed(server, org, done)
    games = all_games(org, event_id, 5)
    assert all(g["ranks"] is not None for g in games.values())
    assert all(players - (players > 2) <= len(g["entrants"]) <= players for g in games.values())
    if kind == "swiss":  # every entrant plays or sits out each round once
        byes = byes_of(server, event_id)
        for round_no in range(1, more["rounds"] + 1):
            seated = [e for g in games.values() if g["round"] == round_no for e in g["entrants"]]
            seated += [b.entrant for b in byes if b.round == round_no]
            assert sorted(seated) == [1, 2, 3, 4, 5]
    assert {s["kind"] for s in done["standings"]} == {"bot"}


def moderator(server: ServerProcess) -> httpx.Client:
    import subprocess
    import sys

    name = unique("Mod")
    mod = register(server, name)
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "moderator", "grant", name]
    done = subprocess.run([*command, "--db", str(server.db)], capture_output=True, text=True,
                          env=os.environ.copy())  # fmt: skip
    assert done.returncode == 0, done.stderr
    return mod


def test_a_recurring_event_makes_its_next_one_when_it_ends(server: ServerProcess) -> None:
    mod = moderator(server)
    name = unique("Daily arena ")
    event_id = create(mod, kind="swiss", type="nmbr9", players=2, rounds=1, name=name,
                      visibility="public", recurring="daily")  # fmt: skip
    add_bots(mod, event_id, ["random", "greedy"])
    done = run_to_end(server, mod, event_id)
    listed = mod.get("/api/tournaments").json()["upcoming"]
    following = [e for e in listed if e["name"] == name]
    assert len(following) == 1 and following[0]["id"] != event_id
    assert following[0]["starts"] == pytest.approx(done["starts"] + 24 * HOUR)
    assert following[0]["entrants"] == 0 and following[0]["recurring"] == "daily"


def game_messages(sock: Any, event_id: str, seen: set[str], hang: float = HANG) -> str:
    """The id of the next new game of the event the account socket announces."""
    deadline = time.monotonic() + hang
    while time.monotonic() < deadline:
        message = json.loads(sock.recv(timeout=hang))
        game = message.get("game") or {}
        tag = game.get("tournament")
        if message.get("type") == "game" and tag and game["id"] not in seen:
            assert tag["id"] == event_id and tag["name"] == "Test event"
            seen.add(game["id"])
            return str(game["id"])
    raise AssertionError("no game was announced")


def resign(who: httpx.Client, game_id: str) -> None:
    answer = who.post(f"/api/games/{game_id}/resign", json={})
    assert answer.status_code in (200, 409), answer.text  # 409: over already


def entrant_games(who: httpx.Client, event_id: str, entrant: int) -> list[dict[str, Any]]:
    listed = who.get(f"/api/tournaments/{event_id}/entrants/{entrant}/games").json()
    return list(listed["games"])


def test_an_account_is_paired_while_present_and_a_withdrawal_resigns_its_game(
    server: ServerProcess,
) -> None:
    org = register(server, unique("Org"))
    ann, bob = register(server, unique("Ann")), register(server, unique("Bob"))
    event_id = create(org, kind="arena", type="nmbr9", players=2, minutes=60)
    for who in (ann, bob):  # entrants 1 and 2
        assert who.post(f"/api/tournaments/{event_id}/join").status_code == 200
    add_bots(org, event_id, ["random"])
    ann_socket = account_socket(server, ann)
    seen: set[str] = set()
    advance_clock(server, HOUR + 1)
    first = game_messages(ann_socket, event_id, seen)  # Ann and the bot: Bob is away
    assert event(ann, event_id)["me"]["playing"] == first
    resign(ann, first)
    second = game_messages(ann_socket, event_id, seen)
    assert entrant_games(org, event_id, 2) == []  # Bob: no socket, no game
    bob_socket = account_socket(server, bob)
    resign(ann, second)  # Ann is free again; Bob is present now: one of them meets the bot
    bobs = game_messages(bob_socket, event_id, set())
    withdrawn = bob.post(f"/api/tournaments/{event_id}/withdraw", json={})
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json()["me"]["withdrawn"] is True
    until(lambda: bob.get(f"/api/games/{bobs}").json()["over"])  # resigned for him
    assert bob.get(f"/api/games/{bobs}").json()["resigned"]
    later = until(lambda: len(entrant_games(org, event_id, 1)) >= 3)  # Ann goes on
    assert later and len(entrant_games(org, event_id, 2)) == 1  # Bob is paired no more
    shown = event(org, event_id)
    bob_line = next(s for s in shown["standings"] if s["entrant"] == 2)
    assert bob_line["withdrawn"] and bob_line["games"] == 1 and bob_line["kind"] == "human"
    ann_socket.close()
    bob_socket.close()


def test_accounts_kept_apart_by_a_block_never_share_a_table(server: ServerProcess) -> None:
    org = register(server, unique("Org"))
    ann_name, bob_name = unique("Ann"), unique("Bob")
    ann, bob = register(server, ann_name), register(server, bob_name)
    assert ann.post("/api/account/blocks", json={"name": bob_name}).status_code == 200
    event_id = create(org, kind="arena", type="nmbr9", players=2, minutes=60)
    for who in (ann, bob):  # entrants 1 and 2: the blocked account joins as anyone does
        assert who.post(f"/api/tournaments/{event_id}/join").status_code == 200
    add_bots(org, event_id, ["random"])
    sockets = [account_socket(server, ann), account_socket(server, bob)]
    advance_clock(server, HOUR + 1)
    for _ in range(4):  # Ann and Bob resign whatever they get: the bot is free each time
        game = until(lambda: next(
            (g for g in event(org, event_id)["games"] if g["ranks"] is None), None))  # fmt: skip
        assert set(game["entrants"]) != {1, 2}
        resign(ann if 1 in game["entrants"] else bob, game["id"])
        until(lambda g=game: bob.get(f"/api/games/{g['id']}").json()["over"])
    games = all_games(org, event_id, 3)
    assert len(games) >= 4 and all(set(g["entrants"]) != {1, 2} for g in games.values())
    for sock in sockets:
        sock.close()
