"""Accounts, sessions, the open-games lobby, turn-based time limits and ratings, over
the HTTP API of a real server (issue 19); every new endpoint also with bad input:
a 4xx with a clear message, and nothing changed."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from account_support import (
    PASSWORD,
    client,
    error,
    open_game,
    play_out,
    register,
    unique,
)
from tabletop.i18n import catalogue
from tabletop.server.store import MIGRATIONS, Store

from clock_support import HOUR, TEST_CLOCK, advance_clock
from server_support import Api, ServerProcess, open_socket, receive

OLD_DB = Path(__file__).parent / "data" / "games-before-accounts.sqlite3"
NewDb = Callable[[str], Path | str]  # the ``database`` fixture: either storage


def wait(player: httpx.Client, game_id: str, until: Any) -> dict[str, Any]:
    """The game's state once ``until(state)`` holds (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = player.get(f"/api/games/{game_id}").json()
        if until(state):
            return state
        time.sleep(0.02)
    raise AssertionError("the game never got there")


# -- accounts and sessions -----------------------------------------------------------


def test_register_login_logout_and_cookie_flags(server: ServerProcess) -> None:
    name = unique("Ann")
    ann = register(server, name)
    assert ann.cookies["session"]
    info = ann.get("/api/account").json()
    assert info["account"] == {"name": name} and info["games"] == []
    other = client(server)
    r = other.post("/api/account/login", json={"name": name.upper(), "password": PASSWORD})
    assert r.status_code == 200
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    assert other.post("/api/account/logout").json() == {"account": None}
    assert other.get("/api/account").json()["account"] is None
    assert ann.get("/api/account").json()["account"] == {"name": name}  # the other session


def test_the_session_is_stored_hashed(server: ServerProcess) -> None:
    ann = register(server, unique("Hash"))
    token = ann.cookies["session"]
    row = server.query_one(
        "SELECT COUNT(*), MIN(LENGTH(token_hash)), SUM(CASE WHEN token_hash = ? THEN 1 ELSE 0 "
        "END) FROM sessions",
        token,
    )
    assert row is not None and row[0] > 0 and row[1] == 64 and row[2] == 0


def test_signing_in_again_replaces_the_session(server: ServerProcess) -> None:
    name = unique("Rep")
    ann = register(server, name)
    before = _count(server, "sessions")
    first = ann.cookies["session"]
    assert ann.post("/api/account/login", json={"name": name, "password": PASSWORD}).is_success
    assert ann.cookies["session"] != first and _count(server, "sessions") == before


def test_logout_everywhere_ends_every_session(server: ServerProcess) -> None:
    name = unique("Eve")
    first = register(server, name)
    second = client(server)
    second.post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert second.get("/api/account").json()["account"] is not None
    assert first.post("/api/account/logout-everywhere").json()["sessions_ended"] == 2
    assert first.get("/api/account").json()["account"] is None
    assert second.get("/api/account").json()["account"] is None


def test_wrong_password_and_unknown_name_get_one_message(server: ServerProcess) -> None:
    name = unique("Gil")
    register(server, name)
    c = client(server)
    wrong = error(c.post("/api/account/login", json={"name": name, "password": "x" * 9}), 401)
    unknown = error(c.post("/api/account/login", json={"name": "Nobody", "password": "x" * 9}), 401)
    assert wrong == unknown == "wrong name or password"
    assert "session" not in c.cookies


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (None, 400, "send a JSON object"),
        ({"name": "Al"}, 400, "'password' must be text"),
        ({"password": PASSWORD}, 400, "'name' must be text"),
        ({"name": "A", "password": PASSWORD}, 400, "a name is 2 to 24 characters long"),
        ({"name": "Al<b>", "password": PASSWORD}, 400, "letters, digits"),
        ({"name": "Al\u200b", "password": PASSWORD}, 400, "visible characters"),
        ({"name": "Alma", "password": "short"}, 400, "a password is 8 to 200"),
        ({"name": "Alma", "password": "x" * 201}, 400, "a password is 8 to 200"),
    ],
)
def test_registration_refuses_bad_input(
    server: ServerProcess, body: Any, status: int, message: str
) -> None:
    c = client(server)
    before = _count(server, "accounts")
    assert message in error(c.post("/api/account/register", json=body), status)
    assert _count(server, "accounts") == before and "session" not in c.cookies


def test_a_taken_name_is_refused_whatever_its_case(server: ServerProcess) -> None:
    name = unique("Taken")
    register(server, name)
    before = _count(server, "accounts")
    r = client(server).post(
        "/api/account/register", json={"name": name.lower(), "password": PASSWORD}
    )
    assert error(r, 409) == "that name is taken; choose another"
    assert _count(server, "accounts") == before


def test_not_json_and_signed_out_requests_are_refused(server: ServerProcess) -> None:
    c = client(server)
    assert "not valid JSON" in error(c.post("/api/account/login", content=b"{"), 400)
    assert error(c.post("/api/account/logout-everywhere"), 401) == "sign in first"
    assert c.post("/api/account/logout").status_code == 200  # signed out already: fine
    assert error(c.get("/api/players/nobody-here"), 404) == "there is no player of that name"
    assert error(c.get("/api/leaderboard/chess"), 404) == "this server hosts no such game"


def test_other_sites_cannot_use_the_session(server: ServerProcess) -> None:
    ann = register(server, unique("Ori"))
    evil = {"Origin": "http://evil.example"}
    r = ann.post("/api/games", json={"seats": [{"kind": "human"}]}, headers=evil)
    assert error(r, 403) == "requests from other sites cannot use your session"
    assert error(ann.post("/api/account/logout-everywhere", headers=evil), 403)
    assert ann.get("/api/account").json()["account"] is not None
    game_id = open_game(ann)
    url = f"{server.ws_url}/api/games/{game_id}/ws"
    cookie = {"Cookie": f"session={ann.cookies['session']}"}
    with pytest.raises(InvalidStatus):  # refused before the handshake completes
        connect(url, additional_headers={**cookie, **evil}, open_timeout=5).close()
    own = {"Origin": server.url}
    with connect(url, additional_headers={**cookie, **own}, open_timeout=5) as ws:
        ws.send(json.dumps({"type": "hello", "tokens": []}))
        state = json.loads(ws.recv(timeout=5))
        assert state["type"] == "state" and state["you"] == [0]  # the account's seat


def test_login_and_registration_are_rate_limited(tmp_path: Path) -> None:
    limited = ServerProcess(tmp_path / "rates.sqlite3", rates=True).start()
    try:
        c = client(limited)
        answers = [
            c.post("/api/account/login", json={"name": "Ann", "password": "x" * 9}).status_code
            for _ in range(7)
        ]
        assert answers[:5] == [401] * 5 and answers[-1] == 429
        r = c.post("/api/account/register", json={"name": "Ann", "password": PASSWORD})
        assert "too many sign-in attempts" in error(r, 429)
    finally:
        limited.stop()


# -- open games, seats and my games --------------------------------------------------


def test_open_game_is_listed_joined_and_named(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = open_game(ann, time_limit=2 * 24 * 3600)
    listed = next(g for g in ann.get("/api/lobby").json()["games"] if g["id"] == game_id)
    # rated among people: running out of time loses (fair play, docs/web.md)
    assert listed["time_limit"] == 2 * 24 * 3600 and listed["on_timeout"] == "abandon"
    # the time per move under its name, and under the name older clients know
    assert listed["options"]["time_limit"] == listed["options"]["clock"] == 2 * 24 * 3600
    assert [s["open"] for s in listed["seats"]] == [False, True, False]
    assert error(ann.post(f"/api/games/{game_id}/actions", json={"action": "x", "ply": 0}), 409)
    joined = ben.post(f"/api/games/{game_id}/join", json={}).json()
    assert joined["seat"] == 1
    names = [s["name"] for s in ann.get(f"/api/games/{game_id}").json()["game"]["seats"]]
    assert names[:2] == [ann.get("/api/account").json()["account"]["name"],
                         ben.get("/api/account").json()["account"]["name"]]  # fmt: skip
    assert game_id not in [g["id"] for g in ann.get("/api/lobby").json()["games"]]
    mine = ben.get("/api/account").json()["games"]
    assert mine[0]["id"] == game_id and mine[0]["your_turn"] is True


def test_join_refuses_bad_requests(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = open_game(ann)
    path = f"/api/games/{game_id}/join"
    assert "sign in" in error(client(server).post(path, json={}), 401)
    assert error(ann.post(path, json={}), 409) == "you already have a seat in this game"
    assert error(ben.post(path, json={"seat": "one"}), 400)
    assert error(ben.post(path, json={"seat": 2}), 409) == "that seat is not open"
    assert error(ben.post(path, json=[1]), 400) == "send a JSON object"
    assert error(ben.post("/api/games/nope/join", json={}), 404)
    lobby = ann.get("/api/lobby").json()["games"]
    assert next(g for g in lobby if g["id"] == game_id)["seats"][1]["open"]  # nothing changed
    assert ben.post(path, json={"seat": 1}).status_code == 200
    cat = register(server, unique("Cat"))
    assert error(cat.post(path, json={}), 409) == "this game has no open seat left"


def test_create_refuses_bad_turn_based_and_open_seats(server: ServerProcess) -> None:
    ann = register(server, unique("Ann"))
    anonymous = client(server)
    open_seat = [{"kind": "human", "open": True}, {"kind": "bot", "bot": "greedy"}]
    cases = [
        (anonymous, {"seats": open_seat}, 401, "sign in"),
        (ann, {"seats": [{"kind": "bot", "bot": "greedy", "open": True}]}, 400, "human seat"),
        (ann, {"seats": [{"kind": "human", "open": "yes"}]}, 400, "true or false"),
        (ann, {"seats": [{"kind": "human", "me": True}] * 2}, 400, "only one seat"),
        (ann, {"seats": open_seat, "time_limit": -5}, 400, "'time_limit'"),
        (ann, {"seats": open_seat, "time_limit": 3600, "on_timeout": "x"}, 400, "'on_timeout'"),
        (ann, {"seats": open_seat, "on_timeout": "bot"}, 400, "needs a 'time_limit'"),
    ]
    before = _count(server, "games")
    for who, body, status, message in cases:
        assert message in error(who.post("/api/games", json={"type": "nmbr9", **body}), status)
    assert _count(server, "games") == before


def test_a_seat_link_is_claimed_by_an_account(server: ServerProcess, api: Api) -> None:
    created = api.create([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], type="nmbr9")
    game_id, token = created["id"], created["seats"][0]["token"]
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    path, bearer = f"/api/games/{game_id}/claim", {"Authorization": f"Bearer {token}"}
    assert "sign in" in error(client(server).post(path, headers=bearer), 401)
    assert error(ann.post(path), 400)  # no seat token
    assert error(ann.post(path, headers={"Authorization": "Bearer forged"}), 403)
    assert ann.post(path, headers=bearer).json()["seat"] == 0
    assert ann.post(path, headers=bearer).status_code == 200  # again: nothing to do
    assert error(ben.post(path, headers=bearer), 409) == "that seat belongs to another account"
    state = api.state(game_id, token)  # the link still plays the seat
    assert state["game"]["seats"][0]["account"] is True
    assert state["game"]["seats"][0]["name"] == ann.get("/api/account").json()["account"]["name"]


def test_play_without_account_is_unchanged(api: Api) -> None:
    created = api.create([{"kind": "human", "name": "Zoe"}, {"kind": "bot", "bot": "greedy"}])
    assert created["seats"][0]["link"].startswith(f"/g/{created['id']}#seat=")
    state = api.state(created["id"], created["seats"][0]["token"])
    assert state["you"] == [0] and state["game"]["seats"][0]["account"] is False


# -- ratings -------------------------------------------------------------------------


def test_the_leaderboard_names_bots_as_their_seats_and_counts_their_tournament(
    server: ServerProcess,
) -> None:
    board = client(server).get("/api/leaderboard/nova-luna").json()["players"]
    bots = {p["name"]: p for p in board if p["kind"] == "bot"}
    # each name is a msgid the page translates (the game's BOT_NAMES and bot labels)
    assert set(bots) == {"Random", "Greedy", "MCTS easy", "MCTS normal", "MCTS hard", "MCTS strong"}
    assert all(p["seeded_games"] == 120 for p in bots.values())
    german = catalogue("de")["messages"]
    assert all(name in german for name in bots)


def established(player: httpx.Client) -> None:
    """Rated NMBR 9 games lost to three bot strengths: no longer provisional (a game
    against a provisional account changes no one else's rating)."""
    for bot in ("random", "greedy", "planner:fast"):
        seats = [{"kind": "human", "me": True}, {"kind": "bot", "bot": bot}]
        game_id = player.post("/api/games", json={"type": "nmbr9", "seats": seats}).json()["id"]
        assert player.post(f"/api/games/{game_id}/resign", json={}).status_code == 200


def test_a_rated_game_moves_both_ratings_once(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    established(ann)
    established(ben)
    game_id = open_game(ann)
    ben.post(f"/api/games/{game_id}/join", json={})
    board = ann.get("/api/leaderboard/nmbr9").json()["players"]
    greedy_before = next((p for p in board if p["name"].startswith("Greedy")), {"games": 0})
    play_out(game_id, [ann, ben])
    game = next(g for g in ann.get("/api/account").json()["games"] if g["id"] == game_id)
    assert game["over"] and game["rated"] and game["rank"] in (1, 2, 3)
    assert game["rating"]["before"] != game["rating"]["after"]
    board = ann.get("/api/leaderboard/nmbr9").json()["players"]
    names = {p["name"]: p for p in board}
    ann_name = ann.get("/api/account").json()["account"]["name"]
    assert names[ann_name]["games"] == 4
    greedy = next(p for p in board if p["name"].startswith("Greedy"))
    assert greedy["games"] == greedy_before["games"] + 1
    profile = ann.get(f"/api/players/{ann_name}").json()
    assert profile["ratings"]["nmbr9"]["games"] == 4 and profile["history"][0]["id"] == game_id


def test_a_fixed_seed_game_is_unrated(server: ServerProcess) -> None:
    ann, ben = register(server, unique("Ann")), register(server, unique("Ben"))
    game_id = open_game(ann, seed=5)
    ben.post(f"/api/games/{game_id}/join", json={})
    play_out(game_id, [ann, ben])
    game = ann.get("/api/account").json()["games"][0]
    assert game["over"] and not game["rated"] and game["rating"] is None


def test_an_unrated_game_allows_undo_and_stays_unrated(server: ServerProcess) -> None:
    ann = register(server, unique("Und"))
    body = {  # a rated game allows no undo (fair play): this one is made unrated
        "type": "nova-luna",
        "seats": [{"kind": "human", "me": True}, {"kind": "bot", "bot": "random"}],
        "rated": False,
    }
    game_id = ann.post("/api/games", json=body).json()["id"]
    state = wait(ann, game_id, lambda s: s["acting"] is not None)
    move = {"action": state["choices"][0]["action"], "ply": state["ply"]}
    ann.post(f"/api/games/{game_id}/actions", json=move)
    state = wait(ann, game_id, lambda s: s["undo"] and s["acting"] is not None)
    assert ann.post(f"/api/games/{game_id}/undo", json={"ply": state["ply"]}).status_code == 200
    play_out(game_id, [ann])
    game = next(g for g in ann.get("/api/account").json()["games"] if g["id"] == game_id)
    assert game["over"] and not game["rated"]
    assert error(ann.post(f"/api/games/{game_id}/undo", json={"ply": 0}), 409)


def test_rating_survives_kill_9_exactly_once(database: NewDb, tmp_path: Path) -> None:
    proc = ServerProcess(database("crash.sqlite3"), log=tmp_path / "crash.log").start()
    try:
        ann, ben = register(proc, "Ann"), register(proc, "Ben")
        game_id = open_game(ann)
        ben.post(f"/api/games/{game_id}/join", json={})
        play_out(game_id, [ann, ben])
        before = ann.get("/api/leaderboard/nmbr9").json()
        proc.kill9()
        proc.start()
        after = client(proc).get("/api/leaderboard/nmbr9").json()
        assert after["players"] == before["players"]  # ("you": only for a signed-in player)
        assert {p["name"]: p["games"] for p in after["players"]}["Ann"] == 1
    finally:
        proc.stop()


# -- turn-based time limits ---------------------------------------------------------------


def clocked_server(db: Path | str, log: Path) -> ServerProcess:
    """A server whose clock the test moves on (``clock_support``)."""
    return ServerProcess(db, log=log, options=TEST_CLOCK).start()


@pytest.mark.parametrize("on_timeout", ["bot", "abandon"])
def test_a_time_limit_runs_out_across_a_restart(
    database: NewDb, tmp_path: Path, on_timeout: str
) -> None:
    proc = clocked_server(database("clock.sqlite3"), tmp_path / "clock.log")
    try:
        ann, ben = register(proc, "Ann"), register(proc, "Ben")
        # two people, no bot: nothing but the time limit can make the first move (a bot
        # to move first raced it, and won on a loaded machine)
        seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
        body = {"type": "nova-luna", "seats": seats, "time_limit": HOUR, "on_timeout": on_timeout}
        if on_timeout == "bot":  # among people a rated game's time running out loses
            body["rated"] = False
        game_id = ann.post("/api/games", json=body).json()["id"]
        assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
        proc.kill9()
        proc.start()
        advance_clock(proc, HOUR + 1)  # the hour ran out while the server was down
        ws = open_socket(proc, game_id, [])
        receive(ws, lambda m: m["type"] == "state" and bool(m["log"] or m["abandoned"]))
        ws.close()
        state = ann.get(f"/api/games/{game_id}").json()
        if on_timeout == "abandon":
            assert state["abandoned"] and state["over"] and state["ply"] == 0
            assert state["active"] == [] and state["acting"] is None and state["choices"] == []
            r = ann.post(f"/api/games/{game_id}/actions", json={"action": "x", "ply": 0})
            assert "abandoned" in error(r, 409)
            assert ann.get("/api/account").json()["games"][0]["abandoned"]
        else:
            assert state["log"][0]["by"] == "clock" and not state["abandoned"]
    finally:
        proc.stop()


def test_the_time_limit_runs_from_when_the_last_seat_is_taken(
    database: NewDb, tmp_path: Path
) -> None:
    proc = clocked_server(database("seat.sqlite3"), tmp_path / "seat.log")
    try:
        ann, ben = register(proc, "Ann"), register(proc, "Ben")
        game_id = open_game(ann, time_limit=HOUR, on_timeout="abandon")
        advance_clock(proc, 2 * HOUR)  # longer than a move's time: the clock has not started
        state = ann.get(f"/api/games/{game_id}").json()
        assert state["clock"] is None and not state["abandoned"]
        ben.post(f"/api/games/{game_id}/join", json={})
        state = ann.get(f"/api/games/{game_id}").json()
        # the whole hour from the join (only a test hung for half an hour could see less)
        assert not state["abandoned"] and state["clock"]["left"] > HOUR / 2
        advance_clock(proc, HOUR + 1)
        assert wait(ann, game_id, lambda s: s["abandoned"])["over"]
    finally:
        proc.stop()


# -- the schema ---------------------------------------------------------------------------


def test_a_database_made_before_accounts_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    shutil.copy(OLD_DB, path)
    store = Store(path)
    try:
        assert store.game("oldgame1") is not None
        assert store.seat_for_token("oldgame1", "old-token") == 0
        assert store.seats("oldgame1")[0].account_id is None
        # every migration ran, in place
        version = store._db.execute("PRAGMA user_version").fetchone()[0]  # noqa: SLF001
        assert version == len(MIGRATIONS)
        assert store.account_named("ann") is None
    finally:
        store.close()
    Store(path).close()  # opening again changes nothing


def _count(server: ServerProcess, table: str) -> int:
    row = server.query_one(f"SELECT COUNT(*) FROM {table}")
    assert row is not None
    return int(row[0])


def test_websocket_plays_the_accounts_seat_without_a_token(server: ServerProcess) -> None:
    ann = register(server, unique("Ws"))
    game_id = open_game(ann)
    ws = open_socket(server, game_id, [])
    assert receive(ws, lambda m: m["type"] == "state")["you"] == []  # no cookie: a spectator
    ws.close()
