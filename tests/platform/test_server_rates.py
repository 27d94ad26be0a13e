"""Rate limits on a server with its default settings: floods get 429 at once."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tabletop.server.ratelimit import RateLimit

from server_support import Api, ServerProcess, new_db, open_socket, receive

HUMAN = {"kind": "human", "name": "Ann"}
GREEDY = {"kind": "bot", "bot": "greedy"}


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("rates")
    db = new_db(storage, request, folder)
    proc = ServerProcess(db, log=folder / "server.log", rates=True).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[Api]:
    client = Api(server)
    yield client
    client.http.close()


def test_a_socket_flooding_messages_gets_429_errors(api: Api, server: ServerProcess) -> None:
    game_id = api.create([HUMAN, HUMAN])["id"]
    ws = open_socket(server, game_id, [])
    receive(ws, lambda m: m["type"] == "state")
    for _ in range(100):
        ws.send(json.dumps({"type": "dance"}))
    statuses = [receive(ws, lambda m: m["type"] == "error")["status"] for _ in range(100)]
    assert statuses.count(429) >= 40 and set(statuses) <= {400, 429}
    ws.close()


def test_a_flood_of_hints_on_one_socket_is_refused_and_stalls_no_other_game(
    api: Api, server: ServerProcess
) -> None:
    created = api.create([HUMAN, HUMAN])
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    state = api.state(game_id)
    ws = open_socket(server, game_id, [tokens[state["to_move"]]])
    receive(ws, lambda m: m["type"] == "state")
    for number in range(200):
        ws.send(json.dumps({"type": "hint", "id": number, "ply": state["ply"]}))
    answers = [receive(ws, lambda m: m["type"] in ("hint", "error")) for _ in range(200)]
    refused = [a for a in answers if a["type"] == "error"]
    assert len(refused) >= 190 and all(a["status"] == 429 for a in refused)
    assert "wait" in refused[-1]["message"] or "already" in refused[-1]["message"]
    # a search bot in another game is not queued behind 200 hint searches
    other = api.create([{"kind": "bot", "bot": "mcts:easy"}] * 2)["id"]
    assert api.wait(other, None, lambda s: s["ply"] >= 2, timeout=30)["ply"] >= 2
    ws.close()


def test_creating_games_too_fast_from_one_address_gets_429(api: Api) -> None:
    statuses = []
    for _ in range(40):
        response = api.request("POST", "/api/games", json={"seats": [HUMAN, HUMAN]})
        statuses.append(response.status_code)
        if response.status_code == 429:
            assert "wait" in response.json()["error"]
            break
    assert statuses[-1] == 429 and statuses.count(201) >= 5


def test_buckets_of_idle_keys_are_forgotten_but_never_on_every_request(monkeypatch) -> None:
    now = [0.0]
    limit = RateLimit("moves", per_minute=60, burst=2, clock=lambda: now[0])
    monkeypatch.setattr(RateLimit, "MAX_KEYS", 10)
    limit._prune_at = 10
    for key in range(11):  # all busy: nothing to forget, so the next prune waits
        limit.wait(key)
    assert len(limit._buckets) == 11 and limit._prune_at == 22
    now[0] = 60.0  # a minute later every bucket is full again
    for key in range(100, 112):
        limit.wait(key)
    assert set(limit._buckets) == set(range(100, 112))  # the idle (full) ones went
