"""Friends (issue 46), over the HTTP API of a real server on SQLite and PostgreSQL: an
account follows others and sees which of them are online (a socket open in any server
process: two processes on one PostgreSQL share it) and the games they play; one that
blocked its follower reads as offline and playing nothing; a friends-only open game is
seen and joined only by the accounts its creator follows, and refused to anyone else
as a full game is."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from account_support import (
    PASSWORD,
    account_socket,
    client,
    error,
    open_game,
    register,
    unique,
)
from pg_support import PgCluster
from tabletop.server.friend_writes import ALREADY, FOLLOWED, TOO_MANY, Follow, Unfollow
from tabletop.server.pgstore import PgStore, migrate
from tabletop.server.store import Store
from tabletop.server.writes import CreateAccount

from server_support import ServerProcess, receive


def name_of(who: httpx.Client) -> str:
    return str(who.get("/api/account").json()["account"]["name"])


def friends(who: httpx.Client) -> dict[str, dict[str, Any]]:
    """``who``'s friends list by name (a 429 waits its Retry-After: the page's poll is
    rate-limited, a test that waits for a change polls too)."""
    while True:
        answer = who.get("/api/account/friends")
        if answer.status_code != 429:
            assert answer.status_code == 200, answer.text
            return {f["name"]: f for f in answer.json()["friends"]}
        time.sleep(float(answer.headers["Retry-After"]))


def until(check: Callable[[], bool]) -> None:
    """Wait for what a closed socket changes on the server (the server notices the
    close after the client sees it); the deadline only bounds a hang."""
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, "the change never arrived"
        time.sleep(0.2)


def follow(who: httpx.Client, name: str) -> httpx.Response:
    return who.post("/api/account/friends", json={"name": name})


def against_a_bot(who: httpx.Client) -> str:
    """An NMBR 9 game of ``who`` and a greedy bot: under way at once."""
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    made = who.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def lobby(who: httpx.Client) -> list[str]:
    return [g["id"] for g in who.get("/api/lobby").json()["games"]]


def test_a_friend_is_seen_online_and_playing(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    ben_name = name_of(ben)
    followed = follow(ann, ben_name.upper())  # names are found as at sign-in
    assert followed.status_code == 200, followed.text
    assert followed.json()["friends"] == [{"name": ben_name, "online": False, "games": []}]
    assert followed.json()["most"] == 500

    ben_socket = account_socket(server, ben)
    receive(ben_socket, lambda m: m["type"] == "games")  # counted before this is sent
    assert friends(ann)[ben_name]["online"]
    open_game(ben, friends_only=True)  # waiting for players: not played yet, not shown
    game_id = against_a_bot(ben)
    (game,) = friends(ann)[ben_name]["games"]
    # a spectator's link: no seat token
    assert game == {"id": game_id, "type": "nmbr9", "title": "NMBR 9", "url": f"/g/{game_id}"}
    assert name_of(ann) not in friends(ben)  # following is one-sided, and not told

    ben_socket.close()
    until(lambda: not friends(ann)[ben_name]["online"])
    ann.post("/api/account/friends/remove", json={"name": ben_name})
    assert friends(ann) == {}


def test_an_account_that_blocked_its_follower_reads_as_offline(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    ben_name = name_of(ben)
    follow(ann, ben_name)
    against_a_bot(ben)
    ben_socket = account_socket(server, ben)
    receive(ben_socket, lambda m: m["type"] == "games")
    assert friends(ann)[ben_name]["online"] and friends(ann)[ben_name]["games"]
    blocked = ben.post("/api/account/blocks", json={"name": name_of(ann)})
    assert blocked.status_code == 200, blocked.text
    assert friends(ann)[ben_name] == {"name": ben_name, "online": False, "games": []}
    ben_socket.close()


def test_bad_follows_are_refused(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    assert "yourself" in error(follow(ann, name_of(ann)), 400)
    assert "no player" in error(follow(ann, unique("Nobody")), 404)
    assert "name" in error(ann.post("/api/account/friends", json={"name": 7}), 400)
    assert "JSON object" in error(ann.post("/api/account/friends", json=["x"]), 400)
    assert error(client(server).get("/api/account/friends"), 401)
    assert error(client(server).post("/api/account/friends", json={"name": "x"}), 401)
    assert friends(ann) == {}

    ben_name = name_of(ben)
    follow(ann, ben_name)
    follow(ann, ben_name)  # again: nothing changes
    assert list(friends(ann)) == [ben_name]
    exported = ann.get("/api/account/data").json()
    assert [f["name"] for f in exported["follows"]] == [ben_name]
    deleted = ben.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert friends(ann) == {}


def test_the_looks_at_friends_are_rate_limited(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    answers = [ann.get("/api/account/friends").status_code for _ in range(12)]
    assert answers[0] == 200 and answers[-1] == 429


def test_a_friends_only_game_is_for_friends_alone(server: ServerProcess) -> None:
    ann, ben, cy, dee = (register(server, unique(n)) for n in ("Ann", "Ben", "Cy", "Dee"))
    follow(ann, name_of(ben))
    game_id = open_game(ann, friends_only=True)
    full_id = open_game(ann)
    assert full_id in lobby(cy)
    assert game_id in lobby(ben) and game_id in lobby(ann)
    assert game_id not in lobby(cy) and game_id not in lobby(client(server))
    listed = next(g for g in ben.get("/api/lobby").json()["games"] if g["id"] == game_id)
    assert listed["friends_only"]

    # Cy is refused as for a full game, by every route to a seat
    joined = dee.post(f"/api/games/{full_id}/join", json={})
    assert joined.status_code == 200, joined.text
    full = cy.post(f"/api/games/{full_id}/join", json={})
    refused = cy.post(f"/api/games/{game_id}/join", json={})
    assert refused.status_code == 409 and refused.json() == {
        **full.json(),
        "error": "this game has no open seat left",
    }
    assert cy.post(f"/api/games/{game_id}/join", json={"seat": 1}).status_code == 409
    assert cy.post(f"/api/games/{game_id}/claim").status_code == 400  # no seat link to claim
    taken = ben.post(f"/api/games/{game_id}/join", json={})
    assert taken.status_code == 200, taken.text

    # bad values change nothing
    mine = {"kind": "human", "me": True}
    for bad, why in (("yes", "true"), (1, "true")):
        body = {"type": "nmbr9", "seats": [mine, {"kind": "human", "open": True}]}
        assert why in error(ann.post("/api/games", json={**body, "friends_only": bad}), 400)
    alone = {"type": "nmbr9", "seats": [mine], "friends_only": True}
    assert "open seat" in error(ann.post("/api/games", json=alone), 400)


def test_a_blocked_invitee_reads_as_not_now(server: ServerProcess) -> None:
    """The friends list's one-click invitation is a game with an invited seat: blocks and
    limits still apply, and a block reads as any refusal for now."""
    ann, cy = register(server, unique("Ann")), register(server, unique("Cy"))
    cy.post("/api/account/blocks", json={"name": name_of(ann)})
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": name_of(cy)}]
    refused = ann.post("/api/games", json={"type": "nova-luna", "seats": seats})
    assert error(refused, 409) == f"seat 2: {name_of(cy)} cannot be invited now"


def test_a_follow_past_the_most_is_refused(tmp_path: Path) -> None:
    """The cap is counted in the write itself (two follows at once cannot both pass)."""
    store = Store(tmp_path / "follows.sqlite3")
    try:
        ids = [store.write(CreateAccount(f"p{i}", f"p{i}", "hash")) for i in range(4)]
        me, *others = ids
        assert [store.write(Follow(me, o, 2)) for o in others] == [FOLLOWED, FOLLOWED, TOO_MANY]
        assert store.write(Follow(me, others[0], 2)) == ALREADY
        assert store.write(Unfollow(me, others[0]))
        assert store.write(Follow(me, others[2], 2)) == FOLLOWED
        assert [f.id for f in store.friends_of(me)] == others[1:]
    finally:
        store.close()


# -- several processes on one PostgreSQL ---------------------------------------------------


@pytest.fixture
def two(pg_cluster: PgCluster, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    url = pg_cluster.database()
    a = ServerProcess(url, log=tmp_path / "a.log").start()
    b = ServerProcess(url, log=tmp_path / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_a_friend_online_in_another_process_is_online(
    two: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = two
    ann = register(a, unique("Ann"))
    ben_name = unique("Ben")
    ben = register(b, ben_name)
    follow(ann, ben_name)
    ben_socket = account_socket(b, ben)  # on the other process
    receive(ben_socket, lambda m: m["type"] == "games")  # the row is written before this
    assert friends(ann)[ben_name]["online"]
    game_id = against_a_bot(ben)
    assert [g["id"] for g in friends(ann)[ben_name]["games"]] == [game_id]
    ben_socket.close()
    until(lambda: not friends(ann)[ben_name]["online"])


def test_a_dead_process_rows_run_out(pg_cluster: PgCluster) -> None:
    """A killed process never deletes its rows: each counts only until it expires (the
    database's clock), and the next sweep drops it. (An expiry a second ago stands for the
    minute a dead process's rows outlive it.)"""
    url = pg_cluster.database()
    migrate(url)
    store = PgStore(url)
    try:
        me, friend = (store.write(CreateAccount(n, n, "hash")) for n in ("me", "friend"))
        store.write(Follow(me, friend, 10))
        store.mark_present("alive", [friend], [], 60)
        assert [f.online for f in store.friends_of(me)] == [True]
        store.mark_present("alive", [], [friend], 60)
        store.mark_present("dead", [friend], [], -1)
        assert [f.online for f in store.friends_of(me)] == [False]
        store.sweep_presence("other", [])
        assert store._read(lambda sql: sql.rows("SELECT owner FROM presence")) == []
    finally:
        store.close()
