"""Ratings per game for accounts and bot strengths: openskill's Plackett-Luce model.

A player is ``"a:<account id>"`` or ``"b:<bot spec>"``. A rated game's end updates
every seat's rating inside the transaction that stores the game's last action
(``apply``), so it happens exactly once and a crash can never keep one without
the other. Bots start from the ratings in ``data/bot_ratings.json``, made by
``scripts/seed_bot_ratings.py`` from a tournament; accounts from openskill's default.
Shown is the conservative ``ordinal()`` (mu - 3 sigma).

>>> import sqlite3
>>> from tabletop.server.sql import SQLITE, Sql
>>> db = Sql(sqlite3.connect(":memory:"), SQLITE)
>>> _ = db.run("CREATE TABLE ratings (type TEXT, player TEXT, mu REAL, sigma REAL, "
...     "games INTEGER, PRIMARY KEY (type, player))")
>>> _ = db.run("CREATE TABLE rating_changes (game_id TEXT, player TEXT, rank INTEGER, "
...     "before REAL, after REAL)")
>>> apply(db, "g1", RatedEnd("nmbr9", ("a:1", "a:2"), (1, 2)))
>>> [round(r.ordinal()) for r in (current(db, "nmbr9", "a:1"), current(db, "nmbr9", "a:2"))]
[3, -2]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce, PlackettLuceRating

from .sql import Sql

if TYPE_CHECKING:
    from .rows import Seat

MODEL = PlackettLuce()


@dataclass(frozen=True)
class RatedEnd:
    """A rated game's end: its type, each seat's player and rank (1 best, ties shared)."""

    type: str
    players: tuple[str, ...]
    ranks: tuple[int, ...]


@cache
def bot_seeds() -> dict[str, dict[str, dict[str, float]]]:
    """``{game type: {bot spec: {"mu", "sigma"}}}`` from the tournament data file."""
    path = resources.files("tabletop.server").joinpath("data/bot_ratings.json")
    try:
        seeds: dict[str, dict[str, dict[str, float]]] = json.loads(path.read_text())["ratings"]
        return seeds
    except FileNotFoundError:
        return {}


def initial(game_type: str, player: str) -> PlackettLuceRating:
    """A player's rating before their first rated game of ``game_type``."""
    seed = bot_seeds().get(game_type, {}).get(player.removeprefix("b:"))
    if player.startswith("b:") and seed is not None:
        return MODEL.rating(mu=seed["mu"], sigma=seed["sigma"])
    return MODEL.rating()


def current(sql: Sql, game_type: str, player: str) -> PlackettLuceRating:
    """A player's rating now, as ``sql`` (either database) holds it."""
    row = sql.row(
        "SELECT mu, sigma FROM ratings WHERE type = ? AND player = ?", (game_type, player)
    )
    return initial(game_type, player) if row is None else MODEL.rating(mu=row[0], sigma=row[1])


def apply(sql: Sql, game_id: str, rated: RatedEnd) -> None:
    """Rate the game's end, within the caller's transaction (``writes.AppendAction``)."""
    before = [current(sql, rated.type, p) for p in rated.players]
    after = MODEL.rate([[r] for r in before], ranks=list(rated.ranks))
    for player, rank, old, (new,) in zip(rated.players, rated.ranks, before, after, strict=True):
        sql.run(
            "INSERT INTO ratings (type, player, mu, sigma, games) VALUES (?, ?, ?, ?, 1) "
            "ON CONFLICT (type, player) DO UPDATE SET mu = excluded.mu, "
            "sigma = excluded.sigma, games = ratings.games + 1",
            (rated.type, player, new.mu, new.sigma),
        )
        sql.run(
            "INSERT INTO rating_changes (game_id, player, rank, before, after) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, player, rank, old.ordinal(), new.ordinal()),
        )


def player_key(seat: Seat) -> str:
    """A seat's player in the ratings: its account or its bot."""
    return f"a:{seat.account_id}" if seat.kind == "human" else f"b:{seat.bot}"
