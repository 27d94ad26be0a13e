"""The hub on its own (no HTTP): finished games leave memory but not the store."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path

from tabletop.core.web import TAKE_BACK
from tabletop.server.botpool import BotPool
from tabletop.server.encoding import Subscriber
from tabletop.server.errors import ApiError
from tabletop.server.hub import Hub
from tabletop.server.rows import Seat
from tabletop.server.store import Store


async def _play_to_the_end(hub: Hub, game_id: str) -> None:
    rng = random.Random(3)
    room = hub.rooms.room(game_id)
    while not room.match.is_over():
        seat = room.match.to_move()
        action = rng.choice(room.match.choices(seat))["action"]
        room = await hub.authority.act(game_id, frozenset({seat}), action, room.ply)


def test_finished_games_nobody_watches_leave_memory_and_come_back_whole(tmp_path: Path) -> None:
    asyncio.run(_finished_games_leave_memory(tmp_path))


async def _finished_games_leave_memory(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store, BotPool(1))
    seats = [{"kind": "human"}, {"kind": "human"}]
    done, watched, running = [
        (await hub.create({"type": "nova-luna", "seats": seats, "seed": n}))["id"]
        for n in (1, 2, 3)
    ]
    await _play_to_the_end(hub, done)
    await _play_to_the_end(hub, watched)
    hub.rooms.room(watched).subscribers.add(Subscriber(frozenset()))
    before = hub.encoder.state(hub.rooms.room(done), frozenset())

    assert hub.forget_finished() == 1
    assert set(hub.rooms.live) == {watched, running}
    again = hub.encoder.state(hub.rooms.room(done), frozenset())  # rebuilt from the store
    assert again["log"] == before["log"] and again["view"] == before["view"]
    assert again["result"] == before["result"] and again["over"]
    hub.close()
    store.close()


def _two_humans(seed: int) -> dict:
    return {"type": "nova-luna", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": seed}


def _first_move(hub: Hub, game_id: str) -> tuple[frozenset[int], str]:
    room = hub.rooms.room(game_id)
    seat = room.match.to_move()
    return frozenset({seat}), room.match.choices(seat)[0]["action"]


def test_a_slow_disk_stalls_no_other_game_and_waiting_moves_share_the_next_commit(
    tmp_path: Path,
) -> None:
    asyncio.run(_slow_disk(tmp_path))


async def _slow_disk(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store, BotPool(1))
    games = [(await hub.create(_two_humans(n)))["id"] for n in range(3)]
    disk = threading.Event()
    batches: list[int] = []
    write_many = store.write_many

    def slow_write_many(writes: list) -> list:
        batches.append(len(writes))
        if len(batches) == 1:
            disk.wait(30)  # the first commit waits until the test lets the disk go on
        return write_many(writes)

    store.write_many = slow_write_many  # type: ignore[method-assign]
    moves = [
        asyncio.ensure_future(hub.authority.act(g, *_first_move(hub, g), 0)) for g in games[:1]
    ]
    for _ in range(500):
        if batches:
            break
        await asyncio.sleep(0.01)
    assert batches == [1], "the first move's commit should be waiting for the disk"
    moves += [
        asyncio.ensure_future(hub.authority.act(g, *_first_move(hub, g), 0)) for g in games[1:]
    ]
    for _ in range(5):
        await asyncio.sleep(0)

    # the event loop is free: every game's state is served, none shows an unstored move
    assert [hub.encoder.state(hub.rooms.room(g), frozenset())["ply"] for g in games] == [0, 0, 0]
    assert not any(move.done() for move in moves)
    disk.set()
    rooms = await asyncio.gather(*moves)
    assert [room.ply for room in rooms] == [1, 1, 1]
    assert batches == [1, 2], "the two moves that came meanwhile should share one commit"
    assert [len(store.actions(g)) for g in games] == [1, 1, 1]
    hub.close()
    store.close()


def test_of_two_submissions_of_the_same_move_exactly_one_applies(tmp_path: Path) -> None:
    asyncio.run(_same_move_twice(tmp_path))


async def _same_move_twice(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store, BotPool(1))
    game = (await hub.create(_two_humans(5)))["id"]
    seats, _ = _first_move(hub, game)
    choices = [c["action"] for c in hub.rooms.room(game).match.choices(next(iter(seats)))]
    answers = await asyncio.gather(
        *(hub.authority.act(game, seats, action, 0) for action in choices[:2]),
        return_exceptions=True,
    )
    refused = [a for a in answers if isinstance(a, ApiError)]
    assert len(refused) == 1 and refused[0].status == 409
    assert hub.rooms.room(game).ply == 1 and len(store.actions(game)) == 1
    hub.close()
    store.close()


def test_a_state_leaves_out_only_choices_the_client_will_really_have() -> None:
    asyncio.run(_choices_kept())


async def _choices_kept() -> None:
    sub = Subscriber(frozenset({0}))
    log: list = []

    def build(start: int, kept: bool) -> str:
        return "kept" if kept else "full"

    def sent() -> list[str]:
        out = []
        while not sub.outbox.empty():
            out.append(sub.outbox.get_nowait()[1])
        return out

    sub.send_state(log, build, ("seat 0", 3))
    assert sent() == ["full"]
    sub.send_state(log, build, ("seat 0", 3))  # the same choices: the client has them
    assert sent() == ["kept"]
    sub.send_state(log, build, ("seat 0", 5))  # new ones, not sent yet ...
    sub.send_state(log, build, ("seat 0", 5))  # ... so the state superseding them has them
    assert sent() == ["full"]
    sub.send_state(log, build, None)  # a state without choices, superseded unsent:
    sub.send({"type": "ack"})
    sub.send_state(log, build, ("seat 0", 5))
    assert sent() == ['{"type":"ack"}', "kept"]  # the client still has the earlier ones
    sub.send_state(log, build, None)  # ... and one the client receives: it has none now
    assert sent() == ["full"]
    sub.send_state(log, build, ("seat 0", 5))
    assert sent() == ["full"]


def test_a_game_stored_with_its_time_limit_as_clock_keeps_it(tmp_path: Path) -> None:
    asyncio.run(_time_limit_stored_as_clock(tmp_path))


async def _time_limit_stored_as_clock(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    seats = [Seat(0, "Ann", "human", None, "t0"), Seat(1, "Bob", "human", None, "t1")]
    # as the previous version stored a time per move: the option "clock"
    store.create_game("old", "nova-luna", {"clock": 3600, "on_timeout": "abandon"}, 7, seats)
    hub = Hub(store, BotPool(1))
    room = hub.rooms.room("old")
    assert room.time_limit == 3600 and room.on_timeout == "abandon"
    state = hub.encoder.state(room, frozenset())
    assert state["game"]["time_limit"] == 3600 and state["game"]["on_timeout"] == "abandon"
    assert state["clock"]["seconds"] == 3600
    created = await hub.create({**_two_humans(1), "time_limit": 7200})
    assert store.game(created["id"]).options["time_limit"] == 7200  # stored by its name now
    hub.close()
    store.close()


def test_nothing_is_taken_back_in_an_abandoned_game(tmp_path: Path) -> None:
    asyncio.run(_take_back_abandoned(tmp_path))


async def _take_back_abandoned(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store, BotPool(1))
    humans = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    created = await hub.create({"type": "nmbr9", "seats": humans, "seed": 3})
    room = hub.rooms.room(created["id"])
    first = hub.encoder.state(room, frozenset({0}))
    await hub.authority.act(room.id, frozenset({0}), first["choices"][0]["action"], first["ply"])
    await hub.authority.abandon(room, timed_out=(1,))
    before = len(store.actions(room.id))
    ply = hub.encoder.state(room, frozenset({0}))["ply"]
    try:  # before: the clock had ended the game, yet Ann's placement could be taken back
        await hub.authority.act(room.id, frozenset({0}), TAKE_BACK, ply)
        raise AssertionError("a take-back in an abandoned game was accepted")
    except ApiError as err:
        assert err.status == 409 and "abandoned" in err.message
    assert len(store.actions(room.id)) == before
    hub.close()
    store.close()
