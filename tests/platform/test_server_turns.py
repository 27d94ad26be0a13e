"""Knowing when it is your turn and how long you have (issue 29), over a real server:
the API's time per move within what the lobby page offers, and the account socket
that pushes every change of a signed-in player's games."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from account_support import account_socket

from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import Api, ServerProcess, new_db, receive

PASSWORD = "correct horse"
HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]


def unique(name: str) -> str:
    return f"{name}{time.monotonic_ns() % 10**9}"


def register(server: ServerProcess, name: str) -> httpx.Client:
    """A client signed in to a new account ``name``."""
    c = httpx.Client(base_url=server.url, timeout=30)
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


# -- the time per move ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "allowed"),
    [
        ({"type": "nova-luna", "time_limit": 1}, "from 3600 to 1209600 (1 h–14 d)"),
        ({"type": "nova-luna", "time_limit": 1800}, "from 3600 to 1209600 (1 h–14 d)"),
        ({"type": "nmbr9", "time_limit": 1}, "from 30 to 1209600 (30 s–14 d)"),
        ({"type": "nmbr9", "options": {"time_limit": 1}}, "from 30 to 3600 (30 s–1 h)"),
        ({"type": "nmbr9", "options": {"clock": 29}}, "from 30 to 3600 (30 s–1 h)"),
    ],
)
def test_a_time_per_move_shorter_than_the_page_offers_is_refused(
    api: Api, body: dict[str, Any], allowed: str
) -> None:
    """Was: 201 with 1 s (an open game's joiner then saw the bot play every move)."""
    response = api.request("POST", "/api/games", json={"seats": HUMANS, **body})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == (
        f"'time_limit' (the time per move, in seconds) must be 0 (none) or {allowed}"
    )


@pytest.mark.parametrize(
    "body",
    [
        {"type": "nova-luna", "time_limit": 3600},
        {"type": "nmbr9", "time_limit": 30},
        {"type": "nmbr9", "options": {"time_limit": 30}},
        {"type": "nmbr9", "options": {"clock": 120}},
        {"type": "nova-luna", "time_limit": 14 * 86400},
    ],
)
def test_the_times_per_move_the_page_offers_are_taken(api: Api, body: dict[str, Any]) -> None:
    api.create(HUMANS, **body)


# -- the account socket -------------------------------------------------------------------


def open_game(creator: httpx.Client) -> str:
    """A Nova Luna game: the creator's seat (first to move) and an open seat."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    r = creator.post("/api/games", json={"type": "nova-luna", "seats": seats, "seed": 3})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def first_move(player: httpx.Client, game_id: str) -> None:
    state = player.get(f"/api/games/{game_id}").json()
    assert state["acting"] is not None, state
    move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    r = player.post(f"/api/games/{game_id}/actions", json=move)
    assert r.status_code == 200, r.text


def game_event(ws: Any, game_id: str, event: str) -> dict[str, Any]:
    """The next ``game`` message about ``game_id`` saying ``event``."""
    return receive(
        ws, lambda m: m["type"] == "game" and m["game"]["id"] == game_id and m["event"] == event
    )


def test_the_account_socket_needs_a_session(server: ServerProcess) -> None:
    ws = account_socket(server, None)
    message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "error" and message["status"] == 401
    with pytest.raises(ConnectionClosed):
        ws.recv(timeout=10)
    assert ws.close_code == 4401


def test_the_account_socket_refuses_other_sites(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    with pytest.raises(InvalidStatus):  # closed before it was accepted
        account_socket(server, ann, origin="http://evil.example")


def test_the_account_socket_pushes_a_join_and_the_opponents_move(server: ServerProcess) -> None:
    """Was: nothing (no account-level push); My games changed only on reload."""
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    ann_ws, ben_ws = account_socket(server, ann), account_socket(server, ben)
    assert receive(ann_ws, lambda m: True) == {"type": "games", "games": [], "waiting": 0}
    receive(ben_ws, lambda m: m["type"] == "games")
    game_id = open_game(ann)
    created = game_event(ann_ws, game_id, "joined")  # her own seat, in every tab of hers
    assert created["game"]["waiting"] and created["waiting"] == 0
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    joined = {
        "ann": game_event(ann_ws, game_id, "joined"),
        "ben": game_event(ben_ws, game_id, "joined"),
    }
    assert [s["account"] for s in joined["ann"]["game"]["seats"]] == [True, True]
    assert sorted(m["game"]["your_turn"] for m in joined.values()) == [False, True]
    assert sorted(m["waiting"] for m in joined.values()) == [0, 1]  # the count: 1 game
    players = {"ann": (ann, ann_ws), "ben": (ben, ben_ws)}
    first = next(name for name, m in joined.items() if m["game"]["your_turn"])
    (mover, mover_ws), (_, other_ws) = players.pop(first), *players.values()
    first_move(mover, game_id)
    theirs = game_event(other_ws, game_id, "your_turn")
    assert theirs["game"]["your_turn"] and theirs["waiting"] == 1 and theirs["game"]["url"]
    assert game_event(mover_ws, game_id, "moved")["waiting"] == 0
    ann_ws.close()
    ben_ws.close()


def test_the_account_socket_follows_another_process(pg_cluster: Any, tmp_path: Path) -> None:
    """Two processes on one PostgreSQL database: the sockets are on B, the game is
    created, joined and played on A, which B held nothing of (the notice names the
    game's accounts, so B loads it)."""
    url = pg_cluster.database()
    a = ServerProcess(url, log=tmp_path / "a.log").start()
    b = ServerProcess(url, log=tmp_path / "b.log").start()
    try:
        ann, ben = register(a, unique("Ann")), register(a, unique("Ben"))
        ann_ws, ben_ws = account_socket(b, ann), account_socket(b, ben)
        for ws in (ann_ws, ben_ws):
            receive(ws, lambda m: m["type"] == "games")
        game_id = open_game(ann)
        assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
        joined = {
            "ann": game_event(ann_ws, game_id, "joined"),
            "ben": game_event(ben_ws, game_id, "joined"),
        }
        players = {"ann": (ann, ann_ws), "ben": (ben, ben_ws)}
        first = next(name for name, m in joined.items() if m["game"]["your_turn"])
        (mover, _), (_, other_ws) = players.pop(first), *players.values()
        first_move(mover, game_id)
        theirs = game_event(other_ws, game_id, "your_turn")
        assert theirs["waiting"] == 1
        ann_ws.close()
        ben_ws.close()
    finally:
        a.stop()
        b.stop()


# -- the move clock after an undo ---------------------------------------------------------


def test_an_undo_gives_the_turn_back_with_its_full_time_and_the_clock_runs(
    storage: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = new_db(storage, request, tmp_path)
    server = ServerProcess(db, log=tmp_path / "server.log", options=TEST_CLOCK).start()
    try:
        client = httpx.Client(base_url=server.url, timeout=30)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
        body = {"type": "nova-luna", "seats": seats, "seed": 3, "time_limit": HOUR}
        created = client.post("/api/games", json=body).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        client.headers["Authorization"] = f"Bearer {token}"
        state = _until(client, game_id, lambda s: s["acting"] == 0)
        move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        assert client.post(f"/api/games/{game_id}/actions", json=move).status_code == 200
        state = _until(client, game_id, lambda s: s["acting"] == 0 and s["ply"] > move["ply"])
        advance_clock(server, HOUR / 2)  # half of the turn's time is gone
        undone = client.post(f"/api/games/{game_id}/undo", json={"ply": state["ply"]})
        assert undone.status_code == 200, undone.text
        after = undone.json()
        assert after["ply"] == move["ply"] and after["acting"] == 0
        # before: the turn kept the clock of its first start (half an hour left, and no
        # clock ran); now the whole hour from the undo (a test hung for half an hour aside)
        assert after["time_left"]["left"] > HOUR / 2
        advance_clock(server, HOUR)
        _until(client, game_id, lambda s: any(e.get("by") == "clock" for e in s["log"]))
    finally:
        server.stop()


def _until(client: httpx.Client, game_id: str, until: Any) -> dict[str, Any]:
    """The state once ``until(state)`` holds (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 60
    while True:
        state = client.get(f"/api/games/{game_id}").json()
        if until(state):
            return state
        assert time.monotonic() < deadline, f"the game never got there: {state}"
        time.sleep(0.05)
