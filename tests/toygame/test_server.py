"""Toy Draft on the web server: a server that hosts it (``TABLETOP_GAMES``) describes it,
serves its page files, plays it against a bot over HTTP and the WebSocket, keeps the
pile's order out of every state, stores a record that replays, and rates it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tabletop.core.game import get_game
from tabletop.server.ratings import bot_starts
from toygame.support import hosting

from server_support import Api, ServerProcess, open_socket, receive

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server hosting the toy too (its bot workers inherit the variables)."""
    folder = tmp_path_factory.mktemp("toy-server")
    with hosting():
        proc = ServerProcess(folder / "games.sqlite3").start()
    yield proc
    proc.stop()


def test_the_server_describes_the_toy_and_serves_its_page_files(api: Api) -> None:
    types = {t["name"]: t for t in api.request("GET", "/api/types").json()["types"]}
    assert set(types) == {"nova-luna", "nmbr9", "toy"}
    toy = types["toy"]
    assert toy["title"] == "Toy Draft" and toy["seats"] == [1, 2]
    assert toy["modules"]["full"] == {"module": "index.js", "styles": ["toy.css"]}
    page = api.request("GET", "/").text
    version = page.split('"/static/')[1].split("/")[0]
    for path in ("intro.js", "index.js", "toy.css"):
        response = api.request("GET", f"/static/{version}/games/toy/{path}")
        assert response.status_code == 200 and "immutable" in response.headers["cache-control"]


def _play_against_the_bot(api: Api, game_id: str, token: str) -> dict[str, Any]:
    """Take the highest tile on offer each turn until the game ends."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = api.state(game_id, token)
        assert "pile" not in state["view"]  # only pile_count: the order stays hidden
        if state["over"]:
            return state
        if state["acting"] == 0:
            best = max(state["choices"], key=lambda c: c["tile"])
            response = api.act(game_id, token, best["action"], state["ply"])
            assert response.status_code == 200, response.text
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def test_a_game_against_a_bot_plays_to_its_end_and_replays(api: Api) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Greedy"}]
    created = api.create(seats, type="toy", seed=11)
    game_id, token = created["id"], created["seats"][0]["token"]
    state = api.state(game_id, token)
    assert [c["action"] for c in state["choices"]] == ["take 1", "take 2", "take 3"]
    assert api.act(game_id, token, "take 9", state["ply"]).status_code == 422
    hint = api.request("POST", f"/api/games/{game_id}/hint", token, json={"ply": 0}).json()
    best = max(state["choices"], key=lambda c: c["tile"])
    assert hint["action"] == best["action"]  # the greedy bot's advice, with its reason
    assert hint["parts"] == [
        {"key": "the highest tile on offer: {tile}", "args": {"tile": best["tile"]}}
    ]
    state = _play_against_the_bot(api, game_id, token)
    assert state["ply"] == 8 and len(state["log"]) == 8
    assert {e["seat"] for e in state["log"]} == {0, 1}  # the bot answered every turn
    assert state["result"]["scores"] == state["view"]["scores"]
    record = api.request("GET", f"/api/games/{game_id}/record").json()
    assert record["game"] == "toy" and record["players"] == ["Ann", "Greedy"]
    assert get_game("toy").verify(record).endswith("8 turns")
    frames = api.request("GET", f"/api/games/{game_id}/replay").json()["frames"]
    assert len(frames) == 9 and frames[-1]["view"]["over"]
    uploaded = api.request("POST", "/api/replay", content=json.dumps(record)).json()
    assert uploaded["frames"] == frames


def test_a_seat_plays_over_the_websocket(api: Api, server: ServerProcess) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random", "name": "Random"}]
    created = api.create(seats, type="toy")
    game_id, token = created["id"], created["seats"][0]["token"]
    ws = open_socket(server, game_id, [token])
    try:
        asked = 0
        while True:
            state = receive(ws, lambda m: m["type"] == "state")
            if state["over"]:
                break
            if state["acting"] == 0:
                asked += 1
                ws.send(
                    json.dumps(
                        {"type": "act", "action": "take 3", "ply": state["ply"], "id": asked}
                    )
                )
                assert receive(ws, lambda m, n=asked: m.get("id") == n)["type"] == "ack"
    finally:
        ws.close()
    assert asked == 4 and state["result"] is not None


def _account(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    response = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client


def _play_out(game_id: str, players: list[httpx.Client]) -> dict[str, Any]:
    """Each account takes its highest tile until the game is over (bots play themselves)."""
    deadline = time.monotonic() + 60
    while not (state := players[0].get(f"/api/games/{game_id}").json())["over"]:
        assert time.monotonic() < deadline
        for player in players:
            mine = player.get(f"/api/games/{game_id}").json()
            if mine["acting"] is not None and mine["choices"]:
                best = max(mine["choices"], key=lambda c: c["tile"])
                action = {"action": best["action"], "ply": mine["ply"]}
                assert player.post(f"/api/games/{game_id}/actions", json=action).status_code == 200
    return dict(state)


def test_a_rated_game_moves_ratings_and_two_newcomers_lift_nobody(server: ServerProcess) -> None:
    stamp = time.monotonic_ns() % 10**9
    ann, ben = _account(server, f"Ann{stamp}"), _account(server, f"Ben{stamp}")
    body = {
        "type": "toy",
        "seats": [{"kind": "human", "me": True}, {"kind": "human", "open": True}],
    }
    game_id = ann.post("/api/games", json=body).json()["id"]
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    ranks = _play_out(game_id, [ann, ben])["result"]["ranks"]
    for player, rank in zip((ann, ben), ranks, strict=True):
        game = player.get("/api/account").json()["games"][0]
        assert game["id"] == game_id and game["rated"] and game["rank"] == rank
        # a win over a provisional account lifts nobody (docs/web.md, "Fair play")
        assert game["rating"]["after"] == game["rating"]["before"]
    board = {p["name"]: p for p in ann.get("/api/leaderboard/toy").json()["players"]}
    assert board[f"Ann{stamp}"]["games"] == board[f"Ben{stamp}"]["games"] == 1
    # Toy Draft has no seeded bot ratings: its bots are on the board from the default
    # start (tabletop.server.ratings.bot_starts), weakest lowest
    assert board["Greedy"]["kind"] == "bot" and board["Greedy"]["seeded_games"] == 0
    assert board["Greedy"]["mu"] == round(bot_starts("toy")["greedy"]["mu"], 2)
    assert board["Random"]["rating"] < board["Greedy"]["rating"]
    # against a bot a newcomer's rating moves: the winner up, the loser down
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    bot_game = ann.post("/api/games", json={"type": "toy", "seats": seats}).json()["id"]
    ranks = _play_out(bot_game, [ann])["result"]["ranks"]
    game = ann.get("/api/account").json()["games"][0]
    assert game["id"] == bot_game and game["rated"] and game["rank"] == ranks[0]
    before, after = game["rating"]["before"], game["rating"]["after"]
    assert after != before
    if ranks[0] != ranks[1]:
        assert (after > before) == (ranks[0] == 1)
