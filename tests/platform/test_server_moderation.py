"""Reports and moderators (issue 46), over the HTTP API of a real server on SQLite and
PostgreSQL: a report reaches the moderators with a snapshot of its context; bad reports
get a clear 4xx and store nothing, and a day's reports are capped; the moderator role
is granted and revoked on the command line; strangers get the same 401/403 on every
moderation route whatever they ask for; a warning reaches the account's page at once
and stays until acknowledged; a mute holds until its time; closing an account ends
its sessions and every channel at once, resigns its games and refuses its sign-in;
and every action is in the log."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator
from websockets.exceptions import ConnectionClosed

from account_support import PASSWORD, account_socket, client, error, register, unique
from tabletop.server import openapi
from tabletop.server.moderation import muted_until
from tabletop.server.moderation_writes import Logged, MuteChat
from tabletop.server.store import Store
from tabletop.server.writes import CreateAccount

from server_support import ServerProcess, open_socket, receive

#: every moderation route: (method, path, a body a moderator could send)
ROUTES = [
    ("GET", "/api/moderation", None),
    ("POST", "/api/moderation/warn", {"account": "x", "text": "be kind"}),
    ("POST", "/api/moderation/mute", {"account": "x", "hours": 1}),
    ("POST", "/api/moderation/close", {"account": "x"}),
    ("POST", "/api/moderation/reports/1/dismiss", {}),
    ("POST", "/api/moderation/reports/999999/dismiss", {}),
]


def moderator_cli(server: ServerProcess, *args: str) -> str:
    """``novaluna moderator ...`` on the server's database; what it printed."""
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "moderator", *args]
    done = subprocess.run(
        [*command, "--db", str(server.db)], capture_output=True, text=True, env=os.environ.copy()
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def name_of(who: httpx.Client) -> str:
    return str(who.get("/api/account").json()["account"]["name"])


def a_moderator(server: ServerProcess) -> httpx.Client:
    mod = register(server, unique("Mo"))
    assert "is now a moderator" in moderator_cli(server, "grant", name_of(mod))
    return mod


@pytest.fixture(scope="module")
def moderator(server: ServerProcess) -> httpx.Client:
    """The module's moderator (each grant is a process of its own: one is enough)."""
    return a_moderator(server)


def report(reporter: httpx.Client, **body: Any) -> httpx.Response:
    return reporter.post("/api/reports", json={"reason": "abuse", **body})


def open_reports(mod: httpx.Client, about: str) -> list[dict[str, Any]]:
    overview = mod.get("/api/moderation")
    assert overview.status_code == 200, overview.text
    return [r for r in overview.json()["reports"] if r["account"] == about]


def log_of(mod: httpx.Client, about: str) -> list[dict[str, Any]]:
    return [line for line in mod.get("/api/moderation").json()["log"] if line["account"] == about]


def test_strangers_get_the_same_refusal_on_every_moderation_route(
    server: ServerProcess,
) -> None:
    stranger, signed_out = register(server, unique("Sy")), client(server)
    for method, path, body in ROUTES:
        answer = stranger.request(method, path, json=body)
        assert error(answer, 403) == "only moderators may do this", (method, path)
        assert error(signed_out.request(method, path, json=body), 401) == "sign in first"


def test_a_report_reaches_the_moderators_with_its_context(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    mod, ann, ben = (
        moderator,
        register(server, unique("Ann")),
        register(server, unique("Ben")),
    )
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    game_id = ben.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
    filed = report(ann, account=name_of(ben).upper(), text="  rude <b>name</b>\n", game=game_id)
    assert filed.status_code == 201, filed.text
    (found,) = open_reports(mod, name_of(ben))
    assert found["id"] == filed.json()["report"] and found["reporter"] == name_of(ann)
    assert found["reason"] == "abuse" and found["text"] == "rude <b>name</b>"  # kept as text
    assert found["context"]["account"] == name_of(ben) and found["context"]["game"] == game_id
    assert found["context"]["created"].startswith("20")
    # a message's report: no chat here, so its context holds no messages
    filed = report(ann, account=name_of(ben), reason="spam", message=12345)
    assert filed.status_code == 201, filed.text
    spam = [r for r in open_reports(mod, name_of(ben)) if r["reason"] == "spam"]
    assert spam[0]["message"] == 12345 and spam[0]["context"]["messages"] == []


BAD_REPORTS: list[tuple[dict[str, Any], int, str]] = [
    ({"account": 7}, 400, "'account'"),
    ({"account": "Nobody-at-all"}, 404, "no player"),
    ({"reason": "boring"}, 400, "'reason'"),
    ({"reason": None}, 400, "'reason'"),
    ({"text": "x" * 501}, 400, "longer than 500"),
    ({"text": 5}, 400, "must be text"),
    ({"text": "look \u202eereh"}, 400, "direction"),
    ({"text": "bell\x07"}, 400, "control"),
    ({"game": "no-such-game"}, 400, "'game'"),
    ({"game": ["x"]}, 400, "'game'"),
    ({"message": "12"}, 400, "'message'"),
    ({"message": True}, 400, "'message'"),
    ({"message": -1}, 400, "'message'"),
]


def test_bad_reports_are_refused_and_store_nothing(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    mod, ann, ben = (
        moderator,
        register(server, unique("Ann")),
        register(server, unique("Ben")),
    )
    for bad, status, says in BAD_REPORTS:
        body = {"account": name_of(ben), "reason": "other", **bad}
        assert says in error(ann.post("/api/reports", json=body), status), bad
    assert "yourself" in error(report(ann, account=name_of(ann)), 400)
    surrogate = b'{"account": "%s", "reason": "other", "text": "a\\ud800b"}' % name_of(ben).encode()
    answer = ann.post(
        "/api/reports", content=surrogate, headers={"Content-Type": "application/json"}
    )
    assert answer.status_code == 400, answer.text
    assert error(client(server).post("/api/reports", json={"account": name_of(ben)}), 401)
    assert open_reports(mod, name_of(ben)) == []


def test_an_account_files_at_most_ten_reports_a_day(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    for _ in range(10):
        assert report(ann, account=name_of(ben)).status_code == 201
    assert "reports today" in error(report(ann, account=name_of(ben)), 429)


def test_the_role_is_granted_listed_and_revoked_on_the_command_line(
    server: ServerProcess,
) -> None:
    mod = a_moderator(server)
    assert name_of(mod) in moderator_cli(server, "list").split()
    assert "already" in moderator_cli(server, "grant", name_of(mod))
    assert "no longer" in moderator_cli(server, "revoke", name_of(mod))
    assert error(mod.get("/api/moderation"), 403)


def test_a_warning_reaches_the_account_at_once_until_acknowledged(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    mod, ann, ben = (
        moderator,
        register(server, unique("Ann")),
        register(server, unique("Ben")),
    )
    report_id = report(ann, account=name_of(ben)).json()["report"]
    sock = account_socket(server, ben)
    receive(sock, lambda m: m["type"] == "games")
    body = {"account": name_of(ben), "text": "Please keep it friendly.", "report": report_id}
    assert mod.post("/api/moderation/warn", json=body).status_code == 200
    assert receive(sock, lambda m: m["type"] != "games") == {"type": "warning"}
    (warning,) = ben.get("/api/account/warnings").json()["warnings"]
    assert warning["text"] == "Please keep it friendly."
    assert open_reports(mod, name_of(ben)) == []  # acting on it closed the report
    (line,) = log_of(mod, name_of(ben))
    assert line["action"] == "warn" and line["report"] == report_id
    assert line["moderator"] == name_of(mod) and line["details"]["text"] == body["text"]
    # nobody else acknowledges it; then the account does, once
    assert error(ann.post(f"/api/account/warnings/{warning['id']}/acknowledge"), 404)
    done = ben.post(f"/api/account/warnings/{warning['id']}/acknowledge")
    assert done.status_code == 200 and done.json() == {"warnings": []}
    assert error(ben.post(f"/api/account/warnings/{warning['id']}/acknowledge"), 404)
    assert ben.get("/api/account/warnings").json() == {"warnings": []}
    # both accounts' data exports hold what they were given and what they filed
    (kept,) = ben.get("/api/account/data").json()["warnings"]
    assert kept["text"] == body["text"] and kept["acknowledged"]
    (filed,) = ann.get("/api/account/data").json()["reports_filed"]
    assert filed["account"] == name_of(ben) and filed["state"] == "closed"
    # a report can only be acted on once, and only about its own account
    again = mod.post("/api/moderation/warn", json=body)
    assert "not open" in error(again, 409)
    sock.close()


def test_a_mute_is_stored_until_its_time_and_logged(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    mod, ben = moderator, register(server, unique("Ben"))
    bad: list[dict[str, Any]] = [
        {"hours": -1},
        {"hours": "2"},
        {"hours": True},
        {"hours": 10**9},
        {},
    ]
    for extra in bad:
        refused = mod.post("/api/moderation/mute", json={"account": name_of(ben), **extra})
        assert "'hours'" in error(refused, 400), extra
    muted = mod.post("/api/moderation/mute", json={"account": name_of(ben), "hours": 2})
    assert muted.status_code == 200, muted.text
    until = muted.json()["muted_until"]
    row = server.query_one(
        "SELECT m.until FROM chat_mutes m JOIN accounts a ON a.id = m.account_id WHERE a.name = ?",
        name_of(ben),
    )
    assert row is not None and abs(row[0] - until) < 1e-3
    (line,) = log_of(mod, name_of(ben))
    assert line["action"] == "mute" and line["details"]["hours"] == 2
    assert "own account" in error(
        mod.post("/api/moderation/mute", json={"account": name_of(mod), "hours": 1}), 400
    )
    assert error(mod.post("/api/moderation/mute", json={"account": "No-one", "hours": 1}), 404)


def test_muted_until_reads_the_time_it_is_asked_at(tmp_path: Any) -> None:
    """The chat's "may post" check: muted before the mute's time, free from it on."""
    store = Store(str(tmp_path / "m.sqlite3"))
    ann = store.write(CreateAccount("Ann", "ann", "x"))
    assert muted_until(store, ann, now=1000.0) is None  # never muted
    store.write(MuteChat(Logged(ann, "Ann", ann, "Ann", None, "{}"), 5000.0))
    assert muted_until(store, ann, now=4999.0) == 5000.0
    assert muted_until(store, ann, now=5000.0) is None
    store.close()


def _closed(ws: Any) -> int | None:
    """Read until the channel closes; its close code."""
    try:
        while True:
            ws.recv(timeout=15)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


def test_closing_an_account_ends_everything_at_once(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    mod, bad = moderator, register(server, unique("Bad"))
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    game = bad.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()
    token = game["seats"][0]["token"]
    other = client(server)  # a second sign-in of the same account
    assert (
        other.post(
            "/api/account/login", json={"name": name_of(bad), "password": PASSWORD}
        ).status_code
        == 200
    )
    account_ws = account_socket(server, other)
    receive(account_ws, lambda m: m["type"] == "games")
    game_ws = open_socket(server, game["id"], [token])
    receive(game_ws, lambda m: m["type"] == "state")

    closing_it = mod.post(
        "/api/moderation/close", json={"account": name_of(bad), "note": "spam bot"}
    )
    assert closing_it.status_code == 200, closing_it.text
    assert _closed(account_ws) == 4401
    assert bad.get("/api/account").json()["account"] is None  # its sessions ended
    assert other.get("/api/account").json()["account"] is None
    state = httpx.get(f"{server.url}/api/games/{game['id']}").json()
    assert state["over"]  # resigned, as a deleted account's games are
    again = client(server).post(
        "/api/account/login",
        json={"name": name_of_closed(server, game["id"]), "password": PASSWORD},
    )
    assert "closed" in error(again, 403)
    (line,) = log_of(mod, name_of_closed(server, game["id"]))
    assert line["action"] == "close" and line["details"] == {"note": "spam bot"}
    game_ws.close()


def name_of_closed(server: ServerProcess, game_id: str) -> str:
    """A closed account's name, from its game (its own session is gone)."""
    row = server.query_one("SELECT name FROM seats WHERE game_id = ? AND seat = 0", game_id)
    assert row is not None
    return str(row[0])


def test_a_report_is_dismissed_once_and_a_deleted_reporter_leaves_it(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    mod, ann, ben = (
        moderator,
        register(server, unique("Ann")),
        register(server, unique("Ben")),
    )
    report_id = report(ann, account=name_of(ben)).json()["report"]
    gone = ann.post("/api/account/delete", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text
    (found,) = open_reports(mod, name_of(ben))
    assert found["reporter"] is None  # the report outlives its reporter
    dismissed = mod.post(f"/api/moderation/reports/{report_id}/dismiss", json={"note": "fine"})
    assert dismissed.json() == {"report": report_id, "dismissed": True}
    assert error(mod.post(f"/api/moderation/reports/{report_id}/dismiss", json={}), 404)
    assert open_reports(mod, name_of(ben)) == []
    (line,) = log_of(mod, name_of(ben))
    assert line["action"] == "dismiss" and line["details"] == {"note": "fine"}


def test_a_reported_message_keeps_the_messages_before_it(tmp_path: Any) -> None:
    """The snapshot against the chat's documented table (chat_messages: id, game_id,
    account_id, channel, text, at): the message and the ten before it in its channel."""
    path = tmp_path / "c.sqlite3"
    store = Store(str(path))
    ann = store.write(CreateAccount("Ann", "ann", "x"))
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "CREATE TABLE IF NOT EXISTS chat_messages (id INTEGER PRIMARY KEY, game_id TEXT, "
            "account_id INTEGER, channel TEXT, text TEXT, at TEXT)"
        )
        for n in range(1, 16):
            channel = "spectators" if n == 3 else "players"
            db.execute(
                "INSERT INTO chat_messages (id, game_id, account_id, channel, text, at) "
                "VALUES (?, 'g', ?, ?, ?, '2026')",
                (n, ann, channel, f"message {n}"),
            )
    context: Callable[[int], list[dict[str, Any]]] = store.chat_context
    shown = context(14)
    assert [m["text"] for m in shown] == [f"message {n}" for n in range(4, 15)]
    assert shown[-1]["name"] == "Ann" and context(999) == []
    assert [m["id"] for m in context(4)] == [1, 2, 4]  # the other channel left out
    store.close()


def conforms(method: str, path: str, answer: httpx.Response) -> None:
    """``answer`` is what the OpenAPI document says the operation answers when done."""
    operation = openapi.OPERATIONS[(method, path)]
    (status,) = [code for code, r in operation["responses"].items() if "content" in r]
    assert str(answer.status_code) == status, answer.text
    schema = operation["responses"][status]["content"]["application/json"]["schema"]
    Draft202012Validator(schema).validate(answer.json())


def test_every_answer_of_a_moderator_is_the_documented_one(
    server: ServerProcess, moderator: httpx.Client
) -> None:
    """The fuzzer (test_openapi.py) has no moderator: each done answer checked here."""
    mod, ann, ben = moderator, register(server, unique("Ann")), register(server, unique("Ben"))
    filed = report(ann, account=name_of(ben), text="x")
    conforms("POST", "/api/reports", filed)
    conforms("GET", "/api/moderation", mod.get("/api/moderation"))
    on = {"account": name_of(ben)}
    conforms(
        "POST", "/api/moderation/warn", mod.post("/api/moderation/warn", json={**on, "text": "hi"})
    )
    conforms("GET", "/api/account/warnings", ben.get("/api/account/warnings"))
    (warning,) = ben.get("/api/account/warnings").json()["warnings"]
    path = "/api/account/warnings/{warning_id}/acknowledge"
    conforms("POST", path, ben.post(f"/api/account/warnings/{warning['id']}/acknowledge"))
    conforms(
        "POST", "/api/moderation/mute", mod.post("/api/moderation/mute", json={**on, "hours": 0})
    )
    dismissed = mod.post(f"/api/moderation/reports/{filed.json()['report']}/dismiss", json={})
    conforms("POST", "/api/moderation/reports/{report_id}/dismiss", dismissed)
    conforms("POST", "/api/moderation/close", mod.post("/api/moderation/close", json=on))
