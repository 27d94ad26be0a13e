"""The lobby over the HTTP API of a real server (issue 29): the creator withdraws an
open game, an open game expires, and the lobby shows each game's age and creator's
rating and filters by game and time per move."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from account_support import open_game, register

from clock_support import DAY, TEST_CLOCK, advance_clock
from server_support import ServerProcess, new_db, open_socket, receive


def error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    return response.json()["error"]


def unique(prefix: str) -> str:
    return f"{prefix}{time.monotonic_ns() % 10**9}"


def _listed(client: httpx.Client, query: str = "") -> list[str]:
    return [g["id"] for g in client.get(f"/api/lobby{query}").json()["games"]]


def test_the_creator_withdraws_an_open_game(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = open_game(ann)
    watcher = open_socket(server, game_id, [])
    receive(watcher, lambda m: m["type"] == "state")
    # before: there was no way to withdraw it (404 for the address)
    assert "creator" in error(ben.post(f"/api/games/{game_id}/cancel"), 403)
    assert "sign in" in error(httpx.post(f"{server.url}/api/games/{game_id}/cancel"), 401)
    assert game_id in _listed(ann)

    answer = ann.post(f"/api/games/{game_id}/cancel")
    assert answer.status_code == 200 and answer.json() == {"id": game_id, "withdrawn": True}
    assert game_id not in _listed(ann)
    assert ann.get(f"/api/games/{game_id}").status_code == 404
    assert game_id not in [g["id"] for g in ann.get("/api/account").json()["games"]]
    assert server.query_one("SELECT count(*) FROM seats WHERE game_id = ?", game_id) == (0,)
    told = receive(watcher, lambda m: m["type"] == "error")
    assert told["status"] == 410 and "withdrawn" in told["message"]
    with pytest.raises(ConnectionClosed) as closed:
        receive(watcher, lambda m: False)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4410
    assert error(ben.post(f"/api/games/{game_id}/join", json={}), 404)


def test_a_started_game_cannot_be_withdrawn(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = open_game(ann)
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    assert "started" in error(ann.post(f"/api/games/{game_id}/cancel"), 409)
    assert ann.get(f"/api/games/{game_id}").status_code == 200
    assert error(ann.post("/api/games/no-such-game/cancel"), 404)


def test_the_lobby_shows_age_and_the_creators_rating(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    name = ann.get("/api/account").json()["account"]["name"]
    game_id = open_game(ann)
    listed = next(g for g in ann.get("/api/lobby").json()["games"] if g["id"] == game_id)
    # before: neither the creator nor the game's age was listed
    assert listed["creator"]["name"] == name and listed["creator"]["games"] == 0
    assert isinstance(listed["creator"]["rating"], float)
    assert 0 <= listed["age"] < 600
    assert 6 * 24 * 3600 < listed["expires_in"] <= 7 * 24 * 3600


def test_the_lobby_says_whether_a_game_will_be_rated(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    rated, seeded = open_game(ann), open_game(ann, seed=5)
    games = {g["id"]: g for g in ann.get("/api/lobby").json()["games"]}
    # before: nothing told a joiner (a chosen seed makes a game unrated)
    assert games[rated]["rated"] is True and games[rated]["unrated"] is None
    assert games[seeded]["rated"] is False and games[seeded]["unrated"] == "seed"


def test_the_lobby_filters_by_game_and_time_per_move(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    daily = open_game(ann, time_limit=24 * 3600)  # NMBR 9, a day a move
    untimed = open_game(ann, rated=False)  # NMBR 9, no limit (a rated game always has one)
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    luna = ann.post("/api/games", json={"type": "nova-luna", "seats": seats}).json()["id"]

    nmbr9 = _listed(ann, "?type=nmbr9")
    assert daily in nmbr9 and untimed in nmbr9 and luna not in nmbr9
    assert luna in _listed(ann, "?type=nova-luna") and daily not in _listed(ann, "?type=nova-luna")
    a_day = _listed(ann, "?time_limit=86400")
    assert daily in a_day and untimed not in a_day and luna not in a_day
    none = _listed(ann, "?type=nmbr9&time_limit=none")
    assert untimed in none and daily not in none
    assert "one of" in error(ann.get("/api/lobby?type=chess"), 400)
    assert "seconds" in error(ann.get("/api/lobby?time_limit=soon"), 400)
    assert "seconds" in error(ann.get("/api/lobby?time_limit=" + "9" * 5000), 400)  # was 500


def test_an_open_game_expires_and_is_withdrawn(
    storage: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = new_db(storage, request, tmp_path)
    options = ("--open-seat-days", "2", *TEST_CLOCK)
    server = ServerProcess(db, log=tmp_path / "server.log", options=options).start()
    try:
        ann = register(server, unique("Ann"))
        game_id = open_game(ann)
        advance_clock(server, DAY)
        (listed,) = [g for g in ann.get("/api/lobby").json()["games"] if g["id"] == game_id]
        assert listed["expires_in"] <= DAY  # a day of its two has gone: still open
        advance_clock(server, DAY + 1)  # the sweep wakes with the clock
        deadline = time.monotonic() + 60  # only bounds a hang
        while ann.get(f"/api/games/{game_id}").status_code != 404:
            assert time.monotonic() < deadline, "the open game never expired"
            time.sleep(0.1)
        assert game_id not in _listed(ann)
        assert server.query_one("SELECT count(*) FROM games WHERE id = ?", game_id) == (0,)
        log = json.dumps(server.log.read_text())
        assert "Traceback" not in log
    finally:
        server.stop()
