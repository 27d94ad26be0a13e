"""The bots' starting ratings (``server/data/bot_ratings.json``, made by
``scripts/seed_bot_ratings.py`` from the project's tournaments): every bot a rated
game of a shipped game can seat starts from the tournament, so a new player sees how
strong each is; a game with no entry (Toy Draft) starts its bots from the documented
default (``ratings.bot_starts``), and its rated games settle them."""

from __future__ import annotations

import sqlite3

from tabletop.core.web import web_games
from tabletop.server.ratings import (
    MODEL,
    UNSEEDED_STEP,
    RatedEnd,
    apply,
    bot_seeds,
    bot_starts,
    current,
    initial,
)
from tabletop.server.sql import SQLITE, Sql


def _ordinal(game: str, spec: str) -> float:
    return initial(game, f"b:{spec}").ordinal()


def test_a_seeded_game_starts_every_bot_it_offers_from_the_tournament() -> None:
    seeds = bot_seeds()
    assert {"nova-luna", "nmbr9"} <= set(seeds)  # seeded; a new game need not be
    for name in seeds:  # an entry covers exactly the bots offered: none stale, none left
        game = web_games()[name]
        offered = {b["spec"] for b in game.describe()["bots"]["standard"]}
        assert set(seeds[name]) == offered, name
        for spec in offered:  # a seeded start, not the default of an unseeded bot
            assert bot_starts(name)[spec]["games"] > 0, (name, spec)
            assert initial(name, f"b:{spec}").mu != MODEL.rating().mu, (name, spec)


def test_the_seeded_bots_rank_random_below_greedy_below_every_searcher() -> None:
    for name in bot_seeds():
        searchers = [s for s in bot_seeds()[name] if s not in ("random", "greedy")]
        assert _ordinal(name, "random") < _ordinal(name, "greedy"), name
        for spec in searchers:
            assert _ordinal(name, "greedy") < _ordinal(name, spec), (name, spec)


def test_a_game_without_seeded_ratings_starts_its_bots_from_the_documented_default() -> None:
    assert "toy" not in bot_seeds()  # Toy Draft is hosted by the tests: never seeded
    starts = bot_starts("toy")
    offered = [b["spec"] for b in web_games()["toy"].bot_offers["standard"]]
    assert list(starts) == offered == ["random", "greedy"]
    default = MODEL.rating()
    # around openskill's default, UNSEEDED_STEP apart, weakest (offered first) lowest
    assert [starts[s]["mu"] for s in offered] == [
        default.mu - UNSEEDED_STEP / 2,
        default.mu + UNSEEDED_STEP / 2,
    ]
    assert all(starts[s]["sigma"] == default.sigma and starts[s]["games"] == 0 for s in offered)
    assert _ordinal("toy", "random") < _ordinal("toy", "greedy")
    assert initial("toy", "a:1") == default  # accounts start as everywhere


def test_rated_games_settle_an_unseeded_bot_from_its_default_start() -> None:
    db = Sql(sqlite3.connect(":memory:"), SQLITE)
    for table in (
        "ratings (type TEXT, player TEXT, mu REAL, sigma REAL, games INTEGER, "
        "PRIMARY KEY (type, player))",
        "rating_changes (game_id TEXT, player TEXT, rank INTEGER, before REAL, after REAL, "
        "weight REAL NOT NULL DEFAULT 1, pool TEXT NOT NULL DEFAULT 'live')",
        "games (id TEXT, type TEXT, updated TEXT)",
    ):
        db.run(f"CREATE TABLE {table}")

    def play(number: int, players: tuple[str, str]) -> None:  # the first one wins
        db.run("INSERT INTO games VALUES (?, 'toy', '2026')", (f"g{number}",))
        apply(db, f"g{number}", RatedEnd("toy", players, (1, 2)))

    # an account established against three bots (a bot's rating moves only against
    # established accounts: docs/web.md, "Fair play")
    for number, bot in enumerate(("b:random", "b:x", "b:y")):
        play(number, ("a:1", bot))
    start = current(db, "toy", "b:greedy")
    assert start == initial("toy", "b:greedy")  # the default, no game yet
    for number in range(3, 6):
        play(number, ("a:1", "b:greedy"))
    now = current(db, "toy", "b:greedy")
    assert now.mu < start.mu and now.sigma < start.sigma  # it settles from its games
