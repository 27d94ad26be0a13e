"""Limits on connections that hold against a real server process and real sockets
(issue 42, "Limits that hold"): bodies that never finish, connections per address
(behind a trusted proxy too), the file descriptors a process keeps in reserve,
oversized and endless WebSocket handshakes, streams per address opened at once and
per account, a socket that never says hello, and clients gone mid-body.

No test times anything: timeouts are made short with ``serve`` options and each
test waits, with a generous bound, for the server's answer or close. What the
limits cost other players is measured by ``scripts/floods.py``."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from account_support import error
from bot_support import bot_account, token

from server_support import Api, ServerProcess, open_socket, receive

WAIT = 30.0  # seconds: the bound on any answer; the answers come at once


def _server(tmp_path: Path, *options: str, **kw: object) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path / "games.sqlite3", options=options, **kw).start()  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


def _connect(server: ServerProcess, source: str = "127.0.0.1") -> socket.socket:
    """A raw connection from ``source`` (any 127.x.y.z is this machine: a stranger's
    address of its own)."""
    sock = socket.create_connection(("127.0.0.1", server.port), WAIT, (source, 0))
    sock.settimeout(WAIT)
    return sock


def _read_to_end(sock: socket.socket) -> bytes:
    """Everything until the server closes (a reset counts as a close)."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def _response(sock: socket.socket) -> tuple[int | None, bytes]:
    """One response's status and body on a kept-alive connection (``None``: closed
    without one)."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            if not (chunk := sock.recv(65536)):
                return None, data
            data += chunk
    except ConnectionResetError:
        return None, data
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = next(
        (int(line.split(":")[1]) for line in lines if line.lower().startswith("content-length")),
        0,
    )
    while len(body) < length and (chunk := sock.recv(65536)):
        body += chunk
    return int(lines[0].split()[1]), body


def _get(sock: socket.socket, path: str = "/api/types", *headers: str) -> tuple[int | None, bytes]:
    extra = "".join(f"{h}\r\n" for h in headers)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
    return _response(sock)


def _upgrade(path: str, *headers: str) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        "Host: 127.0.0.1",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
        *headers,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _game(server: ServerProcess) -> str:
    created = Api(server).create([{"kind": "human"}, {"kind": "human"}], type="nova-luna", seed=7)
    return str(created["id"])


def _still_answers(ws: ClientConnection) -> None:
    """The server still reads and answers this socket."""
    ws.send(json.dumps({"type": "nonsense", "id": "marker"}))
    receive(ws, lambda m: m.get("id") == "marker")


# --- bodies that never finish -------------------------------------------------------


@pytest.fixture
def impatient_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path, "--body-timeout", "1", "--header-timeout", "1")


def test_a_body_that_never_finishes_is_answered_408_and_closed(
    impatient_server: ServerProcess,
) -> None:
    trickle = _connect(impatient_server)
    head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    trickle.sendall(f'{head}Content-Length: 100\r\n\r\n{{"type":'.encode())
    # before: the connection stayed open for good (the recv ran out of time)
    answer = _read_to_end(trickle)
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout")
    assert b"body took too long" in answer
    game_id = _game(impatient_server)  # a whole body is taken as ever
    assert Api(impatient_server).state(game_id)["game"]["id"] == game_id


# --- connections per address, and the file descriptors kept in reserve --------------


@pytest.fixture
def capped_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path, "--max-connections-per-address", "3", "--header-timeout", "3600")


def test_an_address_may_hold_only_so_many_connections(capped_server: ServerProcess) -> None:
    # served, so counted (the server may not yet have counted out its start's check)
    held = [_hold(_wait_for_a_place(capped_server)) for _ in range(3)]
    try:
        extra = _connect(capped_server)
        # before: served like any other (200), whatever the address held
        answer = _read_to_end(extra)
        assert answer.startswith(b"HTTP/1.1 429 Too Many Requests")
        assert b"too many connections from your address (at most 3)" in answer
        stranger = _connect(capped_server, "127.0.0.2")  # another address is not held up
        assert _get(stranger)[0] == 200
        stranger.close()
        held.pop().close()
        held.append(_wait_for_a_place(capped_server))
    finally:
        for sock in held:
            sock.close()


def _hold(sock: socket.socket) -> socket.socket:
    """Keep a served connection open: half of a next request's headers (an idle one
    would be closed after uvicorn's keep-alive timeout)."""
    sock.sendall(b"GET /api/types HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def _wait_for_a_place(server: ServerProcess, source: str = "127.0.0.1") -> socket.socket:
    """A connection that is served, once a closed one's place is free (the server
    learns of a close a moment after the client)."""
    for _ in range(500):
        sock = _connect(server, source)
        try:
            if _get(sock)[0] == 200:
                return sock
        except (ConnectionResetError, BrokenPipeError):
            pass  # refused: the server had not yet counted the close
        sock.close()
    raise AssertionError("the closed connection's place never came free")


@pytest.fixture
def proxied_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(
        tmp_path,
        *("--trusted-proxy", "127.0.0.1", "--max-connections-per-address", "2"),
        *("--header-timeout", "3600"),
    )


def test_behind_a_trusted_proxy_each_client_address_is_capped(
    proxied_server: ServerProcess,
) -> None:
    client = "X-Forwarded-For: 203.0.113.5"
    held = [_connect(proxied_server) for _ in range(2)]
    try:
        for sock in held:
            assert _get(sock, "/api/types", client)[0] == 200
            _hold(sock)
        third = _connect(proxied_server)
        status, body = _get(third, "/api/types", client)
        # before: 200 (the proxy's connections were never counted, nor its clients')
        assert status == 429 and b"at most 2" in body
        other = _connect(proxied_server)  # the proxy itself is not capped: its other clients
        assert _get(other, "/api/types", "X-Forwarded-For: 203.0.113.6")[0] == 200
        other.close()
    finally:
        for sock in held:
            sock.close()


def test_the_file_limit_is_raised_and_a_full_server_refuses_at_once(tmp_path: Path) -> None:
    """A process started with 100 files of 160 raises itself to 160 and keeps 64 in
    reserve: the 97th connection is refused (503) at once, while the sockets already
    open go on, and a place freed is taken again."""
    options = (
        *("--max-connections-per-address", "1000", "--max-sockets-per-address", "1000"),
        *("--max-sockets-per-game", "1000", "--hello-timeout", "3600"),
    )
    for server in _server(tmp_path, *options, files=(100, 160)):
        limits = Path(f"/proc/{server.pid}/limits").read_text()
        line = next(line for line in limits.splitlines() if line.startswith("Max open files"))
        assert line.split()[3:5] == ["160", "160"]  # before: 100, as started
        game_id = _game(server)
        player = open_socket(server, game_id, [])
        receive(player, lambda m: m["type"] == "state")
        flood: list[socket.socket] = []
        try:
            refused = _flood_until_refused(server, game_id, flood)
            assert refused in (503, None)  # None: reset before the 503 could be read
            assert 80 <= len(flood) <= 96, len(flood)  # the file limit, less the reserve
            visitor = _connect(server)  # sends nothing: reads the whole refusal
            assert _read_to_end(visitor).startswith(b"HTTP/1.1 503 Service Unavailable")
            _still_answers(player)  # the sockets already open are served on
            flood.pop().close()
            _wait_for_a_place(server).close()
        finally:
            player.close()
            for sock in flood:
                sock.close()


def _flood_until_refused(
    server: ServerProcess, game_id: str, flood: list[socket.socket]
) -> int | None:
    """WebSockets from another address, each held open, until one is refused: the
    refusal's status (``None`` if the connection was reset before it could be read)."""
    for _ in range(400):
        sock = _connect(server, "127.0.0.2")
        sock.sendall(_upgrade(f"/api/games/{game_id}/ws"))
        try:
            status, _ = _response(sock)
        except ConnectionResetError:
            status = None
        if status != 101:  # before: no answer at all once the files ran out (recv timed out)
            sock.close()
            return status
        flood.append(sock)
    raise AssertionError("400 connections and none refused")


# --- WebSocket handshakes -----------------------------------------------------------


@pytest.fixture
def plain_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path)


def test_a_websocket_handshake_with_an_oversized_header_is_answered_431(
    plain_server: ServerProcess,
) -> None:
    game_id = _game(plain_server)
    sock = _connect(plain_server)
    sock.sendall(_upgrade(f"/api/games/{game_id}/ws", "X-Big: " + "a" * 9000))
    # before: never answered nor closed (the recv ran out of time)
    assert _read_to_end(sock).startswith(b"HTTP/1.1 431 Request Header Fields Too Large")
    sock = _connect(plain_server)  # a plain request too
    assert _get(sock, "/api/types", "X-Big: " + "a" * 9000)[0] == 431


def test_a_websocket_handshake_must_finish_within_the_header_timeout(
    impatient_server: ServerProcess,
) -> None:
    game_id = _game(impatient_server)
    sock = _connect(impatient_server)
    # more headers than the WebSocket library takes: it refuses the handshake silently
    many = [f"X-Header-{i}: {i}" for i in range(150)]
    sock.sendall(_upgrade(f"/api/games/{game_id}/ws", *many))
    # before: never answered nor closed (the recv ran out of time)
    assert b"101 Switching Protocols" not in _read_to_end(sock)
    watching = open_socket(impatient_server, game_id, [])  # a handshake in time lives on
    receive(watching, lambda m: m["type"] == "state")
    _still_answers(watching)
    watching.close()


# --- streams per address and per account --------------------------------------------


@pytest.fixture
def stream_capped_server(tmp_path: Path) -> Iterator[ServerProcess]:
    yield from _server(tmp_path, "--max-sockets-per-address", "5", "--max-sockets-per-account", "2")


def test_streams_opened_at_once_get_no_more_places_than_the_cap(
    stream_capped_server: ServerProcess,
) -> None:
    game_id = _game(stream_capped_server)
    statuses = asyncio.run(_open_streams(stream_capped_server, f"/api/games/{game_id}/stream", 40))
    # before: a check before an await and a count after it let 10 to 30 in
    assert statuses.count(200) == 5 and statuses.count(429) == 35, statuses


async def _open_streams(server: ServerProcess, path: str, count: int) -> list[int]:
    """``count`` streams opened at once; their statuses, once all have one."""
    limits = httpx.Limits(max_connections=count + 10)
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT, limits=limits) as http:
        answered = asyncio.Event()
        statuses: list[int] = []

        async def one() -> None:
            async with http.stream("GET", path) as response:
                statuses.append(response.status_code)
                if len(statuses) == count:
                    answered.set()
                await answered.wait()  # each open stream keeps its place until all answered

        await asyncio.gather(*(one() for _ in range(count)))
    return statuses


def test_an_account_holds_only_so_many_streams_from_any_address(
    stream_capped_server: ServerProcess,
) -> None:
    page, _ = bot_account(stream_capped_server)
    headers = {"Authorization": f"Bearer {token(page)}"}
    url = f"{stream_capped_server.url}/api/account/events"
    clients = [
        httpx.Client(timeout=WAIT, transport=httpx.HTTPTransport(local_address=f"127.0.0.{n}"))
        for n in (1, 2, 3)
    ]
    try:
        with (
            clients[0].stream("GET", url, headers=headers) as one,
            clients[1].stream("GET", url, headers=headers) as two,
        ):
            assert (one.status_code, two.status_code) == (200, 200)
            third = clients[2].get(url, headers=headers)  # a third address: still the account's
            # before: 200 (no cap per account)
            assert "too many connections for your account (at most 2)" in error(third, 429)
            ws_url = f"{stream_capped_server.ws_url}/api/account/ws"
            with connect(ws_url, additional_headers=headers) as ws:
                message = json.loads(ws.recv(timeout=WAIT))
                assert message["status"] == 429
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=WAIT)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    finally:
        for client in clients:
            client.close()


# --- a socket that never says hello -------------------------------------------------


def test_a_socket_that_never_says_hello_is_closed_with_a_reason(tmp_path: Path) -> None:
    for server in _server(tmp_path, "--hello-timeout", "1"):
        with connect(f"{server.ws_url}/api/games/{_game(server)}/ws") as ws:
            message = json.loads(ws.recv(timeout=WAIT))
            assert message["status"] == 408
            assert message["message"] == "say hello within 1 seconds"
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=WAIT)
        # before: dropped without a close frame (no code was received)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (
            4408,
            "say hello within 1 seconds",
        )


# --- clients gone mid-body ----------------------------------------------------------


def test_clients_gone_mid_body_are_logged_in_one_line_without_tracebacks(
    plain_server: ServerProcess,
) -> None:
    head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n"
    for _ in range(5):
        sock = _connect(plain_server)
        sock.sendall(head.encode() + b'{"type": "nova')
        sock.close()
    line = "went away before sending all of POST /api/games"
    deadline = time.monotonic() + WAIT
    # before: never this line, and two tracebacks each
    while plain_server.log.read_text().count(line) < 5:
        assert time.monotonic() < deadline, plain_server.log.read_text()[-3000:]
        time.sleep(0.05)
    log = plain_server.log.read_text()
    assert "Traceback" not in log and "ERROR" not in log
    assert f"INFO tabletop.server: 127.0.0.1 {line}" in log
