"""Spectators get a game's state a moment after its players (``Encoder.broadcast``):
changes within that moment reach them as one send. An undo rebuilds the game's room
and hands its clients to the new one; the new room's spectators are told even while a
send is still due for the old room, which then has nobody left to tell.

The event loop runs the due sends in the order of their deadlines, so waiting a few
of those moments sees every one of them, however loaded the machine is."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from tabletop.server.encoding import SPECTATOR_DELAY, Encoder


class Client:
    def __init__(self, seats: frozenset[int]) -> None:
        self.seats = seats


class Room:
    """What ``broadcast`` reads of a room: its game and its clients."""

    def __init__(self, game_id: str, subscribers: list[Client]) -> None:
        self.id = game_id
        self.subscribers = subscribers


class Recording(Encoder):
    """An encoder that records whom each send went to, instead of encoding states."""

    def __init__(self) -> None:
        super().__init__(store=None)  # never read here
        self.sent: list[tuple[Room, list[Client]]] = []

    def send_states(self, room: Room, subscribers: list[Client]) -> None:
        self.sent.append((room, list(subscribers)))


def spectator_sends(steps: Callable[[Recording], None]) -> list[Room]:
    """The rooms whose state reached the spectator, after ``steps(encoder)`` and the
    due sends."""
    encoder = Recording()

    async def scenario() -> None:
        steps(encoder)
        await asyncio.sleep(SPECTATOR_DELAY * 4)

    asyncio.run(scenario())
    return [room for room, clients in encoder.sent if SPECTATOR in clients]


PLAYER, SPECTATOR = Client(frozenset({0})), Client(frozenset())


def test_changes_within_the_moment_reach_the_spectators_as_one_send() -> None:
    room = Room("g1", [PLAYER, SPECTATOR])

    def steps(encoder: Recording) -> None:
        encoder.broadcast(room)
        encoder.broadcast(room)

    assert spectator_sends(steps) == [room]


def test_after_an_undo_rebuilds_the_room_its_spectators_get_the_new_state() -> None:
    old = Room("g1", [PLAYER, SPECTATOR])
    new = Room("g1", [])

    def steps(encoder: Recording) -> None:
        encoder.broadcast(old)  # a move: the spectators' send is due
        new.subscribers, old.subscribers = old.subscribers, []  # the undo hands them on
        encoder.broadcast(new)  # and tells them the rebuilt game at once

    assert spectator_sends(steps) == [new]
