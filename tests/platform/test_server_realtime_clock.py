"""Real-time play (issue 46): a Fischer clock per seat, worked out from the stored
actions' times (``server/clocks.py``). The arithmetic with injected times; the
setup's checks; and over a real server with a test clock: increments, a
simultaneous round, running out (a bot plays on, or the game is abandoned), and
a kill -9 that leaves the clocks where they were, on SQLite and PostgreSQL."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from account_support import register
from pg_support import PgCluster
from tabletop.core.web import DEFAULT_LIMITS
from tabletop.server.clocks import Control, Event, reckon
from tabletop.server.errors import ApiError
from tabletop.server.setup import check_setup

from clock_support import TEST_CLOCK, advance_clock
from server_support import Api, ServerProcess, open_socket, receive

NewDb = Callable[[str], Path | str]
BLITZ = Control(60.0, 2.0)
BOTH = frozenset({0, 1})

# -- the arithmetic ---------------------------------------------------------------------


def test_each_move_takes_its_time_off_and_adds_the_increment() -> None:
    moves = [Event(0, 10.0), Event(1, 13.0), Event(0, 20.0)]
    clocks = reckon(BLITZ, (0, 1), False, 0.0, moves, frozenset({1}), None, 25.0)
    # seat 0: 60 - 10 + 2 - 7 + 2; seat 1: 60 - 3 + 2, running for 5 s now
    assert clocks.left == (47.0, 54.0) and clocks.running == (1,)
    assert clocks.deadline(25.0) == 79.0 and clocks.out_of_time() == ()


def test_a_clock_stops_at_zero_and_its_seat_is_out_of_time() -> None:
    clocks = reckon(BLITZ, (0, 1), False, 0.0, [], frozenset({0}), None, 75.0)
    assert clocks.left == (0.0, 60.0) and clocks.out_of_time() == (0,)
    assert clocks.deadline(75.0) == 75.0  # now: it has run out


def test_a_seat_played_for_by_the_clock_stays_at_zero() -> None:
    moves = [Event(0, 61.0, by_clock=True), Event(1, 65.0)]
    clocks = reckon(BLITZ, (0, 1), False, 0.0, moves, frozenset({0}), None, 65.0)
    assert clocks.left == (0.0, 58.0) and clocks.flagged == {0}
    assert clocks.out_of_time() == (0,)  # the bot plays its next move at once


def test_bot_seats_have_no_clock() -> None:
    clocks = reckon(BLITZ, (0,), False, 0.0, [Event(1, 5.0)], frozenset({0}), None, 8.0, 2)
    assert clocks.left == (57.0, None) and clocks.running == (0,)
    assert clocks.frame(BLITZ, 8.0)["left_ms"] == [57000, None]


def test_a_simultaneous_round_runs_every_clock_until_its_seat_places() -> None:
    # seat 0 places at 4 s, seat 1 at 9 s (resolving the round); then seat 1 at 12 s
    moves = [Event(0, 4.0), Event(1, 9.0, reveals=True), Event(1, 12.0)]
    clocks = reckon(BLITZ, (0, 1), True, 0.0, moves, frozenset({0}), None, 20.0)
    # seat 0: 60 - 4 + 2, then running 11 s; seat 1: 60 - 9 + 2 - 3 + 2, stopped
    assert clocks.left == (47.0, 52.0) and clocks.running == (0,)


def test_a_take_back_sets_the_clock_running_as_if_it_never_stopped() -> None:
    moves = [Event(0, 4.0), Event(0, 6.0, take_back=True)]
    clocks = reckon(BLITZ, (0, 1), True, 0.0, moves, BOTH, None, 10.0)
    assert clocks.left == (50.0, 50.0) and clocks.running == (0, 1)


def test_an_undo_charges_nobody_for_the_moves_it_took_back() -> None:
    # seat 0 moved at 10 s; the move after it (taken back) ran from 10 s to the undo
    # at 40 s; seat 0 has thought 5 s since
    moves = [Event(0, 10.0), Event(1, 12.0)]
    clocks = reckon(BLITZ, (0,), False, 0.0, moves[:1], frozenset({0}), 40.0, 45.0, 2)
    assert clocks.left == (47.0, None)
    # the moves before the undo keep their times
    again = reckon(BLITZ, (0, 1), False, 0.0, moves, frozenset({0}), 40.0, 45.0)
    assert again.left == (47.0, 60.0)


def test_clocks_stand_still_while_nobody_is_to_act() -> None:
    clocks = reckon(BLITZ, (0, 1), False, 0.0, [], frozenset(), None, 500.0)
    assert clocks.left == (60.0, 60.0) and clocks.deadline(500.0) is None


# -- the setup's checks ---------------------------------------------------------------------

PEOPLE = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]


def setup_of(**extra: Any) -> dict[str, Any]:
    body = {"type": "nova-luna", "seats": PEOPLE, **extra}
    return check_setup(body, None, DEFAULT_LIMITS).options


def test_a_clock_is_stored_with_the_game_options() -> None:
    options = setup_of(clock_base=300, clock_increment=3)
    assert options["clock_base"] == 300 and options["clock_increment"] == 3
    assert options["on_timeout"] == "bot" and "time_limit" not in options
    assert setup_of(clock_base=60, on_timeout="abandon")["clock_increment"] == 0


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"clock_base": 59}, "'clock_base'"),
        ({"clock_base": 3 * 3600 + 1}, "'clock_base'"),
        ({"clock_base": "300"}, "'clock_base'"),
        ({"clock_base": True}, "'clock_base'"),
        ({"clock_increment": 3}, "'clock_base'"),
        ({"clock_base": 300, "clock_increment": 181}, "'clock_increment'"),
        ({"clock_base": 300, "clock_increment": -1}, "'clock_increment'"),
        ({"clock_base": 300, "clock_increment": 1.5}, "'clock_increment'"),
        ({"clock_base": 300, "on_timeout": "nap"}, "'on_timeout'"),
        ({"clock_base": 300, "time_limit": 3600}, "not both"),
    ],
)
def test_a_bad_clock_is_refused(extra: dict[str, Any], words: str) -> None:
    with pytest.raises(ApiError) as refused:
        setup_of(**extra)
    assert refused.value.status == 400 and words in refused.value.message


def test_nmbr9s_own_move_clock_and_a_clock_are_exclusive() -> None:
    body = {"type": "nmbr9", "seats": PEOPLE, "clock_base": 300, "options": {"time_limit": 60}}
    with pytest.raises(ApiError) as refused:
        check_setup(body, None, DEFAULT_LIMITS)
    assert refused.value.status == 400 and "not both" in refused.value.message


# -- over a real server ------------------------------------------------------------------------


def clocked(database: NewDb, tmp_path: Path, name: str) -> ServerProcess:
    db = database(f"{name}.sqlite3")
    return ServerProcess(db, log=tmp_path / f"{name}.log", options=TEST_CLOCK).start()


def two_people(api: Api, game: str = "nova-luna", **extra: Any) -> tuple[str, list[str]]:
    created = api.create(PEOPLE, type=game, clock_base=60, clock_increment=2, **extra)
    return created["id"], [s["token"] for s in created["seats"]]


def first_move(api: Api, game_id: str, token: str) -> None:
    state = api.state(game_id, token)
    response = api.act(game_id, token, state["choices"][0]["action"], state["ply"])
    assert response.status_code == 200, response.text


def ms(state: dict[str, Any], seat: int) -> int:
    left: int = state["clocks"]["left_ms"][seat]
    return left


def ms_since(started: float) -> int:
    """Real time since ``started`` (``time.monotonic()``), in ms, rounded up. The server's
    clock runs with real time as well as with the test's moves: a clock shows what the
    test expects less at most this, however slowly a loaded machine ran the test."""
    return math.ceil((time.monotonic() - started) * 1000)


@pytest.mark.parametrize("on_timeout", ["bot", "abandon"])
def test_clocks_count_survive_a_kill_and_run_out(
    database: NewDb, tmp_path: Path, on_timeout: str
) -> None:
    proc = clocked(database, tmp_path, "clock")
    try:
        api = Api(proc)
        started = time.monotonic()
        game_id, tokens = two_people(api, on_timeout=on_timeout)
        first = api.state(game_id)
        mover = first["to_move"]
        assert first["clocks"]["running"] == [mover] and first["time_left"] is None
        advance_clock(proc, 10)
        moved_at = time.monotonic()
        first_move(api, game_id, tokens[mover])
        moved = api.state(game_id)
        # 10 s (and the time real time took) off, 2 s on: stopped at that
        assert 52_000 - ms_since(started) <= ms(moved, mover) <= 52_000
        assert mover not in moved["clocks"]["running"]
        proc.kill9()
        proc.start()
        advance_clock(proc, 10)  # a restarted server's clock starts again from real time
        again = api.state(game_id)  # the same, worked out from the stored times
        assert ms(again, mover) == ms(moved, mover)
        other = again["clocks"]["running"][0]
        # running since the move: both servers' clocks were 10 s ahead of real time then
        assert other != mover and 60_000 - ms_since(moved_at) <= ms(again, other) <= 60_000
        # a claim on time comes too early: the clock has not run out yet
        early = api.request("POST", f"/api/games/{game_id}/timeout", tokens[mover], json={})
        expected = "(yet)" if on_timeout == "abandon" else "running out plays a bot"
        assert early.status_code == 409 and expected in early.json()["error"]
        advance_clock(proc, 61)
        ended = api.wait(game_id, None, lambda s: s["abandoned"] or len(s["log"]) > 1)
        assert ms(ended, other) == 0
        if on_timeout == "abandon":
            assert ended["over"] and ended["timed_out"] == [other]
            assert ms(ended, mover) == ms(moved, mover)  # stopped since its move
        else:  # the default bot plays on for the seat out of time
            assert ended["log"][1]["by"] == "clock" and other in ended["clocks"]["flagged"]
            refused = api.act(game_id, tokens[other], "x", ended["ply"])
            assert refused.status_code == 409
    finally:
        proc.stop()


def test_a_simultaneous_round_runs_both_clocks(database: NewDb, tmp_path: Path) -> None:
    proc = clocked(database, tmp_path, "rounds")
    try:
        api = Api(proc)
        started = time.monotonic()
        game_id, tokens = two_people(api, "nmbr9", on_timeout="abandon")
        ws = open_socket(proc, game_id, [])
        receive(ws, lambda m: m["type"] == "state")
        advance_clock(proc, 5)
        first_move(api, game_id, tokens[0])
        frame = receive(ws, lambda m: m["type"] == "state" and m["ply"] == 1)
        ws.close()
        clocks = frame["clocks"]
        real = ms_since(started)
        assert clocks["running"] == [1] and 57_000 - real <= clocks["left_ms"][0] <= 57_000
        assert 55_000 - real <= clocks["left_ms"][1] <= 55_000 and clocks["now_ms"] > 0
        assert frame["view"]["has_placed"] == [True, False]  # shown anyway: nothing new
        advance_clock(proc, 60)
        ended = api.wait(game_id, None, lambda s: s["abandoned"])
        assert ended["timed_out"] == [1] and ended["clocks"]["left_ms"][1] == 0
    finally:
        proc.stop()


def test_an_undo_gives_the_clocks_back_and_the_lobby_names_the_clock(
    database: NewDb, tmp_path: Path
) -> None:
    proc = clocked(database, tmp_path, "undo")
    try:
        api = Api(proc)
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]
        started = time.monotonic()
        created = api.create(seats, type="nova-luna", clock_base=60, clock_increment=2)
        game_id, token = created["id"], created["seats"][0]["token"]
        state = api.wait(game_id, token, lambda s: s["acting"] == 0)
        advance_clock(proc, 20)
        first_move(api, game_id, token)
        state = api.wait(game_id, token, lambda s: s["acting"] == 0)
        assert state["clocks"]["left_ms"][1] is None  # a bot has no clock
        assert 42_000 - ms_since(started) <= ms(state, 0) <= 42_000  # 60 - 20 + 2
        advance_clock(proc, 30)
        undone_at = time.monotonic()
        undone = api.request(
            "POST", f"/api/games/{game_id}/undo", token, json={"ply": state["ply"]}
        )
        assert undone.status_code == 200, undone.text
        back = api.wait(game_id, token, lambda s: s["acting"] == 0)
        # the position before the move: its clock as it stood then, running from the undo
        assert back["ply"] < state["ply"]
        assert 60_000 - ms_since(undone_at) <= ms(back, 0) <= 60_000
        # the lobby names an open game's clock through its stored options
        ann = register(proc, "Ann")
        mine = [{"kind": "human", "me": True}, {"kind": "human", "open": True}]
        body = {"type": "nmbr9", "seats": mine, "clock_base": 300, "clock_increment": 3}
        assert ann.post("/api/games", json=body).status_code == 201
        (listed,) = ann.get("/api/lobby").json()["games"]
        assert listed["options"]["clock_base"] == 300
        assert listed["options"]["clock_increment"] == 3 and listed["time_limit"] is None
    finally:
        proc.stop()


def test_two_processes_on_postgresql_agree_and_run_a_clock_out_once(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    url = pg_cluster.database()
    servers = [
        ServerProcess(url, log=tmp_path / f"{name}.log", options=TEST_CLOCK).start()
        for name in ("a", "b")
    ]
    try:
        a, b = (Api(server) for server in servers)
        game_id, tokens = two_people(a, "nmbr9")
        b.state(game_id)  # B holds the game too, with its own timer
        for server in servers:  # each process has a clock of its own
            advance_clock(server, 5)
        first_move(a, game_id, tokens[0])
        seen = b.wait(game_id, None, lambda s: s["ply"] == 1)
        # B works the stopped clock out from the same stored times as A
        assert ms(seen, 0) == ms(a.state(game_id), 0) and seen["clocks"]["running"] == [1]
        for server in servers:
            advance_clock(server, 70)
        for api in (a, b):
            api.wait(game_id, None, lambda s: 1 in s["clocks"]["flagged"])
        with psycopg.connect(url) as db:
            rows = db.execute(
                "SELECT seat FROM actions WHERE game_id = %s AND by = 'clock' AND ply < 2",
                (game_id,),
            ).fetchall()
        assert rows == [(1,)]  # placed for seat 1 once, by whichever process held the lease
    finally:
        for server in servers:
            server.stop()
