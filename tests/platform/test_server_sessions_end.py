"""Sessions and API tokens that end everywhere (issue 42), against real servers: every
kind of channel that authenticates — a game's socket and NDJSON stream, the account
socket and event stream; opened with a session cookie or a bot account's API token —
closes the moment what opened it ends (log out, log out everywhere, a new password,
a deleted account, a revoked token, expiry, or an ending in another process), and
carries no news after it; tokens do only what their scopes say, and a bot account's
seat is played through its tokens only."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from account_support import PASSWORD, client, error, register, unique
from bot_support import as_bot, bot_account, token
from tabletop.server.account_events import AccountSocket
from tabletop.server.rows import hash_token
from tabletop.server.sessions import SESSION, Credential, SessionLimits, Sessions
from tabletop.server.storage import open_store
from tabletop.server.writes import CreateAccount, CreateSession, TouchSession

from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import ServerProcess

READ = 15.0  # seconds a channel may stay silent before the test fails (never waited out)
KINDS = ("game-ws", "game-stream", "account-ws", "account-events")
SESSION_ENDINGS = ("logout", "logout-everywhere", "password", "delete")
TOKEN_ENDINGS = ("revoke", "revoke-all", "password", "delete")
NEWS = ("state", "game", "gone")  # what a channel would carry of a game's change
#: how the close frame of an ended channel says why (its error message's end)
ENDED_REASONS = ("sign in again", "was revoked", "plays no more")


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("ends")
    proc = ServerProcess(folder / "ends.sqlite3").start()
    yield proc
    proc.stop()


# -- the channels ---------------------------------------------------------------------------


class Channel:
    """An open channel of one kind: its messages as JSON objects until it closes."""

    def first(self) -> dict[str, Any]:
        """The first message (the state, or the account's games)."""
        raise NotImplementedError

    def until_closed(self) -> tuple[list[dict[str, Any]], int | None]:
        """Every message until the channel closes, and its close code (a stream: None)."""
        raise NotImplementedError


@dataclass
class Socket(Channel):
    ws: ClientConnection

    def first(self) -> dict[str, Any]:
        return dict(json.loads(self.ws.recv(timeout=READ)))

    def until_closed(self) -> tuple[list[dict[str, Any]], int | None]:
        messages = []
        try:
            while True:
                messages.append(json.loads(self.ws.recv(timeout=READ)))
        except ConnectionClosed as closed:
            assert closed.rcvd is not None, "closed without a close frame"
            reason = closed.rcvd.reason  # an ended channel's close frame says why
            assert closed.rcvd.code != 4401 or reason.endswith(ENDED_REASONS), reason
            return messages, closed.rcvd.code


@dataclass
class Stream(Channel):
    lines: Iterator[str]
    seen: list[dict[str, Any]] = field(default_factory=list)

    def first(self) -> dict[str, Any]:
        return self._next()

    def _next(self) -> dict[str, Any]:
        for line in self.lines:
            if line.strip():
                return dict(json.loads(line))
        raise StopIteration

    def until_closed(self) -> tuple[list[dict[str, Any]], int | None]:
        messages = [json.loads(line) for line in self.lines if line.strip()]
        return messages, None


@dataclass
class Holder:
    """Who holds the channel: the cookie of a session or an API token, and the page
    session (another one) that ends things."""

    server: ServerProcess
    headers: dict[str, str]  # what the channel is opened with
    page: httpx.Client  # signed in on the page with the password
    kind: str  # what opens the channel: "session", "token" or "link" (its own seat's)
    ending: httpx.Client  # the channel's own client (a cookie's: logs itself out)
    game_id: str = ""
    own_seat: str = ""  # the link of its own seat
    other_seat: str = ""  # the link of the game's other seat: it makes the news

    def on(self, server: ServerProcess) -> Holder:
        """The same holder, its channels opened on another server process."""
        return replace(self, server=server)


def open_channel(holder: Holder, kind: str, stack: ExitStack) -> Channel:
    server, headers = holder.server, dict(holder.headers)
    if "Cookie" in headers:
        headers["Origin"] = server.url  # the page of the server the channel is opened on
    links = [holder.own_seat] if holder.kind == "link" else []
    if kind in ("game-ws", "account-ws"):
        path = f"/api/games/{holder.game_id}/ws" if kind == "game-ws" else "/api/account/ws"
        ws = stack.enter_context(
            connect(f"{server.ws_url}{path}", open_timeout=10, additional_headers=headers)
        )
        if kind == "game-ws":
            ws.send(json.dumps({"type": "hello", "tokens": links}))
        return Socket(ws)
    if links:
        headers["Authorization"] = f"Bearer {links[0]}"
    path = f"/api/games/{holder.game_id}/stream" if kind == "game-stream" else "/api/account/events"
    http = stack.enter_context(httpx.Client(base_url=server.url, timeout=READ))
    response = stack.enter_context(http.stream("GET", path, headers=headers))
    assert response.status_code == 200, response.read()
    return Stream(response.iter_lines())


def a_person(server: ServerProcess) -> Holder:
    """A person with two sessions: the channel's (a second sign-in) and the page's,
    seated in a game against a seat played by its link."""
    name = unique("End")
    page = register(server, name)
    own = client(server)
    assert own.post("/api/account/login", json={"name": name, "password": PASSWORD}).is_success
    cookie = {"Cookie": f"session={own.cookies['session']}", "Origin": server.url}
    holder = Holder(server, cookie, page, "session", ending=own)
    _seat_against_a_link(holder, page)
    return holder


def a_seat_link(server: ServerProcess) -> Holder:
    """A person playing its own seat by its link, signed out (a second device)."""
    holder = a_person(server)
    return replace(holder, headers={}, kind="link")


def a_bot(server: ServerProcess) -> Holder:
    """A bot account whose channel is opened with its API token, seated (by the token)
    in a game against a seat played by its link."""
    page, _ = bot_account(server, "EndBot")
    secret = token(page)
    holder = Holder(
        server, {"Authorization": f"Bearer {secret}"}, page, "token", as_bot(server, secret)
    )
    _seat_against_a_link(holder, holder.ending)
    return holder


def _seat_against_a_link(holder: Holder, creator: httpx.Client) -> None:
    seats = [{"kind": "human", "me": True}, {"kind": "human", "name": "Linda"}]
    made = creator.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert made.status_code == 201, made.text
    holder.game_id = made.json()["id"]
    holder.own_seat = made.json()["seats"][0]["token"]
    holder.other_seat = made.json()["seats"][1]["token"]


def make_news(holder: Holder) -> None:
    """The other seat places its tile, or (once it has) resigns: the holder's game
    changed (news for it)."""
    link = {"Authorization": f"Bearer {holder.other_seat}"}
    http = client(holder.server)
    state = http.get(f"/api/games/{holder.game_id}", headers=link).json()
    if state["choices"]:
        body = {"action": state["choices"][0]["action"], "ply": state["ply"]}
        r = http.post(f"/api/games/{holder.game_id}/actions", json=body, headers=link)
    else:
        r = http.post(f"/api/games/{holder.game_id}/resign", json={}, headers=link)
    assert r.status_code == 200, r.text


def end(holder: Holder, how: str) -> None:
    """End what opened the holder's channel, ``how``."""
    page = holder.page
    if how == "logout":
        answer = holder.ending.post("/api/account/logout")
    elif how == "logout-everywhere":
        answer = page.post("/api/account/logout-everywhere")
    elif how == "password":
        body = {"password": PASSWORD, "new_password": "a brand new secret"}
        answer = page.post("/api/account/password", json=body)
    elif how == "delete":
        answer = page.post("/api/account/delete", json={"password": PASSWORD})
    elif how == "revoke":
        (only,) = page.get("/api/account/tokens").json()["tokens"]
        answer = page.post(f"/api/account/tokens/{only['id']}/revoke")
    else:
        assert how == "revoke-all"
        answer = page.post("/api/account/tokens/revoke-all")
        assert answer.json() == {"revoked": 1}
    assert answer.status_code == 200, answer.text


def _over(message: dict[str, Any]) -> bool:
    """Whether a message says its game is over (a state, or an account's game)."""
    return bool(message.get("over") or message.get("game", {}).get("over"))


def assert_ended_without_news(
    channel: Channel,
    holder: Holder,
    then: Callable[[], None] = lambda: None,
    resigned: bool = False,
) -> None:
    """Read the channel until it closes: no news (but the game's end when the ending
    ``resigned`` it first: a deleted account), one error saying why (401), the last
    message, close code 4401 (a socket); then ``then()`` makes news, and nothing more
    arrives."""
    messages, code = channel.until_closed()
    assert messages and messages[-1]["type"] == "error", messages
    news = [m for m in messages if m["type"] in NEWS and not (resigned and _over(m))]
    errors = [m for m in messages if m["type"] == "error"]
    assert not news, news
    assert [e["status"] for e in errors] == [401], messages
    expected = {"session": "session has ended", "token": "revoked", "link": "was deleted"}
    assert expected[holder.kind] in errors[0]["message"]
    assert code in (None, 4401)
    assert code is not None or isinstance(channel, Stream)
    then()
    assert channel.until_closed()[0] == []


# -- the matrix --------------------------------------------------------------------------------

CASES = [
    *((kind, "session", how) for kind in KINDS for how in SESSION_ENDINGS),
    *((kind, "token", how) for kind in KINDS for how in TOKEN_ENDINGS),
    *((kind, "link", "delete") for kind in ("game-ws", "game-stream")),
]
HOLDERS = {"session": a_person, "token": a_bot, "link": a_seat_link}


@pytest.mark.parametrize(("kind", "credential", "how"), CASES)
def test_every_channel_closes_when_what_opened_it_ends(
    sqlite_server: ServerProcess, kind: str, credential: str, how: str
) -> None:
    holder = HOLDERS[credential](sqlite_server)
    with ExitStack() as stack:
        channel = open_channel(holder, kind, stack)
        assert channel.first()["type"] in ("state", "games")
        end(holder, how)
        if how == "delete":  # its games were resigned first: no game makes news now
            assert_ended_without_news(channel, holder, resigned=True)
        else:
            make_news(holder)  # before the channel is read: an open one would carry it
            assert_ended_without_news(channel, holder, lambda: make_news(holder))
    if credential != "link":  # the ended credential opens nothing new
        r = httpx.get(f"{sqlite_server.url}/api/account/events", headers=holder.headers)
        assert r.status_code == 401, r.text


@pytest.mark.parametrize("kind", KINDS)
def test_every_channel_closes_when_its_session_expires(tmp_path: Path, kind: str) -> None:
    """An hour's idle limit, checked hourly: the clock is moved past both, and the close
    is the event waited for."""
    options = ("--session-idle", "1h", "--session-check", "1h", *TEST_CLOCK)
    proc = ServerProcess(tmp_path / "idle.sqlite3", options=options).start()
    try:
        holder = a_person(proc)
        with ExitStack() as stack:
            channel = open_channel(holder, kind, stack)
            assert channel.first()["type"] in ("state", "games")
            advance_clock(proc, HOUR + 1)
            assert_ended_without_news(channel, holder, lambda: make_news(holder))
    finally:
        proc.stop()


ENDED_ELSEWHERE = {"session": "logout-everywhere", "token": "revoke", "link": "delete"}
ELSEWHERE = [(kind, c) for c in ("session", "token") for kind in KINDS] + [
    ("game-ws", "link"),
    ("game-stream", "link"),
]


@pytest.mark.parametrize(("kind", "credential"), ELSEWHERE)
def test_an_ending_in_one_process_closes_channels_in_another(
    pg_cluster: Any, tmp_path: Path, kind: str, credential: str
) -> None:
    """No periodic check on the channel's process (an hour): the ending is announced."""
    url = pg_cluster.database()
    a = ServerProcess(url, log=tmp_path / "a.log").start()
    b = ServerProcess(url, log=tmp_path / "b.log", options=("--session-check", "1h")).start()
    try:
        holder = HOLDERS[credential](a)
        on_b = holder.on(b)
        with ExitStack() as stack:
            channel = open_channel(on_b, kind, stack)
            assert channel.first()["type"] in ("state", "games")
            end(holder, ENDED_ELSEWHERE[credential])
            if credential == "link":  # deleted: its games were resigned first
                assert_ended_without_news(channel, on_b, resigned=True)
            else:
                assert_ended_without_news(channel, on_b, lambda: make_news(holder))
    finally:
        a.stop()
        b.stop()


def test_log_out_everywhere_leaves_a_bots_token_channels_open(
    sqlite_server: ServerProcess,
) -> None:
    """Tokens are no sessions: signing out of the page does not stop the program."""
    holder = a_bot(sqlite_server)
    with ExitStack() as stack:
        channel = open_channel(holder, "account-ws", stack)
        assert channel.first()["type"] == "games"
        end(holder, "logout-everywhere")
        make_news(holder)
        assert channel.first()["type"] == "game"


def test_the_check_ends_sessions_by_an_injected_clock(tmp_path: Path) -> None:
    """``Sessions.check`` against a real store, its clock moved on instead of waited."""
    store = open_store(str(tmp_path / "clock.sqlite3"))
    try:
        ann = store.write(CreateAccount("Ann", "ann", "hash"))
        for token in ("used", "idle"):
            store.write(CreateSession(hash_token(token), ann))
        now = [datetime.now(UTC)]
        limits = SessionLimits(idle=60.0, absolute=3600.0, check=3600.0)
        sessions = Sessions(limits, write=None, store=store, clock=lambda: now[0])
        used, idle = AccountSocket(ann), AccountSocket(ann)
        sessions.opened(ann, Credential.of("used", SESSION), used)
        sessions.opened(ann, Credential.of("idle", SESSION), idle)
        assert sessions.check() == 0
        later = now[0] + timedelta(seconds=50)
        store.write(TouchSession(hash_token("used"), later.isoformat(timespec="milliseconds")))
        now[0] += timedelta(seconds=61)  # the idle one unused past its limit
        assert sessions.check() == 1
        assert idle.ending is not None and used.ending is None
        sessions.closed(idle)
        now[0] += timedelta(seconds=3600)  # past the absolute limit, however used
        assert sessions.check() == 1 and used.ending is not None
    finally:
        store.close()


# -- what tokens may do ------------------------------------------------------------------------


@pytest.mark.parametrize("scopes", [["play", "read"], ["read"]])
def test_a_token_never_manages_its_account(sqlite_server: ServerProcess, scopes: list[str]) -> None:
    page, name = bot_account(sqlite_server)
    bot = as_bot(sqlite_server, token(page, scopes))
    attempts = [
        ("POST", "/api/account/logout-everywhere", None),
        ("POST", "/api/account/logout", None),
        ("POST", "/api/account/password", {"password": PASSWORD, "new_password": "x" * 12}),
        ("POST", "/api/account/delete", {"password": PASSWORD}),
        ("GET", "/api/account/data", None),
        ("GET", "/api/account/email", None),
    ]
    for method, path, body in attempts:
        answer = bot.request(method, path, json=body)
        assert "cannot manage its account" in error(answer, 403), path
        assert answer.json()["key"].startswith("an API token cannot manage")
    assert bot.get("/api/account").json()["account"]["name"] == name  # nothing changed
    assert page.get("/api/account").json()["account"]["name"] == name
    signed_in = client(sqlite_server).post(
        "/api/account/login", json={"name": name, "password": PASSWORD}
    )
    assert signed_in.status_code == 200  # the password is the old one


def test_a_new_password_revokes_tokens_unless_kept(sqlite_server: ServerProcess) -> None:
    page, _ = bot_account(sqlite_server)
    kept, gone = token(page, name="kept"), token(page, name="gone")
    body = {"password": PASSWORD, "new_password": "another secret", "keep_tokens": True}
    answer = page.post("/api/account/password", json=body)
    assert answer.json()["tokens_revoked"] == 0
    assert as_bot(sqlite_server, kept).get("/api/account").json()["account"] is not None
    bad = {"password": "another secret", "new_password": "a third secret", "keep_tokens": "yes"}
    assert "keep_tokens" in error(page.post("/api/account/password", json=bad), 400)
    assert as_bot(sqlite_server, gone).get("/api/account").status_code == 200  # unchanged
    body = {"password": "another secret", "new_password": "a third secret"}
    assert page.post("/api/account/password", json=body).json()["tokens_revoked"] == 2
    for secret in (kept, gone):
        assert "revoked" in error(as_bot(sqlite_server, secret).get("/api/account"), 401)
    assert page.get("/api/account/tokens").json()["tokens"] == []


def test_revoke_all_tokens_is_for_the_page_only(sqlite_server: ServerProcess) -> None:
    page, _ = bot_account(sqlite_server)
    secrets = [token(page, name=f"box {n}") for n in range(3)]
    bot = as_bot(sqlite_server, secrets[0])
    assert "page" in error(bot.post("/api/account/tokens/revoke-all"), 403)
    assert len(page.get("/api/account/tokens").json()["tokens"]) == 3
    assert error(client(sqlite_server).post("/api/account/tokens/revoke-all"), 401)
    assert page.post("/api/account/tokens/revoke-all").json() == {"revoked": 3}
    for secret in secrets:
        assert error(as_bot(sqlite_server, secret).get("/api/account"), 401)


# -- a bot account's seat link -------------------------------------------------------------------


def test_a_bot_accounts_seat_link_does_not_play_for_it(sqlite_server: ServerProcess) -> None:
    page, _ = bot_account(sqlite_server)
    secret = token(page)
    bot = as_bot(sqlite_server, secret)
    seats = [{"kind": "human", "me": True}, {"kind": "human", "name": "Linda"}]
    made = bot.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert made.status_code == 201, made.text
    game_id, link = made.json()["id"], made.json()["seats"][0]["token"]
    (only,) = page.get("/api/account/tokens").json()["tokens"]
    assert page.post(f"/api/account/tokens/{only['id']}/revoke").status_code == 200
    stranger = client(sqlite_server)  # a signed-out browser with the seat link
    by_link = {"Authorization": f"Bearer {link}"}
    before = stranger.get(f"/api/games/{game_id}").json()
    state = stranger.get(f"/api/games/{game_id}", headers=by_link)
    assert "bot account" in error(state, 403)
    action = {"action": "0@0,0", "ply": before["ply"]}
    moved = stranger.post(f"/api/games/{game_id}/actions", json=action, headers=by_link)
    assert "bot account" in error(moved, 403)
    resigned = stranger.post(f"/api/games/{game_id}/resign", json={}, headers=by_link)
    assert "bot account" in error(resigned, 403)
    with connect(f"{sqlite_server.ws_url}/api/games/{game_id}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [link]}))
        refused = json.loads(ws.recv(timeout=READ))
        assert refused["status"] == 403 and "bot account" in refused["message"]
    after = stranger.get(f"/api/games/{game_id}").json()
    assert (after["ply"], after["over"]) == (before["ply"], before["over"])
    count = "SELECT COUNT(*) FROM actions WHERE game_id = ?"
    assert sqlite_server.query_one(count, game_id) == (0,)
