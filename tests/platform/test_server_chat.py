"""Chat in a game (issue 46), over the HTTP API and the game's socket of a real server
on SQLite and PostgreSQL: the players' channel reaches its players and never a
spectator, the spectators' channel everyone; hostile input is refused and changes
nothing; floods get 429 per account and per address; a new account waits for a
finished game before it chats with strangers; mutes and blocks hide a speaker at once;
a deleted account's messages go; the record and the data export carry the chat.

Every client sends an X-Forwarded-For address of its own (the server believes its
proxy, 127.0.0.1), so that the per-address limit counts only what a test means it to.
The limits refill in minutes (0.6 messages a minute per account): no test waits on
the wall clock, and none can get a token back while it runs.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from account_support import PASSWORD, play_out, unique
from pg_support import PgCluster
from tabletop.server.accounts import COOKIE
from tabletop.server.chat import MAX_TEXT
from tabletop.server.chat_writes import MuteChat, PostChat
from tabletop.server.dbcopy import copy_sqlite
from tabletop.server.pgstore import PgStore
from tabletop.server.rows import Seat
from tabletop.server.store import Store
from tabletop.server.writes import CreateAccount, CreateGame

from server_support import ServerProcess, new_db, receive

_addresses = (f"10.46.{i // 250}.{i % 250 + 1}" for i in itertools.count())


@pytest.fixture(scope="module")
def server(
    storage: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A server whose chat limits are the test's: 3 messages per account at once and 5
    per address (bursts), refilled over minutes."""
    folder = tmp_path_factory.mktemp("chat")
    options = ("--rate-chats", "0.6", "--rate-chat-addresses", "0.8")
    proxy = ("--trusted-proxy", "127.0.0.1")
    db = new_db(storage, request, folder)
    proc = ServerProcess(db, log=folder / "server.log", options=(*options, *proxy)).start()
    yield proc
    proc.stop()


def player(server: ServerProcess, prefix: str, address: str | None = None) -> httpx.Client:
    """A client signed in to a new account, from an address of its own (or ``address``)."""
    headers = {"X-Forwarded-For": address or next(_addresses)}
    client = httpx.Client(base_url=server.url, timeout=30, headers=headers)
    name = unique(prefix)
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def name_of(client: httpx.Client) -> str:
    name: str = client.get("/api/account").json()["account"]["name"]
    return name


def invited_game(creator: httpx.Client, guest: httpx.Client) -> str:
    """An NMBR 9 game of two accounts: ``creator`` invites ``guest``, who accepts."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "invite": name_of(guest)}]
    created = creator.post("/api/games", json={"type": "nmbr9", "seats": seats})
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    accepted = guest.post(f"/api/games/{game_id}/invitation", json={"accept": True})
    assert accepted.status_code == 200, accepted.text
    return game_id


def finish_a_game(client: httpx.Client) -> None:
    """The account starts a game with a seat link for a friend and resigns: it has
    finished a game."""
    seats = [{"kind": "human", "me": True}, {"kind": "human"}]
    created = client.post("/api/games", json={"type": "nmbr9", "seats": seats})
    game_id = created.json()["id"]
    assert client.post(f"/api/games/{game_id}/resign", json={}).status_code == 200
    assert client.get(f"/api/games/{game_id}").json()["over"]


def socket(server: ServerProcess, game_id: str, who: httpx.Client | None) -> ClientConnection:
    """The game's socket, signed in as ``who`` (``None``: a guest), once its state came."""
    cookie = who.cookies.get(COOKIE) if who is not None else None
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    ws = connect(url, open_timeout=10, additional_headers=headers).__enter__()
    ws.send(json.dumps({"type": "hello", "tokens": []}))
    receive(ws, lambda m: m["type"] == "state")  # the chat's history, if any, comes next
    return ws


def history(ws: ClientConnection) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = receive(ws, lambda m: m["type"] == "chat")["messages"]
    return found


def next_chat(ws: ClientConnection) -> dict[str, Any]:
    """The next chat message the socket gets (one frame, one message)."""
    frame = receive(ws, lambda m: m["type"] in ("chat", "chat_hidden"))
    assert frame["type"] == "chat", frame
    (message,) = frame["messages"]
    return dict(message)


def say(client: httpx.Client, game_id: str, text: str, channel: str = "players") -> httpx.Response:
    return client.post(f"/api/games/{game_id}/chat", json={"channel": channel, "text": text})


def texts(client: httpx.Client, game_id: str) -> list[str | None]:
    return [m["text"] for m in client.get(f"/api/games/{game_id}/chat").json()["messages"]]


def test_the_players_chat_reaches_its_players_and_never_a_spectator(
    server: ServerProcess,
) -> None:
    ann, ben, cy = (player(server, n) for n in ("Ann", "Ben", "Cy"))
    finish_a_game(cy)  # may write among strangers: the spectators
    game_id = invited_game(ann, ben)  # new accounts, but they invited each other
    sockets = {who: socket(server, game_id, c) for who, c in (("ann", ann), ("ben", ben))}
    sockets["cy"] = socket(server, game_id, cy)  # signed in, not seated: a spectator
    sockets["guest"] = socket(server, game_id, None)
    # no chat yet: no history frame (the next chat frame each socket gets is a message)

    said = say(ann, game_id, "hello Ben")
    assert said.status_code == 201, said.text
    assert said.json()["message"]["name"] == name_of(ann)
    for who in ("ann", "ben"):
        assert next_chat(sockets[who])["text"] == "hello Ben"
    watched = say(cy, game_id, "nice opening", "spectators")
    assert watched.status_code == 201, watched.text
    for ws in sockets.values():  # the spectators' next chat is this: never Ann's
        message = next_chat(ws)
        assert (message["text"], message["channel"]) == ("nice opening", "spectators")

    assert "players" in say(cy, game_id, "psst").json()["error"]  # 403: not a player
    guest = httpx.Client(base_url=server.url, headers={"X-Forwarded-For": next(_addresses)})
    assert say(guest, game_id, "hi").status_code == 401  # guests cannot chat
    assert texts(guest, game_id) == ["nice opening"]
    assert texts(cy, game_id) == ["nice opening"]
    assert texts(ben, game_id) == ["hello Ben", "nice opening"]
    again = socket(server, game_id, None)  # a reconnect: the spectators' chat only
    assert [m["text"] for m in history(again)] == ["nice opening"]
    for ws in (*sockets.values(), again):
        ws.close()


def test_a_quick_phrase_is_sent_as_its_id(server: ServerProcess) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    game_id = invited_game(ann, ben)
    sent = ben.post(f"/api/games/{game_id}/chat", json={"phrase": "good-game"})
    assert sent.status_code == 201, sent.text
    message = sent.json()["message"]
    assert (message["phrase"], message["text"], message["channel"]) == (
        "good-game",
        None,
        "players",
    )
    read = ann.get(f"/api/games/{game_id}/chat").json()
    assert "good-game" in read["phrases"] and read["messages"][0]["phrase"] == "good-game"
    refused = ben.post(f"/api/games/{game_id}/chat", json={"phrase": "<b>gg</b>"})
    assert refused.status_code == 400


HOSTILE: list[tuple[str, Any, int]] = [
    ("a megabyte", {"text": "x" * 1_000_000}, 413),
    ("a text too long", {"text": "x" * (MAX_TEXT + 1)}, 400),
    ("an empty text", {"text": "   "}, 400),
    ("a bell", {"text": "ding\x07"}, 400),
    ("a line break", {"text": "one\ntwo"}, 400),
    ("an escape sequence", {"text": "\x1b[31mred"}, 400),
    ("a right-to-left override", {"text": "abc\u202egnp.exe"}, 400),
    ("a direction isolate", {"text": "\u2067name\u2069"}, 400),
    ("a number", {"text": 7}, 400),
    ("text and phrase", {"text": "hi", "phrase": "thanks"}, 400),
    ("an unknown channel", {"text": "hi", "channel": "moderators"}, 400),
    ("not an object", ["hi"], 400),
]


def test_hostile_input_is_refused_and_changes_nothing(server: ServerProcess) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    game_id = invited_game(ann, ben)
    url = f"/api/games/{game_id}/chat"
    for what, body, status in HOSTILE:
        assert ann.post(url, json=body).status_code == status, what
    lone = ann.post(
        url,
        content=b'{"text": "half \\ud800 a pair"}',
        headers={"Content-Type": "application/json"},
    )
    assert lone.status_code == 400 and "surrogate" in lone.json()["error"]
    assert texts(ann, game_id) == []  # nothing stored, nothing spent: three still go

    html = '<img src=x onerror="alert(1)"> see https://evil.example'
    assert say(ann, game_id, html).status_code == 201
    assert say(ann, game_id, "cafe\u0301 \U0001f469\u200d\U0001f4bb").status_code == 201
    assert texts(ben, game_id) == [html, "caf\u00e9 \U0001f469\u200d\U0001f4bb"]  # as text, NFC


def test_floods_get_429_per_account_and_per_address(server: ServerProcess) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    game_id = invited_game(ann, ben)
    assert [say(ann, game_id, f"spam {i}").status_code for i in range(3)] == [201] * 3
    flood = say(ann, game_id, "spam 3")
    assert flood.status_code == 429 and int(flood.headers["Retry-After"]) >= 1
    assert say(ben, game_id, "still here").status_code == 201  # the others go on

    shared = next(_addresses)
    cy, dan = player(server, "Cy", shared), player(server, "Dan", shared)
    game_id = invited_game(cy, dan)
    assert [say(cy, game_id, f"one {i}").status_code for i in range(3)] == [201] * 3
    assert [say(dan, game_id, f"two {i}").status_code for i in range(2)] == [201] * 2
    crowded = say(dan, game_id, "two 2")  # Dan's own turns are left; the address's are not
    assert crowded.status_code == 429 and "address" in crowded.json()["error"]
    assert "Retry-After" in crowded.headers
    assert len(texts(dan, game_id)) == 5


def test_a_new_account_chats_with_strangers_once_it_finished_a_game(
    server: ServerProcess,
) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    game_id = ann.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
    waiting = say(ann, game_id, "anyone?")
    assert waiting.status_code == 403 and "every seat" in waiting.json()["error"]
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200  # a stranger
    for client in (ann, ben):
        refused = say(client, game_id, "hi")
        assert refused.status_code == 403 and "finished a game" in refused.json()["error"]
        assert say(client, game_id, "hi", "spectators").status_code == 403
    finish_a_game(ann)
    assert say(ann, game_id, "hi").status_code == 201
    assert say(ben, game_id, "hi").status_code == 403
    assert texts(ben, game_id) == ["hi"]


def test_a_mute_hides_a_speaker_at_once_on_every_page(server: ServerProcess) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    game_id = invited_game(ann, ben)
    assert say(ben, game_id, "before").status_code == 201
    pages = [socket(server, game_id, ann) for _ in range(2)]  # two tabs
    for ws in pages:
        assert [m["text"] for m in history(ws)] == ["before"]
    muted = ann.post("/api/account/mutes", json={"name": name_of(ben)})
    assert muted.json() == {"muted": [{"name": name_of(ben)}]}
    for ws in pages:  # the open pages drop Ben's messages at once
        hidden = receive(ws, lambda m: m["type"] in ("chat", "chat_hidden"))
        assert hidden == {"type": "chat_hidden", "names": [name_of(ben)]}
    assert say(ben, game_id, "after").status_code == 201
    assert say(ann, game_id, "mine").status_code == 201
    for ws in pages:  # Ben's "after" never came
        assert next_chat(ws)["text"] == "mine"
    assert texts(ann, game_id) == ["mine"]
    assert texts(ben, game_id) == ["before", "after", "mine"]
    fresh = socket(server, game_id, ann)
    assert [m["text"] for m in history(fresh)] == ["mine"]

    assert ann.post("/api/account/mutes", json={"name": name_of(ann)}).status_code == 400
    assert ann.post("/api/account/mutes", json={"name": "nobody-x9"}).status_code == 404
    assert ann.get("/api/account/mutes").json() == {"muted": [{"name": name_of(ben)}]}
    ann.post("/api/account/mutes/remove", json={"name": name_of(ben)})
    assert texts(ann, game_id) == ["before", "after", "mine"]
    for ws in (*pages, fresh):
        ws.close()


def test_a_blocked_account_is_not_heard(server: ServerProcess) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    game_id = invited_game(ann, ben)
    assert say(ben, game_id, "hello").status_code == 201
    ws = socket(server, game_id, ann)
    assert [m["text"] for m in history(ws)] == ["hello"]
    assert ann.post("/api/account/blocks", json={"name": name_of(ben)}).status_code == 200
    hidden = receive(ws, lambda m: m["type"] in ("chat", "chat_hidden"))
    assert hidden == {"type": "chat_hidden", "names": [name_of(ben)]}  # gone from her page
    assert texts(ann, game_id) == []
    again = socket(server, game_id, ann)  # no history: Ben's "hello" is all there is
    assert say(ben, game_id, "hello?").status_code == 201
    assert say(ann, game_id, "bye").status_code == 201
    for page in (ws, again):
        assert next_chat(page)["text"] == "bye"
        page.close()


def test_a_deleted_accounts_messages_go_with_it(server: ServerProcess) -> None:
    ann, ben = player(server, "Ann"), player(server, "Ben")
    game_id = invited_game(ann, ben)
    assert say(ben, game_id, "soon gone").status_code == 201
    assert say(ann, game_id, "stays").status_code == 201
    assert ann.post("/api/account/mutes", json={"name": name_of(ben)}).status_code == 200
    gone = ben.post("/api/account/delete", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    assert texts(ann, game_id) == ["stays"]
    assert ann.get("/api/account/mutes").json() == {"muted": []}
    assert server.query_one("SELECT count(*) FROM chat_messages WHERE game_id = ?", game_id) == (1,)


def test_the_record_and_the_data_export_carry_the_chat(server: ServerProcess) -> None:
    ann, ben, cy = (player(server, n) for n in ("Ann", "Ben", "Cy"))
    finish_a_game(cy)
    game_id = invited_game(ann, ben)
    assert say(ann, game_id, "between us").status_code == 201
    stands = say(cy, game_id, "from the stands", "spectators")
    assert stands.status_code == 201, stands.text
    assert play_out(game_id, [ann, ben])["over"]  # a record is a finished game's

    def chat_of_record(client: httpx.Client) -> list[tuple[str, str]]:
        record = client.get(f"/api/games/{game_id}/record").json()
        assert "chat" in record, record
        return [(m["channel"], m["text"]) for m in record["chat"]]

    both = [("players", "between us"), ("spectators", "from the stands")]
    assert chat_of_record(ben) == both
    assert chat_of_record(cy) == [("spectators", "from the stands")]
    outsider = httpx.Client(base_url=server.url)
    assert chat_of_record(outsider) == [("spectators", "from the stands")]

    data = ann.get("/api/account/data").json()
    assert [(m["game"], m["text"]) for m in data["chat"]] == [(game_id, "between us")]
    assert data["chat_muted"] == []


def test_a_message_reaches_the_sockets_another_process_holds(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    """Two processes on one PostgreSQL: a message stored through one reaches the game's
    sockets on both, each once (the storing process also hears its own notice)."""
    url = pg_cluster.database()
    options = ("--trusted-proxy", "127.0.0.1")
    a = ServerProcess(url, log=tmp_path / "a.log", options=options).start()
    b = ServerProcess(url, log=tmp_path / "b.log", options=options).start()
    try:
        ann, ben = player(a, "Ann"), player(a, "Ben")
        game_id = invited_game(ann, ben)
        here, there = socket(a, game_id, ann), socket(b, game_id, ann)
        for text in ("one", "two"):
            assert say(ben, game_id, text).status_code == 201
        for ws in (here, there):
            assert [next_chat(ws)["text"] for _ in range(2)] == ["one", "two"]
        here.close()
        there.close()
    finally:
        a.stop()
        b.stop()


def test_copying_a_sqlite_database_to_postgresql_keeps_the_chat(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    old = Store(tmp_path / "old.sqlite3")
    ann = old.write(CreateAccount("Ann", "ann", "hash"))
    ben = old.write(CreateAccount("Ben", "ben", "hash"))
    old.write(CreateGame("g", "nmbr9", {}, 7, [Seat(0, "Ann", "human", None, None, ann)]))
    old.write(PostChat("g", ann, "players", "kept", None, cap=10))
    old.write(MuteChat(ann, ben))
    old.close()
    url = pg_cluster.database()
    copy_sqlite(str(tmp_path / "old.sqlite3"), url)
    new = PgStore(url)
    try:
        assert [(r.name, r.text) for r in new.chat_messages("g", ["players"])] == [("Ann", "kept")]
        assert new.muted_or_blocked(ann) == {ben}
        later = new.write(PostChat("g", ann, "players", "next", None, cap=10))
        assert later is not None and later[0] == 2  # the ids go on after the copied ones
    finally:
        new.close()


def test_a_channel_holds_at_most_its_cap() -> None:
    """The cap is counted by the write itself, in its transaction."""
    store = Store(":memory:")
    ann = store.write(CreateAccount("Ann", "ann", "hash"))
    store.write(CreateGame("g", "nmbr9", {}, 7, [Seat(0, "Ann", "human", None, None, ann)]))
    posts = [PostChat("g", ann, "players", f"m{i}", None, cap=2) for i in range(3)]
    assert [store.write(p) is not None for p in posts] == [True, True, False]
    assert store.write(PostChat("g", ann, "spectators", "there", None, cap=2)) is not None
    assert [r.text for r in store.chat_messages("g", ["players"])] == ["m0", "m1"]
    store.close()
