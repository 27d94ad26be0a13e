"""Correspondence play: days per move, the reminder before a move's time runs out, and
which rating pool a game counts for (docs/web.md, "Time controls").

A correspondence game is created with ``"days_per_move": n`` (one of
``DAYS_PER_MOVE``) instead of a ``time_limit``: it is stored as both the option
``days_per_move`` (what makes it correspondence) and ``time_limit`` (n days in seconds),
so the time per move, its deadline, ``on_timeout`` and its survival across restarts are
the turn-based time limit's own (scheduling.py). What it adds is a reminder
(reminders.py) and a rating pool of its own.

>>> check_days_per_move({"days_per_move": 3})
{'days_per_move': 3, 'time_limit': 259200}
>>> check_days_per_move({})
{}
>>> rating_pool({"days_per_move": 2, "time_limit": 172800}), rating_pool({"time_limit": 3600})
('correspondence', 'live')
>>> rating_pool({"clock_base": 300, "days_per_move": 2}), rating_pool({})
('live', 'live')
>>> reminder_lead(86400), reminder_lead(3 * 86400)
(21600, 86400)
"""

from __future__ import annotations

from ..core.web import JSON
from .errors import ApiError

DAY = 86400
#: the days per move a correspondence game may have (the lobby page offers each)
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)
#: the rating pools of a game type: live games (a real-time clock, seconds per move, or
#: none: every game rated before pools existed) and correspondence games
POOLS = ("live", "correspondence")
LIVE, CORRESPONDENCE = POOLS
#: how long before a move's time runs out its player is reminded: a day with two days per
#: move or more, else a quarter of the time per move (1-day games: 6 hours before)
REMINDER_LEAD = DAY


def check_days_per_move(body: JSON) -> JSON:
    """The options of a correspondence game asked for by a create request's ``body``
    (``days_per_move`` and its ``time_limit`` in seconds), none if it asks for none; a
    400 for a value not offered or one sent with a ``time_limit`` as well."""
    days = body.get("days_per_move")
    if days is None:
        return {}
    if type(days) is not int or days not in DAYS_PER_MOVE:
        raise ApiError(
            400,
            "'days_per_move' is one of {choices} (a correspondence game's days per move)",
            choices=", ".join(map(str, DAYS_PER_MOVE)),
        )
    if body.get("time_limit") or body.get("clock_base") is not None:
        raise ApiError(
            400, "a correspondence game has its 'days_per_move' only: no 'time_limit' or clock"
        )
    return {"days_per_move": days, "time_limit": days * DAY}


def days_per_move(options: JSON) -> int | None:
    """A stored game's days per move; ``None`` if it is not a correspondence game."""
    days = options.get("days_per_move")
    return days if type(days) is int and days in DAYS_PER_MOVE else None


def rating_pool(options: JSON) -> str:
    """The rating pool a game with these stored options counts for: a real-time clock
    (``clock_base``) is live whatever else it says; days per move are correspondence;
    everything else (seconds per move, no time limit, every game rated before pools)
    is live."""
    if options.get("clock_base") is not None:
        return LIVE
    return CORRESPONDENCE if days_per_move(options) is not None else LIVE


def check_pool(raw: str | None) -> str:
    """A ``pool`` query parameter (``None``: live); 400 for another value."""
    pool = LIVE if raw is None else raw
    if pool not in POOLS:
        raise ApiError(400, "'pool' must be one of {names}", names=", ".join(POOLS))
    return pool


def reminder_lead(time_limit: float) -> int:
    """Seconds before a move's time runs out that its player is reminded:
    ``REMINDER_LEAD`` with two days per move or more, a quarter of the time with fewer
    (a day's reminder would come as the move's time began)."""
    return REMINDER_LEAD if time_limit >= 2 * DAY else int(time_limit // 4)
