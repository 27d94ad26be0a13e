"""Several server processes on one PostgreSQL: each game stays one game, whichever
process a client talks to, whatever dies or restarts."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from pg_support import PgCluster

from clock_support import HOUR, TEST_CLOCK, advance_clock
from gate_support import SearchGate
from server_support import Api, ServerProcess, open_socket, receive

HUMAN = {"kind": "human", "name": "Ann"}
BOB = {"kind": "human", "name": "Bob"}
#: a searching bot (held at the test gate while a test kills its process)
SLOW_BOT = {"kind": "bot", "bot": "mcts:20000"}


@pytest.fixture
def gate(tmp_path: Path) -> SearchGate:
    return SearchGate(tmp_path / "gate")


@pytest.fixture
def two(
    pg_cluster: PgCluster, tmp_path: Path, gate: SearchGate
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two ``novaluna serve`` processes on one new PostgreSQL database, sharing ``gate``
    (open unless a test closes it)."""
    url = pg_cluster.database()
    yield from _pair(url, tmp_path, *gate.options)


def _pair(url: str, tmp_path: Path, *more: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two processes on ``url`` (options ``more`` for both), their clocks moved by the
    tests (``clock_support``), stopped after the test."""
    options = ("--bot-max-seconds", "2", *TEST_CLOCK, *more)
    a = ServerProcess(url, log=tmp_path / "a.log", workers=1, options=options).start()
    b = ServerProcess(url, log=tmp_path / "b.log", workers=1, options=options).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def unfinished_leases(server: ServerProcess, game_id: str) -> int:
    """The game's bot moves and time limits some process holds and has not finished."""
    assert isinstance(server.db, str)
    with psycopg.connect(server.db) as db:
        sql = "SELECT count(*) FROM leases WHERE game_id = %s AND NOT done"
        (count,) = db.execute(sql, (game_id,)).fetchone() or (0,)
        return int(count)


def until_finished(server: ServerProcess, game_id: str) -> None:
    """Wait until every lease of the game is done: no process works on it any more
    (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 60
    while unfinished_leases(server, game_id):
        assert time.monotonic() < deadline, "a bot move or time limit never finished"
        time.sleep(0.05)


def stored_actions(server: ServerProcess, game_id: str) -> list[tuple[int, int, str]]:
    assert isinstance(server.db, str)
    with psycopg.connect(server.db) as db:
        rows = db.execute(
            "SELECT ply, seat, action FROM actions WHERE game_id = %s ORDER BY ply", (game_id,)
        )
        return list(rows)


def first_take(api: Api, game_id: str, token: str) -> tuple[dict, str]:
    state = api.state(game_id, token)
    return state, next(c["action"] for c in state["choices"] if "space" in c)


def test_the_same_move_sent_to_two_processes_at_once_applies_once(two) -> None:
    a, b = two
    apis = [Api(a), Api(b)]
    created = apis[0].create([HUMAN, BOB], seed=3)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for ply in range(8):
        token = tokens[apis[ply % 2].state(game_id)["to_move"]]
        state, action = first_take(apis[ply % 2], game_id, token)
        assert state["ply"] == ply
        barrier = threading.Barrier(2)

        def send(api: Api, move: tuple = (action, token, ply, barrier)) -> httpx.Response:
            action, token, ply, barrier = move
            barrier.wait()
            return api.act(game_id, token, action, ply)

        with ThreadPoolExecutor(2) as pool:
            answers = sorted(pool.map(send, apis), key=lambda r: r.status_code)
        assert [r.status_code for r in answers] == [200, 409], answers
        assert answers[1].json()["state"]["ply"] == ply + 1  # the loser gets the fresh state
    assert [p for p, _, _ in stored_actions(a, game_id)] == list(range(8))
    for api in apis:
        assert api.state(game_id)["ply"] == 8
        api.http.close()


def test_a_socket_at_one_process_hears_moves_made_at_the_other(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    # the periodic look at other processes' changes hourly: only a notice is heard
    for a, b in _pair(pg_cluster.database(), tmp_path, "--takeover-check-seconds", "3600"):
        _hears_moves_at_the_other(a, b)


def _hears_moves_at_the_other(a: ServerProcess, b: ServerProcess) -> None:
    api_a, api_b = Api(a), Api(b)
    created = api_a.create([HUMAN, BOB], seed=4)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    watcher = open_socket(b, game_id, tokens)  # a hot-seat client: both seats
    receive(watcher, lambda m: m["type"] == "state")
    _, action = first_take(api_a, game_id, tokens[0])  # Ann starts
    assert api_a.act(game_id, tokens[0], action, 0).status_code == 200
    state = receive(watcher, lambda m: m["type"] == "state" and m["ply"] == 1)  # a notice
    # the next move goes over B's socket; then a move at A while nobody listens at B,
    # and a client reconnecting to B misses nothing
    action = next(c["action"] for c in state["choices"] if "space" in c)
    watcher.send(json.dumps({"type": "act", "action": action, "ply": 1}))
    assert receive(watcher, lambda m: m["type"] == "ack")["ply"] == 2
    watcher.close()
    token = tokens[api_a.state(game_id)["to_move"]]
    _, action = first_take(api_a, game_id, token)
    assert api_a.act(game_id, token, action, 2).status_code == 200
    again = open_socket(b, game_id, [tokens[0]])
    state = receive(again, lambda m: m["type"] == "state" and m["ply"] == 3)
    assert state["log_start"] == 0 and [e["ply"] for e in state["log"]] == [0, 1, 2]
    assert state["log"] == api_a.state(game_id)["log"]
    again.close()
    api_a.http.close()
    api_b.http.close()


@pytest.mark.parametrize("b_holds_it", [True, False])
def test_a_bot_move_survives_the_kill_of_its_process(
    two: tuple[ServerProcess, ServerProcess], gate: SearchGate, b_holds_it: bool
) -> None:
    """Whether the other process holds the game (then its own bot task waits for the
    lease) or not (then its sweep for expired leases loads the game), it completes
    the move once the dead process's lease runs out. The search is held at the test
    gate, so the kill always comes while it is in progress, however fast the machine."""
    a, b = two
    api_a, api_b = Api(a), Api(b)
    created = api_a.create([HUMAN, SLOW_BOT], seed=5)
    game_id, token = created["id"], created["seats"][0]["token"]
    if b_holds_it:
        api_b.state(game_id)
    gate.close()
    _, action = first_take(api_a, game_id, token)
    assert api_a.act(game_id, token, action, 0).status_code == 200
    gate.wait_until_held()
    apis = (api_a, api_b) if b_holds_it else (api_a,)  # a question would load it at B
    searching = [api for api in apis if api.state(game_id)["thinking"] == 1]
    assert searching, "no process says it searches"
    victim, other = (api_a, api_b) if searching[0] is api_a else (api_b, api_a)
    victim.server.kill9()
    gate.open()
    if not b_holds_it:  # no question to B before its sweep could have loaded the game
        deadline = time.monotonic() + 30
        while len(stored_actions(b, game_id)) < 2:
            assert time.monotonic() < deadline, "nobody took the bot move over"
            time.sleep(0.1)
    state = other.wait(game_id, None, lambda s: s["ply"] == 2, timeout=30)
    assert [e["ply"] for e in state["log"]] == [0, 1]
    stored = stored_actions(other.server, game_id)
    assert [(p, s) for p, s, _ in stored] == [(0, 0), (1, 1)] and stored[0][2] == action
    until_finished(other.server, game_id)
    assert len(stored_actions(other.server, game_id)) == 2  # nobody adds a second bot move
    api_a.http.close()
    api_b.http.close()


def test_postgresql_restarted_under_load_loses_no_acknowledged_move(
    two, pg_cluster: PgCluster
) -> None:
    a, b = two
    apis = [Api(a), Api(b)]
    games = [apis[0].create([HUMAN, BOB], seed=10 + i) for i in range(4)]
    acknowledged: list[tuple[str, int, str]] = []
    statuses: list[int] = []
    stop = threading.Event()

    def play(game: dict) -> None:
        game_id, tokens = game["id"], [s["token"] for s in game["seats"]]
        turn = 0
        while not stop.is_set():
            api = apis[turn % 2]  # every move at the other process
            turn += 1
            try:
                state = api.request("GET", f"/api/games/{game_id}", tokens[0])
                if state.status_code != 200:
                    statuses.append(state.status_code)
                    time.sleep(0.05)
                    continue
                ply, acting = state.json()["ply"], state.json()["to_move"]
                if acting is None:
                    return
                _, action = first_take(api, game_id, tokens[acting])
                answer = api.act(game_id, tokens[acting], action, ply)
            except (httpx.HTTPError, AssertionError):
                time.sleep(0.05)
                continue
            statuses.append(answer.status_code)
            if answer.status_code == 200:
                acknowledged.append((game_id, ply, action))

    with ThreadPoolExecutor(len(games)) as pool:
        futures = [pool.submit(play, game) for game in games]
        try:
            _until(lambda: len(acknowledged) >= 4, "no move was acknowledged")
            seen = len(statuses)
            pg_cluster.down()
            _until(lambda: 503 in statuses[seen:], "no request met the outage")
            before = len(acknowledged)
            pg_cluster.up()
            _until(lambda: len(acknowledged) > before + 4, "the service did not resume")
        finally:
            stop.set()
        for future in futures:
            future.result()
    after = len(acknowledged)
    assert before > 0 and after > before + 4, (before, after)  # service resumed by itself
    assert 500 not in statuses and set(statuses) <= {200, 409, 503}, set(statuses)
    stored = {
        (game["id"], ply, action)
        for game in games
        for ply, _, action in stored_actions(a, game["id"])
    }
    assert set(acknowledged) <= stored  # every acknowledged move is there
    for api in apis:
        api.http.close()


def _until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition()`` (the deadline only bounds a hang)."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _closing_code(ws: ClientConnection, timeout: float) -> int | None:
    """The close code the server sends, reading past whatever comes first."""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ws.recv(timeout=deadline - time.monotonic())
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    return None


@pytest.mark.parametrize(
    ("storage", "workers"), [("sqlite", 1), ("postgresql", 1), ("postgresql", 2)]
)
def test_one_command_runs_several_processes_and_sigterm_says_going_away(
    request: pytest.FixtureRequest, tmp_path: Path, storage: str, workers: int
) -> None:
    db = tmp_path / "games.sqlite3"
    if storage == "postgresql":
        db = request.getfixturevalue("pg_cluster").database()
    options = ("--workers", str(workers))
    server = ServerProcess(db, log=tmp_path / "serve.log", options=options).start()
    api = Api(server)
    created = api.create([HUMAN, BOB], seed=6)
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for ply in range(4):  # each request on a connection of its own: any process answers
        with httpx.Client(base_url=server.url) as client:
            token = tokens[client.get(f"/api/games/{game_id}").json()["to_move"]]
            api.http = client
            _, action = first_take(api, game_id, token)
            assert api.act(game_id, token, action, ply).status_code == 200
    sockets = [open_socket(server, game_id, [token]) for token in tokens]
    for ws in sockets:
        assert receive(ws, lambda m: m["type"] == "state")["ply"] == 4
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGTERM)  # the supervisor passes it on
    assert [_closing_code(ws, 30) for ws in sockets] == [1001, 1001]
    server.proc.wait(30)  # (only bounds a hang)
    assert "Traceback" not in (tmp_path / "serve.log").read_text()
    server.stop()


def test_a_clock_held_by_two_processes_plays_each_seat_once(two) -> None:
    """Both processes hold an NMBR 9 game whose hour runs out with nobody placed:
    each seat gets exactly one default placement, by whichever process holds the
    clock's lease."""
    a, b = two
    api_a, api_b = Api(a), Api(b)
    seats = [{"kind": "human", "name": f"P{i + 1}"} for i in range(2)]
    created = api_a.create(seats, type="nmbr9", seed=3, options={"clock": HOUR})
    game_id = created["id"]
    api_b.state(game_id)  # B holds it too, with its own clock task
    for server in (a, b):  # each process has a clock of its own
        advance_clock(server, HOUR + 1)
    for api in (api_a, api_b):
        api.wait(game_id, None, lambda s: s["ply"] >= 2)
    until_finished(a, game_id)  # a second process's clock, were it to act too, has
    assert sorted(seat for _, seat, _ in stored_actions(a, game_id)[:2]) == [0, 1]
    with psycopg.connect(a.db) as db:
        (by_clock,) = db.execute(
            "SELECT count(*) FROM actions WHERE game_id = %s AND by = 'clock' AND ply < 2",
            (game_id,),
        ).fetchone()
    assert by_clock == 2
    api_a.http.close()
    api_b.http.close()


PASSWORD = "correct horse"


def _account(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    r = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def test_accounts_seats_and_ratings_span_the_processes(two) -> None:
    a, b = two
    ann, ben = _account(a, "Ann"), _account(b, "Ben")
    other = httpx.Client(base_url=b.url, timeout=30, cookies=ann.cookies)
    assert other.get("/api/account").json()["account"] == {"name": "Ann"}  # one session
    assert _account_refused(b, "ann") == 409  # the name is taken in every process
    seats = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
    body = {"type": "nmbr9", "seats": seats}
    game_id = ann.post("/api/games", json=body).json()["id"]
    assert [g["id"] for g in ben.get("/api/lobby").json()["games"]] == [game_id]
    assert ben.post(f"/api/games/{game_id}/join", json={}).status_code == 200
    deadline = time.monotonic() + 60  # process a hears of the claim and starts the game
    while ann.get(f"/api/games/{game_id}").json()["game"]["waiting"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    _play_out(game_id, [ann, ben])
    with psycopg.connect(a.db) as db:
        rows = db.execute("SELECT count(*) FROM rating_changes WHERE game_id = %s", (game_id,))
        assert rows.fetchone() == (2,)  # rated once, whichever process stored the end
        games = db.execute("SELECT sum(games) FROM ratings WHERE type = 'nmbr9'").fetchone()
        assert games == (2,)
    for client in (ann, ben, other):
        client.close()


def _play_out(game_id: str, players: list[httpx.Client]) -> None:
    """Each player (at its own process) takes its first choice until the game ends;
    a 409 (the other process moved first) just means look again."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for player in players:
            state = player.get(f"/api/games/{game_id}").json()
            if state["over"]:
                return
            if state["acting"] is not None and state["choices"]:
                action = {"action": state["choices"][0]["action"], "ply": state["ply"]}
                player.post(f"/api/games/{game_id}/actions", json=action)
        time.sleep(0.01)
    raise AssertionError("the game did not end in a minute")


def _account_refused(server: ServerProcess, name: str) -> int:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        body = {"name": name, "password": PASSWORD}
        return client.post("/api/account/register", json=body).status_code


def test_accounts_say_503_while_postgresql_is_down(pg_cluster: PgCluster, two) -> None:
    a, _ = two
    ann = _account(a, "Ann")
    pg_cluster.down()
    try:
        assert _account_refused(a, "Cat") == 503
        assert ann.get("/api/account").status_code == 503
        assert ann.get("/api/leaderboard/nmbr9").status_code == 503
        assert ann.get("/api/lobby").status_code == 503
    finally:
        pg_cluster.up()
    assert ann.get("/api/account").json()["account"] == {"name": "Ann"}
    assert _account_refused(a, "Cat") == 201  # nothing of the refused one was kept
    ann.close()
