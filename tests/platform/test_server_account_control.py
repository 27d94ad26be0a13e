"""Accounts people control, and sign-in that withstands abuse (issue 29), over the HTTP
API and WebSocket of a real server: a new password, deleting an account, one's data;
sessions that end (and take their game sockets with them); names that cannot pass for
another's; bad input a 4xx, never a 500; sign-in throttled per account and per address
(believed only from trusted proxies); a bounded queue of password hashes."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from account_support import (
    PASSWORD,
    client,
    error,
    open_game,
    play_out,
    register,
    unique,
)
from tabletop.server.rows import hash_token
from tabletop.server.store import Store

from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import ServerProcess, receive


def signed_in_socket(server: ServerProcess, player: httpx.Client, game_id: str) -> ClientConnection:
    """A game socket opened with ``player``'s session cookie (and the page's Origin)."""
    headers = {"Cookie": f"session={player.cookies['session']}", "Origin": server.url}
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    ws = connect(url, additional_headers=headers, open_timeout=10).__enter__()
    ws.send(json.dumps({"type": "hello", "tokens": []}))
    return ws


def my_turn(ws: ClientConnection) -> dict[str, Any]:
    """The next state in which the socket's seat has choices."""
    return receive(ws, lambda m: m["type"] == "state" and m["you"] and m["choices"])


def act(ws: ClientConnection, state: dict[str, Any]) -> None:
    """Send the seat's first choice (the server may have closed the socket already)."""
    choice = state["choices"][0]["action"]
    with contextlib.suppress(ConnectionClosed):
        ws.send(json.dumps({"type": "act", "action": choice, "ply": state["ply"], "id": 7}))


def assert_session_ended(ws: ClientConnection) -> None:
    """The socket is told its session ended, never acknowledges a move, and is closed
    with 4401."""
    answers = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] not in ("state", "presence"):  # what others see meanwhile
                answers.append((message["type"], message.get("status")))
    assert answers == [("error", 401)]
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def solo_game(player: httpx.Client) -> str:
    """An NMBR 9 game of the player's seat and a bot: the player can move at once."""
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "random"}]
    r = player.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def count(server: ServerProcess, sql: str, *args: Any) -> int:
    row = server.query_one(sql, *args)
    assert row is not None
    return int(row[0])


# -- bad input: 400, never a 500 --------------------------------------------------------


def test_a_lone_surrogate_in_a_body_is_a_400_not_a_crash(server: ServerProcess) -> None:
    c = client(server)
    raw = b'{"name": "Surro", "password": "abcdefgh\\ud800"}'
    for path in ("/api/account/register", "/api/account/login"):
        r = c.post(path, content=raw, headers={"Content-Type": "application/json"})
        assert "lone surrogate" in error(r, 400)
    ann = register(server, unique("Sur"))
    body = b'{"type": "nmbr9", "seats": [{"kind": "human"}], "options": {"\\ud800": 1}}'
    r = ann.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert error(r, 400) == "the request body holds a lone surrogate, which is not valid Unicode"
    assert ann.get("/api/account").json()["account"] is not None  # the connection lives on
    # a surrogate pair (an emoji written as two escapes) is valid Unicode: not refused
    pair = b'{"type": "nmbr9", "seats": [{"kind": "human", "name": "A \\ud83d\\ude00"}]}'
    r = ann.post("/api/games", content=pair, headers={"Content-Type": "application/json"})
    assert r.status_code == 201, r.text


def test_a_long_name_or_password_is_refused_saying_why(server: ServerProcess) -> None:
    c = client(server)
    before = count(server, "SELECT COUNT(*) FROM accounts")
    r = c.post("/api/account/register", json={"name": "A" * 10_000, "password": PASSWORD})
    assert error(r, 400) == "a name is 2 to 24 characters long; this one has 10000"
    r = c.post("/api/account/register", json={"name": "Alma", "password": "x" * 201})
    assert error(r, 400) == "a password is 8 to 200 characters long; this one has 201"
    assert count(server, "SELECT COUNT(*) FROM accounts") == before


# -- names that pass for another's -------------------------------------------------------


def test_lookalike_names_are_refused_and_a_decomposed_one_is_the_same_name(
    server: ServerProcess,
) -> None:
    digits = str(time.monotonic_ns() % 10**6)
    register(server, f"Ann{digits}")
    register(server, f"José{digits}")
    c = client(server)

    def answer(name: str) -> httpx.Response:
        return c.post("/api/account/register", json={"name": name, "password": PASSWORD})

    # a Cyrillic А among Latin letters
    assert "different scripts that look alike" in error(answer(f"\u0410nn{digits}"), 400)
    # mathematical bold and full-width letters are the same name (NFKC)
    bold = "".join(chr(0x1D400 + ord(c) - ord("A")) for c in "A") + "\U0001d427\U0001d427"
    assert error(answer(f"{bold}{digits}"), 409) == "that name is taken; choose another"
    full = "\uff2a\uff4f\uff53é"
    assert error(answer(f"{full}{digits}"), 409) == "that name is taken; choose another"
    # "José" typed with a combining accent is José: taken, not refused as a strange letter
    assert error(answer(f"Jose\u0301{digits}"), 409) == "that name is taken; choose another"
    # ... and signs in to José's account; a new one is stored composed (NFC)
    r = c.post("/api/account/login", json={"name": f"Jose\u0301{digits}", "password": PASSWORD})
    assert r.json()["account"]["name"] == f"José{digits}"
    fresh = f"Rene\u0301{digits}"
    assert answer(fresh).json()["account"]["name"] == f"René{digits}"
    # one writing system of several scripts is not a lookalike (Japanese)
    assert answer(f"やまだ山田{digits}").status_code == 201


def test_accounts_registered_before_nfkc_keys_keep_signing_in(tmp_path: Path) -> None:
    path = tmp_path / "old-keys.sqlite3"
    Store(path).close()
    hashed = PasswordHasher().hash(PASSWORD)
    old = [  # (name, the key the code before stored): case folding only
        ("\uff2a\uff4f\uff53é", "\uff4a\uff4f\uff53é"),  # full-width Ｊｏｓé
        ("José", "josé"),  # its NFKC key is Ｊｏｓé's: Ｊｏｓé keeps its old key
        ("\U0001d401en", "\U0001d401en"),  # 𝐁en: its new key "ben" is free
    ]
    with closing(sqlite3.connect(path)) as db, db:
        db.executemany(
            "INSERT INTO accounts (name, name_key, password_hash, created) VALUES (?, ?, ?, ?)",
            [(name, key, hashed, "2026-01-01T00:00:00.000+00:00") for name, key in old],
        )
    proc = ServerProcess(path).start()
    try:
        c = client(proc)
        for name, _ in old:
            r = c.post("/api/account/login", json={"name": name, "password": PASSWORD})
            assert r.status_code == 200 and r.json()["account"]["name"] == name, r.text
        r = c.post("/api/account/register", json={"name": "Ben", "password": PASSWORD})
        assert error(r, 409) == "that name is taken; choose another"
        assert proc.query_one("SELECT name_key FROM accounts WHERE name = ?", old[2][0]) == ("ben",)
    finally:
        proc.stop()


# -- the Origin check ----------------------------------------------------------------------


def test_another_scheme_or_port_is_another_origin(server: ServerProcess) -> None:
    ann = register(server, unique("Orig"))
    body = {"seats": [{"kind": "human"}]}
    for origin in (
        server.url.replace("http://", "https://"),
        f"http://127.0.0.1:{server.port + 1}",
        "null",
    ):
        r = ann.post("/api/games", json=body, headers={"Origin": origin})
        assert error(r, 403) == "requests from other sites cannot use your session", origin
    assert ann.post("/api/games", json=body, headers={"Origin": server.url}).status_code == 201
    game_id = solo_game(ann)
    https = {
        "Cookie": f"session={ann.cookies['session']}",
        "Origin": server.url.replace("http://", "https://"),
    }
    with pytest.raises(InvalidStatus):
        connect(f"{server.ws_url}/api/games/{game_id}/ws", additional_headers=https).close()


# -- ending sessions ends their sockets ----------------------------------------------------


@pytest.mark.parametrize("how", ["logout-everywhere", "logout", "password"])
def test_an_ended_session_can_play_no_more_over_its_socket(server: ServerProcess, how: str) -> None:
    name = unique("Sock")
    ann = register(server, name)
    other = client(server)  # a second session of the same account
    other.post("/api/account/login", json={"name": name, "password": PASSWORD})
    game_id = solo_game(ann)
    old, kept = signed_in_socket(server, other, game_id), signed_in_socket(server, ann, game_id)
    state = my_turn(old)
    my_turn(kept)
    if how == "logout-everywhere":
        assert ann.post("/api/account/logout-everywhere").json()["sessions_ended"] == 2
    elif how == "logout":
        assert other.post("/api/account/logout").status_code == 200
    else:
        body = {"password": PASSWORD, "new_password": "a new horse battery"}
        assert ann.post("/api/account/password", json=body).json()["sessions_ended"] == 1
    act(old, state)
    assert_session_ended(old)
    if how == "logout-everywhere":
        assert_session_ended(kept)
    else:  # the session that logged another out, or changed the password, plays on
        act(kept, state)
        assert receive(kept, lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
    old.close()
    kept.close()


def test_a_session_ended_by_another_process_is_refused_at_the_next_move(
    pg_cluster: Any, tmp_path: Path
) -> None:
    url = pg_cluster.database()
    a = ServerProcess(url, log=tmp_path / "a.log").start()
    b = ServerProcess(url, log=tmp_path / "b.log").start()
    try:
        ann = register(a, "Ann")
        game_id = solo_game(ann)
        ws = signed_in_socket(b, ann, game_id)  # on the other process
        state = my_turn(ws)
        assert ann.post("/api/account/logout-everywhere").json()["sessions_ended"] == 1
        act(ws, state)
        assert_session_ended(ws)
        sql = "SELECT COUNT(*) FROM actions WHERE game_id = ? AND seat = 0"
        assert b.query_one(sql, game_id) == (0,)  # (the bot's placement is stored)
    finally:
        a.stop()
        b.stop()


def test_sessions_expire_when_idle_and_at_their_limit(tmp_path: Path) -> None:
    options = ("--session-idle", "2h", "--session-max", "7h", *TEST_CLOCK)
    proc = ServerProcess(tmp_path / "expiry.sqlite3", options=options).start()

    def signed_in(token: str) -> bool:  # the cookie sent as kept (a browser drops it at 7 h)
        r = httpx.get(f"{proc.url}/api/account", headers={"Cookie": f"session={token}"})
        return r.json()["account"] is not None

    try:
        register(proc, "Ann")
        tokens = []
        for _ in range(2):  # one used often (refreshed, until the absolute limit), one idle
            r = client(proc).post("/api/account/login", json={"name": "Ann", "password": PASSWORD})
            assert f"max-age={7 * HOUR};" in r.headers["set-cookie"].lower()
            tokens.append(r.cookies["session"])
        used, idle = tokens
        for half_hours in range(1, 14):  # to 6.5 h, used every half hour
            advance_clock(proc, HOUR / 2)
            assert signed_in(used), f"ended after {half_hours / 2} h"
            if half_hours == 4:
                assert not signed_in(idle)  # unused for twice its idle limit
        advance_clock(proc, HOUR)  # 7.5 h after sign-in
        assert not signed_in(used), "the session outlived its absolute limit"
        sql = "SELECT COUNT(*) FROM sessions WHERE token_hash = ?"
        deadline = time.monotonic() + 60  # ended ones are deleted (just after the answer)
        while count(proc, sql, hash_token(used)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert count(proc, sql, hash_token(used)) == count(proc, sql, hash_token(idle)) == 0
    finally:
        proc.stop()


# -- a new password, deleting the account, one's data --------------------------------------


def test_changing_the_password_asks_the_current_one(server: ServerProcess) -> None:
    name = unique("Pw")
    ann = register(server, name)
    elsewhere = client(server)
    elsewhere.post("/api/account/login", json={"name": name, "password": PASSWORD})
    new = "another long secret"
    wrong = {"password": "not the password", "new_password": new}
    r = ann.post("/api/account/password", json=wrong)
    assert error(r, 401) == "that is not your current password"
    short = {"password": PASSWORD, "new_password": "short"}
    assert "8 to 200" in error(ann.post("/api/account/password", json=short), 400)
    assert error(client(server).post("/api/account/password", json=wrong), 401) == "sign in first"
    assert elsewhere.get("/api/account").json()["account"] is not None  # nothing changed
    r = ann.post("/api/account/password", json={"password": PASSWORD, "new_password": new})
    assert r.json() == {"account": {"name": name}, "sessions_ended": 1, "tokens_revoked": 0}
    assert ann.get("/api/account").json()["account"] == {"name": name}
    assert elsewhere.get("/api/account").json()["account"] is None
    c = client(server)
    assert (
        c.post("/api/account/login", json={"name": name, "password": PASSWORD}).status_code == 401
    )
    assert c.post("/api/account/login", json={"name": name, "password": new}).status_code == 200


def test_deleting_the_account_keeps_its_games_with_a_deleted_player(
    server: ServerProcess,
) -> None:
    ann_name, ben_name = unique("Del"), unique("Keep")
    ann, ben = register(server, ann_name), register(server, ben_name)
    game_id = open_game(ann)
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    play_out(game_id, [ann, ben])
    account_id = count(server, "SELECT id FROM accounts WHERE name = ?", ann_name)
    assert count(server, "SELECT COUNT(*) FROM ratings WHERE player = ?", f"a:{account_id}") == 1
    wrong = ann.post("/api/account/delete", json={"password": "not the password"})
    assert error(wrong, 401) == "that is not your current password"
    assert ann.get("/api/account").json()["account"] is not None
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).json()["deleted"]
    assert ann.get("/api/account").json()["account"] is None
    login = {"name": ann_name, "password": PASSWORD}
    assert client(server).post("/api/account/login", json=login).status_code == 401
    assert error(client(server).get(f"/api/players/{ann_name}"), 404)
    names = [s["name"] for s in ben.get(f"/api/games/{game_id}").json()["game"]["seats"]]
    assert names[:2] == ["deleted player", ben_name]
    board = ben.get("/api/leaderboard/nmbr9").json()["players"]
    assert ann_name not in [p["name"] for p in board] and ben_name in [p["name"] for p in board]
    for table in ("ratings", "rating_changes"):
        sql = f"SELECT COUNT(*) FROM {table} WHERE player = ?"
        assert count(server, sql, f"a:{account_id}") == 0
    assert count(server, "SELECT COUNT(*) FROM sessions WHERE account_id = ?", account_id) == 0
    ben_game = next(g for g in ben.get("/api/account").json()["games"] if g["id"] == game_id)
    assert ben_game["over"] and ben_game["rated"]  # the other player's result stays


def test_my_data_downloads_account_games_and_ratings(server: ServerProcess) -> None:
    name = unique("Data")
    ann = register(server, name)
    game_id = solo_game(ann)
    r = ann.get("/api/account/data")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    assert data["account"]["name"] == name and data["account"]["created"]
    assert [g["id"] for g in data["games"]] == [game_id]
    assert set(data["ratings"]) == {"nova-luna", "nmbr9"}
    assert data["email"] is None and data["mails_sent"] == [] and data["api_tokens"] == []
    assert data["account"]["bot"] is False and [set(s) for s in data["sessions"]] == [
        {"created", "last_used"}
    ]
    assert error(client(server).get("/api/account/data"), 401) == "sign in first"


# -- sign-in abuse ------------------------------------------------------------------------------


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the default sign-in limits, behind no proxy."""
    proc = ServerProcess(tmp_path / "limited.sqlite3", rates=True).start()
    yield proc
    proc.stop()


def test_a_429_says_how_long_rounded_up_and_sends_retry_after(limited: ServerProcess) -> None:
    c = client(limited)
    body = {"name": "Nobody", "password": "x" * 9}
    answers = [c.post("/api/account/login", json=body) for _ in range(8)]
    refused = [r for r in answers if r.status_code == 429]
    assert refused
    for r in refused:
        seconds = int(r.headers["retry-after"])
        assert seconds >= 1 and f"wait {seconds} s" in r.json()["error"]


def test_forwarded_addresses_are_not_believed_without_a_trusted_proxy(
    limited: ServerProcess,
) -> None:
    c = client(limited)
    r = c.post(
        "/api/account/register",
        json={"name": "Sec", "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert r.status_code == 201 and "secure" not in r.headers["set-cookie"].lower()
    statuses = [
        c.post(
            "/api/account/login",
            json={"name": "Nobody", "password": "x" * 9},
            headers={"X-Forwarded-For": f"10.0.0.{n}"},
        ).status_code
        for n in range(10)
    ]
    assert 429 in statuses  # one address, whatever it claims


def test_failed_sign_ins_are_throttled_per_account_from_any_address(tmp_path: Path) -> None:
    options = ("--trusted-proxy", "127.0.0.1")
    proc = ServerProcess(tmp_path / "proxy.sqlite3", rates=True, options=options).start()
    try:
        c = client(proc)
        r = c.post(
            "/api/account/register",
            json={"name": "Ann", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.1.0.1"},
        )
        assert r.status_code == 201 and "secure" in r.headers["set-cookie"].lower()
        statuses = []
        stranger = client(proc)  # without Ann's device cookie, which c holds now
        for n in range(30):  # each from an address of its own, as the proxy says
            guess = {"name": "ann", "password": f"guess number {n}"}
            headers = {"X-Forwarded-For": f"10.2.{n}.1"}
            r = stranger.post("/api/account/login", json=guess, headers=headers)
            statuses.append(r.status_code)
        # 5 free failures, then a doubling wait (throttle.py; the waits themselves are
        # tested with a clock of the test's own in test_server_signin_limits.py)
        assert statuses[:5] == [401] * 5 and statuses.count(429) >= 15
        right = {"name": "Ann", "password": PASSWORD}
        r = stranger.post("/api/account/login", json=right, headers={"X-Forwarded-For": "10.3.0.1"})
        assert r.status_code in (200, 429)  # 200 only once the wait has run out
        if r.status_code == 429:
            assert "too many failed sign-ins for this account" in error(r, 429)
            assert int(r.headers["retry-after"]) >= 1
        other = {"name": "Ben", "password": PASSWORD}  # another account is not held up
        r = c.post("/api/account/register", json=other, headers={"X-Forwarded-For": "10.4.0.1"})
        assert r.status_code == 201
    finally:
        proc.stop()


def test_password_hashing_beyond_its_queue_is_refused_at_once(tmp_path: Path) -> None:
    options = ("--password-queue", "1")
    # argon2 at its real cost: at the suite's lowest cost a hash could end before the next
    # sign-in arrived, and all 24 got their 401 (seen on a loaded machine)
    real_hashes = {"TABLETOP_INSECURE_FAST_HASHES": None}
    proc = ServerProcess(tmp_path / "queue.sqlite3", options=options, env=real_hashes).start()
    try:
        register(proc, "Ann")
        statuses: list[tuple[int, str | None]] = []
        start = threading.Barrier(24)

        def sign_in(n: int) -> None:
            with client(proc) as c:
                start.wait()
                # names of their own: each hashed, none held up by one account's throttle
                body = {"name": f"Nobody {n}", "password": "p" * 200}
                r = c.post("/api/account/login", json=body)
                statuses.append((r.status_code, r.headers.get("retry-after")))

        threads = [threading.Thread(target=sign_in, args=(n,)) for n in range(24)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert {s for s, _ in statuses} <= {401, 503}
        assert (503, "1") in statuses and (401, None) in statuses
        assert (
            client(proc)
            .post("/api/account/login", json={"name": "Ann", "password": PASSWORD})
            .is_success
        )
    finally:
        proc.stop()
