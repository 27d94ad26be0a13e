"""Tournaments on PostgreSQL with two server processes: one pairs each event (under its
lease); killing it with -9 mid-event loses nothing, and the other one takes the event
over from the store and runs it to its end."""

from __future__ import annotations

import contextlib
import itertools
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from account_support import account_socket, register
from pg_support import PgCluster
from tournament_support import (
    HOUR,
    add_bots,
    all_games,
    create,
    event,
    finished,
    recomputed,
    shown_standings,
    until,
)

from clock_support import TEST_CLOCK, advance_clock
from server_support import ServerProcess

_SERIAL = itertools.count()


@pytest.fixture
def two(pg_cluster: PgCluster, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = pg_cluster.database()
    options = ("--bot-max-iterations", "20", *TEST_CLOCK)
    a = ServerProcess(url, log=tmp_path / "a.log", workers=1, options=options).start()
    b = ServerProcess(url, log=tmp_path / "b.log", workers=1, options=options).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def pairing_process(server: ServerProcess, event_id: str) -> int:
    """The process id of the event's lease holder (owner ``host:pid:random``)."""
    assert isinstance(server.db, str)
    with psycopg.connect(server.db) as db:
        row = db.execute(
            "SELECT owner FROM leases WHERE game_id = %s AND task = 'tournament' "
            "AND NOT done AND expires > now()",
            (event_id,),
        ).fetchone()
    return int(row[0].split(":")[1]) if row else 0


def resign_my_game(who: httpx.Client, event_id: str) -> None:
    playing = event(who, event_id)["me"]["playing"]
    if playing is not None:
        answer = who.post(f"/api/games/{playing}/resign", json={})
        assert answer.status_code in (200, 409), answer.text  # 409: over already


def test_a_kill_of_the_pairing_process_mid_event_loses_nothing_and_the_event_goes_on(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two
    tag = f"{os.getpid() % 1000}x{next(_SERIAL)}"
    org = register(a, f"Org{tag}")
    people = [register(a, f"{name}{tag}") for name in ("Ann", "Bob")]
    event_id = create(org, kind="swiss", type="nmbr9", players=2, rounds=3)
    for who in people:  # entrants 1 and 2, then our bots 3 and 4
        assert who.post(f"/api/tournaments/{event_id}/join").status_code == 200
    add_bots(org, event_id, ["random", "greedy"])
    # each person is present in both processes: the survivor still sees them
    sockets = [account_socket(server, who) for server in (a, b) for who in people]
    for server in (a, b):
        advance_clock(server, HOUR + 1)
    until(lambda: event(org, event_id)["round"] == 1)
    holder = until(lambda: pairing_process(a, event_id))
    victim, survivor = (a, b) if holder == a.pid else (b, a)
    assert holder == victim.pid
    before = all_games(org, event_id, 4)
    assert len(before) == 2 and any(g["ranks"] is None for g in before.values())  # mid-round
    victim.kill9()
    clients = [_on(survivor, who) for who in (org, *people)]
    watcher, players = clients[0], clients[1:]
    # the people resign what they get; the bots play theirs (taken over too)
    deadline = time.monotonic() + 120
    while event(watcher, event_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the event never ended"
        for who in players:
            resign_my_game(who, event_id)
        time.sleep(0.05)
    done = finished(watcher, event_id)
    assert done["round"] == 3
    after = all_games(watcher, event_id, 4)
    assert set(before) <= set(after)  # the games paired before the kill are all there
    assert len(after) == 6  # two tables a round, none paired twice
    for round_no in (1, 2, 3):
        seated = sorted(e for g in after.values() if g["round"] == round_no for e in g["entrants"])
        assert seated == [1, 2, 3, 4]
    assert shown_standings(done) == recomputed(survivor, watcher, done)
    assert pairing_process(survivor, event_id) in (0, survivor.pid)
    for sock in sockets:
        _close(sock)


def _on(server: ServerProcess, who: httpx.Client) -> httpx.Client:
    """``who``'s session, talking to ``server``."""
    moved = httpx.Client(base_url=server.url, timeout=30)
    moved.cookies.update(who.cookies)
    return moved


def _close(sock: Any) -> None:
    with contextlib.suppress(OSError):  # its process was killed
        sock.close()
