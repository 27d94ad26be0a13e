"""The deployment of docs/deploy.md works: Debian's nginx, run from the shipped
``deploy/nginx/tabletop.conf`` (only host, ports and certificate paths replaced; see
``nginx_support``), in front of a real ``novaluna serve --trusted-proxy 127.0.0.1``.

Through nginx, over TLS: pages load, HTTP moves to HTTPS, sign-in sessions work
(their cookie ``Secure``: the server believes the forwarded scheme), a game's
WebSocket and the account socket work (the Origin check sees the visitor's origin),
an NDJSON event stream delivers each event as it happens, the server counts each
visitor by the address nginx saw (and not by one a visitor claims), and nginx's
limits hold: bodies too large, bodies that stall, headers too large and too many
connections from one address are refused before the server sees them.

Every client that reaches the server comes from an address of its own on the loopback
network (127.0.0.x, never 127.0.0.1, nginx's own address towards the server), so that
the tests' per-address limits stay apart."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import socket
import ssl
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from account_support import PASSWORD
from nginx_support import CONFIG, HOST, Nginx
from tabletop.server.accounts import COOKIE
from tabletop.server.arguments import add_arguments

from server_support import ServerProcess, receive

STREAM_CAP = 100  # limit_conn in deploy/nginx/tabletop.conf


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("deploy")
    options = (
        "--trusted-proxy",
        "127.0.0.1",
        # a visitor may create 5 games at once and then one every 100 minutes:
        # the address test sees the limit and no refill
        "--rate-creates",
        "0.01",
        # the server's own cap per address stays out of the way of nginx's
        "--max-sockets-per-address",
        "1000",
    )
    proc = ServerProcess(folder / "games.sqlite3", options=options).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def nginx(server: ServerProcess) -> Iterator[Nginx]:
    proxy = Nginx(server.port).start()
    yield proxy
    proxy.stop()


def client(nginx: Nginx, address: str) -> httpx.Client:
    """An HTTPS client of nginx, connecting from ``address`` (127.0.0.x)."""
    transport = httpx.HTTPTransport(verify=nginx.tls, local_address=address)
    return httpx.Client(base_url=nginx.url, transport=transport, timeout=30)


def signed_up(nginx: Nginx, address: str) -> httpx.Client:
    c = client(nginx, address)
    name = f"n{uuid.uuid4().hex[:10]}"
    r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def raw(nginx: Nginx, address: str, timeout: float = 60) -> ssl.SSLSocket:
    """A TLS connection to nginx from ``address``, for requests no client library
    would send (a body that stalls, a header too large)."""
    sock = socket.create_connection((HOST, nginx.https), timeout, source_address=(address, 0))
    return nginx.tls.wrap_socket(sock, server_hostname=HOST)


def response_head(sock: ssl.SSLSocket) -> bytes:
    """What the peer sends up to the end of a response's headers, or until it closes."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_plain_http_moves_to_https(nginx: Nginx) -> None:
    with httpx.Client(base_url=f"http://{HOST}:{nginx.http}") as plain:
        r = plain.get("/g/abc?x=1")
        assert r.status_code == 301
        assert r.headers["location"] == f"https://{HOST}/g/abc?x=1"
        # certbot's challenges are answered over plain HTTP, not moved
        assert plain.get("/.well-known/acme-challenge/none").status_code == 404


def test_pages_load_and_sessions_work(nginx: Nginx) -> None:
    with client(nginx, "127.0.0.10") as c:
        page = c.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert page.headers["strict-transport-security"].startswith("max-age=")
        assert "content-security-policy" in page.headers  # the server's own headers pass
        name = f"n{uuid.uuid4().hex[:10]}"
        r = c.post("/api/account/register", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        # Secure: the server saw HTTPS in X-Forwarded-Proto and believed it
        assert "secure" in r.headers["set-cookie"].lower()
        assert c.get("/api/account").json()["account"]["name"] == name
        assert c.post("/api/account/logout").json()["account"] is None
        assert c.get("/api/account").json()["account"] is None
        r = c.post("/api/account/login", json={"name": name, "password": PASSWORD})
        assert r.status_code == 200, r.text
        assert c.get("/api/account").json()["account"]["name"] == name


def test_game_websocket_plays(nginx: Nginx) -> None:
    with client(nginx, "127.0.0.11") as c:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]
        r = c.post("/api/games", json={"seats": seats})
        assert r.status_code == 201, r.text
        game = r.json()
    tokens = [seat["token"] for seat in game["seats"]]
    url = f"{nginx.ws_url}/api/games/{game['id']}/ws"
    with connect(url, ssl=nginx.tls, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        state = receive(ws, lambda m: m["type"] == "state")
        action = state["choices"][0]["action"]
        ws.send(json.dumps({"type": "act", "action": action, "ply": state["ply"], "id": 1}))
        seen: list[dict[str, object]] = []  # the new state may come before the ack
        receive(ws, lambda m: seen.append(m) or m["type"] in ("ack", "error"))
        assert seen[-1] == {"type": "ack", "id": 1, "ply": state["ply"] + 1}
        if not any(m["type"] == "state" for m in seen):
            seen.append(receive(ws, lambda m: m["type"] == "state"))
        assert [m["ply"] for m in seen if m["type"] == "state"] == [state["ply"] + 1]


def test_account_socket_passes_the_origin_check(nginx: Nginx) -> None:
    """The page's own origin (scheme, host and port as the visitor used them) is
    accepted with the session cookie, another one refused: nginx passes the Host
    header on as it came, and the server believes the forwarded scheme."""
    with closing(signed_up(nginx, "127.0.0.12")) as c:
        cookie = {"Cookie": f"{COOKIE}={c.cookies[COOKIE]}"}
        url = f"{nginx.ws_url}/api/account/ws"
        with connect(
            url, ssl=nginx.tls, origin=nginx.url, additional_headers=cookie, open_timeout=30
        ) as ws:
            assert receive(ws, lambda m: True)["type"] == "games"
        foreign = f"http://{HOST}:{nginx.https}"  # the same host and port, not HTTPS
        with pytest.raises(InvalidStatus, match="403"):
            connect(
                url, ssl=nginx.tls, origin=foreign, additional_headers=cookie, open_timeout=30
            ).close()


def test_event_stream_is_not_buffered(nginx: Nginx) -> None:
    """Each line of ``GET /api/account/events`` arrives when the server sends it: the
    stream stays open, so a buffered line would never arrive at all."""
    with (
        closing(signed_up(nginx, "127.0.0.13")) as c,
        c.stream("GET", "/api/account/events") as events,
    ):
        assert events.status_code == 200
        assert events.headers["content-type"].startswith("application/x-ndjson")
        lines = (line for line in events.iter_lines() if line)
        assert json.loads(next(lines))["type"] == "games"
        # a new game of the account's (made on another connection) is news here
        seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "random"}]
        r = c.post("/api/games", json={"seats": seats})
        assert r.status_code == 201, r.text
        news = json.loads(next(lines))
        assert news["type"] == "game" and news["game"]["id"] == r.json()["id"]


def test_server_sees_each_visitors_address(nginx: Nginx) -> None:
    """The per-address limit on new games counts the address nginx saw: one visitor
    spends its allowance, another still gets in, and the first cannot escape by
    naming another address in its own X-Forwarded-For."""
    body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]}
    with client(nginx, "127.0.0.14") as first, client(nginx, "127.0.0.15") as second:
        statuses = []
        while 429 not in statuses:
            statuses.append(first.post("/api/games", json=body).status_code)
            assert len(statuses) <= 20, statuses
        assert statuses[:-1] and set(statuses[:-1]) == {201}
        forged = first.post("/api/games", json=body, headers={"X-Forwarded-For": "10.9.8.7"})
        assert forged.status_code == 429
        assert second.post("/api/games", json=body).status_code == 201


def test_too_large_bodies_are_refused(nginx: Nginx) -> None:
    """nginx answers 413 from the declared length, before reading any of it; an
    uploaded record may be larger than a game's setup."""
    for path, length in [("/api/games", 200_000), ("/api/replay", 3_000_000)]:
        with raw(nginx, "127.0.0.16") as sock:
            sock.sendall(
                f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {length}\r\n\r\n{{".encode()
            )
            assert response_head(sock).startswith(b"HTTP/1.1 413 "), path
    with client(nginx, "127.0.0.16") as c:
        # a record of 1.5 MB reaches the server, which reads it (and finds it no record)
        r = c.post("/api/replay", content=b'{"x": "' + b"a" * 1_500_000 + b'"}')
        assert r.status_code in (400, 422), r.text


def test_a_stalled_body_is_timed_out(nginx: Nginx) -> None:
    """A body that stops coming is ended by nginx (client_body_timeout), which holds it
    until then (the server never sees a body before it is whole): the connection is
    closed instead of staying open."""
    # 30 s: the configuration's 10 s, not nginx's default of 60 s
    with raw(nginx, "127.0.0.17", timeout=30) as sock:
        sock.sendall(
            f"POST /api/games HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
            'Content-Length: 1000\r\n\r\n{"seats": '.encode()
        )
        # nginx closes it without an answer; a socket timeout here if it waited on
        assert response_head(sock) == b""
    # ... and counts it as timed out (logged before the connection closed)
    lines = nginx.access_log().splitlines()
    assert any(
        line.startswith("127.0.0.17 ") and '"POST /api/games HTTP/1.1" 408 ' in line
        for line in lines
    ), lines


def test_a_too_large_header_is_answered(nginx: Nginx) -> None:
    """A WebSocket handshake with a header line over 8 KB gets a 400 at once."""
    with raw(nginx, "127.0.0.18") as sock:
        sock.sendall(
            f"GET /api/account/ws HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Big: {'a' * 9000}\r\n\r\n".encode()
        )
        assert response_head(sock).startswith(b"HTTP/1.1 400 ")


def test_connections_per_address_are_capped(nginx: Nginx) -> None:
    """One address holds at most ``STREAM_CAP`` requests open (here event streams of a
    game, as a spectator): the next gets nginx's 429; another address still gets in."""
    with client(nginx, "127.0.0.19") as c:
        body = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
        game = c.post("/api/games", json=body).json()["id"]
    request = f"GET /api/games/{game}/stream HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode()
    held: list[ssl.SSLSocket] = []
    try:
        for _ in range(STREAM_CAP):
            sock = raw(nginx, "127.0.0.20")
            held.append(sock)
            sock.sendall(request)
            assert response_head(sock).startswith(b"HTTP/1.1 200 ")
        with raw(nginx, "127.0.0.20") as sock:
            sock.sendall(request)
            refused = response_head(sock)
            assert refused.startswith(b"HTTP/1.1 429 ")
            assert b"application/x-ndjson" not in refused  # nginx's, not the server's
        with raw(nginx, "127.0.0.21") as sock:
            sock.sendall(request)
            assert response_head(sock).startswith(b"HTTP/1.1 200 ")
    finally:
        for sock in held:
            sock.close()


# The documents agree with the files and the server: no nginx needed.

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_DOC = ROOT / "docs" / "deploy.md"
UNIT = ROOT / "deploy" / "systemd" / "novaluna.service"


def serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="novaluna serve", exit_on_error=False)
    add_arguments(parser)
    return parser


def logical_lines(text: str) -> list[str]:
    """``text``'s lines with backslash continuations joined."""
    return text.replace("\\\n", " ").splitlines()


def test_the_service_unit_runs_a_valid_command() -> None:
    (exec_start,) = (
        line.removeprefix("ExecStart=")
        for line in logical_lines(UNIT.read_text())
        if line.startswith("ExecStart=")
    )
    program, command, *args = shlex.split(exec_start)
    assert program.endswith("/bin/novaluna") and command == "serve"
    options = serve_parser().parse_args(args)
    assert options.host == "127.0.0.1" and options.trusted_proxy == ["127.0.0.1"]


def test_the_documented_serve_options_exist() -> None:
    """Every ``novaluna serve`` command line of docs/deploy.md, and every line of
    options it tells to add, is one that ``serve`` takes."""
    blocks = re.findall(r"```sh\n(.*?)```", DEPLOY_DOC.read_text(), re.S)
    checked = 0
    for line in (line for block in blocks for line in logical_lines(block)):
        words = shlex.split(line, comments=True)
        if "serve" in words and words[words.index("serve") - 1].endswith("novaluna"):
            args = words[words.index("serve") + 1 :]
        elif words and words[0].startswith("--"):
            args = words
        else:
            continue
        serve_parser().parse_args(args)
        checked += 1
    assert checked >= 2


def test_the_documented_nginx_settings_are_the_files() -> None:
    """A setting docs/deploy.md names as the file's (``directive value`` in its nginx
    section) is in deploy/nginx/tabletop.conf as written."""
    conf = " ".join(CONFIG.read_text().split())
    directives = {line.split()[0] for line in CONFIG.read_text().splitlines() if line.strip()}
    section = DEPLOY_DOC.read_text().split("## nginx", 1)[1].split("\n## ", 1)[0]
    section = re.sub(r"```.*?```", "", section, flags=re.S)  # commands, not settings
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", section)]
    named = [s for s in spans if " " in s and s.split()[0] in directives and "[::]" not in s]
    assert len(named) >= 8, named
    for setting in named:
        assert setting in conf, setting
