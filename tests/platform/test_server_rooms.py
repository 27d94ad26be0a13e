"""The hub on its own (no HTTP): finished games leave memory but not the store."""

from __future__ import annotations

import random
from pathlib import Path

from tabletop.server.botpool import BotPool
from tabletop.server.rooms import Hub, Subscriber
from tabletop.server.store import Store


def _play_to_the_end(hub: Hub, game_id: str) -> None:
    rng = random.Random(3)
    room = hub.room(game_id)
    while not room.match.is_over():
        seat = room.match.to_move()
        action = rng.choice(room.match.choices(seat))["action"]
        room = hub.act(game_id, frozenset({seat}), action, room.ply)


def test_finished_games_nobody_watches_leave_memory_and_come_back_whole(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    hub = Hub(store, BotPool(1))
    seats = [{"kind": "human"}, {"kind": "human"}]
    done, watched, running = (
        hub.create({"type": "nova-luna", "seats": seats, "seed": n})["id"] for n in (1, 2, 3)
    )
    _play_to_the_end(hub, done)
    _play_to_the_end(hub, watched)
    hub.room(watched).subscribers.add(Subscriber(frozenset()))
    before = hub.state(hub.room(done), frozenset())

    assert hub.forget_finished() == 1
    assert set(hub.rooms) == {watched, running}
    again = hub.state(hub.room(done), frozenset())  # rebuilt from the store
    assert again["log"] == before["log"] and again["view"] == before["view"]
    assert again["result"] == before["result"] and again["over"]
    hub.close()
    store.close()
