"""Correspondence play (issue 46): days per move checked, the lobby showing them, one
reminder per move by the channels each player chose (account socket, e-mail) moved by
the test clock, none after the move is made, the time running out as ``on_timeout``
says, across a kill -9 and across two processes on PostgreSQL (one mail); and the
rating pools: a correspondence game moves only its own pool, and the migration keeps
every stored rating as it was (the live pool)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from account_support import account_socket, play_out
from pg_support import PgCluster
from tabletop.server.correspondence_writes import SaveReminderChannels
from tabletop.server.pgstore import MIGRATIONS as PG_MIGRATIONS
from tabletop.server.pgstore import PgStore, migrate
from tabletop.server.ratings import RatedEnd
from tabletop.server.sql import CORRESPONDENCE_TABLES, SQLITE, ddl, statements
from tabletop.server.storage import Seat
from tabletop.server.store import MIGRATIONS, SCHEMA, Store
from tabletop.server.writes import CreateAccount

from clock_support import DAY, HOUR, TEST_CLOCK, advance_clock
from mail_support import Inbox, body, link, smtp_server, token_of
from server_support import ServerProcess, receive

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[int, Inbox]]:
    with smtp_server() as found:
        yield found


def serving(db: Path | str, log: Path, smtp_port: int, **more: Any) -> ServerProcess:
    """A server with the test clock that mails through the test's SMTP server."""
    proc = ServerProcess(db, log=log, **more)
    proc.options = (
        *TEST_CLOCK,
        *("--smtp", f"smtp://127.0.0.1:{smtp_port}", "--public-url", proc.url),
        *("--mail-from", "games@example.org", "--mail-delay", "0"),
    )
    return proc


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, smtp: tuple[int, Inbox]
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    proc = serving(folder / "games.sqlite3", folder / "server.log", smtp[0]).start()
    yield proc
    proc.stop()


def register(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    name = f"{name}{time.monotonic_ns() % 10**8}"
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def subscribe(client: httpx.Client, inbox: Inbox, lang: str = "en") -> str:
    """Give the account a confirmed address (its turns mailed too: ``mode`` "turn")."""
    name = client.get("/api/account").json()["account"]["name"]
    address = f"{name.lower()}@example.org"
    saved = client.post(
        "/api/account/email", json={"address": address, "mode": "turn", "lang": lang}
    )
    assert saved.status_code == 200, saved.text
    (mail,) = inbox.wait(address)  # the first mail: the confirmation
    answer = client.post("/api/mail/verify", json={"token": token_of(link(mail, "/mail/verify"))})
    assert answer.status_code == 200, answer.text
    return address


def correspondence(creator: httpx.Client, joiner: httpx.Client, days: int = 2, **more: Any) -> str:
    """A rated Nova Luna game of two accounts with ``days`` per move, both seated."""
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    body = {"type": "nova-luna", "seats": seats, "days_per_move": days, **more}
    answer = creator.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    assert joiner.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    return game_id


def to_move(players: list[httpx.Client], game_id: str) -> tuple[httpx.Client, httpx.Client]:
    """``(the player to move, the other)``."""
    state = players[0].get(f"/api/games/{game_id}").json()
    (seat,) = state["active"]
    return players[seat], players[1 - seat]


def move(player: httpx.Client, game_id: str) -> None:
    state = player.get(f"/api/games/{game_id}").json()
    action = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    answer = player.post(f"/api/games/{game_id}/actions", json=action)
    assert answer.status_code == 200, answer.text


def reminders(inbox: Inbox, address: str) -> list[Any]:
    """The reminder mails to ``address`` so far (in English or, for Ann, German)."""
    return [m for m in inbox.to(address) if m["Subject"].startswith(SUBJECTS)]


#: how a reminder mail's subject begins, in the languages the tests' accounts choose
SUBJECTS = ("Reminder: ", "Erinnerung: ")


def wait_reminders(inbox: Inbox, address: str, count: int = 1) -> list[Any]:
    """The reminder mails to ``address`` once there are ``count`` (the deadline only
    bounds a hang)."""
    deadline = time.monotonic() + 30
    while len(found := reminders(inbox, address)) < count:
        assert time.monotonic() < deadline, f"{len(found)} reminders to {address}, not {count}"
        time.sleep(0.05)
    return found


def is_reminder(game_id: str) -> Any:
    return lambda m: m["type"] == "reminder" and m["game"]["id"] == game_id


def error(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    return str(response.json()["error"])


# -- the option ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        {"days_per_move": 4},
        {"days_per_move": "2"},
        {"days_per_move": 0},
        {"days_per_move": True},
        {"days_per_move": 2, "time_limit": 3600},
        {"days_per_move": 2, "on_timeout": "later"},
    ],
)
def test_a_bad_days_per_move_is_a_400_that_creates_nothing(
    server: ServerProcess, extra: dict[str, Any]
) -> None:
    ann = register(server, "Ann")
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    answer = ann.post("/api/games", json={"type": "nmbr9", "seats": seats, **extra})
    error(answer, 400)
    assert ann.get("/api/account").json()["games"] == []


def test_the_lobby_shows_a_games_days_per_move(server: ServerProcess) -> None:
    ann = register(server, "Ann")
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    answer = ann.post("/api/games", json={"type": "nmbr9", "seats": seats, "days_per_move": 3})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    (game,) = [g for g in ann.get("/api/lobby").json()["games"] if g["id"] == game_id]
    assert game["days_per_move"] == 3 and game["time_limit"] == 3 * DAY
    assert game["pool"] == "correspondence" and game["on_timeout"] == "abandon"
    plain = ann.post("/api/games", json={"type": "nmbr9", "seats": seats, "time_limit": DAY})
    (other,) = [g for g in ann.get("/api/lobby").json()["games"] if g["id"] == plain.json()["id"]]
    assert other["days_per_move"] is None and other["pool"] == "live"


def test_reminder_channels_are_checked_and_saved(server: ServerProcess) -> None:
    ann = register(server, "Ann")
    assert ann.get("/api/account/reminders").json()["push"] is True
    assert ann.get("/api/account/reminders").json()["lead"] == {
        "1": 6 * HOUR,
        **{str(d): DAY for d in (2, 3, 5, 7, 14)},
    }
    for bad in ({"push": "no"}, {"mail": 0}, {"push": None}):
        error(ann.post("/api/account/reminders", json=bad), 400)
    error(ann.post("/api/account/reminders", content=b"[1]"), 400)
    saved = ann.post("/api/account/reminders", json={"mail": False}).json()
    assert (saved["push"], saved["mail"]) == (True, False)
    assert ann.get("/api/account/reminders").json()["mail"] is False
    error(httpx.get(f"{server.url}/api/account/reminders"), 401)
    export = ann.get("/api/account/data").json()
    assert [(r["push"], r["mail"]) for r in export["reminders"]] == [(True, False)]
    # the choice goes with the account
    assert ann.post("/api/account/delete", json={"password": PASSWORD}).json()["deleted"]


# -- reminders ------------------------------------------------------------------------------


def test_one_reminder_per_move_by_socket_and_mail_then_the_time_runs_out(
    server: ServerProcess, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    ann, ben = register(server, "Ann"), register(server, "Ben")
    address = {id(ann): subscribe(ann, inbox, "de"), id(ben): subscribe(ben, inbox)}

    def count(who: httpx.Client) -> int:
        return len(reminders(inbox, address[id(who)]))

    game_id = correspondence(ann, ben, days=2)
    sockets = {id(p): account_socket(server, p) for p in (ann, ben)}
    try:
        first, _ = to_move([ann, ben], game_id)
        advance_clock(server, DAY + HOUR)  # 2 days per move: reminded a day before the end
        pushed = receive(sockets[id(first)], is_reminder(game_id))
        assert 0 < pushed["left"] < DAY and pushed["game"]["your_turn"]
        (mail,) = wait_reminders(inbox, address[id(first)])
        text = body(mail)
        assert (
            f"/g/{game_id}" in text and "/mail/unsubscribe" in text and "List-Unsubscribe" in mail
        )
        if first is ann:  # in the reader's language
            assert mail["Content-Language"] == "de" and "Erinnerung" in mail["Subject"]
        sent = 1
        advance_clock(server, HOUR)  # more time passing reminds nobody again
        move(first, game_id)
        # whoever is to move now moves at once: that move gets no reminder; the next does
        quick, _ = to_move([ann, ben], game_id)
        move(quick, game_id)
        slow, _ = to_move([ann, ben], game_id)
        before = count(slow)
        advance_clock(server, DAY + HOUR)
        receive(sockets[id(slow)], is_reminder(game_id))
        wait_reminders(inbox, address[id(slow)], count=before + 1)
        sent += 1
        assert count(ann) + count(ben) == sent  # one a move: none for the quick one, none twice
        # the end of the move's time: rated among people, running out loses
        advance_clock(server, DAY)
        state = wait_state(ann, game_id, lambda s: s["abandoned"])
        assert state["over"] and state["active"] == []
        assert count(ann) + count(ben) == sent
    finally:
        for ws in sockets.values():
            ws.close()


def wait_state(player: httpx.Client, game_id: str, until: Any) -> dict[str, Any]:
    """The game's state once ``until(state)`` holds (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 60
    while not until(state := player.get(f"/api/games/{game_id}").json()):
        assert time.monotonic() < deadline, "the game never got there"
        time.sleep(0.05)
    return dict(state)


def nmbr9(players: list[httpx.Client], days: int) -> str:
    """A rated NMBR 9 game of ``players`` with ``days`` per move: every round all of
    them are to move at once, and all their times run at once."""
    seats = [{"kind": "human", "me": True}, *({"kind": "human", "open": True} for _ in players[1:])]
    answer = players[0].post(
        "/api/games", json={"type": "nmbr9", "seats": seats, "days_per_move": days}
    )
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    for other in players[1:]:
        assert other.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    return game_id


def test_each_player_is_reminded_by_the_channels_it_chose(
    server: ServerProcess, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    cara, dan, eve = (register(server, n) for n in ("Cara", "Dan", "Eve"))
    address = {id(p): subscribe(p, inbox) for p in (cara, dan, eve)}
    chosen = ((cara, True, False), (dan, False, True), (eve, False, False))  # push, mail
    for player, push, by_mail in chosen:
        saved = player.post("/api/account/reminders", json={"push": push, "mail": by_mail})
        assert saved.status_code == 200, saved.text
    game_id = nmbr9([cara, dan, eve], days=1)
    sockets = {id(p): account_socket(server, p) for p in (cara, dan, eve)}
    try:
        advance_clock(server, 18 * HOUR + 60)  # 1 day per move: reminded 6 hours before
        receive(sockets[id(cara)], is_reminder(game_id))
        (mail,) = wait_reminders(inbox, address[id(dan)])
        assert f"/g/{game_id}" in body(mail)
        # Dan and Eve move: each socket says so, after any reminder it was sent (none)
        for player in (dan, eve):
            move(player, game_id)
            seen = until_moved(sockets[id(player)], game_id)
            assert not [m for m in seen if m["type"] == "reminder"]
        assert not reminders(inbox, address[id(cara)]) and not reminders(inbox, address[id(eve)])
    finally:
        for ws in sockets.values():
            ws.close()


def until_moved(ws: Any, game_id: str) -> list[dict[str, Any]]:
    """The account socket's messages up to the one saying the account moved in the game
    (it is no longer to move)."""
    seen: list[dict[str, Any]] = []

    def moved(message: dict[str, Any]) -> bool:
        seen.append(message)
        game = message.get("game", {})
        return message["type"] == "game" and game["id"] == game_id and not game["your_turn"]

    receive(ws, moved)
    return seen


def test_the_deadline_and_the_reminder_come_after_a_kill_9(
    tmp_path: Path, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    proc = serving(tmp_path / "crash.sqlite3", tmp_path / "crash.log", smtp[0]).start()
    try:
        ann, ben = register(proc, "Ann"), register(proc, "Ben")
        addresses = [subscribe(ann, inbox), subscribe(ben, inbox)]
        game_id = nmbr9([ann, ben], days=1)
        proc.kill9()
        proc.start()
        advance_clock(proc, 18 * HOUR + 60)  # reminded 6 hours before the end
        for address in addresses:
            wait_reminders(inbox, address)
        advance_clock(proc, 6 * HOUR)  # and the time runs out: both lose, nobody is rated
        state = wait_state(ann, game_id, lambda s: s["abandoned"])
        assert state["over"] and state["ply"] == 0
        assert [len(reminders(inbox, a)) for a in addresses] == [1, 1]
    finally:
        proc.stop()


def test_two_processes_on_postgresql_send_one_reminder(
    pg_cluster: PgCluster, tmp_path: Path, smtp: tuple[int, Inbox]
) -> None:
    inbox = smtp[1]
    url = pg_cluster.database()
    a = serving(url, tmp_path / "a.log", smtp[0], workers=1).start()
    b = serving(url, tmp_path / "b.log", smtp[0], workers=1).start()
    try:
        ann = register(a, "Ann")
        ben = register(b, "Ben")
        addresses = [subscribe(ann, inbox), subscribe(ben, inbox)]
        game_id = nmbr9([ann, ben], days=1)  # created on one process, joined on the other
        for proc in (a, b):
            httpx.get(f"{proc.url}/api/games/{game_id}").raise_for_status()  # both hold it
            advance_clock(proc, 18 * HOUR + 60)
        for address in addresses:
            wait_reminders(inbox, address)
        # each process tried each reminder: one sent it, the other found it sent
        logs = [tmp_path / "a.log", tmp_path / "b.log"]
        deadline = time.monotonic() + 60
        while sum(log.read_text().count(f"reminder in game {game_id}") for log in logs) < 4:
            assert time.monotonic() < deadline, "a process never came to the reminder"
            time.sleep(0.05)
        text = "".join(log.read_text() for log in logs)
        assert text.count(f"sent a reminder in game {game_id}") == 2
        assert [len(reminders(inbox, a)) for a in addresses] == [1, 1]
    finally:
        a.stop()
        b.stop()


# -- rating pools ---------------------------------------------------------------------------


def test_a_correspondence_game_moves_only_the_correspondence_pool(server: ServerProcess) -> None:
    ann = register(server, "Ann")
    seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": "greedy"}]
    answer = ann.post("/api/games", json={"type": "nmbr9", "seats": seats, "days_per_move": 1})
    game_id = answer.json()["id"]
    assert play_out(game_id, [ann])["over"]
    name = ann.get("/api/account").json()["account"]["name"]
    boards = {
        pool: ann.get(f"/api/leaderboard/nmbr9?pool={pool}").json()
        for pool in ("live", "correspondence")
    }
    assert boards["correspondence"]["pool"] == "correspondence"
    games = {
        pool: {p["name"]: p["games"] for p in board["players"]} for pool, board in boards.items()
    }
    assert games["correspondence"][name] == 1 and name not in games["live"]
    assert boards["correspondence"]["you"]["player"]["games"] == 1
    assert boards["live"]["you"]["player"] is None
    rating = ann.get(f"/api/players/{name}").json()["ratings"]["nmbr9"]
    assert rating["games"] == 0 and rating["pools"]["correspondence"]["games"] == 1
    error(ann.get("/api/leaderboard/nmbr9?pool=blitz"), 400)


RATING = ("nmbr9", "a:1", 27.5, 6.25, 4)
CHANGE = ("g1", "a:1", 1, 3.0, 8.75, 0.5)


def test_the_migration_keeps_every_stored_rating_in_the_live_pool(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    mine = MIGRATIONS.index(ddl(CORRESPONDENCE_TABLES, SQLITE))
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    for step in MIGRATIONS[:mine]:
        for statement in statements(step, SQLITE):
            db.execute(statement)
    db.execute(f"PRAGMA user_version = {mine}")
    db.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, ?)", RATING)
    db.execute(
        "INSERT INTO rating_changes (game_id, player, rank, before, after, weight) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        CHANGE,
    )
    db.commit()
    db.close()
    store = Store(path)
    try:
        assert store.rating("nmbr9", "a:1") == (27.5, 6.25, 4)
        assert store.rating("nmbr9:correspondence", "a:1")[2] == 0
        rows = store._db.execute("SELECT * FROM rating_changes").fetchall()  # noqa: SLF001
        assert rows == [(*CHANGE, "live")]
    finally:
        store.close()


def test_the_postgresql_migration_keeps_every_stored_rating(pg_cluster: PgCluster) -> None:
    url = pg_cluster.database()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY)")
        for version in sorted(v for v in PG_MIGRATIONS if v != 18):
            db.execute(PG_MIGRATIONS[version])
            db.execute("INSERT INTO schema_version VALUES (%s)", (version,))
        db.execute("INSERT INTO ratings VALUES (%s, %s, %s, %s, %s)", RATING)
        db.execute(
            "INSERT INTO games (id, type, options, seed, created, updated) "
            "VALUES ('g1', 'nmbr9', '{}', 1, '2026', '2026')"
        )
        db.execute(
            "INSERT INTO rating_changes (game_id, player, rank, before, after, weight) "
            "VALUES (%s, %s, %s, %s, %s, %s)",
            CHANGE,
        )
    assert migrate(url) == 1
    with psycopg.connect(url) as db:
        assert db.execute("SELECT * FROM ratings").fetchall() == [RATING]
        assert db.execute("SELECT * FROM rating_changes").fetchall() == [(*CHANGE, "live")]


def test_db_copy_keeps_the_pools_and_the_reminder_choices(
    tmp_path: Path, pg_cluster: PgCluster
) -> None:
    path = tmp_path / "games.sqlite3"
    old = Store(path)
    ann = old.write(CreateAccount("Ann", "ann", "hash"))
    old.write(SaveReminderChannels(ann, False, True))
    seats = [Seat(0, "Ann", "human", None, "t", ann), Seat(1, "Bot", "bot", "random")]
    old.create_game("g", "nmbr9", {"days_per_move": 1, "time_limit": DAY}, 1, seats)
    ended = RatedEnd("nmbr9", (f"a:{ann}", "b:random"), (1, 2), "correspondence")
    old.append_action("g", 0, 0, "x", False, True, None, ended, (1, 2))
    old.close()
    url = pg_cluster.database()
    command = [sys.executable, "-m", "tabletop.cli", "novaluna", "db", "copy", str(path), url]
    subprocess.run(command, capture_output=True, text=True, check=True)
    store = PgStore(url)
    try:
        assert store.rating("nmbr9:correspondence", f"a:{ann}")[2] == 1
        assert store.rating("nmbr9", f"a:{ann}")[2] == 0
        assert store.reminder_channels(ann) == (False, True)
    finally:
        store.close()
    with psycopg.connect(url) as db:
        pools = db.execute("SELECT DISTINCT pool FROM rating_changes").fetchall()
    assert pools == [("correspondence",)]
