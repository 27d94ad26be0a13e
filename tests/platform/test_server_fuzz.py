"""Random JSON thrown at every endpoint and WebSocket message type of a real server.

Whatever arrives, the server answers with a 4xx (HTTP) or an error message
(WebSocket), never a 5xx or a traceback, and a game nobody may move in stays as
it was.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from server_support import Api, ServerProcess, new_db, open_socket, receive

KEYS = ["seats", "type", "options", "seed", "action", "ply", "kind", "bot", "name", "tokens", "id"]
KEYS += ["seat", "remove", "clock"]
ODD_TEXT = st.sampled_from(
    [
        "",
        "\ud800",
        "\u200b",
        "mcts:\u00b2",
        "mcts:2000000000",
        "1@0,0",
        "refill",
        "nova-luna",
        "nmbr9",
        "r0@0,0",
        "take-back",
        "planner:strong",
    ]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**20, max_value=10**60)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | ODD_TEXT
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5)
    ),
    max_leaves=12,
)
BODIES = JSON_VALUES.map(json.dumps) | st.sampled_from(
    ["", "{", "[" * 5000 + "]" * 5000, '{"ply": ' + "7" * 5000 + "}", "\x00"]
)
FUZZ = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("fuzz")
    db = new_db(storage, request, folder)
    proc = ServerProcess(db, log=folder / "server.log").start()
    yield proc
    proc.stop()
    assert "Traceback" not in proc.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def api(server: ServerProcess) -> Iterator[Api]:
    client = Api(server)
    yield client
    client.http.close()


@pytest.fixture(scope="module")
def games(api: Api) -> dict[str, dict[str, Any]]:
    """Per game type, a game and a seat token with which nothing may legally change it.

    Nova Luna: two people; only the seat *not* to move is used. NMBR 9 (every seat
    without a placement may place, and one with a pending placement may take it back):
    a finished game of one seat, played to its end first."""
    created = api.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}])
    state = api.state(created["id"])
    waiter = created["seats"][1 - state["to_move"]]["token"]
    nova = {"id": created["id"], "waiter": waiter, "before": state}
    solo = api.create([{"kind": "human"}], type="nmbr9", options={"remove": 15})
    game_id, token = solo["id"], solo["seats"][0]["token"]
    while not (state := api.state(game_id, token))["over"]:
        action = state["choices"][-1]["action"]
        assert api.act(game_id, token, action, state["ply"]).status_code == 200
    nmbr9 = {"id": game_id, "waiter": token, "before": api.state(game_id)}
    return {"nova-luna": nova, "nmbr9": nmbr9}


def _paths(game_id: str) -> list[str]:
    return [f"/api/games/{game_id}/{verb}" for verb in ("actions", "undo", "hint")] + [
        "/api/games",
        "/api/replay",
    ]


@FUZZ
@given(
    body=BODIES,
    which=st.integers(0, 4),
    token=st.sampled_from([None, "waiter", "forged"]),
    kind=st.sampled_from(["nova-luna", "nmbr9"]),
)
def test_random_bodies_never_get_a_5xx(
    api: Api, games: dict[str, Any], body: str, which: int, token: str | None, kind: str
) -> None:
    game = games[kind]
    path = _paths(game["id"])[which]
    bearer = game["waiter"] if token == "waiter" else token
    response = api.request(
        "POST", path, bearer, content=body, headers={"Content-Type": "application/json"}
    )
    assert 400 <= response.status_code < 500 or response.status_code in (200, 201)
    assert "error" in response.json() or response.status_code < 300
    assert api.state(game["id"]) == game["before"]


@FUZZ
@given(
    hello=JSON_VALUES,
    messages=st.lists(
        st.builds(
            lambda kind, extra: {**extra, "type": kind} if isinstance(extra, dict) else extra,
            st.sampled_from(["act", "undo", "hint", "hello", "dance"]) | JSON_VALUES,
            JSON_VALUES,
        ).map(json.dumps)
        | BODIES,
        min_size=1,
        max_size=3,
    ),
    kind=st.sampled_from(["nova-luna", "nmbr9"]),
)
def test_random_socket_messages_get_error_messages(
    server: ServerProcess,
    api: Api,
    games: dict[str, Any],
    hello: Any,
    messages: list[str],
    kind: str,
) -> None:
    game = games[kind]
    with open_socket(server, game["id"], [game["waiter"]]) as ws:
        receive(ws, lambda m: m["type"] == "state")
        for text in messages:
            ws.send(text)
            answer = receive(ws, lambda m: m["type"] in ("error", "ack", "hint"))
            assert answer["type"] == "error" and 400 <= answer["status"] < 500, answer
    # a hello that is not a hello is refused with an error, not a dropped socket
    url = f"{server.ws_url}/api/games/{game['id']}/ws"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps(hello))
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] in ("error", "state")
        if first["type"] == "error":
            assert 400 <= first["status"] < 500
    assert api.state(game["id"]) == game["before"]


# -- what fuzzing found once ----------------------------------------------------------


@pytest.mark.parametrize("game", [["nova-luna"], {"nova-luna": 1}])
def test_an_uploaded_record_whose_game_is_a_list_or_object_gets_a_422(api: Api, game: Any) -> None:
    """A list is not hashable: the look-up of the game's type raised (500)."""
    answer = api.request("POST", "/api/replay", json={"game": game, "rounds": []})
    assert answer.status_code == 422, answer.text
    assert answer.json()["key"].startswith("not a record of a game this server knows")


@pytest.mark.parametrize("index", ["²", "١", "𝟗"])
def test_an_analysis_move_in_other_digits_gets_a_400(
    api: Api, games: dict[str, Any], index: str
) -> None:
    """``"²".isdigit()`` is true but ``int("²")`` fails: the move's index raised (500)."""
    answer = api.request("GET", f"/api/games/{games['nmbr9']['id']}/analysis/{index}")
    assert answer.status_code == 400, answer.text
    assert answer.json()["key"] == "the move is a decision's index: 0, 1, 2, ..."
