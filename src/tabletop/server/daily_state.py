"""Which daily challenge a game is of, for its page (``state.game.daily``).

A daily game is an ordinary game of the day's seed (``dailies``), so its page would
otherwise only say "the creator chose this seed". Here: the day whose deal it is,
found from the seed (``daily.day_of_seed``), and whether it is an account's counted
attempt (``daily_attempts``), where a hint or a take-back marks the result "with help".
Worked out once per room: a game's seed, seats and attempt never change.
"""

from __future__ import annotations

from datetime import date

from ..core.web import JSON
from ..daily import day_of_seed, today
from .errors import reading
from .room import Room
from .storage import GameStore


def daily_of(room: Room, store: GameStore) -> JSON | None:
    """``{"day": "YYYY-MM-DD", "counted": bool}`` for a game of a day's deal, else None."""
    if room.daily_cache is None:
        room.daily_cache = (_look_up(room, store),)
    return room.daily_cache[0]


def _look_up(room: Room, store: GameStore) -> JSON | None:
    game = room.type
    if not room.row.seed_chosen or len(room.seats) != game.daily_players:
        return None
    # a practice game of a day is created on that day or later: search back from then
    latest = max(date.fromisoformat(room.row.created[:10]), today())
    day = day_of_seed(game.name, room.row.seed, latest)
    if day is None:
        return None
    owner = room.seats[0].account_id
    if owner is None:
        return {"day": day.isoformat(), "counted": False}
    attempt = reading(store.daily_game, game.name, day.isoformat(), owner)
    return {"day": day.isoformat(), "counted": attempt == room.id}
