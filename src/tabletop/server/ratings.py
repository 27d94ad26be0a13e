"""Ratings per game for accounts and bot strengths: openskill's Plackett-Luce model.

A player is ``"a:<account id>"`` or ``"b:<bot spec>"``. A rated game's end updates
every seat's rating inside the transaction that stores the game's last action
(``apply``), so it happens exactly once and a crash can never keep one without
the other. Bots start from the ratings in ``data/bot_ratings.json``, made by
``scripts/seed_bot_ratings.py`` from a tournament; a bot that file has no entry for (a
game added without running the script, or hosted from outside) from a default set by
its place in the page's offer (``bot_starts``); accounts from openskill's default.
Every rated game against a bot moves its rating too, so a default start settles.
Shown is the conservative ``ordinal()`` (mu - 3 sigma).

Two rules keep one person with two accounts from lifting one of them (issue 29):

* **Games of a pair count less and less**: the k-th rated game of ``game_type``
  between the same two accounts within ``PAIR_WINDOW`` counts ``1/k``: every change it
  makes to their ratings (mu and sigma) is scaled by that weight (``pair_weight``).
  Among several accounts an account's weight comes from its most frequent partner.
  Bots are not accounts: a game against a bot always counts in full.
* **Provisional until tested**: an account is provisional in a game type until it has
  played rated games that counted for it (weight above 0) against
  ``PROVISIONAL_OPPONENTS`` different opponents (accounts or bot strengths); the
  leaderboard lists it apart, after the established players.

And one rule keeps fresh accounts from lifting anybody (issue 42: eight alts, each
losing one game at once, lifted a new account to the top of the board):

* **Only a tested opponent moves your rating** (``trust``): a game counts for an
  account only if every other account in it is established (not provisional) in the
  game type, and then only as far as their ratings are known (``certainty``). A
  provisional account's own rating moves against established accounts and bots, so
  newcomers get rated, and become established by playing them; but a win over a
  provisional account, of which anyone can make any number, lifts nobody. An alt
  that first gets established against bots carries the low and uncertain rating it
  earned there: beating it gains a fraction, and less with each game of the pair.

>>> import sqlite3
>>> from tabletop.server.sql import SQLITE, Sql
>>> db = Sql(sqlite3.connect(":memory:"), SQLITE)
>>> _ = db.run("CREATE TABLE ratings (type TEXT, player TEXT, mu REAL, sigma REAL, "
...     "games INTEGER, PRIMARY KEY (type, player))")
>>> _ = db.run("CREATE TABLE rating_changes (game_id TEXT, player TEXT, rank INTEGER, "
...     "before REAL, after REAL)")
>>> _ = db.run("CREATE TABLE games (id TEXT, type TEXT, updated TEXT)")
>>> _ = db.run("INSERT INTO games VALUES ('g1', 'nmbr9', '2026'), ('g2', 'nmbr9', '2026')")
>>> _ = db.run("ALTER TABLE rating_changes ADD COLUMN weight REAL NOT NULL DEFAULT 1")
>>> _ = db.run("ALTER TABLE rating_changes ADD COLUMN pool TEXT NOT NULL DEFAULT 'live'")
>>> apply(db, "g1", RatedEnd("nmbr9", ("a:1", "a:2"), (1, 2)))
>>> [round(r.ordinal()) for r in (current(db, "nmbr9", "a:1"), current(db, "nmbr9", "a:2"))]
[0, 0]
>>> apply(db, "g2", RatedEnd("nmbr9", ("a:1", "b:test"), (1, 2)))  # a bot is tested
>>> round(current(db, "nmbr9", "a:1").ordinal())
3
>>> scaled(MODEL.rating(mu=25, sigma=8), MODEL.rating(mu=27, sigma=7), 0.5)
(26.0, 7.5)

Each game type has two **pools** (``correspondence.rating_pool``): live games and
correspondence games are rated apart, since a player's strength with days to think is
another than with seconds. A pool's ratings are the ``ratings`` rows of its key
(``rating_key``): the game type's name for the live pool (so every rating made before
pools existed is the live one, unchanged), ``"<type>:correspondence"`` for the other;
each ``rating_changes`` row says its pool. Opponents and certainty count within the pool;
the games of a pair count less and less across both (farming one pool from the other
gains nothing).

>>> _ = db.run("INSERT INTO games VALUES ('g3', 'nmbr9', '2026')")
>>> apply(db, "g3", RatedEnd("nmbr9", ("a:1", "b:test"), (1, 2), "correspondence"))
>>> [round(current(db, k, "a:1").ordinal()) for k in ("nmbr9", "nmbr9:correspondence")]
[3, 3]
>>> game_of("nmbr9:correspondence"), rating_key("nmbr9", "live")
('nmbr9', 'nmbr9')
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce, PlackettLuceRating

from ..core.web import web_games
from .clock import CLOCK
from .sql import Sql

if TYPE_CHECKING:
    from .rows import Seat

MODEL = PlackettLuce()
#: the period in which the games of one pair of accounts count less and less
PAIR_WINDOW = timedelta(days=30)
#: different opponents an account must have met before it is ranked with the others
PROVISIONAL_OPPONENTS = 3


@dataclass(frozen=True)
class RatedEnd:
    """A rated game's end: its type, each seat's player and rank (1 best, ties shared)."""

    type: str
    players: tuple[str, ...]
    ranks: tuple[int, ...]
    pool: str = "live"  # ``correspondence.POOLS``

    @property
    def key(self) -> str:
        """Its pool's key in ``ratings`` (``rating_key``)."""
        return rating_key(self.type, self.pool)


def rating_key(game_type: str, pool: str) -> str:
    """The ``ratings.type`` of a game type's pool: the game type itself for the live
    pool (every rating from before pools), ``"<type>:<pool>"`` for the others."""
    return game_type if pool == "live" else f"{game_type}:{pool}"


def game_of(key: str) -> str:
    """The game type of a pool's key (``rating_key``)."""
    return key.split(":", 1)[0]


def pool_of(key: str) -> str:
    """The pool of a pool's key (``rating_key``)."""
    return key.split(":", 1)[1] if ":" in key else "live"


@cache
def bot_seeds() -> dict[str, dict[str, dict[str, float]]]:
    """``{game type: {bot spec: {"mu", "sigma"}}}`` from the tournament data file."""
    path = resources.files("tabletop.server").joinpath("data/bot_ratings.json")
    try:
        seeds: dict[str, dict[str, dict[str, float]]] = json.loads(path.read_text())["ratings"]
        return seeds
    except FileNotFoundError:
        return {}


#: How far apart the default starts of a game's unseeded bots lie (in mu): openskill's
#: default mu for the middle one of the page's offer, this much more for each place
#: towards the strongest (offered last), less towards the weakest.
UNSEEDED_STEP = 4.0


@cache
def bot_starts(game_type: str) -> dict[str, dict[str, float]]:
    """``{bot spec: {"mu", "sigma", "games"}}``: where each bot a rated game of
    ``game_type`` can seat starts. The seeded rating where ``data/bot_ratings.json``
    has one (``"games"``: of its tournament); else the default: ``UNSEEDED_STEP`` apart
    by its place in the offer, with openskill's default sigma (as wide as a newcomer's:
    its first rated games settle it), ``"games"`` 0."""
    offered = _offered_bots(game_type)
    default = MODEL.rating()
    middle = (len(offered) - 1) / 2
    starts = {
        spec: {
            "mu": default.mu + UNSEEDED_STEP * (place - middle),
            "sigma": default.sigma,
            "games": 0,
        }
        for place, spec in enumerate(offered)
    }
    return starts | bot_seeds().get(game_type, {})


def _offered_bots(game_type: str) -> list[str]:
    """The bots the page offers for a game of several seats, weakest first."""
    game = web_games().get(game_type)
    if game is None:
        return []
    offers = game.bot_offers.get("standard") or [b for m in game.bot_offers.values() for b in m]
    return list(dict.fromkeys(str(offer["spec"]) for offer in offers))


def initial(game_type: str, player: str) -> PlackettLuceRating:
    """A player's rating before their first rated game of ``game_type``."""
    start = bot_starts(game_type).get(player.removeprefix("b:"))
    if player.startswith("b:") and start is not None:
        return MODEL.rating(mu=start["mu"], sigma=start["sigma"])
    return MODEL.rating()


def current(sql: Sql, key: str, player: str) -> PlackettLuceRating:
    """A player's rating now in the pool ``key`` (``rating_key``; a game type's name is
    its live pool), as ``sql`` (either database) holds it."""
    row = sql.row("SELECT mu, sigma FROM ratings WHERE type = ? AND player = ?", (key, player))
    return initial(game_of(key), player) if row is None else MODEL.rating(mu=row[0], sigma=row[1])


def apply(sql: Sql, game_id: str, rated: RatedEnd) -> None:
    """Rate the game's end, within the caller's transaction (``writes.AppendAction``):
    each player's change scaled by its ``pair_weight``, in the game's pool."""
    before = [current(sql, rated.key, p) for p in rated.players]
    after = MODEL.rate([[r] for r in before], ranks=list(rated.ranks))
    weights = [
        pair_weight(sql, rated.type, p, rated.players) * trust(sql, rated.key, p, rated.players)
        for p in rated.players
    ]
    rows = zip(rated.players, rated.ranks, before, after, weights, strict=True)
    for player, rank, old, (full,), weight in rows:
        mu, sigma = scaled(old, full, weight)
        sql.run(
            "INSERT INTO ratings (type, player, mu, sigma, games) VALUES (?, ?, ?, ?, 1) "
            "ON CONFLICT (type, player) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, games = ratings.games + 1",
            (rated.key, player, mu, sigma),
        )
        new = MODEL.rating(mu=mu, sigma=sigma)
        sql.run(
            "INSERT INTO rating_changes (game_id, player, rank, before, after, weight, pool) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, player, rank, old.ordinal(), new.ordinal(), weight, rated.pool),
        )


def scaled(old: PlackettLuceRating, full: PlackettLuceRating, weight: float) -> tuple[float, float]:
    """``(mu, sigma)`` moved from ``old`` towards ``full`` (the whole update) by ``weight``."""
    return old.mu + weight * (full.mu - old.mu), old.sigma + weight * (full.sigma - old.sigma)


def pair_weight(sql: Sql, game_type: str, player: str, players: tuple[str, ...]) -> float:
    """``1/k`` for an account whose k-th rated game of ``game_type`` within
    ``PAIR_WINDOW`` this is against one of the other accounts in ``players`` (the most
    frequent one); 1 for a bot, or with no other account in the game."""
    if not player.startswith("a:"):
        return 1.0
    since = (CLOCK.utc() - PAIR_WINDOW).isoformat(timespec="milliseconds")
    earlier = [
        _games_together(sql, game_type, player, other, since)
        for other in players
        if other.startswith("a:") and other != player
    ]
    return 1.0 / (1 + max(earlier, default=0))


def _games_together(sql: Sql, game_type: str, player: str, other: str, since: str) -> int:
    """Rated games of ``game_type`` that ``player`` and ``other`` both played, ended
    ``since`` or later."""
    row = sql.row(
        "SELECT COUNT(*) FROM rating_changes a "
        "JOIN rating_changes b ON b.game_id = a.game_id AND b.player = ? "
        "JOIN games g ON g.id = a.game_id "
        "WHERE a.player = ? AND g.type = ? AND g.updated >= ?",
        (other, player, game_type, since),
    )
    return int(row[0]) if row else 0


def trust(sql: Sql, key: str, player: str, players: tuple[str, ...]) -> float:
    """How much the game may move ``player``'s rating, by what is known of the other
    accounts among ``players`` (the least known decides): 0 while one is provisional
    in the pool ``key`` (its result says nothing yet: anyone can make such accounts),
    then ``certainty`` of its rating. Bots are known: they do not lower it."""
    others = [o for o in players if o.startswith("a:") and o != player]
    if any(provisional(o, opponents(sql, key, o)) for o in others):
        return 0.0
    return min((certainty(current(sql, key, o)) for o in others), default=1.0)


def certainty(rating: PlackettLuceRating) -> float:
    """``1 - (sigma / sigma0)**2``: the share of a new player's uncertainty (openskill's
    variance) its games have removed, 0 for a new account, near 1 for a well-known
    one. A win over an account that has played a few games moves a rating a little;
    an alt made established cheaply (three games) lifts its maker by a fraction."""
    sigma0 = MODEL.rating().sigma
    return max(0.0, min(1.0, 1.0 - (rating.sigma / sigma0) ** 2))


def opponents(sql: Sql, key: str, player: str) -> int:
    """The different opponents ``player`` met in rated games of the pool ``key`` (a
    game type's name: its live pool) that counted for it (``OPPONENTS_SQL`` for one
    player)."""
    row = sql.row(
        "SELECT COUNT(DISTINCT o.player) FROM rating_changes m "
        "JOIN rating_changes o ON o.game_id = m.game_id AND o.player <> m.player "
        "JOIN games g ON g.id = m.game_id "
        "WHERE m.player = ? AND g.type = ? AND m.pool = ? AND m.weight > 0",
        (player, game_of(key), pool_of(key)),
    )
    return int(row[0]) if row else 0


#: SQL for a ``ratings`` row ``r``'s distinct opponents in rated games of its pool that
#: counted for it (a game against a provisional account does not: ``trust``); the
#: pool's key made as ``rating_key`` makes it
OPPONENTS_SQL = (
    "(SELECT COUNT(DISTINCT o.player) FROM rating_changes m "
    "JOIN rating_changes o ON o.game_id = m.game_id AND o.player <> m.player "
    "JOIN games g ON g.id = m.game_id "
    "WHERE m.player = r.player AND m.weight > 0 AND "
    "(CASE WHEN m.pool = 'live' THEN g.type ELSE g.type || ':' || m.pool END) = r.type)"
)


def provisional(player: str, opponents: int) -> bool:
    """Whether a player is still provisional: an account that has met fewer than
    ``PROVISIONAL_OPPONENTS`` different opponents (a bot never is)."""
    return player.startswith("a:") and opponents < PROVISIONAL_OPPONENTS


def player_key(seat: Seat) -> str:
    """A seat's player in the ratings: its account or its bot."""
    return f"a:{seat.account_id}" if seat.kind == "human" else f"b:{seat.bot}"
