"""The daily challenge: one deal per game and day (UTC), the same for everybody.

A day's deal is the game's daily setup (``GameType.daily_players`` seats and
``daily_options``, by default solo with default options) shuffled from a seed
derived from the game's name and the date alone, so anyone can reproduce it and
nothing is stored in advance. The server counts one attempt per account and day
(``server.dailies``); the terminal plays the same deal uncounted (``<game> daily``).

>>> daily_seed("nmbr9", date(2026, 11, 26)) == daily_seed("nmbr9", date(2026, 11, 26))
True
>>> daily_seed("nmbr9", date(2026, 11, 26)) != daily_seed("nova-luna", date(2026, 11, 26))
True
>>> 0 <= daily_seed("nmbr9", date(2026, 11, 26)) < 2**62
True
>>> ranked([90, 87, 90, 70], lower_is_better=False)
[1, 3, 1, 4]
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from .core.errors import KeyedError
from .i18n import N_

if TYPE_CHECKING:
    from .core.game import JSON, GameType

#: The first day with a daily challenge: earlier practice days are refused (they would
#: be as good as any other seed, but a bounded calendar keeps the day picker honest).
FIRST_DAY = date(2024, 1, 1)


class DayError(KeyedError):
    """A day that is not a daily challenge's: malformed, in the future or too early."""


def today() -> date:
    """Today in UTC: every player's day changes at the same moment."""
    return datetime.now(UTC).date()


def daily_seed(game_name: str, day: date) -> int:
    """The day's seed: sha256 of ``"tabletop daily <game> <YYYY-MM-DD>"``, its first
    eight bytes as a big-endian number, shifted to 62 bits (fits every store's seed)."""
    digest = hashlib.sha256(f"tabletop daily {game_name} {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def day_of_seed(game_name: str, seed: int, latest: date) -> date | None:
    """The day whose deal ``seed`` is, searching back from ``latest`` to ``FIRST_DAY``
    (a few thousand hashes at most), or None: a game of that seed is that day's daily.

    >>> day_of_seed("nmbr9", daily_seed("nmbr9", date(2026, 11, 2)), date(2026, 11, 28))
    datetime.date(2026, 11, 2)
    >>> day_of_seed("nmbr9", 42, date(2026, 11, 28)) is None
    True
    """
    day = latest
    while day >= FIRST_DAY:
        if daily_seed(game_name, day) == seed:
            return day
        day -= timedelta(days=1)
    return None


def parse_day(text: Any, now: date | None = None) -> date:
    """The day ``text`` (``YYYY-MM-DD``) names; ``DayError`` if it is no date, lies in
    the future (UTC) or before ``FIRST_DAY``."""
    if not isinstance(text, str) or len(text) != 10:
        raise DayError(N_("a day is written YYYY-MM-DD, e.g. {example}"), example="2026-11-26")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise DayError(
            N_("a day is written YYYY-MM-DD, e.g. {example}"), example="2026-11-26"
        ) from None
    latest = now or today()
    if day > latest:
        raise DayError(N_("{day} has not come yet (today is {today}, UTC)"), day=text, today=latest)
    if day < FIRST_DAY:
        raise DayError(N_("the daily challenges start on {first}"), first=FIRST_DAY.isoformat())
    return day


@dataclass(frozen=True)
class Deal:
    """A game's daily deal: what to create (``players`` seats with ``options``, from
    ``seed``) and the bot whose result is shown beside the players'."""

    game: str
    day: date
    seed: int
    players: int
    options: JSON

    def to_json(self) -> JSON:
        return {"game": self.game, "day": self.day.isoformat(), "seed": self.seed}


def deal(game: GameType, day: date) -> Deal:
    """``game``'s deal of ``day``, its options checked (defaults filled in)."""
    options = game.check_options(dict(game.daily_options), game.daily_players)
    return Deal(game.name, day, daily_seed(game.name, day), game.daily_players, options)


def ranked(scores: Sequence[float], *, lower_is_better: bool) -> list[int]:
    """Each score's rank, 1 best, equal scores sharing a rank (1, 1, 3)."""
    sign = 1 if lower_is_better else -1
    return [1 + sum(sign * (other - mine) < 0 for other in scores) for mine in scores]
