"""Crowds on one game, against a real server process: a join costs the others at
most one small presence message, sockets are capped per address and per game, and
a connection slow to send its headers is closed."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server_support import Api, ServerProcess, open_socket, receive
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def _server(tmp_path: Path, *options: str) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "games.sqlite3", options=options).start()
    try:
        yield server
    finally:
        server.stop()


def _game(server: ServerProcess) -> tuple[str, list[str]]:
    created = Api(server).create([{"kind": "human"}, {"kind": "human"}], type="nova-luna", seed=7)
    return created["id"], [s["token"] for s in created["seats"]]


def _watch(server: ServerProcess, game_id: str, tokens: list[str]) -> ClientConnection:
    """A socket that has its first state."""
    ws = open_socket(server, game_id, tokens)
    receive(ws, lambda m: m["type"] == "state")
    return ws


def _messages_until_answered(ws: ClientConnection) -> list[dict]:
    """Every message before the answer to a message sent now: the server sends in
    order, so whatever it queued for this client before has come."""
    ws.send(json.dumps({"type": "nonsense", "id": "marker"}))
    seen = []
    while (message := json.loads(ws.recv(timeout=30))).get("id") != "marker":
        seen.append(message)
    return seen


@pytest.fixture
def quiet_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """Presence told at most once an hour: what a burst of joins sends is countable."""
    yield from _server(tmp_path, "--presence-interval", "3600")


def test_a_crowd_joining_sends_each_client_at_most_one_presence_message(
    quiet_server: ServerProcess,
) -> None:
    game_id, tokens = _game(quiet_server)
    player = _watch(quiet_server, game_id, [tokens[0]])
    first = _watch(quiet_server, game_id, [])
    crowd = [_watch(quiet_server, game_id, []) for _ in range(20)]
    try:
        for ws in (player, first):
            seen = _messages_until_answered(ws)
            # before: each join pushed the whole state to everyone (20 or 21 states each)
            assert [m for m in seen if m["type"] == "state"] == []
            assert len([m for m in seen if m["type"] == "presence"]) <= 1
    finally:
        for ws in [player, first, *crowd]:
            ws.close()


@pytest.fixture
def lively_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path, "--presence-interval", "0.05")


def test_everyone_learns_who_is_connected_once_the_crowd_settles(
    lively_server: ServerProcess,
) -> None:
    game_id, tokens = _game(lively_server)
    player = _watch(lively_server, game_id, [tokens[0]])
    crowd = [_watch(lively_server, game_id, []) for _ in range(5)]
    other = _watch(lively_server, game_id, [tokens[1]])
    try:
        told = receive(
            player,
            lambda m: m["type"] == "presence" and m["spectators"] == 5 and m["online"] == [0, 1],
        )
        assert told == {"type": "presence", "online": [0, 1], "spectators": 5}
        for ws in crowd:
            ws.close()
        other.close()
        receive(
            player,
            lambda m: m["type"] == "presence" and m == {**told, "online": [0], "spectators": 0},
        )
        state = Api(lively_server).state(game_id)  # a state says it as well
        assert state["game"]["spectators"] == 0
    finally:
        player.close()


def _refusal(ws: ClientConnection) -> tuple[dict, int, str]:
    """The error message a refused socket gets, and its close code and reason."""
    message = json.loads(ws.recv(timeout=30))
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)
    assert closed.value.rcvd is not None
    return message, closed.value.rcvd.code, closed.value.rcvd.reason


@pytest.fixture
def capped_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path, "--max-sockets-per-address", "3", "--max-sockets-per-game", "2")


def test_an_address_may_hold_only_so_many_sockets(capped_server: ServerProcess) -> None:
    games = [_game(capped_server) for _ in range(3)]
    held = [_watch(capped_server, game_id, []) for game_id, _ in games]  # one per game
    try:
        # refused before its hello: no hello is sent here, or it could meet the close
        extra = connect(f"{capped_server.ws_url}/api/games/{games[0][0]}/ws").__enter__()
        message, code, reason = _refusal(extra)
        assert message["status"] == 429 and code == 4429
        assert reason == "too many connections from your address (at most 3); close some tabs"
        held.pop().close()
        again = _wait_for_a_place(capped_server, games[2][0])
        held.append(again)
    finally:
        for ws in held:
            ws.close()


def _wait_for_a_place(server: ServerProcess, game_id: str) -> ClientConnection:
    """A socket once a closed one's place is free (the server learns of a close a
    moment after the client)."""
    for _ in range(200):
        try:
            ws = open_socket(server, game_id, [])
            if json.loads(ws.recv(timeout=30))["type"] == "state":
                return ws
        except ConnectionClosed:
            pass  # refused: the server had not yet counted the close
        ws.close()
    raise AssertionError("the closed socket's place never came free")


def test_a_game_takes_only_so_many_spectators_but_always_its_players(
    capped_server: ServerProcess,
) -> None:
    game_id, tokens = _game(capped_server)
    watching = [_watch(capped_server, game_id, []) for _ in range(2)]
    try:
        extra = open_socket(capped_server, game_id, [])
        message, code, reason = _refusal(extra)
        assert message["status"] == 503 and code == 4503
        assert "as many spectators as it can take (2)" in reason
    finally:
        for ws in watching:
            ws.close()


def test_a_full_game_still_lets_its_player_in(tmp_path: Path) -> None:
    for server in _server(tmp_path, "--max-sockets-per-game", "2"):
        game_id, tokens = _game(server)
        watching = [_watch(server, game_id, []) for _ in range(2)]
        player = _watch(server, game_id, [tokens[0]])
        state = Api(server).state(game_id, tokens[0])
        assert state["you"] == [0]
        for ws in [*watching, player]:
            ws.close()


@pytest.fixture
def impatient_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path, "--header-timeout", "1")


def test_connections_slow_to_send_their_headers_are_closed(
    impatient_server: ServerProcess,
) -> None:
    game_id, _ = _game(impatient_server)
    half_open = socket.create_connection(("127.0.0.1", impatient_server.port))
    silent = socket.create_connection(("127.0.0.1", impatient_server.port))
    watching = _watch(impatient_server, game_id, [])  # upgraded: no header timeout any more
    try:
        half_open.sendall(b"GET /api/types HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        # before: nothing ever came back and the connection stayed open (recv timed out)
        half_open.settimeout(30)
        answer = _read_to_end(half_open)
        assert answer.startswith(b"HTTP/1.1 408 Request Timeout")
        silent.settimeout(30)
        assert _read_to_end(silent).startswith(b"HTTP/1.1 408")
        # the WebSocket, open longer than the timeout by now, still works
        assert {m["type"] for m in _messages_until_answered(watching)} <= {"presence"}
        assert Api(impatient_server).request("GET", "/api/types").status_code == 200
    finally:
        half_open.close()
        silent.close()
        watching.close()


def _read_to_end(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(4096):
        data += chunk
    return data
